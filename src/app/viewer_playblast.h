// The viewer's File > Playblast...: applies the dialog's requests (ui/playblast_state.h) and
// renders the frames off-screen a few at a time between the viewer's frames, so the window
// stays live and Cancel works. The render keeps its own Animator and frame times (frame i at
// from + i/fps, app/playblast.h): the viewer's playback and its one Controller are not touched.
// It uses the viewer's renderer and GPU model, its view options and camera as they were when it
// started, and writes through the PlayblastWriter `render` uses.
#pragma once

#include <memory>
#include <string>

#include "render/gpu_model.h"
#include "render/renderer.h"
#include "ui/viewer_state.h"

namespace rig {

class ViewerPlayblast {
public:
    // `folder`: where the output goes by default (the screenshots' folder).
    explicit ViewerPlayblast(std::string folder);
    ~ViewerPlayblast();
    ViewerPlayblast(const ViewerPlayblast&) = delete;
    ViewerPlayblast& operator=(const ViewerPlayblast&) = delete;

    // Once per viewer frame, after the requests and before the scene is drawn: apply
    // s.playblast's requests and render frames for up to `budgetMs` of this frame (at least
    // one). `gpu` is the model on screen's (null while none). Leaves framebuffer 0 bound.
    void update(ViewerState& s, Renderer& renderer, GpuModel* gpu, double budgetMs = 40.0);
    bool running() const { return job_ != nullptr; }

private:
    struct Job;
    void start(ViewerState& s, GpuModel* gpu);
    void finish(ViewerState& s, bool ok, const std::string& message);
    std::string folder_;
    std::unique_ptr<Job> job_;
};

}  // namespace rig
