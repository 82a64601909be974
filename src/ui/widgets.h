// What the panels share: recording a widget for the UI tests, the clip on screen, and a view
// option's widget drawn from the view option table (render/view_options.h).
#pragma once

#include <string>

#include "render/view_options.h"
#include "ui/panels.h"

namespace rig {

// Records the last widget's rectangle under `name` when a probe is given.
void probeItem(UiProbe* probe, const std::string& name);
// Keeping labels readable in a narrow panel or at a large UI scale (nothing past the panel's
// right edge): call sameLineIfFits(width) between two items to put the next one, `width`
// pixels wide, on the same line when it fits there and on the next line when it does not.
void sameLineIfFits(float width);
// The width of a button, a checkbox or a radio button labelled `label`, and of `label` as text
// (up to any "##").
float buttonWidth(const char* label);
float checkWidth(const char* label);
float textWidth(const char* label);
// `label` where a button (fitButton) or a checkbox (fitCheck) with it fits the rest of the line,
// else `shorter`. Give both the same "###id" so the widget keeps its state when it changes.
const char* fitButton(const char* label, const char* shorter);
const char* fitCheck(const char* label, const char* shorter);
// A slider, combo or field width that leaves room for its label on its right: negative, for
// ImGui::SetNextItemWidth.
float widthBeside(const char* label);
// Grey text wrapped at the panel's edge.
void textDisabledWrapped(const char* fmt, ...) IM_FMTARGS(1);
// The clip the model plays (s.clip), or nullptr.
const Clip* currentClip(const ViewerState& s);
// The widget of view option `o` on `v`: a checkbox, radio buttons on one line, a combo, a slider
// or a colour editor, labelled and probed as the table says.
// Combos, sliders and colours are `itemWidth` wide (ImGui::SetNextItemWidth). Returns whether
// the value changed.
bool drawViewOption(const ViewOptionSpec& o, ViewOptions& v, float itemWidth, UiProbe* probe);

}  // namespace rig
