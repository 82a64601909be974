#include "anim/runtime/skinning.h"

#include <cmath>

#include "anim/runtime/dual_quat.h"

namespace rig {

uint32_t strongestSlot(const Mesh& mesh, size_t v) {
    const glm::vec4& w = mesh.weights[v];
    int best = 0;
    for (int k = 1; k < kMaxInfluences; ++k) {
        if (w[k] > w[best]) best = k;
    }
    return w[best] > 0.0f ? mesh.joints[v][best] : mesh.skin.rigidSlot();
}

namespace {

// The first set's matrix (weights renormalized; none: the rigid slot).
inline glm::mat4 blend4(const Mesh& mesh, size_t v, const glm::mat4* palette) {
    const auto& j = mesh.joints[v];
    glm::vec4 w = mesh.weights[v];
    const float sum = w.x + w.y + w.z + w.w;
    if (!(sum > 0.0f)) return palette[mesh.skin.rigidSlot()];
    w /= sum;
    return palette[j[0]] * w.x + palette[j[1]] * w.y + palette[j[2]] * w.z + palette[j[3]] * w.w;
}

// Both sets' (the mesh has a second): all eight weights divided by their sum.
inline glm::mat4 blend8(const Mesh& mesh, size_t v, const glm::mat4* palette) {
    const auto& j = mesh.joints[v];
    const auto& j2 = mesh.joints2[v];
    glm::vec4 w = mesh.weights[v], w2 = mesh.weights2[v];
    const float sum = w.x + w.y + w.z + w.w + (w2.x + w2.y + w2.z + w2.w);
    if (!(sum > 0.0f)) return palette[mesh.skin.rigidSlot()];
    w /= sum;
    w2 /= sum;
    return palette[j[0]] * w.x + palette[j[1]] * w.y + palette[j[2]] * w.z + palette[j[3]] * w.w +
           palette[j2[0]] * w2.x + palette[j2[1]] * w2.y + palette[j2[2]] * w2.z + palette[j2[3]] * w2.w;
}

}  // namespace

glm::mat4 blendMatrix(const Mesh& mesh, size_t v, const glm::mat4* palette, int influences) {
    return blendsSecondSet(mesh, influences) ? blend8(mesh, v, palette) : blend4(mesh, v, palette);
}

// Vertex v's influences (4 or 8) as one dual quaternion (weights renormalized; none: slot 0,
// as the shader does).
DualQuat blendedDualQuat(const Mesh& mesh, size_t v, const glm::mat4* palette, bool eight) {
    const auto& j = mesh.joints[v];
    float ws[kMostInfluences] = {};
    DualQuat dq[kMostInfluences];
    const int n = eight ? kMostInfluences : kMaxInfluences;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) {
        const bool second = k >= kMaxInfluences;
        const int i = second ? k - kMaxInfluences : k;
        ws[k] = second ? mesh.weights2[v][i] : mesh.weights[v][i];
        dq[k] = DualQuat::fromMatrix(palette[second ? mesh.joints2[v][i] : j[i]]);
        sum += ws[k];
    }
    if (sum > 0.0f) {
        for (int k = 0; k < n; ++k) ws[k] /= sum;
    } else {
        ws[0] = 1.0f;
    }
    return blendDualQuats(dq, ws, n);
}

glm::vec3 morphedPosition(const Mesh& mesh, size_t v, const float* w) {
    glm::vec3 p = mesh.positions[v];
    const size_t nt = mesh.morphTargets.size();
    for (size_t t = 0; t < nt; ++t) {
        if (w[t] != 0.0f) p += w[t] * mesh.morphTargets[t].positionDeltas[v];
    }
    return p;
}

glm::vec3 morphedNormal(const Mesh& mesh, size_t v, const float* w) {
    glm::vec3 n = mesh.normals[v];
    const size_t nt = mesh.morphTargets.size();
    for (size_t t = 0; t < nt; ++t) {
        if (w[t] != 0.0f && !mesh.morphTargets[t].normalDeltas.empty()) n += w[t] * mesh.morphTargets[t].normalDeltas[v];
    }
    return n;
}

void skinMesh(const Mesh& mesh, const glm::mat4* palette, const float* morphWeights, glm::vec3* outPositions,
              glm::vec3* outNormals, SkinningMethod method, int influences) {
    if (!morphWeights || mesh.morphTargets.empty()) {
        skinMesh(mesh, palette, outPositions, outNormals, method, influences);
        return;
    }
    const size_t n = mesh.positions.size();
    const bool normals = outNormals && mesh.normals.size() == n;
    const bool eight = blendsSecondSet(mesh, influences);
    for (size_t v = 0; v < n; ++v) {
        const glm::vec3 p = morphedPosition(mesh, v, morphWeights);
        const glm::vec3 nm = normals ? morphedNormal(mesh, v, morphWeights) : glm::vec3(0.0f);
        if (!mesh.skinned) {
            outPositions[v] = p;
            if (normals) {
                const float len = glm::length(nm);
                outNormals[v] = len > 0.0f ? nm / len : nm;
            }
            continue;
        }
        if (method == SkinningMethod::DualQuat) {
            const DualQuat b = blendedDualQuat(mesh, v, palette, eight);
            outPositions[v] = b.transformPoint(p);
            if (normals) outNormals[v] = glm::normalize(b.transformVector(nm));
            continue;
        }
        const glm::mat4 m = method == SkinningMethod::Stitch ? palette[strongestSlot(mesh, v)]
                            : eight                          ? blend8(mesh, v, palette)
                                                             : blend4(mesh, v, palette);
        outPositions[v] = glm::vec3(m * glm::vec4(p, 1.0f));
        if (normals) {
            const glm::vec3 r = glm::mat3(m) * nm;
            const float len = glm::length(r);
            outNormals[v] = len > 0.0f ? r / len : r;
        }
    }
}

namespace {

// The linear blend loop, with the set count fixed at compile time (no per-vertex test).
template <bool Eight>
void skinLinear(const Mesh& mesh, const glm::mat4* palette, glm::vec3* outPositions, glm::vec3* outNormals, bool normals) {
    const size_t n = mesh.positions.size();
    for (size_t v = 0; v < n; ++v) {
        const glm::mat4 m = Eight ? blend8(mesh, v, palette) : blend4(mesh, v, palette);
        outPositions[v] = glm::vec3(m * glm::vec4(mesh.positions[v], 1.0f));
        if (normals) {
            const glm::vec3 nrm = glm::mat3(m) * mesh.normals[v];
            const float len = glm::length(nrm);
            outNormals[v] = len > 0.0f ? nrm / len : nrm;
        }
    }
}

}  // namespace

void skinMesh(const Mesh& mesh, const glm::mat4* palette, glm::vec3* outPositions,
              glm::vec3* outNormals, SkinningMethod method, int influences) {
    const size_t n = mesh.positions.size();
    const bool normals = outNormals && mesh.normals.size() == n;
    if (!mesh.skinned) {
        for (size_t v = 0; v < n; ++v) {
            outPositions[v] = mesh.positions[v];
            if (normals) outNormals[v] = mesh.normals[v];
        }
        return;
    }
    const bool eight = blendsSecondSet(mesh, influences);
    if (method == SkinningMethod::DualQuat) {
        for (size_t v = 0; v < n; ++v) {
            const DualQuat b = blendedDualQuat(mesh, v, palette, eight);
            outPositions[v] = b.transformPoint(mesh.positions[v]);
            if (normals) outNormals[v] = glm::normalize(b.transformVector(mesh.normals[v]));
        }
        return;
    }
    if (method == SkinningMethod::Stitch) {
        // The strongest influence is the first set's first (sorted at import): one set is enough.
        for (size_t v = 0; v < n; ++v) {
            const glm::mat4& m = palette[strongestSlot(mesh, v)];
            outPositions[v] = glm::vec3(m * glm::vec4(mesh.positions[v], 1.0f));
            if (normals) {
                const glm::vec3 nrm = glm::mat3(m) * mesh.normals[v];
                const float len = glm::length(nrm);
                outNormals[v] = len > 0.0f ? nrm / len : nrm;
            }
        }
        return;
    }
    if (eight) {
        skinLinear<true>(mesh, palette, outPositions, outNormals, normals);
    } else {
        skinLinear<false>(mesh, palette, outPositions, outNormals, normals);
    }
}

}  // namespace rig
