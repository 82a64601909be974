#include "anim/clock.h"

#include <cmath>

namespace rig {

double wrapTime(double t, double duration) {
    if (!(duration > 0.0) || !std::isfinite(t)) return 0.0;
    double r = std::fmod(t, duration);
    if (r < 0.0) r += duration;
    if (r >= duration) r = 0.0;
    return r;
}

void PlaybackClock::setDuration(float seconds, float sampleRate) {
    duration_ = seconds > 0.0f && std::isfinite(seconds) ? seconds : 0.0f;
    sampleRate_ = sampleRate > 0.0f && std::isfinite(sampleRate) ? sampleRate : 30.0f;
    direction_ = 1;
    time_ = map(time_);
}

void PlaybackClock::setLoopMode(LoopMode mode) {
    mode_ = mode;
    direction_ = 1;
    time_ = map(time_);
}

double seekTime(double t, double duration, LoopMode mode, int& direction) {
    if (!std::isfinite(t) || !(duration > 0.0)) return 0.0;
    const double d = duration;
    switch (mode) {
        case LoopMode::Loop:
            // The end itself stays the end (a seek to the last key shows the last key);
            // anything past it wraps.
            return t == d ? d : wrapTime(t, d);
        case LoopMode::Once:
            if (t <= 0.0) return 0.0;
            return t >= d ? d : t;
        case LoopMode::PingPong: {
            double r = std::fmod(t, 2.0 * d);
            if (r < 0.0) r += 2.0 * d;
            if (r > d) {
                direction = -direction;
                return 2.0 * d - r;
            }
            return r;
        }
    }
    return 0.0;
}

double PlaybackClock::map(double t) { return seekTime(t, duration_, mode_, direction_); }

void PlaybackClock::advance(double dt) {
    if (!playing_ || !std::isfinite(dt)) return;
    const double delta = dt * rate_ * direction_;
    double t = time_ + delta;
    const double d = duration_;
    if (d <= 0.0) {
        time_ = 0.0;
        return;
    }
    switch (mode_) {
        case LoopMode::Loop:
            time_ = wrapTime(t, d);
            break;
        case LoopMode::Once:
            if (t >= d) {
                time_ = d;
                playing_ = false;
            } else if (t <= 0.0) {
                time_ = 0.0;
                playing_ = false;
            } else {
                time_ = t;
            }
            break;
        case LoopMode::PingPong: {
            // Reflect off both ends as often as needed; each reflection flips direction.
            const double period = 2.0 * d;
            double r = std::fmod(t, period);
            if (r < 0.0) r += period;
            const long bounces = static_cast<long>(std::floor(t / d));
            if (r > d) r = period - r;
            time_ = r;
            if (bounces % 2 != 0) direction_ = -direction_;
            break;
        }
    }
}

void PlaybackClock::seek(double t) {
    direction_ = 1;
    time_ = map(t);
}

int PlaybackClock::frame() const {
    return static_cast<int>(std::lround(time_ * sampleRate_));
}

void PlaybackClock::step(int frames) {
    const double f = std::round(time_ * sampleRate_) + frames;
    double t = f / sampleRate_;
    if (mode_ == LoopMode::Loop) {
        // Stepping past the end lands on the first frame again, and before 0 on the last.
        const double lastFrame = std::floor(duration_ * sampleRate_ + 1e-6);
        const double nframes = lastFrame + 1.0;
        double ff = std::fmod(f, nframes);
        if (ff < 0.0) ff += nframes;
        t = ff / sampleRate_;
        if (t > duration_) t = duration_;
        time_ = duration_ > 0.0f ? t : 0.0;
        return;
    }
    if (t < 0.0) t = 0.0;
    if (t > duration_) t = duration_;
    time_ = duration_ > 0.0f ? t : 0.0;
}

}  // namespace rig
