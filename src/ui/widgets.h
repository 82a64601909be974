// What the panels share: recording a widget for the UI tests, the clip on screen, and a view
// option's widget drawn from the view option table (render/view_options.h).
#pragma once

#include <string>

#include "render/view_options.h"
#include "ui/panels.h"

namespace rig {

// Records the last widget's rectangle under `name` when a probe is given.
void probeItem(UiProbe* probe, const std::string& name);
// The clip the model plays (s.clip), or nullptr.
const Clip* currentClip(const ViewerState& s);
// The widget of view option `o` on `v`: a checkbox, radio buttons on one line, a combo, a slider
// or a colour editor, labelled and probed as the table says.
// Combos, sliders and colours are `itemWidth` wide (ImGui::SetNextItemWidth). Returns whether
// the value changed.
bool drawViewOption(const ViewOptionSpec& o, ViewOptions& v, float itemWidth, UiProbe* probe);

}  // namespace rig
