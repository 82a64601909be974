#include "anim/control/crowd.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <immintrin.h>
#endif

#include "anim/control/clock.h"

namespace rig {

namespace {

// A spin-wait's pause: lets the other hyperthread of the core run and saves power.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins up to `microseconds` until ready() holds; whether it does. Both sides of a frame use
// it before they sleep: a sleep and its wake-up can cost more than the wait.
template <class Ready>
bool spinUntil(Ready ready, int microseconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
    while (!ready()) {
        if (std::chrono::steady_clock::now() >= until) return false;
        for (int k = 0; k < 16; ++k) cpuRelax();
    }
    return true;
}

}  // namespace

Crowd::Crowd(const Model& model, size_t instances, int32_t clip, unsigned threads) : model_(&model) {
    const unsigned n = threads < 1 ? 1 : threads;
    scratch_.reserve(n);
    for (unsigned w = 0; w < n; ++w) scratch_.emplace_back(model);
    const Animator& a = scratch_.front().animator;
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
    shares_ = std::vector<Share>(n);
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
    for (ThreadScratch& s : scratch_) s.animator.setCompressedClips(set);
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

void Crowd::updateRange(size_t worker, uint32_t frame, size_t n, double t) {
    Animator& scratch = scratch_[worker].animator;
    // The thread's own share first, then the others': chunks taken in turn by whichever thread
    // is free, so a thread slowed by another process on its core takes fewer, and one that
    // wakes after the others took every chunk of its frame (or a later frame began) takes none.
    const size_t shares = shares_.size();
    size_t posed = 0;
    for (size_t k = 0; k < shares; ++k) {
        const size_t s = (worker + k) % shares;
        std::atomic<uint64_t>& next = shares_[s].next;
        const size_t last = shareBegin(s + 1, n);
        uint64_t v = next.load(std::memory_order_relaxed);
        for (;;) {
            const size_t begin = static_cast<size_t>(v & 0xffffffffu);
            if (static_cast<uint32_t>(v >> 32) != frame || begin >= last) break;
            if (!next.compare_exchange_weak(v, v + kChunk, std::memory_order_relaxed)) continue;
            const size_t end = std::min(last, begin + kChunk);
            for (size_t i = begin; i < end; ++i) updateInstance(scratch, i, t);
            posed += end - begin;
            v = next.load(std::memory_order_relaxed);
        }
    }
    // The thread that completes the frame's last instance wakes update() if it sleeps (under
    // the mutex, so the notification cannot fall between its check and its wait).
    if (posed != 0 && completed_.fetch_add(posed, std::memory_order_acq_rel) + posed == n && worker != 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
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
        // Frames posed back to back (bench, render --instances) begin within microseconds of
        // the last one's end: watch for the next frame a short while before sleeping, as a
        // sleeping thread's wake-up can cost a good part of a frame (an idle virtual CPU). The
        // frame is only a hint here: the locked wait below decides which one to pose.
        const std::atomic<uint64_t>& own = shares_[worker].next;
        spinUntil([&] { return static_cast<uint32_t>(own.load(std::memory_order_relaxed) >> 32) != static_cast<uint32_t>(seen); },
                  kWorkerSpinMicroseconds);
        double t;
        size_t n;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            t = time_;
            n = posed_;
        }
        updateRange(worker, static_cast<uint32_t>(seen), n, t);
    }
}

void Crowd::update(double t, size_t count) {
    const size_t n = std::min(count, state_.size());
    uint32_t frame;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        time_ = t;
        posed_ = n;
        frame = static_cast<uint32_t>(++generation_);
        completed_.store(0, std::memory_order_relaxed);
        for (size_t w = 0; w < shares_.size(); ++w)
            shares_[w].next.store(static_cast<uint64_t>(frame) << 32 | shareBegin(w, n), std::memory_order_relaxed);
    }
    if (!workers_.empty()) wake_.notify_all();
    updateRange(0, frame, n, t);
    if (workers_.empty()) return;
    // Wait for the chunks the workers took, not for the workers: one that has not woken yet
    // takes none and holds nothing up. Those chunks end within a chunk's time (10-20 us)
    // on a free core: spin a short while before sleeping, as a sleep and its wake-up cost
    // about as much again; a worker stalled by another process ends the spin.
    const auto done = [&] { return completed_.load(std::memory_order_acquire) == n; };
    if (spinUntil(done, kSpinMicroseconds)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, done);
}

}  // namespace rig
