// IkStage: inverse kinematics as a post-process on a model-space pose, after local->model and
// before the skinning palettes (Animator::setPostProcess runs it there, so the CPU and GPU
// skinning paths both see the IK'd palette). It holds two-bone chains (IKTwoBoneJob: arms,
// legs), aim joints (IKAimJob: heads, eyes) and optional foot locking on a leg chain; each
// tick it runs their jobs in the order added and rotates the affected model-space matrices
// (the joint's subtree only, lists computed at set-up) with rotateSubtree. Set-up may allocate;
// run() allocates nothing, looks up no names and does not recurse.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/skeleton.h"

namespace rig {

// Foot locking on a leg chain: while the end joint touches the ground (its height above the
// ground plane under `height` and its speed under `speed`) it is pinned where the contact
// began, through the two-bone job; the lock fades in and out over `blend` seconds. The ground
// plane is perpendicular to `up` (the controller's up axis) at `ground`. Positions are taken in
// model space plus the reference offset given to IkStage::advance (the travel a root motion
// left out of the pose, e.g. with RootMotion::InPlace; zero when the root travels in the pose).
struct FootLockSettings {
    bool enabled = false;
    glm::vec3 up{0.0f, 1.0f, 0.0f};
    float ground = 0.0f;
    float height = 0.05f;   // model units
    float speed = 0.5f;     // model units per second
    float blend = 0.15f;    // seconds
};

struct TwoBoneChain {
    int32_t start = -1, mid = -1, end = -1;
    bool enabled = true;
    glm::vec3 target{0.0f};           // model space
    // The pole: when poleFromPose, the chain keeps the bend plane of the animated pose (the
    // mid joint's offset from the start-end line; `pole` when the chain is straight);
    // otherwise `pole`, a model-space direction.
    bool poleFromPose = true;
    glm::vec3 pole{0.0f, 0.0f, 1.0f};
    glm::vec3 midAxis{0.0f, 0.0f, 1.0f};  // mid joint's hinge (set from the bind pose)
    float weight = 1.0f, soft = 0.97f, twist = 0.0f;
    FootLockSettings footLock;
    // Results of the last run (for display and tests).
    bool reached = false;
    glm::vec3 usedPole{0.0f};         // the pole direction the job used
    glm::vec3 usedTarget{0.0f};       // the target it used (the lock position while locked)
    float usedWeight = 0.0f;
    // Foot-lock state.
    bool locked = false, hasPrevious = false;
    float lockWeight = 0.0f;
    glm::vec3 lockPosition{0.0f}, previous{0.0f};
    // Subtrees of start and mid (node lists), computed when the chain is added.
    std::vector<int32_t> startSubtree, midSubtree;
};

struct AimJoint {
    int32_t joint = -1;
    bool enabled = true;
    glm::vec3 target{0.0f};
    glm::vec3 forward{0.0f, 0.0f, 1.0f}, up{0.0f, 1.0f, 0.0f}, pole{0.0f, 1.0f, 0.0f}, offset{0.0f};
    float weight = 1.0f, limit = 0.0f, twist = 0.0f;
    bool reached = false;
    std::vector<int32_t> subtree;
};

// A two-bone chain found from common joint names (legs, then arms).
struct ChainGuess {
    std::string label;                // e.g. "leg: mixamorig:LeftFoot"
    int32_t start = -1, mid = -1, end = -1;
};
// Leg and arm chains by name: ends named like *Foot / *Ankle or *Hand / *Wrist, mids like
// *Leg / *Calf / *Shin / *Knee or *ForeArm / *LowerArm / *Elbow, starts like *UpLeg / *Thigh /
// *UpperLeg or *Arm / *UpperArm; case-insensitive, any "prefix:" (mixamorig:) and '_', '.',
// ' ', '-' ignored; up to two joints (twist bones) between them. Set-up time.
std::vector<ChainGuess> findLimbChains(const Skeleton& skeleton);

class IkStage {
public:
    IkStage() = default;
    explicit IkStage(const Skeleton& skeleton) { reset(skeleton); }

    // --- Set-up (allocates) ---
    void reset(const Skeleton& skeleton);
    // A two-bone chain start -> mid -> end (mid a descendant of start, end of mid). The mid
    // axis comes from the bind pose's bend (local Z when straight); the target starts at the
    // end joint's bind position. Returns its index, or -1 when the joints make no chain.
    int32_t addTwoBone(int32_t start, int32_t mid, int32_t end);
    // An aim joint; returns its index, or -1 for a bad joint.
    int32_t addAim(int32_t joint);
    void clear();

    std::vector<TwoBoneChain>& twoBone() { return twoBone_; }
    const std::vector<TwoBoneChain>& twoBone() const { return twoBone_; }
    std::vector<AimJoint>& aim() { return aim_; }
    const std::vector<AimJoint>& aim() const { return aim_; }
    bool enabled = true;
    // Nodes of the skeleton the stage was made for.
    size_t nodeCount() const { return parent_.size(); }

    // --- Per tick (no allocation) ---
    // Seconds since the last run and the reference offset (see FootLockSettings), for foot
    // locking; call before the evaluation that runs the stage. dt 0: no time passed (a paused
    // pipeline), foot locks hold as they are.
    void advance(float dt, const glm::vec3& referenceOffset = glm::vec3(0.0f)) {
        dt_ = dt;
        offset_ = referenceOffset;
    }
    // The dt of the last advance().
    float dt() const { return dt_; }
    // Apply every enabled chain, in order, to `model` (the skeleton's model-space matrices).
    // False (nothing changed) when `model` is not the skeleton's size.
    bool run(std::span<glm::mat4> model);

private:
    void runTwoBone(TwoBoneChain& c, std::span<glm::mat4> model);
    std::vector<int32_t> parent_;
    std::vector<glm::mat4> bindModel_;
    std::vector<TwoBoneChain> twoBone_;
    std::vector<AimJoint> aim_;
    float dt_ = 0.0f;
    glm::vec3 offset_{0.0f};
};

}  // namespace rig
