// The Playblast dialog (File > Playblast...): what the person asked for, the requests it posts
// and the progress app/viewer_playblast fills in. The render has its own Animator and time; the
// viewer's playback (its one Controller) is not touched.
#pragma once

#include <cstddef>
#include <string>

namespace rig {

struct PlayblastState {
    bool open = false;       // the dialog is shown
    // Requests, applied by the viewer's update step (app/viewer_playblast).
    bool prefill = false;    // fill the fields from what plays (File > Playblast...)
    bool start = false;      // render with the fields below
    bool cancel = false;     // stop the render; a video's file is not written
    // The fields.
    int clip = 0;
    float from = 0.0f, to = 0.0f;  // seconds on the clip's timeline
    float fps = 30.0f;
    int width = 1280, height = 720;
    bool frameRange = false;  // the camera framed on the clip over the range (as `render` frames
                              // it), at the view's angles; else the view's camera as it is
    std::string output;      // .mp4, .gif or a PNG sequence (name_%04d.png)
    // Progress and outcome.
    bool running = false;
    size_t done = 0, total = 0;  // frames
    std::string result;      // the last render's outcome, one line ("" while none)
    bool failed = false;     // that outcome is an error
};

}  // namespace rig
