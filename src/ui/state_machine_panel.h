// The State Machine panel: parameters (slider, checkbox, button), each layer's states as
// boxes (the active one highlighted, with its normalized time and the cross-fade's progress),
// the transitions out of the active states with their conditions, and the transition log.
#pragma once

#include "ui/panels.h"

namespace rig {

void drawStateMachinePanel(ViewerState& s, bool* open, UiProbe* probe);

}  // namespace rig
