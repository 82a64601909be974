#include "import/gltf/primitives.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <unordered_map>

#include "import/influences.h"

namespace rig::gltf {

namespace {

constexpr int kMaxSets = 4;  // JOINTS_0..3 / WEIGHTS_0..3: 16 influences a vertex

bool finite3(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// The accessor an attribute names, resolved, with the components its use needs; "" or the
// phrase saying why it cannot be read.
std::string attribute(const Document& doc, const json& attributes, const char* semantic, int components,
                      AccessorData& out, bool& present) {
    present = false;
    const size_t index = unsignedOr(attributes, semantic, SIZE_MAX);
    if (index == SIZE_MAX) return attributes.is_object() && attributes.contains(semantic) ? std::string(semantic) + " is not an accessor index" : "";
    present = true;
    const std::string name = "accessors[" + std::to_string(index) + "] (" + semantic + ")";
    if (!resolveAccessor(doc, index, out)) return name + " cannot be read (missing, malformed, or outside its buffer)";
    if (out.components < components) return name + " has " + std::to_string(out.components) + " components, " + semantic + " needs " + std::to_string(components);
    return "";
}

// Triangle corners of the primitive as vertex indices, strips and fans turned into triangles
// (Assimp's and three.js's orientation), triangles naming a vertex past `vertexCount` dropped.
std::string readTriangles(const Document& doc, const json& prim, size_t mode, size_t vertexCount,
                          std::vector<uint32_t>& out) {
    std::vector<uint32_t> corners;
    const size_t index = unsignedOr(prim, "indices", SIZE_MAX);
    size_t count = vertexCount;
    AccessorData acc;
    if (index != SIZE_MAX) {
        if (!resolveAccessor(doc, index, acc) || acc.components != 1) {
            return "accessors[" + std::to_string(index) + "] (indices) cannot be read";
        }
        count = acc.count;
    }
    // Plain triangles with indices decode straight into the mesh's index array.
    std::vector<uint32_t>& raw = mode == 4 ? out : corners;
    raw.resize(count);
    if (index != SIZE_MAX) {
        decodeUints(acc, 1, raw.data());
    } else {
        for (size_t i = 0; i < count; ++i) raw[i] = static_cast<uint32_t>(i);
    }
    if (mode == 4) {
        out.resize(count / 3 * 3);
    } else if (count >= 3) {
        out.clear();
        out.reserve((count - 2) * 3);
        for (size_t i = 0; i + 2 < count; ++i) {
            if (mode == 6) {
                out.insert(out.end(), {raw[0], raw[i + 1], raw[i + 2]});
            } else if (i % 2 == 1) {
                out.insert(out.end(), {raw[i + 1], raw[i], raw[i + 2]});
            } else {
                out.insert(out.end(), {raw[i], raw[i + 1], raw[i + 2]});
            }
        }
    } else {
        out.clear();
    }
    // Drop triangles with a corner past the vertices, keeping the rest in order.
    size_t kept = 0;
    for (size_t t = 0; t + 2 < out.size(); t += 3) {
        if (out[t] >= vertexCount || out[t + 1] >= vertexCount || out[t + 2] >= vertexCount) continue;
        if (kept != t) std::memcpy(&out[kept], &out[t], 3 * sizeof(uint32_t));
        kept += 3;
    }
    out.resize(kept);
    return "";
}

// Smooth normals for a primitive without them (as Assimp's GenSmoothNormals step made them): each
// vertex gets the normalized sum of the unit normals of the triangles at its position.
void smoothNormals(Mesh& mesh) {
    const size_t nv = mesh.positions.size();
    std::vector<glm::vec3> sum(nv, glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
        glm::vec3 n = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
        const float len = glm::length(n);
        if (len == 0.0f) continue;  // a degenerate triangle has no direction
        n /= len;  // positions too large for their cross product give a NaN normal, counted below
        sum[a] += n;
        sum[b] += n;
        sum[c] += n;
    }
    // Vertices at one position share their sums.
    struct Key {
        float x, y, z;
        bool operator==(const Key& o) const { return std::memcmp(this, &o, sizeof(Key)) == 0; }
    };
    struct Hash {
        size_t operator()(const Key& k) const {
            uint32_t w[3];
            std::memcpy(w, &k, sizeof w);
            return (size_t(w[0]) * 73856093u) ^ (size_t(w[1]) * 19349663u) ^ (size_t(w[2]) * 83492791u);
        }
    };
    std::unordered_map<Key, glm::vec3, Hash> at;
    at.reserve(nv);
    for (size_t v = 0; v < nv; ++v) at[Key{mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z}] += sum[v];
    mesh.normals.resize(nv);
    for (size_t v = 0; v < nv; ++v) {
        const glm::vec3 s = at[Key{mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z}];
        const float len = glm::length(s);
        mesh.normals[v] = len > 0.0f || !std::isfinite(len) ? s / len : glm::vec3(0.0f, 0.0f, 1.0f);
    }
}

// The skin's influences per vertex from every JOINTS_n / WEIGHTS_n pair (see primitives.h).
std::string readSkin(const Document& doc, const json& attributes, const SkinBinding& skin, Mesh& mesh) {
    const size_t nv = mesh.positions.size();
    // glTF joint index -> skin slot (joints outside the scene have none).
    std::vector<int32_t> slotOf(skin.joints.size(), -1);
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        if (skin.joints[j] < 0) {
            mesh.missingBones.push_back(skin.jointNames[j]);
            continue;
        }
        slotOf[j] = static_cast<int32_t>(mesh.skin.joints.size());
        mesh.skin.joints.push_back(skin.joints[j]);
        mesh.skin.inverseBind.push_back(skin.inverseBind[j]);
        mesh.skin.offsetComputed.push_back(skin.offsetComputed[j]);
    }
    std::vector<AccessorData> jointSets, weightSets;
    for (int s = 0; s < kMaxSets; ++s) {
        const std::string js = "JOINTS_" + std::to_string(s), ws = "WEIGHTS_" + std::to_string(s);
        AccessorData ja, wa;
        bool jp = false, wp = false;
        if (std::string why = attribute(doc, attributes, js.c_str(), 4, ja, jp); !why.empty()) return why;
        if (std::string why = attribute(doc, attributes, ws.c_str(), 4, wa, wp); !why.empty()) return why;
        if (!jp || !wp) break;
        if (ja.count != nv || wa.count != nv) return js + " and " + ws + " do not have one element per vertex";
        jointSets.push_back(ja);
        weightSets.push_back(wa);
    }
    // Decoded a block of vertices at a time (no copy of the whole mesh's influences).
    constexpr size_t kBlock = 4096;
    std::vector<std::vector<uint32_t>> joints(jointSets.size(), std::vector<uint32_t>(kBlock * 4));
    std::vector<std::vector<float>> weights(jointSets.size(), std::vector<float>(kBlock * 4));
    WeightStats& ws = mesh.weightStats;
    const uint16_t rigid = static_cast<uint16_t>(mesh.skin.rigidSlot());
    mesh.joints.assign(nv, {rigid, rigid, rigid, rigid});
    mesh.weights.assign(nv, glm::vec4(0.0f));
    mesh.originalInfluenceCount.assign(nv, 0);
    mesh.originalWeightSum.assign(nv, 0.0f);
    Influence inf[4 * kMaxSets];
    for (size_t v = 0; v < nv; ++v) {
        const size_t b = v % kBlock;
        if (b == 0) {
            const size_t count = std::min(kBlock, nv - v);
            for (size_t s = 0; s < jointSets.size(); ++s) {
                decodeUints(jointSets[s], 4, joints[s].data(), v, count);
                decodeFloats(weightSets[s], 4, weights[s].data(), v, count);
            }
        }
        size_t n = 0;
        for (size_t s = 0; s < joints.size(); ++s) {
            for (size_t k = 0; k < 4; ++k) {
                const float w = weights[s][4 * b + k];
                if (!std::isfinite(w) || w < 0.0f) {
                    ++ws.invalidWeights;
                    continue;
                }
                const uint32_t j = joints[s][4 * b + k];
                if (w == 0.0f || j >= slotOf.size() || slotOf[j] < 0) continue;
                inf[n++] = {static_cast<uint32_t>(slotOf[j]), w};
            }
        }
        keepStrongestInfluences(mesh, v, std::span<Influence>(inf, n));
    }
    fillSecondInfluenceSet(mesh);  // influences 5 to 8, for --influences 8
    return "";
}

// Morph targets as deltas (positions, normals), their default weights from the mesh's.
std::string readTargets(const Document& doc, const json& prim, const json* meshWeights, Mesh& mesh) {
    if (!prim.contains("targets") || !prim["targets"].is_array()) return "";
    const json& targets = prim["targets"];
    const size_t nv = mesh.positions.size();
    for (size_t t = 0; t < targets.size(); ++t) {
        MorphTarget target;
        target.name = "target" + std::to_string(t);
        AccessorData acc;
        bool present = false;
        const json& attrs = targets[t];
        if (std::string why = attribute(doc, attrs, "POSITION", 3, acc, present); !why.empty()) return why;
        // A target without positions moves none (glTF: absent attributes are zero deltas).
        target.positionDeltas.assign(nv, glm::vec3(0.0f));
        if (present && acc.count == nv) decodeFloats(acc, 3, &target.positionDeltas[0].x);
        if (std::string why = attribute(doc, attrs, "NORMAL", 3, acc, present); !why.empty()) return why;
        if (present && acc.count == nv && !mesh.normals.empty()) {
            target.normalDeltas.resize(nv);
            decodeFloats(acc, 3, &target.normalDeltas[0].x);
            for (glm::vec3& d : target.normalDeltas)
                if (!finite3(d)) d = glm::vec3(0.0f);
        }
        for (glm::vec3& d : target.positionDeltas)
            if (!finite3(d)) d = glm::vec3(0.0f);
        mesh.morphTargets.push_back(std::move(target));
        float w = 0.0f;
        if (meshWeights && meshWeights->is_array() && t < meshWeights->size() && (*meshWeights)[t].is_number()) {
            w = (*meshWeights)[t].get<float>();
        }
        mesh.morphDefaultWeights.push_back(std::isfinite(w) ? w : 0.0f);
    }
    return "";
}

}  // namespace

std::string decodePrimitive(const Document& doc, const json& prim, const SkinBinding* skin, const json* weights,
                            const Skeleton&, Mesh& mesh, ImportStats& stats) {
    static const json kNone;
    const json& attributes = prim.contains("attributes") ? prim["attributes"] : kNone;
    AccessorData acc;
    bool present = false;
    if (std::string why = attribute(doc, attributes, "POSITION", 3, acc, present); !why.empty()) return why;
    if (!present) return "a primitive has no POSITION";
    if (acc.count == 0) return "POSITION has no vertices";
    const size_t nv = acc.count;  // > 0: every per-vertex array below has a first element
    mesh.positions.resize(nv);
    decodeFloats(acc, 3, &mesh.positions[0].x);
    for (const glm::vec3& p : mesh.positions) stats.nonFiniteVertices += finite3(p) ? 0 : 1;

    if (std::string why = readTriangles(doc, prim, unsignedOr(prim, "mode", 4), nv, mesh.indices); !why.empty()) return why;

    if (std::string why = attribute(doc, attributes, "NORMAL", 3, acc, present); !why.empty()) return why;
    if (present && acc.count == nv) {
        mesh.normals.resize(nv);
        decodeFloats(acc, 3, &mesh.normals[0].x);
    } else {
        smoothNormals(mesh);
    }
    for (const glm::vec3& n : mesh.normals) stats.nonFiniteVertices += finite3(n) ? 0 : 1;
    if (attributes.contains("TEXCOORD_1") && !attributes.contains("TEXCOORD_0")) return "TEXCOORD_1 without TEXCOORD_0 (glTF numbers sets from 0)";
    for (int set = 0; set < 2; ++set) {
        const std::string semantic = "TEXCOORD_" + std::to_string(set);
        if (std::string why = attribute(doc, attributes, semantic.c_str(), 2, acc, present); !why.empty()) return why;
        if (!present || acc.count != nv) continue;
        std::vector<glm::vec2>& uvs = set == 0 ? mesh.uvs : mesh.uvs1;
        uvs.resize(nv);
        decodeFloats(acc, 2, &uvs[0].x);
        // glTF's UV origin is the top left; rigview's (as Assimp gives it) the bottom left.
        for (glm::vec2& uv : uvs) uv.y = 1.0f - uv.y;
    }
    if (std::string why = attribute(doc, attributes, "TANGENT", 4, acc, present); !why.empty()) return why;
    if (present && acc.count == nv && !mesh.normals.empty()) {
        mesh.tangents.resize(nv);
        decodeFloats(acc, 4, &mesh.tangents[0].x);
        for (glm::vec4& t : mesh.tangents) {
            glm::vec3 tg(t);
            const float len = glm::length(tg);
            tg = len > 0.0f && std::isfinite(len) ? tg / len : glm::vec3(1.0f, 0.0f, 0.0f);
            t = glm::vec4(tg, t.w < 0.0f ? -1.0f : 1.0f);
        }
    }
    if (std::string why = attribute(doc, attributes, "COLOR_0", 3, acc, present); !why.empty()) return why;
    if (present && acc.count == nv) {
        mesh.colors.resize(nv);
        if (acc.components == 4) {
            decodeFloats(acc, 4, &mesh.colors[0].x);
        } else {
            // RGB decoded into the front of the array, then spread to RGBA from the back (each
            // vertex's RGBA lies at or after its RGB), alpha 1: glTF's RGB colours are opaque.
            float* f = &mesh.colors[0].x;
            decodeFloats(acc, 3, f);
            for (size_t v = nv; v-- > 0;) {
                const float r = f[3 * v], g = f[3 * v + 1], b = f[3 * v + 2];
                mesh.colors[v] = glm::vec4(r, g, b, 1.0f);
            }
        }
    }
    if (skin) {
        mesh.skinned = true;
        if (std::string why = readSkin(doc, attributes, *skin, mesh); !why.empty()) return why;
    }
    return readTargets(doc, prim, weights, mesh);
}

}  // namespace rig::gltf
