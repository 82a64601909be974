#include "import/gltf/keys.h"
#include "import/gltf/document.h"
#include "util/paths.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

namespace rig {

namespace {

using nlohmann::json;

// The name Assimp gives glTF node n: its "name", or "nodes[n]" when it has none.
std::string nodeName(const json& nodes, size_t n) {
    if (n < nodes.size() && nodes[n].is_object() && nodes[n].contains("name") && nodes[n]["name"].is_string()) {
        const std::string name = nodes[n]["name"].get<std::string>();
        if (!name.empty()) return name;
    }
    return "nodes[" + std::to_string(n) + "]";
}

bool decodeBase64(const std::string& in, size_t from, std::string& out) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+' || c == '-') return 62;
        if (c == '/' || c == '_') return 63;
        return -1;
    };
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = from; i < in.size(); ++i) {
        if (in[i] == '=') break;
        const int v = value(in[i]);
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

// The bytes of the glTF's buffers, read on demand: a data: URI, a file beside the .gltf,
// or the .glb's BIN chunk.
class Buffers {
public:
    Buffers(const json& doc, const std::string& path, std::string glbBin)
        : doc_(doc), dir_(std::filesystem::path(path).parent_path()), folder_(paths::modelFolder(path)) {
        glbBin_ = std::move(glbBin);
    }
    const std::string* get(size_t b) {
        if (auto it = cache_.find(b); it != cache_.end()) return it->second.empty() && !ok_[b] ? nullptr : &it->second;
        std::string& data = cache_[b];
        ok_[b] = load(b, data);
        return ok_[b] ? &data : nullptr;
    }

private:
    bool load(size_t b, std::string& data) const {
        if (!doc_.contains("buffers") || !doc_["buffers"].is_array() || b >= doc_["buffers"].size()) return false;
        const json& buf = doc_["buffers"][b];
        if (!buf.is_object()) return false;
        if (!buf.contains("uri")) {
            data = glbBin_;
            return b == 0 && !glbBin_.empty();
        }
        if (!buf["uri"].is_string()) return false;
        const std::string uri = buf["uri"].get<std::string>();
        if (uri.rfind("data:", 0) == 0) {
            const size_t comma = uri.find(',');
            return comma != std::string::npos && uri.find(";base64") < comma && decodeBase64(uri, comma + 1, data);
        }
        // Only inside the model's folder, as for Assimp's own reads (util/paths).
        const std::filesystem::path file = dir_ / uri;
        if (!paths::mayRead(folder_, file.string())) return false;
        std::ifstream in(file, std::ios::binary);
        if (!in) return false;
        data.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return true;
    }
    const json& doc_;
    std::filesystem::path dir_;
    std::string folder_;  // canonical, for the model-folder rule
    std::string glbBin_;
    std::map<size_t, std::string> cache_;
    std::map<size_t, bool> ok_;
};

// A SCALAR accessor as floats (float, or normalized integer components as glTF defines
// them). False for sparse accessors, other types or data out of bounds.
bool readScalars(const json& doc, Buffers& buffers, size_t index, std::vector<float>& out) {
    if (!doc.contains("accessors") || !doc["accessors"].is_array() || index >= doc["accessors"].size()) return false;
    const json& acc = doc["accessors"][index];
    if (!acc.is_object() || acc.contains("sparse") || !acc.contains("bufferView") || acc.value("type", "") != "SCALAR") return false;
    if (!acc["bufferView"].is_number_unsigned() || !acc.contains("count") || !acc["count"].is_number_unsigned()) return false;
    const size_t viewIndex = acc["bufferView"].get<size_t>();
    if (!doc.contains("bufferViews") || viewIndex >= doc["bufferViews"].size()) return false;
    const json& view = doc["bufferViews"][viewIndex];
    if (!view.is_object() || !view.contains("buffer") || !view["buffer"].is_number_unsigned()) return false;
    const std::string* data = buffers.get(view["buffer"].get<size_t>());
    if (!data) return false;
    const int type = acc.value("componentType", 0);
    const size_t size = type == 5126 ? 4 : (type == 5123 || type == 5122) ? 2 : (type == 5121 || type == 5120) ? 1 : 0;
    if (size == 0 || (type != 5126 && !acc.value("normalized", false))) return false;
    const size_t count = acc["count"].get<size_t>();
    const size_t stride = view.value("byteStride", static_cast<size_t>(0)) ? view.value("byteStride", size) : size;
    const size_t start = view.value("byteOffset", static_cast<size_t>(0)) + acc.value("byteOffset", static_cast<size_t>(0));
    const size_t viewEnd = view.value("byteOffset", static_cast<size_t>(0)) + view.value("byteLength", static_cast<size_t>(0));
    if (count == 0 || viewEnd > data->size() || start + (count - 1) * stride + size > viewEnd) return false;
    out.resize(count);
    for (size_t i = 0; i < count; ++i) {
        const char* p = data->data() + start + i * stride;
        float v = 0.0f;
        if (type == 5126) {
            std::memcpy(&v, p, 4);
        } else if (type == 5123) {
            uint16_t u;
            std::memcpy(&u, p, 2);
            v = u / 65535.0f;
        } else if (type == 5122) {
            int16_t u;
            std::memcpy(&u, p, 2);
            v = std::max(u / 32767.0f, -1.0f);
        } else if (type == 5121) {
            v = static_cast<uint8_t>(*p) / 255.0f;
        } else {
            v = std::max(static_cast<int8_t>(*p) / 127.0f, -1.0f);
        }
        out[i] = v;
    }
    return true;
}

// Pair glTF node indices with skeleton nodes by walking both trees (see GltfNodes).
bool mapNodes(const json& doc, const Skeleton& sk, GltfNodes& out) {
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    const json& scenes = doc.contains("scenes") ? doc["scenes"] : json();
    if (!nodes.is_array() || !scenes.is_array() || scenes.empty() || sk.size() == 0) return false;
    size_t si = 0;
    if (doc.contains("scene") && doc["scene"].is_number_unsigned()) si = doc["scene"].get<size_t>();
    if (si >= scenes.size() || !scenes[si].is_object() || !scenes[si].contains("nodes")) return false;
    const json& roots = scenes[si]["nodes"];
    if (!roots.is_array() || roots.empty()) return false;
    std::vector<std::vector<int32_t>> children(sk.size());
    for (size_t i = 0; i < sk.size(); ++i) {
        if (sk.parent[i] >= 0) children[sk.parent[i]].push_back(static_cast<int32_t>(i));
    }
    out.nodeOfJson.assign(nodes.size(), -1);
    out.jsonOfNode.assign(sk.size(), -1);
    struct Pair { int64_t json; int32_t node; };
    std::vector<Pair> stack;
    auto childIndices = [&](const json& list, std::vector<int64_t>& idx) {
        idx.clear();
        if (!list.is_array()) return;
        for (const json& c : list) idx.push_back(c.is_number_unsigned() ? static_cast<int64_t>(c.get<size_t>()) : -1);
    };
    std::vector<int64_t> idx;
    childIndices(roots, idx);
    if (idx.size() == 1) {
        stack.push_back({idx[0], 0});
    } else {
        if (children[0].size() != idx.size()) return false;
        for (size_t k = 0; k < idx.size(); ++k) stack.push_back({idx[k], children[0][k]});
    }
    while (!stack.empty()) {
        const Pair p = stack.back();
        stack.pop_back();
        if (p.json < 0 || static_cast<size_t>(p.json) >= nodes.size()) return false;
        const size_t j = static_cast<size_t>(p.json);
        if (out.nodeOfJson[j] >= 0 || nodeName(nodes, j) != sk.names[p.node]) return false;
        out.nodeOfJson[j] = p.node;
        out.jsonOfNode[p.node] = static_cast<int32_t>(j);
        childIndices(nodes[j].is_object() && nodes[j].contains("children") ? nodes[j]["children"] : json(), idx);
        if (idx.size() != children[p.node].size()) return false;
        for (size_t k = 0; k < idx.size(); ++k) stack.push_back({idx[k], children[p.node][k]});
    }
    return true;
}

float accessorBound(const json& doc, const json& accessor, const char* key) {
    if (!accessor.is_number_unsigned() || !doc.contains("accessors")) return 0.0f;
    const json& list = doc["accessors"];
    const size_t a = accessor.get<size_t>();
    if (!list.is_array() || a >= list.size() || !list[a].is_object() || !list[a].contains(key)) return 0.0f;
    const json& v = list[a][key];
    return v.is_array() && !v.empty() && v[0].is_number() ? v[0].get<float>() : 0.0f;
}

uint32_t accessorCount(const json& doc, const json& accessor) {
    if (!accessor.is_number_unsigned() || !doc.contains("accessors")) return 0;
    const json& list = doc["accessors"];
    const size_t a = accessor.get<size_t>();
    if (!list.is_array() || a >= list.size() || !list[a].is_object() || !list[a].contains("count")) return 0;
    return list[a]["count"].is_number_unsigned() ? list[a]["count"].get<uint32_t>() : 0;
}

// The bytes of every buffer: a .glb's BIN chunk, base64 data: URIs, or files beside the .gltf
// (plain names below its folder only). An unreadable buffer is left empty.
std::vector<std::string> loadBuffers(const json& doc, const std::string& path, const std::string& ext) {
    std::vector<std::string> out;
    if (!doc.contains("buffers") || !doc["buffers"].is_array()) return out;
    std::string glbBin;
    if (ext == ".glb") {
        std::ifstream in(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        uint32_t jsonLen = 0, binLen = 0;
        if (bytes.size() >= 20) std::memcpy(&jsonLen, bytes.data() + 12, 4);
        const size_t bin = 20ull + jsonLen;
        if (bytes.size() >= bin + 8 && bytes.compare(bin + 4, 4, std::string("BIN\0", 4)) == 0) {
            std::memcpy(&binLen, bytes.data() + bin, 4);
            if (bin + 8 + binLen <= bytes.size()) glbBin = bytes.substr(bin + 8, binLen);
        }
    }
    for (const json& b : doc["buffers"]) {
        std::string data;
        const std::string uri = b.is_object() && b.contains("uri") && b["uri"].is_string() ? b["uri"].get<std::string>() : "";
        if (uri.empty()) {
            data = glbBin;
        } else if (uri.rfind("data:", 0) == 0) {
            const size_t comma = uri.find(";base64,");
            if (comma != std::string::npos) {
                static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
                uint32_t acc = 0;
                int bits = 0;
                for (size_t i = comma + 8; i < uri.size(); ++i) {
                    const size_t v = alphabet.find(uri[i]);
                    if (v == std::string::npos) continue;  // '=' padding
                    acc = (acc << 6) | static_cast<uint32_t>(v);
                    bits += 6;
                    if (bits >= 8) {
                        bits -= 8;
                        data.push_back(static_cast<char>((acc >> bits) & 0xff));
                    }
                }
            }
        } else if (uri.find(':') == std::string::npos) {
            // Files beside the .gltf only, as for every resource (see util/paths.h).
            const std::filesystem::path file = std::filesystem::path(path).parent_path() / uri;
            if (paths::mayRead(paths::modelFolder(path), file.string())) {
                std::ifstream in(file, std::ios::binary);
                data.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            }
        }
        out.push_back(std::move(data));
    }
    return out;
}

// An unsigned member of a JSON object, or `fallback` when absent or of another type (a file
// from a stranger may put anything there).
size_t unsignedOr(const json& o, const char* key, size_t fallback) {
    return o.is_object() && o.contains(key) && o[key].is_number_unsigned() ? o[key].get<size_t>() : fallback;
}

// The bytes of element `index` (n components) of an accessor, or nullptr when it cannot be
// read; `componentType` receives the accessor's.
const char* elementBytes(const json& doc, const std::vector<std::string>& buffers, const json& accessor, size_t index, int n,
                         size_t& componentType) {
    if (!accessor.is_number_unsigned() || !doc.contains("accessors") || !doc.contains("bufferViews")) return nullptr;
    const json& accs = doc["accessors"];
    const json& views = doc["bufferViews"];
    const size_t a = accessor.get<size_t>();
    if (!accs.is_array() || a >= accs.size() || !accs[a].is_object()) return nullptr;
    const json& acc = accs[a];
    componentType = unsignedOr(acc, "componentType", 0);
    const size_t size = componentType == 5126 || componentType == 5125   ? 4
                        : componentType == 5122 || componentType == 5123 ? 2
                        : componentType == 5120 || componentType == 5121 ? 1
                                                                         : 0;
    if (size == 0 || !acc.contains("bufferView") || !acc["bufferView"].is_number_unsigned()) return nullptr;
    const size_t v = acc["bufferView"].get<size_t>();
    if (!views.is_array() || v >= views.size() || !views[v].is_object()) return nullptr;
    const json& view = views[v];
    const size_t b = unsignedOr(view, "buffer", 0);
    if (b >= buffers.size()) return nullptr;
    const size_t stride = std::min<size_t>(unsignedOr(view, "byteStride", 0) ? unsignedOr(view, "byteStride", 0) : size * n, 1u << 20);
    const size_t offset = std::min<size_t>(unsignedOr(view, "byteOffset", 0), size_t(1) << 40) +
                          std::min<size_t>(unsignedOr(acc, "byteOffset", 0), size_t(1) << 40);
    if (index >= unsignedOr(acc, "count", 0) || index > (size_t(1) << 32)) return nullptr;
    const size_t at = offset + index * stride;
    if (at + size * n > buffers[b].size()) return nullptr;
    return buffers[b].data() + at;
}

// Element `index` of a FLOAT accessor with `n` components; false if it cannot be read.
bool readFloats(const json& doc, const std::vector<std::string>& buffers, const json& accessor, size_t index, int n,
                float* out) {
    size_t type = 0;
    const char* bytes = elementBytes(doc, buffers, accessor, index, n, type);
    if (!bytes || type != 5126) return false;
    std::memcpy(out, bytes, 4u * n);
    return true;
}

// Element `index` of a VEC4 rotation accessor: FLOAT, or normalized BYTE / SHORT (glTF's
// quantized rotations: c / 127 or c / 32767, at least -1), as (x, y, z, w).
bool readRotation(const json& doc, const std::vector<std::string>& buffers, const json& accessor, size_t index, float* out) {
    size_t type = 0;
    const char* bytes = elementBytes(doc, buffers, accessor, index, 4, type);
    if (!bytes || (type != 5126 && type != 5120 && type != 5122)) return false;
    for (int c = 0; c < 4; ++c) {
        if (type == 5126) {
            std::memcpy(&out[c], bytes + 4 * c, 4);
        } else if (type == 5120) {
            out[c] = std::max(static_cast<float>(static_cast<int8_t>(bytes[c])) / 127.0f, -1.0f);
        } else {
            int16_t q = 0;
            std::memcpy(&q, bytes + 2 * c, 2);
            out[c] = std::max(static_cast<float>(q) / 32767.0f, -1.0f);
        }
    }
    return true;
}

// The channel of `clip` that glTF animation channel `ch` drives (translation, rotation or
// scale of a node with a track; one with no keys only where `allowEmpty`), or nullptr.
// Targets by index where the tree maps (two nodes may share a name), by name otherwise.
Channel* targetChannel(const json& ch, const json& nodes, const GltfNodes& map, bool byIndex, const Skeleton& sk, Clip& clip,
                       bool allowEmpty = false) {
    if (!ch.is_object() || !ch.contains("target")) return nullptr;
    const json& target = ch["target"];
    const size_t jn = unsignedOr(target, "node", SIZE_MAX);
    if (jn == SIZE_MAX) return nullptr;
    const int32_t node = byIndex ? (jn < map.nodeOfJson.size() ? map.nodeOfJson[jn] : -1) : sk.find(nodeName(nodes, jn));
    if (node < 0 || static_cast<size_t>(node) >= clip.trackOfNode.size() || clip.trackOfNode[node] < 0) return nullptr;
    Track& tr = clip.tracks[clip.trackOfNode[node]];
    const std::string p = target.contains("path") && target["path"].is_string() ? target["path"].get<std::string>() : "";
    Channel* c = p == "translation" ? &tr.translation : p == "rotation" ? &tr.rotation : p == "scale" ? &tr.scale : nullptr;
    return c && (c->count || allowEmpty) ? c : nullptr;
}

// Calls each(clip, channel, sampler) for every channel of every animation whose sampler exists
// (both JSON objects), then done(clip) after each animation, when the file has as many
// animations as the model has clips (Assimp's clips, in file order). Returns false otherwise.
template <class Each, class Done>
bool forEachChannel(const json& doc, Model& model, Each&& each, Done&& done) {
    const json& anims = doc.contains("animations") ? doc["animations"] : json();
    if (!anims.is_array() || anims.size() != model.clips.size()) return false;
    for (size_t a = 0; a < anims.size(); ++a) {
        const json& an = anims[a];
        if (!an.is_object() || !an.contains("channels") || !an.contains("samplers")) continue;
        const json& channels = an["channels"];
        const json& samplers = an["samplers"];
        if (!channels.is_array() || !samplers.is_array()) continue;
        Clip& clip = model.clips[a];
        for (const json& ch : channels) {
            const size_t s = unsignedOr(ch, "sampler", SIZE_MAX);
            if (s < samplers.size() && samplers[s].is_object()) each(clip, ch, samplers[s]);
        }
        done(clip);
    }
    return true;
}

int applyGltfMorphsUnchecked(const std::string& path, Model& model);

}  // namespace

int applyGltfMorphs(const std::string& path, Model& model) {
    // JSON of the wrong type where Assimp did not look (a numeric accessor name, a string
    // byteStride) makes nlohmann::json throw: the refinement is then skipped, as for a file
    // that cannot be read. Each track is replaced whole, so what was done before stays valid.
    try {
        return applyGltfMorphsUnchecked(path, model);
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
}

namespace {

int applyGltfMorphsUnchecked(const std::string& path, Model& model) {
    const std::string ext = lowerExtension(path);
    if (ext != ".gltf" && ext != ".glb") return 0;
    bool anyTargets = false;
    for (const Mesh& m : model.meshes) anyTargets = anyTargets || !m.morphTargets.empty();
    if (!anyTargets) return 0;
    json doc;
    std::string bin;
    if (!readGltfFile(path, doc, &bin)) return 0;
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    const json& meshes = doc.contains("meshes") ? doc["meshes"] : json();
    if (!nodes.is_array() || !meshes.is_array()) return 0;
    // The rigview meshes (with morph targets) that glTF node n's mesh became.
    auto meshesOfNode = [&](size_t n, std::vector<size_t>& out) -> const json* {
        out.clear();
        if (n >= nodes.size() || !nodes[n].is_object() || !nodes[n].contains("mesh") || !nodes[n]["mesh"].is_number_unsigned()) return nullptr;
        const size_t gm = nodes[n]["mesh"].get<size_t>();
        if (gm >= meshes.size() || !meshes[gm].is_object()) return nullptr;
        const int32_t node = model.skeleton.find(nodeName(nodes, n));
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            if (model.meshes[m].node == node && node >= 0 && !model.meshes[m].morphTargets.empty()) out.push_back(m);
        }
        return &meshes[gm];
    };
    std::vector<size_t> targetsOf;
    for (size_t n = 0; n < nodes.size(); ++n) {
        const json* gm = meshesOfNode(n, targetsOf);
        if (!gm) continue;
        std::vector<std::string> names;
        if (gm->contains("extras") && (*gm)["extras"].is_object() && (*gm)["extras"].contains("targetNames") &&
            (*gm)["extras"]["targetNames"].is_array()) {
            for (const json& t : (*gm)["extras"]["targetNames"]) names.push_back(t.is_string() ? t.get<std::string>() : "");
        } else if (gm->contains("primitives") && (*gm)["primitives"].is_array() && !(*gm)["primitives"].empty()) {
            const json& prim = (*gm)["primitives"][0];
            const json& accessors = doc.contains("accessors") ? doc["accessors"] : json();
            if (prim.is_object() && prim.contains("targets") && prim["targets"].is_array() && accessors.is_array()) {
                for (const json& t : prim["targets"]) {
                    std::string name;
                    if (t.is_object() && t.contains("POSITION") && t["POSITION"].is_number_unsigned()) {
                        const size_t a = t["POSITION"].get<size_t>();
                        if (a < accessors.size() && accessors[a].is_object()) name = accessors[a].value("name", "");
                    }
                    names.push_back(name);
                }
            }
        }
        for (size_t m : targetsOf) {
            Mesh& mesh = model.meshes[m];
            if (names.size() != mesh.morphTargets.size()) continue;
            for (size_t t = 0; t < names.size(); ++t) {
                if (!names[t].empty()) mesh.morphTargets[t].name = names[t];
            }
        }
    }

    Buffers buffers(doc, path, std::move(bin));
    int read = 0;
    auto each = [&](Clip& clip, const json& ch, const json& sampler) {
        if (!ch.contains("target")) return;
        const json& target = ch["target"];
        if (!target.is_object() || target.value("path", "") != "weights" || !target.contains("node") ||
            !target["node"].is_number_unsigned()) return;
        if (!sampler.contains("input") || !sampler.contains("output") || !sampler["input"].is_number_unsigned() ||
            !sampler["output"].is_number_unsigned()) return;
        const std::string mode = sampler.value("interpolation", "LINEAR");
        const WeightInterpolation interp = mode == "STEP" ? WeightInterpolation::Step
                                           : mode == "CUBICSPLINE" ? WeightInterpolation::CubicSpline
                                                                   : WeightInterpolation::Linear;
        if (!meshesOfNode(target["node"].get<size_t>(), targetsOf) || targetsOf.empty()) return;
        std::vector<float> times, values;
        if (!readScalars(doc, buffers, sampler["input"].get<size_t>(), times) ||
            !readScalars(doc, buffers, sampler["output"].get<size_t>(), values)) return;
        const size_t perKey = interp == WeightInterpolation::CubicSpline ? 3 : 1;
        if (times.empty() || values.size() % (times.size() * perKey) != 0) return;
        const uint32_t nt = static_cast<uint32_t>(values.size() / (times.size() * perKey));
        bool finiteKeys = std::is_sorted(times.begin(), times.end());
        for (float v : times) finiteKeys = finiteKeys && std::isfinite(v);
        for (float v : values) finiteKeys = finiteKeys && std::isfinite(v);
        if (!finiteKeys) return;
        for (size_t m : targetsOf) {
            if (model.meshes[m].morphTargets.size() != nt) continue;
            MorphTrack track;
            track.mesh = static_cast<int32_t>(m);
            track.targets = nt;
            track.count = static_cast<uint32_t>(times.size());
            track.interpolation = interp;
            track.times = clip.addTimes(times.data(), track.count);
            track.values = static_cast<uint32_t>(clip.morphKeys.size());
            clip.morphKeys.insert(clip.morphKeys.end(), values.begin(), values.end());
            auto it = std::find_if(clip.morphTracks.begin(), clip.morphTracks.end(),
                                   [&](const MorphTrack& t) { return t.mesh == track.mesh; });
            if (it != clip.morphTracks.end()) {
                *it = track;
            } else {
                clip.morphTracks.push_back(track);
            }
            ++read;
        }
    };
    auto done = [](Clip& clip) {
        std::sort(clip.morphTracks.begin(), clip.morphTracks.end(),
                  [](const MorphTrack& x, const MorphTrack& y) { return x.mesh < y.mesh; });
        extendClipRangeToMorphs(clip);
    };
    forEachChannel(doc, model, each, done);
    return read;
}

}  // namespace

GltfNodes readGltfNodes(const std::string& path, const Skeleton& sk) {
    GltfNodes out;
    json doc;
    if (!readGltfFile(path, doc) || !mapNodes(doc, sk, out)) return GltfNodes{};
    const json& nodes = doc["nodes"];
    out.skinOfJson.assign(nodes.size(), -1);
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (nodes[n].is_object() && nodes[n].contains("skin") && nodes[n]["skin"].is_number_unsigned()) {
            out.skinOfJson[n] = static_cast<int32_t>(nodes[n]["skin"].get<size_t>());
        }
    }
    if (doc.contains("skins") && doc["skins"].is_array()) {
        for (const json& skin : doc["skins"]) {
            std::vector<int32_t> joints;
            if (skin.is_object() && skin.contains("joints") && skin["joints"].is_array()) {
                for (const json& j : skin["joints"]) {
                    const bool ok = j.is_number_unsigned() && j.get<size_t>() < nodes.size();
                    joints.push_back(ok ? out.nodeOfJson[j.get<size_t>()] : -1);
                }
            }
            out.skinJoints.push_back(std::move(joints));
        }
    }
    const std::vector<std::string> buffers = loadBuffers(doc, path, lowerExtension(path));
    if (doc.contains("animations") && doc["animations"].is_array()) {
        for (const json& an : doc["animations"]) {
            std::vector<GltfNodes::Target> targets;
            const bool ok = an.is_object() && an.contains("channels") && an["channels"].is_array() &&
                            an.contains("samplers") && an["samplers"].is_array();
            if (ok) {
                const json& samplers = an["samplers"];
                for (const json& ch : an["channels"]) {
                    if (!ch.is_object() || !ch.contains("target") || !ch.contains("sampler")) continue;
                    const json& t = ch["target"];
                    if (!t.is_object() || !t.contains("node") || !t["node"].is_number_unsigned()) continue;
                    const size_t jn = t["node"].get<size_t>();
                    if (jn >= nodes.size() || out.nodeOfJson[jn] < 0) continue;
                    const std::string p = t.contains("path") && t["path"].is_string() ? t["path"].get<std::string>() : "";
                    const int k = p == "translation" ? 0 : p == "rotation" ? 1 : p == "scale" ? 2 : -1;
                    if (k < 0 || !ch["sampler"].is_number_unsigned() || ch["sampler"].get<size_t>() >= samplers.size()) continue;
                    const json& sampler = samplers[ch["sampler"].get<size_t>()];
                    if (!sampler.is_object() || !sampler.contains("input")) continue;
                    auto it = std::find_if(targets.begin(), targets.end(),
                                           [&](const GltfNodes::Target& x) { return x.node == out.nodeOfJson[jn]; });
                    if (it == targets.end()) {
                        targets.emplace_back();
                        it = targets.end() - 1;
                        it->node = out.nodeOfJson[jn];
                        it->first = accessorBound(doc, sampler["input"], "min");
                        it->last = accessorBound(doc, sampler["input"], "max");
                    }
                    it->counts[k] = accessorCount(doc, sampler["input"]);
                    if (it->counts[k] > 0 && sampler.contains("output")) {
                        // CUBICSPLINE outputs hold (in-tangent, value, out-tangent) per key.
                        const bool cubic = sampler.contains("interpolation") && sampler["interpolation"] == "CUBICSPLINE";
                        const size_t last = it->counts[k] - 1;
                        const int n = k == 1 ? 4 : 3;
                        it->hasValues[k] = readFloats(doc, buffers, sampler["output"], cubic ? 1 : 0, n, it->firstValue[k]) &&
                                           readFloats(doc, buffers, sampler["output"], cubic ? 3 * last + 1 : last, n, it->lastValue[k]);
                    }
                    it->first = std::min(it->first, accessorBound(doc, sampler["input"], "min"));
                    it->last = std::max(it->last, accessorBound(doc, sampler["input"], "max"));
                }
            }
            out.animationTargets.push_back(std::move(targets));
        }
    }
    out.valid = true;
    return out;
}

int applyGltfStepInterpolation(const std::string& path, Model& model) {
    const std::string ext = lowerExtension(path);
    if (ext != ".gltf" && ext != ".glb") return 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) return 0;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return applyGltfStepInterpolationToBytes(bytes, ext == ".glb", model);
}

int applyGltfStepInterpolationToBytes(const std::string& bytes, bool glb, Model& model) {
    json doc;
    if (!readGltfJson(bytes, glb, doc)) return 0;
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    if (!nodes.is_array()) return 0;
    // Targets by index where the tree maps (two nodes may share a name), by name otherwise.
    GltfNodes map;
    const bool byIndex = mapNodes(doc, model.skeleton, map);
    int marked = 0;
    auto each = [&](Clip& clip, const json& ch, const json& sampler) {
        if (!sampler.contains("interpolation") || sampler["interpolation"] != "STEP") return;
        Channel* c = targetChannel(ch, nodes, map, byIndex, model.skeleton, clip);
        if (!c) return;
        c->interpolation = Interpolation::Step;
        ++marked;
    };
    forEachChannel(doc, model, each, [](Clip&) {});
    return marked;
}

namespace {

int applyGltfNodeKeysUnchecked(const std::string& path, Model& model) {
    const std::string ext = lowerExtension(path);
    json doc;
    if (!readGltfFile(path, doc)) return 0;
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    if (!nodes.is_array()) return 0;
    GltfNodes map;
    const bool byIndex = mapNodes(doc, model.skeleton, map);
    const std::vector<std::string> buffers = loadBuffers(doc, path, ext);
    int restored = 0;
    bool changed = false;  // in the current clip
    // Non-unit rotation keys of the current clip, from the file's own values (Assimp's count
    // is of its reading: noise for quantized keys); false where a rotation channel was not read.
    uint32_t nonUnit = 0;
    bool allRotationsRead = true;
    std::vector<std::string> nonUnitNames;
    std::vector<float> times;
    std::vector<glm::quat> rotations;
    auto each = [&](Clip& clip, const json& ch, const json& sampler) {
        const bool isRotation = ch.contains("target") && ch["target"].is_object() && ch["target"].contains("path") &&
                                ch["target"]["path"] == "rotation";
        const json& input = sampler.contains("input") ? sampler["input"] : json();
        const json& output = sampler.contains("output") ? sampler["output"] : json();
        const uint32_t count = accessorCount(doc, input);
        const bool cubic = sampler.contains("interpolation") && sampler["interpolation"] == "CUBICSPLINE";
        // Quantized rotations: Assimp copies their bytes into floats, so its keys are noise (and
        // some, or all, dropped as non-finite); they are read again here.
        const size_t outputType = output.is_number_unsigned() && doc.contains("accessors") && doc["accessors"].is_array() &&
                                          output.get<size_t>() < doc["accessors"].size()
                                      ? unsignedOr(doc["accessors"][output.get<size_t>()], "componentType", 0)
                                      : 0;
        const bool quantized = isRotation && (outputType == 5120 || outputType == 5122);
        Channel* c = targetChannel(ch, nodes, map, byIndex, model.skeleton, clip, quantized);
        if (!c || c->times + static_cast<size_t>(c->count) > clip.times.size()) {
            allRotationsRead = allRotationsRead && !isRotation;
            return;
        }
        // Every key's value (CUBICSPLINE: the middle of in-tangent, value, out-tangent).
        const size_t perKey = cubic ? 3 : 1;
        const bool outputFits = count > 0 && count <= (1u << 24) && accessorCount(doc, output) == perKey * count;
        if (isRotation) {
            bool read = outputFits;
            uint32_t found = 0;
            for (uint32_t k = 0; k < count && read; ++k) {
                float q[4];
                read = readRotation(doc, buffers, output, perKey * k + perKey / 2, q);
                found += read && isNonUnitRotation(q[0], q[1], q[2], q[3]);
            }
            allRotationsRead = allRotationsRead && read;
            if (read && found) {
                nonUnit += found;
                for (const Track& t : clip.tracks) {
                    if (&t.rotation == c) nonUnitNames.push_back(model.skeleton.names[t.node] + ".rotation");
                }
            }
        }
        // CUBICSPLINE: Assimp's keys are the values (played linearly); only quantized ones are
        // read again, the same way.
        if (count == 0 || count > (1u << 24) || (cubic && !quantized)) return;
        if (!quantized && count != c->count) return;
        times.resize(count);
        bool ok = true;
        for (uint32_t k = 0; k < count && ok; ++k) {
            ok = readFloats(doc, buffers, input, k, 1, &times[k]) && std::isfinite(times[k]) && (k == 0 || times[k] > times[k - 1]);
            if (ok && !quantized) {
                const float had = clip.times[c->times + k];
                ok = std::fabs(times[k] - had) <= 1e-4f + 1e-6f * std::fabs(had);
            }
        }
        if (quantized) {
            rotations.resize(count);
            for (uint32_t k = 0; k < count && ok; ++k) {
                float q[4];
                ok = outputFits && readRotation(doc, buffers, output, perKey * k + perKey / 2, q);
                const glm::quat r(q[3], q[0], q[1], q[2]);
                ok = ok && glm::length(r) > 0.5f;
                if (ok) rotations[k] = glm::normalize(r);
            }
        }
        if (!ok) return;
        c->times = clip.addTimes(times.data(), count);
        if (quantized) {
            // The keys of Assimp's reading that import dropped as non-finite were noise too.
            const uint32_t dropped = std::min({count > c->count ? count - c->count : 0u, clip.curveStats.nonFiniteKeys,
                                               model.stats.nonFiniteKeys});
            clip.curveStats.nonFiniteKeys -= dropped;
            model.stats.nonFiniteKeys -= dropped;
            c->values = static_cast<uint32_t>(clip.quatKeys.size());
            clip.quatKeys.insert(clip.quatKeys.end(), rotations.begin(), rotations.end());
            c->count = count;
        }
        changed = true;
        ++restored;
    };
    auto done = [&](Clip& clip) {
        CurveStats& cs = clip.curveStats;
        cs.nonUnitRotationKeys = allRotationsRead ? nonUnit : std::max(cs.nonUnitRotationKeys, nonUnit);
        for (const std::string& n : nonUnitNames) {
            if (cs.examples.size() < 10 && std::find(cs.examples.begin(), cs.examples.end(), n) == cs.examples.end()) {
                cs.examples.push_back(n);
            }
        }
        nonUnit = 0;
        allRotationsRead = true;
        nonUnitNames.clear();
        if (!changed) return;
        changed = false;
        // The clip's range from its channels' first and last keys, as import computed it.
        float first = std::numeric_limits<float>::infinity(), last = -first;
        for (const Track& t : clip.tracks) {
            for (const Channel* c : {&t.translation, &t.rotation, &t.scale}) {
                if (c->count == 0) continue;
                first = std::min(first, clip.times[c->times]);
                last = std::max(last, clip.times[c->times + c->count - 1]);
            }
        }
        if (first <= last) {
            clip.startTime = first;
            clip.duration = last;
        }
    };
    forEachChannel(doc, model, each, done);
    return restored;
}

}  // namespace

int applyGltfNodeKeys(const std::string& path, Model& model) {
    try {
        return applyGltfNodeKeysUnchecked(path, model);
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
}

}  // namespace rig
