#include "import/gltf/document.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "import/source_files.h"

namespace rig::gltf {

namespace {

uint32_t word(std::string_view bytes, size_t at) {
    uint32_t w = 0;
    if (at + 4 <= bytes.size()) std::memcpy(&w, bytes.data() + at, 4);
    return w;
}

// Header (magic, version, length), then chunk 0 (length, type "JSON", data), then chunk 1, if
// any (length, type "BIN\0", data).
GlbLayout readLayout(std::string_view bytes) {
    GlbLayout g;
    g.isGlb = bytes.substr(0, 4) == "glTF";
    if (!g.isGlb) return g;
    g.headLength = std::min<size_t>(bytes.size(), 20);
    g.version = word(bytes, 4);
    g.claimedEnd = std::max<uint64_t>(g.headLength, 12);
    if (g.headLength >= 12) g.claimedEnd = std::max<uint64_t>(g.claimedEnd, word(bytes, 8));
    if (g.headLength < 20) return g;
    const uint64_t jsonLength = word(bytes, 12);
    const uint64_t jsonEnd = 20 + jsonLength;
    g.claimedEnd = std::max(g.claimedEnd, jsonEnd);
    if (bytes.substr(16, 4) == "JSON" && jsonEnd <= bytes.size()) g.json = bytes.substr(20, jsonLength);
    if (jsonEnd + 8 <= bytes.size() && bytes.substr(jsonEnd + 4, 4) == std::string_view("BIN\0", 4)) {
        const uint64_t binLength = word(bytes, jsonEnd);
        g.claimedEnd = std::max(g.claimedEnd, jsonEnd + 8 + binLength);
        if (jsonEnd + 8 + binLength <= bytes.size()) g.bin = bytes.substr(jsonEnd + 8, binLength);
    }
    return g;
}

}  // namespace

bool decodeBase64(std::string_view text, std::string& out) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+' || c == '-') return 62;
        if (c == '/' || c == '_') return 63;
        return -1;
    };
    out.clear();
    out.reserve(text.size() / 4 * 3);
    uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=') break;
        const int v = value(c);
        if (v < 0) return false;
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((acc >> bits) & 0xff));
        }
    }
    return true;
}

Document::Document(std::string path, std::string_view bytes, SourceFiles* files)
    : path_(std::move(path)), bytes_(bytes), files_(files), glb_(readLayout(bytes)) {
    std::string_view text = bytes;
    if (glb_.isGlb) {
        if (!glb_.json) return;
        text = *glb_.json;
    }
    json_ = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (!json_.is_object()) json_ = nlohmann::json();
}

const std::string_view* Document::buffer(size_t b) const {
    if (auto it = buffers_.find(b); it != buffers_.end()) return it->second ? &*it->second : nullptr;
    std::optional<std::string_view>& slot = buffers_[b];
    const auto list = valid() ? json_.find("buffers") : json_.end();
    if (!valid() || list == json_.end() || !list->is_array() || b >= list->size() || !(*list)[b].is_object()) return nullptr;
    const nlohmann::json& buf = (*list)[b];
    const auto uri = buf.find("uri");
    if (uri == buf.end()) {
        if (b == 0 && glb_.bin) slot = *glb_.bin;
    } else if (uri->is_string()) {
        const std::string& text = uri->get_ref<const std::string&>();
        if (text.rfind("data:", 0) == 0) {
            const size_t comma = text.find(',');
            std::string& data = decoded_[b];
            if (comma != std::string::npos && text.find(";base64") < comma &&
                decodeBase64(std::string_view(text).substr(comma + 1), data)) {
                slot = std::string_view(data);
            }
        } else if (files_ && text.find(':') == std::string::npos) {
            // A file beside the .gltf (its folder and below: SourceFiles' rule, as for Assimp).
            const std::string file = (std::filesystem::path(path_).parent_path() / text).string();
            if (const std::string* data = files_->read(file)) slot = std::string_view(*data);
        }
    }
    return slot ? &*slot : nullptr;
}

}  // namespace rig::gltf
