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

glm::mat4 blendMatrix(const Mesh& mesh, size_t v, const glm::mat4* palette) {
    const auto& j = mesh.joints[v];
    glm::vec4 w = mesh.weights[v];
    const float sum = w.x + w.y + w.z + w.w;
    if (!(sum > 0.0f)) return palette[mesh.skin.rigidSlot()];
    w /= sum;
    return palette[j[0]] * w.x + palette[j[1]] * w.y + palette[j[2]] * w.z + palette[j[3]] * w.w;
}

// Vertex v's four influences as one dual quaternion (weights renormalized; none: slot 0, as
// the shader does).
DualQuat blendedDualQuat(const Mesh& mesh, size_t v, const glm::mat4* palette) {
    const auto& j = mesh.joints[v];
    glm::vec4 w = mesh.weights[v];
    const float sum = w.x + w.y + w.z + w.w;
    w = sum > 0.0f ? w / sum : glm::vec4(1, 0, 0, 0);
    const DualQuat dq[4] = {DualQuat::fromMatrix(palette[j[0]]), DualQuat::fromMatrix(palette[j[1]]),
                            DualQuat::fromMatrix(palette[j[2]]), DualQuat::fromMatrix(palette[j[3]])};
    const float ws[4] = {w.x, w.y, w.z, w.w};
    return blendDualQuats(dq, ws, 4);
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
              glm::vec3* outNormals, SkinningMethod method) {
    if (!morphWeights || mesh.morphTargets.empty()) {
        skinMesh(mesh, palette, outPositions, outNormals, method);
        return;
    }
    const size_t n = mesh.positions.size();
    const bool normals = outNormals && mesh.normals.size() == n;
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
            const DualQuat b = blendedDualQuat(mesh, v, palette);
            outPositions[v] = b.transformPoint(p);
            if (normals) outNormals[v] = glm::normalize(b.transformVector(nm));
            continue;
        }
        const glm::mat4 m = method == SkinningMethod::Stitch ? palette[strongestSlot(mesh, v)] : blendMatrix(mesh, v, palette);
        outPositions[v] = glm::vec3(m * glm::vec4(p, 1.0f));
        if (normals) {
            const glm::vec3 r = glm::mat3(m) * nm;
            const float len = glm::length(r);
            outNormals[v] = len > 0.0f ? r / len : r;
        }
    }
}

void skinMesh(const Mesh& mesh, const glm::mat4* palette, glm::vec3* outPositions,
              glm::vec3* outNormals, SkinningMethod method) {
    const size_t n = mesh.positions.size();
    const bool normals = outNormals && mesh.normals.size() == n;
    if (!mesh.skinned) {
        for (size_t v = 0; v < n; ++v) {
            outPositions[v] = mesh.positions[v];
            if (normals) outNormals[v] = mesh.normals[v];
        }
        return;
    }
    if (method == SkinningMethod::DualQuat) {
        for (size_t v = 0; v < n; ++v) {
            const DualQuat b = blendedDualQuat(mesh, v, palette);
            outPositions[v] = b.transformPoint(mesh.positions[v]);
            if (normals) outNormals[v] = glm::normalize(b.transformVector(mesh.normals[v]));
        }
        return;
    }
    for (size_t v = 0; v < n; ++v) {
        const glm::mat4 m = method == SkinningMethod::Stitch ? palette[strongestSlot(mesh, v)] : blendMatrix(mesh, v, palette);
        outPositions[v] = glm::vec3(m * glm::vec4(mesh.positions[v], 1.0f));
        if (normals) {
            const glm::vec3 nrm = glm::mat3(m) * mesh.normals[v];
            const float len = glm::length(nrm);
            outNormals[v] = len > 0.0f ? nrm / len : nrm;
        }
    }
}

}  // namespace rig
