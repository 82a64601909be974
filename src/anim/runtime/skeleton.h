// Skeleton: the model's whole frame tree as flat arrays in parent-before-child order
// (parent[i] < i, root parent -1). Bones and plain nodes alike are kept, so rigid node
// animation works as well as skinning. Immutable after import.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/transform.h"

namespace rig {

struct Skeleton {
    std::vector<std::string> names;
    std::vector<int32_t> parent;           // parent[i] < i; -1 for a root
    // The file pose: each node's default to-parent transform as the file gives it (in an FBX,
    // the pose at the frame it was exported from). Clips animate on top of it.
    std::vector<glm::mat4> bindLocal;      // the file's to-parent matrix, exact
    std::vector<Transform> bindLocalSqt;   // the same, split into SQT (used by tracks
                                           // that animate only some components)
    std::vector<glm::mat4> bindModel;      // to-root matrix in the file pose
    // The bind pose: the pose the skins were bound in, derived from their inverse bind
    // matrices (seed 000: offset = inverse of the joint's bind-pose to-root transform times
    // the mesh node's). Joints no skin uses keep their file-pose local transform. Empty when
    // never computed (then the file pose stands in; see computeSkinBindPose in model.h).
    std::vector<glm::mat4> restLocal;
    std::vector<Transform> restLocalSqt;
    std::vector<glm::mat4> restModel;

    size_t size() const { return parent.size(); }
    // Index of the first node with this name, or -1. Import-time only.
    int32_t find(const std::string& name) const;
    // Fill bindModel from bindLocal with one forward loop.
    void computeBindModel();
    // The bind pose's local / to-root matrices (the file pose when none was computed).
    const std::vector<glm::mat4>& bindPoseLocal() const { return restLocal.size() == size() ? restLocal : bindLocal; }
    const std::vector<Transform>& bindPoseLocalSqt() const {
        return restLocalSqt.size() == size() ? restLocalSqt : bindLocalSqt;
    }
    const std::vector<glm::mat4>& bindPoseModel() const { return restModel.size() == size() ? restModel : bindModel; }
    // Offset (inverse bind) matrix of `bone` for a mesh hanging from `meshNode`, computed
    // from the bind pose for files that give none (seed 000: meshFrame.toRoot x
    // inverse(boneFrame.toRoot) with row vectors, i.e. inverse(boneToRoot) * meshToRoot).
    glm::mat4 offsetFromBindPose(int32_t bone, int32_t meshNode) const;
};

}  // namespace rig
