// `--machine FILE --set NAME=VALUE` for the headless commands: run a state machine file on a
// Controller from time 0 to a given time at a fixed tick, and pose an Animator with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"

namespace rig {

// Ticks of the headless machine run per second (the viewer's usual frame rate).
inline constexpr double kMachineTicksPerSecond = 60.0;

// Load `file` for `model` (errors: "rigview: FILE:LINE: what", exit code kBadInput), apply
// `sets` ("name=1.5", "name=true" / "name=false", "name" for a trigger; errors exit kUsage),
// run the machine from 0 to `seconds` (1/60 s ticks, the last one shorter to land on
// `seconds` exactly), and pose `animator`. Returns 0, or the exit code after printing the
// error line. `clip` gets the clip the base layer plays (fades in) at the
// end; -1 for a blend space or none.
int poseWithMachine(const Model& model, const std::string& file, const std::vector<std::string>& sets, double seconds,
                    Animator& animator, int32_t& clip);

}  // namespace rig
