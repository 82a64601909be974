// The IK panel and its viewport gizmo (state in ui/ik_state.h): they post the chain, the
// settings and the target; the stage is set up in app/ik_setup.h and advanced by the playback
// pipeline (app/playback.h), never here.
#pragma once

#include <glm/glm.hpp>

#include "ui/panels.h"

namespace rig {

// Panel: on/off, the chain (a preset found from joint names, or start/mid/end picked from
// the skeleton), weight, soft limit, twist, pole, target, foot lock; whether the end reached.
void drawIkPanel(ViewerState& s, bool* open, UiProbe* probe);
// Mouse on the target gizmo (press near it, drag in the camera's view plane, release).
// True while the gizmo has the mouse: the camera must not orbit then.
bool handleIkMouse(ViewerState& s, float width, float height);
// The gizmo over the scene: the target as a cross and circle, the chain, the pole line.
void drawIkGizmo(const ViewerState& s, float width, float height);

}  // namespace rig
