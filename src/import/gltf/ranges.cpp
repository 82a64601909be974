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

const char* componentName(uint64_t componentType) {
    switch (componentType) {
        case 5120: return "BYTE";
        case 5121: return "UNSIGNED_BYTE";
        case 5122: return "SHORT";
        case 5123: return "UNSIGNED_SHORT";
        case 5125: return "UNSIGNED_INT";
        case 5126: return "FLOAT";
        default: return "?";
    }
}

constexpr uint64_t kFloat = 5126;

// What an accessor may hold for one use: its types, and component types each plain (`plain`) or
// normalized (`normalized`), as glTF 2.0 allows them; `readable` the subset Assimp 5.2.5 reads
// right (it copies each element into a float vector of its own size, so a smaller element leaves
// bytes uninitialised and a larger one throws).
struct Use {
    const char* what;                         // "POSITION", "inverse bind matrices"...
    std::vector<const char*> types;
    std::vector<uint64_t> plain, normalized;  // allowed by glTF 2.0
    std::vector<uint64_t> readable;           // of those, what Assimp reads right (empty: all)
    const char* readableText = "";            // "FLOAT", said when a spec-valid one is not readable
};

const Use kPosition{"POSITION", {"VEC3"}, {kFloat}, {}, {}};
const Use kNormal{"NORMAL", {"VEC3"}, {kFloat}, {}, {}};
const Use kTangent{"TANGENT", {"VEC4"}, {kFloat}, {}, {}};
const Use kTargetTangent{"TANGENT", {"VEC3"}, {kFloat}, {}, {}};
const Use kTexcoord{"TEXCOORD", {"VEC2"}, {kFloat}, {5121, 5123}, {kFloat}, "FLOAT texture coordinates"};
const Use kColor{"COLOR", {"VEC3", "VEC4"}, {kFloat}, {5121, 5123}, {}};
const Use kJoints{"JOINTS", {"VEC4"}, {5121, 5123}, {}, {}};
const Use kWeights{"WEIGHTS", {"VEC4"}, {kFloat}, {5121, 5123}, {kFloat}, "FLOAT weights"};
const Use kIndices{"indices", {"SCALAR"}, {5121, 5123, 5125}, {}, {}};
const Use kInverseBind{"inverse bind matrices", {"MAT4"}, {kFloat}, {}, {}};
const Use kInput{"sampler input", {"SCALAR"}, {kFloat}, {}, {}};
const Use kVectorOutput{"translation or scale output", {"VEC3"}, {kFloat}, {}, {}};
const Use kRotationOutput{"rotation output", {"VEC4"}, {kFloat}, {5120, 5121, 5122, 5123}, {}};
const Use kWeightsOutput{"weights output", {"SCALAR"}, {kFloat}, {5120, 5121, 5122, 5123}, {}};

bool has(const std::vector<uint64_t>& list, uint64_t v) { return std::find(list.begin(), list.end(), v) != list.end(); }

// "VEC4 FLOAT, UNSIGNED_BYTE normalized or UNSIGNED_SHORT normalized"
std::string allowedText(const Use& use) {
    std::string types;
    for (size_t i = 0; i < use.types.size(); ++i) types += (i ? (i + 1 == use.types.size() ? " or " : ", ") : "") + std::string(use.types[i]);
    std::vector<std::string> parts;
    for (uint64_t c : use.plain) parts.push_back(componentName(c));
    for (uint64_t c : use.normalized) parts.push_back(std::string(componentName(c)) + " normalized");
    std::string comps;
    for (size_t i = 0; i < parts.size(); ++i) comps += (i ? (i + 1 == parts.size() ? " or " : ", ") : "") + parts[i];
    return types + " " + comps;
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
        if (accessors) checkUses(*accessors);
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
        if (acc.contains("normalized")) {
            if (!acc["normalized"].is_boolean()) return fail(name + ".normalized is not true or false");
            if (acc["normalized"].get<bool>() && (*type == 5126 || *type == 5125)) {
                return fail(name + " is normalized " + componentName(*type) + "; glTF 2.0 normalizes only BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT");
            }
        }
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

    // Each accessor against what its uses allow (the glTF 2.0 specification's tables for mesh
    // attributes, indices, morph targets, skins and animation samplers), before Assimp reads it.
    void checkUses(const json& accessors) {
        auto accessorOf = [&](const json& ref) -> const json* {
            if (!ref.is_number_unsigned() || ref.get<uint64_t>() >= accessors.size()) return nullptr;  // Assimp's to report
            return &accessors[ref.get<size_t>()];
        };
        auto check = [&](const json& ref, const Use& use, const std::string& where) {
            if (!error_.empty()) return;
            const json* acc = accessorOf(ref);
            if (!acc) return;
            const std::string name = "accessors[" + std::to_string(ref.get<size_t>()) + "] (" + where + ")";
            const std::string type = (*acc)["type"].get<std::string>();  // checked by checkAccessor
            const uint64_t component = field(*acc, "componentType", 0).value_or(0);
            const bool normalized = acc->contains("normalized") && (*acc)["normalized"].is_boolean() && (*acc)["normalized"].get<bool>();
            const std::string is = type + " " + componentName(component) + (normalized ? " normalized" : "");
            const bool typeOk = std::find_if(use.types.begin(), use.types.end(), [&](const char* t) { return type == t; }) != use.types.end();
            const bool componentOk = normalized ? has(use.normalized, component) : has(use.plain, component);
            if (!typeOk || !componentOk) return fail(name + " is " + is + "; glTF 2.0 allows " + allowedText(use));
            if (!use.readable.empty() && !(has(use.readable, component) && !normalized)) {
                return fail(name + " is " + is + ": Assimp 5.2.5 reads only " + use.readableText);
            }
        };
        if (const json* meshes = array("meshes")) {
            for (size_t m = 0; m < meshes->size(); ++m) {
                const json& mesh = (*meshes)[m];
                if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
                const json& prims = mesh["primitives"];
                for (size_t p = 0; p < prims.size(); ++p) {
                    const json& prim = prims[p];
                    if (!prim.is_object()) continue;
                    const std::string at = "meshes[" + std::to_string(m) + "].primitives[" + std::to_string(p) + "]";
                    if (prim.contains("attributes") && prim["attributes"].is_object()) {
                        for (const auto& [semantic, ref] : prim["attributes"].items()) checkAttribute(semantic, ref, at, check, false);
                    }
                    if (prim.contains("indices")) check(prim["indices"], kIndices, "indices of " + at);
                    if (prim.contains("targets") && prim["targets"].is_array()) {
                        const json& targets = prim["targets"];
                        for (size_t t = 0; t < targets.size(); ++t) {
                            if (!targets[t].is_object()) continue;
                            const std::string tat = at + ".targets[" + std::to_string(t) + "]";
                            for (const auto& [semantic, ref] : targets[t].items()) checkAttribute(semantic, ref, tat, check, true);
                        }
                    }
                }
            }
        }
        if (const json* skins = array("skins")) {
            for (size_t k = 0; k < skins->size(); ++k) {
                const json& skin = (*skins)[k];
                if (skin.is_object() && skin.contains("inverseBindMatrices")) {
                    check(skin["inverseBindMatrices"], kInverseBind, "inverse bind matrices of skins[" + std::to_string(k) + "]");
                }
            }
        }
        if (const json* anims = array("animations")) {
            for (size_t a = 0; a < anims->size(); ++a) {
                const json& anim = (*anims)[a];
                if (!anim.is_object() || !anim.contains("samplers") || !anim["samplers"].is_array()) continue;
                const json& samplers = anim["samplers"];
                const std::string at = "animations[" + std::to_string(a) + "]";
                for (size_t k = 0; k < samplers.size(); ++k) {
                    if (samplers[k].is_object() && samplers[k].contains("input")) {
                        check(samplers[k]["input"], kInput, "input of " + at + ".samplers[" + std::to_string(k) + "]");
                    }
                }
                if (!anim.contains("channels") || !anim["channels"].is_array()) continue;
                for (const json& ch : anim["channels"]) {
                    if (!ch.is_object() || !ch.contains("sampler") || !ch["sampler"].is_number_unsigned()) continue;
                    const size_t k = ch["sampler"].get<size_t>();
                    if (k >= samplers.size() || !samplers[k].is_object() || !samplers[k].contains("output")) continue;
                    const json* target = ch.contains("target") && ch["target"].is_object() ? &ch["target"] : nullptr;
                    const std::string path = target && target->contains("path") && (*target)["path"].is_string()
                                                 ? (*target)["path"].get<std::string>() : "";
                    const Use* use = path == "translation" || path == "scale" ? &kVectorOutput
                                     : path == "rotation"                     ? &kRotationOutput
                                     : path == "weights"                      ? &kWeightsOutput
                                                                              : nullptr;
                    if (use) check(samplers[k]["output"], *use, path + " output of " + at + ".samplers[" + std::to_string(k) + "]");
                }
            }
        }
    }

    // A mesh attribute or morph target attribute by its semantic ("TEXCOORD_1" as TEXCOORD);
    // semantics glTF does not define (an application's "_NAME") are not read by Assimp.
    template <class Check>
    void checkAttribute(const std::string& semantic, const json& ref, const std::string& at, Check& check, bool target) {
        const std::string where = semantic + " of " + at;
        auto set = [&](const char* prefix) { return semantic.rfind(prefix, 0) == 0; };
        if (semantic == "POSITION") check(ref, kPosition, where);
        else if (semantic == "NORMAL") check(ref, kNormal, where);
        else if (semantic == "TANGENT") check(ref, target ? kTargetTangent : kTangent, where);
        else if (target) return;  // other target attributes: Assimp reads none
        else if (set("TEXCOORD_")) check(ref, kTexcoord, where);
        else if (set("COLOR_")) check(ref, kColor, where);
        else if (set("JOINTS_")) check(ref, kJoints, where);
        else if (set("WEIGHTS_")) check(ref, kWeights, where);
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
