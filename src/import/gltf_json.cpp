#include "import/gltf_json.h"

#include <cstdint>
#include <cstring>

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

}  // namespace rig
