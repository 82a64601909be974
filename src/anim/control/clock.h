// Loop modes and the time arithmetic of a motion's clock (LayerClock, anim/layer_clock.h,
// is the one clock: the Controller's motions, and so the viewer's timeline and `bench`).
#pragma once

namespace rig {

enum class LoopMode { Loop, Once, PingPong };

// Wrap t into [0, duration) for looping playback (120 of 100 -> 20); 0 when duration <= 0.
double wrapTime(double t, double duration);

// Where a seek to t lands in [0, duration] for a loop mode: Loop wraps (exactly the end
// stays the end), Once clamps, PingPong reflects and flips `direction`. 0 when duration <= 0.
double seekTime(double t, double duration, LoopMode mode, int& direction);

}  // namespace rig
