#include "app/crowd_view.h"

#include <algorithm>
#include <chrono>

#include "anim/offline/mesh_lod.h"
#include "render/renderer.h"

namespace rig {

namespace {

// The lighter model's grid: cells along each mesh's longest side (the demo's 3,935 vertices
// become 203).
constexpr int kLodCells = 14;

}  // namespace

Result<std::unique_ptr<CrowdView>> CrowdView::create() {
    std::unique_ptr<CrowdView> v(new CrowdView());
    auto r = CrowdRenderer::create();
    if (!r) return r.error();
    v->renderer_ = std::move(r.value());
    return v;
}

void CrowdView::layOut(ViewerState& s, size_t instances) {
    CrowdState& c = s.crowd;
    const Model& model = *s.model;
    const bool newModel = model_ != s.model;
    const int clip = s.bindPose ? s.stillPose() : s.clip;
    if (newModel || clip != clip_) one_ = animatedBounds(model, clip, 12);
    if (newModel) c.spacing = 0.0f;  // automatic again for another model
    if (c.spacing <= 0.0f) {
        const glm::vec3 e = one_.valid() ? one_.max - one_.min : glm::vec3(1.0f);
        c.spacing = 1.25f * std::max({e.x, s.camera.zUp ? e.y : e.z, 1e-3f});
    }
    if (newModel) {  // the far instances' lighter model
        lodGpu_.reset();
        lodModel_ = std::make_unique<const Model>(simplifiedModel(model, kLodCells));
        auto gpu = GpuModel::create(*lodModel_);
        if (gpu) lodGpu_ = std::move(gpu.value());
    }
    offsets_ = crowdGrid(instances, c.spacing, s.camera.zUp);
    // Nearest the centre first (stable: the grid's order among equals), for the budget.
    std::stable_sort(offsets_.begin(), offsets_.end(),
                     [](const glm::vec3& a, const glm::vec3& b) { return glm::dot(a, a) < glm::dot(b, b); });
    shown_.clear();
    model_ = s.model;
    clip_ = clip;
    instances_ = instances;
    spacing_ = c.spacing;
    zUp_ = s.camera.zUp;
}

bool CrowdView::cameraMoved(const OrbitCamera& cam) const {
    return cam.target != framed_.target || cam.distance != framed_.distance || cam.azimuthDeg != framed_.azimuthDeg ||
           cam.elevationDeg != framed_.elevationDeg || cam.viewRect != framed_.viewRect;
}

void CrowdView::fitBudget(CrowdState& c, size_t instances) const {
    const float cost = c.updateMs + c.drawMs;
    const float posed = static_cast<float>(std::max<size_t>(c.posed, 1));
    if (cost > kCrowdBudgetMs) {
        const auto fit = static_cast<size_t>(posed * 0.9f * kCrowdBudgetMs / cost);
        c.limit = std::clamp<size_t>(fit, 1, c.limit);
    } else if (cost < 0.6f * kCrowdBudgetMs && c.posed >= c.limit && c.limit < instances) {
        const float grow = cost > 0.0f ? std::min(1.5f, 0.8f * kCrowdBudgetMs / cost) : 1.5f;
        c.limit = std::max(c.limit + 1, static_cast<size_t>(posed * grow));
    }
    c.limit = std::clamp<size_t>(c.limit, std::min(kCrowdMinInstances, instances), std::max<size_t>(instances, 1));
}

void CrowdView::frame(ViewerState& s, const Crowd& crowd, GpuModel& gpu, int width, int height, const Environment* env) {
    CrowdState& c = s.crowd;
    const int clip = s.bindPose ? s.stillPose() : s.clip;
    if (model_ != s.model || clip_ != clip || instances_ != crowd.size() || spacing_ != c.spacing || zUp_ != s.camera.zUp) {
        layOut(s, crowd.size());
    }
    c.problem = renderer_->fits(crowd) ? nullptr : "too many instances of this rig for the driver's texture buffer";
    // What the pipeline posed this frame is what is drawn.
    const size_t posed = std::min(crowd.posed(), offsets_.size());
    const bool shownChanged = shown_.size() != posed;
    if (shownChanged) shown_.assign(offsets_.begin(), offsets_.begin() + static_cast<std::ptrdiff_t>(posed));
    if (following_ && cameraMoved(s.camera)) following_ = false;
    if ((c.frameRequested || (following_ && shownChanged)) && !shown_.empty()) {
        const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
        s.camera.frame(crowdBounds(one_, shown_), aspect, 1.2f);
        c.frameRequested = false;
        following_ = true;
        framed_ = s.camera;
    }
    // Instances farther than this are shorter than kCrowdLowDetailPixels on screen.
    const float tall = one_.valid() ? glm::length(one_.max - one_.min) : 1.0f;
    const float focal = 0.5f * static_cast<float>(height) * s.camera.viewRect.w / std::tan(glm::radians(s.camera.fovYDeg) * 0.5f);
    const float lodDistance = tall * focal / kCrowdLowDetailPixels;
    const auto t0 = std::chrono::steady_clock::now();
    const CrowdRenderer::Stats st =
        renderer_->draw(gpu, crowd, shown_, one_, s.camera, s.view, width, height, true, env, lodGpu_.get(), lodDistance);
    // While budgeted, the draw is timed to its end: llvmpipe rasterizes (and shades) on its
    // own threads after the calls return, most of the crowd's cost there. The wait is time
    // the buffer swap would spend anyway.
    if (c.budgeted) glFinish();
    c.drawMs = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    c.gpuMs = static_cast<float>(renderer_->gpuDrawMs());
    c.drawn = st.drawn;
    c.culled = st.culled;
    c.lowDetail = st.lowDetail;
    c.linearFallback = s.view.method == SkinningMethod::DualQuat;
    if (c.budgeted) fitBudget(c, crowd.size());
}

}  // namespace rig
