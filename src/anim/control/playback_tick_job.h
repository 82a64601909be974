// PlaybackTickJob: one tick of the playback pipeline, the one step through which time moves.
// The driver advances the Controller by dt (a StateMachine's update when one drives it, else
// the Controller's own); the IK stage is the post-process of the pose the Controller
// evaluates and is advanced by the same dt; the animator is posed. A tick of dt 0 is a paused
// frame: nothing moves (no clock, fade or layer weight; the state machine takes no
// transition), the last tick's events are cleared and the pose is evaluated again (a seek
// shows). A crowd follows the same clock: motionTime() is the time its instances are posed
// at. The viewer's Playback (app/playback.h), `bench` and `pose/render --machine` all tick
// through this job. run() allocates nothing.
#pragma once

#include <cstdint>

#include "anim/control/controller.h"
#include "anim/control/state_machine.h"
#include "anim/runtime/ik.h"
#include "anim/runtime/pose.h"

namespace rig {

struct PlaybackTickJob {
    double dt = 0.0;                   // seconds the pipeline advances; <= 0 or not finite: paused
    Controller* controller = nullptr;  // the one controller (required)
    StateMachine* machine = nullptr;   // when set, drives `controller` (it was made on it)
    IkStage* ik = nullptr;             // post-process of the pose (null: none); advanced by dt
    Animator* animator = nullptr;      // posed from the controller (null: time only)
    // kBindPose or kFilePose: the animator shows that still pose instead of the controller's
    // (time still runs); any other value: the controller's pose.
    int32_t stillPose = 0;

    // The controller is set; the machine (if any) drives it; the IK stage (if any) was made
    // for its skeleton; the animator (if any) for its model.
    bool validate() const;
    // The tick. False (nothing done) when validate() fails.
    bool run() const;
};

// The base motion's time from its start (seconds on its timeline): the clock a crowd's
// instances follow (Crowd::update), each adding its phase and rate.
double motionTime(const Controller& controller);

}  // namespace rig
