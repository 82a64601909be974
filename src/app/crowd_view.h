// CrowdView: the viewer's crowd drawn instanced by a CrowdRenderer. The crowd itself (a
// rig::Crowd over the model on screen, its instances' clips, phases and rates) belongs to the
// playback pipeline (app/playback.h), which poses it at the controller's time; this lays the
// instances out on a grid (the Crowd panel's spacing, ui/crowd_state.h), frames the camera on
// it when asked, and draws it. The grid is recomputed only when a setting or the model
// changes; a frame with no change allocates nothing.
//
// The frame budget (kCrowdBudgetMs): instance i stands at the i-th grid place nearest the
// grid's centre, so the first `limit` instances, the ones posed and drawn while budgeted, fill
// the middle of the grid. After each frame the limit follows the measured cost (the update
// plus the draw waited for to its end): it shrinks in proportion when the cost is over the
// budget and grows (at most 1.5 times a frame) while the cost is under 60% of it, and never
// goes below kCrowdMinInstances. Instances shorter than kCrowdLowDetailPixels on screen are drawn
// from a lighter version of the model, so a software renderer fits a grid of them. A framing
// asked for frames what is drawn, and frames again as the limit settles until the camera is
// moved.
#pragma once

#include <memory>
#include <vector>

#include "anim/control/crowd.h"
#include "render/crowd_renderer.h"
#include "ui/viewer_state.h"

namespace rig {

class CrowdView {
public:
    // Needs a current GL context.
    static Result<std::unique_ptr<CrowdView>> create();

    // Draw `crowd` (posed this frame for s's model) with the viewer's camera and view options
    // into the bound framebuffer; fills s.crowd's numbers. Frames the camera on the grid when
    // s.crowd.frameRequested.
    // `env`: the environment lighting the crowd (Renderer::prepareEnvironment), nullptr: a grey sky.
    void frame(ViewerState& s, const Crowd& crowd, GpuModel& gpu, int width, int height, const Environment* env = nullptr);

private:
    CrowdView() = default;
    void layOut(ViewerState& s, size_t instances);
    void fitBudget(CrowdState& c, size_t instances) const;
    bool cameraMoved(const OrbitCamera& cam) const;

    std::unique_ptr<CrowdRenderer> renderer_;
    std::unique_ptr<const Model> lodModel_;  // the model lighter (anim/offline/mesh_lod.h), for far instances
    std::unique_ptr<GpuModel> lodGpu_;
    std::shared_ptr<const Model> model_;  // what the grid was laid out for
    int clip_ = -3;
    size_t instances_ = 0;
    float spacing_ = -1.0f;
    bool zUp_ = false;
    Bounds one_;
    std::vector<glm::vec3> offsets_;  // instance i's grid place, nearest the centre first
    std::vector<glm::vec3> shown_;    // the first posed of them: what is drawn
    bool following_ = false;          // framing what is drawn until the camera moves
    OrbitCamera framed_;              // the camera as the last framing left it
};

}  // namespace rig
