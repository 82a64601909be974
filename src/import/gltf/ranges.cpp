#include "import/gltf/ranges.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "import/gltf/document.h"

namespace rig::gltf {

namespace {

using nlohmann::json;
using u128 = unsigned __int128;

// An optional non-negative integer field: its value, the default when absent, nullopt when it
// is anything else (negative, fractional, a string, beyond 64 bits).
std::optional<uint64_t> field(const json& o, const char* key, uint64_t fallback) {
    if (!o.contains(key)) return fallback;
    const json& v = o[key];
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
    return std::nullopt;
}

uint64_t componentSize(uint64_t componentType) {
    switch (componentType) {
        case 5120: case 5121: return 1;  // BYTE, UNSIGNED_BYTE
        case 5122: case 5123: return 2;  // SHORT, UNSIGNED_SHORT
        case 5125: case 5126: return 4;  // UNSIGNED_INT, FLOAT
        default: return 0;
    }
}

// Bytes of one element, columns of matrices padded to 4 bytes as glTF lays them out; 0 for an
// unknown type.
uint64_t elementSize(const std::string& type, uint64_t component) {
    const auto padded = [&](uint64_t rows) { return (rows * component + 3) / 4 * 4; };
    if (type == "SCALAR") return component;
    if (type == "VEC2") return 2 * component;
    if (type == "VEC3") return 3 * component;
    if (type == "VEC4") return 4 * component;
    if (type == "MAT2") return 2 * padded(2);
    if (type == "MAT3") return 3 * padded(3);
    if (type == "MAT4") return 4 * padded(4);
    return 0;
}

// A byte count as a person reads it: "812 bytes", "41.3 kB", "1.2 MB" (decimal units).
std::string byteCount(uint64_t n) {
    char buf[48];
    if (n < 1000) std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(n));
    else if (n < 1000000) std::snprintf(buf, sizeof buf, "%.1f kB", n / 1e3);
    else std::snprintf(buf, sizeof buf, "%.1f MB", n / 1e6);
    return buf;
}

// A .glb whose header, JSON chunk or BIN chunk claims more bytes than the file has. Only glTF
// 2.0's layout (version 2, then chunks) is measured: glTF 1.0's binary files (version 1,
// KHR_binary_glTF) are left to Assimp, as some in the wild claim a few bytes more.
Result<bool> glbLengthCheck(const std::string& path, const GlbLayout& glb, uint64_t size) {
    const uint32_t version = glb.headLength >= 8 ? glb.version : 2;
    const uint64_t expected = glb.claimedEnd;
    if (version != 2 || expected <= size) return true;
    std::string have = byteCount(size), want = byteCount(expected);
    if (have == want) {  // rounded alike: the exact counts
        have = std::to_string(size) + " bytes";
        want = std::to_string(expected) + " bytes";
    }
    return Error{path + ": truncated: " + have + " of " + want};
}

class Checker {
public:
    Checker(const std::string& path, const json& doc, std::optional<uint64_t> glbBinLength)
        : path_(path), doc_(doc), glbBin_(glbBinLength) {}

    Result<bool> run() {
        // glTF 1.0 keeps these in objects by name, with other rules: Assimp's own reader.
        const json* asset = doc_.contains("asset") && doc_["asset"].is_object() ? &doc_["asset"] : nullptr;
        if (!asset || !asset->contains("version") || !(*asset)["version"].is_string() ||
            (*asset)["version"].get<std::string>().rfind("2", 0) != 0) {
            return true;
        }
        const json* views = array("bufferViews");
        const json* buffers = array("buffers");
        if (!error_.empty()) return Error{error_};
        viewLength_.assign(views ? views->size() : 0, 0);
        viewStride_.assign(views ? views->size() : 0, 0);
        for (size_t v = 0; views && v < views->size() && error_.empty(); ++v) checkView(*views, buffers, v);
        const json* accessors = array("accessors");
        for (size_t a = 0; accessors && a < accessors->size() && error_.empty(); ++a) checkAccessor((*accessors)[a], a);
        if (!error_.empty()) return Error{error_};
        return true;
    }

private:
    const json* array(const char* key) {
        if (!doc_.contains(key)) return nullptr;
        if (!doc_[key].is_array()) fail(std::string(key) + " is not an array");
        return doc_[key].is_array() ? &doc_[key] : nullptr;
    }

    void fail(const std::string& what) {
        if (error_.empty()) error_ = path_ + ": " + what + " (refused before import)";
    }

    void checkView(const json& views, const json* buffers, size_t v) {
        const json& view = views[v];
        const std::string name = "bufferViews[" + std::to_string(v) + "]";
        if (!view.is_object()) return fail(name + " is not an object");
        const auto buffer = field(view, "buffer", UINT64_MAX);
        const auto offset = field(view, "byteOffset", 0);
        const auto length = field(view, "byteLength", UINT64_MAX);
        const auto stride = field(view, "byteStride", 0);
        if (!buffer || !offset || !length || !stride || *buffer == UINT64_MAX || *length == UINT64_MAX) {
            return fail(name + " has a missing or invalid buffer, byteOffset, byteLength or byteStride");
        }
        if (*stride != 0 && (*stride < 4 || *stride > 252)) return fail(name + ".byteStride " + std::to_string(*stride) + " is outside 4..252");
        if (!buffers || *buffer >= buffers->size() || !(*buffers)[*buffer].is_object()) {
            return fail(name + ".buffer " + std::to_string(*buffer) + " names no buffer");
        }
        const json& b = (*buffers)[*buffer];
        const auto declared = field(b, "byteLength", UINT64_MAX);
        if (!declared || *declared == UINT64_MAX) return fail("buffers[" + std::to_string(*buffer) + "] has no valid byteLength");
        uint64_t size = *declared;
        if (glbBin_ && !b.contains("uri") && *buffer == 0) size = std::min(size, *glbBin_);
        if (u128(*offset) + *length > size) {
            return fail(name + " (bytes " + std::to_string(*offset) + " + " + std::to_string(*length) + ") runs past buffers[" +
                        std::to_string(*buffer) + "] (" + std::to_string(size) + " bytes)");
        }
        viewLength_[v] = *length;
        viewStride_[v] = *stride;
    }

    // Whether `count` elements of `element` bytes at `offset` in view `view` (every `stride`
    // bytes; 0: packed) lie inside it.
    void checkRange(const std::string& name, uint64_t view, uint64_t offset, uint64_t count, uint64_t element, uint64_t stride) {
        if (view >= viewLength_.size()) return fail(name + " names bufferViews[" + std::to_string(view) + "], which does not exist");
        if (count == 0) return;
        const uint64_t step = stride ? stride : element;
        const u128 end = u128(offset) + u128(step) * (count - 1) + element;
        if (end > viewLength_[view]) {
            return fail(name + " (byteOffset " + std::to_string(offset) + ", " + std::to_string(count) + " elements of " +
                        std::to_string(element) + " bytes) runs past bufferViews[" + std::to_string(view) + "] (" +
                        std::to_string(viewLength_[view]) + " bytes)");
        }
    }

    void checkAccessor(const json& acc, size_t a) {
        const std::string name = "accessors[" + std::to_string(a) + "]";
        if (!acc.is_object()) return fail(name + " is not an object");
        const auto count = field(acc, "count", UINT64_MAX);
        const auto offset = field(acc, "byteOffset", 0);
        const auto type = field(acc, "componentType", 0);
        if (!count || *count == UINT64_MAX || !offset || !type) return fail(name + " has a missing or invalid count, byteOffset or componentType");
        const uint64_t component = componentSize(*type);
        const uint64_t element = acc.contains("type") && acc["type"].is_string() ? elementSize(acc["type"].get<std::string>(), component) : 0;
        if (element == 0) return fail(name + " has an unknown type or componentType");
        if (acc.contains("bufferView")) {
            const auto view = field(acc, "bufferView", 0);
            if (!view) return fail(name + ".bufferView is not an index");
            checkRange(name, *view, *offset, *count, element, *view < viewStride_.size() ? viewStride_[*view] : 0);
        }
        if (!acc.contains("sparse")) return;
        const json& sparse = acc["sparse"];
        const auto sparseCount = sparse.is_object() ? field(sparse, "count", UINT64_MAX) : std::nullopt;
        if (!sparseCount || *sparseCount == UINT64_MAX || *sparseCount > *count) return fail(name + ".sparse.count is invalid");
        for (const char* part : {"indices", "values"}) {
            const json* p = sparse.contains(part) && sparse[part].is_object() ? &sparse[part] : nullptr;
            const auto view = p ? field(*p, "bufferView", UINT64_MAX) : std::nullopt;
            const auto at = p ? field(*p, "byteOffset", 0) : std::nullopt;
            if (!view || *view == UINT64_MAX || !at) return fail(name + ".sparse." + part + " is invalid");
            uint64_t size = element;
            if (std::string(part) == "indices") {
                const auto ct = field(*p, "componentType", 0);
                if (!ct || (*ct != 5121 && *ct != 5123 && *ct != 5125)) return fail(name + ".sparse.indices.componentType is invalid");
                size = componentSize(*ct);
            }
            checkRange(name + ".sparse." + part, *view, *at, *sparseCount, size, 0);
        }
    }

    const std::string& path_;
    const json& doc_;
    std::optional<uint64_t> glbBin_;
    std::vector<uint64_t> viewLength_, viewStride_;
    std::string error_;
};

}  // namespace

Result<bool> checkRanges(const Document& doc) {
    const GlbLayout& glb = doc.glb();
    if (glb.isGlb) {
        if (Result<bool> whole = glbLengthCheck(doc.path(), glb, doc.bytes().size()); !whole) return whole;
    }
    if (!doc.valid()) return true;  // not glTF JSON: Assimp reports it
    std::optional<uint64_t> binLength;
    if (glb.isGlb) binLength = glb.bin ? glb.bin->size() : 0;
    return Checker(doc.path(), doc.json(), binLength).run();
}

}  // namespace rig::gltf
