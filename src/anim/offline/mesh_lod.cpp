#include "anim/offline/mesh_lod.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace rig {

namespace {

template <typename T>
void keepOnly(std::vector<T>& values, const std::vector<uint32_t>& keep) {
    if (values.empty()) return;
    std::vector<T> out;
    out.reserve(keep.size());
    for (uint32_t v : keep) out.push_back(values[v]);
    values = std::move(out);
}

void simplifyMesh(Mesh& mesh, int cellsAcross) {
    const size_t n = mesh.vertexCount();
    if (n == 0 || static_cast<size_t>(cellsAcross) * cellsAcross * 2 >= n) return;
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::vec3 extent = hi - lo;
    const float cell = std::max({extent.x, extent.y, extent.z, 1e-9f}) / static_cast<float>(cellsAcross);
    // Cluster key: the cell (21 bits an axis) and the vertex's strongest joint.
    auto keyOf = [&](size_t v) {
        const glm::vec3 c = glm::floor((mesh.positions[v] - lo) / cell);
        uint64_t key = 0;
        for (int a = 0; a < 3; ++a) key = (key << 21) | (static_cast<uint64_t>(std::clamp(c[a], 0.0f, 2097151.0f)) & 0x1FFFFF);
        uint64_t joint = 0;
        if (mesh.skinned && v < mesh.joints.size()) {
            const glm::vec4& w = mesh.weights[v];
            int best = 0;
            for (int k = 1; k < 4; ++k) best = w[k] > w[best] ? k : best;
            joint = mesh.joints[v][static_cast<size_t>(best)] + 1u;
        }
        return key ^ (joint * 0x9E3779B97F4A7C15ull);
    };
    std::unordered_map<uint64_t, uint32_t> clusterOf;
    std::vector<uint32_t> cluster(n);
    std::vector<glm::vec3> sum;
    std::vector<uint32_t> count;
    for (size_t v = 0; v < n; ++v) {
        const auto [it, added] = clusterOf.emplace(keyOf(v), static_cast<uint32_t>(sum.size()));
        if (added) {
            sum.emplace_back(0.0f);
            count.push_back(0);
        }
        cluster[v] = it->second;
        sum[it->second] += mesh.positions[v];
        ++count[it->second];
    }
    // Each cluster's vertex nearest its mean.
    std::vector<uint32_t> keep(sum.size(), 0);
    std::vector<float> best(sum.size(), INFINITY);
    for (size_t v = 0; v < n; ++v) {
        const uint32_t c = cluster[v];
        const glm::vec3 d = mesh.positions[v] - sum[c] / static_cast<float>(count[c]);
        const float dd = glm::dot(d, d);
        if (dd < best[c]) {
            best[c] = dd;
            keep[c] = static_cast<uint32_t>(v);
        }
    }
    std::vector<uint32_t> indices;
    indices.reserve(mesh.indices.size());
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const uint32_t a = cluster[mesh.indices[t]], b = cluster[mesh.indices[t + 1]], c = cluster[mesh.indices[t + 2]];
        if (a == b || b == c || a == c) continue;  // collapsed
        indices.insert(indices.end(), {a, b, c});
    }
    mesh.indices = std::move(indices);
    keepOnly(mesh.positions, keep);
    keepOnly(mesh.normals, keep);
    keepOnly(mesh.uvs, keep);
    keepOnly(mesh.uvs1, keep);
    keepOnly(mesh.colors, keep);
    keepOnly(mesh.tangents, keep);
    keepOnly(mesh.joints, keep);
    keepOnly(mesh.weights, keep);
    keepOnly(mesh.joints2, keep);
    keepOnly(mesh.weights2, keep);
    keepOnly(mesh.originalInfluenceCount, keep);
    keepOnly(mesh.originalWeightSum, keep);
    mesh.truncated.clear();
    mesh.morphTargets.clear();
    mesh.morphDefaultWeights.clear();
}

}  // namespace

Model simplifiedModel(const Model& model, int cellsAcross) {
    Model lod = model;
    for (Mesh& mesh : lod.meshes) simplifyMesh(mesh, std::max(cellsAcross, 1));
    return lod;
}

}  // namespace rig
