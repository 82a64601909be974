// Compressed playback in the panels: the Clips panel's "Compressed" toggle and tolerance, and
// the Stats panel's compressed size and error (ViewerState::compression; app/compressed_view.h
// applies the request).
#pragma once

#include "ui/panels.h"
#include "ui/viewer_state.h"

namespace rig {

// The toggle and the tolerance (millimetres): they post the request.
void drawCompressionSection(ViewerState& s, UiProbe* probe);
// What plays: compressed size (bytes, and its ratio to the plain clips) and the measured error.
void drawCompressionStats(const ViewerState& s);

}  // namespace rig
