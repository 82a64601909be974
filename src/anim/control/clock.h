// Loop modes and the wrap arithmetic of every clock: the one place a time is wrapped into a
// loop or reflected along a ping-pong path. LayerClock (anim/control/layer_clock.h: the
// Controller's motions, and so the viewer's timeline and `bench`), the Controller's frame
// steps, the crowd's instances and the viewer's onion skin all call these.
#pragma once

namespace rig {

enum class LoopMode { Loop, Once, PingPong };

// Wrap t into [0, duration) for looping playback (120 of 100 -> 20; -20 of 100 -> 80); 0 when
// duration <= 0 or t is not finite.
double wrapTime(double t, double duration);

// Fold t onto a ping-pong path over [0, duration]: forward over [0, duration], back over
// [duration, 2 duration], and so on (t and duration finite, duration > 0). `reflected` tells
// whether t fell on a backward half (then the result is 2 duration - (t mod 2 duration)).
double pingPongTime(double t, double duration, bool& reflected);

// Where a seek to t lands in [0, duration] for a loop mode: Loop wraps (exactly the end
// stays the end), Once clamps, PingPong reflects and flips `direction`. 0 when duration <= 0.
double seekTime(double t, double duration, LoopMode mode, int& direction);

}  // namespace rig
