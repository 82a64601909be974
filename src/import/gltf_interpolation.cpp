#include "import/gltf_interpolation.h"
#include "util/paths.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

namespace rig {

namespace {

using nlohmann::json;

// The glTF JSON of a file's bytes: JSON text, or (`glb`) a binary container whose first chunk
// is the JSON; `glbBin`, when given, receives the container's BIN chunk (the buffer with no uri).
bool readJson(const std::string& bytes, bool glb, json& out, std::string* glbBin = nullptr) {
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
    out = json::parse(text, nullptr, /*allow_exceptions=*/false);
    return !out.is_discarded() && out.is_object();
}

// The name Assimp gives glTF node n: its "name", or "nodes[n]" when it has none.
std::string nodeName(const json& nodes, size_t n) {
    if (n < nodes.size() && nodes[n].is_object() && nodes[n].contains("name") && nodes[n]["name"].is_string()) {
        const std::string name = nodes[n]["name"].get<std::string>();
        if (!name.empty()) return name;
    }
    return "nodes[" + std::to_string(n) + "]";
}

std::string lowerExt(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
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
        if (!paths::allowExternal() && !paths::isInside(folder_, file.string())) return false;
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
    const std::string ext = lowerExt(path);
    if (ext != ".gltf" && ext != ".glb") return 0;
    bool anyTargets = false;
    for (const Mesh& m : model.meshes) anyTargets = anyTargets || !m.morphTargets.empty();
    if (!anyTargets) return 0;
    json doc;
    std::string bin;
    std::ifstream in(path, std::ios::binary);
    if (!in) return 0;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!readJson(bytes, ext == ".glb", doc, &bin)) return 0;
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

    const json& anims = doc.contains("animations") ? doc["animations"] : json();
    if (!anims.is_array() || anims.size() != model.clips.size()) return 0;
    Buffers buffers(doc, path, std::move(bin));
    int read = 0;
    for (size_t a = 0; a < anims.size(); ++a) {
        const json& an = anims[a];
        if (!an.is_object() || !an.contains("channels") || !an.contains("samplers")) continue;
        const json& channels = an["channels"];
        const json& samplers = an["samplers"];
        if (!channels.is_array() || !samplers.is_array()) continue;
        Clip& clip = model.clips[a];
        for (const json& ch : channels) {
            if (!ch.is_object() || !ch.contains("sampler") || !ch.contains("target") || !ch["sampler"].is_number_unsigned()) continue;
            const json& target = ch["target"];
            if (!target.is_object() || target.value("path", "") != "weights" || !target.contains("node") ||
                !target["node"].is_number_unsigned()) continue;
            const size_t s = ch["sampler"].get<size_t>();
            if (s >= samplers.size() || !samplers[s].is_object()) continue;
            const json& sampler = samplers[s];
            if (!sampler.contains("input") || !sampler.contains("output") || !sampler["input"].is_number_unsigned() ||
                !sampler["output"].is_number_unsigned()) continue;
            const std::string mode = sampler.value("interpolation", "LINEAR");
            const WeightInterpolation interp = mode == "STEP" ? WeightInterpolation::Step
                                               : mode == "CUBICSPLINE" ? WeightInterpolation::CubicSpline
                                                                       : WeightInterpolation::Linear;
            if (!meshesOfNode(target["node"].get<size_t>(), targetsOf) || targetsOf.empty()) continue;
            std::vector<float> times, values;
            if (!readScalars(doc, buffers, sampler["input"].get<size_t>(), times) ||
                !readScalars(doc, buffers, sampler["output"].get<size_t>(), values)) continue;
            const size_t perKey = interp == WeightInterpolation::CubicSpline ? 3 : 1;
            if (times.empty() || values.size() % (times.size() * perKey) != 0) continue;
            const uint32_t nt = static_cast<uint32_t>(values.size() / (times.size() * perKey));
            bool finiteKeys = std::is_sorted(times.begin(), times.end());
            for (float v : times) finiteKeys = finiteKeys && std::isfinite(v);
            for (float v : values) finiteKeys = finiteKeys && std::isfinite(v);
            if (!finiteKeys) continue;
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
        }
        std::sort(clip.morphTracks.begin(), clip.morphTracks.end(),
                  [](const MorphTrack& x, const MorphTrack& y) { return x.mesh < y.mesh; });
        extendClipRangeToMorphs(clip);
    }
    return read;
}

}  // namespace

int applyGltfStepInterpolation(const std::string& path, Model& model) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".gltf" && ext != ".glb") return 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) return 0;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return applyGltfStepInterpolationToBytes(bytes, ext == ".glb", model);
}

int applyGltfStepInterpolationToBytes(const std::string& bytes, bool glb, Model& model) {
    json doc;
    if (!readJson(bytes, glb, doc)) return 0;
    const json& anims = doc.contains("animations") ? doc["animations"] : json();
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    if (!anims.is_array() || !nodes.is_array() || anims.size() != model.clips.size()) return 0;
    int marked = 0;
    for (size_t a = 0; a < anims.size(); ++a) {
        const json& an = anims[a];
        if (!an.is_object() || !an.contains("channels") || !an.contains("samplers")) continue;
        const json& channels = an["channels"];
        const json& samplers = an["samplers"];
        if (!channels.is_array() || !samplers.is_array()) continue;
        Clip& clip = model.clips[a];
        for (const json& ch : channels) {
            if (!ch.is_object() || !ch.contains("sampler") || !ch.contains("target")) continue;
            const json& s = ch["sampler"];
            const json& target = ch["target"];
            if (!s.is_number_unsigned() || s.get<size_t>() >= samplers.size()) continue;
            const json& sampler = samplers[s.get<size_t>()];
            if (!sampler.is_object() || !sampler.contains("interpolation") || sampler["interpolation"] != "STEP") continue;
            if (!target.is_object() || !target.contains("node") || !target["node"].is_number_unsigned()) continue;
            const int32_t node = model.skeleton.find(nodeName(nodes, target["node"].get<size_t>()));
            if (node < 0 || static_cast<size_t>(node) >= clip.trackOfNode.size() || clip.trackOfNode[node] < 0) continue;
            Track& tr = clip.tracks[clip.trackOfNode[node]];
            const std::string p = target.contains("path") && target["path"].is_string() ? target["path"].get<std::string>() : "";
            Channel* c = p == "translation" ? &tr.translation : p == "rotation" ? &tr.rotation : p == "scale" ? &tr.scale : nullptr;
            if (!c || !c->count) continue;
            c->interpolation = Interpolation::Step;
            ++marked;
        }
    }
    return marked;
}

}  // namespace rig
