// The viewer's playback pipeline (app/playback.h), without a window: on the bundled demo, a
// clip, a two-clip blend and the demo's state machine each play through Playback with the IK
// stage (foot lock on the left leg), a crowd and the range-of-motion sweep on. Pausing
// freezes all of them (pose bits, clocks, layer fades, crowd instance times, IK time, the
// sweep) over several frames; one frame of dt = 1 / sample rate moves each by exactly that
// frame. The state machine drives the pipeline's one controller, and the headless commands'
// tick (PlaybackTickJob) is the one the viewer runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "anim/control/clock.h"
#include "anim/control/playback_tick_job.h"
#include "app/playback.h"
#include "import/import.h"
#include "anim/control/machine_file.h"
#include "render/renderer.h"

namespace rig {
namespace {

const std::string kDemo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";

std::shared_ptr<const Model> demo() {
    static std::shared_ptr<const Model> model = [] {
        Result<Model> r = importModel(kDemo);
        EXPECT_TRUE(r.ok()) << r.error().message;
        return std::make_shared<const Model>(r.ok() ? std::move(r.value()) : Model{});
    }();
    return model;
}

// A ViewerState and its Playback, driven as Viewer::frame drives them: the requests posted
// since the last frame applied, then the one advance.
struct Pipeline {
    ViewerState s;
    Playback playback{s};

    explicit Pipeline(bool machine) {
        const std::shared_ptr<const Model> m = demo();
        s.model = m;
        s.animator = std::make_unique<Animator>(*m);
        s.joints = m->jointNodes();
        s.clip = m->findClip("walk");
        s.bounds = animatedBounds(*m, s.clip, 12);
        s.selectedJoint = m->skeleton.find("chest");
        playback.setModel(false, 0.0, LoopMode::Loop, 1.0f, machine ? machinePathBeside(kDemo) : "", false);
    }
    void frame(double dt) {
        playback.applyRequests();
        s.requests = ViewerRequests{};
        playback.advance(dt);
    }
    void frames(int n, double dt = 1.0 / 60.0) {
        for (int i = 0; i < n; ++i) frame(dt);
    }
    // Everything that moves with time switched on: foot lock on the left leg, a crowd of 8
    // with rates spread from 0.75 to 1.25, the range-of-motion sweep of the chest.
    void followersOn() {
        s.ik.enabled = true;
        s.ik.footLock = true;
        s.crowd.enabled = true;
        s.crowd.instances = 8;
        s.crowd.threads = 2;
        s.crowd.rateSpread = 0.5f;
        s.checks.rom = true;
    }
};

// What moves with time, read back after a frame.
struct Snapshot {
    double timelineTime = 0.0, controllerTime = 0.0, romTime = 0.0;
    float ikDt = -1.0f, lockWeight = -1.0f;
    bool locked = false;
    std::vector<glm::mat4> palette;
    std::vector<float> crowdTimes;
    std::vector<float> layerWeights, layerPhases;
    float fadeWeight = 1.0f;
};

Snapshot take(const Pipeline& p) {
    Snapshot s;
    const Controller& c = *p.playback.controller();
    s.timelineTime = c.timeline().time;
    s.controllerTime = c.time();
    s.romTime = p.s.checks.romTime;
    s.ikDt = p.s.ik.stage.dt();
    if (!p.s.ik.stage.twoBone().empty()) {
        s.lockWeight = p.s.ik.stage.twoBone()[0].lockWeight;
        s.locked = p.s.ik.stage.twoBone()[0].locked;
    }
    s.palette = p.s.animator->palette();
    if (const Crowd* crowd = p.playback.crowd()) {
        for (size_t i = 0; i < crowd->size(); ++i) s.crowdTimes.push_back(crowd->localTime(i));
    }
    for (size_t l = 0; l < c.layerCount(); ++l) {
        s.layerWeights.push_back(c.layerWeight(static_cast<int32_t>(l)));
        const LayerClock* k = c.layerClock(static_cast<int32_t>(l));
        s.layerPhases.push_back(k ? static_cast<float>(k->phase()) : 0.0f);
    }
    s.fadeWeight = c.fadeWeight();
    return s;
}

bool samePalette(const Snapshot& a, const Snapshot& b) {
    return a.palette.size() == b.palette.size() &&
           std::memcmp(a.palette.data(), b.palette.data(), a.palette.size() * sizeof(glm::mat4)) == 0;
}

// Pause: several frames of dt change nothing. Play, one frame of 1 / sample rate: every
// follower moves by exactly that frame.
void expectPauseFreezesAndOneFrameMovesEachByOneFrame(Pipeline& p) {
    ASSERT_NE(p.playback.crowd(), nullptr);
    ASSERT_FALSE(p.s.ik.stage.twoBone().empty()) << p.s.ik.status;
    ASSERT_EQ(p.s.animator->postProcess(), &p.s.ik.stage);
    const Snapshot before = take(p);
    p.s.requests.togglePlay = true;
    p.frame(1.0 / 60.0);
    ASSERT_TRUE(p.playback.paused());
    EXPECT_FALSE(p.s.timeline.playing);
    p.frames(5);
    const Snapshot paused = take(p);
    EXPECT_EQ(p.playback.lastStep(), 0.0);
    EXPECT_EQ(paused.timelineTime, before.timelineTime);
    EXPECT_EQ(paused.controllerTime, before.controllerTime);
    EXPECT_EQ(paused.romTime, before.romTime);
    EXPECT_EQ(paused.ikDt, 0.0f);
    EXPECT_EQ(paused.lockWeight, before.lockWeight);
    EXPECT_EQ(paused.locked, before.locked);
    EXPECT_EQ(paused.crowdTimes, before.crowdTimes);
    EXPECT_EQ(paused.layerWeights, before.layerWeights);
    EXPECT_EQ(paused.layerPhases, before.layerPhases);
    EXPECT_EQ(paused.fadeWeight, before.fadeWeight);
    EXPECT_TRUE(samePalette(paused, before)) << "the pose moved while paused";

    // Play again: one frame of the clip's frame length.
    p.s.requests.togglePlay = true;
    const double frame = 1.0 / p.s.timeline.sampleRate;
    p.frame(frame);
    ASSERT_FALSE(p.playback.paused());
    const Snapshot moved = take(p);
    EXPECT_EQ(p.playback.lastStep(), frame);
    EXPECT_DOUBLE_EQ(moved.controllerTime, before.controllerTime + frame);
    EXPECT_NEAR(moved.timelineTime - before.timelineTime, frame * p.s.timeline.rate, 1e-6);
    EXPECT_DOUBLE_EQ(moved.romTime, before.romTime + frame);
    EXPECT_EQ(moved.ikDt, static_cast<float>(frame));
    const Crowd& crowd = *p.playback.crowd();
    ASSERT_EQ(moved.crowdTimes.size(), before.crowdTimes.size());
    for (size_t i = 0; i < crowd.size(); ++i) {
        const Clip& clip = p.s.model->clips[crowd.clip(i)];
        const double length = clip.duration - clip.startTime;
        const double d = wrapTime(moved.crowdTimes[i] - before.crowdTimes[i], length);
        EXPECT_NEAR(d, crowd.rate(i) * frame * p.s.timeline.rate, 1e-5) << "instance " << i;
    }
    EXPECT_FALSE(samePalette(moved, before)) << "one frame did not move the pose";
}

TEST(Playback, AClipPausesAndStepsWithEverythingThatFollowsIt) {
    Pipeline p(false);
    p.followersOn();
    p.frames(20);
    ASSERT_EQ(p.s.timeline.clip, p.s.model->findClip("walk"));
    ASSERT_FALSE(p.s.blend.active);
    expectPauseFreezesAndOneFrameMovesEachByOneFrame(p);
}

TEST(Playback, ATwoClipBlendPausesAndStepsWithEverythingThatFollowsIt) {
    Pipeline p(false);
    p.followersOn();
    const Model& m = *p.s.model;
    p.s.requests.blend.start = true;
    p.frame(1.0 / 60.0);
    ASSERT_TRUE(p.s.blend.active);
    p.s.blend.blendA = m.findClip("walk");
    p.s.blend.blendB = m.findClip("idle");
    p.s.blend.blendParam = 0.4f;
    p.s.requests.blend.blend = true;
    p.frames(10);  // inside the 0.3 s cross-fade into the blend space
    ASSERT_TRUE(p.s.timeline.blendSpace);
    ASSERT_TRUE(p.playback.controller()->fading());
    // A mask layer fading in on the right arm too.
    p.s.selectedJoint = m.skeleton.find("shoulder.R");
    p.s.blend.maskClip = m.findClip("wave");
    p.s.requests.blend.mask = true;
    p.frames(3);
    expectPauseFreezesAndOneFrameMovesEachByOneFrame(p);
}

TEST(Playback, TheStateMachineDrivesTheOneControllerAndPausesAndStepsWithIt) {
    Pipeline p(true);
    ASSERT_NE(p.s.machine.runtime, nullptr) << p.s.machine.error;
    const Controller* before = p.playback.controller();
    p.s.requests.machine.drive = true;
    p.frame(1.0 / 60.0);
    ASSERT_TRUE(p.s.machine.active);
    // One controller: the machine's is the pipeline's, and the timeline's.
    EXPECT_EQ(p.s.machine.controller, p.playback.controller());
    EXPECT_EQ(p.s.timeline.driver, p.playback.controller());
    EXPECT_EQ(&p.playback.machine()->def(), &p.s.machine.runtime->def());
    EXPECT_NE(p.playback.controller(), before) << "the driver changed: the controller is made again";
    p.followersOn();
    const StateMachine& sm = *p.playback.machine();
    const int32_t speed = sm.def().findParam("speed"), waveArm = sm.def().findParam("waveArm");
    p.s.requests.machine.values = {{speed, 1.0f}};
    p.frames(60);
    ASSERT_EQ(sm.activeStateDef(0).name, "walk");
    // The arm layer's 0.3 s fade in, half way.
    p.s.requests.machine.values = {{waveArm, 1.0f}};
    p.frames(9);
    ASSERT_EQ(sm.activeStateDef(1).name, "wave");
    const float arm = p.playback.controller()->layerWeight(sm.controllerLayer(1));
    ASSERT_GT(arm, 0.0f);
    ASSERT_LT(arm, 1.0f);
    expectPauseFreezesAndOneFrameMovesEachByOneFrame(p);
    EXPECT_GT(p.playback.controller()->layerWeight(sm.controllerLayer(1)), arm);
    // A parameter set while paused takes no transition until the pipeline plays again.
    const uint64_t fired = sm.transitionsFired();
    p.s.requests.togglePlay = true;
    p.frame(1.0 / 60.0);
    p.s.requests.machine.values = {{speed, 0.0f}};
    p.frames(5);
    EXPECT_EQ(sm.transitionsFired(), fired) << "a paused machine took a transition";
    EXPECT_EQ(sm.activeStateDef(0).name, "walk");
    p.s.requests.togglePlay = true;
    p.frames(5);
    EXPECT_EQ(sm.transitionsFired(), fired + 1);
    EXPECT_EQ(sm.activeStateDef(0).name, "idle");
}

// Changing driver makes the one controller again: the machine keeps the parameters set before
// it drives, gives the timeline's clip back on Stop (the panel still shows it, not driving) and
// starts over from its defaults on Restart.
TEST(Playback, DriveStopAndRestartRemakeTheOneController) {
    Pipeline p(true);
    ASSERT_NE(p.playback.machine(), nullptr);
    const int32_t speed = p.playback.machine()->def().findParam("speed");
    p.s.requests.machine.values = {{speed, 1.5f}};
    p.frame(1.0 / 60.0);
    p.s.requests.machine.drive = true;
    p.frames(30);
    ASSERT_TRUE(p.s.machine.active);
    EXPECT_EQ(p.playback.machine()->value(speed), 1.5f);
    EXPECT_EQ(p.playback.machine()->activeStateDef(0).name, "walk");
    p.s.requests.machine.stop = true;
    p.frames(2);
    EXPECT_FALSE(p.s.machine.active);
    ASSERT_NE(p.s.machine.runtime, nullptr);
    EXPECT_EQ(p.s.machine.controller, p.playback.controller());
    EXPECT_EQ(p.s.timeline.clip, p.s.model->findClip("walk"));
    EXPECT_EQ(p.s.timeline.name, "walk");
    p.s.requests.machine.drive = true;
    p.frame(1.0 / 60.0);
    p.s.requests.machine.restart = true;
    p.frames(2);
    ASSERT_TRUE(p.s.machine.active);
    EXPECT_EQ(p.playback.machine()->value(speed), 0.0f);
    EXPECT_EQ(p.playback.machine()->activeStateDef(0).name, "idle");
}

// A frame step (the Timeline's > button) while paused moves the clock one frame on its frame
// grid, and the crowd with it; the pipeline stays paused.
TEST(Playback, AFrameStepMovesTheClockAndTheCrowdOneFrame) {
    Pipeline p(false);
    p.followersOn();
    p.frames(20);
    p.s.requests.togglePlay = true;
    p.frame(1.0 / 60.0);
    p.s.requests.step = 1;
    p.frame(1.0 / 60.0);  // onto the frame grid
    const Snapshot a = take(p);
    const int f = p.s.timeline.frame;
    p.s.requests.step = 1;
    p.frame(1.0 / 60.0);
    const Snapshot b = take(p);
    EXPECT_TRUE(p.playback.paused());
    EXPECT_EQ(p.s.timeline.frame, f + 1);
    EXPECT_NEAR(b.timelineTime - a.timelineTime, 1.0 / p.s.timeline.sampleRate, 1e-6);
    EXPECT_EQ(b.controllerTime, a.controllerTime);
    const Crowd& crowd = *p.playback.crowd();
    for (size_t i = 0; i < crowd.size(); ++i) {
        EXPECT_NEAR(b.crowdTimes[i] - a.crowdTimes[i], crowd.rate(i) / p.s.timeline.sampleRate, 1e-5) << "instance " << i;
    }
    EXPECT_FALSE(samePalette(a, b));
}

// The headless tick: a machine run through PlaybackTickJob poses as the StateMachine's own
// updates do, and a tick of 0 moves nothing.
TEST(Playback, TheTickJobIsTheMachinesUpdateAndAZeroTickMovesNothing) {
    const std::shared_ptr<const Model> m = demo();
    Result<MachineDef> def = loadMachineFile(machinePathBeside(kDemo), *m);
    ASSERT_TRUE(def.ok()) << def.error().message;
    Controller ca(*m), cb(*m);
    StateMachine a(def.value(), ca), b(def.value(), cb);
    Animator pa(*m), pb(*m);
    const int32_t speed = def->findParam("speed");
    a.setFloat(speed, 1.0f);
    b.setFloat(speed, 1.0f);
    PlaybackTickJob tick;
    tick.controller = &cb;
    tick.machine = &b;
    tick.animator = &pb;
    tick.dt = 1.0 / 60.0;
    for (int i = 0; i < 50; ++i) {
        a.update(1.0 / 60.0);
        ASSERT_TRUE(tick.run());
    }
    ca.evaluate(pa);
    EXPECT_EQ(std::memcmp(pa.palette().data(), pb.palette().data(), pa.palette().size() * sizeof(glm::mat4)), 0);
    const double t = cb.timeline().time;
    const uint64_t fired = b.transitionsFired();
    b.setFloat(speed, 0.0f);
    tick.dt = 0.0;
    ASSERT_TRUE(tick.run());
    EXPECT_EQ(cb.timeline().time, t);
    EXPECT_EQ(b.transitionsFired(), fired);
    // A machine bound to another controller does not validate.
    tick.controller = &ca;
    EXPECT_FALSE(tick.validate());
}

}  // namespace
}  // namespace rig
