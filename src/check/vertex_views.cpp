#include "check/vertex_views.h"

#include <algorithm>
#include <cmath>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"

namespace rig {

std::vector<float> jointWeights(const Mesh& mesh, int32_t node) {
    const size_t nv = mesh.vertexCount();
    std::vector<float> out(nv, 0.0f);
    if (!mesh.skinned) {
        if (node == mesh.node) std::fill(out.begin(), out.end(), 1.0f);
        return out;
    }
    const uint32_t rigid = mesh.skin.rigidSlot();
    for (size_t v = 0; v < nv && v < mesh.joints.size() && v < mesh.weights.size(); ++v) {
        float w = 0.0f;
        for (int k = 0; k < kMaxInfluences; ++k) {
            const float wk = mesh.weights[v][k];
            if (!(wk > 0.0f)) continue;
            const uint32_t slot = mesh.joints[v][k];
            if (slot == rigid) {
                if (node == mesh.node) w += wk;
            } else if (slot < mesh.skin.joints.size() && mesh.skin.joints[slot] == node) {
                w += wk;
            }
        }
        out[v] = w;
    }
    return out;
}

namespace {

// Non-zero kept weights on real joints (the rigid slot does not count).
uint32_t keptInfluences(const Mesh& mesh, size_t v, float* sum) {
    uint32_t n = 0;
    float s = 0.0f;
    if (v < mesh.joints.size() && v < mesh.weights.size()) {
        for (int k = 0; k < kMaxInfluences; ++k) {
            if (!(mesh.weights[v][k] > 0.0f) || mesh.joints[v][k] >= mesh.skin.rigidSlot()) continue;
            ++n;
            s += mesh.weights[v][k];
        }
    }
    if (sum) *sum = s;
    return n;
}

}  // namespace

std::vector<uint8_t> influenceCounts(const Mesh& mesh) {
    const size_t nv = mesh.vertexCount();
    std::vector<uint8_t> out(nv, 0);
    if (!mesh.skinned) return out;
    const bool recorded = mesh.originalInfluenceCount.size() == nv;
    for (size_t v = 0; v < nv; ++v) {
        const uint32_t n = recorded ? mesh.originalInfluenceCount[v] : keptInfluences(mesh, v, nullptr);
        out[v] = static_cast<uint8_t>(std::min<uint32_t>(n, kMaxInfluences + 1));
    }
    return out;
}

std::vector<float> weightSumError(const Mesh& mesh) {
    const size_t nv = mesh.vertexCount();
    std::vector<float> out(nv, 0.0f);
    if (!mesh.skinned) return out;
    const bool recorded = mesh.originalWeightSum.size() == nv;
    for (size_t v = 0; v < nv; ++v) {
        float sum = 0.0f;
        if (recorded) {
            sum = mesh.originalWeightSum[v];
        } else {
            keptInfluences(mesh, v, &sum);
        }
        out[v] = std::fabs(sum - 1.0f);
    }
    return out;
}

float truncationDistance(const Mesh& mesh, const FullInfluences& full, const glm::mat4* palette,
                         const glm::mat4& meshWorld, int influences) {
    const size_t v = full.vertex;
    if (v >= mesh.vertexCount() || full.influences.empty()) return 0.0f;
    const glm::vec4 p(mesh.positions[v], 1.0f);
    // All influences, renormalized: the blended matrix, as the shader would blend them.
    glm::mat4 all(0.0f);
    double sum = 0.0;
    for (const auto& [slot, w] : full.influences) {
        if (slot >= mesh.skin.paletteSize() || !(w > 0.0f)) continue;
        sum += w;
    }
    if (!(sum > 0.0)) return 0.0f;
    for (const auto& [slot, w] : full.influences) {
        if (slot >= mesh.skin.paletteSize() || !(w > 0.0f)) continue;
        all += palette[slot] * static_cast<float>(w / sum);
    }
    const glm::vec3 a(all * p);
    const glm::vec3 kept(blendMatrix(mesh, v, palette, influences) * p);
    const glm::vec3 d = glm::mat3(meshWorld) * (a - kept);
    const float len = glm::length(d);
    return std::isfinite(len) ? len : 0.0f;
}

std::vector<float> truncationError(const Model& model, size_t meshIndex, int32_t clip, int samples) {
    std::vector<float> out;
    if (meshIndex >= model.meshes.size()) return out;
    const Mesh& mesh = model.meshes[meshIndex];
    out.assign(mesh.vertexCount(), 0.0f);
    if (!mesh.skinned || mesh.truncated.empty()) return out;
    const bool useClip = clip >= 0 && static_cast<size_t>(clip) < model.clips.size() &&
                         model.clips[clip].trackOfNode.size() >= model.skeleton.size();
    std::vector<float> times;
    if (!useClip) {
        times.push_back(0.0f);
    } else {
        const Clip& c = model.clips[clip];
        const int n = std::max(1, samples);
        const float t0 = std::min(c.startTime, c.duration), t1 = c.duration;
        for (int i = 0; i < n; ++i) {
            times.push_back(n == 1 ? t0 : t0 + (t1 - t0) * static_cast<float>(i) / static_cast<float>(n - 1));
        }
    }
    Animator anim(model);
    for (float t : times) {
        anim.evaluate(useClip ? clip : -1, t);
        const glm::mat4* palette = anim.palette().data() + anim.paletteOffset(meshIndex);
        const glm::mat4& meshWorld = anim.skinToModel(meshIndex);
        for (const FullInfluences& full : mesh.truncated) {
            if (full.vertex >= out.size()) continue;
            out[full.vertex] = std::max(out[full.vertex], truncationDistance(mesh, full, palette, meshWorld));
        }
    }
    return out;
}

}  // namespace rig
