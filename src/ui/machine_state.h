// The State Machine panel's part of ViewerState: the machine file loaded with the model
// (anim/control/state_machine.h runs it; the viewer owns it), whether it drives the pose, and the
// requests the panel posts (parameter values, triggers, drive / stop / restart / reload).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rig {

class Controller;
class StateMachine;

struct MachinePanelState {
    bool active = false;                     // the machine drives the pose (not the timeline)
    std::string path;                        // the machine file loaded ("" when none)
    std::string error;                       // why the last machine file did not load
    const StateMachine* runtime = nullptr;   // owned by app/playback; null when none is loaded
    const Controller* controller = nullptr;  // the controller it drives
    std::vector<std::string> log;            // transitions, newest first (formatted)
    uint64_t logSeen = 0;                    // runtime->transitionsFired() already formatted
};

struct MachineRequests {
    bool drive = false, stop = false, restart = false, reload = false;
    std::vector<std::pair<int32_t, float>> values;  // float and bool parameters (bool: 0 / 1)
    std::vector<int32_t> triggers;
};

}  // namespace rig
