#include "anim/pose.h"

#include <algorithm>
#include <cmath>

namespace rig {

glm::mat4 safeAffineInverse(const glm::mat4& m) {
    const glm::mat3 a(m);
    const float det = glm::determinant(a);
    if (!std::isfinite(det) || std::fabs(det) < 1e-30f) return glm::mat4(1.0f);
    const glm::mat3 ai = glm::inverse(a);
    glm::mat4 r(ai);
    r[3] = glm::vec4(-(ai * glm::vec3(m[3])), 1.0f);
    return r;
}

namespace {

bool isIdentity(const glm::mat4& m) {
    return m == glm::mat4(1.0f);
}

}  // namespace

Animator::Animator(const Model& model) : model_(&model) {
    const Skeleton& sk = model.skeleton;
    local_ = sk.bindLocalSqt;
    world_ = sk.bindModel;
    paletteOffset_.assign(model.meshes.size(), 0);
    uint32_t off = 0;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        paletteOffset_[m] = off;
        if (model.meshes[m].skinned) off += static_cast<uint32_t>(model.meshes[m].skin.paletteSize());
    }
    palette_.assign(off, glm::mat4(1.0f));
    size_t maxTracks = 0;
    for (const Clip& c : model.clips) maxTracks = std::max(maxTracks, c.tracks.size());
    cursors_.assign(3 * maxTracks, 0);
}

void Animator::evaluate(int32_t clipIndex, float t) {
    const Model& model = *model_;
    const Skeleton& sk = model.skeleton;
    const Clip* clip = nullptr;
    if (clipIndex >= 0 && static_cast<size_t>(clipIndex) < model.clips.size()) {
        clip = &model.clips[clipIndex];
    }
    if (clipIndex != lastClip_) {
        std::fill(cursors_.begin(), cursors_.end(), 0u);
        lastClip_ = clipIndex;
    }

    const size_t n = sk.size();
    const int32_t* parent = sk.parent.data();
    const glm::mat4* bindLocal = sk.bindLocal.data();
    glm::mat4* world = world_.data();
    const int32_t ov = overrideNode_ >= 0 && static_cast<size_t>(overrideNode_) < n ? overrideNode_ : -1;
    if (clip) {
        sampleClip(*clip, t, sk.bindLocalSqt.data(), local_.data(), cursors_.data(), blend_);
        const int32_t* trackOf = clip->trackOfNode.data();
        if (ov >= 0) {
            const Transform& base = trackOf[ov] >= 0 ? local_[ov] : sk.bindLocalSqt[ov];
            local_[ov] = base;
            local_[ov].rotation = base.rotation * overrideRotation_;
        }
        for (size_t i = 0; i < n; ++i) {
            const glm::mat4 l = (trackOf[i] >= 0 || static_cast<int32_t>(i) == ov) ? toMatrix(local_[i]) : bindLocal[i];
            world[i] = parent[i] < 0 ? l : mulAffine(world[parent[i]], l);
        }
    } else {
        // A still pose: the file's node transforms, or the skins' bind pose.
        const bool file = clipIndex == kFilePose;
        const std::vector<Transform>& poseSqt = file ? sk.bindLocalSqt : sk.bindPoseLocalSqt();
        const glm::mat4* poseLocal = file ? bindLocal : sk.bindPoseLocal().data();
        if (ov >= 0) {
            local_[ov] = poseSqt[ov];
            local_[ov].rotation = local_[ov].rotation * overrideRotation_;
        }
        for (size_t i = 0; i < n; ++i) {
            const glm::mat4 l = static_cast<int32_t>(i) == ov ? toMatrix(local_[i]) : poseLocal[i];
            world[i] = parent[i] < 0 ? l : mulAffine(world[parent[i]], l);
        }
    }

    updatePalettes();
}

void Animator::updatePalettes() {
    const Model& model = *model_;
    const glm::mat4* world = world_.data();
    glm::mat4* pal = palette_.data();
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        if (!mesh.skinned) continue;
        glm::mat4* out = pal + paletteOffset_[m];
        const glm::mat4& meshWorld = world[mesh.node];
        const size_t nj = mesh.skin.joints.size();
        const int32_t* joints = mesh.skin.joints.data();
        const glm::mat4* ib = mesh.skin.inverseBind.data();
        if (isIdentity(meshWorld)) {
            for (size_t j = 0; j < nj; ++j) out[j] = mulAffine(world[joints[j]], ib[j]);
        } else {
            const glm::mat4 inv = safeAffineInverse(meshWorld);
            for (size_t j = 0; j < nj; ++j) {
                out[j] = mulAffine(inv, mulAffine(world[joints[j]], ib[j]));
            }
        }
        // out[nj] (the rigid slot) stays the identity set at construction.
    }
}

void Animator::evaluatePose(const std::vector<Transform>& local, const std::vector<uint8_t>* animated) {
    const Model& model = *model_;
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    if (local.size() != n) {
        evaluate(-1, 0.0f);
        return;
    }
    std::copy(local.begin(), local.end(), local_.begin());
    const uint8_t* anim = animated && animated->size() == n ? animated->data() : nullptr;
    const int32_t ov = overrideNode_ >= 0 && static_cast<size_t>(overrideNode_) < n ? overrideNode_ : -1;
    if (ov >= 0) local_[ov].rotation = local_[ov].rotation * overrideRotation_;
    const int32_t* parent = sk.parent.data();
    const glm::mat4* bindLocal = sk.bindLocal.data();
    glm::mat4* world = world_.data();
    for (size_t i = 0; i < n; ++i) {
        const bool useLocal = !anim || anim[i] || static_cast<int32_t>(i) == ov;
        const glm::mat4 l = useLocal ? toMatrix(local_[i]) : bindLocal[i];
        world[i] = parent[i] < 0 ? l : mulAffine(world[parent[i]], l);
    }

    updatePalettes();
}

}  // namespace rig
