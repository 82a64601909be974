// IKTwoBoneJob: analytic two-bone IK (an arm or a leg: start, mid and end joint) on a
// model-space pose. It bends the mid joint about its hinge axis so that the start-to-end
// distance matches the start-to-target one (law of cosines), turns the start joint so that the
// end lies on the start-to-target line, then turns the chain about that line so that the mid
// joint lies in the plane of the line and the pole vector, on the pole's side (plus `twist`).
//
// Outputs are two rotations per chain joint, both corrections to the pose the inputs describe:
// - startCorrection / midCorrection: local-space corrections, applied to the joint's local pose
//   as rotation = rotation * correction (then local->model again for the joint's subtree);
//   exact when the joint's own local scale is uniform and positive (scales and mirrors above
//   it are fine);
// - startRotation / midRotation: the same corrections as model-space rotations about the
//   joint's own position; rotateSubtree() applies them to the model-space matrices of a joint
//   and its descendants directly (mid first, then start), which is what the IK stage does.
// The maths follows ozz-animation's IKTwoBoneJob (written anew here). Nothing is allocated;
// validate() checks the inputs, run() returns false (writing nothing) when validate() does.
// Degenerate inputs (a zero-length bone, the target at the start joint, a non-finite target)
// give identity corrections or the nearest defined answer, never NaN.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace rig {

struct IKTwoBoneJob {
    // Model-space matrices of the three chain joints (the pose before IK).
    const glm::mat4* startJoint = nullptr;
    const glm::mat4* midJoint = nullptr;
    const glm::mat4* endJoint = nullptr;
    glm::vec3 target{0.0f};                  // model space
    glm::vec3 pole{0.0f, 1.0f, 0.0f};        // model-space direction the mid joint bends towards
    glm::vec3 midAxis{0.0f, 0.0f, 1.0f};     // mid joint's hinge axis, in its local space
    float weight = 1.0f;                     // 0: no change, 1: full correction (clamped)
    // Fraction of the chain length (a + b) from which the reach is softened: the chain
    // approaches full extension smoothly instead of snapping straight. 1: no softening.
    float soft = 1.0f;
    float twist = 0.0f;                      // radians about the start-to-target line

    // Outputs (any may be null).
    glm::quat* startCorrection = nullptr;
    glm::quat* midCorrection = nullptr;
    glm::quat* startRotation = nullptr;      // model space, about the start joint's position
    glm::quat* midRotation = nullptr;        // model space, about the mid joint's position
    bool* reached = nullptr;                 // weight 1 and the end within 1e-4 x max(1, chain length)
                                             // of the (unsoftened) target

    bool validate() const;
    bool run() const;
};

// Rotate model-space matrices rigidly by `rotation` about `pivot`: model[i] for every i in
// `nodes` (a joint and its descendants, e.g. from subtreeOf). Indices out of range are skipped.
// An identity rotation leaves the matrices untouched (bit for bit). Allocates nothing.
void rotateSubtree(std::span<const int32_t> nodes, const glm::vec3& pivot, const glm::quat& rotation,
                   std::span<glm::mat4> model);

// The joint `joint` and all its descendants, in node order (parent[i] < i). Set-up time only
// (allocates). Empty for an index out of range.
std::vector<int32_t> subtreeOf(std::span<const int32_t> parent, int32_t joint);

// Local-space form of a model-space rotation about a joint with model matrix m:
// m * R(local) = rotation * m (the axis taken into the joint's space; a mirrored joint turns
// the other way). Identity stays identity.
glm::quat modelToLocalRotation(const glm::mat4& m, const glm::quat& rotation);

}  // namespace rig
