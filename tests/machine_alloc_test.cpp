// The state machine's per-tick path allocates nothing: count calls to operator new around
// update() with parameters set between ticks, transitions firing (cross-fades, layer fades,
// a nested machine entered and left, triggers consumed, an additive layer cross-fading
// between two states, smooth and frozen) and the log wrapping around.
#include <gtest/gtest.h>

#include "anim/control/controller.h"
#include "anim/offline/clip_tools.h"
#include "anim/control/machine_file.h"
#include "anim/runtime/pose.h"
#include "anim/control/state_machine.h"
#include "support/alloc_counter.h"
#include "support/rigs.h"

namespace rig {
namespace {

TEST(PerTick, StateMachineAllocatesNothing) {
    Model m = testing::makeChain(30, 61);
    m.clips.push_back(trimClip(m.clips[0], 0.0f, 0.7f));
    m.clips.back().name = "short";
    m.clips.push_back(trimClip(m.clips[0], 0.0f, 0.0f));
    m.clips.back().name = "ref";
    Result<MachineDef> def = parseMachine(R"({
      "parameters": [{"name": "speed", "type": "float"}, {"name": "go", "type": "trigger"},
                     {"name": "arm", "type": "bool"}, {"name": "x", "type": "float"}],
      "states": [
        {"name": "idle", "clip": "anim"},
        {"name": "loco", "blend1d": {"param": "speed", "points": [{"clip": "anim", "at": 0}, {"clip": "short", "at": 1}]}},
        {"name": "nested", "machine": {"states": [{"name": "n1", "clip": "short"}, {"name": "n2", "clip": "anim"}],
          "transitions": [{"from": "n1", "to": "n2", "exitTime": 0.5}, {"from": "n2", "to": "exit", "when": [{"param": "go"}]}]}},
        {"name": "plane", "blend2d": {"params": ["speed", "x"], "points": [
          {"clip": "anim", "at": [0, 0]}, {"clip": "short", "at": [1, 0]}, {"clip": "anim", "at": [0, 1]}]}}
      ],
      "transitions": [
        {"from": "idle", "to": "loco", "when": [{"param": "speed", "op": ">", "value": 0.1}], "duration": 0.2, "curve": "smoothstep"},
        {"from": "loco", "to": "nested", "when": [{"param": "go"}], "duration": 0.3, "mode": "frozen"},
        {"from": "nested", "to": "plane", "exitTime": 1, "duration": 0.1, "curve": [0.2, 0, 0.4, 1]},
        {"from": "*", "to": "idle", "when": [{"param": "speed", "op": "<=", "value": 0.1}], "duration": 0.25}
      ],
      "layers": [
        {"name": "upper", "mask": ["joint10"], "states": [{"name": "off"}, {"name": "on", "clip": "short"}],
         "transitions": [{"from": "off", "to": "on", "when": [{"param": "arm", "value": true}], "duration": 0.2},
                         {"from": "on", "to": "off", "when": [{"param": "arm", "value": false}], "duration": 0.2}]},
        {"name": "add", "blend": "additive", "weight": 0.5,
         "states": [{"name": "on", "clip": "anim", "reference": "ref"}, {"name": "alt", "clip": "short", "reference": "ref"}],
         "transitions": [{"from": "on", "to": "alt", "when": [{"param": "x", "op": ">", "value": 0.3}], "duration": 0.2, "mode": "frozen"},
                         {"from": "alt", "to": "on", "when": [{"param": "x", "op": "<", "value": 0.1}], "duration": 0.3, "curve": "smoothstep"}]}
      ]})", m, "alloc.machine.json");
    ASSERT_TRUE(def.ok()) << def.error().message;
    Controller c(m);
    StateMachine sm(def.value(), c);
    ASSERT_TRUE(sm.ok()) << sm.error();
    Animator anim(m);
    const int32_t speed = def->findParam("speed"), go = def->findParam("go"), arm = def->findParam("arm"),
                  x = def->findParam("x");

    const long before = testing::allocations();
    for (int tick = 0; tick < 2000; ++tick) {
        const int phase = tick % 400;
        sm.setFloat(speed, phase < 40 ? 0.0f : 0.2f + 0.001f * static_cast<float>(phase));
        sm.setFloat(x, 0.002f * static_cast<float>(phase));
        sm.setBool(arm, (tick / 150) % 2 == 1);
        if (phase == 100 || phase == 250) sm.setTrigger(go);
        sm.update(1.0 / 60.0);
        ASSERT_TRUE(c.evaluate(anim));
    }
    EXPECT_EQ(testing::allocations() - before, 0);
    EXPECT_GT(sm.transitionsFired(), StateMachine::kLogSize);  // the log wrapped
    size_t additiveFades = 0;  // the additive layer's transitions between its two states
    for (size_t i = 0; i < sm.logCount(); ++i) additiveFades += sm.logEntry(i).layer == 2 && sm.logEntry(i).from >= 0;
    EXPECT_GT(additiveFades, 0u);
}

}  // namespace
}  // namespace rig
