// The Timeline panel (drawTimelinePanel, declared in ui/panels.h) and its content: transport,
// speed presets, loop mode, preview range, and the frame ruler with zoom / pan, markers, key
// diamonds and a dope sheet.
#pragma once

#include <vector>

#include "ui/panels.h"
#include "ui/viewer_state.h"

namespace rig {

// The Timeline strip's height (at UI scale 1) the Curves view asks for when it opens.
inline constexpr float kCurvesStripHeight = 330.0f;

void drawTimelineContent(ViewerState& s, UiProbe* probe);
// Key times of the clip the timeline shows (s.timeline.clip), per joint and for all joints;
// rebuilt only when the model or that clip changes.
void refreshKeyTimes(ViewerState& s);
// The first key after t (direction > 0) or the last before it (< 0), 10 us of tolerance so
// standing on a key moves to the next one; NaN when there is none.
double adjacentKey(const std::vector<float>& keys, double t, int direction);

}  // namespace rig
