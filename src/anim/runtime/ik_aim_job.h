// IKAimJob: turn one joint so that its forward axis points at a target (a head or an eye
// looking at something, a gun aimed), on a model-space pose. The aim starts at `offset` (in
// the joint's space, e.g. the eyes in front of the head joint), so the ray from the offset
// along the forward axis goes through the target; then the joint turns about the
// joint-to-target line so that its up axis lies in the plane of that line and the pole vector,
// on the pole's side (plus `twist`). The correction's rotation angle can be capped
// (`limit`), and the result weighted. The maths follows ozz-animation's IKAimJob (written
// anew here); the limit is rigview's own. Outputs as IKTwoBoneJob: a local-space correction
// (rotation = rotation * correction) and the same as a model-space rotation about the joint
// (for rotateSubtree). Nothing is allocated; degenerate input gives the identity, never NaN.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace rig {

struct IKAimJob {
    const glm::mat4* joint = nullptr;            // model-space matrix of the joint
    glm::vec3 target{0.0f};                      // model space
    glm::vec3 forward{1.0f, 0.0f, 0.0f};         // joint space, the axis to aim
    glm::vec3 up{0.0f, 1.0f, 0.0f};              // joint space, turned towards the pole
    glm::vec3 pole{0.0f, 1.0f, 0.0f};            // model space; zero: no up constraint
    glm::vec3 offset{0.0f};                      // joint space, where the aim ray starts
    float twist = 0.0f;                          // radians about the joint-to-target line
    float weight = 1.0f;                         // clamped to [0, 1]
    float limit = 0.0f;                          // max correction angle, radians; <= 0: none

    glm::quat* correction = nullptr;             // local space
    glm::quat* rotation = nullptr;               // model space, about the joint's position
    bool* reached = nullptr;                     // the forward ray goes through the target

    bool validate() const;
    bool run() const;
};

}  // namespace rig
