#include "anim/control/crowd.h"

#include <algorithm>
#include <cmath>

#include "anim/control/clock.h"

namespace rig {

Crowd::Crowd(const Model& model, size_t instances, int32_t clip, unsigned threads) : model_(&model) {
    const unsigned n = threads < 1 ? 1 : threads;
    scratch_.reserve(n);
    for (unsigned w = 0; w < n; ++w) scratch_.emplace_back(model);
    const Animator& a = scratch_.front();
    cursorCount_ = a.cursorCount();
    paletteSize_ = a.sharedPaletteSize();
    skinCount_ = a.skinCount();
    texelsPerInstance_ = a.instanceRows();
    cursors_.assign(instances * cursorCount_, 0u);
    skins_.assign(instances * skinCount_, SkinCorrection{});
    // Identity matrices until the first update(); at least one matrix's rows (a skeleton-only
    // model has none per character).
    rows_.resize(std::max<size_t>(instances * texelsPerInstance_, 3));
    for (size_t r = 0; r + 3 <= rows_.size(); r += 3) storeAffineRows(glm::mat4(1.0f), &rows_[r]);
    state_.resize(instances);
    for (size_t i = 0; i < instances; ++i) {
        setInstance(i, clip, 0.0);
        state_[i].phase = state_[i].length * static_cast<double>(i) / static_cast<double>(instances);
    }
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

void Crowd::setCompressedClips(const CompressedClipSet* set) {
    for (Animator& a : scratch_) a.setCompressedClips(set);
}

void Crowd::setInstance(size_t i, int32_t clip, double phase, double rate) {
    if (i >= state_.size()) return;
    InstanceState& s = state_[i];
    const int32_t previous = s.clip;
    s.clip = clip == kFilePose || (clip >= 0 && static_cast<size_t>(clip) < model_->clips.size()) ? clip : kBindPose;
    if (s.clip != previous) std::fill_n(cursors_.begin() + static_cast<std::ptrdiff_t>(i * cursorCount_), cursorCount_, 0u);
    s.phase = std::isfinite(phase) ? phase : 0.0;
    s.rate = std::isfinite(rate) ? rate : 1.0;
    s.start = s.length = 0.0;
    if (s.clip >= 0) {
        const Clip& c = model_->clips[s.clip];
        s.start = c.startTime;
        s.length = std::max(0.0, static_cast<double>(c.duration) - c.startTime);
    }
}

void Crowd::updateRange(size_t worker, double t) {
    const size_t n = posed_;
    Animator& scratch = scratch_[worker];
    // Chunks of instances taken in turn by whichever thread is free: a thread slowed by
    // another process on its core takes fewer.
    for (;;) {
        const size_t begin = next_.fetch_add(kChunk, std::memory_order_relaxed);
        if (begin >= n) return;
        const size_t end = std::min(n, begin + kChunk);
        for (size_t i = begin; i < end; ++i) updateInstance(scratch, i, t);
    }
}

void Crowd::updateInstance(Animator& scratch, size_t i, double t) {
    InstanceState& s = state_[i];
    double local = s.phase + s.rate * t;
    if (s.length > 0.0) {
        local = wrapTime(local, s.length) + s.start;
    } else if (s.clip >= 0) {
        local = s.start;
    }
    s.lastTime = static_cast<float>(local);
    scratch.evaluateInto(s.clip, s.lastTime,
                         {{cursors_.data() + i * cursorCount_, cursorCount_},
                          {skins_.data() + i * skinCount_, skinCount_},
                          {rows_.data() + i * texelsPerInstance_, texelsPerInstance_}});
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

void Crowd::update(double t, size_t count) {
    next_.store(0, std::memory_order_relaxed);
    posed_ = std::min(count, state_.size());
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
