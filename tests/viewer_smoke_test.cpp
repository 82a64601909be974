// The interactive viewer in a real window (run under Xvfb by CTest): drives the real UI
// through ImGui's input, as the GLFW backend does, clicking the widgets where they were
// drawn, and checks the resulting state.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "app/viewer.h"
#include "app/viewer_entry.h"
#include "platform/import_worker.h"

namespace rig {
namespace {

class ViewerSmoke : public ::testing::Test {
protected:
    void SetUp() override {
        ViewerConfig cfg;
        cfg.model = demoModelPath();
        cfg.width = 1280;
        cfg.height = 800;
        cfg.remember = false;
        auto v = Viewer::create(cfg);
        ASSERT_TRUE(v.ok()) << v.error().message;
        viewer = std::move(v.value());
        viewer->enableProbe(true);
        viewer->setInputHook([this](ImGuiIO& io) {
            io.MousePos = mouse;
            for (int b = 0; b < 3; ++b) io.MouseDown[b] = b == 0 && mouseDown;
            for (int k : {GLFW_KEY_SPACE, GLFW_KEY_RIGHT, GLFW_KEY_LEFT, GLFW_KEY_W, GLFW_KEY_B, GLFW_KEY_G, GLFW_KEY_L,
                          GLFW_KEY_HOME, GLFW_KEY_END}) {
                io.KeysDown[k] = k == key;
            }
        });
        viewer->waitForLoad();
        ASSERT_TRUE(viewer->state().model) << viewer->state().error;
        frames(3);
    }

    void frames(int n) {
        for (int i = 0; i < n; ++i) viewer->frame(1.0 / 60.0);
    }
    ImVec2 at(const std::string& name, float fx = 0.5f) {
        const auto& rects = viewer->probe().rects;
        auto it = rects.find(name);
        EXPECT_NE(it, rects.end()) << "no widget '" << name << "' on screen";
        if (it == rects.end()) return ImVec2(-1, -1);
        const ImVec4 r = it->second;
        return ImVec2(r.x + (r.z - r.x) * fx, 0.5f * (r.y + r.w));
    }
    // Move there, press, release: one click as a person makes it.
    void click(const std::string& name, float fx = 0.5f) {
        mouse = at(name, fx);
        frames(1);
        mouseDown = true;
        frames(1);
        mouseDown = false;
        frames(2);
        mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    }
    void press(int k) {
        key = k;
        frames(1);
        key = -1;
        frames(1);
    }

    std::unique_ptr<Viewer> viewer;
    ImVec2 mouse{-FLT_MAX, -FLT_MAX};
    bool mouseDown = false;
    int key = -1;
};

TEST_F(ViewerSmoke, SelectClipScrubStepToggleOverlays) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    EXPECT_EQ(s.clip, 0);
    EXPECT_TRUE(s.clock.playing());

    // Select "walk" in the Clips panel.
    const int walk = m.findClip("walk");
    ASSERT_GE(walk, 0);
    click("clip:walk");
    EXPECT_EQ(s.clip, walk);
    EXPECT_FLOAT_EQ(s.clock.duration(), m.clips[walk].duration);

    // Space pauses.
    press(GLFW_KEY_SPACE);
    EXPECT_FALSE(s.clock.playing());

    // Scrub: click a quarter of the way along the time slider.
    click("scrub", 0.25f);
    EXPECT_NEAR(s.clock.time(), 0.25f * m.clips[walk].duration, 0.08f * m.clips[walk].duration);
    EXPECT_FALSE(s.clock.playing());

    // Step: the right arrow and the ">" button each move one frame.
    const int f0 = s.clock.frame();
    press(GLFW_KEY_RIGHT);
    EXPECT_EQ(s.clock.frame(), f0 + 1);
    click("stepforward");
    EXPECT_EQ(s.clock.frame(), f0 + 2);
    click("stepback");
    EXPECT_EQ(s.clock.frame(), f0 + 1);
    click("start");
    EXPECT_EQ(s.clock.frame(), 0);

    // Overlays: the Bones checkbox, then W for wireframe, G for grid.
    const bool bones = s.view.bones;
    click("bones");
    EXPECT_NE(s.view.bones, bones);
    const bool wire = s.view.wireframe;
    press(GLFW_KEY_W);
    EXPECT_NE(s.view.wireframe, wire);
    const bool grid = s.view.grid;
    press(GLFW_KEY_G);
    EXPECT_NE(s.view.grid, grid);

    // CPU skinning from the View panel, and back.
    click("skin:cpu");
    EXPECT_EQ(s.view.skinning, SkinningMode::Cpu);
    click("skin:gpu");
    EXPECT_EQ(s.view.skinning, SkinningMode::Gpu);

    // Bind pose, then the file pose (the nodes' defaults), from the Clips panel; and back.
    click("bindpose");
    EXPECT_TRUE(s.bindPose);
    EXPECT_FALSE(s.filePose);
    for (size_t j = 0; j < m.skeleton.size(); ++j) {
        EXPECT_NEAR(glm::length(glm::vec3(s.animator->world()[j][3]) - glm::vec3(m.skeleton.bindPoseModel()[j][3])), 0.0f, 1e-5f);
    }
    click("bindpose:file");
    EXPECT_TRUE(s.filePose);
    for (size_t j = 0; j < m.skeleton.size(); ++j) {
        EXPECT_NEAR(glm::length(glm::vec3(s.animator->world()[j][3]) - glm::vec3(m.skeleton.bindModel[j][3])), 0.0f, 1e-5f);
    }
    click("bindpose:skin");
    EXPECT_FALSE(s.filePose);
    click("bindpose");
    EXPECT_FALSE(s.bindPose);

    // L cycles the loop mode.
    const LoopMode mode = s.clock.loopMode();
    press(GLFW_KEY_L);
    EXPECT_NE(s.clock.loopMode(), mode);

    // Select a joint in the hierarchy.
    click("node:hips");
    EXPECT_EQ(s.selectedJoint, m.skeleton.find("hips"));

    // Rig-check tools: the bind-pose ghost, onion skin and range-of-motion sweep draw
    // without GL errors; ROM turns the selected joint on its own axes.
    click("bindghost");
    EXPECT_TRUE(s.checks.bindGhost);
    click("onion");
    EXPECT_TRUE(s.checks.onion);
    s.checks.colorView = ColorView::JointWeight;
    const glm::mat4 before = s.animator->world()[m.skeleton.find("chest")];
    click("rom");
    EXPECT_TRUE(s.checks.rom);
    frames(20);
    EXPECT_EQ(s.checks.romJoint, m.skeleton.find("hips"));
    EXPECT_NE(s.animator->world()[m.skeleton.find("chest")], before);
    click("rom");
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    // A finding in the list selects what it is about (the demo has none worse than info;
    // the findings list is drawn either way).
    EXPECT_EQ(s.checks.report.worst() == Severity::Error, false);

    // Playing advances time.
    press(GLFW_KEY_SPACE);
    EXPECT_TRUE(s.clock.playing());
    const float t0 = s.clock.time();
    frames(10);
    EXPECT_NE(s.clock.time(), t0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(ViewerSmoke, AFailedLoadKeepsTheLastGoodModel) {
    ViewerState& s = viewer->state();
    const auto before = s.model;
    s.requests.open = "/usr/share/assimp/models/invalid/empty.obj";
    frames(1);
    viewer->waitForLoad();
    frames(1);
    EXPECT_EQ(s.model, before);
    EXPECT_NE(s.error.find("empty.obj"), std::string::npos) << s.error;
    // A good file replaces it.
    s.requests.open = "/usr/share/assimp/models/X/Testwuson.X";
    frames(1);
    viewer->waitForLoad();
    frames(2);
    ASSERT_NE(s.model, before);
    EXPECT_EQ(s.model->clips.size(), 3u);
    EXPECT_TRUE(s.error.empty()) << s.error;
}

TEST(ViewerAnim, AddsTheClipsOfAnotherFileByJointName) {
    ViewerConfig cfg;
    cfg.model = "/usr/share/assimp/models/BVH/01_01.bvh";
    cfg.remember = false;
    auto v = Viewer::create(cfg);
    ASSERT_TRUE(v.ok()) << v.error().message;
    Viewer& viewer = *v.value();
    viewer.waitForLoad();
    ASSERT_TRUE(viewer.state().model);
    EXPECT_EQ(viewer.state().model->clips.size(), 1u);
    viewer.state().requests.addAnim = "/usr/share/assimp/models/BVH/01_03.bvh";
    viewer.frame(1.0 / 60.0);
    viewer.waitForLoad();
    viewer.frame(1.0 / 60.0);
    ASSERT_EQ(viewer.state().model->clips.size(), 2u);
    EXPECT_EQ(viewer.state().model->clips[1].name, "01_03:Motion");
    // A file with no joint in common: the error shows, the model stays.
    const auto before = viewer.state().model;
    viewer.state().requests.addAnim = demoModelPath();
    viewer.frame(1.0 / 60.0);
    viewer.waitForLoad();
    viewer.frame(1.0 / 60.0);
    EXPECT_EQ(viewer.state().model, before);
    EXPECT_FALSE(viewer.state().error.empty());
}

TEST(ViewerWatch, ReimportsAChangedFileAndKeepsTheLastGoodOneOnFailure) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("rigview-watch-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path model = dir / "model.gltf";
    const std::string simple = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    fs::copy_file(simple, model, fs::copy_options::overwrite_existing);
    ViewerConfig cfg;
    cfg.model = model.string();
    cfg.remember = false;
    auto v = Viewer::create(cfg);
    ASSERT_TRUE(v.ok()) << v.error().message;
    Viewer& viewer = *v.value();
    viewer.waitForLoad();
    ASSERT_TRUE(viewer.state().model);
    const auto first = viewer.state().model;
    auto pump = [&](double seconds) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < end) {
            viewer.frame(1.0 / 60.0);
            viewer.waitForLoad();
        }
    };
    // Break the file: the error shows, the last good model stays.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::ofstream(model) << "{ this is not glTF";
    pump(1.5);
    EXPECT_EQ(viewer.state().model, first);
    EXPECT_FALSE(viewer.state().error.empty());
    // Mend it with the demo: re-imported, error gone.
    fs::copy_file(demoModelPath(), model, fs::copy_options::overwrite_existing);
    fs::copy_file(fs::path(demoModelPath()).replace_extension(".bin"), dir / "rigview_demo.bin",
                  fs::copy_options::overwrite_existing);
    fs::copy_file(fs::path(demoModelPath()).parent_path() / "rigview_demo_albedo.png", dir / "rigview_demo_albedo.png",
                  fs::copy_options::overwrite_existing);
    pump(1.5);
    ASSERT_NE(viewer.state().model, first);
    EXPECT_GE(viewer.state().model->clips.size(), 3u);
    EXPECT_TRUE(viewer.state().error.empty()) << viewer.state().error;
    fs::remove_all(dir);
}

TEST_F(ViewerSmoke, BlendPanelDrivesTheControllerAndReportsEvents) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    s.panels.blend = true;
    frames(2);
    click("blend:start");
    ASSERT_TRUE(s.blend.active);
    // Cross-fade idle -> wave over half a second: the pose changes while fading.
    s.blend.fadeTarget = m.findClip("wave");
    s.blend.fadeSeconds = 0.5f;
    click("blend:crossfade");
    frames(40);
    // A marker at the current time of wave, then play past it: an event is logged.
    click("blend:marker");
    frames(130);
    EXPECT_FALSE(s.blend.eventLog.empty());
    // Two-clip blend walk/wave and a partial-skeleton layer on the selected subtree.
    s.blend.blendA = m.findClip("walk");
    s.blend.blendB = m.findClip("wave");
    click("blend:blend");
    s.selectedJoint = m.skeleton.find("shoulder.R");
    s.blend.maskClip = m.findClip("idle");
    click("blend:mask");
    EXPECT_EQ(s.blend.maskJoint, m.skeleton.find("shoulder.R"));
    click("blend:inplace");
    EXPECT_TRUE(s.blend.inPlace);
    frames(10);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(ViewerSmoke, StateMachinePanelDrivesTheDemoIdleWalkIdleWave) {
    ViewerState& s = viewer->state();
    // The demo's machine (rigview_demo.machine.json beside it) loads with the model and opens
    // its panel; it drives once asked to.
    ASSERT_NE(s.machine.runtime, nullptr) << s.machine.error;
    EXPECT_TRUE(s.panels.machine);
    EXPECT_FALSE(s.machine.active);
    click("machine:drive");
    ASSERT_TRUE(s.machine.active);
    const StateMachine* sm = s.machine.runtime;
    auto active = [&](size_t layer) { return s.machine.runtime->activeStateDef(layer).name; };
    frames(5);
    EXPECT_EQ(active(0), "idle");
    // The speed slider well to the right (range 0..2): walk.
    const int32_t speed = sm->def().findParam("speed");
    click("machine:param:speed", 0.6f);
    EXPECT_GT(s.machine.runtime->value(speed), 0.5f);
    EXPECT_EQ(active(0), "walk");
    // At its left end: idle.
    click("machine:param:speed", 0.01f);
    EXPECT_LT(s.machine.runtime->value(speed), 0.1f);
    frames(2);
    EXPECT_EQ(active(0), "idle");
    // The wave trigger's button: wave, and back to idle at its exit time (1.9 s of 2).
    click("machine:param:wave");
    EXPECT_EQ(active(0), "wave");
    frames(120);
    EXPECT_EQ(active(0), "idle");
    ASSERT_GE(s.machine.log.size(), 5u);
    EXPECT_NE(s.machine.log[0].find("wave -> idle"), std::string::npos) << s.machine.log[0];
    // The arm layer's checkbox fades the right arm's wave in over 0.3 s.
    click("machine:param:waveArm");
    frames(30);
    EXPECT_EQ(active(1), "wave");
    EXPECT_FLOAT_EQ(s.machine.controller->layerWeight(s.machine.runtime->controllerLayer(1)), 1.0f);
    // The Timeline shows the machine's layers while it drives.
    ASSERT_EQ(s.blend.rows.size(), 2u);
    EXPECT_EQ(s.blend.rows[0].label, "base: idle");
    // Back to the timeline.
    click("machine:stop");
    EXPECT_FALSE(s.machine.active);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(ViewerSmoke, MorphsPanelOverridesAWeightAndPlotsTheCurve) {
    ViewerState& s = viewer->state();
    s.requests.open = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/morph_skin.gltf";
    frames(1);
    viewer->waitForLoad();
    frames(3);
    ASSERT_EQ(s.model->meshes.size(), 1u);
    EXPECT_TRUE(s.panels.morphs);  // opened: the model has morph targets
    ASSERT_EQ(s.clip, s.model->findClip("bend"));
    EXPECT_EQ(s.morphs.curve.size(), 200u);  // the bend clip's weight curve of "bulge"
    EXPECT_TRUE(std::isnan(s.animator->morphOverride(0, 1)));
    click("morph-override:lean");
    EXPECT_FALSE(std::isnan(s.animator->morphOverride(0, 1)));
    click("morph-slider:lean", 0.8f);
    EXPECT_NEAR(s.animator->morphOverride(0, 1), 0.8f, 0.05f);
    frames(5);  // the clip plays on; the override holds
    EXPECT_NEAR(s.animator->meshMorphWeights(0)[1], s.animator->morphOverride(0, 1), 1e-6f);
    click("morph-release");
    EXPECT_TRUE(std::isnan(s.animator->morphOverride(0, 1)));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Imports through the worker process (as the rigview binary does): a file that crashes Assimp
// (a 100,000-deep glTF node chain) or a FIFO swapped in under hot reload is an error and the
// last good model stays; a hung import does not keep the viewer from closing.
TEST(ViewerIsolated, CrashingFilesAndFifosKeepTheModelAndAHungImportDoesNotBlockClosing) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("rigview-iso-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    IsolationConfig iso;
    iso.enabled = true;
    iso.timeoutSeconds = 60.0;
    iso.workerExe = RIGVIEW_EXE;
    setIsolation(iso);
    const fs::path model = dir / "model.gltf";
    fs::copy_file("/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf", model);
    std::string chain = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[)";
    for (int i = 0; i < 99999; ++i) chain += "{\"children\":[" + std::to_string(i + 1) + "]},";
    chain += "{}]}";
    std::ofstream(dir / "deep.gltf") << chain;
    {
        ViewerConfig cfg;
        cfg.model = model.string();
        cfg.remember = false;
        auto v = Viewer::create(cfg);
        ASSERT_TRUE(v.ok()) << v.error().message;
        Viewer& viewer = *v.value();
        viewer.waitForLoad();
        ASSERT_TRUE(viewer.state().model) << viewer.state().error;
        const auto good = viewer.state().model;
        viewer.state().requests.open = (dir / "deep.gltf").string();
        viewer.frame(1.0 / 60.0);
        viewer.waitForLoad();
        viewer.frame(1.0 / 60.0);
        EXPECT_EQ(viewer.state().model, good);
        EXPECT_NE(viewer.state().error.find("the importer crashed"), std::string::npos) << viewer.state().error;
        // A FIFO in place of the watched file: refused at once, the model stays.
        viewer.state().error.clear();
        fs::remove(model);
        ASSERT_EQ(::mkfifo(model.c_str(), 0600), 0);
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (std::chrono::steady_clock::now() < end && viewer.state().error.empty()) {
            viewer.frame(1.0 / 60.0);
            viewer.waitForLoad();
        }
        EXPECT_EQ(viewer.state().model, good);
        EXPECT_NE(viewer.state().error.find("not a regular file"), std::string::npos) << viewer.state().error;
    }
    // A worker that never answers: closing the viewer kills it instead of waiting 60 s.
    const fs::path hang = dir / "hang.sh";
    std::ofstream(hang) << "#!/bin/sh\nsleep 60\n";
    ::chmod(hang.c_str(), 0755);
    iso.workerExe = hang.string();
    setIsolation(iso);
    const auto start = std::chrono::steady_clock::now();
    {
        ViewerConfig cfg;
        cfg.model = "/usr/share/assimp/models/X/Testwuson.X";
        cfg.remember = false;
        auto v = Viewer::create(cfg);
        ASSERT_TRUE(v.ok()) << v.error().message;
        v.value()->frame(1.0 / 60.0);
        EXPECT_TRUE(v.value()->state().loading);
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
    setIsolation(IsolationConfig{});
    fs::remove_all(dir);
}

// The Crowd panel: its checkbox turns the crowd on (framed whole: every instance drawn),
// a close camera culls most of them, more instances are drawn after a change, and the
// checkbox turns it off again; the frame on screen changes with it.
TEST_F(ViewerSmoke, CrowdPanelTogglesAnInstancedCrowd) {
    ViewerState& s = viewer->state();
    s.crowd.panelOpen = true;
    frames(2);
    int w = 0, h = 0;
    const std::vector<uint8_t> single = viewer->captureFrame(w, h);
    click("crowd:on");
    ASSERT_TRUE(s.crowd.enabled);
    frames(3);
    EXPECT_EQ(s.crowd.drawn + s.crowd.culled, static_cast<size_t>(s.crowd.instances));
    EXPECT_EQ(s.crowd.drawn, 100u);
    EXPECT_GT(s.crowd.updateMs, 0.0f);
    EXPECT_GT(s.crowd.drawMs, 0.0f);
    const std::vector<uint8_t> crowd = viewer->captureFrame(w, h);
    ASSERT_EQ(crowd.size(), single.size());
    size_t changed = 0;
    for (size_t i = 0; i < crowd.size(); i += 4) changed += crowd[i] != single[i] || crowd[i + 1] != single[i + 1] ? 1 : 0;
    EXPECT_GT(changed, crowd.size() / 4 / 50) << "the crowd should change the picture";
    // Close up: culled instances are not drawn.
    s.camera.distance *= 0.08f;
    frames(2);
    EXPECT_GT(s.crowd.culled, 0u);
    EXPECT_EQ(s.crowd.drawn + s.crowd.culled, 100u);
    // A bigger crowd, clips cycling: rebuilt and framed.
    s.crowd.instances = 400;
    s.crowd.clips = CrowdClips::Cycle;
    s.crowd.frameRequested = true;
    frames(2);
    EXPECT_EQ(s.crowd.drawn, 400u);
    click("crowd:on");
    EXPECT_FALSE(s.crowd.enabled);
    frames(2);
}

}  // namespace
}  // namespace rig
