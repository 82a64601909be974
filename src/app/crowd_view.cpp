#include "app/crowd_view.h"

#include <algorithm>
#include <chrono>

#include "render/renderer.h"

namespace rig {

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
    offsets_ = crowdGrid(instances, c.spacing, s.camera.zUp);
    model_ = s.model;
    clip_ = clip;
    instances_ = instances;
    spacing_ = c.spacing;
    zUp_ = s.camera.zUp;
}

void CrowdView::frame(ViewerState& s, const Crowd& crowd, GpuModel& gpu, int width, int height) {
    CrowdState& c = s.crowd;
    const int clip = s.bindPose ? s.stillPose() : s.clip;
    if (model_ != s.model || clip_ != clip || instances_ != crowd.size() || spacing_ != c.spacing || zUp_ != s.camera.zUp) {
        layOut(s, crowd.size());
    }
    c.problem = renderer_->fits(crowd) ? nullptr : "too many instances of this rig for the driver's texture buffer";
    if (c.frameRequested) {
        const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
        s.camera.frame(crowdBounds(one_, offsets_), aspect, 1.2f);
        c.frameRequested = false;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const CrowdRenderer::Stats st = renderer_->draw(gpu, crowd, offsets_, one_, s.camera, s.view, width, height);
    c.drawMs = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    c.gpuMs = static_cast<float>(renderer_->gpuDrawMs());
    c.drawn = st.drawn;
    c.culled = st.culled;
    c.linearFallback = s.view.method == SkinningMethod::DualQuat;
}

}  // namespace rig
