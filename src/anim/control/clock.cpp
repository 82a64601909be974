#include "anim/control/clock.h"

#include <cmath>

namespace rig {

double wrapTime(double t, double duration) {
    if (!(duration > 0.0) || !std::isfinite(t)) return 0.0;
    double r = std::fmod(t, duration);
    if (r < 0.0) r += duration;
    if (r >= duration) r = 0.0;
    return r;
}

double pingPongTime(double t, double duration, bool& reflected) {
    const double period = 2.0 * duration;
    double r = std::fmod(t, period);
    if (r < 0.0) r += period;
    reflected = r > duration;
    return reflected ? period - r : r;
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
            bool reflected = false;
            const double r = pingPongTime(t, d, reflected);
            if (reflected) direction = -direction;
            return r;
        }
    }
    return 0.0;
}

}  // namespace rig
