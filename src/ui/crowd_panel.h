// The Crowd panel: N instances of the model on a grid, each with its own clip and phase,
// drawn with instanced draws (app/crowd_view.h). Reads and writes ViewerState::crowd.
#pragma once

#include "ui/panels.h"

namespace rig {

void drawCrowdPanel(ViewerState& s, UiProbe* probe);
// Over the viewport's top-left corner while the frame budget draws fewer instances than asked:
// "drawing N of M instances (frame budget)".
void drawCrowdBudgetNote(const ViewerState& s, UiProbe* probe);
// The crowd's lines of the Stats panel (nothing while the crowd is off).
void drawCrowdStats(const ViewerState& s);

}  // namespace rig
