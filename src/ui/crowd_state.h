// The Crowd panel's settings and the numbers it shows (ViewerState::crowd). The playback
// pipeline (app/playback.h) builds a rig::Crowd from them and poses it at the controller's
// time; the viewer's CrowdView (app/crowd_view.h) draws it instanced.
#pragma once

#include <cstddef>

namespace rig {

enum class CrowdClips { Same, Cycle, Random };

struct CrowdState {
    bool panelOpen = false;
    bool enabled = false;      // the crowd replaces the single model on screen
    int instances = 100;       // 1..10000
    float spacing = 0.0f;      // grid step; 0: 1.25 x the model's footprint (set when built)
    CrowdClips clips = CrowdClips::Same;  // Same: the clip of the Clips panel
    float phaseSpread = 1.0f;  // 0: all in step; 1: phases spread over the whole clip
    float rateSpread = 0.0f;   // 0: all at the timeline's rate; 0.5: rates from 0.75 to 1.25
    int threads = 2;           // update threads, this one included
    bool frameRequested = false;  // frame the grid with the camera on the next frame

    // Shown by the Stats panel.
    float updateMs = 0.0f;     // the last frame's Crowd::update (all instances posed)
    float drawMs = 0.0f;       // CPU time of the last cull + upload + instanced draws
    float gpuMs = -1.0f;       // GPU time of an earlier draw (timer query), < 0 unknown
    size_t drawn = 0, culled = 0;
    bool linearFallback = false;  // dual quaternions asked for: instances use linear blend
    const char* problem = nullptr;  // why nothing is drawn (too many for the driver)
};

}  // namespace rig
