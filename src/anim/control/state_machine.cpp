#include "anim/control/state_machine.h"

#include <cmath>

namespace rig {

// ---------------------------------------------------------------------------------------
// Definition

int32_t MachineDef::findParam(std::string_view name) const {
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].name == name) return static_cast<int32_t>(i);
    }
    return -1;
}

std::string MachineDef::validate(size_t clipCount) const {
    auto clipOk = [&](int32_t c) { return c >= 0 && static_cast<size_t>(c) < clipCount; };
    auto paramOk = [&](int32_t p, ParamType t) {
        return p >= 0 && static_cast<size_t>(p) < params.size() && params[p].type == t;
    };
    if (layers.empty() || !layers[0].base) return "no base layer";
    std::vector<int> owners(machines.size(), 0);
    for (size_t l = 0; l < layers.size(); ++l) {
        const MachineLayer& L = layers[l];
        if ((l == 0) != L.base) return "layer " + L.name + ": only the first layer is the base";
        if (L.machine < 0 || static_cast<size_t>(L.machine) >= machines.size()) return "layer " + L.name + ": no machine";
        if (machines[L.machine].parent != -1) return "layer " + L.name + ": its machine is nested";
        ++owners[L.machine];
    }
    for (size_t m = 0; m < machines.size(); ++m) {
        const SubMachine& M = machines[m];
        if (M.states.empty()) return "machine " + M.name + ": no states";
        if (M.entry < 0 || static_cast<size_t>(M.entry) >= M.states.size()) return "machine " + M.name + ": bad entry";
        // Depth: walk up to the layer's machine.
        int depth = 1;
        for (int32_t p = M.parent; p != -1; p = machines[p].parent) {
            if (p < 0 || static_cast<size_t>(p) >= machines.size() || ++depth > StateMachine::kMaxDepth) {
                return "machine " + M.name + ": nested too deep (at most " + std::to_string(StateMachine::kMaxDepth) + " levels)";
            }
        }
        for (const MachineState& s : M.states) {
            switch (s.kind) {
                case StateKind::Empty: break;
                case StateKind::Clip:
                    if (!clipOk(s.clip)) return "state " + s.name + ": bad clip";
                    if (s.reference != -1 && !clipOk(s.reference)) return "state " + s.name + ": bad reference clip";
                    break;
                case StateKind::Blend1D:
                    if (s.points1.empty() || !paramOk(s.paramX, ParamType::Float)) return "state " + s.name + ": bad 1D blend";
                    for (const auto& p : s.points1) {
                        if (!clipOk(p.clip)) return "state " + s.name + ": bad clip in its blend";
                    }
                    break;
                case StateKind::Blend2D:
                    if (s.points2.empty() || !paramOk(s.paramX, ParamType::Float) || !paramOk(s.paramY, ParamType::Float)) {
                        return "state " + s.name + ": bad 2D blend";
                    }
                    for (const auto& p : s.points2) {
                        if (!clipOk(p.clip)) return "state " + s.name + ": bad clip in its blend";
                    }
                    break;
                case StateKind::Machine:
                    if (s.machine < 0 || static_cast<size_t>(s.machine) >= machines.size() ||
                        machines[s.machine].parent != static_cast<int32_t>(m)) {
                        return "state " + s.name + ": bad nested machine";
                    }
                    ++owners[s.machine];
                    break;
            }
        }
        for (const MachineTransition& t : M.transitions) {
            const int32_t n = static_cast<int32_t>(M.states.size());
            if (t.from != MachineTransition::kAny && (t.from < 0 || t.from >= n)) return "machine " + M.name + ": bad transition source";
            if (t.to == MachineTransition::kExit ? M.parent == -1 : (t.to < 0 || t.to >= n)) {
                return "machine " + M.name + ": bad transition target";
            }
            if (!(t.duration >= 0.0f) || !std::isfinite(t.duration)) return "machine " + M.name + ": bad duration";
            if (!std::isfinite(t.exitTime)) return "machine " + M.name + ": bad exit time";
            for (const Condition& c : t.conditions) {
                if (c.param < 0 || static_cast<size_t>(c.param) >= params.size()) return "machine " + M.name + ": bad parameter";
                const ParamType pt = params[c.param].type;
                if ((c.op == CondOp::Trigger) != (pt == ParamType::Trigger)) return "machine " + M.name + ": bad condition";
                if (pt == ParamType::Bool && c.op != CondOp::Equal && c.op != CondOp::NotEqual) {
                    return "machine " + M.name + ": bad bool condition";
                }
            }
        }
    }
    for (size_t m = 0; m < machines.size(); ++m) {
        if (owners[m] != 1) return "machine " + machines[m].name + ": used " + std::to_string(owners[m]) + " times";
    }
    return {};
}

// ---------------------------------------------------------------------------------------
// Runtime

const char* transitionWhyName(TransitionWhy why) {
    switch (why) {
        case TransitionWhy::Entry: return "entry";
        case TransitionWhy::Conditions: return "conditions";
        case TransitionWhy::ExitTime: return "exit time";
        case TransitionWhy::Exit: return "exit";
    }
    return "?";
}

StateMachine::StateMachine(const MachineDef& def, Controller& controller) : def_(&def), controller_(&controller) {
    values_.resize(def.params.size());
    resetParameters();
    error_ = def.validate(controller.model().clips.size());
    if (!error_.empty()) return;  // nothing bound; update() does nothing
    spaceOf_.resize(def.machines.size());
    for (size_t m = 0; m < def.machines.size(); ++m) {
        const SubMachine& M = def.machines[m];
        spaceOf_[m].assign(M.states.size(), -1);
        for (size_t s = 0; s < M.states.size(); ++s) {
            const MachineState& S = M.states[s];
            if (S.kind == StateKind::Blend1D) spaceOf_[m][s] = controller.addBlendSpace(BlendSpace1D(S.points1));
            if (S.kind == StateKind::Blend2D) spaceOf_[m][s] = controller.addBlendSpace(BlendSpace2D(S.points2));
        }
    }
    layers_.resize(def.layers.size());
    for (size_t l = 0; l < def.layers.size(); ++l) {
        const MachineLayer& L = def.layers[l];
        if (!L.base) {
            layers_[l].controllerLayer = controller.addLayer(L.blend, L.mask);
            controller.setLayerWeight(layers_[l].controllerLayer, 0.0f);
        }
    }
}

void StateMachine::setFloat(int32_t p, float v) {
    if (p >= 0 && static_cast<size_t>(p) < values_.size() && def_->params[p].type == ParamType::Float && std::isfinite(v)) {
        values_[p] = v;
    }
}

void StateMachine::setBool(int32_t p, bool v) {
    if (p >= 0 && static_cast<size_t>(p) < values_.size() && def_->params[p].type == ParamType::Bool) values_[p] = v ? 1.0f : 0.0f;
}

void StateMachine::setTrigger(int32_t p) {
    if (p >= 0 && static_cast<size_t>(p) < values_.size() && def_->params[p].type == ParamType::Trigger) values_[p] = 1.0f;
}

void StateMachine::resetTrigger(int32_t p) {
    if (p >= 0 && static_cast<size_t>(p) < values_.size() && def_->params[p].type == ParamType::Trigger) values_[p] = 0.0f;
}

float StateMachine::value(int32_t p) const {
    return p >= 0 && static_cast<size_t>(p) < values_.size() ? values_[p] : 0.0f;
}

void StateMachine::resetParameters() {
    for (size_t i = 0; i < values_.size(); ++i) {
        const MachineParam& p = def_->params[i];
        values_[i] = p.type == ParamType::Trigger ? 0.0f : p.type == ParamType::Bool ? (p.initial != 0.0f ? 1.0f : 0.0f) : p.initial;
    }
}

int32_t StateMachine::blendSpaceOf(int32_t machine, int32_t state) const {
    if (machine < 0 || static_cast<size_t>(machine) >= spaceOf_.size()) return -1;
    const std::vector<int32_t>& s = spaceOf_[machine];
    return state >= 0 && static_cast<size_t>(state) < s.size() ? s[state] : -1;
}

const MachineState& StateMachine::activeStateDef(size_t layer) const {
    return def_->machines[activeMachine(layer)].states[activeState(layer)];
}

const TransitionLogEntry& StateMachine::logEntry(size_t i) const {
    const uint64_t first = logCount_ - logCount();
    return log_[(first + i) % kLogSize];
}

void StateMachine::log(size_t layer, int32_t machine, int32_t from, int32_t to, int32_t transition, TransitionWhy why) {
    TransitionLogEntry& e = log_[logCount_ % kLogSize];
    e.time = controller_->time();
    e.layer = static_cast<int16_t>(layer);
    e.machine = machine;
    e.from = from;
    e.to = to;
    e.transition = transition;
    e.why = why;
    ++logCount_;
}

const LayerClock* StateMachine::leafClock(size_t layer) const {
    const LayerRun& run = layers_[layer];
    return run.controllerLayer < 0 ? &controller_->clock() : controller_->layerClock(run.controllerLayer);
}

double StateMachine::leafProgress(size_t layer) const {
    const LayerRun& run = layers_[layer];
    if (run.empty) return 0.0;
    const LayerClock* clock = leafClock(layer);
    if (!clock) return 0.0;
    const MachineState& s = activeStateDef(layer);
    const double phase = s.timing.rate < 0.0f ? 1.0 - clock->phase() : clock->phase();
    return static_cast<double>(clock->passes()) + phase;
}

void StateMachine::startLeaf(size_t layer, const MachineTransition* t) {
    LayerRun& run = layers_[layer];
    const MachineLayer& L = def_->layers[layer];
    const int32_t m = run.machine[run.depth - 1], s = run.state[run.depth - 1];
    const MachineState& S = def_->machines[m].states[s];
    ClipTiming timing = S.timing;
    timing.startAt = ClipTiming::kStartNow;
    MotionSource source;
    if (S.kind == StateKind::Clip) source = MotionSource::clip(S.clip);
    if (S.kind == StateKind::Blend1D || S.kind == StateKind::Blend2D) source = MotionSource::blendSpace(spaceOf_[m][s]);
    const float duration = t ? t->duration : 0.0f;
    const bool wasEmpty = run.empty;
    run.empty = source.kind == MotionSource::Kind::None;
    if (L.base) {
        if (t) controller_->crossFadeTo(source, duration, t->mode, t->ease, timing);
        else controller_->play(source, timing);
        return;
    }
    const int32_t cl = run.controllerLayer;
    if (run.empty) {
        controller_->setLayerWeight(cl, 0.0f, duration);
        return;
    }
    // Between two motions the layer cross-fades with the transition's duration, curve and
    // mode: an override layer between the two poses, an additive one between the two
    // differences it adds.
    const bool fade = !wasEmpty && t;
    if (L.blend == LayerBlend::Additive) {
        const int32_t reference = S.reference >= 0 ? S.reference : S.clip;
        if (fade) controller_->crossFadeAdditive(cl, S.clip, reference, duration, t->mode, t->ease, timing);
        else controller_->playAdditive(cl, S.clip, reference, timing);
    } else if (fade) {
        controller_->crossFadeLayer(cl, source, duration, t->mode, t->ease, timing);
    } else {
        controller_->playLayer(cl, source, timing);
    }
    // From off: the layer's weight fades in (linearly) over the transition's duration.
    if (wasEmpty) controller_->setLayerWeight(cl, L.weight, duration);
}

void StateMachine::enter(size_t layer, int level, int32_t s, const MachineTransition* t) {
    LayerRun& run = layers_[layer];
    run.depth = level + 1;
    run.state[level] = s;
    run.exited[level] = false;
    // Down through nested machines to the leaf (bounded by kMaxDepth, checked by validate()).
    for (;;) {
        const MachineState& S = def_->machines[run.machine[run.depth - 1]].states[run.state[run.depth - 1]];
        if (S.kind != StateKind::Machine || run.depth >= kMaxDepth) break;
        const int d = run.depth++;
        run.machine[d] = S.machine;
        run.state[d] = def_->machines[S.machine].entry;
        run.exited[d] = false;
    }
    startLeaf(layer, t);
    run.progress = leafProgress(layer);
}

void StateMachine::start() {
    if (!error_.empty()) return;
    started_ = true;
    // Blend spaces take the parameters before anything samples them.
    for (size_t m = 0; m < def_->machines.size(); ++m) {
        const SubMachine& M = def_->machines[m];
        for (size_t s = 0; s < M.states.size(); ++s) {
            const int32_t id = spaceOf_[m][s];
            if (id >= 0) controller_->setBlendParameter(id, value(M.states[s].paramX), value(M.states[s].paramY));
        }
    }
    for (size_t l = 0; l < layers_.size(); ++l) {
        LayerRun& run = layers_[l];
        run.machine[0] = def_->layers[l].machine;
        run.empty = true;
        enter(l, 0, def_->machines[run.machine[0]].entry, nullptr);
        log(l, run.machine[0], -1, run.state[0], -1, TransitionWhy::Entry);
    }
}

bool StateMachine::holds(const MachineTransition& t, size_t layer, int level, double p0, double p1) const {
    const LayerRun& run = layers_[layer];
    if (t.exitTime >= 0.0f) {
        if (level < run.depth - 1) {
            // From a nested state: once its machine has exited.
            if (!run.exited[level + 1]) return false;
        } else {
            const double e = t.exitTime;
            if (run.empty) return false;  // an empty state has no clock
            if (e >= 1.0) {
                if (!(p1 >= e)) return false;
            } else {
                const bool crossed = std::floor(p1 - e) > std::floor(p0 - e);
                const LayerClock* clock = leafClock(layer);
                const bool window = p1 - std::floor(p1) >= e || (clock && clock->finished() && p1 >= e);  // Once, at its end
                if (!crossed && !window) return false;
            }
        }
    }
    for (const Condition& c : t.conditions) {
        const float v = value(c.param);
        bool ok = false;
        switch (c.op) {
            case CondOp::Greater: ok = v > c.value; break;
            case CondOp::Less: ok = v < c.value; break;
            case CondOp::GreaterEqual: ok = v >= c.value; break;
            case CondOp::LessEqual: ok = v <= c.value; break;
            case CondOp::Equal: ok = std::fabs(v - c.value) <= 1e-4f; break;
            case CondOp::NotEqual: ok = !(std::fabs(v - c.value) <= 1e-4f); break;
            case CondOp::Trigger: ok = v != 0.0f; break;
        }
        if (!ok) return false;
    }
    return true;
}

void StateMachine::update(double dt) {
    if (!error_.empty()) return;
    if (!started_) start();
    // Blend spaces follow their parameters (the one playing and any fading out).
    for (size_t m = 0; m < def_->machines.size(); ++m) {
        const SubMachine& M = def_->machines[m];
        for (size_t s = 0; s < M.states.size(); ++s) {
            const int32_t id = spaceOf_[m][s];
            if (id >= 0) controller_->setBlendParameter(id, value(M.states[s].paramX), value(M.states[s].paramY));
        }
    }
    controller_->update(dt);
    for (size_t l = 0; l < layers_.size(); ++l) {
        LayerRun& run = layers_[l];
        const double p0 = run.progress;
        const double p1 = leafProgress(l);
        run.progress = p1;
        bool fired = false;
        for (int level = 0; level < run.depth && !fired; ++level) {
            if (level > 0 && run.exited[level]) break;  // this machine has left: its parent decides
            const int32_t mi = run.machine[level];
            const int32_t si = run.state[level];
            const SubMachine& M = def_->machines[mi];
            for (size_t ti = 0; ti < M.transitions.size(); ++ti) {
                const MachineTransition& t = M.transitions[ti];
                if (t.from != si && t.from != MachineTransition::kAny) continue;
                if (t.from == MachineTransition::kAny && t.to == si) continue;  // any state: not into itself
                if (!holds(t, l, level, p0, p1)) continue;
                for (const Condition& c : t.conditions) {
                    if (c.op == CondOp::Trigger) values_[c.param] = 0.0f;  // consumed
                }
                const TransitionWhy why = t.to == MachineTransition::kExit ? TransitionWhy::Exit
                                          : t.conditions.empty()           ? TransitionWhy::ExitTime
                                                                           : TransitionWhy::Conditions;
                log(l, mi, si, t.to, static_cast<int32_t>(ti), why);
                if (t.to == MachineTransition::kExit) {
                    run.exited[level] = true;
                } else {
                    enter(l, level, t.to, &t);
                }
                fired = true;
                break;
            }
        }
    }
}

}  // namespace rig
