// Crowd: N animation instances (Animators) sharing one Model, updated together each frame on
// a fixed pool of worker threads. The workers are std::threads created once, in the
// constructor; update() hands each its share of the instances (contiguous ranges), joins in
// with the calling thread's own share, and returns when every instance is posed. The
// per-frame path allocates nothing and takes one mutex round per frame and worker.
//
// Each instance plays its own clip at its own phase and rate (setInstance). With
// enableGpuRows(), update() also writes every instance's palette and mesh matrices into one
// contiguous float buffer laid out for a GL texture buffer (the instanced draw uploads it
// with one call): see gpuRows().
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

    // Pose every instance i at clip time phase(i) + rate(i) * t, wrapped into its clip's key
    // range (negative times wrap too).
    void update(double t);

    // Instance i plays `clip` (kFilePose: the file pose; other negatives or out of range: the
    // bind pose) at phase + rate * t.
    // Not during update(); allocates nothing.
    void setInstance(size_t i, int32_t clip, double phase, double rate = 1.0);

    size_t size() const { return animators_.size(); }
    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
    const Model& model() const { return *model_; }
    const Animator& instance(size_t i) const { return animators_[i]; }
    // Instance i's time offset (seconds): by default spread evenly over the clip.
    double phase(size_t i) const { return state_[i].phase; }
    double rate(size_t i) const { return state_[i].rate; }
    int32_t clip(size_t i) const { return state_[i].clip; }
    // The clip time instance i was posed at by the last update().
    float localTime(size_t i) const { return state_[i].lastTime; }

    // GPU rows: from the next update() on, instance i's data starts at float
    // i * texelsPerInstance() * 4 of gpuRows(): its palette (Animator::palette(), every entry
    // as the 3 rows of its 3x4 affine matrix, one RGBA texel each), then for each mesh m the 3
    // rows of Animator::skinToModel(m) (its node's world matrix, or the identity where its
    // palette is in model space) at texel meshWorldTexel(m). Allocated here, once.
    void enableGpuRows();
    bool gpuRowsEnabled() const { return !rows_.empty(); }
    const std::vector<float>& gpuRows() const { return rows_; }
    size_t texelsPerInstance() const { return texelsPerInstance_; }
    size_t meshWorldTexel(size_t mesh) const { return paletteTexels_ + 3 * mesh; }

private:
    struct InstanceState {
        int32_t clip = -1;
        double phase = 0.0, rate = 1.0;
        double start = 0.0, length = 0.0;  // the clip's key range
        float lastTime = 0.0f;
    };
    void updateRange(size_t worker, double t);
    void workerLoop(size_t worker);
    void writeRows(size_t i);

    const Model* model_;
    std::vector<Animator> animators_;
    std::vector<InstanceState> state_;
    std::vector<float> rows_;
    size_t paletteTexels_ = 0, texelsPerInstance_ = 0;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    uint64_t generation_ = 0;  // bumped once per update(); workers run when it changes
    size_t pending_ = 0;       // workers still busy with the current generation
    double time_ = 0.0;
    bool stop_ = false;
};

}  // namespace rig
