// Animator: one instance's animation state (local pose, model-space matrices, palettes and
// track cursors) for a shared Model. Buffers are sized once at construction; evaluate() is
// the per-tick job: sample -> local->model (one forward loop) -> palette. It allocates
// nothing and looks up no names.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "anim/clip.h"
#include "anim/model.h"

namespace rig {

// Clip indices that are poses rather than clips (Animator::evaluate).
inline constexpr int32_t kBindPose = -1;  // the pose the skins were bound in (inverse bind matrices)
inline constexpr int32_t kFilePose = -2;  // the file's default node transforms

class Animator {
public:
    explicit Animator(const Model& model);

    // Pose the model at clip time t (seconds, clip-local; no wrapping here). kFilePose gives
    // the file's default node transforms; kBindPose, or any other clip out of range, gives the
    // bind pose (Skeleton::bindPoseLocal: the skins' bind pose).
    void evaluate(int32_t clip, float t);
    // Pose the model from a given local pose (one Transform per skeleton node, e.g. a
    // Controller's blend): local->model (one forward loop) -> palette, the rotation override
    // applied as in evaluate(). Nodes whose `animated` flag is 0 use the file's exact
    // to-parent matrix (as evaluate() does for nodes without a track); nullptr: every node
    // uses `local`. A `local` of the wrong size gives the bind pose. Allocates nothing.
    void evaluatePose(const std::vector<Transform>& local, const std::vector<uint8_t>* animated = nullptr);

    void setRotationBlend(RotationBlend blend) { blend_ = blend; }
    // An extra local rotation for one node, applied after sampling (on the node's own axes):
    // the viewer's range-of-motion test. node < 0 clears it.
    void setRotationOverride(int32_t node, const glm::quat& rotation) {
        overrideNode_ = node;
        overrideRotation_ = rotation;
    }
    RotationBlend rotationBlend() const { return blend_; }

    const Model& model() const { return *model_; }
    // Model-space (to-root) matrix of every skeleton node, file root's transform included.
    const std::vector<glm::mat4>& world() const { return world_; }
    const std::vector<Transform>& local() const { return local_; }
    // All skins' palettes, concatenated; mesh m's palette starts at paletteOffset(m).
    // Entry = inverse(meshWorld) * world[joint] * inverseBind: a vertex in mesh space to the
    // skinned position in mesh space. The last entry of each skin is the identity (rigid slot).
    const std::vector<glm::mat4>& palette() const { return palette_; }
    uint32_t paletteOffset(size_t mesh) const { return paletteOffset_[mesh]; }

private:
    // palette = inverse(meshWorld) * world[joint] * inverseBind, for every skin.
    void updatePalettes();

    const Model* model_;
    RotationBlend blend_ = RotationBlend::Slerp;
    int32_t lastClip_ = INT32_MIN;
    int32_t overrideNode_ = -1;
    glm::quat overrideRotation_{1.0f, 0.0f, 0.0f, 0.0f};
    std::vector<Transform> local_;
    std::vector<glm::mat4> world_;
    std::vector<glm::mat4> palette_;
    std::vector<uint32_t> paletteOffset_;
    std::vector<uint32_t> cursors_;
};

// Inverse of an affine matrix; identity when it is singular or not finite.
glm::mat4 safeAffineInverse(const glm::mat4& m);

}  // namespace rig
