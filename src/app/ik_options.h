// The headless commands' IK options (pose, render): one two-bone chain solved on the posed
// model before the palette is built (anim/runtime/ik.h), e.g.
//   --ik-two-bone LeftUpLeg,LeftLeg,LeftFoot --ik-target 0.1,0.05,0.3 [--ik-pole 0,0,1] [--ik-weight 1]
// Joints by name or node index; target and pole in the model space that `pose` writes.
#pragma once

#include <string>

#include "anim/runtime/ik.h"
#include "anim/runtime/model.h"

namespace rig {

struct IkOptions {
    std::string twoBone;   // "START,MID,END"
    std::string target;    // "X,Y,Z"
    std::string pole;      // "X,Y,Z"; empty: keep the pose's bend plane
    float weight = 1.0f;
    float soft = 1.0f;     // 1: no softening (the end reaches exactly when it can)

    bool any() const { return !twoBone.empty() || !target.empty() || !pole.empty(); }
};

// Add the chain of `o` to `stage` (made for `model`'s skeleton). False after one error line
// ("rigview: <file>: --ik-...: <what>") for unknown joints, joints that make no chain, a
// missing or bad target, a bad pole or weight.
bool setupIk(const Model& model, const IkOptions& o, const std::string& file, IkStage& stage);

}  // namespace rig
