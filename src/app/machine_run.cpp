#include "app/machine_run.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "anim/control/controller.h"
#include "anim/control/playback_tick_job.h"
#include "anim/control/state_machine.h"
#include "anim/control/machine_file.h"
#include "app/command_util.h"
#include "app/exit_codes.h"

namespace rig {

int poseWithMachine(const Model& model, const std::string& file, const std::vector<std::string>& sets, double seconds,
                    Animator& animator, int32_t& clip) {
    Result<MachineDef> def = loadMachineFile(file, model);
    if (!def) {
        cmd::printError(def.error().message);
        return exitcode::kBadInput;
    }
    if (!std::isfinite(seconds) || seconds < 0.0 || seconds > 1e6) {
        cmd::printError(file + ": --time must be between 0 and 1e6 seconds with --machine");
        return exitcode::kUsage;
    }
    Controller controller(model);
    StateMachine sm(def.value(), controller);
    if (!sm.ok()) {
        cmd::printError(file + ": " + sm.error());
        return exitcode::kBadInput;
    }
    for (const std::string& s : sets) {
        const size_t eq = s.find('=');
        const std::string name = s.substr(0, eq);
        const int32_t p = def->findParam(name);
        if (p < 0) {
            std::string list;
            for (const MachineParam& mp : def->params) list += (list.empty() ? "" : ", ") + mp.name;
            cmd::printError(file + ": --set: no parameter '" + name + "' (the machine has: " +
                            (list.empty() ? "none" : list) + ")");
            return exitcode::kUsage;
        }
        const std::string value = eq == std::string::npos ? "" : s.substr(eq + 1);
        switch (def->params[p].type) {
            case ParamType::Trigger:
                if (eq != std::string::npos) {
                    cmd::printError("--set " + s + ": '" + name + "' is a trigger: give its name alone");
                    return exitcode::kUsage;
                }
                sm.setTrigger(p);
                break;
            case ParamType::Bool:
                if (value != "true" && value != "false") {
                    cmd::printError("--set " + s + ": '" + name + "' is a bool: name=true or name=false");
                    return exitcode::kUsage;
                }
                sm.setBool(p, value == "true");
                break;
            case ParamType::Float: {
                char* end = nullptr;
                errno = 0;
                const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
                if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v)) {
                    cmd::printError("--set " + s + ": '" + name + "' is a float: name=NUMBER");
                    return exitcode::kUsage;
                }
                sm.setFloat(p, static_cast<float>(v));
                break;
            }
        }
    }
    // The playback pipeline's tick, as the viewer runs it: the machine drives the controller.
    const double dt = 1.0 / kMachineTicksPerSecond;
    sm.start();
    PlaybackTickJob tick;
    tick.controller = &controller;
    tick.machine = &sm;
    double t = 0.0;
    while (t < seconds) {
        tick.dt = std::min(dt, seconds - t);
        tick.run();
        t += tick.dt;
        if (seconds - t < 1e-9) break;
    }
    // A tick of 0 (nothing moves) poses the animator.
    tick.dt = 0.0;
    tick.animator = &animator;
    tick.run();
    const MotionSource m = controller.currentMotion();
    clip = m.kind == MotionSource::Kind::Clip ? m.index : -1;
    return exitcode::kOk;
}

}  // namespace rig
