// File > Playblast...: a small window asking for the clip, range, rate, size and output file,
// with a progress bar and Cancel while the render runs (app/viewer_playblast renders it).
#pragma once

#include "ui/panels.h"

namespace rig {

// Probed as "playblast:<field>": clip, from, to, fps, size, output, frame,
// render, cancel, progress.
void drawPlayblastDialog(ViewerState& s, UiProbe* probe);

}  // namespace rig
