#include "app/machine_run.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "anim/control/controller.h"
#include "anim/control/playback_tick_job.h"
#include "anim/control/state_machine.h"
#include "anim/control/machine_file.h"
#include "app/command_util.h"
#include "app/exit_codes.h"

namespace rig {

MachineRun::MachineRun(const Model& model, MachineDef def, std::string file, std::vector<std::string> sets)
    : def_(std::move(def)), file_(std::move(file)), sets_(std::move(sets)), controller_(model) {
    machine_ = std::make_unique<StateMachine>(def_, controller_);
}

int MachineRun::start(const Model& model, const std::string& file, const std::vector<std::string>& sets,
                      std::unique_ptr<MachineRun>& out) {
    Result<MachineDef> def = loadMachineFile(file, model);
    if (!def) {
        cmd::printError(def.error().message);
        return exitcode::kBadInput;
    }
    std::unique_ptr<MachineRun> run(new MachineRun(model, std::move(def.value()), file, sets));
    if (!run->machine_->ok()) {
        cmd::printError(file + ": " + run->machine_->error());
        return exitcode::kBadInput;
    }
    if (const int rc = run->applySets(); rc != exitcode::kOk) return rc;
    run->machine_->start();
    out = std::move(run);
    return exitcode::kOk;
}

std::unique_ptr<MachineRun> MachineRun::fresh() const {
    std::unique_ptr<MachineRun> run(new MachineRun(controller_.model(), def_, file_, sets_));
    run->applySets();  // checked when this run started
    run->machine_->start();
    return run;
}

int MachineRun::applySets() {
    for (const std::string& s : sets_) {
        const size_t eq = s.find('=');
        const std::string name = s.substr(0, eq);
        const int32_t p = def_.findParam(name);
        if (p < 0) {
            std::string list;
            for (const MachineParam& mp : def_.params) list += (list.empty() ? "" : ", ") + mp.name;
            cmd::printError(file_ + ": --set: no parameter '" + name + "' (the machine has: " +
                            (list.empty() ? "none" : list) + ")");
            return exitcode::kUsage;
        }
        const std::string value = eq == std::string::npos ? "" : s.substr(eq + 1);
        switch (def_.params[p].type) {
            case ParamType::Trigger:
                if (eq != std::string::npos) {
                    cmd::printError("--set " + s + ": '" + name + "' is a trigger: give its name alone");
                    return exitcode::kUsage;
                }
                machine_->setTrigger(p);
                break;
            case ParamType::Bool:
                if (value != "true" && value != "false") {
                    cmd::printError("--set " + s + ": '" + name + "' is a bool: name=true or name=false");
                    return exitcode::kUsage;
                }
                machine_->setBool(p, value == "true");
                break;
            case ParamType::Float: {
                char* end = nullptr;
                errno = 0;
                const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
                if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v)) {
                    cmd::printError("--set " + s + ": '" + name + "' is a float: name=NUMBER");
                    return exitcode::kUsage;
                }
                machine_->setFloat(p, static_cast<float>(v));
                break;
            }
        }
    }
    return exitcode::kOk;
}

void MachineRun::advanceTo(double seconds) {
    // The playback pipeline's tick, as the viewer runs it: the machine drives the controller.
    const double dt = 1.0 / kMachineTicksPerSecond;
    PlaybackTickJob tick;
    tick.controller = &controller_;
    tick.machine = machine_.get();
    while (time_ < seconds) {
        tick.dt = std::min(dt, seconds - time_);
        tick.run();
        time_ += tick.dt;
        if (seconds - time_ < 1e-9) break;
    }
}

void MachineRun::pose(Animator& animator) {
    PlaybackTickJob tick;
    tick.controller = &controller_;
    tick.machine = machine_.get();
    tick.dt = 0.0;
    tick.animator = &animator;
    tick.run();
}

int32_t MachineRun::clip() const {
    const MotionSource m = controller_.currentMotion();
    return m.kind == MotionSource::Kind::Clip ? m.index : -1;
}

int poseWithMachine(const Model& model, const std::string& file, const std::vector<std::string>& sets, double seconds,
                    Animator& animator, int32_t& clip) {
    std::unique_ptr<MachineRun> run;
    if (const int rc = MachineRun::start(model, file, sets, run); rc != exitcode::kOk) return rc;
    if (!std::isfinite(seconds) || seconds < 0.0 || seconds > kMaxMachineSeconds) {
        cmd::printError(file + ": --time must be between 0 and 1e6 seconds with --machine");
        return exitcode::kUsage;
    }
    run->advanceTo(seconds);
    run->pose(animator);
    clip = run->clip();
    return exitcode::kOk;
}

}  // namespace rig
