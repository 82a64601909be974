// Crowd: N animation instances sharing one Model, updated together each frame on a fixed pool
// of worker threads. The workers are std::threads created once, in the constructor; update()
// wakes them, joins in itself, and returns when every instance is posed. Each thread has its
// own share of the instances, the same every frame (an instance's state stays in one core's
// cache), and takes chunks of 8 consecutive instances from it, then from the others' shares
// until none is left: a thread slowed by another process takes fewer, one not awake yet none.
// The caller, done first, waits for the chunks taken (not for the workers), spinning up to
// 50 us before it sleeps; a worker done with a frame watches up to 100 us for the next before
// it sleeps, so frames posed back to back never wait for a thread's wake-up. The per-frame
// path allocates nothing and takes one mutex round per frame and worker.
//
// Each instance keeps only what lasts from frame to frame and what the frame produces: its
// track cursors and per-skin corrections, and its palettes and meshes' skin-to-model matrices
// as the rows a GL texture buffer takes (3x4 affine matrices), each in one array for the
// whole crowd (InstanceBuffers). The local pose and world matrices are scratch: one Animator
// per thread poses its instances one after another, so they stay in cache (10,000 characters
// of 50 joints keep about 3.3 KB each instead of 9).
//
// Each instance plays its own clip at its own phase and rate (setInstance). The instanced
// draw uploads all instances' rows with one call: see gpuRows().
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstddef>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "anim/runtime/skinning_matrix_job.h"
#include "anim/runtime/pose.h"

namespace rig {

class Crowd {
public:
    // `instances` Animators over `model` (which must outlive the Crowd), each playing
    // `clip` (< 0: the bind pose) from its own phase; `threads` >= 1 includes the caller's.
    Crowd(const Model& model, size_t instances, int32_t clip, unsigned threads);
    ~Crowd();
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    // Pose every instance i below `count` (all by default) at clip time phase(i) + rate(i) * t,
    // wrapped into its clip's key range (negative times wrap too); the others keep the rows of
    // their last update.
    void update(double t, size_t count = SIZE_MAX);
    // How many instances (the first ones) the last update() posed.
    size_t posed() const { return posed_; }

    // Instance i plays `clip` (kFilePose: the file pose; other negatives or out of range: the
    // bind pose) at phase + rate * t.
    // Not during update(); allocates nothing.
    void setInstance(size_t i, int32_t clip, double phase, double rate = 1.0);

    // Play the clips `set` holds from their compressed form (null: plain). Every instance shares
    // the set and keeps only its track cursors (Animator::evaluateInto samples a compressed
    // clip with them: no per-instance cache). `set` must outlive its use. Not during update().
    void setCompressedClips(const CompressedClipSet* set);
    const CompressedClipSet* compressedClips() const { return scratch_.front().animator.compressedClips(); }
    // Bytes of clip playback state each instance keeps (its cursors), plain or compressed.
    size_t clipStateBytesPerInstance() const { return cursorCount_ * sizeof(uint32_t); }
    // Bytes every instance keeps and each update() goes through: its state (clip, phase, rate,
    // key range, last time), cursors, per-skin corrections and rows. The model, the clips
    // (plain or compressed) and the per-thread scratch poses are shared and not counted.
    size_t bytesPerInstance() const {
        return sizeof(InstanceState) + cursorCount_ * sizeof(uint32_t) + skinCount_ * sizeof(SkinCorrection) +
               texelsPerInstance_ * sizeof(glm::vec4);
    }
    size_t size() const { return state_.size(); }
    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
    const Model& model() const { return *model_; }
    // Instance i's palette entry e and Animator::skinToModel(mesh) after the last update()
    // (read back from its rows: the same values as a lone Animator's, last row 0, 0, 0, 1).
    // Entry e of mesh m's palette is paletteOffset(m) + e (Animator::sharedPaletteOffset: an
    // instance holds the shared palettes, Animator::sharedPaletteSize()).
    glm::mat4 paletteEntry(size_t i, size_t e) const { return affineFromRows(&rows_[i * texelsPerInstance_ + 3 * e]); }
    glm::mat4 skinToModel(size_t i, size_t mesh) const {
        return affineFromRows(&rows_[i * texelsPerInstance_ + meshWorldTexel(mesh)]);
    }
    uint32_t paletteOffset(size_t mesh) const { return scratch_.front().animator.sharedPaletteOffset(mesh); }
    size_t paletteSize() const { return paletteSize_; }
    // Instance i's time offset (seconds): by default spread evenly over the clip.
    double phase(size_t i) const { return state_[i].phase; }
    double rate(size_t i) const { return state_[i].rate; }
    int32_t clip(size_t i) const { return state_[i].clip; }
    // The clip time instance i was posed at by the last update().
    float localTime(size_t i) const { return state_[i].lastTime; }

    // What update() writes, as a GL texture buffer takes it (RGBA texels): instance i's rows
    // start at texel i * texelsPerInstance(): its palettes (Animator::palette()'s shared part, every
    // entry as the 3 rows of its 3x4 affine matrix), then for each mesh m the 3 rows of
    // skinToModel(i, m) (its node's world matrix, or the identity where its palette is in
    // model space) at texel meshWorldTexel(m). Allocated once, in the constructor.
    const std::vector<glm::vec4>& gpuRows() const { return rows_; }
    size_t texelsPerInstance() const { return texelsPerInstance_; }
    size_t meshWorldTexel(size_t mesh) const { return 3 * paletteSize_ + 3 * mesh; }

private:
    // What threads write concurrently starts on a cache line of its own: a line two cores
    // write in turn travels between them on every write (one thread's Animator fields next to
    // the next one's cost 10 % of a two-thread frame).
    static constexpr size_t kCacheLine = 64;
    // A thread's local pose and world matrices, posing its instances one after another.
    struct alignas(kCacheLine) ThreadScratch {
        explicit ThreadScratch(const Model& model) : animator(model) {}
        Animator animator;
    };
    struct InstanceState {
        int32_t clip = -1;
        double phase = 0.0, rate = 1.0;
        double start = 0.0, length = 0.0;  // the clip's key range
        float lastTime = 0.0f;
    };
    // Poses chunks of the first n instances at t while `frame` is the current one.
    void updateRange(size_t worker, uint32_t frame, size_t n, double t);
    void updateInstance(Animator& scratch, size_t i, double t);
    void workerLoop(size_t worker);

    const Model* model_;
    std::vector<ThreadScratch> scratch_;  // one per thread, the caller's first
    std::vector<InstanceState> state_;
    size_t cursorCount_ = 0, paletteSize_ = 0, skinCount_ = 0, texelsPerInstance_ = 0;
    std::vector<uint32_t> cursors_;      // per instance: cursorCount_
    std::vector<SkinCorrection> skins_;  // per instance: skinCount_
    std::vector<glm::vec4> rows_;        // per instance: texelsPerInstance_
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    // Instances a thread takes at a time: 10-20 us of work for a 50-joint character, so
    // the threads finish a frame within that of each other.
    static constexpr size_t kChunk = 8;
    // How long update() spins for the workers' last chunks before it sleeps on done_.
    static constexpr int kSpinMicroseconds = 50;
    // How long a worker watches for the next frame after its last chunk before it sleeps on
    // wake_: in the viewer (frames 16 ms apart) under 1 % of a core.
    static constexpr int kWorkerSpinMicroseconds = 100;
    // Thread w's share of a frame's n instances: [shareBegin(w, n), shareBegin(w + 1, n)),
    // the same every frame, so an instance's state and rows stay in the cache of the core
    // that posed it last (instances that change threads each frame cost a cache-line
    // transfer for every line they hold: on this kind of host up to half a frame). `next` holds
    // the current frame (the low 32 bits of generation_) in its high half and the share's
    // first instance no thread has taken yet in its low half: a thread takes a chunk only of
    // its own frame. One cache line each, so threads on their own shares share no line.
    struct alignas(kCacheLine) Share {
        std::atomic<uint64_t> next{0};
    };
    size_t shareBegin(size_t w, size_t n) const { return n * w / shares_.size(); }
    std::vector<Share> shares_;  // one per thread, the caller's first
    uint64_t generation_ = 0;          // bumped once per update(); workers run when it changes
    std::atomic<size_t> completed_{0};  // instances posed in the current frame (each thread adds its own once)
    double time_ = 0.0;
    size_t posed_ = 0;  // the instances below it are posed by the current update() (under mutex_)
    bool stop_ = false;
};

}  // namespace rig
