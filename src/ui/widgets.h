// What the panels share: recording a widget for the UI tests and the clip on screen.
#pragma once

#include <string>

#include "ui/panels.h"

namespace rig {

// Records the last widget's rectangle under `name` when a probe is given.
void probeItem(UiProbe* probe, const std::string& name);
// The clip the model plays (s.clip), or nullptr.
const Clip* currentClip(const ViewerState& s);

}  // namespace rig
