#include "anim/runtime/model.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "anim/runtime/pose.h"

namespace rig {

std::vector<int32_t> Model::jointNodes() const {
    std::vector<uint8_t> isJoint(skeleton.size(), 0);
    bool anySkin = false;
    for (const Mesh& m : meshes) {
        if (!m.skinned) continue;
        anySkin = true;
        for (int32_t j : m.skin.joints) isJoint[j] = 1;
    }
    std::vector<int32_t> out;
    for (size_t i = 0; i < skeleton.size(); ++i) {
        if (!anySkin || isJoint[i]) out.push_back(static_cast<int32_t>(i));
    }
    return out;
}

int32_t Model::findClip(const std::string& key) const {
    for (size_t i = 0; i < clips.size(); ++i) {
        if (clips[i].name == key) return static_cast<int32_t>(i);
    }
    int32_t idx = -1;
    const char* end = key.data() + key.size();
    auto [p, ec] = std::from_chars(key.data(), end, idx);
    if (ec == std::errc() && p == end && idx >= 0 && static_cast<size_t>(idx) < clips.size()) {
        return idx;
    }
    return -1;
}

void fillSecondInfluenceSet(Mesh& mesh) {
    mesh.joints2.clear();
    mesh.weights2.clear();
    const size_t nv = mesh.joints.size();
    bool any = false;
    for (const FullInfluences& full : mesh.truncated) any = any || (full.vertex < nv && full.influences.size() > kMaxInfluences);
    if (!any) return;
    mesh.joints2.resize(nv);
    mesh.weights2.assign(nv, glm::vec4(0.0f));
    for (size_t v = 0; v < nv; ++v) mesh.joints2[v].fill(mesh.joints[v][0]);
    for (const FullInfluences& full : mesh.truncated) {
        if (full.vertex >= nv || full.influences.size() <= kMaxInfluences) continue;
        // The first set's scale: the sum of the 4 strongest, added as import adds them.
        float kept = 0.0f;
        for (size_t k = 0; k < kMaxInfluences; ++k) kept += full.influences[k].second;
        if (!(kept > 0.0f)) continue;
        const size_t n = std::min<size_t>(full.influences.size(), kMostInfluences);
        for (size_t k = kMaxInfluences; k < n; ++k) {
            mesh.joints2[full.vertex][k - kMaxInfluences] = full.influences[k].first;
            mesh.weights2[full.vertex][static_cast<int>(k - kMaxInfluences)] = full.influences[k].second / kept;
        }
    }
}

size_t Model::paletteSize() const {
    size_t n = 0;
    for (const Mesh& m : meshes) {
        if (m.skinned) n += m.skin.paletteSize();
    }
    return n;
}

const ModelImage* Model::findImage(const std::string& ref) const {
    for (const ModelImage& image : images) {
        if (image.ref == ref) return &image;
    }
    return nullptr;
}

SkinBindPoseStats computeSkinBindPose(Model& model) {
    Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    SkinBindPoseStats st;
    std::vector<glm::mat4> fromSkin(n, glm::mat4(1.0f));
    std::vector<uint8_t> has(n, 0);
    for (const Mesh& m : model.meshes) {
        if (!m.skinned || m.node < 0 || static_cast<size_t>(m.node) >= n) continue;
        const glm::mat4& meshWorld = sk.bindModel[m.node];
        for (size_t j = 0; j < m.skin.joints.size(); ++j) {
            const int32_t node = m.skin.joints[j];
            if (node < 0 || static_cast<size_t>(node) >= n) continue;
            if (j < m.skin.offsetComputed.size() && m.skin.offsetComputed[j]) continue;  // from the file pose
            const glm::mat4 inv = safeAffineInverse(m.skin.inverseBind[j]);
            const glm::mat4 world = mulAffine(meshWorld, inv);
            if (!has[node]) {
                fromSkin[node] = world;
                has[node] = 1;
                ++st.jointsFromSkins;
                continue;
            }
            const float d = glm::length(glm::vec3(world[3]) - glm::vec3(fromSkin[node][3]));
            if (d > 1e-5f * (1.0f + glm::length(glm::vec3(world[3])))) {
                ++st.conflictingJoints;
                st.worstConflict = std::max(st.worstConflict, d);
            }
        }
    }
    sk.restLocal.resize(n);
    sk.restLocalSqt.resize(n);
    sk.restModel.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int32_t p = sk.parent[i];
        if (has[i]) {
            sk.restModel[i] = fromSkin[i];
            sk.restLocal[i] = p < 0 ? fromSkin[i] : mulAffine(safeAffineInverse(sk.restModel[p]), fromSkin[i]);
            decompose(sk.restLocal[i], sk.restLocalSqt[i]);
        } else {
            sk.restLocal[i] = sk.bindLocal[i];
            sk.restLocalSqt[i] = sk.bindLocalSqt[i];
            sk.restModel[i] = p < 0 ? sk.bindLocal[i] : mulAffine(sk.restModel[p], sk.bindLocal[i]);
        }
    }
    // Offsets the file did not give were computed from the file pose; recompute them from the
    // bind pose (seed 000), so that the mesh is whole there too.
    for (Mesh& m : model.meshes) {
        if (!m.skinned || m.node < 0 || static_cast<size_t>(m.node) >= n) continue;
        for (size_t j = 0; j < m.skin.joints.size() && j < m.skin.offsetComputed.size(); ++j) {
            const int32_t node = m.skin.joints[j];
            if (!m.skin.offsetComputed[j] || node < 0 || static_cast<size_t>(node) >= n) continue;
            m.skin.inverseBind[j] = mulAffine(safeAffineInverse(sk.restModel[node]), sk.bindModel[m.node]);
        }
    }
    return st;
}

}  // namespace rig
