#include "anim/crowd.h"

#include <algorithm>
#include <cmath>

namespace rig {

Crowd::Crowd(const Model& model, size_t instances, int32_t clip, unsigned threads) : model_(&model) {
    animators_.reserve(instances);
    state_.resize(instances);
    for (size_t i = 0; i < instances; ++i) animators_.emplace_back(model);
    for (size_t i = 0; i < instances; ++i) {
        setInstance(i, clip, 0.0);
        state_[i].phase = state_[i].length * static_cast<double>(i) / static_cast<double>(instances);
    }
    paletteTexels_ = 3 * model.paletteSize();
    texelsPerInstance_ = paletteTexels_ + 3 * model.meshes.size();
    const unsigned n = threads < 1 ? 1 : threads;
    workers_.reserve(n - 1);
    for (unsigned w = 1; w < n; ++w) workers_.emplace_back([this, w] { workerLoop(w); });
}

Crowd::~Crowd() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
}

void Crowd::setInstance(size_t i, int32_t clip, double phase, double rate) {
    if (i >= state_.size()) return;
    InstanceState& s = state_[i];
    s.clip = clip == kFilePose || (clip >= 0 && static_cast<size_t>(clip) < model_->clips.size()) ? clip : kBindPose;
    s.phase = std::isfinite(phase) ? phase : 0.0;
    s.rate = std::isfinite(rate) ? rate : 1.0;
    s.start = s.length = 0.0;
    if (s.clip >= 0) {
        const Clip& c = model_->clips[s.clip];
        s.start = c.startTime;
        s.length = std::max(0.0, static_cast<double>(c.duration) - c.startTime);
    }
}

void Crowd::enableGpuRows() {
    if (rows_.empty()) rows_.assign(std::max<size_t>(animators_.size() * texelsPerInstance_ * 4, 4), 0.0f);
}

void Crowd::writeRows(size_t i) {
    const Animator& a = animators_[i];
    float* out = rows_.data() + i * texelsPerInstance_ * 4;
    auto rows = [&out](const glm::mat4& m) {
        for (int r = 0; r < 3; ++r) {
            *out++ = m[0][r];
            *out++ = m[1][r];
            *out++ = m[2][r];
            *out++ = m[3][r];
        }
    };
    const std::vector<glm::mat4>& pal = a.palette();
    const size_t entries = std::min(pal.size(), paletteTexels_ / 3);
    for (size_t e = 0; e < entries; ++e) rows(pal[e]);
    out = rows_.data() + (i * texelsPerInstance_ + paletteTexels_) * 4;
    for (size_t m = 0; m < model_->meshes.size(); ++m) rows(a.skinToModel(m));
}

void Crowd::updateRange(size_t worker, double t) {
    const size_t n = animators_.size(), parts = workers_.size() + 1;
    const size_t begin = n * worker / parts, end = n * (worker + 1) / parts;
    const bool rows = !rows_.empty();
    for (size_t i = begin; i < end; ++i) {
        InstanceState& s = state_[i];
        double local = s.phase + s.rate * t;
        if (s.length > 0.0) {
            local = std::fmod(local, s.length);
            if (local < 0.0) local += s.length;
            local += s.start;
        } else if (s.clip >= 0) {
            local = s.start;
        }
        s.lastTime = static_cast<float>(local);
        animators_[i].evaluate(s.clip, s.lastTime);
        if (rows) writeRows(i);
    }
}

void Crowd::workerLoop(size_t worker) {
    uint64_t seen = 0;
    for (;;) {
        double t;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            t = time_;
        }
        updateRange(worker, t);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (--pending_ == 0) done_.notify_one();
        }
    }
}

void Crowd::update(double t) {
    if (!workers_.empty()) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            time_ = t;
            pending_ = workers_.size();
            ++generation_;
        }
        wake_.notify_all();
    }
    updateRange(0, t);
    if (!workers_.empty()) {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return pending_ == 0; });
    }
}

}  // namespace rig
