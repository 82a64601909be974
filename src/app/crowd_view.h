// CrowdView: the viewer's crowd (the Crowd panel's settings, ui/crowd_state.h) built as a
// rig::Crowd over the model on screen, updated on its thread pool and drawn instanced by a
// CrowdRenderer. Rebuilt only when a setting or the model changes; a frame with no change
// allocates nothing.
#pragma once

#include <memory>
#include <random>
#include <vector>

#include "anim/control/crowd.h"
#include "render/crowd_renderer.h"
#include "ui/viewer_state.h"

namespace rig {

class CrowdView {
public:
    // Needs a current GL context.
    static Result<std::unique_ptr<CrowdView>> create();

    // Pose and draw the crowd for the viewer's state (clock time, clip, camera, view
    // options) into the bound framebuffer; fills s.crowd's numbers. Frames the camera on
    // the grid when s.crowd.frameRequested.
    void frame(ViewerState& s, GpuModel& gpu, int width, int height);

private:
    CrowdView() = default;
    void rebuild(ViewerState& s);

    std::unique_ptr<CrowdRenderer> renderer_;
    std::unique_ptr<Crowd> crowd_;
    std::shared_ptr<const Model> model_;  // what crowd_ was built for
    int instances_ = 0, threads_ = 0, clip_ = -3;
    CrowdClips clips_ = CrowdClips::Same;
    float phaseSpread_ = -1.0f, rateSpread_ = -1.0f, spacing_ = -1.0f;
    bool zUp_ = false;
    Bounds one_;
    std::vector<glm::vec3> offsets_;
};

}  // namespace rig
