// Skeleton: the model's whole frame tree as flat arrays in parent-before-child order
// (parent[i] < i, root parent -1). Bones and plain nodes alike are kept, so rigid node
// animation works as well as skinning. Immutable after import.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/transform.h"

namespace rig {

struct Skeleton {
    std::vector<std::string> names;
    std::vector<int32_t> parent;           // parent[i] < i; -1 for a root
    std::vector<glm::mat4> bindLocal;      // the file's to-parent matrix, exact
    std::vector<Transform> bindLocalSqt;   // the same, split into SQT (used by tracks
                                           // that animate only some components)
    std::vector<glm::mat4> bindModel;      // to-root matrix in the bind (file) pose

    size_t size() const { return parent.size(); }
    // Index of the first node with this name, or -1. Import-time only.
    int32_t find(const std::string& name) const;
    // Fill bindModel from bindLocal with one forward loop.
    void computeBindModel();
    // Offset (inverse bind) matrix of `bone` for a mesh hanging from `meshNode`, computed
    // from the bind pose for files that give none (seed 000: meshFrame.toRoot x
    // inverse(boneFrame.toRoot) with row vectors, i.e. inverse(boneToRoot) * meshToRoot).
    glm::mat4 offsetFromBindPose(int32_t bone, int32_t meshNode) const;
};

}  // namespace rig
