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

// Length of the valid UTF-8 sequence at text[i], or 0 when the byte there starts none.
size_t utf8Length(std::string_view text, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((b(i + k) & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogates
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // past U+10FFFF
    return n;
}

// The text with every byte that starts no valid UTF-8 sequence written as U+10FF00 + the byte.
std::string mapInvalidBytes(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 64);
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8Length(text, i);
        if (n) {
            out.append(text.substr(i, n));
            i += n;
            continue;
        }
        const unsigned char c = static_cast<unsigned char>(text[i++]);
        out += {'\xF4', '\x8F', static_cast<char>(0xBC + (c >> 6)), static_cast<char>(0x80 + (c & 0x3F))};
    }
    return out;
}

}  // namespace

void restoreBytes(std::string& text) {
    size_t w = 0;
    for (size_t r = 0; r < text.size();) {
        const auto b = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
        if (r + 3 < text.size() && b(r) == 0xF4 && b(r + 1) == 0x8F && b(r + 2) >= 0xBC && b(r + 2) <= 0xBF && (b(r + 3) & 0xC0) == 0x80) {
            text[w++] = static_cast<char>(((b(r + 2) - 0xBC) << 6) | (b(r + 3) - 0x80));
            r += 4;
        } else {
            text[w++] = text[r++];
        }
    }
    text.resize(w);
}

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
    if (json_.is_discarded()) {
        // Bytes that are not UTF-8 (nlohmann::json refuses them in strings): read as private-use
        // code points, turned back into the bytes where names reach the Model.
        const std::string mapped = mapInvalidBytes(text);
        if (mapped.size() != text.size()) {
            json_ = nlohmann::json::parse(mapped.begin(), mapped.end(), nullptr, /*allow_exceptions=*/false);
            mappedBytes_ = json_.is_object();
        }
    }
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
            std::string name = text;
            if (mappedBytes_) restoreBytes(name);
            const std::string file = (std::filesystem::path(path_).parent_path() / name).string();
            if (const std::string* data = files_->read(file)) slot = std::string_view(*data);
        }
    }
    return slot ? &*slot : nullptr;
}

}  // namespace rig::gltf
