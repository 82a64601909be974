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

void CrowdView::rebuild(ViewerState& s) {
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
    const size_t n = static_cast<size_t>(std::clamp(c.instances, 1, 10000));
    if (!crowd_ || newModel || instances_ != c.instances || threads_ != c.threads) {
        crowd_.reset();  // its workers stop before the new ones start
        crowd_ = std::make_unique<Crowd>(model, n, clip, static_cast<unsigned>(std::clamp(c.threads, 1, 16)));
    }
    // Clips, phases and rates: deterministic per instance (the same seed every rebuild).
    std::mt19937 random(12345u);
    const int clipCount = static_cast<int>(model.clips.size());
    for (size_t i = 0; i < n; ++i) {
        int32_t ci = clip;
        if (!s.bindPose && clipCount > 0 && c.clips == CrowdClips::Cycle) ci = static_cast<int32_t>(i % static_cast<size_t>(clipCount));
        if (!s.bindPose && clipCount > 0 && c.clips == CrowdClips::Random) ci = static_cast<int32_t>(random() % static_cast<unsigned>(clipCount));
        const double length = ci >= 0 ? std::max(0.0, static_cast<double>(model.clips[ci].duration) - model.clips[ci].startTime) : 0.0;
        const double phase = length * c.phaseSpread * static_cast<double>(i) / static_cast<double>(n);
        const double u = static_cast<double>(random() % 10001u) / 10000.0;  // 0..1
        crowd_->setInstance(i, ci, phase, 1.0 + c.rateSpread * (u - 0.5));
    }
    offsets_ = crowdGrid(n, c.spacing, s.camera.zUp);
    model_ = s.model;
    instances_ = c.instances;
    threads_ = c.threads;
    clip_ = clip;
    clips_ = c.clips;
    phaseSpread_ = c.phaseSpread;
    rateSpread_ = c.rateSpread;
    spacing_ = c.spacing;
    zUp_ = s.camera.zUp;
}

void CrowdView::frame(ViewerState& s, GpuModel& gpu, int width, int height) {
    CrowdState& c = s.crowd;
    const int clip = s.bindPose ? s.stillPose() : s.clip;
    if (!crowd_ || model_ != s.model || instances_ != c.instances || threads_ != c.threads || clip_ != clip ||
        clips_ != c.clips || phaseSpread_ != c.phaseSpread || rateSpread_ != c.rateSpread || spacing_ != c.spacing ||
        zUp_ != s.camera.zUp) {
        rebuild(s);
    }
    c.problem = renderer_->fits(*crowd_) ? nullptr : "too many instances of this rig for the driver's texture buffer";
    if (c.frameRequested) {
        const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
        s.camera.frame(crowdBounds(one_, offsets_), aspect, 1.2f);
        c.frameRequested = false;
    }
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    const double start = clip >= 0 && static_cast<size_t>(clip) < s.model->clips.size() ? s.model->clips[clip].startTime : 0.0;
    crowd_->update(s.timeline.time - start);
    const auto t1 = Clock::now();
    const CrowdRenderer::Stats st = renderer_->draw(gpu, *crowd_, offsets_, one_, s.camera, s.view, width, height);
    const auto t2 = Clock::now();
    c.updateMs = std::chrono::duration<float, std::milli>(t1 - t0).count();
    c.drawMs = std::chrono::duration<float, std::milli>(t2 - t1).count();
    c.gpuMs = static_cast<float>(renderer_->gpuDrawMs());
    c.drawn = st.drawn;
    c.culled = st.culled;
    c.linearFallback = s.view.method == SkinningMethod::DualQuat;
}

}  // namespace rig
