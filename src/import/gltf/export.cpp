#include "import/gltf/export.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "import/gltf/export_material.h"
#include "import/gltf/export_vertex.h"
#include "util/output_file.h"

namespace rig {

namespace {

using json = nlohmann::json;

// glTF enumerations.
constexpr int kFloat = 5126, kUnsignedInt = 5125, kUnsignedShort = 5123, kShort = 5122;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

// The asset being built: JSON arrays plus one binary buffer.
class Builder {
public:
    json accessors = json::array(), bufferViews = json::array();
    std::string bin;

    // A buffer view over `bytes` (aligned to 4 bytes in the buffer); returns its index.
    int view(const void* data, size_t bytes, int target = 0) {
        bin.append((4 - bin.size() % 4) % 4, '\0');
        json v{{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes}};
        if (target) v["target"] = target;
        bin.append(static_cast<const char*>(data), bytes);
        bufferViews.push_back(std::move(v));
        return static_cast<int>(bufferViews.size() - 1);
    }

    // A tightly packed accessor of `count` elements of `type` ("VEC3"...) with `components`
    // floats each; min/max written when asked (required for positions and sampler inputs).
    int floats(const float* data, size_t count, const char* type, int components, bool bounds, int target = 0) {
        const int v = view(data, count * components * sizeof(float), target);
        json a{{"bufferView", v}, {"componentType", kFloat}, {"count", count}, {"type", type}};
        if (bounds && count) {
            std::vector<float> lo(data, data + components), hi(lo);
            for (size_t i = 1; i < count; ++i) {
                for (int c = 0; c < components; ++c) {
                    lo[c] = std::min(lo[c], data[i * components + c]);
                    hi[c] = std::max(hi[c], data[i * components + c]);
                }
            }
            a["min"] = lo;
            a["max"] = hi;
        }
        accessors.push_back(std::move(a));
        return static_cast<int>(accessors.size() - 1);
    }

    int integers(const void* data, size_t count, int componentType, size_t componentSize, const char* type,
                 int components, int target, bool normalized = false) {
        const int v = view(data, count * components * componentSize, target);
        json a{{"bufferView", v}, {"componentType", componentType}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        accessors.push_back(std::move(a));
        return static_cast<int>(accessors.size() - 1);
    }
};

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Whether `t` rebuilds `m` to float precision (no shear, no projection).
bool splitsExactly(const glm::mat4& m, const Transform& t) {
    const glm::mat4 r = toMatrix(t);
    float scale = 1.0f;
    for (int c = 0; c < 4; ++c) {
        for (int k = 0; k < 4; ++k) scale = std::max(scale, std::fabs(m[c][k]));
    }
    for (int c = 0; c < 4; ++c) {
        for (int k = 0; k < 4; ++k) {
            if (!(std::fabs(r[c][k] - m[c][k]) <= 1e-6f * scale)) return false;
        }
    }
    return true;
}

// The node's TRS (glTF quaternion order x, y, z, w), leaving out identity parts.
void writeTrs(json& node, const Transform& t) {
    if (t.translation != glm::vec3(0.0f)) node["translation"] = {t.translation.x, t.translation.y, t.translation.z};
    const glm::quat q = glm::normalize(t.rotation);
    if (q != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) node["rotation"] = {q.x, q.y, q.z, q.w};
    if (t.scale != glm::vec3(1.0f)) node["scale"] = {t.scale.x, t.scale.y, t.scale.z};
}

// Key times as glTF needs them: strictly increasing and not negative. `shift` is added to every
// time (a clip with keys before 0 s is moved to start at 0). Where neighbouring keys share a
// time (a jump), the earlier key moves to the float just below, so a sample at the key time
// still gives the later key, as rigview's sampling does.
std::vector<float> sanitizedTimes(const float* t, uint32_t count, float shift) {
    std::vector<float> out(t, t + count);
    for (float& v : out) v = std::max(0.0f, v + shift);
    for (uint32_t i = count; i-- > 1;) {
        if (!(out[i - 1] < out[i])) out[i - 1] = std::nextafter(out[i], -1.0f);
    }
    for (float& v : out) v = std::max(0.0f, v);  // a run of jumps at 0 cannot go lower
    return out;
}

// How many keys at the start of a run to leave out so that its written times strictly
// increase: keys that sanitizedTimes cannot part because they would go below 0 s (a clip whose
// keys all sit at its first time, 0 s) keep only the last of them, the key rigview plays there.
uint32_t keysLeftOutAtZero(const float* t, uint32_t count, float shift) {
    const std::vector<float> s = sanitizedTimes(t, count, shift);
    uint32_t drop = 0;
    while (drop + 1 < count && !(s[drop] < s[drop + 1])) ++drop;
    return drop;
}

std::string base64(const std::string& bytes) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t n = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
        out += k[n >> 18];
        out += k[(n >> 12) & 63];
        out += k[(n >> 6) & 63];
        out += k[n & 63];
    }
    if (i < bytes.size()) {
        uint32_t n = uint8_t(bytes[i]) << 16;
        if (i + 1 < bytes.size()) n |= uint8_t(bytes[i + 1]) << 8;
        out += k[n >> 18];
        out += k[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? k[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

const char* interpolationName(Interpolation i) { return i == Interpolation::Step ? "STEP" : "LINEAR"; }

const char* weightInterpolationName(WeightInterpolation i) {
    switch (i) {
        case WeightInterpolation::Step: return "STEP";
        case WeightInterpolation::CubicSpline: return "CUBICSPLINE";
        default: return "LINEAR";
    }
}

// A skinned mesh's JOINTS_0 / WEIGHTS_0: skin slots as glTF joint indices (the rigid slot stays
// Skin::rigidSlot(); the caller binds it), each vertex's repeated slots merged, unused slots
// joint 0 weight 0, weights renormalized. Returns whether any vertex uses the rigid slot.
bool skinAttributes(const Mesh& mesh, std::vector<uint16_t>& joints, std::vector<float>& weights) {
    const size_t n = mesh.vertexCount();
    const uint32_t rigid = mesh.skin.rigidSlot();
    joints.assign(n * 4, 0);
    weights.assign(n * 4, 0.0f);
    bool usesRigid = false;
    for (size_t v = 0; v < n; ++v) {
        uint16_t slot[4] = {0, 0, 0, 0};
        double w[4] = {0, 0, 0, 0};
        int used = 0;
        for (int k = 0; k < 4; ++k) {
            const float wk = mesh.weights[v][k];
            const uint16_t s = mesh.joints[v][k];
            if (!(wk > 0.0f) || s > rigid) continue;
            int at = 0;
            while (at < used && slot[at] != s) ++at;
            if (at == used) slot[used++] = s;
            w[at] += wk;
        }
        double sum = 0.0;
        for (int k = 0; k < used; ++k) sum += w[k];
        if (used == 0 || !(sum > 0.0)) {  // nothing usable: follow the mesh's node
            slot[0] = static_cast<uint16_t>(rigid);
            w[0] = sum = 1.0;
            used = 1;
        }
        for (int k = 0; k < used; ++k) {
            joints[v * 4 + k] = slot[k];
            weights[v * 4 + k] = static_cast<float>(w[k] / sum);
            usesRigid |= slot[k] == rigid;
        }
    }
    return usesRigid;
}

class GltfWriter {
public:
    GltfWriter(const Model& model, std::span<const Clip> clips, const GltfExportOptions& options)
        : model_(model), clips_(clips), options_(options),
          materials_(model, [this](const void* data, size_t bytes) { return b_.view(data, bytes); }) {}

    bool build(json& doc, std::string& why) {
        const Skeleton& sk = model_.skeleton;
        if (sk.size() == 0) {
            why = "it has no nodes";
            return false;
        }
        writeNodes();
        // Only the materials a mesh uses (Assimp adds a default material to many files, and the
        // Khronos validator reports an unused one).
        std::vector<bool> usedMaterials(model_.materials.size(), false);
        for (size_t m = 0; m < model_.meshes.size(); ++m) {
            const Mesh& mesh = model_.meshes[m];
            if (written(m) && mesh.material < usedMaterials.size()) usedMaterials[mesh.material] = true;
        }
        materials_.write(usedMaterials);
        for (size_t m = 0; m < model_.meshes.size(); ++m) writeMesh(m);
        for (const Clip& clip : clips_) writeClip(clip);
        if (!error_.empty()) {  // glTF holds finite numbers only
            why = error_;
            return false;
        }

        doc["asset"] = {{"version", "2.0"}, {"generator", "rigview"}};
        json roots = json::array();
        for (size_t i = 0; i < sk.size(); ++i) {
            if (sk.parent[i] < 0) roots.push_back(i);
        }
        doc["scene"] = 0;
        doc["scenes"] = json::array({json{{"nodes", roots}}});
        doc["nodes"] = nodes_;
        if (!meshes_.empty()) doc["meshes"] = meshes_;
        if (!skins_.empty()) doc["skins"] = skins_;
        std::set<std::string> used;
        materials_.store(doc, used);
        if (!animations_.empty()) doc["animations"] = animations_;
        if (quantized_) {
            used.insert("KHR_mesh_quantization");
            doc["extensionsRequired"] = {"KHR_mesh_quantization"};
        }
        if (!used.empty()) doc["extensionsUsed"] = used;
        if (!b_.accessors.empty()) doc["accessors"] = b_.accessors;
        if (!b_.bufferViews.empty()) doc["bufferViews"] = b_.bufferViews;
        b_.bin.append((4 - b_.bin.size() % 4) % 4, '\0');
        if (!b_.bin.empty()) doc["buffers"] = json::array({json{{"byteLength", b_.bin.size()}}});
        return true;
    }

    std::string& binary() { return b_.bin; }
    const std::vector<std::string>& leftOut() const { return materials_.leftOut(); }

private:
    void writeNodes() {
        const Skeleton& sk = model_.skeleton;
        std::vector<uint8_t> animated(sk.size(), 0);
        for (const Clip& c : clips_) {
            for (const Track& t : c.tracks) {
                if (t.node >= 0 && static_cast<size_t>(t.node) < sk.size()) animated[t.node] = 1;
            }
        }
        nodes_ = json::array();
        for (size_t i = 0; i < sk.size(); ++i) {
            json node{{"name", sk.names[i]}};
            const Transform& t = sk.bindLocalSqt[i];
            if (!finite(t.translation) || !finite(t.scale) || !finite(glm::vec3(t.rotation.x, t.rotation.y, t.rotation.z)) ||
                !std::isfinite(t.rotation.w)) {
                fail("node '" + sk.names[i] + "' has a non-finite transform");
            }
            // Animated nodes need TRS (glTF animates only those); the clips fill in components
            // they lack from the same split, as rigview does (Skeleton::bindLocalSqt).
            if (animated[i] || splitsExactly(sk.bindLocal[i], t)) {
                writeTrs(node, t);
            } else {
                const float* m = &sk.bindLocal[i][0][0];
                node["matrix"] = std::vector<float>(m, m + 16);
            }
            nodes_.push_back(std::move(node));
        }
        for (size_t i = 0; i < sk.size(); ++i) {
            if (sk.parent[i] >= 0) nodes_[sk.parent[i]]["children"].push_back(i);
        }
        meshNode_.assign(model_.meshes.size(), -1);
        std::vector<uint8_t> hosts(sk.size(), 0);
        for (size_t m = 0; m < model_.meshes.size(); ++m) {
            const int32_t n = model_.meshes[m].node;
            if (n < 0 || static_cast<size_t>(n) >= sk.size()) continue;
            if (!hosts[n]) {
                hosts[n] = 1;
                meshNode_[m] = n;
                continue;
            }
            // glTF gives a node one mesh: a further mesh hangs from an added child node.
            const int extra = static_cast<int>(nodes_.size());
            nodes_.push_back(json{{"name", model_.meshes[m].name}});
            nodes_[n]["children"].push_back(extra);
            meshNode_[m] = extra;
        }
    }

    // Whether mesh `index` is written (it hangs from a written node and has a triangle).
    bool written(size_t index) const {
        const Mesh& mesh = model_.meshes[index];
        return index < meshNode_.size() && meshNode_[index] >= 0 && mesh.vertexCount() > 0 && mesh.indices.size() >= 3;
    }

    void writeMesh(size_t index) {
        const Mesh& mesh = model_.meshes[index];
        const size_t n = mesh.vertexCount();
        meshIndex_.push_back(-1);
        if (!written(index)) return;
        if (!std::all_of(mesh.positions.begin(), mesh.positions.end(), finite)) {
            fail("mesh '" + mesh.name + "' has non-finite vertex positions");
        }
        for (const glm::mat4& m : mesh.skin.inverseBind) {
            if (!finite(glm::vec3(m[0])) || !finite(glm::vec3(m[1])) || !finite(glm::vec3(m[2])) || !finite(glm::vec3(m[3]))) {
                fail("mesh '" + mesh.name + "' has a non-finite inverse bind matrix");
            }
        }
        json attributes;
        attributes["POSITION"] = b_.floats(&mesh.positions[0].x, n, "VEC3", 3, true, kArrayBuffer);
        if (mesh.normals.size() == n) {
            const std::vector<glm::vec3> normals = unitNormals(mesh.normals);
            attributes["NORMAL"] = b_.floats(&normals[0].x, n, "VEC3", 3, false, kArrayBuffer);
        }
        auto finite4 = [](const glm::vec4& v) { return finite(glm::vec3(v)) && std::isfinite(v.w); };
        writeTexCoords(mesh, attributes);
        int tangentUv = 0;
        const bool needsTangents = materials_.needsTangents(mesh.material, tangentUv);
        if (attributes.contains("NORMAL") && (mesh.tangents.size() == n || needsTangents)) {
            const std::vector<glm::vec4> tangents =
                unitTangents(mesh, mesh.tangents.size() == n ? mesh.tangents : uvTangents(mesh, tangentUv));
            attributes["TANGENT"] = b_.floats(&tangents[0].x, n, "VEC4", 4, false, kArrayBuffer);
        }
        if (mesh.colors.size() == n && std::all_of(mesh.colors.begin(), mesh.colors.end(), finite4)) attributes["COLOR_0"] = b_.floats(&mesh.colors[0].x, n, "VEC4", 4, false, kArrayBuffer);
        const int node = meshNode_[index];
        if (mesh.skinned && mesh.joints.size() == n && mesh.weights.size() == n &&
            mesh.skin.inverseBind.size() == mesh.skin.joints.size()) {
            std::vector<uint16_t> joints;
            std::vector<float> weights;
            const bool usesRigid = skinAttributes(mesh, joints, weights);
            json skinJoints = mesh.skin.joints;
            std::vector<glm::mat4> ibm = mesh.skin.inverseBind;
            if (usesRigid) {
                // The rigid slot (palette entry identity) is a joint at the mesh's own node with
                // an identity inverse bind matrix: that node's slot where the skin already binds
                // it so, a new joint where it does not use it, else an added child node with an
                // identity transform (a skin lists a node once).
                const auto at = std::find(mesh.skin.joints.begin(), mesh.skin.joints.end(), node);
                const size_t slot = static_cast<size_t>(at - mesh.skin.joints.begin());
                if (at != mesh.skin.joints.end() && ibm[slot] == glm::mat4(1.0f)) {
                    for (size_t v = 0; v < n * 4; ++v) {
                        if (joints[v] == mesh.skin.rigidSlot()) joints[v] = static_cast<uint16_t>(slot);
                    }
                } else {
                    int rigidNode = node;
                    if (at != mesh.skin.joints.end()) {
                        rigidNode = static_cast<int>(nodes_.size());
                        nodes_.push_back(json{{"name", mesh.name + " (unweighted vertices)"}});
                        nodes_[node]["children"].push_back(rigidNode);
                    }
                    skinJoints.push_back(rigidNode);
                    ibm.push_back(glm::mat4(1.0f));
                }
            }
            // Not empty: a vertex with no usable slot uses the rigid one (skinAttributes).
            attributes["JOINTS_0"] = b_.integers(joints.data(), n, kUnsignedShort, 2, "VEC4", 4, kArrayBuffer);
            attributes["WEIGHTS_0"] = b_.floats(weights.data(), n, "VEC4", 4, false, kArrayBuffer);
            json skin{{"joints", skinJoints}, {"inverseBindMatrices", b_.floats(&ibm[0][0][0], ibm.size(), "MAT4", 16, false)}};
            if (!mesh.name.empty()) skin["name"] = mesh.name;
            skins_.push_back(std::move(skin));
            nodes_[node]["skin"] = skins_.size() - 1;
        }
        json primitive{{"attributes", attributes}, {"mode", 4}};
        if (n < 65535) {
            std::vector<uint16_t> idx(mesh.indices.begin(), mesh.indices.end());
            primitive["indices"] = b_.integers(idx.data(), idx.size(), kUnsignedShort, 2, "SCALAR", 1, kElementArrayBuffer);
        } else {
            primitive["indices"] = b_.integers(mesh.indices.data(), mesh.indices.size(), kUnsignedInt, 4, "SCALAR", 1,
                                               kElementArrayBuffer);
        }
        if (const int material = materials_.gltfIndex(mesh.material); material >= 0) primitive["material"] = material;
        json gltfMesh{{"name", mesh.name}};
        if (!mesh.morphTargets.empty()) {
            json targets = json::array(), names = json::array();
            const bool normals = primitive["attributes"].contains("NORMAL");
            const std::vector<glm::vec3> none(n, glm::vec3(0.0f));
            for (const MorphTarget& t : mesh.morphTargets) {
                json target;
                const std::vector<glm::vec3>& deltas = t.positionDeltas.size() == n ? t.positionDeltas : none;
                if (!std::all_of(deltas.begin(), deltas.end(), finite) ||
                    !std::all_of(t.normalDeltas.begin(), t.normalDeltas.end(), finite)) {
                    fail("morph target '" + t.name + "' of mesh '" + mesh.name + "' has non-finite offsets");
                }
                target["POSITION"] = b_.floats(&deltas[0].x, n, "VEC3", 3, true, kArrayBuffer);
                if (normals && t.normalDeltas.size() == n) {
                    target["NORMAL"] = b_.floats(&t.normalDeltas[0].x, n, "VEC3", 3, false, kArrayBuffer);
                }
                targets.push_back(std::move(target));
                names.push_back(t.name);
            }
            primitive["targets"] = std::move(targets);
            std::vector<float> defaults = mesh.morphDefaultWeights;
            defaults.resize(mesh.morphTargets.size(), 0.0f);
            gltfMesh["weights"] = defaults;
            gltfMesh["extras"] = {{"targetNames", names}};
        }
        gltfMesh["primitives"] = json::array({primitive});
        meshes_.push_back(std::move(gltfMesh));
        meshIndex_.back() = static_cast<int>(meshes_.size() - 1);
        nodes_[node]["mesh"] = meshIndex_.back();
    }

    // TEXCOORD_0 / TEXCOORD_1 from Mesh::uvs / uvs1 (a set with a non-finite value is left
    // out). A Model holds UVs as Assimp gives them (v up from the image's bottom row), glTF from
    // its top row: v is written as 1 - v, as Assimp's glTF import reads it back. glTF wants the
    // sets a material's textures read and no gap before a written set: a set needed but missing
    // is written as zeros (what GL reads from an absent attribute).
    void writeTexCoords(const Mesh& mesh, json& attributes) {
        const size_t n = mesh.vertexCount();
        auto usable = [n](const std::vector<glm::vec2>& uv) {
            return uv.size() == n &&
                   std::all_of(uv.begin(), uv.end(), [](const glm::vec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); });
        };
        const std::vector<glm::vec2>* sets[2] = {usable(mesh.uvs) ? &mesh.uvs : nullptr, usable(mesh.uvs1) ? &mesh.uvs1 : nullptr};
        const unsigned needed = materials_.texCoordsUsed(mesh.material);
        const bool write1 = sets[1] || (needed & 2u);
        const bool write0 = sets[0] || (needed & 1u) || write1;
        for (int k = 0; k < 2; ++k) {
            if (!(k == 0 ? write0 : write1)) continue;
            std::vector<glm::vec2> uv(n, glm::vec2(0.0f));
            if (sets[k]) {
                for (size_t v = 0; v < n; ++v) uv[v] = glm::vec2((*sets[k])[v].x, 1.0f - (*sets[k])[v].y);
            }
            attributes[k == 0 ? "TEXCOORD_0" : "TEXCOORD_1"] = b_.floats(&uv[0].x, n, "VEC2", 2, false, kArrayBuffer);
        }
    }

    // One sampler + channel; `times` deduplicated per clip by the run they come from.
    void channel(json& anim, int input, int output, const char* interpolation, int node, const char* path) {
        anim["samplers"].push_back(json{{"input", input}, {"output", output}, {"interpolation", interpolation}});
        anim["channels"].push_back(json{{"sampler", anim["samplers"].size() - 1}, {"target", {{"node", node}, {"path", path}}}});
    }

    void writeClip(const Clip& clip) {
        const Skeleton& sk = model_.skeleton;
        json anim{{"name", clip.name}, {"samplers", json::array()}, {"channels", json::array()}};
        float first = std::numeric_limits<float>::infinity();
        for (float t : clip.times) first = std::min(first, t);
        const float shift = first < 0.0f ? -first : 0.0f;
        std::map<std::pair<uint32_t, uint32_t>, int> inputs;
        auto input = [&](uint32_t times, uint32_t count) {
            auto [it, added] = inputs.try_emplace({times, count}, -1);
            if (added) {
                const std::vector<float> t = sanitizedTimes(clip.times.data() + times, count, shift);
                it->second = b_.floats(t.data(), count, "SCALAR", 1, true);
            }
            return it->second;
        };
        auto valid = [&](const Channel& ch, size_t values) {
            return ch.count > 0 && ch.times + static_cast<size_t>(ch.count) <= clip.times.size() &&
                   ch.values + static_cast<size_t>(ch.count) <= values;
        };
        // The channel's keys from the last of those that share 0 s (keysLeftOutAtZero).
        auto distinct = [&](const Channel& c) {
            Channel out = c;
            const uint32_t drop = keysLeftOutAtZero(clip.times.data() + c.times, c.count, shift);
            out.times += drop;
            out.values += drop;
            out.count -= drop;
            return out;
        };
        for (const Track& track : clip.tracks) {
            if (track.node < 0 || static_cast<size_t>(track.node) >= sk.size()) continue;
            if (valid(track.translation, clip.vec3Keys.size())) {
                const Channel ch = distinct(track.translation);
                channel(anim, input(ch.times, ch.count), b_.floats(&clip.vec3Keys[ch.values].x, ch.count, "VEC3", 3, false),
                        interpolationName(ch.interpolation), track.node, "translation");
            }
            if (valid(track.rotation, clip.quatKeys.size())) {
                const Channel ch = distinct(track.rotation);
                channel(anim, input(ch.times, ch.count), rotations(clip, ch), interpolationName(ch.interpolation),
                        track.node, "rotation");
            }
            if (valid(track.scale, clip.vec3Keys.size())) {
                const Channel ch = distinct(track.scale);
                channel(anim, input(ch.times, ch.count), b_.floats(&clip.vec3Keys[ch.values].x, ch.count, "VEC3", 3, false),
                        interpolationName(ch.interpolation), track.node, "scale");
            }
        }
        for (const MorphTrack& mt : clip.morphTracks) {
            if (mt.mesh < 0 || static_cast<size_t>(mt.mesh) >= model_.meshes.size() || meshIndex_[mt.mesh] < 0) continue;
            const Mesh& mesh = model_.meshes[mt.mesh];
            const size_t per = static_cast<size_t>(mt.targets) * (mt.interpolation == WeightInterpolation::CubicSpline ? 3 : 1);
            if (mt.count == 0 || mt.targets != mesh.morphTargets.size() ||
                mt.times + static_cast<size_t>(mt.count) > clip.times.size() ||
                mt.values + per * mt.count > clip.morphKeys.size()) {
                continue;
            }
            const uint32_t drop = keysLeftOutAtZero(clip.times.data() + mt.times, mt.count, shift);
            const uint32_t keys = mt.count - drop;
            if (keys == 1 && mt.interpolation == WeightInterpolation::CubicSpline) {
                // glTF wants two keys or more of a cubic spline: one key is its value (between
                // its in- and out-tangents), held.
                channel(anim, input(mt.times + drop, 1),
                        b_.floats(&clip.morphKeys[mt.values + per * drop + mt.targets], mt.targets, "SCALAR", 1, false), "LINEAR",
                        meshNode_[mt.mesh], "weights");
                continue;
            }
            channel(anim, input(mt.times + drop, keys),
                    b_.floats(&clip.morphKeys[mt.values + per * drop], per * keys, "SCALAR", 1, false),
                    weightInterpolationName(mt.interpolation), meshNode_[mt.mesh], "weights");
        }
        if (anim["channels"].empty()) keepEmptyClip(anim, clip, shift);
        if (!clip.markers.empty()) {
            // glTF has no events: the clip's markers go in the animation's extras, on the
            // written timeline (shifted with the keys), as rigview's import reads them.
            json markers = json::array();
            for (const Marker& mk : clip.markers) {
                if (std::isfinite(mk.time)) markers.push_back(json{{"name", mk.name}, {"time", mk.time + shift}});
            }
            anim["extras"] = {{"markers", markers}};
        }
        if (!anim["channels"].empty()) animations_.push_back(std::move(anim));
    }

    // glTF has no animation without channels: a clip that animates nothing (every channel at
    // its bind value, as compression leaves Testwuson's Wuson_Bind) keeps its place in the
    // file with one key, a joint's bind rotation, which poses nothing differently. The joint
    // holds no mesh where there is such a node, else it is the root (its bind rotation still
    // poses nothing new).
    void keepEmptyClip(json& anim, const Clip& clip, float shift) {
        const Skeleton& sk = model_.skeleton;
        if (sk.size() == 0) return;
        auto holdsMesh = [&](size_t i) {
            return std::any_of(model_.meshes.begin(), model_.meshes.end(), [&](const Mesh& m) { return m.node == static_cast<int32_t>(i); });
        };
        size_t node = 0;
        while (node < sk.size() && holdsMesh(node)) ++node;
        if (node == sk.size()) node = 0;
        const float at = std::max(0.0f, clip.startTime + shift);
        const glm::quat& q = sk.bindLocalSqt[node].rotation;
        const float xyzw[4] = {q.x, q.y, q.z, q.w};
        channel(anim, b_.floats(&at, 1, "SCALAR", 1, true), b_.floats(xyzw, 1, "VEC4", 4, false), "LINEAR",
                static_cast<int>(node), "rotation");
    }

    // Rotation keys as x, y, z, w: floats, or normalized shorts when asked.
    int rotations(const Clip& clip, const Channel& ch) {
        std::vector<float> q(static_cast<size_t>(ch.count) * 4);
        for (uint32_t k = 0; k < ch.count; ++k) {
            const glm::quat r = glm::normalize(clip.quatKeys[ch.values + k]);
            q[4 * k] = r.x;
            q[4 * k + 1] = r.y;
            q[4 * k + 2] = r.z;
            q[4 * k + 3] = r.w;
        }
        if (!options_.quantizeRotations) return b_.floats(q.data(), ch.count, "VEC4", 4, false);
        quantized_ = true;
        std::vector<int16_t> s(q.size());
        for (size_t i = 0; i < q.size(); ++i) s[i] = static_cast<int16_t>(std::lround(std::clamp(q[i], -1.0f, 1.0f) * 32767.0f));
        return b_.integers(s.data(), ch.count, kShort, 2, "VEC4", 4, 0, true);
    }

    // The first problem that makes the model impossible to write (numbers glTF cannot hold).
    void fail(const std::string& what) {
        if (error_.empty()) error_ = what + ", which glTF cannot hold";
    }

    const Model& model_;
    std::span<const Clip> clips_;
    std::string error_;
    GltfExportOptions options_;
    Builder b_;
    GltfMaterialWriter materials_;
    json nodes_, meshes_ = json::array(), skins_ = json::array(), animations_ = json::array();
    std::vector<int> meshNode_;   // per Model mesh: the glTF node it hangs from (-1: none)
    std::vector<int> meshIndex_;  // per Model mesh: its glTF mesh (-1: not written)
    bool quantized_ = false;
};

void appendU32(std::string& s, uint32_t v) {
    for (int i = 0; i < 4; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}

}  // namespace

bool writeGltf(const Model& model, std::span<const Clip> clips, const std::filesystem::path& out,
               const GltfExportOptions& options, std::string& error, std::vector<std::string>* leftOut) {
    const std::string path = out.string();
    json doc;
    GltfWriter writer(model, clips, options);
    std::string why;
    if (!writer.build(doc, why)) {
        error = path + ": cannot write " + (model.path.empty() ? "the model" : model.path) + " as glTF: " + why;
        return false;
    }
    if (leftOut) *leftOut = writer.leftOut();
    std::string& bin = writer.binary();
    std::string bytes;
    if (options.binary) {
        std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
        text.append((4 - text.size() % 4) % 4, ' ');
        const uint64_t total = 12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size());
        if (total > std::numeric_limits<uint32_t>::max()) {
            error = path + ": the model is too large for a .glb file (" + std::to_string(total) + " bytes, at most 4 GiB)";
            return false;
        }
        bytes.reserve(total);
        bytes += "glTF";
        appendU32(bytes, 2);
        appendU32(bytes, static_cast<uint32_t>(total));
        appendU32(bytes, static_cast<uint32_t>(text.size()));
        bytes += "JSON";
        bytes += text;
        if (!bin.empty()) {
            appendU32(bytes, static_cast<uint32_t>(bin.size()));
            bytes += std::string("BIN\0", 4);
            bytes += bin;
        }
    } else {
        if (!bin.empty()) doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(bin);
        bin.clear();
        bin.shrink_to_fit();
        bytes = doc.dump(-1, ' ', false, json::error_handler_t::replace);
        bytes += '\n';
    }
    if (!writeOutputFile(path, bytes, error)) return false;
    return true;
}

}  // namespace rig
