// LayerClock: the clock of one motion in the Controller (a clip's seconds or a blend space's
// phase), with the path of each advance reported piece by piece so markers become events.
#pragma once

#include <cmath>
#include <cstdint>

#include "anim/clock.h"

namespace rig {

// ---------------------------------------------------------------------------------------
// LayerClock

// A piece of a clock's path during one advance, in clock units: from `from` to `to`, moving
// in `direction` (+1 / -1). A marker at m is crossed when it lies in (from, to] (forward) or
// [to, from) (backward); `includeFrom` also counts a marker exactly at `from` (only the
// first piece after a start). The end is always included, so a time that lands exactly on
// a marker reports it once: the next advance starts there, exclusive.
struct ClockSegment {
    double from = 0.0, to = 0.0;
    int direction = 1;
    bool includeFrom = false;
};

class SegmentSink {
public:
    virtual void segment(const ClockSegment& s) = 0;

protected:
    ~SegmentSink() = default;
};

// The clock of one motion. Same rules as PlaybackClock (Loop wraps, a seek to the very end
// shows the end, Once stops at either end, PingPong reflects and flips its direction, a
// negative rate plays backwards) plus what the controller needs: the time kept in double
// and never rounded (so landing exactly on a marker is exact), the path of each advance
// reported piece by piece (loop wraps and ping-pong bounces split it), and a loop count:
// loopCount > 0 stops a Loop or PingPong clock at the end of its loopCount-th pass (a pass
// ends where Loop wraps or PingPong bounces). Pieces beyond kMaxSegments in one advance
// (a huge dt on a short clock) are not reported.
class LayerClock {
public:
    static constexpr uint64_t kMaxSegments = 1024;

    // Restart at `time` (mapped into [0, duration] as seek does), playing.
    void start(double duration, double time, float rate, LoopMode mode, uint32_t loopCount);
    // Advance by dt >= 0 seconds of wall time; dt <= 0 or not finite does nothing.
    void advance(double dt, SegmentSink* sink = nullptr);
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

}  // namespace rig
