// DualQuat: a rigid transform (rotation + translation) as a unit dual quaternion, for
// dual-quaternion skinning (no candy-wrapper collapse at twisting joints).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace rig {

struct DualQuat {
    glm::quat real{1.0f, 0.0f, 0.0f, 0.0f};  // rotation
    glm::quat dual{0.0f, 0.0f, 0.0f, 0.0f};  // 0.5 * translation * rotation

    // From an affine matrix; scale and shear are dropped (the rotation is orthonormalized).
    static DualQuat fromMatrix(const glm::mat4& m);
    glm::vec3 transformPoint(const glm::vec3& p) const;
    glm::vec3 transformVector(const glm::vec3& v) const;
};

// Weighted blend with every quaternion flipped into the hemisphere of the first, then
// normalized (Kavan et al., "Skinning with dual quaternions").
DualQuat blendDualQuats(const DualQuat* dq, const float* weights, int count);

}  // namespace rig
