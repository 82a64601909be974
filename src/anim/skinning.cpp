#include "anim/skinning.h"

#include <cmath>

namespace rig {

glm::mat4 blendMatrix(const Mesh& mesh, size_t v, const glm::mat4* palette) {
    const auto& j = mesh.joints[v];
    glm::vec4 w = mesh.weights[v];
    const float sum = w.x + w.y + w.z + w.w;
    if (!(sum > 0.0f)) return palette[mesh.skin.rigidSlot()];
    w /= sum;
    return palette[j[0]] * w.x + palette[j[1]] * w.y + palette[j[2]] * w.z + palette[j[3]] * w.w;
}

void skinMesh(const Mesh& mesh, const glm::mat4* palette, glm::vec3* outPositions,
              glm::vec3* outNormals) {
    const size_t n = mesh.positions.size();
    const bool normals = outNormals && mesh.normals.size() == n;
    if (!mesh.skinned) {
        for (size_t v = 0; v < n; ++v) {
            outPositions[v] = mesh.positions[v];
            if (normals) outNormals[v] = mesh.normals[v];
        }
        return;
    }
    for (size_t v = 0; v < n; ++v) {
        const glm::mat4 m = blendMatrix(mesh, v, palette);
        outPositions[v] = glm::vec3(m * glm::vec4(mesh.positions[v], 1.0f));
        if (normals) {
            const glm::vec3 nrm = glm::mat3(m) * mesh.normals[v];
            const float len = glm::length(nrm);
            outNormals[v] = len > 0.0f ? nrm / len : nrm;
        }
    }
}

}  // namespace rig
