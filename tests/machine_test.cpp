// The action state machine (anim/control/state_machine.h) and its file format (anim/control/machine_file.h):
// transitions on conditions and exit times at the tick they are due, cross-fade weights
// against hand-computed ease values, triggers consumed once, any-state transitions and
// priority, nested machines, masked and additive layers (and their cross-fades), line-numbered errors, the demo's
// machine, and `rigview pose --machine`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "anim/runtime/blend.h"
#include "anim/control/controller.h"
#include "anim/offline/clip_tools.h"
#include "anim/control/machine_file.h"
#include "anim/control/state_machine.h"
#include "import/import.h"
#include "support/rigs.h"
#include "support/run.h"

namespace rig {
namespace {

// A 6-joint chain ("joint0".."joint5") with clips: "anim" (1 s), "short" (the first half of
// it, 0.5 s), "slow" (anim resampled, 1 s) and "ref" (anim's first pose, 0 s).
Model rigModel() {
    Model m = testing::makeChain(6, 31);
    Clip a = trimClip(m.clips[0], 0.0f, 0.5f);
    a.name = "short";
    Clip b = resampleClip(m.clips[0], 10.0f);
    b.name = "slow";
    Clip r = trimClip(m.clips[0], 0.0f, 0.0f);
    r.name = "ref";
    m.clips.push_back(std::move(a));
    m.clips.push_back(std::move(b));
    m.clips.push_back(std::move(r));
    return m;
}

MachineDef parseOk(const std::string& text, const Model& m) {
    Result<MachineDef> r = parseMachine(text, m, "test.machine.json");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : MachineDef{};
}

std::string parseError(const std::string& text, const Model& m) {
    Result<MachineDef> r = parseMachine(text, m, "test.machine.json");
    EXPECT_FALSE(r.ok()) << "accepted:\n" << text;
    return r.ok() ? std::string() : r.error().message;
}

const std::string& stateName(const StateMachine& sm, size_t layer) {
    return sm.def().machines[sm.activeMachine(layer)].states[sm.activeState(layer)].name;
}

constexpr double kDt = 1.0 / 64.0;  // exact in binary: tick k is at k / 64 s

// ---------------------------------------------------------------------------------------

TEST(StateMachine, ConditionsFireOnTheTickTheyHold) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "speed", "type": "float", "min": 0, "max": 2}],
      "entry": "idle",
      "states": [{"name": "idle", "clip": "anim"}, {"name": "walk", "clip": 1}],
      "transitions": [
        {"from": "idle", "to": "walk", "when": [{"param": "speed", "op": ">", "value": 0.1}]},
        {"from": "walk", "to": "idle", "when": [{"param": "speed", "op": "<", "value": 0.1}]}
      ]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    ASSERT_TRUE(sm.ok()) << sm.error();
    const int32_t speed = def.findParam("speed");
    for (int i = 0; i < 5; ++i) sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "idle");
    EXPECT_EQ(c.currentMotion().index, 0);
    sm.setFloat(speed, 0.1f);  // not > 0.1
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "idle");
    sm.setFloat(speed, 0.5f);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "walk");
    EXPECT_EQ(c.currentMotion().kind, MotionSource::Kind::Clip);
    EXPECT_EQ(c.currentMotion().index, 1);
    ASSERT_EQ(sm.logCount(), 2u);  // entry, then idle -> walk
    EXPECT_EQ(sm.logEntry(0).why, TransitionWhy::Entry);
    EXPECT_EQ(sm.logEntry(1).why, TransitionWhy::Conditions);
    EXPECT_EQ(sm.logEntry(1).from, 0);
    EXPECT_EQ(sm.logEntry(1).to, 1);
    EXPECT_DOUBLE_EQ(sm.logEntry(1).time, 7 * kDt);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "walk");  // stays while speed holds
    sm.setFloat(speed, 0.0f);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "idle");
    EXPECT_EQ(sm.transitionsFired(), 3u);
}

TEST(StateMachine, ExitTimeFiresOnTheFirstTickAtOrPastIt) {
    const Model m = rigModel();
    for (const float e : {0.9f, 1.5f}) {
        const MachineDef def = parseOk(R"({
          "states": [{"name": "a", "clip": "anim"}, {"name": "b", "clip": "short"}],
          "transitions": [{"from": "a", "to": "b", "exitTime": )" + std::to_string(e) + "}]}", m);
        Controller c(m);
        StateMachine sm(def, c);
        // "anim" is 1 s long: normalized time after tick k is k / 64.
        const int due = static_cast<int>(std::ceil(e * 64.0));  // 58 for 0.9, 96 for 1.5
        for (int k = 1; k < due; ++k) {
            sm.update(kDt);
            ASSERT_EQ(stateName(sm, 0), "a") << "e " << e << " tick " << k;
        }
        sm.update(kDt);
        EXPECT_EQ(stateName(sm, 0), "b") << "e " << e;
        EXPECT_EQ(sm.logEntry(sm.logCount() - 1).why, TransitionWhy::ExitTime);
        EXPECT_DOUBLE_EQ(sm.logEntry(sm.logCount() - 1).time, due * kDt);
    }
}

TEST(StateMachine, ExitTimeWithAConditionWaitsForTheWindowOfTheLoop) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "go", "type": "trigger"}],
      "states": [{"name": "a", "clip": "anim"}, {"name": "b", "clip": "short"}],
      "transitions": [{"from": "a", "to": "b", "exitTime": 0.75, "when": [{"param": "go"}]}]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    for (int k = 0; k < 64 + 16; ++k) sm.update(kDt);  // second loop, phase 0.25
    sm.setTrigger(def.findParam("go"));
    for (int k = 0; k < 31; ++k) {  // up to phase 0.734
        sm.update(kDt);
        ASSERT_EQ(stateName(sm, 0), "a") << k;
    }
    EXPECT_TRUE(sm.triggerPending(def.findParam("go")));
    sm.update(kDt);  // phase 0.75 of the second loop
    EXPECT_EQ(stateName(sm, 0), "b");
    EXPECT_FALSE(sm.triggerPending(def.findParam("go")));
    EXPECT_DOUBLE_EQ(sm.logEntry(1).time, (64 + 16 + 32) * kDt);
}

TEST(StateMachine, CrossFadeWeightsFollowTheCurve) {
    const Model m = rigModel();
    // dt = 1/16 s; a 0.5 s fade: the incoming weight after n ticks is ease(n / 8).
    struct Case {
        const char* curve;
        double expected[7];  // at x = 1/8 .. 7/8
    };
    const Case cases[] = {
        // 3x^2 - 2x^3
        {"\"smoothstep\"", {0.04296875, 0.15625, 0.31640625, 0.5, 0.68359375, 0.84375, 0.95703125}},
        // 1 - (1 - x)^3
        {"\"cubic-out\"", {0.330078125, 0.578125, 0.755859375, 0.875, 0.947265625, 0.984375, 0.998046875}},
        {"\"linear\"", {0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875}},
    };
    for (const Case& cs : cases) {
        const MachineDef def = parseOk(std::string(R"({
          "parameters": [{"name": "go", "type": "bool"}],
          "states": [{"name": "a", "clip": "anim"}, {"name": "b", "clip": "slow"}],
          "transitions": [{"from": "a", "to": "b", "when": [{"param": "go", "value": true}],
                           "duration": 0.5, "curve": )") + cs.curve + "}]}", m);
        Controller c(m);
        StateMachine sm(def, c);
        sm.update(1.0 / 16.0);
        sm.setBool(def.findParam("go"), true);
        sm.update(1.0 / 16.0);
        ASSERT_EQ(stateName(sm, 0), "b");
        EXPECT_TRUE(c.fading());
        EXPECT_FLOAT_EQ(c.fadeWeight(), 0.0f) << cs.curve;
        for (int n = 1; n <= 7; ++n) {
            sm.update(1.0 / 16.0);
            EXPECT_NEAR(c.fadeWeight(), cs.expected[n - 1], 1e-6) << cs.curve << " n " << n;
        }
        sm.update(1.0 / 16.0);
        EXPECT_FALSE(c.fading());
        EXPECT_FLOAT_EQ(c.fadeWeight(), 1.0f);
    }
}

TEST(StateMachine, ATriggerFiresOneTransitionNotTwo) {
    const Model m = rigModel();
    // a -> b and b -> a on the same trigger; a second layer listens to it too.
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "go", "type": "trigger"}],
      "states": [{"name": "a", "clip": "anim"}, {"name": "b", "clip": "short"}],
      "transitions": [
        {"from": "a", "to": "b", "when": [{"param": "go"}]},
        {"from": "b", "to": "a", "when": [{"param": "go"}]}
      ],
      "layers": [{"name": "second", "states": [{"name": "off"}, {"name": "on", "clip": "slow"}],
                  "transitions": [{"from": "off", "to": "on", "when": [{"param": "go"}]}]}]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    const int32_t go = def.findParam("go");
    sm.update(kDt);
    sm.setTrigger(go);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "b");
    EXPECT_EQ(stateName(sm, 1), "off");  // the base layer consumed it
    EXPECT_FALSE(sm.triggerPending(go));
    for (int i = 0; i < 10; ++i) sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "b");  // not back to a
    EXPECT_EQ(sm.transitionsFired(), 3u);  // two entries and one transition
    sm.setTrigger(go);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "a");
    EXPECT_EQ(sm.transitionsFired(), 4u);
}

TEST(StateMachine, AnyStateTransitionsAndPriorityByOrder) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "speed", "type": "float"}, {"name": "hit", "type": "trigger"},
                     {"name": "up", "type": "bool"}],
      "states": [{"name": "a", "clip": "anim"}, {"name": "b", "clip": "short"},
                 {"name": "c", "clip": "slow"}, {"name": "hit", "clip": "short", "loop": "once"}],
      "transitions": [
        {"from": "*", "to": "hit", "when": [{"param": "hit"}]},
        {"from": "a", "to": "b", "when": [{"param": "speed", "op": ">", "value": 0.1}]},
        {"from": "a", "to": "c", "when": [{"param": "speed", "op": ">", "value": 0.05}]},
        {"from": "hit", "to": "a", "exitTime": 1.0},
        {"from": "*", "to": "c", "when": [{"param": "up", "op": "==", "value": true}]}
      ]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    sm.update(kDt);
    // Both a -> b and a -> c hold: the first listed wins.
    sm.setFloat(def.findParam("speed"), 0.2f);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "b");
    // From b (no transition of its own): the any-state one.
    sm.setTrigger(def.findParam("hit"));
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "hit");
    // A trigger while in hit: "any -> hit" does not re-enter hit, and the trigger waits.
    sm.setTrigger(def.findParam("hit"));
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "hit");
    EXPECT_TRUE(sm.triggerPending(def.findParam("hit")));
    sm.resetTrigger(def.findParam("hit"));
    // "short" (0.5 s) played once: back to a at its end (exit time 1), at tick 32 after entry.
    for (int k = 1; k < 31; ++k) sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "hit");
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "a");
    EXPECT_EQ(sm.logEntry(sm.logCount() - 1).why, TransitionWhy::ExitTime);
    // In a with speed 0.2 and up: a -> b is listed before any -> c.
    sm.setBool(def.findParam("up"), true);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "b");
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "c");
}

TEST(StateMachine, NestedMachineEntersAtItsEntryAndLeavesThroughExit) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "speed", "type": "float"}, {"name": "stop", "type": "trigger"},
                     {"name": "abort", "type": "bool"}],
      "states": [
        {"name": "idle", "clip": "anim"},
        {"name": "loco", "machine": {
          "entry": "walkA",
          "states": [{"name": "walkA", "clip": "slow"}, {"name": "walkB", "clip": "short"}],
          "transitions": [
            {"from": "walkA", "to": "walkB", "when": [{"param": "speed", "op": ">=", "value": 1}]},
            {"from": "walkB", "to": "exit", "when": [{"param": "stop"}]}
          ]}}
      ],
      "transitions": [
        {"from": "idle", "to": "loco", "when": [{"param": "speed", "op": ">", "value": 0.1}], "duration": 0.25},
        {"from": "loco", "to": "idle", "when": [{"param": "abort", "value": true}]},
        {"from": "loco", "to": "idle", "exitTime": 0}
      ]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    const int32_t speed = def.findParam("speed");
    sm.update(kDt);
    EXPECT_EQ(sm.depth(0), 1);
    sm.setFloat(speed, 0.5f);
    sm.update(kDt);
    ASSERT_EQ(sm.depth(0), 2);
    EXPECT_EQ(sm.def().machines[sm.machineAt(0, 0)].states[sm.stateAt(0, 0)].name, "loco");
    EXPECT_EQ(stateName(sm, 0), "walkA");
    EXPECT_EQ(c.currentMotion().index, m.findClip("slow"));
    EXPECT_TRUE(c.fading());  // the outer transition's fade
    sm.setFloat(speed, 1.0f);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "walkB");
    EXPECT_EQ(sm.depth(0), 2);
    // Exit: the inner machine leaves on this tick, the outer one takes it on the next.
    sm.setTrigger(def.findParam("stop"));
    sm.update(kDt);
    EXPECT_TRUE(sm.exited(0, 1));
    EXPECT_EQ(stateName(sm, 0), "walkB");
    EXPECT_EQ(sm.logEntry(sm.logCount() - 1).why, TransitionWhy::Exit);
    EXPECT_EQ(sm.logEntry(sm.logCount() - 1).to, MachineTransition::kExit);
    sm.update(kDt);
    EXPECT_EQ(sm.depth(0), 1);
    EXPECT_EQ(stateName(sm, 0), "idle");
    // Back in: at the entry state again, not exited.
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "walkA");
    EXPECT_FALSE(sm.exited(0, 1));
    // An outer transition interrupts the inner machine at any time (outer first).
    sm.setBool(def.findParam("abort"), true);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 0), "idle");
}

TEST(StateMachine, OverrideLayerWithAMaskFadesInAndPosesOnlyItsJoints) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "arm", "type": "bool"}],
      "states": [{"name": "base", "clip": "anim"}],
      "layers": [{"name": "upper", "weight": 1, "mask": ["joint3"],
                  "states": [{"name": "off"}, {"name": "on", "clip": "slow"}],
                  "transitions": [
                    {"from": "off", "to": "on", "when": [{"param": "arm", "value": true}], "duration": 0.25},
                    {"from": "on", "to": "off", "when": [{"param": "arm", "op": "!=", "value": true}], "duration": 0.25}
                  ]}]})", m);
    ASSERT_EQ(def.layers.size(), 2u);
    const std::vector<float>& mask = def.layers[1].mask.weights;
    ASSERT_EQ(mask.size(), 6u);
    for (int j = 0; j < 6; ++j) EXPECT_FLOAT_EQ(mask[j], j >= 3 ? 1.0f : 0.0f) << j;
    Controller c(m);
    StateMachine sm(def, c);
    const int32_t layer = sm.controllerLayer(1);
    ASSERT_GE(layer, 0);
    sm.update(1.0 / 16.0);
    EXPECT_FLOAT_EQ(c.layerWeight(layer), 0.0f);
    sm.setBool(def.findParam("arm"), true);
    sm.update(1.0 / 16.0);
    EXPECT_EQ(stateName(sm, 1), "on");
    sm.update(1.0 / 16.0);
    EXPECT_FLOAT_EQ(c.layerWeight(layer), 0.25f);  // linear over 0.25 s
    sm.update(1.0 / 16.0);
    sm.update(1.0 / 16.0);
    sm.update(1.0 / 16.0);
    EXPECT_FLOAT_EQ(c.layerWeight(layer), 1.0f);
    // Full weight: joints 3..5 from "slow" at the layer's time, 0..2 from "anim" at the base's.
    c.computePose();
    const Skeleton& sk = m.skeleton;
    Pose base(sk.size()), over(sk.size());
    std::vector<uint32_t> cur0(3 * m.clips[0].tracks.size()), cur2(3 * m.clips[2].tracks.size());
    samplePose(m.clips[0], static_cast<float>(c.clock().time()), sk, cur0.data(), base);
    samplePose(m.clips[2], static_cast<float>(c.layerClock(layer)->time()), sk, cur2.data(), over);
    for (int j = 0; j < 6; ++j) {
        const Transform& want = j >= 3 ? over[j] : base[j];
        const Transform& got = c.pose()[j];
        EXPECT_NEAR(glm::length(got.translation - want.translation), 0.0f, 1e-5f) << j;
        EXPECT_NEAR(std::fabs(glm::dot(got.rotation, want.rotation)), 1.0f, 1e-5f) << j;
    }
    EXPECT_GT(glm::length(base[4].translation - over[4].translation) +
                  (1.0f - std::fabs(glm::dot(base[4].rotation, over[4].rotation))), 1e-4f)
        << "the two clips should differ at this time for the test to mean something";
    sm.setBool(def.findParam("arm"), false);
    sm.update(1.0 / 16.0);
    EXPECT_EQ(stateName(sm, 1), "off");
    for (int i = 0; i < 4; ++i) sm.update(1.0 / 16.0);
    EXPECT_FLOAT_EQ(c.layerWeight(layer), 0.0f);
}

// A layer's transition between two playing states cross-fades inside the layer with the
// transition's duration and curve (as the base layer's transitions do), not at once.
TEST(StateMachine, OverrideLayerCrossFadesBetweenItsStates) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "alt", "type": "bool"}],
      "states": [{"name": "base", "clip": "anim"}],
      "layers": [{"name": "upper", "weight": 1, "mask": ["joint3"],
                  "states": [{"name": "a", "clip": "slow"}, {"name": "b", "clip": "short"}],
                  "transitions": [
                    {"from": "a", "to": "b", "when": [{"param": "alt", "value": true}], "duration": 0.5,
                     "curve": "cubic-in"}
                  ]}]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    const int32_t layer = sm.controllerLayer(1);
    ASSERT_GE(layer, 0);
    sm.update(kDt);
    EXPECT_EQ(stateName(sm, 1), "a");
    EXPECT_EQ(c.layerFadeWeight(layer), 1.0f);
    sm.setBool(def.findParam("alt"), true);
    sm.update(kDt);
    ASSERT_EQ(stateName(sm, 1), "b");
    // The fade's progress x advances by one tick per update; its weight is x^3 (cubic-in),
    // whichever tick the transition started on.
    float prevX = -1.0f;
    for (int i = 0; i < 8; ++i) {
        sm.update(kDt);
        const float w = c.layerFadeWeight(layer);
        ASSERT_GT(w, 0.0f);
        ASSERT_LT(w, 1.0f);
        const float x = std::cbrt(w);
        if (prevX >= 0.0f) EXPECT_NEAR(x - prevX, static_cast<float>(kDt / 0.5), 1e-5f) << "tick " << i;
        prevX = x;
    }
    for (int i = 0; i < 40; ++i) sm.update(kDt);  // past the half-second fade
    EXPECT_EQ(c.layerFadeWeight(layer), 1.0f);
}

TEST(StateMachine, AdditiveStateAddsTheDifferenceOfItsClips) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "add", "type": "bool", "default": true}],
      "states": [{"name": "base", "clip": "slow"}],
      "layers": [{"name": "breathe", "blend": "additive", "weight": 0.5,
                  "states": [{"name": "off"}, {"name": "on", "clip": "anim", "reference": "ref"}],
                  "transitions": [{"from": "off", "to": "on", "when": [{"param": "add", "value": true}]}]}]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    const int32_t layer = sm.controllerLayer(1);
    for (int i = 0; i < 10; ++i) sm.update(kDt);
    EXPECT_EQ(stateName(sm, 1), "on");
    EXPECT_FLOAT_EQ(c.layerWeight(layer), 0.5f);
    c.computePose();
    // By hand: base "slow" at its time, plus half of (anim at the layer's time - ref).
    const Skeleton& sk = m.skeleton;
    Pose base(sk.size()), src(sk.size()), ref(sk.size());
    std::vector<uint32_t> cu(3 * 64, 0);
    samplePose(m.clips[2], static_cast<float>(c.clock().time()), sk, cu.data(), base);
    std::fill(cu.begin(), cu.end(), 0u);
    samplePose(m.clips[0], static_cast<float>(c.layerClock(layer)->time()), sk, cu.data(), src);
    std::fill(cu.begin(), cu.end(), 0u);
    samplePose(m.clips[3], 0.0f, sk, cu.data(), ref);
    for (size_t j = 0; j < sk.size(); ++j) {
        // Translation: base + 0.5 (src - ref); rotation: slerp(1, qs qr^-1, 0.5) qbase.
        const glm::vec3 t = base[j].translation + 0.5f * (src[j].translation - ref[j].translation);
        const glm::quat d = src[j].rotation * glm::inverse(ref[j].rotation);
        const glm::quat q = glm::slerp(glm::quat(1, 0, 0, 0), d.w < 0 ? -d : d, 0.5f) * base[j].rotation;
        EXPECT_NEAR(glm::length(c.pose()[j].translation - t), 0.0f, 1e-5f) << j;
        EXPECT_NEAR(std::fabs(glm::dot(c.pose()[j].rotation, q)), 1.0f, 1e-5f) << j;
    }
}

// Two additive states on joint2 of a 4-joint chain, over a base holding joint2 at 45 degrees
// about Z. "lift" - "liftRef" turns joint2 0 -> 60 degrees about X and moves it 0 -> 0.4
// along X over 1 s (so at clip time t: 60 t degrees, (0.4 t, 0, 0)); "twist" - "twistRef"
// is 50 - 10 = 40 degrees about X and (0, 1.3, 0.2) - (0, 1.1, 0) = (0, 0.2, 0.2).
namespace additive_fade {

constexpr float kLiftDeg = 60.0f, kLiftX = 0.4f, kTwistDeg = 50.0f, kTwistRefDeg = 10.0f, kBaseDeg = 45.0f;
const glm::vec3 kBind(0.0f, 1.0f, 0.0f);  // joint2's bind translation
const glm::vec3 kTwistT(0.0f, 1.3f, 0.2f), kTwistRefT(0.0f, 1.1f, 0.0f);

glm::quat rotAbout(float deg, glm::vec3 axis) { return glm::angleAxis(glm::radians(deg), axis); }
glm::quat rotX(float deg) { return rotAbout(deg, glm::vec3(1, 0, 0)); }

// A 1 s clip animating joint 2 of a 4-joint chain only: rotation q0 -> q1, translation
// t0 -> t1, keys at 0 and 1 s.
Clip joint2Clip(const std::string& name, glm::quat q0, glm::quat q1, glm::vec3 t0, glm::vec3 t1) {
    Clip c;
    c.name = name;
    c.ticksPerSecond = 1.0;
    c.trackOfNode.assign(4, -1);
    const float times[2] = {0.0f, 1.0f};
    const uint32_t ti = c.addTimes(times, 2);
    Track tr;
    tr.node = 2;
    tr.rotation = {ti, static_cast<uint32_t>(c.quatKeys.size()), 2};
    c.quatKeys.push_back(q0);
    c.quatKeys.push_back(q1);
    tr.translation = {ti, static_cast<uint32_t>(c.vec3Keys.size()), 2};
    c.vec3Keys.push_back(t0);
    c.vec3Keys.push_back(t1);
    c.trackOfNode[2] = 0;
    c.tracks.push_back(tr);
    c.duration = 1.0f;
    c.sampleRate = 30.0f;
    return c;
}

Model model() {
    Model m = testing::makeChain(4, 0);
    const glm::quat hold = rotAbout(kBaseDeg, glm::vec3(0, 0, 1));
    m.clips.push_back(joint2Clip("hold", hold, hold, kBind, kBind));
    m.clips.push_back(joint2Clip("lift", rotX(0), rotX(kLiftDeg), kBind, kBind + glm::vec3(kLiftX, 0, 0)));
    m.clips.push_back(joint2Clip("liftRef", rotX(0), rotX(0), kBind, kBind));
    m.clips.push_back(joint2Clip("twist", rotX(kTwistDeg), rotX(kTwistDeg), kTwistT, kTwistT));
    m.clips.push_back(joint2Clip("twistRef", rotX(kTwistRefDeg), rotX(kTwistRefDeg), kTwistRefT, kTwistRefT));
    return m;
}

std::string machine(const std::string& weight, const std::string& mode) {
    return R"({
      "parameters": [{"name": "alt", "type": "bool"}],
      "states": [{"name": "base", "clip": "hold"}],
      "layers": [{"name": "add", "blend": "additive", "weight": )" + weight + R"(,
                  "states": [{"name": "a", "clip": "lift", "reference": "liftRef"},
                             {"name": "b", "clip": "twist", "reference": "twistRef"}],
                  "transitions": [{"from": "a", "to": "b", "when": [{"param": "alt", "value": true}],
                                   "duration": 0.5, "curve": "linear", "mode": ")" + mode + R"("}]}]})";
}

// Angle between two rotations (radians), whatever the quaternions' signs.
double gap(const glm::quat& a, const glm::quat& b) {
    const glm::dvec4 da(a.x, a.y, a.z, a.w), db(b.x, b.y, b.z, b.w);
    return 4.0 * std::asin(std::min(1.0, std::min(glm::length(da - db), glm::length(da + db)) / 2.0));
}

// The pose is the base with `deg` about X and `t` added on joint2, every other joint at bind.
void expectAdded(const Controller& c, const Model& m, float deg, glm::vec3 t, const std::string& what) {
    const Pose& p = c.pose();
    for (size_t j = 0; j < p.size(); ++j) {
        if (j == 2) continue;
        EXPECT_LT(glm::length(p[j].translation - m.skeleton.bindLocalSqt[j].translation), 1e-6f) << what << " joint " << j;
        EXPECT_LT(gap(p[j].rotation, m.skeleton.bindLocalSqt[j].rotation), 1e-6) << what << " joint " << j;
    }
    // What the layer added: pose x base^-1, and the translation above the base's.
    const glm::quat added = p[2].rotation * glm::inverse(rotAbout(kBaseDeg, glm::vec3(0, 0, 1)));
    EXPECT_LT(gap(added, rotX(deg)), 1e-4) << what << ": expected " << deg << " degrees about X";
    EXPECT_LT(glm::length(p[2].translation - kBind - t), 1e-5f) << what;
}

}  // namespace additive_fade

// An additive layer's transition between two playing states cross-fades the two differences
// (linear over 0.5 s here): A's result at its start, B's at its end, half of each at its
// midpoint; with "frozen" A's clock stops where the transition began.
TEST(StateMachine, AdditiveLayerCrossFadesBetweenItsStates) {
    using namespace additive_fade;
    const Model m = model();
    for (const std::string mode : {"smooth", "frozen"}) {
        SCOPED_TRACE(mode);
        const MachineDef def = parseOk(machine("1", mode), m);
        Controller c(m);
        StateMachine sm(def, c);
        ASSERT_TRUE(sm.ok()) << sm.error();
        const int32_t layer = sm.controllerLayer(1);
        for (int i = 0; i < 16; ++i) sm.update(kDt);  // A from time 0: at 0.25 s
        ASSERT_EQ(stateName(sm, 1), "a");
        c.computePose();
        expectAdded(c, m, kLiftDeg * 0.25f, {kLiftX * 0.25f, 0, 0}, "A alone");

        sm.setBool(def.findParam("alt"), true);
        sm.update(kDt);
        ASSERT_EQ(stateName(sm, 1), "b");
        const float t0 = static_cast<float>(c.time());  // A's clip time when the transition fired
        EXPECT_FLOAT_EQ(t0, 17.0f / 64.0f);
        EXPECT_EQ(c.layerFadeWeight(layer), 0.0f);
        c.computePose();
        expectAdded(c, m, kLiftDeg * t0, {kLiftX * t0, 0, 0}, "start");

        for (int i = 0; i < 16; ++i) sm.update(kDt);  // 0.25 of 0.5 s: w = 0.5
        EXPECT_FLOAT_EQ(c.layerFadeWeight(layer), 0.5f);
        const float ta = mode == "smooth" ? static_cast<float>(c.time()) : t0;  // frozen: A held
        const float aDeg = kLiftDeg * ta, bDeg = kTwistDeg - kTwistRefDeg;
        const glm::vec3 aT(kLiftX * ta, 0, 0), bT = kTwistT - kTwistRefT;
        c.computePose();
        expectAdded(c, m, 0.5f * aDeg + 0.5f * bDeg, 0.5f * aT + 0.5f * bT, "midpoint");

        for (int i = 0; i < 16; ++i) sm.update(kDt);  // the fade's end
        EXPECT_EQ(c.layerFadeWeight(layer), 1.0f);
        c.computePose();
        expectAdded(c, m, bDeg, bT, "end");
    }
}

// A layer of weight 0 changes nothing, before, during and after such a transition.
TEST(StateMachine, AdditiveLayerOfWeightZeroChangesNothing) {
    using namespace additive_fade;
    const Model m = model();
    const MachineDef def = parseOk(machine("0", "smooth"), m);
    Controller c(m);
    StateMachine sm(def, c);
    ASSERT_TRUE(sm.ok()) << sm.error();
    bool faded = false;
    for (int i = 0; i < 64; ++i) {
        if (i == 16) sm.setBool(def.findParam("alt"), true);
        sm.update(kDt);
        const float w = c.layerFadeWeight(sm.controllerLayer(1));
        faded = faded || (w > 0.0f && w < 1.0f);
        c.computePose();
        expectAdded(c, m, 0.0f, glm::vec3(0.0f), "tick " + std::to_string(i));
    }
    EXPECT_TRUE(faded) << "the transition should have cross-faded for the test to mean something";
    EXPECT_EQ(stateName(sm, 1), "b");
}

TEST(StateMachine, BlendSpaceStateFollowsItsParameter) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "speed", "type": "float", "default": 0.25, "max": 2},
                     {"name": "x", "type": "float"}, {"name": "y", "type": "float"}],
      "states": [
        {"name": "loco", "blend1d": {"param": "speed", "points": [{"clip": "anim", "at": 0}, {"clip": "slow", "at": 1}]}},
        {"name": "plane", "blend2d": {"params": ["x", "y"], "points": [
          {"clip": "anim", "at": [0, 0]}, {"clip": "slow", "at": [1, 0]}, {"clip": "short", "at": [0, 1]}]}}
      ]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    sm.update(kDt);
    const int32_t space = sm.blendSpaceOf(sm.activeMachine(0), 0);
    ASSERT_GE(space, 0);
    EXPECT_EQ(c.currentMotion().kind, MotionSource::Kind::BlendSpace);
    EXPECT_FLOAT_EQ(c.blendWeights(space)[0], 0.75f);
    EXPECT_FLOAT_EQ(c.blendWeights(space)[1], 0.25f);
    sm.setFloat(def.findParam("speed"), 0.6f);
    sm.update(kDt);
    EXPECT_NEAR(c.blendWeights(space)[1], 0.6f, 1e-6f);
    const int32_t plane = sm.blendSpaceOf(sm.activeMachine(0), 1);
    sm.setFloat(def.findParam("x"), 0.25f);
    sm.setFloat(def.findParam("y"), 0.5f);
    sm.update(kDt);
    EXPECT_NEAR(c.blendWeights(plane)[0], 0.25f, 1e-5f);
    EXPECT_NEAR(c.blendWeights(plane)[1], 0.25f, 1e-5f);
    EXPECT_NEAR(c.blendWeights(plane)[2], 0.5f, 1e-5f);
}

TEST(StateMachine, TheLogKeepsTheLastEntriesInOrder) {
    const Model m = rigModel();
    const MachineDef def = parseOk(R"({
      "parameters": [{"name": "go", "type": "trigger"}],
      "states": [{"name": "a", "clip": "anim"}, {"name": "b", "clip": "short"}],
      "transitions": [{"from": "a", "to": "b", "when": [{"param": "go"}]},
                      {"from": "b", "to": "a", "when": [{"param": "go"}]}]})", m);
    Controller c(m);
    StateMachine sm(def, c);
    for (int i = 0; i < 100; ++i) {
        sm.setTrigger(def.findParam("go"));
        sm.update(kDt);
    }
    EXPECT_EQ(sm.transitionsFired(), 101u);  // the first update enters and fires, then one per update
    ASSERT_EQ(sm.logCount(), StateMachine::kLogSize);
    for (size_t i = 1; i < sm.logCount(); ++i) EXPECT_LT(sm.logEntry(i - 1).time, sm.logEntry(i).time);
    EXPECT_DOUBLE_EQ(sm.logEntry(sm.logCount() - 1).time, 100 * kDt);
}

TEST(StateMachine, AHandBuiltDefinitionThatDoesNotValidateBindsNothing) {
    const Model m = rigModel();
    MachineDef def;
    def.machines.push_back(SubMachine{"base", 0, {MachineState{"a", StateKind::Clip, 99}}, {}, -1});
    def.layers.push_back(MachineLayer{"base", true, LayerBlend::Override, 1.0f, {}, 0});
    Controller c(m);
    StateMachine sm(def, c);
    EXPECT_FALSE(sm.ok());
    EXPECT_NE(sm.error().find("bad clip"), std::string::npos) << sm.error();
    sm.update(kDt);
    EXPECT_EQ(sm.layerCount(), 0u);
    EXPECT_EQ(c.currentMotion().kind, MotionSource::Kind::None);
}

// ---------------------------------------------------------------------------------------
// Errors with their lines

TEST(MachineFile, SyntaxErrorNamesItsLineAndColumn) {
    const Model m = rigModel();
    // The column is the last character read: the end of the unexpected token.
    const std::string e = parseError("{\n  \"states\": [\n    {\"name\": \"a\" \"clip\": \"anim\"}\n  ]\n}\n", m);
    EXPECT_EQ(e.rfind("test.machine.json:3:23: syntax error", 0), 0u) << e;
    const std::string e2 = parseError("{\n  \"states\": [\n", m);
    EXPECT_EQ(e2.rfind("test.machine.json:3:", 0), 0u) << e2;
    // A number JSON can write but a double cannot hold: nlohmann's out_of_range, at its line.
    const std::string e3 = parseError("{\n \"states\": [{\"name\": \"a\",\n  \"rate\": 1e999}]\n}", m);
    EXPECT_EQ(e3.rfind("test.machine.json:3:", 0), 0u) << e3;
    EXPECT_NE(e3.find("number overflow"), std::string::npos) << e3;
    // Names from the file stay on one line in messages.
    const std::string e4 = parseError("{\"states\": [{\"name\": \"a\", \"cl\\nip\": 0}]}", m);
    EXPECT_EQ(e4.find('\n'), std::string::npos) << e4;
    EXPECT_NE(e4.find("unknown field 'cl\\x0Aip'"), std::string::npos) << e4;
}

// Nesting is capped at kMaxJsonDepth (64) levels before parsing; brackets inside strings
// do not count, and a file exactly at the cap parses on (to its first semantic error).
TEST(MachineFile, NestingDeeperThanTheCapIsRefusedWhereItStarts) {
    const Model m = rigModel();
    // Level 1 is the root object, levels 2.. the arrays of "states".
    auto nested = [](int arrays) { return "{\"_c\": \"[[[[{{\",\n \"states\": " + std::string(arrays, '[') + std::string(arrays, ']') + "}"; };
    EXPECT_EQ(parseError(nested(64), m), "test.machine.json:2:75: nested more than 64 deep");
    EXPECT_EQ(parseError(nested(63), m).find("nested"), std::string::npos);
    // Duplicate and unknown names are found through maps: many states and transitions stay fast.
    std::string many = "{\"states\": [";
    for (int i = 0; i < 20000; ++i) many += std::string(i ? "," : "") + "{\"name\": \"s" + std::to_string(i) + "\", \"clip\": \"anim\"}";
    many += "], \"transitions\": [";
    for (int i = 0; i < 20000; ++i) many += std::string(i ? "," : "") + "{\"from\": \"s" + std::to_string(i) + "\", \"to\": \"s0\", \"exitTime\": 1}";
    many += "]}";
    EXPECT_EQ(parseOk(many, m).machines[0].transitions.size(), 20000u);
}

TEST(MachineFile, SemanticErrorsNameTheLineOfTheField) {
    const Model m = rigModel();
    struct Case {
        std::string text;
        std::string prefix;  // expected start of the message
    };
    const Case cases[] = {
        {"{\n \"states\": [\n  {\"name\": \"a\",\n   \"clip\": \"nope\"}\n ]\n}",
         "test.machine.json:4: unknown clip 'nope' (the model has: anim, short, slow, ref)"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 7}]\n}", "test.machine.json:2: clip index 7 out of range"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n \"transitions\": [\n  {\"to\": \"a\", \"exitTime\": 1}\n ]\n}",
         "test.machine.json:4: a transition has no 'from'"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0},\n  {\"name\": \"a\", \"clip\": 1}]\n}",
         "test.machine.json:3: duplicate state 'a'"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n \"transitions\": [{\"from\": \"a\",\n   \"to\": \"b\", \"exitTime\": 1}]\n}",
         "test.machine.json:4: unknown state 'b' in machine 'base'"},
        {"{\n \"parameters\": [{\"name\": \"s\", \"type\": \"float\"}],\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n"
         " \"transitions\": [{\"from\": \"a\", \"to\": \"a\",\n  \"when\": [{\"param\": \"t\", \"op\": \">\", \"value\": 1}]}]\n}",
         "test.machine.json:5: unknown parameter 't'"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n \"transitions\": [{\"from\": \"a\", \"to\": \"a\",\n"
         "  \"exitTime\": 1,\n  \"duration\": \"long\"}]\n}",
         "test.machine.json:5: 'duration' must be a number"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n \"transitions\": [{\"from\": \"a\", \"to\": \"exit\", \"exitTime\": 1}]\n}",
         "test.machine.json:3: 'exit' leaves a nested machine"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n \"transitions\": [\n  {\"from\": \"a\", \"to\": \"a\"}\n ]\n}",
         "test.machine.json:4: a transition needs conditions"},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0,\n   \"speed\": 2}]\n}", "test.machine.json:3: unknown field 'speed'"},
        {"{\n \"parameters\": [{\"name\": \"b\", \"type\": \"bool\"}],\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n"
         " \"transitions\": [{\"from\": \"a\", \"to\": \"a\", \"when\": [\n   {\"param\": \"b\", \"op\": \">\", \"value\": true}]}]\n}",
         "test.machine.json:5: bool 'b' compares with == or !="},
        {"{\n \"states\": [{\"name\": \"a\", \"clip\": 0}],\n \"layers\": [{\"name\": \"l\",\n  \"mask\": [\"joint1\",\n"
         "    \"hand\"], \"states\": [{\"name\": \"x\"}]}]\n}",
         "test.machine.json:5: unknown joint 'hand'"},
        {"{\n \"states\": []\n}", "test.machine.json:2: a machine needs at least one state"},
        {"[1, 2]", "test.machine.json:1: the file must be an object"},
        {"{\n \"parameters\": [{\"name\": \"s\", \"type\": \"float\"},\n  {\"name\": \"s\", \"type\": \"bool\"}],\n"
         " \"states\": [{\"name\": \"a\"}]\n}",
         "test.machine.json:3: duplicate parameter 's'"},
    };
    for (const Case& cs : cases) {
        const std::string e = parseError(cs.text, m);
        EXPECT_EQ(e.rfind(cs.prefix, 0), 0u) << "got:      " << e << "\nexpected: " << cs.prefix;
    }
}

// ---------------------------------------------------------------------------------------
// The demo's machine, and the command line

const std::string kDemo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";

TEST(DemoMachine, LoadsBesideTheDemoAndGoesIdleWalkIdleWaveIdle) {
    Result<Model> r = importModel(kDemo);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = r.value();
    EXPECT_EQ(machinePathBeside(kDemo), std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.machine.json");
    Result<MachineDef> d = loadMachineFile(machinePathBeside(kDemo), m);
    ASSERT_TRUE(d.ok()) << d.error().message;
    const MachineDef& def = d.value();
    Controller c(m);
    StateMachine sm(def, c);
    ASSERT_TRUE(sm.ok()) << sm.error();
    const int32_t speed = def.findParam("speed"), wave = def.findParam("wave");
    ASSERT_GE(speed, 0);
    ASSERT_GE(wave, 0);
    const double dt = 1.0 / 60.0;
    auto run = [&](double seconds) {
        for (int i = 0; i < static_cast<int>(seconds * 60.0 + 0.5); ++i) sm.update(dt);
    };
    auto playing = [&] { return m.clips[c.currentMotion().index].name; };
    run(0.5);
    EXPECT_EQ(stateName(sm, 0), "idle");
    EXPECT_EQ(playing(), "idle");
    sm.setFloat(speed, 1.0f);
    run(0.5);
    EXPECT_EQ(stateName(sm, 0), "walk");
    sm.setFloat(speed, 0.0f);
    run(0.5);
    EXPECT_EQ(stateName(sm, 0), "idle");
    sm.setTrigger(wave);
    sm.update(dt);
    EXPECT_EQ(stateName(sm, 0), "wave");
    EXPECT_EQ(playing(), "wave");
    // "wave" is 2 s long; it returns to idle at its exit time 0.95 (1.9 s).
    run(1.8);
    EXPECT_EQ(stateName(sm, 0), "wave");
    run(0.2);
    EXPECT_EQ(stateName(sm, 0), "idle");
    std::vector<std::string> seen;
    for (size_t i = 0; i < sm.logCount(); ++i) {
        const TransitionLogEntry& e = sm.logEntry(i);
        if (e.layer == 0) seen.push_back(def.machines[e.machine].states[e.to].name);
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"idle", "walk", "idle", "wave", "idle"}));
}

TEST(MachineCli, PoseRunsTheMachineAndABadFileExitsWithTheLine) {
    const std::string dir = testing::tempDir();
    const std::string out = dir + "/pose.json";
    // Walking after 1 s with speed 1: the same joints as the machine run here by hand.
    testing::RunResult r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--machine", machinePathBeside(kDemo), "--set",
                                                      "speed=1", "--time", "1", "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(out);
    const nlohmann::json pose = nlohmann::json::parse(in);
    EXPECT_EQ(pose["clip"], "walk");
    {
        Result<Model> model = importModel(kDemo);
        ASSERT_TRUE(model.ok());
        Result<MachineDef> def = loadMachineFile(machinePathBeside(kDemo), model.value());
        ASSERT_TRUE(def.ok());
        Controller c(model.value());
        StateMachine sm(def.value(), c);
        sm.setFloat(def->findParam("speed"), 1.0f);
        sm.start();
        for (int i = 0; i < 60; ++i) sm.update(1.0 / 60.0);
        Animator anim(model.value());
        c.evaluate(anim);
        const std::vector<int32_t> joints = model->jointNodes();
        ASSERT_EQ(pose["joints"].size(), joints.size());
        for (size_t j = 0; j < joints.size(); ++j) {
            const glm::mat4& w = anim.world()[joints[j]];
            for (int k = 0; k < 16; ++k) {
                EXPECT_NEAR(pose["joints"][j]["world"][k].get<double>(), w[k / 4][k % 4], 2e-5) << j;
            }
        }
    }

    const std::string bad = dir + "/bad.machine.json";
    {
        std::ofstream f(bad);
        f << "{\n  \"states\": [\n    {\"name\": \"idle\", \"clip\": \"dance\"}\n  ]\n}\n";
    }
    r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--machine", bad, "--time", "1", "-o", out});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.err.rfind("rigview: " + bad + ":3: unknown clip 'dance'", 0), 0u) << r.err;
    {
        std::ofstream f(bad);
        f << "{\n  \"states\": [\n    {\"name\": \"idle\",, \"clip\": \"idle\"}\n  ]\n}\n";
    }
    r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--machine", bad, "--time", "1", "-o", out});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.err.rfind("rigview: " + bad + ":3:21: syntax error", 0), 0u) << r.err;
    // --set names a parameter of the machine, with a value of its type.
    r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--machine", machinePathBeside(kDemo), "--set", "sped=1", "-o", out});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no parameter 'sped'"), std::string::npos) << r.err;
    r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--set", "speed=1", "-o", out});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--machine", machinePathBeside(kDemo), "--clip", "walk", "-o", out});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    // render: the same options; a bad machine is refused before any GL is made.
    r = testing::run(RIGVIEW_EXE, {"render", kDemo, "--machine", bad, "-o", dir + "/bad.png"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.err.rfind("rigview: " + bad + ":3:21: syntax error", 0), 0u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/bad.png"));
    r = testing::run(RIGVIEW_EXE, {"render", kDemo, "--machine", machinePathBeside(kDemo), "--set", "waveArm=true",
                                   "--time", "1", "--size", "64x64", "-o", dir + "/good.png"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir + "/good.png"));
    r = testing::run(RIGVIEW_EXE, {"pose", kDemo, "--machine", dir + "/missing.machine.json", "-o", out});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.err, "rigview: " + dir + "/missing.machine.json: no such file\n");
}

}  // namespace
}  // namespace rig
