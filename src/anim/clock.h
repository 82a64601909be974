// PlaybackClock: the time of one clip playing on one instance. Plays, pauses, runs at any
// rate (negative plays backwards), loops / plays once / ping-pongs, seeks and steps frames.
// Time is clip time in seconds on the file's timeline, kept inside [0, duration].
#pragma once

namespace rig {

enum class LoopMode { Loop, Once, PingPong };

class PlaybackClock {
public:
    void setDuration(float seconds, float sampleRate);
    float duration() const { return duration_; }
    float sampleRate() const { return sampleRate_; }

    void play() { playing_ = true; }
    void pause() { playing_ = false; }
    void toggle() { playing_ = !playing_; }
    bool playing() const { return playing_; }

    void setRate(float rate) { rate_ = rate; }
    float rate() const { return rate_; }
    void setLoopMode(LoopMode mode);
    LoopMode loopMode() const { return mode_; }

    // Advance by dt seconds of wall time. Once-mode stops at the ends; ping-pong reflects.
    void advance(double dt);
    // Jump to clip time t; a time outside [0, duration] wraps (loop), clamps (once) or
    // reflects (ping-pong).
    void seek(double t);
    // Move by n frames at the clip's sample rate, snapped to the frame grid.
    void step(int frames);

    float time() const { return static_cast<float>(time_); }
    // Current frame number at the sample rate (rounded).
    int frame() const;
    // Phase in [0, 1] (normalized time); 0 for a zero-length clip.
    float phase() const { return duration_ > 0.0f ? static_cast<float>(time_ / duration_) : 0.0f; }
    // +1 or -1: the direction ping-pong is currently travelling (times the rate's sign).
    int direction() const { return direction_; }

private:
    double map(double t);

    double time_ = 0.0;
    float duration_ = 0.0f;
    float sampleRate_ = 30.0f;
    float rate_ = 1.0f;
    bool playing_ = true;
    LoopMode mode_ = LoopMode::Loop;
    int direction_ = 1;
};

// Wrap t into [0, duration) for looping playback (120 of 100 -> 20); 0 when duration <= 0.
double wrapTime(double t, double duration);

// Where a seek to t lands in [0, duration] for a loop mode: Loop wraps (exactly the end
// stays the end), Once clamps, PingPong reflects and flips `direction`. 0 when duration <= 0.
double seekTime(double t, double duration, LoopMode mode, int& direction);

}  // namespace rig
