#include "anim/layer_clock.h"

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
    time_ = map(time);
    fresh_ = true;
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
    playing_ = true;
}

void LayerClock::advance(double dt, SegmentSink* sink) {
    if (!playing_ || !(dt > 0.0) || !std::isfinite(dt)) return;
    const double d = duration_;
    if (!(d > 0.0)) {
        time_ = 0.0;
        if (mode_ == LoopMode::Once) finish();
        return;
    }
    const double delta = dt * static_cast<double>(rate_) * direction_;
    const double t = time_ + delta;
    if (delta == 0.0 || !std::isfinite(t)) return;
    const bool first = fresh_;
    fresh_ = false;
    auto emit = [&](double from, double to, int dir, bool includeFrom) {
        if (sink) sink->segment(ClockSegment{from, to, dir, includeFrom});
    };
    const int s = delta > 0.0 ? 1 : -1;
    // Passes this clock may still complete (loop count), or "forever".
    const uint64_t left = loopCount_ > 0 ? loopCount_ - std::min(passes_, loopCount_) : ~0ull;

    switch (mode_) {
        case LoopMode::Once: {
            double e = t;
            bool end = false;
            if (t >= d) {
                e = d;
                end = true;
            } else if (t <= 0.0) {
                e = 0.0;
                end = true;
            }
            emit(time_, e, s, first);
            time_ = e;
            if (end) finish();
            return;
        }
        case LoopMode::Loop: {
            // Wraps: passing the end going forward, or below the start going backward (as
            // PlaybackClock: landing exactly on the end wraps to 0; landing on 0 backward
            // stays at 0).
            const uint64_t wraps = (s > 0 || t < 0.0) ? countOf(std::floor(t / d)) : 0;
            if (wraps == 0) {
                emit(time_, t, s, first);
                time_ = t;
                return;
            }
            const double endEdge = s > 0 ? d : 0.0, startEdge = s > 0 ? 0.0 : d;
            const uint64_t n = std::min(wraps, left);
            emit(time_, endEdge, s, first);
            for (uint64_t i = 1; i < n && i < kMaxSegments; ++i) emit(startEdge, endEdge, s, true);
            if (wraps >= left) {
                passes_ = loopCount_;
                time_ = endEdge;
                finish();
                return;
            }
            double r = std::fmod(t, d);
            if (r < 0.0) r += d;
            if (r >= d) r = 0.0;
            r += 0.0;  // -0 -> +0
            emit(startEdge, r, s, true);
            time_ = r;
            passes_ = addPasses(passes_, wraps);
            return;
        }
        case LoopMode::PingPong: {
            // Bounces counted as PlaybackClock does: landing exactly on the end bounces,
            // landing exactly on 0 going backward does not (yet).
            const uint64_t bounces = countOf(std::floor(t / d));
            if (bounces == 0) {
                emit(time_, t, s, first);
                time_ = t;
                return;
            }
            const uint64_t n = std::min(bounces, left);
            double pos = time_;
            int dir = s;
            bool includeFrom = first;
            for (uint64_t i = 0; i < n && i < kMaxSegments; ++i) {
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
                passes_ = loopCount_;
                time_ = pos;
                finish();
                return;
            }
            double r = std::fmod(t, 2.0 * d);
            if (r < 0.0) r += 2.0 * d;
            if (r > d) r = 2.0 * d - r;
            r += 0.0;
            emit(pos, r, dir, false);
            time_ = r;
            passes_ = addPasses(passes_, bounces);
            if (bounces % 2 == 1) direction_ = -direction_;
            return;
        }
    }
}

}  // namespace rig
