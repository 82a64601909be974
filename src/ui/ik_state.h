// IkViewState: the viewer's IK panel (one two-bone chain solved on the pose on screen, after
// local->model and before the palette: anim/runtime/ik.h) and its viewport gizmo (the target, dragged
// with the mouse in the camera's view plane; the chain and the pole drawn as lines).
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/ik.h"
#include "anim/runtime/model.h"

namespace rig {

struct IkViewState {
    bool enabled = false;
    std::vector<ChainGuess> guesses;   // limb chains found by joint names at load
    int preset = -1;                   // index into guesses; -1: custom
    int start = -1, mid = -1, end = -1;
    float weight = 1.0f;
    float soft = 0.97f;
    float twist = 0.0f;                // degrees
    bool poleFromPose = true;          // keep the animated bend plane
    glm::vec3 pole{0.0f, 0.0f, 1.0f};  // model-space direction when not from the pose
    glm::vec3 target{0.0f};            // model space (= the viewer's world)
    bool footLock = false;
    // Look-at: a joint (default: the first named like "head") aimed at the same target; its
    // forward and up axes are the model's +Z and up in the joint's bind-pose frame.
    bool aim = false;
    int aimJoint = -1;
    float aimWeight = 1.0f;
    float aimLimit = 70.0f;            // degrees
    bool rebuild = true;               // the chain changed: rebuild the stage
    bool snapTarget = true;            // put the target on the end joint at the next tick
    bool dragging = false;             // the mouse holds the target gizmo
    bool hover = false;
    std::string status;                // why the chain is not solved, if it is not
    IkStage stage;
    const Model* forModel = nullptr;
};

}  // namespace rig
