#include "import/gltf/document.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace rig {

bool readGltfJson(const std::string& bytes, bool glb, nlohmann::json& out, std::string* glbBin) {
    std::string text;
    if (glb) {
        // Header (magic, version, length) then chunk 0: length, type "JSON", data.
        if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return false;
        uint32_t len = 0;
        std::memcpy(&len, bytes.data() + 12, 4);
        if (bytes.compare(16, 4, "JSON") != 0 || 20ull + len > bytes.size()) return false;
        text = bytes.substr(20, len);
        // Chunk 1, if any: length, type "BIN\0", data (the buffer with no uri).
        const size_t bin = 20ull + len;
        if (glbBin && bin + 8 <= bytes.size() && bytes.compare(bin + 4, 4, std::string("BIN\0", 4)) == 0) {
            uint32_t binLen = 0;
            std::memcpy(&binLen, bytes.data() + bin, 4);
            if (bin + 8 + binLen <= bytes.size()) *glbBin = bytes.substr(bin + 8, binLen);
        }
    } else {
        text = bytes;
    }
    out = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    return !out.is_discarded() && out.is_object();
}

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

bool readGltfFile(const std::string& path, nlohmann::json& out, std::string* glbBin) {
    const std::string ext = lowerExtension(path);
    if (ext != ".gltf" && ext != ".glb") return false;
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return readGltfJson(bytes, ext == ".glb", out, glbBin);
}

}  // namespace rig
