// Crowd: N animation instances sharing one Model, updated together each frame on a fixed pool
// of worker threads. The workers are std::threads created once, in the constructor; update()
// hands each its share of the instances (contiguous ranges), joins in with the calling
// thread's own share, and returns when every instance is posed. The per-frame path allocates
// nothing and takes one mutex round per frame and worker.
//
// Each instance keeps only what lasts from frame to frame and what the frame produces: its
// track cursors, palettes, per-skin corrections and meshes' skin-to-model matrices, each in
// one array for the whole crowd (InstanceBuffers). The local pose and world matrices are
// scratch: one Animator per thread poses its instances one after another, so they stay in
// cache (10,000 characters of 50 joints keep about 4 KB each instead of 9).
//
// Each instance plays its own clip at its own phase and rate (setInstance). With
// enableGpuRows(), update() also writes every instance's palette and mesh matrices into one
// contiguous float buffer laid out for a GL texture buffer (the instanced draw uploads it
// with one call): see gpuRows().
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
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

    size_t size() const { return state_.size(); }
    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
    const Model& model() const { return *model_; }
    // Instance i's palettes after the last update(): the layout of Animator::palette() (mesh
    // m's palette starts at paletteOffset(m)), the same values as a lone Animator's.
    std::span<const glm::mat4> palette(size_t i) const {
        return {palettes_.data() + i * paletteSize_, paletteSize_};
    }
    uint32_t paletteOffset(size_t mesh) const { return scratch_.front().paletteOffset(mesh); }
    // Instance i's Animator::skinToModel(mesh) after the last update().
    const glm::mat4& skinToModel(size_t i, size_t mesh) const { return skinToModel_[i * meshes_ + mesh]; }
    // Instance i's time offset (seconds): by default spread evenly over the clip.
    double phase(size_t i) const { return state_[i].phase; }
    double rate(size_t i) const { return state_[i].rate; }
    int32_t clip(size_t i) const { return state_[i].clip; }
    // The clip time instance i was posed at by the last update().
    float localTime(size_t i) const { return state_[i].lastTime; }

    // GPU rows: from the next update() on, instance i's data starts at float
    // i * texelsPerInstance() * 4 of gpuRows(): its palette (palette(i), every entry as the 3
    // rows of its 3x4 affine matrix, one RGBA texel each), then for each mesh m the 3 rows of
    // skinToModel(i, m) (its node's world matrix, or the identity where its palette is in
    // model space) at texel meshWorldTexel(m). Allocated here, once.
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
    InstanceBuffers buffers(size_t i);

    const Model* model_;
    std::vector<Animator> scratch_;  // one per thread: the local pose and world matrices
    std::vector<InstanceState> state_;
    size_t cursorCount_ = 0, paletteSize_ = 0, skinCount_ = 0, meshes_ = 0;
    std::vector<uint32_t> cursors_;         // per instance: cursorCount_
    std::vector<glm::mat4> palettes_;       // per instance: paletteSize_
    std::vector<SkinCorrection> skins_;     // per instance: skinCount_
    std::vector<glm::mat4> skinToModel_;    // per instance: meshes_
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
