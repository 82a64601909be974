// LayerClock: the clock of one motion in the Controller (a clip's seconds or a blend space's
// phase). Each advance reports its path unwrapped (ClockAdvance); a separate pass over that
// range (triggerMarkers) turns the markers it crossed into events.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "anim/control/clock.h"

namespace rig {

// ---------------------------------------------------------------------------------------
// LayerClock

// What one advance did, unwrapped (as ozz's TrackTriggeringJob takes it): the clock went
// from `from` to `to` in range units (0 = the range's start, `length` = its end) counted on
// without wrapping: a Loop clock at 0.8 of 1 advanced by 0.5 reports 0.8 -> 1.3, a
// PingPong clock's path unfolded the same way (bounces at multiples of `length`), a Once
// clock's `to` clamped to its end. `passes` bounds the wraps / bounces the clock took (its
// loop count left): beyond it the clock stopped. The marker pass (triggerMarkers) walks this
// range; the clock itself keeps only where it ended.
struct ClockAdvance {
    bool moved = false;           // false: nothing happened (paused, dt <= 0, zero length)
    double from = 0.0, to = 0.0;  // unwrapped, range units
    int direction = 1;            // +1 / -1: the way it set off
    double start = 0.0, end = 0.0, length = 0.0;  // the range on the clock (clock units)
    LoopMode mode = LoopMode::Loop;
    bool includeFrom = false;     // a marker exactly at `from` counts (first advance after a start)
    uint64_t passes = ~0ull;      // wraps / bounces allowed before stopping
};

// A piece of an advance's path, in clock units: from `from` to `to`, moving in `direction`
// (+1 / -1). A marker at m is crossed when it lies in (from, to] (forward) or [to, from)
// (backward); `includeFrom` also counts a marker exactly at `from` (only the first piece
// after a start, and the piece after a loop wrap). The end is always included, so a time
// that lands exactly on a marker reports it once: the next advance starts there, exclusive.
struct ClockSegment {
    double from = 0.0, to = 0.0;
    int direction = 1;
    bool includeFrom = false;
};

// The clock of one motion (the viewer's one clock). Rules: Loop wraps, a seek to the very end
// shows the end, Once stops at either end, PingPong reflects and flips its direction, a
// negative rate plays backwards) plus what the controller needs: the time kept in double
// and never rounded (so landing exactly on a marker is exact), the path of each advance
// reported unwrapped (for the marker pass), and a loop count:
// loopCount > 0 stops a Loop or PingPong clock at the end of its loopCount-th pass (a pass
// ends where Loop wraps or PingPong bounces). Pieces beyond kMaxSegments in one advance
// (a huge dt on a short clock) are not reported.
class LayerClock {
public:
    static constexpr uint64_t kMaxSegments = 1024;

    // Restart at `time` (mapped into [0, duration] as seek does), playing.
    void start(double duration, double time, float rate, LoopMode mode, uint32_t loopCount);
    // Advance by dt >= 0 seconds of wall time; dt <= 0 or not finite does nothing. Returns
    // the path taken, unwrapped, for the marker pass.
    ClockAdvance advance(double dt);
    // Jump to `time`: wraps (Loop), clamps (Once) or reflects (PingPong). No events; the
    // next advance starts exclusive of this time.
    void seek(double time);
    void setRate(float rate) { rate_ = std::isfinite(rate) ? rate : 0.0f; }
    // Change the loop mode in place (the time stays, mapped into the range as seek does).
    void setMode(LoopMode mode);
    // Play only [from, to] (a preview range inside [0, duration]): advance loops, bounces or
    // stops at its ends instead of the clock's. A seek may still go anywhere; the next
    // advance then starts from the range's start. An empty or inverted range clears it.
    void setRange(double from, double to);
    void clearRange();
    bool hasRange() const { return lo_ > 0.0 || hi_ < duration_; }
    double rangeStart() const { return lo_; }
    double rangeEnd() const { return hi_; }
    void pause() { playing_ = false; }
    // Play again; a finished clock starts counting its passes from 0. In Once mode a clock
    // standing at the end it is moving towards starts over from the other end (as every
    // player does when Play is pressed at the end).
    void resume();

    double time() const { return time_; }
    double duration() const { return duration_; }
    double phase() const { return duration_ > 0.0 ? time_ / duration_ : 0.0; }
    float rate() const { return rate_; }
    LoopMode mode() const { return mode_; }
    // Moving direction: the rate's sign times the ping-pong direction (0 at rate 0).
    int direction() const { return rate_ > 0.0f ? direction_ : rate_ < 0.0f ? -direction_ : 0; }
    bool playing() const { return playing_; }
    bool finished() const { return finished_; }
    uint32_t passes() const { return passes_; }

private:
    double map(double t);
    void finish() {
        playing_ = false;
        finished_ = true;
    }

    double time_ = 0.0, duration_ = 0.0;
    double lo_ = 0.0, hi_ = 0.0;  // the range played: [0, duration] unless setRange
    float rate_ = 1.0f;
    LoopMode mode_ = LoopMode::Loop;
    uint32_t loopCount_ = 0, passes_ = 0;
    int direction_ = 1;
    bool playing_ = false, finished_ = false, fresh_ = false;
};

// The pieces of an advance's path in order (a loop wrap or a ping-pong bounce splits it; at
// most LayerClock::kMaxSegments middle pieces). `fn(ctx, piece)` for each.
void forEachSegment(const ClockAdvance& a, void (*fn)(void*, const ClockSegment&), void* ctx);

// The markers one piece crosses, in the order it crosses them: `position(k)` is marker k's
// place in clock units (sorted by it, k < count); `emit(k, direction)` per crossing.
template <class Position, class Emit>
void markersInSegment(const ClockSegment& seg, uint32_t count, Position&& position, Emit&& emit) {
    auto crossed = [&](double u) {
        return seg.direction > 0 ? ((u > seg.from || (seg.includeFrom && u == seg.from)) && u <= seg.to)
                                 : ((u < seg.from || (seg.includeFrom && u == seg.from)) && u >= seg.to);
    };
    if (seg.direction > 0) {
        for (uint32_t k = 0; k < count; ++k) {
            if (crossed(position(k))) emit(k, 1);
        }
    } else {
        for (uint32_t k = count; k-- > 0;) {
            if (crossed(position(k))) emit(k, -1);
        }
    }
}

// forEachSegment with any callable `f(const ClockSegment&)`.
template <class F>
void forEachSegment(const ClockAdvance& a, F&& f) {
    forEachSegment(
        a, [](void* p, const ClockSegment& seg) { (*static_cast<std::remove_reference_t<F>*>(p))(seg); },
        const_cast<void*>(static_cast<const void*>(&f)));
}

// The marker pass of one track of markers (ozz's TrackTriggeringJob): every marker an
// advance crossed, in the order the clock crossed them (a marker crossed again on a later
// loop of the same advance is reported again). No allocation.
template <class Position, class Emit>
void triggerMarkers(const ClockAdvance& a, uint32_t count, Position&& position, Emit&& emit) {
    if (!a.moved || count == 0) return;
    forEachSegment(a, [&](const ClockSegment& seg) { markersInSegment(seg, count, position, emit); });
}

}  // namespace rig
