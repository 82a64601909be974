// The viewer's IK stage (IkViewState::stage) set up from the IK panel's settings for the model
// on screen: limb chains guessed by joint names when a model arrives, the two-bone chain and
// the aim joint rebuilt when the panel changes them, targets, weights and foot-lock ground
// from the panel and the model's bounds. Time is not here: the stage is advanced by the
// playback pipeline (app/playback.h) with the Controller's step.
#pragma once

#include "anim/runtime/ik.h"
#include "ui/viewer_state.h"

namespace rig {

// Bring s.ik.stage up to date with the panel for this frame (set-up may allocate when the
// model or the chain changed). Returns the stage to run as the pose's post-process, or null
// when IK is off or no chain could be made.
IkStage* prepareIkStage(ViewerState& s);

}  // namespace rig
