#include "anim/control/layer_clock.h"

#include <algorithm>
#include <cmath>

namespace rig {

namespace {

// |floor value| as a count, saturated (a huge dt on a short clock).
uint64_t countOf(double fl) {
    const double a = std::fabs(fl);
    return a > 1e15 ? static_cast<uint64_t>(1e15) : static_cast<uint64_t>(a);
}

uint32_t addPasses(uint32_t passes, uint64_t more) {
    const uint64_t sum = static_cast<uint64_t>(passes) + more;
    return sum > 0xffffffffull ? 0xffffffffu : static_cast<uint32_t>(sum);
}

}  // namespace

// ---------------------------------------------------------------------------------------
// LayerClock

void LayerClock::start(double duration, double time, float rate, LoopMode mode, uint32_t loopCount) {
    duration_ = duration > 0.0 && std::isfinite(duration) ? duration : 0.0;
    setRate(rate);
    mode_ = mode;
    loopCount_ = loopCount;
    passes_ = 0;
    direction_ = 1;
    playing_ = true;
    finished_ = false;
    lo_ = 0.0;
    hi_ = duration_;
    time_ = map(time);
    fresh_ = true;
}

void LayerClock::setMode(LoopMode mode) {
    mode_ = mode;
    direction_ = 1;
    if (finished_ && mode != LoopMode::Once) finished_ = false;
    time_ = map(time_);
}

void LayerClock::setRange(double from, double to) {
    from = std::max(0.0, std::isfinite(from) ? from : 0.0);
    to = std::min(duration_, std::isfinite(to) ? to : duration_);
    if (!(to > from)) {
        clearRange();
        return;
    }
    lo_ = from;
    hi_ = to;
}

void LayerClock::clearRange() {
    lo_ = 0.0;
    hi_ = duration_;
}

double LayerClock::map(double t) { return seekTime(t, duration_, mode_, direction_); }

void LayerClock::seek(double t) {
    direction_ = 1;
    time_ = map(t);
    fresh_ = false;
}

void LayerClock::resume() {
    if (finished_) {
        finished_ = false;
        passes_ = 0;
    }
    if (mode_ == LoopMode::Once && duration_ > 0.0) {
        const int dir = direction();
        if ((dir > 0 && time_ >= hi_) || (dir < 0 && time_ <= lo_)) {
            time_ = dir > 0 ? lo_ : hi_;
            fresh_ = true;  // a marker on the start reports again
        }
    }
    playing_ = true;
}

namespace {

// Where a walk along an advance's path ends.
struct WalkEnd {
    double pos = 0.0;          // range units
    bool finished = false;     // stopped by Once or by the loop count
    uint64_t passes = 0;       // wraps / bounces completed
    bool flip = false;         // PingPong: the travel direction flipped (odd bounces)
};

// The one walk of an advance's path: the clock's new state comes from it (advance) and so
// do the pieces the marker pass scans (forEachSegment), so the two cannot disagree.
template <class Emit>
WalkEnd walk(const ClockAdvance& a, Emit emit) {
    const double d = a.length, now = a.from, t = a.to;
    const int s = a.direction;
    const bool first = a.includeFrom;
    const uint64_t left = a.passes;
    WalkEnd end;
    switch (a.mode) {
        case LoopMode::Once: {
            emit(now, t, s, first);
            end.pos = t;
            end.finished = t >= d || t <= 0.0;
            return end;
        }
        case LoopMode::Loop: {
            // Wraps: passing the end going forward, or below the start going backward
            // (landing exactly on the end wraps to 0; landing on 0 backward stays at 0).
            const uint64_t wraps = (s > 0 || t < 0.0) ? countOf(std::floor(t / d)) : 0;
            if (wraps == 0) {
                emit(now, t, s, first);
                end.pos = t;
                return end;
            }
            const double endEdge = s > 0 ? d : 0.0, startEdge = s > 0 ? 0.0 : d;
            const uint64_t n = std::min(wraps, left);
            emit(now, endEdge, s, first);
            for (uint64_t i = 1; i < n && i < LayerClock::kMaxSegments; ++i) emit(startEdge, endEdge, s, true);
            if (wraps >= left) {
                end.passes = left;
                end.pos = endEdge;
                end.finished = true;
                return end;
            }
            const double r = wrapTime(t, d) + 0.0;  // -0 -> +0
            emit(startEdge, r, s, true);
            end.pos = r;
            end.passes = wraps;
            return end;
        }
        case LoopMode::PingPong: {
            // Bounces counted so: landing exactly on the end bounces, landing exactly on 0
            // going backward does not (yet).
            const uint64_t bounces = countOf(std::floor(t / d));
            if (bounces == 0) {
                emit(now, t, s, first);
                end.pos = t;
                return end;
            }
            const uint64_t n = std::min(bounces, left);
            double pos = now;
            int dir = s;
            bool includeFrom = first;
            for (uint64_t i = 0; i < n && i < LayerClock::kMaxSegments; ++i) {
                const double edge = dir > 0 ? d : 0.0;
                emit(pos, edge, dir, includeFrom);
                pos = edge;
                dir = -dir;
                includeFrom = false;  // a bounce reports its edge once
            }
            // The n-th bounce: reached moving s (n odd) or -s (n even).
            const int into = (n % 2 == 1) ? s : -s;
            pos = into > 0 ? d : 0.0;
            dir = -into;
            if (bounces >= left) {
                end.passes = left;
                end.pos = pos;
                end.finished = true;
                return end;
            }
            bool reflected = false;
            const double r = pingPongTime(t, d, reflected) + 0.0;  // -0 -> +0
            emit(pos, r, dir, false);
            end.pos = r;
            end.passes = bounces;
            end.flip = bounces % 2 == 1;
            return end;
        }
    }
    return end;
}

}  // namespace

void forEachSegment(const ClockAdvance& a, void (*fn)(void*, const ClockSegment&), void* ctx) {
    if (!a.moved || !(a.length > 0.0)) return;
    // A position in range units, back on the clock (the range's ends exactly).
    auto onClock = [&](double x) { return x == 0.0 ? a.start : x == a.length ? a.end : a.start + x; };
    walk(a, [&](double from, double to, int dir, bool includeFrom) {
        fn(ctx, ClockSegment{onClock(from), onClock(to), dir, includeFrom});
    });
}

ClockAdvance LayerClock::advance(double dt) {
    ClockAdvance a;
    if (!playing_ || !(dt > 0.0) || !std::isfinite(dt)) return a;
    if (!(duration_ > 0.0)) {
        time_ = 0.0;
        if (mode_ == LoopMode::Once) finish();
        return a;
    }
    // Everything counts from the range's start (0 without a preview range), so the whole
    // clock is the range [0, d].
    if (time_ < lo_ || time_ > hi_) time_ = lo_;  // sought outside the range: start it
    const double d = hi_ - lo_;
    const double delta = dt * static_cast<double>(rate_) * direction_;
    const double now = time_ - lo_;
    const double t = now + delta;
    if (delta == 0.0 || !std::isfinite(t)) return a;
    a.moved = true;
    a.from = now;
    a.direction = delta > 0.0 ? 1 : -1;
    a.to = mode_ == LoopMode::Once ? std::clamp(t, 0.0, d) : t;
    a.start = lo_;
    a.end = hi_;
    a.length = d;
    a.mode = mode_;
    a.includeFrom = fresh_;
    // Passes this clock may still complete (loop count), or "forever".
    a.passes = loopCount_ > 0 ? loopCount_ - std::min(passes_, loopCount_) : ~0ull;
    fresh_ = false;
    if (t > 0.0 && t < d) {  // inside the range (most ticks): what walk() ends with, in every mode
        time_ = lo_ + t;
        return a;
    }
    const WalkEnd e = walk(a, [](double, double, int, bool) {});
    time_ = e.pos == 0.0 ? lo_ : e.pos == d ? hi_ : lo_ + e.pos;
    passes_ = e.finished && mode_ != LoopMode::Once ? loopCount_ : addPasses(passes_, e.passes);
    if (e.flip) direction_ = -direction_;
    if (e.finished) finish();
    return a;
}

}  // namespace rig
