// The Crowd panel's settings and the numbers it shows (ViewerState::crowd). The playback
// pipeline (app/playback.h) builds a rig::Crowd from them and poses it at the controller's
// time; the viewer's CrowdView (app/crowd_view.h) draws it instanced.
#pragma once

#include <cstddef>

namespace rig {

enum class CrowdClips { Same, Cycle, Random };

// The viewer's frame budget for the crowd: the time of posing it and drawing it to the end
// (updateMs + drawMs, the draw waited for with glFinish). Under llvmpipe each instance of a
// small rig costs about 10 ms there (more on a loaded machine), so a 1,000 crowd is cut to a
// few instances; 40 ms keeps a frame under 100 ms where the rest of it takes under 60 ms.
inline constexpr float kCrowdBudgetMs = 40.0f;
// The instances a budgeted crowd starts from before any frame is measured.
inline constexpr size_t kCrowdFirstLimit = 16;
// The fewest a budgeted crowd draws (all of them when there are fewer): a grid still reads as
// one where a software renderer cannot fit them in the budget (the frame then takes longer).
inline constexpr size_t kCrowdMinInstances = 25;
// An instance shorter than this on screen (pixels) is drawn from the crowd's lighter model
// (anim/offline/mesh_lod.h): its detail would not show.
inline constexpr float kCrowdLowDetailPixels = 160.0f;
// Untick the budget: asked first when the whole crowd would take longer than this a frame.
inline constexpr float kCrowdAskAboveMs = 1000.0f;

struct CrowdState {
    bool panelOpen = false;
    bool enabled = false;      // the crowd replaces the single model on screen
    int instances = 100;       // 1..10000
    float spacing = 0.0f;      // grid step; 0: 1.25 x the model's footprint (set when built)
    CrowdClips clips = CrowdClips::Same;  // Same: the clip of the Clips panel
    float phaseSpread = 1.0f;  // 0: all in step; 1: phases spread over the whole clip
    float rateSpread = 0.0f;   // 0: all at the timeline's rate; 0.5: rates from 0.75 to 1.25
    int threads = 2;           // update threads, this one included
    bool budgeted = true;      // pose and draw only as many instances as kCrowdBudgetMs allows
    bool askUnbudgeted = false;  // the panel asks whether to draw every instance however slow
    bool frameRequested = false;  // frame the grid with the camera on the next frame

    // Shown by the Stats panel.
    float updateMs = 0.0f;     // the last frame's Crowd::update (the posed instances)
    float drawMs = 0.0f;       // the last cull + upload + instanced draws (to their end while budgeted)
    float gpuMs = -1.0f;       // GPU time of an earlier draw (timer query), < 0 unknown
    size_t drawn = 0, culled = 0;  // of the posed instances
    size_t lowDetail = 0;          // of the drawn, how many from the lighter model
    // The budget: the first `limit` instances (the grid's nearest its centre, app/crowd_view.h)
    // are posed and drawn while budgeted; 0 until the crowd is first posed. `posed`: how many
    // the last frame posed.
    size_t limit = 0, posed = 0;
    bool capped() const { return budgeted && posed < static_cast<size_t>(instances); }
    // What a frame of the whole crowd would cost, from the last frame's cost per posed
    // instance (0: nothing measured yet).
    float unbudgetedMs() const {
        return posed > 0 ? (updateMs + drawMs) / static_cast<float>(posed) * static_cast<float>(instances) : 0.0f;
    }
    bool linearFallback = false;  // dual quaternions asked for: instances use linear blend
    const char* problem = nullptr;  // why nothing is drawn (too many for the driver)
};

}  // namespace rig
