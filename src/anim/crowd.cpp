#include "anim/crowd.h"

#include <cmath>

namespace rig {

Crowd::Crowd(const Model& model, size_t instances, int32_t clip, unsigned threads)
    : model_(&model), clip_(clip >= 0 && static_cast<size_t>(clip) < model.clips.size() ? clip : -1) {
    if (clip_ >= 0) {
        const Clip& c = model.clips[clip_];
        start_ = c.startTime;
        length_ = std::max(0.0, static_cast<double>(c.duration) - c.startTime);
    }
    animators_.reserve(instances);
    phase_.resize(instances);
    for (size_t i = 0; i < instances; ++i) {
        animators_.emplace_back(model);
        phase_[i] = instances ? length_ * static_cast<double>(i) / static_cast<double>(instances) : 0.0;
    }
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

void Crowd::updateRange(size_t worker, double t) {
    const size_t n = animators_.size(), parts = workers_.size() + 1;
    const size_t begin = n * worker / parts, end = n * (worker + 1) / parts;
    for (size_t i = begin; i < end; ++i) {
        double local = phase_[i] + t;
        if (length_ > 0.0) local = start_ + std::fmod(local, length_);
        animators_[i].evaluate(clip_, static_cast<float>(local));
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
