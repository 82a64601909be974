// F1 / ? overlay listing every shortcut (from the table the key handler uses), the About
// window (version and the libraries in use), and the status line at the bottom.
#pragma once

#include <string>

#include "ui/panels.h"
#include "ui/viewer_state.h"

namespace rig {

struct AboutInfo {
    std::string version;     // rigview's
    std::string assimp, imgui, glfw, gl;
};

void drawHelpOverlay(ViewerState& s, UiProbe* probe);
void drawAbout(ViewerState& s, const AboutInfo& info);
// A transient line at the bottom of the window (ViewerUiState::status until statusUntil).
void drawStatusLine(const ViewerState& s, double now);

}  // namespace rig
