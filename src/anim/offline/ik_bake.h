// Baking inverse kinematics into a clip (offline: it allocates). The clip is sampled on a grid
// of `fps` frames per second (the clip's own sample rate when fps <= 0), the IK stage is run
// on each frame's model-space pose exactly as Animator runs it per tick, and every joint whose
// local rotation the IK changed gets rotation keys on that grid (the local rotation of the
// solved pose: inverse(parent's model matrix) x model matrix, decomposed). Other channels,
// morph weight tracks and joints are copied unchanged, so the baked clip plays the IK'd pose
// without any IK at run time.
#pragma once

#include "anim/runtime/clip.h"
#include "anim/runtime/ik.h"
#include "anim/runtime/model.h"

namespace rig {

// `stage` must be made for model's skeleton; it is advanced by one frame per grid step (foot
// locking sees the clip played at fps). Joints the IK leaves alone keep their keys bit for bit.
Clip bakeIk(const Model& model, const Clip& clip, IkStage& stage, float fps);

}  // namespace rig
