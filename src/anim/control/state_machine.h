// Action state machine (seed 001, GEA 11.10): states that play a clip, a blend space or a
// nested machine; transitions between them on conditions over named parameters (float, bool,
// trigger) and exit times, each with a cross-fade duration, curve and mode; layers, each with
// its own machine, a weight, a joint mask, override or additive. It drives an existing
// Controller: the base layer through play / crossFadeTo, other layers through controller
// layers it adds at bind time.
//
// MachineDef is the definition, already resolved against one model (clip indices, joint
// masks, parameter indices): see anim/control/machine_file.h for the file format that makes one.
// StateMachine is one instance's runtime. Binding (the constructor) allocates; update(), the
// parameter setters and every query allocate nothing, look up no names and do not recurse.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "anim/runtime/blend.h"
#include "anim/control/controller.h"

namespace rig {

// ---------------------------------------------------------------------------------------
// Definition

enum class ParamType : uint8_t { Float, Bool, Trigger };

struct MachineParam {
    std::string name;
    ParamType type = ParamType::Float;
    float initial = 0.0f;             // bools: 0 or 1
    float min = 0.0f, max = 1.0f;     // floats: the UI slider's range (values are not clamped)
};

enum class CondOp : uint8_t {
    Greater, Less, GreaterEqual, LessEqual,
    Equal,     // floats: |value - x| <= 1e-4; bools: same truth value
    NotEqual,
    Trigger,   // the trigger is set (it is consumed when the transition fires)
};

struct Condition {
    int32_t param = -1;
    CondOp op = CondOp::Trigger;
    float value = 0.0f;
};

enum class StateKind : uint8_t {
    Empty,    // base layer: the bind pose; other layers: the layer is off (weight faded to 0)
    Clip,
    Blend1D,  // a 1D blend space over one float parameter
    Blend2D,  // a 2D blend space over two float parameters
    Machine,  // a nested machine (def.machines[machine])
};

struct MachineState {
    std::string name;
    StateKind kind = StateKind::Empty;
    int32_t clip = -1;
    int32_t reference = -1;       // additive layers: the clip the difference is taken from
    ClipTiming timing;            // rate, loop mode, syncPhase (startAt is ignored)
    std::vector<BlendSpace1D::Point> points1;
    std::vector<BlendSpace2D::Point> points2;
    int32_t paramX = -1, paramY = -1;  // blend spaces: their parameters
    int32_t machine = -1;              // nested machine
    int line = 0;                      // where it was defined (0: not from a file)
};

struct MachineTransition {
    static constexpr int32_t kAny = -1;   // from: any state of its machine
    static constexpr int32_t kExit = -2;  // to: leave this (nested) machine
    int32_t from = kAny, to = 0;
    std::vector<Condition> conditions;    // all must hold
    float exitTime = -1.0f;               // < 0: none (see StateMachine)
    float duration = 0.0f;                // cross-fade seconds (0: at once)
    Ease ease;
    FadeMode mode = FadeMode::Smooth;
    int line = 0;
};

struct SubMachine {
    std::string name;
    int32_t entry = 0;
    std::vector<MachineState> states;
    std::vector<MachineTransition> transitions;  // priority: this order
    int32_t parent = -1;                          // the machine holding the state that nests it
};

struct MachineLayer {
    std::string name;
    bool base = false;               // the first layer: the controller's base motion
    LayerBlend blend = LayerBlend::Override;
    float weight = 1.0f;
    JointMask mask;                  // empty: the whole skeleton
    int32_t machine = -1;
};

struct MachineDef {
    std::vector<MachineParam> params;
    std::vector<SubMachine> machines;  // layers' machines and every nested one
    std::vector<MachineLayer> layers;  // layers[0] is the base layer

    int32_t findParam(std::string_view name) const;
    // Structural check (indices in range, types right, nesting a tree no deeper than
    // kMaxDepth, "exit" only in nested machines): an empty string, or what is wrong.
    std::string validate(size_t clipCount) const;
};

// ---------------------------------------------------------------------------------------
// Runtime

enum class TransitionWhy : uint8_t { Entry, Conditions, ExitTime, Exit };

struct TransitionLogEntry {
    double time = 0.0;        // controller time
    int16_t layer = 0;
    int32_t machine = -1;     // where it happened
    int32_t from = -1, to = -1;  // states of that machine (to: MachineTransition::kExit on exit)
    int32_t transition = -1;  // index in the machine's transitions (-1: entry)
    TransitionWhy why = TransitionWhy::Entry;
};

class StateMachine {
public:
    static constexpr int kMaxDepth = 8;
    static constexpr size_t kLogSize = 32;

    // Binds the definition to `controller` (made for the same model as the definition): adds
    // a blend space per blend state and a controller layer per non-base layer. Both must
    // outlive this object. Call start() (or update()) to enter the entry states.
    StateMachine(const MachineDef& def, Controller& controller);

    // False when the definition does not validate (MachineDef::validate): then nothing was
    // bound and start() / update() do nothing.
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    const MachineDef& def() const { return *def_; }
    Controller& controller() { return *controller_; }

    // --- Parameters (no allocation, no lookup; resolve names once with def().findParam) ----
    void setFloat(int32_t param, float value);
    void setBool(int32_t param, bool value);
    void setTrigger(int32_t param);   // pending until a transition consumes it
    void resetTrigger(int32_t param);
    float value(int32_t param) const;
    bool triggerPending(int32_t param) const { return value(param) != 0.0f; }
    void resetParameters();           // every parameter back to its initial value

    // --- Per tick ----------------------------------------------------------------------------
    // Enter every layer's entry state (at once, no fade). update() does it on its first call.
    void start();
    // controller.update(dt), then per layer at most one transition: the outermost machine
    // first, in each machine the transitions in their order; the first whose conditions all
    // hold (and whose exit time is reached, if it has one) fires. Blend parameters follow the
    // parameters every tick.
    //
    // Exit time e: the state's normalized time n = loops done + phase (of its clock; a
    // backward clock counts 1 - phase). e >= 1 holds once n >= e; e < 1 holds in every loop
    // from phase e on (and on the tick that jumps over it). A transition from a nested state
    // with an exit time holds once its machine has taken a transition to "exit".
    void update(double dt);

    // --- State ---------------------------------------------------------------------------------
    size_t layerCount() const { return layers_.size(); }
    // The active state at each nesting level of a layer: depth() levels, level 0 being the
    // layer's own machine.
    int depth(size_t layer) const { return layers_[layer].depth; }
    int32_t machineAt(size_t layer, int level) const { return layers_[layer].machine[level]; }
    int32_t stateAt(size_t layer, int level) const { return layers_[layer].state[level]; }
    // The innermost (playing) state of a layer, and its machine.
    // (-1 before start().)
    int32_t activeMachine(size_t layer) const { return layers_[layer].depth ? machineAt(layer, layers_[layer].depth - 1) : -1; }
    int32_t activeState(size_t layer) const { return layers_[layer].depth ? stateAt(layer, layers_[layer].depth - 1) : -1; }
    // After start() only.
    const MachineState& activeStateDef(size_t layer) const;
    // The active leaf state's normalized time (see update()).
    double normalizedTime(size_t layer) const { return layers_[layer].progress; }
    bool exited(size_t layer, int level) const { return layers_[layer].exited[level]; }
    // The controller layer a (non-base) layer drives; -1 for the base layer.
    int32_t controllerLayer(size_t layer) const { return layers_[layer].controllerLayer; }
    // The blend space id in the controller of a blend state (-1 for other kinds).
    int32_t blendSpaceOf(int32_t machine, int32_t state) const;
    // Transitions fired since start, oldest first, at most kLogSize (older ones dropped).
    size_t logCount() const { return logCount_ < kLogSize ? logCount_ : kLogSize; }
    const TransitionLogEntry& logEntry(size_t i) const;  // 0 = oldest kept
    uint64_t transitionsFired() const { return logCount_; }
    bool started() const { return started_; }

private:
    struct LayerRun {
        int32_t controllerLayer = -1;
        int depth = 0;
        std::array<int32_t, kMaxDepth> machine{}, state{};
        std::array<bool, kMaxDepth> exited{};
        double progress = 0.0;  // of the leaf, after the last update
        bool empty = true;      // the leaf is an Empty state (non-base layers: weight faded out)
    };

    // Enter state `s` of the machine at `level` (deeper levels dropped), then its nested
    // entry states down to a leaf, and start the leaf's motion with transition `t`'s fade
    // (null: at once).
    void enter(size_t layer, int level, int32_t s, const MachineTransition* t);
    void startLeaf(size_t layer, const MachineTransition* t);
    double leafProgress(size_t layer) const;
    const LayerClock* leafClock(size_t layer) const;
    bool holds(const MachineTransition& t, size_t layer, int level, double p0, double p1) const;
    void log(size_t layer, int32_t machine, int32_t from, int32_t to, int32_t transition, TransitionWhy why);

    const MachineDef* def_;
    Controller* controller_;
    std::vector<float> values_;                      // per parameter
    std::vector<std::vector<int32_t>> spaceOf_;      // per machine, per state: blend space id
    std::vector<LayerRun> layers_;
    std::array<TransitionLogEntry, kLogSize> log_{};
    uint64_t logCount_ = 0;
    bool started_ = false;
    std::string error_;
};

const char* transitionWhyName(TransitionWhy why);

}  // namespace rig
