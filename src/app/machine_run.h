// `--machine FILE --set NAME=VALUE` for the headless commands: a state machine file run on a
// Controller through the playback pipeline's tick (PlaybackTickJob, the viewer's), advanced
// in steps of at most 1/60 s, posing an Animator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "anim/control/controller.h"
#include "anim/control/machine_file.h"
#include "anim/control/state_machine.h"
#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"

namespace rig {

// Ticks of the headless machine run per second (the viewer's usual frame rate).
inline constexpr double kMachineTicksPerSecond = 60.0;
// The latest time a headless machine run reaches (--time, a playblast's --to).
inline constexpr double kMaxMachineSeconds = 1e6;

// One machine run from time 0: `pose --machine` and `render --machine` advance it once to
// --time; a playblast advances it frame by frame, so every frame follows from the one before.
class MachineRun {
public:
    // Load `file` for `model` (errors: "rigview: FILE:LINE: what", exit code kBadInput), apply
    // `sets` ("name=1.5", "name=true" / "name=false", "name" for a trigger; errors exit
    // kUsage) and start the machine at time 0. Returns 0, or the exit code after printing the
    // error line.
    static int start(const Model& model, const std::string& file, const std::vector<std::string>& sets,
                     std::unique_ptr<MachineRun>& out);

    // A new run of the same machine and parameters from time 0 (the file is not read again).
    std::unique_ptr<MachineRun> fresh() const;

    // Run from time() to `seconds` (>= time()) in ticks of 1/60 s, the last one shorter to land
    // on `seconds` exactly. Ticks are taken from time() on, so a run advanced to t1, then t2
    // ticks as one advanced to t2 when t1 falls on a tick (a multiple of 1/60 s).
    void advanceTo(double seconds);
    // Pose `animator` at time() (a tick of 0: nothing moves).
    void pose(Animator& animator);
    double time() const { return time_; }
    // The clip the base layer plays (fades in) now; -1 for a blend space or none.
    int32_t clip() const;

private:
    MachineRun(const Model& model, MachineDef def, std::string file, std::vector<std::string> sets);
    // --set's values applied to the machine (exit code; errors name the file).
    int applySets();
    MachineDef def_;
    std::string file_;
    std::vector<std::string> sets_;
    Controller controller_;
    std::unique_ptr<StateMachine> machine_;
    double time_ = 0.0;
};

// MachineRun::start, advanceTo(seconds) and pose(animator): the pose at --time `seconds`
// (0..1e6, else kUsage). `clip` gets MachineRun::clip().
int poseWithMachine(const Model& model, const std::string& file, const std::vector<std::string>& sets, double seconds,
                    Animator& animator, int32_t& clip);

}  // namespace rig
