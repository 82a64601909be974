// Crowd: N animation instances (Animators) sharing one Model, updated together each frame on
// a fixed pool of worker threads. The workers are std::threads created once, in the
// constructor; update() hands each its share of the instances (contiguous ranges), joins in
// with the calling thread's own share, and returns when every instance is posed. The
// per-frame path allocates nothing and takes one mutex round per frame and worker.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "anim/pose.h"

namespace rig {

class Crowd {
public:
    // `instances` Animators over `model` (which must outlive the Crowd), each playing
    // `clip` (< 0: the bind pose) from its own phase; `threads` >= 1 includes the caller's.
    Crowd(const Model& model, size_t instances, int32_t clip, unsigned threads);
    ~Crowd();
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    // Pose every instance at clip time phase(i) + t, wrapped into the clip's key range.
    void update(double t);

    size_t size() const { return animators_.size(); }
    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
    const Animator& instance(size_t i) const { return animators_[i]; }
    // Instance i's time offset (seconds): spread evenly over the clip.
    double phase(size_t i) const { return phase_[i]; }

private:
    void updateRange(size_t worker, double t);
    void workerLoop(size_t worker);

    const Model* model_;
    int32_t clip_;
    double start_ = 0.0, length_ = 0.0;
    std::vector<Animator> animators_;
    std::vector<double> phase_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    uint64_t generation_ = 0;  // bumped once per update(); workers run when it changes
    size_t pending_ = 0;       // workers still busy with the current generation
    double time_ = 0.0;
    bool stop_ = false;
};

}  // namespace rig
