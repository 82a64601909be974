// The interactive viewer in a real window (run under Xvfb by CTest): drives the real UI
// through ImGui's input, as the GLFW backend does, clicking the widgets where they were
// drawn, and checks the resulting state.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "app/viewer.h"
#include "app/viewer_entry.h"
#include "app/viewer_settings.h"
#include "platform/import_worker.h"
#include "check/vertex_views.h"
#include "render/offscreen.h"
#include "support/demo_gltf.h"
#include "support/gltf_writer.h"
#include "support/run.h"
#include "support/viewer_driver.h"
#include "ui/legend.h"

#include <stb_image.h>

namespace rig {
namespace {

class ViewerSmoke : public ::testing::Test, protected testing::ViewerDriver {
protected:
    void SetUp() override {
        ViewerConfig cfg;
        cfg.model = demoModelPath();
        cfg.width = 1280;
        cfg.height = 800;
        cfg.remember = false;
        shotDir = std::filesystem::temp_directory_path() / ("rigview-shots-" + std::to_string(::getpid()));
        std::filesystem::create_directories(shotDir);
        cfg.screenshotDir = shotDir.string();
        start(cfg);
    }

    void TearDown() override {
        viewer.reset();
        std::filesystem::remove_all(shotDir);
    }

    // The mouse as GLFW reports it, through the cursor and button callbacks installed on the
    // window (ImGui's backend, which chains to the viewer's queue), instead of the input
    // hook's one state per frame. The hook now only sets ImGui's frame time (`dt`: 0.2 is
    // 5 fps) and the keys.
    void glfwMouse(float dt = 0.0f) {
        viewer->setInputHook([dt](ImGuiIO& io) {
            if (dt > 0.0f) io.DeltaTime = dt;
        });
    }
    // The cursor and button callbacks installed on the window (as GLFW calls them).
    struct MouseCallbacks {
        GLFWcursorposfun cursor = nullptr;
        GLFWmousebuttonfun button = nullptr;
    };
    MouseCallbacks mouseCallbacks() {
        GLFWwindow* w = viewer->windowHandle();
        MouseCallbacks m;
        m.cursor = glfwSetCursorPosCallback(w, nullptr);
        glfwSetCursorPosCallback(w, m.cursor);
        m.button = glfwSetMouseButtonCallback(w, nullptr);
        glfwSetMouseButtonCallback(w, m.button);
        return m;
    }
    // `n` clicks at `p`, all before the next frame polls: the cursor moves there, then each
    // press and release reaches the callbacks `gapMs` apart.
    void glfwClicks(ImVec2 p, int n, int gapMs = 1) {
        GLFWwindow* w = viewer->windowHandle();
        const auto [cursor, button] = mouseCallbacks();
        ASSERT_NE(cursor, nullptr);
        ASSERT_NE(button, nullptr);
        cursor(w, p.x, p.y);
        for (int i = 0; i < n; ++i) {
            if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(gapMs));
            button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
            button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);
        }
    }
    // Windows ImGui drew last frame, by name (their outer rectangle).
    static ImGuiWindow* window(const char* name) { return ImGui::FindWindowByName(name); }

    std::filesystem::path shotDir;
};

TEST_F(ViewerSmoke, SelectClipScrubStepToggleOverlays) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    EXPECT_EQ(s.clip, 0);
    EXPECT_TRUE(s.timeline.playing);

    // Select "walk" in the Clips panel.
    const int walk = m.findClip("walk");
    ASSERT_GE(walk, 0);
    click("clip:walk");
    EXPECT_EQ(s.clip, walk);
    EXPECT_FLOAT_EQ(s.timeline.end, m.clips[walk].duration);

    // Space pauses.
    press(GLFW_KEY_SPACE);
    EXPECT_FALSE(s.timeline.playing);

    // Scrub: click a quarter of the way along the time slider.
    click("scrub", 0.25f);
    EXPECT_NEAR(s.timeline.time, 0.25f * m.clips[walk].duration, 0.08f * m.clips[walk].duration);
    EXPECT_FALSE(s.timeline.playing);

    // Step: the right arrow and the ">" button each move one frame.
    const int f0 = s.timeline.frame;
    press(GLFW_KEY_RIGHT);
    EXPECT_EQ(s.timeline.frame, f0 + 1);
    click("stepforward");
    EXPECT_EQ(s.timeline.frame, f0 + 2);
    click("stepback");
    EXPECT_EQ(s.timeline.frame, f0 + 1);
    click("start");
    EXPECT_EQ(s.timeline.frame, 0);

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

    // Influences from the View panel: 8, and back to 4 (the default).
    EXPECT_EQ(s.view.influences, 4);
    click("influences:8");
    EXPECT_EQ(s.view.influences, 8);
    click("influences:4");
    EXPECT_EQ(s.view.influences, 4);

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
    const LoopMode mode = s.timeline.mode;
    press(GLFW_KEY_L);
    EXPECT_NE(s.timeline.mode, mode);

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
    frames(1);  // the joint weight legend moves the widgets below it
    // The sweep is a motion of the pipeline's clock: it runs while the timeline plays (at
    // rate 0 here, so only the sweep moves the chest).
    s.requests.rate = 0.0f;
    press(GLFW_KEY_SPACE);
    click("rom");
    EXPECT_TRUE(s.checks.rom);
    frames(20);
    EXPECT_EQ(s.checks.romJoint, m.skeleton.find("hips"));
    EXPECT_NE(s.animator->world()[m.skeleton.find("chest")], before);
    click("rom");
    press(GLFW_KEY_SPACE);
    s.requests.rate = 1.0f;
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    // A finding in the list selects what it is about (the demo has none worse than info;
    // the findings list is drawn either way).
    EXPECT_EQ(s.checks.report.worst() == Severity::Error, false);

    // Playing advances time.
    press(GLFW_KEY_SPACE);
    EXPECT_TRUE(s.timeline.playing);
    const float t0 = s.timeline.time;
    frames(10);
    EXPECT_NE(s.timeline.time, t0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// A large model's load shows its stages in the loading notice, in order (reading, parsing,
// converting, receiving, checking, uploading; a quick stage may fall between two frames), the
// upload last and on a frame of its own, before the model is shown.
TEST_F(ViewerSmoke, ALargeLoadShowsItsStagesInOrder) {
    namespace gltf = rig::testing::gltf;
    gltf::Document doc;
    doc.nodes.resize(1);
    doc.nodes[0].name = "grid";
    doc.nodes[0].mesh = 0;
    gltf::Mesh mesh;
    mesh.name = "grid";
    const uint32_t n = 600;  // 360,000 vertices
    for (uint32_t y = 0; y < n; ++y) {
        for (uint32_t x = 0; x < n; ++x) {
            mesh.positions.emplace_back(x / float(n), y / float(n), 0.001f * float((x * 7 + y * 13) % 17));
            if (x + 1 < n && y + 1 < n) {
                const uint32_t v = y * n + x;
                mesh.indices.insert(mesh.indices.end(), {v, v + 1, v + n, v + 1, v + n + 1, v + n});
            }
        }
    }
    doc.meshes.push_back(std::move(mesh));
    const std::string path = (shotDir / "grid.gltf").string();
    ASSERT_TRUE(gltf::write(doc, path));

    ViewerState& s = viewer->state();
    s.requests.open = path;
    std::vector<int> seen;
    for (int f = 0; f < 2000 && (s.loading || s.model->meshes[0].vertexCount() != n * n); ++f) {
        frames(1);
        const auto shown = viewer->probe().texts.find("loading");  // the stage the notice names
        for (int stage = 0; shown != viewer->probe().texts.end() && stage <= static_cast<int>(kLastImportStage); ++stage) {
            if (shown->second == importStageName(static_cast<ImportStage>(stage)) && (seen.empty() || seen.back() != stage)) {
                seen.push_back(stage);
            }
        }
    }
    ASSERT_FALSE(s.loading);
    ASSERT_EQ(s.model->meshes.size(), 1u);
    EXPECT_EQ(s.model->meshes[0].vertexCount(), size_t(n) * n);
    ASSERT_FALSE(seen.empty());
    std::string order;
    for (int stage : seen) order += std::string(importStageName(static_cast<ImportStage>(stage))) + "; ";
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << "stages out of order: " << order;
    EXPECT_EQ(seen.back(), static_cast<int>(ImportStage::Uploading));
    EXPECT_GE(seen.size(), 2u) << "only the upload was shown";
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
    EXPECT_EQ(s.timeline.driver, s.machine.controller);  // the Timeline shows and drives it
    EXPECT_EQ(s.timeline.name, "base: idle");
    EXPECT_EQ(s.timeline.clip, s.model->findClip("idle"));
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

// The IK panel: switched on by a click, it solves the leg found by name (the demo's left leg)
// on the pose on screen; the target gizmo is dragged with the mouse in the view plane (the
// camera does not orbit meanwhile) and the foot follows it; weight 0 gives the clip's pose.
TEST_F(ViewerSmoke, IkPanelSolvesALegAndTheTargetDrags) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    s.panels.ik = true;
    s.panels.machine = false;  // its window would sit over the foot
    s.requests.rate = 0.0f;    // hold the pose still
    frames(2);
    click("ik:enabled");
    ASSERT_TRUE(s.ik.enabled);
    ASSERT_FALSE(s.ik.guesses.empty());
    EXPECT_EQ(s.ik.end, m.skeleton.find("foot.L"));
    EXPECT_EQ(s.animator->postProcess(), &s.ik.stage);
    // Drag the target: press on the gizmo, move 60 px left and 40 px up, release.
    const float w = ImGui::GetIO().DisplaySize.x, h = ImGui::GetIO().DisplaySize.y;
    const glm::mat4 viewProj = s.camera.projection(w / h) * s.camera.view();
    glm::vec2 p;
    ASSERT_TRUE(projectToScreen(viewProj, s.ik.target, w, h, p));
    const glm::vec3 before = s.ik.target;
    const float azimuth = s.camera.azimuthDeg;
    mouse = ImVec2(p.x, p.y);
    frames(1);
    mouseDown = true;
    frames(1);
    for (int i = 1; i <= 4; ++i) {
        mouse = ImVec2(p.x - 15.0f * i, p.y - 10.0f * i);
        frames(1);
    }
    EXPECT_TRUE(s.ik.dragging);
    mouseDown = false;
    frames(2);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    EXPECT_FALSE(s.ik.dragging);
    EXPECT_EQ(s.camera.azimuthDeg, azimuth);
    EXPECT_GT(glm::length(s.ik.target - before), 1e-3f);
    // Moved in the view plane: the same depth, and the target is where the mouse let go.
    glm::vec2 q;
    ASSERT_TRUE(projectToScreen(viewProj, s.ik.target, w, h, q));
    EXPECT_NEAR(q.x, p.x - 60.0f, 1.0f);
    EXPECT_NEAR(q.y, p.y - 40.0f, 1.0f);
    const glm::vec3 fwd = glm::normalize(s.camera.eye() - s.camera.target);
    EXPECT_NEAR(glm::dot(s.ik.target - before, fwd), 0.0f, 1e-4f);
    // The foot on the target (a small move: still in reach).
    frames(2);
    const int32_t foot = m.skeleton.find("foot.L");
    EXPECT_LT(glm::length(glm::vec3(s.animator->world()[foot][3]) - s.ik.target), 1e-4f);
    EXPECT_TRUE(s.ik.stage.twoBone()[0].reached);
    // Look at the target with the head (found by name): its forward axis goes through it.
    s.ik.aimLimit = 180.0f;
    click("ik:aim");
    frames(2);
    const int32_t head = m.skeleton.find("head");
    EXPECT_EQ(s.ik.aimJoint, head);
    ASSERT_EQ(s.ik.stage.aim().size(), 1u);
    EXPECT_TRUE(s.ik.stage.aim()[0].reached);
    const glm::vec3 headPos(s.animator->world()[head][3]);
    const glm::vec3 aimed = glm::normalize(glm::mat3(s.animator->world()[head]) * s.ik.stage.aim()[0].forward);
    EXPECT_GT(glm::dot(aimed, glm::normalize(s.ik.target - headPos)), 1.0f - 1e-4f);
    EXPECT_LT(glm::length(glm::vec3(s.animator->world()[foot][3]) - s.ik.target), 1e-4f);  // the leg still on it
    shot("ik_panel");
    // Weight 0: the clip's own pose.
    s.ik.weight = 0.0f;
    frames(1);
    Animator plain(m);
    plain.evaluate(s.timeline.clip, static_cast<float>(s.timeline.time));
    EXPECT_EQ(glm::vec3(s.animator->world()[foot][3]), glm::vec3(plain.world()[foot][3]));
    click("ik:enabled");
    EXPECT_EQ(s.animator->postProcess(), nullptr);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Imports through the worker process (as the rigview binary does): an importer that crashes or a
// FIFO swapped in under hot reload is an error and the last good model stays; a 100,000-deep glTF
// node chain opens and is drawn; a hung import does not keep the viewer from closing.
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
        // An importer that crashes (a worker killed by SIGSEGV): the model stays.
        const fs::path crash = dir / "crash.sh";
        std::ofstream(crash) << "#!/bin/sh\nkill -SEGV $$\n";
        ::chmod(crash.c_str(), 0755);
        IsolationConfig crashing = iso;
        crashing.workerExe = crash.string();
        setIsolation(crashing);
        viewer.state().requests.open = (dir / "deep.gltf").string();
        viewer.frame(1.0 / 60.0);
        viewer.waitForLoad();
        viewer.frame(1.0 / 60.0);
        EXPECT_EQ(viewer.state().model, good);
        EXPECT_NE(viewer.state().error.find("the importer crashed"), std::string::npos) << viewer.state().error;
        setIsolation(iso);
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
        // A chain of 100,000 nodes (which crashed Assimp; rigview's glTF reader opens it): the
        // Hierarchy panel draws its first levels and the viewer goes on.
        viewer.state().requests.open = (dir / "deep.gltf").string();
        viewer.frame(1.0 / 60.0);
        viewer.waitForLoad();
        viewer.frame(1.0 / 60.0);
        viewer.frame(1.0 / 60.0);
        ASSERT_TRUE(viewer.state().model) << viewer.state().error;
        EXPECT_EQ(viewer.state().model->skeleton.size(), 100000u);
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


// Keys where the person means them. A path with shortcut letters in it (Space, W, B, G, L, M,
// N, F, and the arrows' neighbours), typed right after the click that focuses the path field,
// all before the next frame (a slow frame), goes into the field whole: no view option changes,
// no marker is added, the loop mode and play state stay. Ctrl+A and Enter tapped between two
// frames reach the field (select all; open).
TEST_F(ViewerSmoke, TypingAPathWithShortcutLettersIsTextOnly) {
    ViewerState& s = viewer->state();
    GLFWwindow* w = viewer->windowHandle();
    GLFWkeyfun keyCb = glfwSetKeyCallback(w, nullptr);
    glfwSetKeyCallback(w, keyCb);
    GLFWcharfun charCb = glfwSetCharCallback(w, nullptr);
    glfwSetCharCallback(w, charCb);
    ASSERT_NE(keyCb, nullptr);
    ASSERT_NE(charCb, nullptr);
    auto typeChar = [&](char c) {
        int key = GLFW_KEY_UNKNOWN, mods = 0;
        if (c >= 'a' && c <= 'z') key = GLFW_KEY_A + (c - 'a');
        if (c >= 'A' && c <= 'Z') key = GLFW_KEY_A + (c - 'A'), mods = GLFW_MOD_SHIFT;
        if (c == '/') key = GLFW_KEY_SLASH;
        if (c == '.') key = GLFW_KEY_PERIOD;
        if (c == ' ') key = GLFW_KEY_SPACE;
        if (c == '_') key = GLFW_KEY_MINUS, mods = GLFW_MOD_SHIFT;
        keyCb(w, key, glfwGetKeyScancode(key), GLFW_PRESS, mods);
        charCb(w, static_cast<unsigned char>(c));
        keyCb(w, key, glfwGetKeyScancode(key), GLFW_RELEASE, mods);
    };
    auto tapCtrl = [&](int key) {  // Ctrl held, the key tapped, Ctrl let go: all between two frames
        keyCb(w, GLFW_KEY_LEFT_CONTROL, glfwGetKeyScancode(GLFW_KEY_LEFT_CONTROL), GLFW_PRESS, 0);
        keyCb(w, key, glfwGetKeyScancode(key), GLFW_PRESS, GLFW_MOD_CONTROL);
        keyCb(w, key, glfwGetKeyScancode(key), GLFW_RELEASE, GLFW_MOD_CONTROL);
        keyCb(w, GLFW_KEY_LEFT_CONTROL, glfwGetKeyScancode(GLFW_KEY_LEFT_CONTROL), GLFW_RELEASE, GLFW_MOD_CONTROL);
    };
    glfwMouse(0.2f);  // 5 fps: every tap falls between two frames
    frames(1);
    const ViewOptions view = s.view;
    const bool playing = s.timeline.playing;
    const LoopMode mode = s.timeline.mode;
    const int clip = s.clip;
    size_t markers = 0;
    for (const auto& m : s.clipMarkers) markers += m.size();
    const std::string path = "/tmp/walk gmlbw/Fen_LMB nb.fbx";
    glfwClicks(at("path"), 1);
    for (char c : path) typeChar(c);
    frames(4);
    EXPECT_EQ(s.pathField, path);
    size_t markersAfter = 0;
    for (const auto& m : s.clipMarkers) markersAfter += m.size();
    EXPECT_EQ(markersAfter, markers) << "M added a marker";
    EXPECT_EQ(s.timeline.playing, playing) << "Space toggled playback";
    EXPECT_EQ(s.timeline.mode, mode) << "L changed the loop mode";
    EXPECT_EQ(s.clip, clip);
    EXPECT_EQ(s.view.wireframe, view.wireframe);
    EXPECT_EQ(s.view.bones, view.bones);
    EXPECT_EQ(s.view.grid, view.grid);
    EXPECT_EQ(s.view.jointNames, view.jointNames);
    // Ctrl+A selects the field's text and what is typed next replaces it; Enter opens it.
    tapCtrl(GLFW_KEY_A);
    frames(2);
    for (char c : std::string("/nowhere/x.glb")) typeChar(c);
    frames(2);
    EXPECT_EQ(s.pathField, "/nowhere/x.glb") << "the quick Ctrl+A was lost";
    keyCb(w, GLFW_KEY_ENTER, glfwGetKeyScancode(GLFW_KEY_ENTER), GLFW_PRESS, 0);
    keyCb(w, GLFW_KEY_ENTER, glfwGetKeyScancode(GLFW_KEY_ENTER), GLFW_RELEASE, 0);
    frames(3);
    viewer->waitForLoad();
    frames(1);
    EXPECT_NE(s.error.find("/nowhere/x.glb"), std::string::npos) << "the quick Enter was lost: " << s.error;
    // With no field active, the same letters are shortcuts again.
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    setInputHookDefault();
    clickAt(ImVec2(s.ui.layout.rects.centre.x + 20.0f, s.ui.layout.rects.centre.y + 20.0f));
    frames(2);
    const bool wire = s.view.wireframe;
    press(GLFW_KEY_W);
    EXPECT_NE(s.view.wireframe, wire);
}

// Loads you can cancel. A 1.5 GB .glb (sparse: glTF's magic, then zeros; the worker takes about
// 25 s to read and reject it) is stopped by Esc and by the notice's Cancel within a second, the
// demo still on screen; an Open during that load replaces it (the newest wins, with a notice);
// a zero-filled .glb (1.5 GB) is refused before any worker starts, in milliseconds.
class ViewerLoads : public ViewerSmoke {
protected:
    void SetUp() override {
        IsolationConfig iso;
        iso.enabled = true;
        iso.timeoutSeconds = 60.0;
        iso.workerExe = RIGVIEW_EXE;
        setIsolation(iso);
        ViewerSmoke::SetUp();
        dir = std::filesystem::temp_directory_path() / ("rigview-loads-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
    }
    void TearDown() override {
        ViewerSmoke::TearDown();
        setIsolation(IsolationConfig{});
        std::filesystem::remove_all(dir);
    }
    // A sparse file of `bytes` bytes starting with `head` (the rest zeros).
    std::string sparse(const char* name, const std::string& head, off_t bytes) {
        const std::string path = (dir / name).string();
        { std::ofstream(path, std::ios::binary) << head; }
        EXPECT_EQ(::truncate(path.c_str(), bytes), 0);
        return path;
    }
    std::string bigGlb() {
        const uint32_t n = 1500u << 20;
        std::string head = "glTF";
        for (uint32_t v : {2u, n, n - 20u}) {
            for (int i = 0; i < 4; ++i) head += static_cast<char>((v >> (8 * i)) & 0xff);
        }
        head += "JSON";
        return sparse("big.glb", head, static_cast<off_t>(n));
    }
    // Frames until the load has ended (at most `seconds`); the seconds it took.
    double framesUntilLoaded(double seconds) {
        const auto t0 = std::chrono::steady_clock::now();
        double took = 0.0;
        while ((took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()) < seconds &&
               viewer->state().loading) {
            frames(1);
        }
        return took;
    }
    std::filesystem::path dir;
};

TEST_F(ViewerLoads, EscAndCancelStopAHugeLoadAndTheModelStays) {
    ViewerState& s = viewer->state();
    const auto demo = s.model;
    const std::string big = bigGlb();
    s.requests.open = big;
    frames(3);
    ASSERT_TRUE(s.loading);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the worker is reading it
    frames(1);
    ASSERT_TRUE(s.loading);
    shot("loading-with-cancel");
    press(GLFW_KEY_ESCAPE);
    EXPECT_LT(framesUntilLoaded(5.0), 1.0);
    EXPECT_FALSE(s.loading);
    EXPECT_EQ(s.model, demo);
    EXPECT_TRUE(s.error.empty()) << s.error;
    EXPECT_NE(s.ui.status.find("big.glb cancelled"), std::string::npos) << s.ui.status;

    s.requests.open = big;
    frames(3);
    ASSERT_TRUE(s.loading);
    click("loading:cancel");
    EXPECT_LT(framesUntilLoaded(5.0), 1.0);
    EXPECT_EQ(s.model, demo);
    EXPECT_TRUE(s.error.empty()) << s.error;
}

TEST_F(ViewerLoads, AnOpenDuringALoadReplacesItAndTheNewestWins) {
    ViewerState& s = viewer->state();
    const std::string big = bigGlb();
    const std::string skin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    s.requests.open = big;
    frames(3);
    ASSERT_TRUE(s.loading);
    s.requests.open = skin;
    frames(1);
    EXPECT_NE(s.ui.status.find("Opening simple_skin.gltf instead of big.glb"), std::string::npos) << s.ui.status;
    EXPECT_LT(framesUntilLoaded(10.0), 8.0);
    viewer->waitForLoad();
    frames(1);
    EXPECT_EQ(s.path, skin);
    EXPECT_TRUE(s.error.empty()) << s.error;
}

TEST_F(ViewerLoads, AFileOfZerosIsRefusedBeforeTheWorker) {
    ViewerState& s = viewer->state();
    const auto demo = s.model;
    const std::string zeros = sparse("zeros.glb", "", static_cast<off_t>(1500) << 20);
    const auto t0 = std::chrono::steady_clock::now();
    s.requests.open = zeros;
    frames(1);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_FALSE(s.loading) << "a worker was started";
    EXPECT_LT(took, 0.5);
    EXPECT_NE(s.error.find("zeros.glb: its first 65536 bytes are all zero"), std::string::npos) << s.error;
    EXPECT_EQ(s.model, demo);
    // A text .gltf that is not JSON, and a .glb without the magic: the same, each one line.
    const std::string notJson = (dir / "notes.gltf").string();
    std::ofstream(notJson) << "these are not the droids\n";
    s.requests.open = notJson;
    frames(1);
    EXPECT_FALSE(s.loading);
    EXPECT_NE(s.error.find("notes.gltf: not a glTF file"), std::string::npos) << s.error;
    EXPECT_EQ(s.error.find('\n'), std::string::npos);
}

// Short taps (12 ms, shorter than a frame) are taken from GLFW's key callback queue: every one
// acts, also several between two frames.
TEST_F(ViewerSmoke, ShortKeyTapsAreNotLost) {
    ViewerState& s = viewer->state();
    press(GLFW_KEY_SPACE);
    ASSERT_FALSE(s.timeline.playing);
    click("start");
    ASSERT_EQ(s.timeline.frame, 0);
    for (int i = 1; i <= 10; ++i) {
        press(GLFW_KEY_RIGHT);
        EXPECT_EQ(s.timeline.frame, i) << "tap " << i << " of Right was lost";
    }
    for (int i = 0; i < 6; ++i) {
        const bool grid = s.view.grid;
        press(GLFW_KEY_G);
        EXPECT_NE(s.view.grid, grid) << "tap " << i + 1 << " of G was lost";
    }
    // Three taps between two frames: three frames on.
    const int f = s.timeline.frame;
    tap(GLFW_KEY_RIGHT);
    tap(GLFW_KEY_RIGHT);
    tap(GLFW_KEY_RIGHT);
    frames(1);
    EXPECT_EQ(s.timeline.frame, f + 3);
    tap(GLFW_KEY_LEFT);
    frames(1);
    EXPECT_EQ(s.timeline.frame, f + 2);
    // Two Space taps in one frame: toggled twice, still paused.
    tap(GLFW_KEY_SPACE);
    tap(GLFW_KEY_SPACE);
    frames(1);
    EXPECT_FALSE(s.timeline.playing);
}

// A move and a click that land in one frame do not turn the camera; a drag after it does,
// by exactly the cursor's travel while the button is held (0.4 degrees per pixel).
TEST_F(ViewerSmoke, AMoveAndAClickInOneFrameDoNotMakeTheCameraJump) {
    ViewerState& s = viewer->state();
    GLFWwindow* w = viewer->windowHandle();
    const auto [cursor, button] = mouseCallbacks();
    ASSERT_NE(cursor, nullptr);
    ASSERT_NE(button, nullptr);
    // Points in the viewport (between the columns, above the bottom strips).
    const LayoutRect& c = s.ui.layout.rects.centre;
    const double x0 = std::floor(c.x + 0.5f * c.w) - 80.0, y0 = std::floor(c.y + 0.5f * c.h) - 30.0;
    mouse = ImVec2(static_cast<float>(x0), static_cast<float>(y0));
    cursor(w, x0, y0);
    frames(2);
    ASSERT_FALSE(ImGui::GetIO().WantCaptureMouse) << "a panel covers the middle of the viewport";
    const float az = s.camera.azimuthDeg, el = s.camera.elevationDeg;
    // Within one frame: the cursor travels 150 px, then the button goes down.
    cursor(w, x0 + 80, y0 + 40);
    cursor(w, x0 + 150, y0 + 50);
    button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
    mouse = ImVec2(static_cast<float>(x0 + 150), static_cast<float>(y0 + 50));
    mouseDown = true;
    frames(1);
    EXPECT_FLOAT_EQ(s.camera.azimuthDeg, az);
    EXPECT_FLOAT_EQ(s.camera.elevationDeg, el);
    // Held: 50 px to the right orbits by -20 degrees.
    cursor(w, x0 + 200, y0 + 50);
    mouse = ImVec2(static_cast<float>(x0 + 200), static_cast<float>(y0 + 50));
    frames(1);
    EXPECT_NEAR(s.camera.azimuthDeg, az - 20.0f, 1e-3f);
    button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);
    mouseDown = false;
    frames(1);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
}

// Clicks faster than the frame rate: a press and release within one frame still click, two
// clicks within one frame click twice (ImGui gets one change per button per frame), and a
// double click at 5 fps is one.
TEST_F(ViewerSmoke, ClicksFasterThanTheFrameRateAreNotLost) {
    ViewerState& s = viewer->state();
    const ImVec2 box = at("bones");
    glfwMouse();
    const bool bones = s.view.bones;
    glfwClicks(box, 1);
    frames(1);  // the press
    EXPECT_EQ(s.view.bones, bones);
    frames(1);  // the release: clicked
    EXPECT_NE(s.view.bones, bones) << "a press and release within one frame did not click";
    frames(1);
    glfwClicks(box, 2);
    frames(4);
    EXPECT_NE(s.view.bones, bones) << "two clicks within one frame toggled it "
                                   << (s.view.bones == bones ? "twice (or not at all)" : "");
    EXPECT_EQ(viewer->input().pendingButtonEvents(), 0u);
    // Counted: four clicks in one frame toggle it four times (back to where it was).
    glfwClicks(box, 4);
    int toggles = 0;
    bool last = s.view.bones;
    for (int i = 0; i < 9; ++i) {
        frames(1);
        toggles += s.view.bones != last;
        last = s.view.bones;
    }
    EXPECT_EQ(toggles, 4);
    EXPECT_NE(s.view.bones, bones);

    // At 5 fps (ImGui's frame time 0.2 s) a double click on a file in the browser opens it:
    // two clicks 0.2 s apart, their presses delivered to ImGui two frames (0.4 s) apart, are
    // told a double click by the events' own times.
    setInputHookDefault();
    press(GLFW_KEY_O, GLFW_MOD_CONTROL);
    ASSERT_TRUE(s.ui.fileBrowser);
    s.ui.browser.dir = "/usr/share/assimp/models/BVH";
    s.ui.browser.listedDir.clear();
    frames(2);
    const ImVec2 file = at("browser:entry:01_03.bvh");
    glfwMouse(0.2f);
    frames(1);
    glfwClicks(file, 2, 200);
    for (int i = 0; i < 5 && s.ui.fileBrowser; ++i) frames(1);
    EXPECT_FALSE(s.ui.fileBrowser) << "the double click did not open the file";
    viewer->waitForLoad();
    frames(2);
    EXPECT_EQ(s.path, "/usr/share/assimp/models/BVH/01_03.bvh") << s.error;
}

// The selection is a joint name: a reload keeps it, a model without that name clears it
// (the old number is not kept), a model with the name selects its own joint of that name.
TEST_F(ViewerSmoke, SelectionIsKeptByNameAcrossReloadsAndModels) {
    ViewerState& s = viewer->state();
    auto open = [&](const std::string& path) {
        s.requests.open = path;
        frames(1);
        viewer->waitForLoad();
        frames(2);
        ASSERT_EQ(s.path, path) << s.error;
    };
    const int shoulder = s.model->skeleton.find("shoulder.R");
    ASSERT_GE(shoulder, 0);
    s.selectedJoint = shoulder;
    frames(1);
    const auto before = s.model;
    open(demoModelPath());  // reload
    EXPECT_NE(s.model, before);
    EXPECT_EQ(s.selectedJoint, s.model->skeleton.find("shoulder.R"));
    // A BVH with no joint of that name: cleared, not "joint number N" of the new skeleton.
    open("/usr/share/assimp/models/BVH/01_01.bvh");
    ASSERT_GT(s.model->skeleton.size(), static_cast<size_t>(shoulder));
    EXPECT_EQ(s.selectedJoint, -1);
    s.checks.colorView = ColorView::WeightSum;
    frames(2);
    shot("weightsum");
    s.checks.colorView = ColorView::None;
    // Select one of its joints, open another take of the same skeleton: kept by name.
    const int lhand = s.model->skeleton.find("LeftHand");
    ASSERT_GE(lhand, 0);
    s.selectedJoint = lhand;
    frames(1);
    open("/usr/share/assimp/models/BVH/01_03.bvh");
    ASSERT_GE(s.selectedJoint, 0);
    EXPECT_EQ(s.model->skeleton.names[s.selectedJoint], "LeftHand");
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// A joint clicked in the viewport is selected and the Hierarchy scrolls to it; its name (and
// its neighbours') is what the joint-name overlay draws.
TEST_F(ViewerSmoke, PickingAJointScrollsTheHierarchyToIt) {
    ViewerState& s = viewer->state();
    s.requests.open = "/usr/share/assimp/models/BVH/01_01.bvh";
    frames(1);
    viewer->waitForLoad();
    frames(3);
    ASSERT_GT(s.model->skeleton.size(), 25u);
    press(GLFW_KEY_SPACE);
    // Scroll the tree to the top, then click the last joint in node order that lies in the
    // open middle of the viewport.
    const float W = ImGui::GetIO().DisplaySize.x, H = ImGui::GetIO().DisplaySize.y;
    const glm::mat4 vp = s.camera.projection(W / H) * s.camera.view();
    int target = -1;
    glm::vec2 at;
    for (int32_t j : s.joints) {
        glm::vec2 p;
        if (projectToScreen(vp, glm::vec3(s.animator->world()[j][3]), W, H, p) && p.x > 300 && p.x < W - 300 &&
            p.y > 150 && p.y < H - 200) {
            target = j;
            at = p;
        }
    }
    ASSERT_GE(target, 0);
    const ImVec4 tree = viewer->probe().rects.at("hierarchy:tree");
    const auto rowsBefore = viewer->probe().rects;
    clickAt(ImVec2(at.x, at.y));
    frames(1);
    // The nearest joint to the click is picked (maybe a close neighbour of the one aimed at).
    ASSERT_GE(s.selectedJoint, 0) << "clicked at " << at.x << "," << at.y;
    EXPECT_FALSE(s.ui.scrollToSelection);
    const std::string name = "node:" + s.model->skeleton.names[s.selectedJoint];
    EXPECT_GT(rowsBefore.at(name).w, tree.w) << "pick a joint further down: its row was visible already";
    const ImVec4 row = viewer->probe().rects.at(name);
    shot("picked");
    EXPECT_GE(row.y, tree.y);
    EXPECT_LE(row.w, tree.w) << "the picked joint's row is below the visible part of the tree";
}

// F1 shows every shortcut (the overlay reads the key handler's table), ? closes it; F12
// writes a PNG of the window and says where.
TEST_F(ViewerSmoke, HelpOverlayAndScreenshotKey) {
    ViewerState& s = viewer->state();
    press(GLFW_KEY_F1);
    frames(1);
    EXPECT_TRUE(s.ui.help);
    ImGuiWindow* help = window("Shortcuts (F1 or ? to close)");
    ASSERT_NE(help, nullptr);
    EXPECT_TRUE(help->Active);
    shot("help");
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    EXPECT_GE(help->Pos.x, 0.0f);
    EXPECT_GE(help->Pos.y, 0.0f);
    EXPECT_LE(help->Pos.x + help->Size.x, d.x);
    EXPECT_LE(help->Pos.y + help->Size.y, d.y) << "the shortcut list does not fit the window";
    press(GLFW_KEY_SLASH, GLFW_MOD_SHIFT);
    EXPECT_FALSE(s.ui.help);

    press(GLFW_KEY_F12);
    frames(1);
    const std::string shot = viewer->lastScreenshot();
    ASSERT_FALSE(shot.empty()) << s.ui.status;
    EXPECT_EQ(std::filesystem::path(shot).parent_path(), std::filesystem::canonical(shotDir));
    EXPECT_NE(s.ui.status.find(shot), std::string::npos) << s.ui.status;
    std::ifstream in(shot, std::ios::binary);
    std::string head(24, '\0');
    in.read(head.data(), 24);
    ASSERT_EQ(head.substr(1, 3), "PNG");
    auto be32 = [&](size_t o) {
        return (static_cast<uint32_t>(static_cast<uint8_t>(head[o])) << 24) | (static_cast<uint8_t>(head[o + 1]) << 16) |
               (static_cast<uint8_t>(head[o + 2]) << 8) | static_cast<uint8_t>(head[o + 3]);
    };
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(viewer->windowHandle(), &fw, &fh);
    EXPECT_EQ(be32(16), static_cast<uint32_t>(fw));
    EXPECT_EQ(be32(20), static_cast<uint32_t>(fh));
}

// Ctrl+O opens the file browser; it lists folders first and only model files; clicking a
// folder enters it, clicking a file opens it. PageDown / PageUp step through the folder.
TEST_F(ViewerSmoke, FileBrowserOpensAModelAndPageKeysStepThroughTheFolder) {
    ViewerState& s = viewer->state();
    press(GLFW_KEY_O, GLFW_MOD_CONTROL);
    ASSERT_TRUE(s.ui.fileBrowser);
    s.ui.browser.dir = "/usr/share/assimp/models";
    s.ui.browser.listedDir.clear();
    frames(2);
    ASSERT_FALSE(s.ui.browser.entries.empty());
    EXPECT_TRUE(s.ui.browser.entries.front().folder);
    shot("browser");
    click("browser:entry:BVH/");
    frames(1);
    EXPECT_EQ(s.ui.browser.dir, "/usr/share/assimp/models/BVH");
    for (const auto& e : s.ui.browser.entries) {
        EXPECT_EQ(e.name.find(".txt"), std::string::npos) << e.name << " is not a model file";
    }
    click("browser:entry:01_01.bvh");  // picked
    EXPECT_TRUE(s.ui.fileBrowser);
    click("browser:open");              // opened
    EXPECT_FALSE(s.ui.fileBrowser);
    viewer->waitForLoad();
    frames(2);
    EXPECT_EQ(s.path, "/usr/share/assimp/models/BVH/01_01.bvh") << s.error;
    press(GLFW_KEY_PAGE_DOWN);
    viewer->waitForLoad();
    frames(2);
    EXPECT_EQ(s.path, "/usr/share/assimp/models/BVH/01_03.bvh") << s.error;
    press(GLFW_KEY_PAGE_UP);
    viewer->waitForLoad();
    frames(2);
    EXPECT_EQ(s.path, "/usr/share/assimp/models/BVH/01_01.bvh") << s.error;
}

// Every panel lies inside the window at the default size; labels are not clipped; the error
// banner does not cover the Open panel's path field; the colour views carry a legend.
TEST_F(ViewerSmoke, PanelsFitTheWindowAndTheErrorBannerLeavesThePathFieldFree) {
    ViewerState& s = viewer->state();
    int w = 0, h = 0;
    (void)viewer->captureFrame(w, h);
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGuiContext& g = *ImGui::GetCurrentContext();
    int checked = 0;
    for (ImGuiWindow* win : g.Windows) {
        if (!win->Active || win->Hidden || (win->Flags & ImGuiWindowFlags_ChildWindow) || (win->Flags & ImGuiWindowFlags_Tooltip)) continue;
        ++checked;
        EXPECT_GE(win->Pos.x, 0.0f) << win->Name;
        EXPECT_GE(win->Pos.y, 0.0f) << win->Name;
        EXPECT_LE(win->Pos.x + win->Size.x, d.x) << win->Name;
        EXPECT_LE(win->Pos.y + win->Size.y, d.y) << win->Name;
    }
    EXPECT_GE(checked, 7);
    // "Background" fits its panel (it read "Backgrour").
    ImGuiWindow* view = window("View");
    ASSERT_NE(view, nullptr);
    const ImVec4 bg = viewer->probe().rects.at("background");
    EXPECT_LE(bg.z, view->Pos.x + view->Size.x - view->WindowPadding.x + 0.5f);
    // Colour views have a legend.
    s.checks.colorView = ColorView::TruncationError;
    frames(2);
    EXPECT_NE(viewer->probe().rects.count("legend"), 0u);
    s.checks.colorView = ColorView::JointWeight;
    s.selectedJoint = s.model->skeleton.find("upper_arm.L");
    s.checks.onion = true;
    frames(2);
    shot("jointweight");
    // A failed open: the banner sits clear of the path field.
    s.requests.open = "/usr/share/assimp/models/invalid/empty.obj";
    frames(1);
    viewer->waitForLoad();
    frames(2);
    ASSERT_FALSE(s.error.empty());
    ImGuiWindow* banner = window("##notices");
    ASSERT_NE(banner, nullptr);
    ASSERT_TRUE(banner->Active);
    const ImVec4 field = viewer->probe().rects.at("path");
    const bool overlap = banner->Pos.x < field.z && field.x < banner->Pos.x + banner->Size.x && banner->Pos.y < field.w &&
                         field.y < banner->Pos.y + banner->Size.y;
    EXPECT_FALSE(overlap) << "the error banner covers the path field";
    shot("error");
    EXPECT_LE(banner->Pos.y + banner->Size.y, d.y);
}

// The selected joint's key ticks on a 112,000-frame clip: worked out once (not every frame)
// and at most one per pixel column of the time slider.
TEST_F(ViewerSmoke, KeyTimesOfALongClipAreCachedAndDrawnOnePerPixel) {
    namespace fs = std::filesystem;
    const fs::path bvh = shotDir / "long.bvh";
    {
        std::ofstream out(bvh);
        out << "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
               "  JOINT Spine\n  {\n    OFFSET 0 10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "    End Site\n    {\n      OFFSET 0 10 0\n    }\n  }\n}\nMOTION\nFrames: 112000\nFrame Time: 0.008333\n";
        for (int f = 0; f < 112000; ++f) out << f % 7 << " 90 0 " << (f % 360) << " 0 0 " << (f % 90) << " 0 0\n";
    }
    ViewerState& s = viewer->state();
    s.requests.open = bvh.string();
    frames(1);
    viewer->waitForLoad();
    frames(2);
    ASSERT_EQ(s.path, bvh.string()) << s.error;
    ASSERT_EQ(s.model->clips.size(), 1u);
    s.selectedJoint = s.model->skeleton.find("Spine");
    ASSERT_GE(s.selectedJoint, 0);
    frames(2);
    // The key times are worked out once per clip (every joint's and the union), not per
    // frame; the ruler draws at most one diamond per pixel column from them.
    const KeyTimesCache& kc = s.keyTimes;
    ASSERT_EQ(kc.clip, 0);
    ASSERT_EQ(kc.perNode.size(), s.model->skeleton.size());
    EXPECT_EQ(kc.perNode[s.selectedJoint].size(), 112000u);
    EXPECT_EQ(kc.all.size(), 112000u);
    const float* data = kc.all.data();
    const auto t0 = std::chrono::steady_clock::now();
    frames(10);
    const double perFrame = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 10.0;
    EXPECT_EQ(kc.all.data(), data) << "recomputed while nothing changed";
    // Stepping frames with the arrows still works on the long clip.
    press(GLFW_KEY_SPACE);
    const int f0 = s.timeline.frame;
    press(GLFW_KEY_RIGHT);
    EXPECT_EQ(s.timeline.frame, f0 + 1);
    std::printf("long clip: %.1f ms per frame (software GL)\n", perFrame * 1000.0);
}

// ---------------------------------------------------------------------------------------
// The timeline: one clock (the controller's), the ruler, the range, Blender's keys.

// The world matrix of a node now (the pose on screen).
glm::mat4 worldOf(const ViewerState& s, int32_t node) { return s.animator->world()[node]; }

float poseGap(const glm::mat4& a, const glm::mat4& b) {
    float d = 0.0f;
    for (int c = 0; c < 4; ++c) d = std::max(d, glm::length(a[c] - b[c]));
    return d;
}

TEST_F(ViewerSmoke, TimelinePlayScrubAndStepMoveTheControllersTimeAndThePose) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    const int walk = m.findClip("walk");
    click("clip:walk");
    ASSERT_EQ(s.timeline.clip, walk);
    ASSERT_NE(s.timeline.driver, nullptr);
    const Controller& c = *s.timeline.driver;
    EXPECT_EQ(c.currentMotion().index, walk);
    // Play (the button) pauses: the controller's clock stops.
    ASSERT_TRUE(c.playing());
    click("play");
    EXPECT_FALSE(c.playing());
    EXPECT_FALSE(s.timeline.playing);
    const double len = m.clips[walk].duration - m.clips[walk].startTime;
    const int32_t foot = m.skeleton.find("foot.L") >= 0 ? m.skeleton.find("foot.L") : m.skeleton.find("shin.L");
    ASSERT_GE(foot, 0);
    click("scrub", 0.1f);
    const glm::mat4 early = worldOf(s, foot);
    EXPECT_NEAR(s.timeline.time, 0.1 * len, 0.03 * len);
    EXPECT_NEAR(c.clipTime(walk), s.timeline.time, 1e-5);
    click("scrub", 0.5f);
    EXPECT_NEAR(s.timeline.time, 0.5 * len, 0.03 * len);
    EXPECT_NEAR(c.clipTime(walk), s.timeline.time, 1e-5);
    EXPECT_GT(poseGap(worldOf(s, foot), early), 1e-3f) << "the pose did not follow the scrub";
    // The time snaps to frames; a step is one frame of the controller's clock.
    const int f = s.timeline.frame;
    EXPECT_NEAR(s.timeline.time * s.timeline.sampleRate, f, 1e-3);
    click("stepforward");
    EXPECT_EQ(s.timeline.frame, f + 1);
    EXPECT_NEAR(c.clipTime(walk) * s.timeline.sampleRate, f + 1, 1e-3);
    // Speed presets and the 1x reset.
    click("speed:0.25x");
    EXPECT_FLOAT_EQ(c.rate(), 0.25f);
    click("speed:1x");
    EXPECT_FLOAT_EQ(c.rate(), 1.0f);
    // Playing again moves time forward.
    click("play");
    const double t0 = s.timeline.time;
    frames(10);
    EXPECT_NE(s.timeline.time, t0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(ViewerSmoke, UpDownJumpToKeysAndShiftArrowsToTheRangeEnds) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    const int walk = m.findClip("walk");
    click("clip:walk");
    press(GLFW_KEY_SPACE);
    ASSERT_FALSE(s.timeline.playing);
    press(GLFW_KEY_HOME);
    const Clip& clip = m.clips[walk];
    // The selected joint's keys, from its channels here (independently of the viewer's cache).
    const int32_t joint = m.skeleton.find("shoulder.R");
    ASSERT_GE(joint, 0);
    ASSERT_GE(clip.trackOfNode[joint], 0);
    std::vector<float> keys;
    const Track& tr = clip.tracks[clip.trackOfNode[joint]];
    for (const Channel* ch : {&tr.translation, &tr.rotation, &tr.scale}) {
        for (uint32_t k = 0; k < ch->count; ++k) keys.push_back(clip.times[ch->times + k]);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    ASSERT_GE(keys.size(), 3u);
    s.selectedJoint = joint;
    frames(1);
    const double start = s.timeline.time;
    size_t next = 0;
    while (next < keys.size() && keys[next] <= start + 1e-5) ++next;
    ASSERT_LT(next + 1, keys.size());
    press(GLFW_KEY_UP);
    EXPECT_NEAR(s.timeline.time, keys[next], 1e-5);
    press(GLFW_KEY_UP);
    EXPECT_NEAR(s.timeline.time, keys[next + 1], 1e-5);
    press(GLFW_KEY_DOWN);
    EXPECT_NEAR(s.timeline.time, keys[next], 1e-5);
    // Taps faster than the frame rate, all between two frames: each one moves one key.
    ASSERT_LT(next + 3, keys.size());
    tap(GLFW_KEY_UP, 0, 1);
    tap(GLFW_KEY_UP, 0, 1);
    tap(GLFW_KEY_UP, 0, 1);
    frames(1);
    EXPECT_NEAR(s.timeline.time, keys[next + 3], 1e-5) << "three Up taps in one frame";
    tap(GLFW_KEY_DOWN, 0, 1);
    tap(GLFW_KEY_DOWN, 0, 1);
    frames(1);
    EXPECT_NEAR(s.timeline.time, keys[next + 1], 1e-5) << "two Down taps in one frame";
    // More taps than there are keys before: it stops at the first key.
    for (size_t i = 0; i < next + 4; ++i) tap(GLFW_KEY_DOWN, 0, 0);
    frames(1);
    EXPECT_NEAR(s.timeline.time, keys.front(), 1e-5);
    press(GLFW_KEY_UP);
    EXPECT_NEAR(s.timeline.time, keys[1], 1e-5);
    // Shift+Right / Shift+Left: the clip's ends.
    press(GLFW_KEY_RIGHT, GLFW_MOD_SHIFT);
    EXPECT_NEAR(s.timeline.time, clip.duration, 1e-5);
    press(GLFW_KEY_LEFT, GLFW_MOD_SHIFT);
    EXPECT_NEAR(s.timeline.time, clip.startTime, 1e-5);
    // No joint selected: any joint's keys.
    s.selectedJoint = -1;
    frames(1);
    press(GLFW_KEY_UP);
    EXPECT_GT(s.timeline.time, clip.startTime);
    EXPECT_EQ(s.keyTimes.clip, walk);
    EXPECT_TRUE(std::binary_search(s.keyTimes.all.begin(), s.keyTimes.all.end(), static_cast<float>(s.timeline.time)));
}

TEST_F(ViewerSmoke, AShiftDragOnTheRulerSetsAPreviewRangeThatLoops) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    const int walk = m.findClip("walk");
    click("clip:walk");
    press(GLFW_KEY_SPACE);  // pause while drawing the range
    const double len = m.clips[walk].duration - m.clips[walk].startTime;
    shift = true;
    mouse = at("scrub", 0.25f);
    frames(1);
    mouseDown = true;
    frames(1);
    mouse = at("scrub", 0.6f);
    frames(2);
    mouseDown = false;
    shift = false;
    frames(1);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    s.selectedJoint = m.skeleton.find("shoulder.R");
    frames(1);
    shot("timeline-range");
    ASSERT_TRUE(s.timeline.hasRange);
    EXPECT_NEAR(s.timeline.rangeStart, 0.25 * len, 0.03 * len);
    EXPECT_NEAR(s.timeline.rangeEnd, 0.6 * len, 0.03 * len);
    // Shift+Left / Shift+Right go to the range's ends now.
    press(GLFW_KEY_LEFT, GLFW_MOD_SHIFT);
    EXPECT_NEAR(s.timeline.time, s.timeline.rangeStart, 1e-5);
    press(GLFW_KEY_RIGHT, GLFW_MOD_SHIFT);
    EXPECT_NEAR(s.timeline.time, s.timeline.rangeEnd, 1e-5);
    // Playing loops inside it: over more than the clip's length, never outside.
    press(GLFW_KEY_SPACE);
    ASSERT_TRUE(s.timeline.playing);
    double lo = 1e9, hi = -1e9;
    for (int i = 0; i < static_cast<int>(len * 60.0 * 1.5); ++i) {
        frames(1);
        lo = std::min(lo, s.timeline.time);
        hi = std::max(hi, s.timeline.time);
        ASSERT_GE(s.timeline.time, s.timeline.rangeStart - 1e-6);
        ASSERT_LE(s.timeline.time, s.timeline.rangeEnd + 1e-6);
    }
    EXPECT_LT(lo - s.timeline.rangeStart, 0.05);  // it came round to the start
    EXPECT_GT(hi, s.timeline.rangeEnd - 0.05);
    click("clearrange");
    EXPECT_FALSE(s.timeline.hasRange);
}

TEST_F(ViewerSmoke, TheWheelZoomsTheRulerAndFitShowsTheWholeClip) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    const int walk = m.findClip("walk");
    click("clip:walk");
    const double len = m.clips[walk].duration - m.clips[walk].startTime;
    EXPECT_EQ(s.timeline.viewEnd, s.timeline.viewStart);  // the whole clip
    mouse = at("scrub", 0.5f);
    frames(1);
    wheel = 2.0f;
    frames(2);
    const double span = s.timeline.viewEnd - s.timeline.viewStart;
    EXPECT_GT(span, 0.0);
    EXPECT_NEAR(span, len * 0.64, 1e-6 + 0.01 * len);  // 0.8 per notch
    // A click on the zoomed ruler lands on the zoomed span: its middle is the view's middle.
    press(GLFW_KEY_SPACE);
    click("scrub", 0.5f);
    const double mid = 0.5 * (s.timeline.viewStart + s.timeline.viewEnd);
    EXPECT_NEAR(s.timeline.time, mid, 1.0 / s.timeline.sampleRate + 1e-6);
    // A middle-button drag to the left pans later in the clip, keeping the span.
    const double v0 = s.timeline.viewStart;
    mouse = at("scrub", 0.5f);
    frames(1);
    middleDown = true;
    frames(1);
    mouse = at("scrub", 0.3f);
    frames(2);
    middleDown = false;
    frames(1);
    EXPECT_GT(s.timeline.viewStart, v0);
    EXPECT_NEAR(s.timeline.viewEnd - s.timeline.viewStart, span, 1e-9);
    wheel = -5.0f;
    mouse = at("scrub", 0.5f);
    frames(2);
    EXPECT_EQ(s.timeline.viewEnd, s.timeline.viewStart);  // zoomed out to the whole clip again
    wheel = 3.0f;
    frames(2);
    EXPECT_GT(s.timeline.viewEnd, s.timeline.viewStart);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    click("fit");
    EXPECT_EQ(s.timeline.viewEnd, s.timeline.viewStart);
}

TEST_F(ViewerSmoke, TheBlendPanelsBlendShowsInTheTimelineAndTheClipsPanel) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    s.panels.blend = true;
    frames(2);
    click("blend:start");
    ASSERT_TRUE(s.blend.active);
    const int walk = m.findClip("walk"), wave = m.findClip("wave");
    s.blend.blendA = walk;
    s.blend.blendB = wave;
    s.blend.blendParam = 0.5f;
    click("blend:blend");
    frames(30);  // past the 0.3 s fade into the blend space
    ASSERT_NE(s.timeline.driver, nullptr);
    const Controller& c = *s.timeline.driver;
    EXPECT_TRUE(s.timeline.blendSpace);
    EXPECT_EQ(s.timeline.name, m.clips[walk].name + " | " + m.clips[wave].name);
    EXPECT_EQ(s.blend.rows[0].label, s.timeline.name);
    // Layers are named by what they play, not "layer 0".
    ASSERT_EQ(s.blend.rows.size(), 3u);
    EXPECT_EQ(s.blend.rows[1].label, "mask: off");
    EXPECT_EQ(s.blend.rows[2].label, "additive: off");
    EXPECT_FLOAT_EQ(s.timeline.phase, c.phase());
    // The Clips panel: both clips highlighted by their weights.
    ASSERT_EQ(s.timeline.clipShare.size(), m.clips.size());
    EXPECT_GT(s.timeline.clipShare[walk], 0.0f);
    EXPECT_GT(s.timeline.clipShare[wave], 0.0f);
    EXPECT_NEAR(s.timeline.clipShare[walk] + s.timeline.clipShare[wave], 1.0f, 1e-5f);
    // The timeline's time is the blend's: phase x blended length, and it moves.
    EXPECT_NEAR(s.timeline.time, c.phase() * s.timeline.end, 1e-4);
    const float p0 = s.timeline.phase;
    frames(5);
    EXPECT_NE(s.timeline.phase, p0);
    // The Timeline's Play pauses the blend; a scrub moves its phase.
    click("play");
    EXPECT_FALSE(c.playing());
    const float p1 = c.phase();
    frames(5);
    EXPECT_FLOAT_EQ(c.phase(), p1);
    click("scrub", 0.5f);
    EXPECT_NEAR(c.phase(), 0.5f, 0.03f);
    EXPECT_FLOAT_EQ(s.timeline.phase, c.phase());
    // Picking a clip in the Clips panel plays it (fading from the blend), and it is highlighted.
    click("clip:" + m.clips[walk].name);
    frames(40);
    EXPECT_FALSE(s.timeline.blendSpace);
    EXPECT_EQ(s.timeline.clip, walk);
    EXPECT_FLOAT_EQ(s.timeline.clipShare[walk], 1.0f);
    EXPECT_FLOAT_EQ(s.timeline.clipShare[wave], 0.0f);
}

TEST_F(ViewerSmoke, OnceModePlayAtTheEndRestartsFromTheStart) {
    ViewerState& s = viewer->state();
    click("clip:walk");
    press(GLFW_KEY_L);  // loop -> once
    ASSERT_EQ(s.timeline.mode, LoopMode::Once);
    press(GLFW_KEY_END);
    frames(2);
    EXPECT_FALSE(s.timeline.playing);  // once: stopped at the end
    EXPECT_NEAR(s.timeline.time, s.timeline.end, 1e-5);
    click("play");
    EXPECT_TRUE(s.timeline.playing);
    EXPECT_LT(s.timeline.time, s.timeline.start + 0.2);  // from the start again
}

// Unweighted vertices hidden inside the mesh show through it as points (x-ray): a box
// weighted to its joint with an unweighted triangle at its centre.
TEST_F(ViewerSmoke, UnweightedVerticesInsideTheMeshShowThroughIt) {
    namespace g = testing::gltf;
    g::Document d;
    g::Node joint;
    joint.name = "root";
    g::Node body;
    body.name = "body";
    body.mesh = 0;
    body.skin = 0;
    d.nodes = {joint, body};
    g::Mesh box;
    box.name = "box";
    for (int i = 0; i < 8; ++i) {
        box.positions.push_back(glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f));
        box.influences.push_back({{0, 1.0f}});
    }
    box.indices = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    for (const glm::vec3 p : {glm::vec3(0.0f), glm::vec3(0.05f, 0.0f, 0.0f), glm::vec3(0.0f, 0.05f, 0.0f)}) {
        box.positions.push_back(p);
        box.influences.push_back({});  // no weight
    }
    box.indices.insert(box.indices.end(), {8, 9, 10});
    d.meshes = {box};
    d.skins = {{{0}, {}}};
    d.skins[0].inverseBind = g::inverseBindFromNodes(d, {0});
    const std::string file = (shotDir / "hidden.gltf").string();
    ASSERT_TRUE(g::write(d, file));
    ViewerState& s = viewer->state();
    s.requests.open = file;
    frames(1);
    viewer->waitForLoad();
    frames(3);
    ASSERT_EQ(s.path, file) << s.error;
    s.view.grid = false;
    s.view.bones = false;
    s.checks.colorView = ColorView::Unweighted;
    frames(2);
    EXPECT_EQ(s.ui.flaggedVertices, 3u);
    int w = 0, h = 0;
    std::vector<uint8_t> px = viewer->captureFrame(w, h);
    shot("xray");
    const float dw = ImGui::GetIO().DisplaySize.x, dh = ImGui::GetIO().DisplaySize.y;
    glm::vec2 at;
    ASSERT_TRUE(projectToScreen(s.camera.projection(dw / dh) * s.camera.view(), glm::vec3(0.0f), dw, dh, at));
    const int x = static_cast<int>(at.x * w / dw), y = static_cast<int>(at.y * h / dh);
    ASSERT_TRUE(x > 0 && y > 0 && x < w && y < h);
    int red = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            const uint8_t* p = px.data() + (static_cast<size_t>(y + dy) * w + (x + dx)) * 4;
            red += p[0] > 200 && p[1] < 90 && p[2] < 90;
        }
    }
    EXPECT_GE(red, 5) << "the unweighted vertices inside the box do not show";
    // With the material view, the same pixels are the box's grey.
    s.checks.colorView = ColorView::None;
    frames(1);
    px = viewer->captureFrame(w, h);
    const uint8_t* p = px.data() + (static_cast<size_t>(y) * w + x) * 4;
    EXPECT_FALSE(p[0] > 200 && p[1] < 90 && p[2] < 90);
}

// The UI scale rebuilds the font at the scaled size and scales the style; About opens.
TEST_F(ViewerSmoke, UiScaleAndAbout) {
    ViewerState& s = viewer->state();
    EXPECT_FLOAT_EQ(ImGui::GetFontSize(), std::round(13.0f * s.ui.contentScale));
    const float pad = ImGui::GetStyle().FramePadding.x;
    s.ui.uiScale = 1.5f;
    frames(2);
    EXPECT_FLOAT_EQ(ImGui::GetFontSize(), std::round(13.0f * 1.5f * s.ui.contentScale));
    EXPECT_NEAR(ImGui::GetStyle().FramePadding.x, pad * 1.5f, 0.51f);
    press(GLFW_KEY_MINUS, GLFW_MOD_CONTROL);
    press(GLFW_KEY_MINUS, GLFW_MOD_CONTROL);
    frames(1);
    EXPECT_FLOAT_EQ(s.ui.uiScale, 1.0f);
    EXPECT_FLOAT_EQ(ImGui::GetFontSize(), std::round(13.0f * s.ui.contentScale));
    s.ui.about = true;
    frames(2);
    ImGuiWindow* about = window("About rigview");
    ASSERT_NE(about, nullptr);
    EXPECT_TRUE(about->Active);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Joint names: by default only the selection, its parent and its children; N cycles to all
// joints, then none.
TEST_F(ViewerSmoke, JointNamesForTheSelectionAndItsNeighboursNeverOverlap) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    frames(1);
    EXPECT_EQ(s.ui.namesDrawn, 0);  // nothing selected
    const int arm = m.skeleton.find("upper_arm.L");
    ASSERT_GE(arm, 0);
    s.selectedJoint = arm;
    frames(2);
    // Itself, parent, children; labels that would overlap one already placed are left out, the
    // selected joint's placed first (always shown).
    auto noOverlaps = [&](const char* when) {
        const std::vector<glm::vec4>& r = s.ui.nameRects;
        ASSERT_EQ(static_cast<int>(r.size()), s.ui.namesDrawn) << when;
        for (size_t i = 0; i < r.size(); ++i) {
            for (size_t j = i + 1; j < r.size(); ++j) {
                EXPECT_FALSE(r[i].x < r[j].z && r[j].x < r[i].z && r[i].y < r[j].w && r[j].y < r[i].w)
                    << when << ": labels " << i << " and " << j << " overlap";
            }
        }
    };
    EXPECT_GE(s.ui.namesDrawn, 1);
    EXPECT_LE(s.ui.namesDrawn, 2 + static_cast<int>(s.children[arm].size()));
    noOverlaps("selection");
    const glm::vec4 selected = s.ui.nameRects.front();
    press(GLFW_KEY_N);
    frames(1);
    EXPECT_GT(s.ui.namesDrawn, 2 + static_cast<int>(s.children[arm].size()));
    EXPECT_LE(s.ui.namesDrawn, static_cast<int>(s.joints.size()));
    noOverlaps("all");
    // The first box is the selected joint's (its name's width; the pose moves meanwhile).
    EXPECT_FLOAT_EQ(s.ui.nameRects.front().z - s.ui.nameRects.front().x, selected.z - selected.x)
        << "the selected joint's name is not shown first";
    std::printf("all joint names: %d of %zu drawn (the rest would overlap)\n", s.ui.namesDrawn, s.joints.size());
    press(GLFW_KEY_N);
    frames(1);
    EXPECT_EQ(s.ui.namesDrawn, 0);
}

// The Hierarchy's search: typing part of a name lists the nodes that hold it (any case), flat;
// clicking one selects it; clearing the search brings the tree back.
TEST_F(ViewerSmoke, TheHierarchySearchListsMatchingNodesAndSelects) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    click("hierarchy:search");
    for (char c : std::string("ARM")) ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
    frames(2);
    EXPECT_STREQ(s.ui.hierarchySearch, "ARM");
    int listed = 0;
    for (const std::string& n : m.skeleton.names) {
        std::string l = n;
        for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        listed += l.find("arm") != std::string::npos;
    }
    ASSERT_GT(listed, 1);
    EXPECT_EQ(s.ui.hierarchyMatches, listed);
    const int forearm = m.skeleton.find("forearm.R");
    ASSERT_GE(forearm, 0);
    click("node:forearm.R");
    EXPECT_EQ(s.selectedJoint, forearm);
    s.ui.hierarchySearch[0] = '\0';
    frames(2);
    EXPECT_EQ(s.ui.hierarchyMatches, -1) << "the tree is back";
}

// Every view option the view option table (render/view_options.h) places in a panel is drawn
// there under its probe name, and a click on its checkbox or radio buttons changes it.
TEST_F(ViewerSmoke, EveryViewOptionInAPanelHasItsWidget) {
    ViewerState& s = viewer->state();
    frames(1);
    int shown = 0;
    for (const ViewOptionSpec& o : viewOptionTable()) {
        if (o.panel == ViewPanelSlot::None) continue;
        ++shown;
        if (o.type == ViewOptionType::Flag) {
            const bool before = s.view.*o.flag;
            click(o.probe);
            EXPECT_NE(s.view.*o.flag, before) << o.key;
            s.view.*o.flag = before;  // the next option is drawn as it was
        } else if (o.type == ViewOptionType::Choice && o.radio) {
            for (size_t i = o.choices.size(); i-- > 0;) {  // the last first: it starts at the first
                click(std::string(o.probe) + ":" + o.choices[i].name);
                EXPECT_EQ(o.choiceOf(s.view), static_cast<int>(i)) << o.key << " " << o.choices[i].name;
            }
        } else {
            EXPECT_TRUE(viewer->probe().rects.count(o.probe)) << o.key << ": no widget '" << o.probe << "' on screen";
        }
    }
    EXPECT_GT(shown, 0);
}

// The Crowd panel: its checkbox turns the crowd on (framed whole: every instance drawn),
// a close camera culls most of them, more instances are drawn after a change, and the
// checkbox turns it off again; the frame on screen changes with it.
TEST_F(ViewerSmoke, CrowdPanelTogglesAnInstancedCrowd) {
    ViewerState& s = viewer->state();
    s.crowd.panelOpen = true;
    s.crowd.budgeted = false;  // every instance posed and drawn, however long a frame takes
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


// The docked layout (issue 11) in the real window: resizes, splitters, saved settings.
class ViewerLayout : public ::testing::Test, protected testing::ViewerDriver {
protected:
    void SetUp() override {
        config = std::filesystem::temp_directory_path() / ("rigview-config-" + std::to_string(::getpid()));
        std::filesystem::remove_all(config);
        std::filesystem::create_directories(config);
        configHome = std::make_unique<testing::ScopedEnv>("XDG_CONFIG_HOME", config.c_str());
    }
    void TearDown() override {
        viewer.reset();
        configHome.reset();
        std::filesystem::remove_all(config);
    }
    using ViewerDriver::start;
    void start(bool remember = true) {
        ViewerConfig cfg;
        cfg.model = demoModelPath();
        cfg.remember = remember;
        ViewerDriver::start(cfg);
    }
    // The demo with its walk clip chosen and paused.
    const Clip& startOnWalkPaused() {
        start();
        click("clip:walk");
        press(GLFW_KEY_SPACE);
        const ViewerState& s = viewer->state();
        return s.model->clips[static_cast<size_t>(s.clip)];
    }
    // Resize the window as a person would and wait until ImGui sees the new size.
    void resize(int w, int h) {
        glfwSetWindowSize(viewer->windowHandle(), w, h);
        for (int i = 0; i < 60; ++i) {
            frames(1);
            const ImVec2 d = ImGui::GetIO().DisplaySize;
            if (static_cast<int>(d.x) == w && static_cast<int>(d.y) == h) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        frames(2);
    }
    // Every window ImGui drew lies inside the window; every panel the layout shows was drawn
    // where the layout put it, with a positive size; the middle of the viewport is free.
    void expectPanelsInside(const std::string& where) {
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        ImGuiContext& g = *ImGui::GetCurrentContext();
        for (ImGuiWindow* win : g.Windows) {
            if (!win->Active || win->Hidden || (win->Flags & ImGuiWindowFlags_ChildWindow) || (win->Flags & ImGuiWindowFlags_Tooltip)) continue;
            EXPECT_GE(win->Pos.x, -0.5f) << win->Name << " " << where;
            EXPECT_GE(win->Pos.y, -0.5f) << win->Name << " " << where;
            EXPECT_LE(win->Pos.x + win->Size.x, d.x + 0.5f) << win->Name << " " << where;
            EXPECT_LE(win->Pos.y + win->Size.y, d.y + 0.5f) << win->Name << " " << where;
        }
        const Layout& layout = viewer->state().ui.layout;
        int shown = 0;
        for (int i = 0; i < kPanelCount; ++i) {
            if (!layout.rects.shown[i]) continue;
            ++shown;
            ImGuiWindow* win = ImGui::FindWindowByName(panelName(static_cast<PanelId>(i)));
            ASSERT_NE(win, nullptr) << panelName(static_cast<PanelId>(i)) << " " << where;
            EXPECT_TRUE(win->Active) << win->Name << " " << where;
            EXPECT_GT(win->Size.y, 40.0f) << win->Name << " " << where;
            EXPECT_GT(win->Size.x, 40.0f) << win->Name << " " << where;
            EXPECT_NEAR(win->Pos.x, layout.rects.panel[i].x, 0.5f) << win->Name << " " << where;
            EXPECT_NEAR(win->Pos.y, layout.rects.panel[i].y, 0.5f) << win->Name << " " << where;
        }
        EXPECT_GE(shown, 5) << where;
        const LayoutRect& c = layout.rects.centre;
        EXPECT_GE(c.w, 0.4f * d.x - 0.5f) << where;
        mouse = ImVec2(c.x + 0.5f * c.w, c.y + 0.5f * c.h);
        frames(2);
        EXPECT_FALSE(ImGui::GetIO().WantCaptureMouse) << "a panel covers the middle of the viewport " << where;
        mouse = ImVec2(-FLT_MAX, -FLT_MAX);
        // The model is centred in the viewport area, not in the window behind the panels.
        const ViewerState& s = viewer->state();
        const glm::mat4 vp = s.camera.projection(d.x / d.y) * s.camera.view();
        glm::vec2 p;
        ASSERT_TRUE(projectToScreen(vp, s.camera.target, d.x, d.y, p));
        EXPECT_NEAR(p.x, c.x + 0.5f * c.w, 1.0f) << where;
        EXPECT_NEAR(p.y, c.y + 0.5f * c.h, 1.0f) << where;
    }

    std::filesystem::path config;
    std::unique_ptr<testing::ScopedEnv> configHome;
};

// 900 x 600 lost View, Checks and the Timeline off-screen; 800 x 500 gave the Hierarchy no
// height; 1600 x 900 put the Timeline over the feet. Now every panel follows the window.
TEST_F(ViewerLayout, PanelsStayInsideTheWindowThroughResizes) {
    start(false);
    for (auto [w, h] : {std::pair{900, 600}, {800, 500}, {1600, 900}, {3840, 2160}, {1280, 800}, {800, 500}}) {
        resize(w, h);
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        ASSERT_EQ(static_cast<int>(d.x), w) << "the window did not resize";
        ASSERT_EQ(static_cast<int>(d.y), h) << "the window did not resize";
        const std::string where = std::to_string(w) + "x" + std::to_string(h);
        expectPanelsInside(where);
        ImGuiWindow* tree = ImGui::FindWindowByName("Hierarchy");
        ASSERT_NE(tree, nullptr);
        EXPECT_GT(tree->Size.y, 100.0f) << where;
        shot("layout-" + where);
    }
    // Opening more panels than the right column holds turns it into tabs; all still inside.
    viewer->state().panels.blend = true;
    viewer->state().panels.morphs = true;
    viewer->state().panels.ik = true;
    frames(1);
    viewer->state().crowd.panelOpen = true;
    frames(2);
    EXPECT_TRUE(viewer->state().ui.layout.rects.tabbed[static_cast<int>(Area::Right)]);
    EXPECT_TRUE(viewer->state().ui.layout.shows(PanelId::Crowd));  // the one opened last is shown
    expectPanelsInside("800x500 with tabs");
    shot("layout-tabs");
}

// Issue 29 (the layout) in the real window with the demo (it has a state machine): the
// Timeline has its own strip, fully inside the window and never a tab, its ruler and frame
// field without horizontal scrolling, at 800 x 500, 1280 x 720 and at UI scale 1.5; the
// Hierarchy shows at least five rows at 800 x 500 (its inspector below a splitter); the Open
// panel's path field takes the panel's width. A model without a machine closes the State
// Machine panel, and the new model's tree starts at the top.
TEST_F(ViewerLayout, TimelineHierarchyAndPathFieldStayReadable) {
    start(false);
    ViewerState& s = viewer->state();
    EXPECT_TRUE(s.panels.machine) << "the demo's machine opens its panel";
    for (auto [w, h, scale] : {std::tuple{800, 500, 1.0f}, {1280, 720, 1.0f}, {800, 500, 1.5f}, {1280, 720, 1.5f}}) {
        s.ui.uiScale = scale;
        resize(w, h);
        frames(2);
        const std::string where = std::to_string(w) + "x" + std::to_string(h) + " at " + std::to_string(scale);
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        const Layout& layout = s.ui.layout;
        ASSERT_TRUE(layout.shows(PanelId::Timeline)) << where;
        ImGuiWindow* tl = ImGui::FindWindowByName("Timeline");
        ASSERT_NE(tl, nullptr);
        EXPECT_TRUE(tl->Active && !tl->Hidden) << where;
        EXPECT_GE(tl->Pos.x, 0.0f) << where;
        EXPECT_LE(tl->Pos.x + tl->Size.x, d.x + 0.5f) << where;
        EXPECT_LE(tl->Pos.y + tl->Size.y, d.y + 0.5f) << where;
        EXPECT_GE(tl->Size.x, 0.4f * d.x) << where;
        EXPECT_EQ(tl->ScrollMax.x, 0.0f) << "the Timeline scrolls sideways " << where;
        for (int a = 0; a < kTabGroups; ++a) {
            const LayoutRect& ts = layout.rects.tabStrip[a];
            if (layout.rects.groupTabs[a]) EXPECT_FALSE(ts.y + ts.h > tl->Pos.y && ts.x < tl->Pos.x + tl->Size.x && tl->Pos.x < ts.x + ts.w) << where;
        }
        for (const char* item : {"scrub", "frame"}) {
            const ImVec4 r = rect(item);
            EXPECT_GE(r.x, tl->Pos.x) << item << " " << where;
            EXPECT_LE(r.z, tl->Pos.x + tl->Size.x - tl->WindowPadding.x + 0.5f) << item << " " << where;
        }
        const ImVec4 ruler = rect("scrub");
        EXPECT_LE(ruler.y + ImGui::GetFontSize(), tl->Pos.y + tl->Size.y) << "the ruler is below the panel's edge " << where;
        // The State Machine panel opened with the demo, somewhere other than over the Timeline.
        EXPECT_TRUE(layout.open[static_cast<int>(PanelId::Machine)]) << where;
        // The path field: the Open panel's width.
        if (layout.shows(PanelId::Open)) {
            // (A small panel scrolls: its scroll bar takes from the field's width.)
            const ImVec4 path = rect("path");
            ImGuiWindow* openWin = ImGui::FindWindowByName("Open");
            ASSERT_NE(openWin, nullptr);
            EXPECT_GE(path.z - path.x, std::min(200.0f, openWin->ContentRegionRect.GetWidth() - 1.0f)) << where;
            EXPECT_GE(path.z - path.x, 150.0f) << where;
        } else {
            ADD_FAILURE() << "the Open panel is hidden " << where;
        }
        // The Hierarchy's rows that lie wholly inside its tree.
        if (w == 800 && scale == 1.0f) {
            ASSERT_TRUE(layout.shows(PanelId::Hierarchy)) << where;
            const ImVec4 tree = rect("hierarchy:tree");
            int rows = 0;
            for (const std::string& name : s.model->skeleton.names) {
                auto it = viewer->probe().rects.find("node:" + name);
                if (it != viewer->probe().rects.end() && it->second.y >= tree.y && it->second.w <= tree.w) ++rows;
            }
            EXPECT_GE(rows, 5) << where;
            const ImVec4 inspector = rect("hierarchy:inspector");
            EXPECT_GE(inspector.w - inspector.y, 3.0f * ImGui::GetTextLineHeight()) << where;
        }
        shot("issue29-" + where);
    }
    // Scroll the demo's tree down, then open the demo again: the tree starts at the top.
    s.ui.uiScale = 1.0f;
    resize(800, 500);
    s.selectedJoint = -1;
    frames(1);
    ImGuiWindow* treeWin = nullptr;
    for (ImGuiWindow* win : ImGui::GetCurrentContext()->Windows) {
        if ((win->Flags & ImGuiWindowFlags_ChildWindow) && std::string(win->Name).rfind("Hierarchy/tree", 0) == 0) treeWin = win;
    }
    ASSERT_NE(treeWin, nullptr);
    ASSERT_GT(treeWin->ScrollMax.y, 0.0f);
    ImGui::SetScrollY(treeWin, treeWin->ScrollMax.y);
    frames(2);
    EXPECT_GT(treeWin->Scroll.y, 0.0f);
    s.requests.open = demoModelPath();
    frames(1);
    viewer->waitForLoad();
    frames(3);
    EXPECT_EQ(treeWin->Scroll.y, 0.0f) << "the new model's tree kept the old scroll";
    // A model without a machine: the State Machine panel closes (the menu opens it again).
    s.requests.open = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    frames(1);
    viewer->waitForLoad();
    frames(2);
    ASSERT_TRUE(s.model) << s.error;
    EXPECT_FALSE(s.panels.machine);
    EXPECT_FALSE(s.ui.layout.open[static_cast<int>(PanelId::Machine)]);
}

// Change options, the camera and a splitter (dragged with the mouse), close a panel, quit;
// a new viewer with the same config folder finds them as they were. Reset layout puts the
// default layout back.
TEST_F(ViewerLayout, SettingsAreRestoredAfterQuitAndResetLayoutRestoresDefaults) {
    start();
    ViewerState& s = viewer->state();
    s.view.bones = true;
    s.view.grid = false;
    s.checks.onion = true;
    s.camera.azimuthDeg = 77.0f;
    s.camera.distance = 2.5f;
    s.panels.stats = false;
    frames(2);
    // Drag the left column's edge 40 pixels to the right.
    const Layout& layout = s.ui.layout;
    const float left = layout.rects.leftWidth;
    const Splitter* edge = nullptr;
    for (int i = 0; i < layout.rects.splitterCount; ++i) {
        if (layout.rects.splitters[i].kind == Splitter::LeftEdge) edge = &layout.rects.splitters[i];
    }
    ASSERT_NE(edge, nullptr);
    drag(ImVec2(edge->rect.x + 0.5f * edge->rect.w, edge->rect.y + 0.5f * edge->rect.h), ImVec2(40.0f, 0.0f), 4);
    EXPECT_FLOAT_EQ(layout.rects.leftWidth, left + 40.0f);
    EXPECT_FLOAT_EQ(s.camera.azimuthDeg, 77.0f) << "dragging the splitter turned the camera";
    ImGuiWindow* tree = ImGui::FindWindowByName("Hierarchy");
    ASSERT_NE(tree, nullptr);
    EXPECT_NEAR(tree->Size.x, left + 40.0f, 0.5f);
    // Written while running too (at most once a second, when something changed).
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    frames(1);
    {
        std::ifstream in(config / "rigview" / "settings.json");
        std::stringstream text;
        text << in.rdbuf();
        ViewerState saved;
        bool hasCamera = false;
        std::string why;
        ASSERT_TRUE(applySettingsJson(text.str(), saved, hasCamera, why)) << why;
        EXPECT_TRUE(saved.view.bones);
        EXPECT_FLOAT_EQ(saved.ui.layout.settings.leftWidth, left + 40.0f);
    }
    viewer.reset();  // quit
    ASSERT_TRUE(std::filesystem::exists(config / "rigview" / "settings.json"));

    start();
    ViewerState& t = viewer->state();
    EXPECT_TRUE(t.view.bones);
    EXPECT_FALSE(t.view.grid);
    EXPECT_TRUE(t.checks.onion);
    EXPECT_FLOAT_EQ(t.camera.azimuthDeg, 77.0f);
    EXPECT_FLOAT_EQ(t.camera.distance, 2.5f) << "the first model was framed over the saved camera";
    EXPECT_FALSE(t.panels.stats);
    EXPECT_FALSE(t.ui.layout.shows(PanelId::Stats));
    EXPECT_FLOAT_EQ(t.ui.layout.rects.leftWidth, left + 40.0f);
    tree = ImGui::FindWindowByName("Hierarchy");
    ASSERT_NE(tree, nullptr);
    EXPECT_NEAR(tree->Size.x, left + 40.0f, 0.5f);
    ASSERT_FALSE(t.recent.empty());
    EXPECT_EQ(t.recent.front(), std::filesystem::absolute(demoModelPath()).string());
    // Reset layout (the menu's item sets this request).
    t.ui.layout.resetRequested = true;
    frames(2);
    EXPECT_FLOAT_EQ(t.ui.layout.rects.leftWidth, LayoutSettings{}.leftWidth);
    EXPECT_TRUE(t.panels.stats);
    EXPECT_TRUE(t.ui.layout.shows(PanelId::Stats));
    EXPECT_FALSE(t.view.bones) << "reset layout puts the view options back too";
    expectPanelsInside("after reset");
    viewer.reset();
    start();
    EXPECT_FLOAT_EQ(viewer->state().ui.layout.rects.leftWidth, LayoutSettings{}.leftWidth);
    EXPECT_TRUE(viewer->state().panels.stats);
}

// A corrupt settings file: one warning line, the defaults, no crash; quitting replaces it.
TEST_F(ViewerLayout, ACorruptSettingsFileIsIgnoredWithOneWarning) {
    std::filesystem::create_directories(config / "rigview");
    {
        std::ofstream out(config / "rigview" / "settings.json");
        out << "{\"version\": 1, \"layout\": {\"left\": \"wide\"}";
    }
    ::testing::internal::CaptureStderr();
    start();
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("settings.json: ignored"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FLOAT_EQ(viewer->state().ui.layout.rects.leftWidth, LayoutSettings{}.leftWidth);
    expectPanelsInside("defaults");
    viewer.reset();
    std::ifstream in(config / "rigview" / "settings.json");
    std::stringstream text;
    text << in.rdbuf();
    ViewerState s;
    bool hasCamera = false;
    std::string why;
    EXPECT_TRUE(applySettingsJson(text.str(), s, hasCamera, why)) << why;
}

// A settings file that is a FIFO or a link to /dev/zero: refused at once with one line (never
// waited on, never read without end), the defaults used; quitting does not block on it.
TEST_F(ViewerLayout, ASettingsFileThatIsAFifoOrADeviceIsRefusedAtOnce) {
    std::filesystem::create_directories(config / "rigview");
    const std::filesystem::path file = config / "rigview" / "settings.json";
    for (const std::string kind : {"fifo", "zero"}) {
        std::filesystem::remove(file);
        if (kind == "fifo") {
            ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
        } else {
            std::filesystem::create_symlink("/dev/zero", file);
        }
        ::testing::internal::CaptureStderr();
        start();
        const std::string err = ::testing::internal::GetCapturedStderr();
        EXPECT_NE(err.find("settings.json: ignored, defaults used (not a regular file (" +
                           std::string(kind == "fifo" ? "a named pipe" : "a device") + "))"),
                  std::string::npos)
            << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_FLOAT_EQ(viewer->state().ui.layout.rects.leftWidth, LayoutSettings{}.leftWidth);
        viewer.reset();
    }
}

// The Clips panel's "Compressed" toggle: the viewer plays the clips compressed (built in the
// background), the character's pose within the tolerance of the plain clip's at the same time
// (and not exactly it: the compressed clips played), the Stats' size and error filled in, and
// the plain pose back when the toggle goes off.
TEST(ViewerCompressed, TheTogglePlaysTheCompressedClipWithinTolerance) {
    ViewerConfig cfg;
    cfg.model = demoModelPath();
    cfg.remember = false;
    auto v = Viewer::create(cfg);
    ASSERT_TRUE(v.ok()) << v.error().message;
    Viewer& viewer = *v.value();
    viewer.waitForLoad();
    ViewerState& s = viewer.state();
    ASSERT_TRUE(s.model && s.animator);
    viewer.frame(1.0 / 60.0);
    if (s.timeline.playing) s.requests.togglePlay = true;
    s.requests.seek = 0.43;
    viewer.frame(1.0 / 60.0);
    ASSERT_FALSE(s.timeline.playing);
    const std::vector<glm::mat4> plain = s.animator->world();
    s.compression.toleranceMm = 0.1f;
    s.compression.enabled = true;
    const auto start = std::chrono::steady_clock::now();
    while (!s.compression.active && std::chrono::steady_clock::now() - start < std::chrono::seconds(300)) {
        viewer.frame(1.0 / 60.0);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(s.compression.active) << s.compression.error;
    EXPECT_GT(s.compression.compressedBytes, 0u);
    EXPECT_LT(s.compression.compressedBytes, s.compression.plainBytes);
    EXPECT_GT(s.compression.maxErrorMm, 0.0);
    EXPECT_LE(s.compression.maxErrorMm, 0.1 + 1e-6);
    viewer.frame(1.0 / 60.0);
    EXPECT_NEAR(s.timeline.time, 0.43, 1e-6);
    const std::vector<glm::mat4>& compressed = s.animator->world();
    ASSERT_EQ(compressed.size(), plain.size());
    double worst = 0.0;
    for (size_t i = 0; i < plain.size(); ++i) {
        worst = std::max(worst, static_cast<double>(glm::length(glm::vec3(compressed[i][3]) - glm::vec3(plain[i][3]))));
    }
    EXPECT_LE(worst, 1.5e-4);
    EXPECT_GT(worst, 0.0) << "the viewer drew the plain pose with the toggle on";
    s.compression.enabled = false;
    viewer.frame(1.0 / 60.0);
    EXPECT_FALSE(s.compression.active);
    for (size_t i = 0; i < plain.size(); ++i) ASSERT_EQ(s.animator->world()[i], plain[i]) << "node " << i;
}

// Compare mode through the Open panel's "Compare with...", which opens the file browser (not
// the path field's text, which right after opening a model is that model): the demo chosen
// there, compared with itself, deviates nowhere, the diff summary and the legend say so; a
// file that does not load is one line naming it, and the comparison on screen stays; "Stop
// comparing" ends it.
TEST_F(ViewerSmoke, CompareWithItselfShowsNoDeviation) {
    ViewerState& s = viewer->state();
    s.pathField = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    frames(1);
    click("compare");
    ASSERT_TRUE(s.ui.fileBrowser) << "Compare with... did not open the browser";
    EXPECT_TRUE(s.ui.browser.forCompare);
    EXPECT_FALSE(s.compare.loading) << "it compared with the path field's text";
    const std::filesystem::path demo = demoModelPath();
    s.ui.browser.dir = demo.parent_path().string();
    s.ui.browser.listedDir.clear();
    frames(2);
    click("browser:entry:" + demo.filename().string());
    click("browser:compare");
    EXPECT_FALSE(s.ui.fileBrowser);
    frames(1);
    viewer->waitForLoad();
    frames(2);
    const CompareState& k = s.compare;
    ASSERT_EQ(k.path, demoModelPath()) << s.error;
    EXPECT_FALSE(k.loading);
    EXPECT_EQ(s.checks.colorView, ColorView::Deviation);
    EXPECT_FALSE(k.differs);
    EXPECT_EQ(k.maxMm, 0.0);
    EXPECT_EQ(k.unmatched, 0u);
    EXPECT_EQ(k.clip, s.model->clips[static_cast<size_t>(s.clip)].name);
    ASSERT_EQ(k.deviationMm.size(), s.model->meshes.size());
    for (size_t i = 0; i < k.deviationMm.size(); ++i) {
        ASSERT_EQ(k.deviationMm[i].size(), s.model->meshes[i].vertexCount());
        for (float d : k.deviationMm[i]) ASSERT_EQ(d, 0.0f) << s.model->meshes[i].name;
    }
    for (const char* item : {"legend", "compare:path", "compare:max", "compare:summary"}) {
        EXPECT_NE(viewer->probe().rects.count(item), 0u) << item;
    }
    LegendInputs in;
    in.comparing = true;
    in.deviationMaxMm = k.maxMm;
    in.unmatched = k.unmatched;
    const Legend legend = legendFor(ColorView::Deviation, in);
    EXPECT_NE(legend.note.find("no deviation"), std::string::npos) << legend.note;
    // A file that does not load: one line naming it; the comparison stays.
    const std::string missing = "/nonexistent/other_version.gltf";
    s.requests.compare = missing;
    frames(1);
    viewer->waitForLoad();
    frames(1);
    EXPECT_NE(s.error.find(missing), std::string::npos) << s.error;
    EXPECT_EQ(s.error.find('\n'), std::string::npos) << s.error;
    EXPECT_EQ(k.path, demoModelPath());
    click("compare:stop");
    EXPECT_FALSE(k.active());
    EXPECT_EQ(s.checks.colorView, ColorView::None);
}

// `--compare B` where B's spine is bound 1 cm away: A's vertices weighted to spine deviate and
// no others; the largest deviation at a clip's time is what `rigview diff --json` reports for
// that clip at that time, and in the file pose 1 cm times the largest spine weight (in the bind
// pose both meshes lie where they were bound: no deviation); B is drawn
// as a ghost (the frame differs from one without it).
TEST(ViewerCompare, OneBindPoseMovedDeviatesWhereItsJointWeighs) {
    const std::string dir = testing::tempDir();
    const std::string demoDir = std::filesystem::path(demoModelPath()).parent_path().string();
    testing::DemoGltf g = testing::loadDemoGltf(demoDir);
    ASSERT_TRUE(testing::moveBindPose(g, "spine", glm::vec3(0.01f, 0.0f, 0.0f)));
    const std::string other = testing::writeGltf(std::move(g), dir, "spine_moved");
    std::filesystem::copy_file(demoDir + "/rigview_demo_albedo.png", dir + "/rigview_demo_albedo.png");
    const testing::RunResult r = testing::run(RIGVIEW_EXE, {"diff", demoModelPath(), other, "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j["clips"]["motion"].empty()) << r.out;
    const nlohmann::json& motion = j["clips"]["motion"][0];

    ViewerConfig cfg;
    cfg.model = demoModelPath();
    cfg.compare = other;
    cfg.remember = false;
    auto v = Viewer::create(cfg);
    ASSERT_TRUE(v.ok()) << v.error().message;
    Viewer& viewer = *v.value();
    viewer.waitForLoad();
    ViewerState& s = viewer.state();
    ASSERT_TRUE(s.model && s.animator) << s.error;
    viewer.frame(1.0 / 60.0);  // the comparison starts once the model is on screen
    viewer.waitForLoad();
    const CompareState& k = s.compare;
    ASSERT_EQ(k.path, other) << s.error;
    EXPECT_TRUE(k.differs);
    EXPECT_EQ(k.bindPosesMoved, 1u);
    EXPECT_EQ(k.clipsMoving, j["clips"]["motion"].size());
    EXPECT_EQ(k.jointsAdded + k.jointsRemoved + k.jointsRenamed + k.jointsReparented, 0u);
    // The clip diff reports, at its time: B follows A's clip and time.
    if (s.timeline.playing) s.requests.togglePlay = true;
    s.requests.selectClip = s.model->findClip(motion["clip"].get<std::string>());
    viewer.frame(1.0 / 60.0);
    s.requests.seek = motion["time"].get<double>();
    viewer.frame(1.0 / 60.0);
    ASSERT_FALSE(s.timeline.playing);
    EXPECT_EQ(k.clip, motion["clip"].get<std::string>());
    EXPECT_NEAR(k.maxMm, motion["max_mm"].get<double>(), 0.05) << "at " << s.timeline.time;
    EXPECT_EQ(s.checks.colorView, ColorView::Deviation);
    // Coloured where spine weighs, and nowhere else.
    const int32_t spine = s.model->skeleton.find("spine");
    ASSERT_GE(spine, 0);
    float spineMax = 0.0f;
    size_t moved = 0;
    for (size_t i = 0; i < s.model->meshes.size(); ++i) {
        const std::vector<float> w = jointWeights(s.model->meshes[i], spine);
        ASSERT_EQ(k.deviationMm[i].size(), w.size());
        for (size_t vtx = 0; vtx < w.size(); ++vtx) {
            spineMax = std::max(spineMax, w[vtx]);
            if (w[vtx] > 1e-3f) {
                EXPECT_GT(k.deviationMm[i][vtx], 0.0f) << s.model->meshes[i].name << " vertex " << vtx;
                ++moved;
            } else if (w[vtx] == 0.0f) {
                EXPECT_LT(k.deviationMm[i][vtx], 1e-3f) << s.model->meshes[i].name << " vertex " << vtx;
            }
        }
    }
    EXPECT_GT(moved, 0u);
    // In the bind pose the meshes are where they were bound, the same in both.
    s.bindPose = true;
    viewer.frame(1.0 / 60.0);
    EXPECT_EQ(k.clip, "");
    EXPECT_LT(k.maxMm, 1e-3);
    // In the file pose (the nodes' own transforms): 1 cm where spine weighs most.
    s.filePose = true;
    viewer.frame(1.0 / 60.0);
    EXPECT_NEAR(k.maxMm, j["joints"]["bind_pose"][0]["translation_mm"].get<double>() * spineMax, 0.05);
    EXPECT_FALSE(k.maxJoint.empty());
    // The ghost: A in its own colours, with and without B over it.
    s.checks.colorView = ColorView::None;
    int w = 0, h = 0;
    const std::vector<uint8_t> with = viewer.captureFrame(w, h);
    s.requests.stopCompare = true;
    viewer.frame(1.0 / 60.0);
    const std::vector<uint8_t> without = viewer.captureFrame(w, h);
    ASSERT_EQ(with.size(), without.size());
    size_t differ = 0;
    for (size_t p = 0; p + 3 < with.size(); p += 4) {
        differ += with[p] != without[p] || with[p + 1] != without[p + 1] || with[p + 2] != without[p + 2];
    }
    EXPECT_GT(differ, 200u) << "no ghost drawn";
}

// Issue 29: load errors, warnings and an ignored settings file show in one strip at the bottom
// of the viewport as the docked layout leaves it: inside that rectangle, over no panel (nor the
// Timeline, nor a tab strip), the text wrapped to its width, at 800 x 500 and 1280 x 720, at
// UI scale 1 and 1.5. Each message is dismissed on its own.
class ViewerNotices : public ViewerLayout {
protected:
    // Copies BoxTextured.gltf and its buffer into `config/dirName`, without
    // its texture (the test puts what it wants by that name); returns the copy's path.
    std::string copyBoxWithoutTexture(const std::string& dirName) {
        namespace fs = std::filesystem;
        const fs::path src = "/usr/share/assimp/models/glTF2/BoxTextured-glTF";
        const fs::path dir = config / dirName;
        fs::create_directories(dir);
        fs::copy_file(src / "BoxTextured.gltf", dir / "BoxTextured.gltf");
        fs::copy_file(src / "BoxTextured0.bin", dir / "BoxTextured0.bin");
        return (dir / "BoxTextured.gltf").string();
    }
    // Starts the viewer on `model` (not remembered in the settings).
    void startViewer(const std::string& model) {
        ViewerConfig cfg;
        cfg.model = model;
        cfg.remember = false;
        ViewerDriver::start(cfg);
    }
    // Opens `path` as a person would (the Open panel's request) and waits for the import.
    void open(const std::string& path) {
        viewer->state().requests.open = path;
        frames(1);
        viewer->waitForLoad();
        frames(3);
    }
    // The strip's window, drawn this frame, inside the viewport's rectangle and clear of every
    // panel the layout shows (by the layout's rectangles and by the panels' own windows).
    ImGuiWindow* expectStripInViewport(const std::string& where) {
        ImGuiWindow* strip = ImGui::FindWindowByName("##notices");
        EXPECT_NE(strip, nullptr) << where;
        if (!strip) return nullptr;
        EXPECT_TRUE(strip->Active && !strip->Hidden) << where;
        const float x0 = strip->Pos.x, y0 = strip->Pos.y, x1 = x0 + strip->Size.x, y1 = y0 + strip->Size.y;
        EXPECT_GT(strip->Size.x, 40.0f) << where;
        EXPECT_GT(strip->Size.y, 10.0f) << where;
        const LayoutRects& r = viewer->state().ui.layout.rects;
        const LayoutRect& c = r.centre;
        EXPECT_GE(x0, c.x - 0.5f) << where;
        EXPECT_GE(y0, c.y - 0.5f) << where;
        EXPECT_LE(x1, c.right() + 0.5f) << where;
        EXPECT_LE(y1, c.bottom() + 0.5f) << where;
        auto overlaps = [&](float ax, float ay, float bx, float by) { return x0 < bx && ax < x1 && y0 < by && ay < y1; };
        int panels = 0;
        for (int i = 0; i < kPanelCount; ++i) {
            if (!r.shown[i]) continue;
            ++panels;
            const LayoutRect& p = r.panel[i];
            const char* name = panelName(static_cast<PanelId>(i));
            EXPECT_FALSE(overlaps(p.x, p.y, p.right(), p.bottom())) << "the strip covers " << name << " " << where;
            if (ImGuiWindow* win = ImGui::FindWindowByName(name); win && win->Active) {
                EXPECT_FALSE(overlaps(win->Pos.x, win->Pos.y, win->Pos.x + win->Size.x, win->Pos.y + win->Size.y))
                    << "the strip covers the window " << name << " " << where;
            }
        }
        EXPECT_GE(panels, 3) << where;  // a crowded area shows one of its panels as a tab
        EXPECT_FALSE(overlaps(r.timeline.x, r.timeline.y, r.timeline.right(), r.timeline.bottom())) << where;
        for (int a = 0; a < kTabGroups; ++a) {
            const LayoutRect& t = r.tabStrip[a];
            if (r.groupTabs[a]) EXPECT_FALSE(overlaps(t.x, t.y, t.right(), t.bottom())) << "tab strip " << a << " " << where;
        }
        return strip;
    }
};

TEST_F(ViewerNotices, ATruncatedGlbSaysSoInAStripInsideTheViewport) {
    start(false);
    ViewerState& s = viewer->state();
    const std::string demo = s.path;
    // A real .glb cut to a third: its header still claims the whole.
    std::ifstream in("/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb", std::ios::binary);
    std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(whole.size(), 1838084u);
    const std::string cut = (config / "engine_cut.glb").string();
    std::ofstream(cut, std::ios::binary) << whole.substr(0, 600000);
    open(cut);
    EXPECT_EQ(s.path, demo) << "the last good model stays";
    EXPECT_EQ(s.error, cut + ": truncated: 600.0 kB of 1.8 MB");
    EXPECT_EQ(s.errorNote, "Still showing the last good model: " + demo);
    EXPECT_EQ(s.error.find("No suitable reader"), std::string::npos) << s.error;
    for (auto [w, h, scale] : {std::tuple{800, 500, 1.0f}, {1280, 720, 1.0f}, {800, 500, 1.5f}, {1280, 720, 1.5f}}) {
        s.ui.uiScale = scale;
        resize(w, h);
        frames(2);
        const std::string where = std::to_string(w) + "x" + std::to_string(h) + " at " + std::to_string(scale);
        ImGuiWindow* strip = expectStripInViewport(where);
        ASSERT_NE(strip, nullptr);
        // The message, wrapped inside the strip: no sideways scrolling, its rectangle inside.
        EXPECT_EQ(strip->ScrollMax.x, 0.0f) << where;
        const ImVec4 msg = rect("notice:error");
        EXPECT_GE(msg.x, strip->Pos.x) << where;
        EXPECT_LE(msg.z, strip->Pos.x + strip->Size.x + 0.5f) << where;
        shot("notices-truncated-" + where);
    }
    // A long path wraps onto more lines inside the same width.
    s.ui.uiScale = 1.0f;
    resize(800, 500);
    const float oneMessage = rect("notice:error").w - rect("notice:error").y;
    s.error = cut + ": " + std::string(300, 'x');
    frames(3);
    expectStripInViewport("800x500 long message");
    EXPECT_GT(rect("notice:error").w - rect("notice:error").y, oneMessage + ImGui::GetTextLineHeight()) << "not wrapped";
    // Warnings and the error stack; each is dismissed on its own.
    s.warning = "a warning about the model";
    frames(3);
    ImGuiWindow* strip = expectStripInViewport("800x500 two messages");
    ASSERT_NE(strip, nullptr);
    EXPECT_GT(rect("notice:warning").y, rect("notice:error").y);
    click("notice:error:dismiss");
    EXPECT_TRUE(s.error.empty());
    EXPECT_TRUE(s.errorNote.empty());
    EXPECT_EQ(s.warning, "a warning about the model");
    frames(3);  // the strip shrinks to the one message left
    click("notice:warning:dismiss");
    EXPECT_TRUE(s.warning.empty());
    frames(2);
    strip = ImGui::FindWindowByName("##notices");
    EXPECT_TRUE(!strip || !strip->Active) << "the strip stays after every message was dismissed";
}

// The first model with a texture that is not there: one warning naming the texture and the
// model and what is drawn instead; no "Still showing" (there is no other model). A later
// failure names the model still shown, never the file that failed.
TEST_F(ViewerNotices, AMissingTextureOnAFirstLoadIsOneLineAndNoStillShowing) {
    namespace fs = std::filesystem;
    const fs::path src = "/usr/share/assimp/models/glTF2/BoxTextured-glTF";
    const std::string box = copyBoxWithoutTexture("box");
    const fs::path dir = fs::path(box).parent_path();
    ASSERT_NO_FATAL_FAILURE(startViewer(box));
    ViewerState& s = viewer->state();
    ASSERT_EQ(s.path, box) << s.error;
    EXPECT_TRUE(s.error.empty()) << s.error;
    EXPECT_TRUE(s.errorNote.empty()) << s.errorNote;
    EXPECT_EQ(s.warning, box + ": texture CesiumLogoFlat.png missing: drawn as a magenta checker");
    for (auto [w, h] : {std::pair{800, 500}, {1280, 720}}) {
        resize(w, h);
        expectStripInViewport("missing texture " + std::to_string(w) + "x" + std::to_string(h));
        rect("notice:warning");
    }
    EXPECT_EQ(viewer->probe().rects.count("notice:error"), 0u);
    // The texture back beside it: read, no warning.
    fs::copy_file(src / "CesiumLogoFlat.png", dir / "CesiumLogoFlat.png");
    open(box);
    EXPECT_TRUE(s.warning.empty()) << s.warning;
    // A file that fails now: the box is the model still shown.
    open("/usr/share/assimp/models/invalid/empty.obj");
    EXPECT_NE(s.error.find("empty.obj"), std::string::npos) << s.error;
    EXPECT_EQ(s.errorNote, "Still showing the last good model: " + box);
    expectStripInViewport("failed after the box");
}

// A 16 GiB (sparse) texture and a machine file nested 100,000 deep beside the model: the
// viewer stays up at once, the texture refused by its size (the box drawn in its colour), the
// machine by its depth, each with one line naming it.
TEST_F(ViewerNotices, AHugeTextureAndADeepMachineBesideTheModelAreRefusedAtOnce) {
    namespace fs = std::filesystem;
    const std::string box = copyBoxWithoutTexture("huge");
    const fs::path dir = fs::path(box).parent_path();
    std::ofstream(dir / "CesiumLogoFlat.png").close();
    fs::resize_file(dir / "CesiumLogoFlat.png", std::uintmax_t(16) << 30);
    std::ofstream(dir / "BoxTextured.machine.json") << "{\"states\": " << std::string(100000, '[') << std::string(100000, ']') << "}";
    ASSERT_NO_FATAL_FAILURE(startViewer(box));
    ViewerState& s = viewer->state();
    ASSERT_EQ(s.path, box) << s.error;
    EXPECT_EQ(s.warning, box + ": texture CesiumLogoFlat.png not read: larger than 256 MiB: drawn as a magenta checker");
    EXPECT_EQ(s.machine.error, (dir / "BoxTextured.machine.json").string() + ":1:75: nested more than 64 deep");
}

// A settings file that is not valid: besides the line on stderr, the window's strip says which
// file and that the defaults are used.
TEST_F(ViewerNotices, ACorruptSettingsFileShowsInTheStrip) {
    std::filesystem::create_directories(config / "rigview");
    std::ofstream(config / "rigview" / "settings.json") << "{\"version\": 1, \"layout\": [";
    ::testing::internal::CaptureStderr();
    start();
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("settings.json: ignored"), std::string::npos) << err;
    frames(2);
    ViewerState& s = viewer->state();
    const std::string file = (config / "rigview" / "settings.json").string();
    EXPECT_EQ(s.settingsProblem.rfind("Settings " + file + ": ignored, defaults used (", 0), 0u) << s.settingsProblem;
    EXPECT_TRUE(s.error.empty()) << s.error;  // the model loaded after it does not hide it
    for (auto [w, h, scale] : {std::tuple{800, 500, 1.0f}, {1280, 720, 1.5f}}) {
        s.ui.uiScale = scale;
        resize(w, h);
        frames(2);
        expectStripInViewport("settings " + std::to_string(w) + "x" + std::to_string(h));
        rect("notice:settings");
    }
    click("notice:settings:dismiss");
    EXPECT_TRUE(s.settingsProblem.empty());
}

// The projected box of the model's bounds, in window pixels (x0, y0, x1, y1).
glm::vec4 projectedBounds(const ViewerState& s) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const glm::mat4 vp = s.camera.projection(d.x / d.y) * s.camera.view();
    glm::vec4 r(1e9f, 1e9f, -1e9f, -1e9f);
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 c(i & 1 ? s.bounds.max.x : s.bounds.min.x, i & 2 ? s.bounds.max.y : s.bounds.min.y,
                          i & 4 ? s.bounds.max.z : s.bounds.min.z);
        glm::vec2 p;
        if (!projectToScreen(vp, c, d.x, d.y, p)) continue;
        r = glm::vec4(std::min(r.x, p.x), std::min(r.y, p.y), std::max(r.z, p.x), std::max(r.w, p.y));
    }
    return r;
}

// The projected box of the pose on screen (its skinned vertices), in window pixels (x0, y0, x1, y1).
glm::vec4 projectedPose(const ViewerState& s) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const glm::mat4 vp = s.camera.projection(d.x / d.y) * s.camera.view();
    std::vector<glm::vec3> points;
    posedPoints(*s.model, *s.animator, points);
    glm::vec4 r(1e9f, 1e9f, -1e9f, -1e9f);
    for (const glm::vec3& c : points) {
        glm::vec2 p;
        if (!projectToScreen(vp, c, d.x, d.y, p)) continue;
        r = glm::vec4(std::min(r.x, p.x), std::min(r.y, p.y), std::max(r.z, p.x), std::max(r.w, p.y));
    }
    return r;
}

// The pose on screen fills about 80% of the viewport between the panels (its height, for a
// standing character), centred in it.
void expectFramed(const ViewerState& s, const std::string& when) {
    const LayoutRect& c = s.ui.layout.rects.centre;
    const glm::vec4 r = projectedPose(s);
    const float fy = (r.w - r.y) / c.h, fx = (r.z - r.x) / c.w;
    EXPECT_NEAR(std::max(fx, fy), kFrameFill, 0.05f) << when << " (height " << fy << ", width " << fx << ")";
    EXPECT_GE(fy, fx) << when;
    EXPECT_GE(r.y, c.y) << when;
    EXPECT_LE(r.w, c.bottom()) << when;
    EXPECT_NEAR(0.5f * (r.x + r.z), c.x + 0.5f * c.w, 0.05f * c.w) << when;
}

// At load and after F the pose on screen (the skinned vertices at the current time, not a box
// over the clip) fills about 80% of the viewport between the panels, centred in it, also after
// the camera moved away and on a clip whose box is much larger than a pose (wave, late).
TEST_F(ViewerSmoke, FramingFillsMostOfTheViewportAtLoadAndAfterF) {
    ViewerState& s = viewer->state();
    expectFramed(s, "at load");
    shot("framed-at-load");
    s.camera.distance *= 3.0f;
    s.camera.orbit(40.0f, 10.0f);
    frames(1);
    press(GLFW_KEY_F);
    frames(1);
    expectFramed(s, "after F");
    click("clip:walk");
    press(GLFW_KEY_SPACE);
    frames(1);
    press(GLFW_KEY_F);
    frames(1);
    expectFramed(s, "after F, paused in walk");
}

// This process's CPU time (user and system) in seconds, from /proc/self/stat.
double processCpuSeconds() {
    std::ifstream in("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // After the command name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15.
    std::istringstream rest(text.substr(text.rfind(')') + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// Idle costs nothing: paused and untouched, the viewer's loop (Viewer::step, what run() turns)
// sleeps until something changes instead of drawing frame after frame (36% of a core here
// before). Over 10 s it uses well under 0.1 s of CPU (the bound is generous); a key tap wakes it
// at once and acts; playing, it draws at the display's rate.
TEST_F(ViewerSmoke, APausedUntouchedViewerRestsAndWakesForInput) {
    ViewerState& s = viewer->state();
    press(GLFW_KEY_SPACE);
    ASSERT_FALSE(s.timeline.playing);
    EXPECT_FALSE(viewer->animating());
    for (int i = 0; i < 8; ++i) viewer->step(0.05);  // the frames that settle after the key
    const double cpu0 = processCpuSeconds();
    const unsigned long long frames0 = viewer->framesDrawn();
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10)) viewer->step();
    const double cpu = processCpuSeconds() - cpu0;
    const unsigned long long drawn = viewer->framesDrawn() - frames0;
    std::printf("paused, untouched for 10 s: %.3f s of CPU, %llu frames drawn\n", cpu, drawn);
    RecordProperty("idle_cpu_ms", static_cast<int>(cpu * 1000.0));
    EXPECT_LT(cpu, 0.5);
    EXPECT_LE(drawn, 5u);

    // A tap wakes it: the next turn draws and the key acts.
    const bool wire = s.view.wireframe;
    tap(GLFW_KEY_W);
    EXPECT_TRUE(viewer->step());
    EXPECT_NE(s.view.wireframe, wire);

    // Playing: a frame per display refresh (60 Hz under Xvfb), not as fast as it can.
    tap(GLFW_KEY_SPACE);
    viewer->step();
    ASSERT_TRUE(s.timeline.playing);
    const double time0 = s.timeline.time;
    const unsigned long long playing0 = viewer->framesDrawn();
    const auto p0 = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - p0 < std::chrono::milliseconds(500)) viewer->step();
    const unsigned long long played = viewer->framesDrawn() - playing0;
    EXPECT_GE(played, 5u);
    EXPECT_LE(played, 33u);
    EXPECT_NE(s.timeline.time, time0);
}

// Ctrl+Q closes the window: the viewer's loop returns.
TEST_F(ViewerSmoke, CtrlQQuits) {
    frames(1);
    EXPECT_FALSE(viewer->shouldClose());
    press(GLFW_KEY_Q, GLFW_MOD_CONTROL);
    frames(1);
    ASSERT_TRUE(viewer->shouldClose()) << "Ctrl+Q did not close the window";
    EXPECT_EQ(viewer->run(), 0);  // returns at once: the window is closing
}

// Reset layout (View's Layout menu) also puts the view options back and frames the model
// from the default angles.
TEST_F(ViewerSmoke, ResetLayoutResetsTheViewOptionsAndTheCamera) {
    ViewerState& s = viewer->state();
    s.view.bones = true;
    s.view.grid = false;
    s.view.ambient = 0.9f;
    s.camera.azimuthDeg = 123.0f;
    s.camera.distance *= 4.0f;
    frames(2);
    s.ui.layout.resetRequested = true;
    frames(2);
    EXPECT_FALSE(s.view.bones);
    EXPECT_TRUE(s.view.grid);
    EXPECT_FLOAT_EQ(s.view.ambient, ViewOptions{}.ambient);
    EXPECT_FLOAT_EQ(s.camera.azimuthDeg, OrbitCamera{}.azimuthDeg);
    const glm::vec4 r = projectedBounds(s);
    const LayoutRect& c = s.ui.layout.rects.centre;
    EXPECT_GE((r.w - r.y) / c.h, 0.75f) << "not framed again";
}

// F12 without a folder given writes rigview-<model>-<time>.png to the Pictures folder
// ($HOME/Pictures here), and its notice, with the full path, shows inside the viewport.
TEST(ViewerScreenshot, GoesToThePicturesFolderAndTheNoticeShowsInTheViewport) {
    const std::filesystem::path home = std::filesystem::temp_directory_path() / ("rigview-home-" + std::to_string(::getpid()));
    std::filesystem::remove_all(home);
    std::filesystem::create_directories(home / "Pictures");
    std::filesystem::create_directories(home / ".config");
    {
        const testing::ScopedEnv homeEnv("HOME", home.c_str()), xdgEnv("XDG_CONFIG_HOME", nullptr),
            picturesEnv("XDG_PICTURES_DIR", nullptr);
        ViewerConfig cfg;
        cfg.model = demoModelPath();
        cfg.remember = false;
        auto v = Viewer::create(cfg);
        ASSERT_TRUE(v.ok()) << v.error().message;
        Viewer& viewer = *v.value();
        viewer.waitForLoad();
        for (int i = 0; i < 3; ++i) viewer.frame(1.0 / 60.0);
        viewer.state().requests.screenshot = true;
        for (int i = 0; i < 3; ++i) viewer.frame(1.0 / 60.0);
        const std::string shot = viewer.lastScreenshot();
        ASSERT_FALSE(shot.empty()) << viewer.state().ui.status;
        EXPECT_EQ(std::filesystem::path(shot).parent_path(), home / "Pictures");
        EXPECT_EQ(std::filesystem::path(shot).filename().string().rfind("rigview-rigview_demo-", 0), 0u) << shot;
        EXPECT_TRUE(std::filesystem::exists(shot));
        EXPECT_NE(viewer.state().ui.status.find(shot), std::string::npos) << viewer.state().ui.status;
        ImGuiWindow* notice = ImGui::FindWindowByName("##statusline");
        ASSERT_NE(notice, nullptr);
        EXPECT_TRUE(notice->Active);
        const LayoutRect& c = viewer.state().ui.layout.rects.centre;
        EXPECT_GE(notice->Pos.x, c.x - 0.5f);
        EXPECT_GE(notice->Pos.y, c.y - 0.5f);
        EXPECT_LE(notice->Pos.x + notice->Size.x, c.right() + 0.5f) << "the notice runs under a panel";
        EXPECT_LE(notice->Pos.y + notice->Size.y, c.bottom() + 0.5f) << "the notice is behind the Timeline";
    }
    std::filesystem::remove_all(home);
}

// The window's size and place are remembered: the next start opens at them, clamped to the
// monitor (the Xvfb screen is 1280 x 800).
TEST_F(ViewerLayout, TheWindowSizeIsRememberedAndClampedToTheMonitor) {
    start();
    resize(900, 600);
    viewer.reset();  // quit
    start();
    int w = 0, h = 0;
    for (int i = 0; i < 60; ++i) {
        glfwGetWindowSize(viewer->windowHandle(), &w, &h);
        if (w == 900 && h == 600) break;
        frames(1);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(w, 900);
    EXPECT_EQ(h, 600);
    viewer.reset();
    // A size larger than the monitor (saved on a bigger one) opens within it.
    std::string text;
    {
        std::ifstream in(config / "rigview" / "settings.json");
        std::stringstream t;
        t << in.rdbuf();
        text = t.str();
    }
    ViewerState saved;
    bool hasCamera = false;
    std::string why;
    ASSERT_TRUE(applySettingsJson(text, saved, hasCamera, why)) << why;
    EXPECT_EQ(saved.ui.window.width, 900);
    saved.ui.window = {3000, 2000, 5000, 3000};
    {
        std::ofstream out(config / "rigview" / "settings.json");
        out << settingsToJson(saved);
    }
    start();
    for (int i = 0; i < 20; ++i) {
        frames(1);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    glfwGetWindowSize(viewer->windowHandle(), &w, &h);
    int x = 0, y = 0;
    glfwGetWindowPos(viewer->windowHandle(), &x, &y);
    EXPECT_LE(w, 1280);
    EXPECT_LE(h, 800);
    EXPECT_LE(x + w, 1280);
    EXPECT_LE(y + h, 800);
    expectPanelsInside("restored from a larger monitor");
}

// The SMD sample (a bull) keeps Z up and does not say so: the viewer guesses it and shows it
// standing, its height (Z) upright on the screen: the top of its box above the bottom, farther
// apart than the box is deep. Camera > Up axis > Y up lays it down again (its Z seen end-on),
// for that file only, and the next start remembers the choice.
TEST_F(ViewerLayout, TheSmdSampleStandsUpAndTheUpAxisIsKeptPerFile) {
    const std::string smd = "/usr/share/assimp/models/SMD/WusonSMD.smd";
    ViewerConfig cfg;
    cfg.model = smd;
    start(cfg);
    ViewerState& s = viewer->state();
    // Screen positions of the middle of the box's bottom and top (along Z) and front and back (along Y).
    auto upright = [&](glm::vec2& bottom, glm::vec2& top, glm::vec2& front, glm::vec2& back) {
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        const glm::mat4 vp = s.camera.projection(d.x / d.y) * s.camera.view();
        const glm::vec3 c = s.bounds.center();
        return projectToScreen(vp, glm::vec3(c.x, c.y, s.bounds.min.z), d.x, d.y, bottom) &&
               projectToScreen(vp, glm::vec3(c.x, c.y, s.bounds.max.z), d.x, d.y, top) &&
               projectToScreen(vp, glm::vec3(c.x, s.bounds.min.y, c.z), d.x, d.y, front) &&
               projectToScreen(vp, glm::vec3(c.x, s.bounds.max.y, c.z), d.x, d.y, back);
    };
    EXPECT_TRUE(s.camera.zUp);
    glm::vec2 bottom, top, front, back;
    ASSERT_TRUE(upright(bottom, top, front, back));
    EXPECT_GT(bottom.y - top.y, 0.3f * (s.ui.layout.rects.centre.h)) << "its height is not upright";
    EXPECT_GT(std::abs(bottom.y - top.y), 3.0f * std::abs(bottom.x - top.x));
    shot("smd-standing");
    s.requests.zUp = false;
    frames(2);
    EXPECT_FALSE(s.camera.zUp);
    ASSERT_TRUE(upright(bottom, top, front, back));
    EXPECT_GT(std::abs(back.y - front.y), std::abs(bottom.y - top.y)) << "Y up: its Y is upright instead";
    viewer.reset();  // quit: the choice is saved for this file
    start();  // the demo: guessed Y up
    EXPECT_FALSE(viewer->state().camera.zUp);
    viewer->state().requests.open = smd;
    viewer->waitForLoad();
    frames(2);
    EXPECT_FALSE(viewer->state().camera.zUp) << "the choice for this file was not kept";
}

// A camera per model: the camera saved at quit is kept only for the file it looked at. After a
// run on the demo with the camera moved far away, another model opens framed (its pose at
// about 80%); that model's own camera comes back with it.
TEST_F(ViewerLayout, ASecondModelIsFramedAfterARunWithAnotherAndKeepsItsOwnCamera) {
    start();
    viewer->state().camera.distance *= 4.0f;
    frames(2);
    viewer.reset();  // quit: the camera is saved, for the demo
    const std::string skin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    ViewerConfig cfg;
    cfg.model = skin;
    start(cfg);
    ViewerState& s = viewer->state();
    expectFramed(s, "the second model");
    s.camera.distance *= 2.0f;
    const float distance = s.camera.distance;
    frames(2);
    viewer.reset();
    start(cfg);
    EXPECT_FLOAT_EQ(viewer->state().camera.distance, distance) << "its own camera was not kept";
    viewer.reset();
    start();
    expectFramed(viewer->state(), "the demo after a run with another model");
}

// Settings keep only what worked: an environment map that does not load is not kept (the
// strip says so, the last good map stays, the settings never hold it); a saved map that no
// longer loads at the next start is one notice and the studio, and is then forgotten.
TEST_F(ViewerLayout, AnEnvironmentThatFailsIsNotSavedAndAGoneOneFallsBackToTheStudio) {
    const std::filesystem::path bad = config / "notes.hdr";
    std::ofstream(bad) << "not an image\n";
    const std::filesystem::path mine = config / "mine.hdr";
    std::filesystem::copy_file(std::string(RIGVIEW_SOURCE_DIR) + "/assets/env/studio.hdr", mine);
    auto settings = [&] {
        std::ifstream in(config / "rigview" / "settings.json");
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    start();
    ViewerState& s = viewer->state();
    s.requests.environment = bad.string();
    lit();
    EXPECT_NE(s.environmentError.find("notes.hdr"), std::string::npos) << s.environmentError;
    EXPECT_NE(s.environmentError.find("lit by the studio instead"), std::string::npos) << s.environmentError;
    EXPECT_EQ(s.view.environment, "");
    s.environmentError.clear();
    s.requests.environment = mine.string();
    lit();
    EXPECT_TRUE(s.environmentError.empty()) << s.environmentError;
    EXPECT_EQ(s.view.environment, mine.string());
    s.requests.environment = bad.string();
    lit();
    EXPECT_NE(s.environmentError.find("still lit by mine.hdr"), std::string::npos) << s.environmentError;
    EXPECT_EQ(s.view.environment, mine.string());
    viewer.reset();
    EXPECT_EQ(settings().find("notes.hdr"), std::string::npos);
    EXPECT_NE(settings().find("mine.hdr"), std::string::npos);

    std::ofstream(mine, std::ios::trunc) << "gone bad\n";
    start();
    ViewerState& t = viewer->state();
    frames(3);
    EXPECT_NE(t.environmentError.find("mine.hdr"), std::string::npos) << t.environmentError;
    EXPECT_NE(t.environmentError.find("lit by the studio instead"), std::string::npos) << t.environmentError;
    EXPECT_EQ(t.environmentError.find('\n'), std::string::npos) << "one notice";
    EXPECT_EQ(t.view.environment, "");
    viewer.reset();
    EXPECT_EQ(settings().find("mine.hdr"), std::string::npos);
}

// A readable dope sheet. On a 2,752-frame mocap clip (01_01.bvh) the rows of joints keyed on
// every frame are bands with the changes marked, not walls of diamonds; long names are elided
// in the middle (both ends kept) with the full name on hover; the name column's edge drags
// wider and the width comes back at the next start; the filter keeps the rows whose name holds
// it.
TEST_F(ViewerLayout, TheDopeSheetIsReadableOnAMocapClip) {
    ViewerConfig cfg;
    cfg.model = "/usr/share/assimp/models/BVH/01_01.bvh";
    start(cfg);
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    click("dopesheet");
    frames(2);
    ASSERT_FALSE(s.timeline.rowsDrawn.empty());
    EXPECT_GE(s.timeline.bandRows, 1) << "keyed on every frame: a band";
    // The filter: only rows whose name holds "hand" (any case), typed into its field.
    click("dope:filter");
    for (char c : std::string("hand")) ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
    frames(2);
    EXPECT_STREQ(s.timeline.filter, "hand");
    int hands = 0;
    for (const std::string& n : m.skeleton.names) {
        std::string l = n;
        for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        hands += l.find("hand") != std::string::npos;
    }
    ASSERT_GT(hands, 1);
    EXPECT_EQ(s.timeline.rowCount, hands);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    clickAt(ImVec2(s.ui.layout.rects.centre.x + 10.0f, s.ui.layout.rects.centre.y + 10.0f));
    frames(2);
    EXPECT_EQ(s.timeline.bandRows, static_cast<int>(s.timeline.rowsDrawn.size())) << "keyed on every frame: bands";
    shot("dope-mocap");
    // Elided names keep both ends; hovering one shows it whole (a narrow column, as a person
    // may have left it).
    s.timeline.nameWidth = 56.0f;
    frames(2);
    ASSERT_EQ(s.timeline.labelsDrawn.size(), s.timeline.rowsDrawn.size());
    int elided = -1;
    for (size_t i = 0; i < s.timeline.rowsDrawn.size(); ++i) {
        const std::string& r = s.timeline.rowsDrawn[i];
        const std::string& full = m.skeleton.names[std::stoi(r.substr(r.find(':') + 1))];
        const std::string& label = s.timeline.labelsDrawn[i];
        if (label == full) continue;
        EXPECT_NE(label.find(".."), std::string::npos) << label;
        EXPECT_EQ(label.front(), full.front()) << label << " of " << full;
        EXPECT_EQ(label.back(), full.back()) << label << " of " << full;
        if (elided < 0) elided = static_cast<int>(i);
    }
    ASSERT_GE(elided, 0) << "no name was long enough to elide at 56 px";
    mouse = at("dope:" + s.timeline.rowsDrawn[static_cast<size_t>(elided)], 0.3f);
    frames(2);
    ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
    EXPECT_TRUE(tip && tip->Active) << "no tooltip with the full name";
    // Drag the name column's edge 80 px to the right: wider names, fewer elided.
    const float before = s.timeline.nameWidth;
    mouse = at("timeline:names");
    frames(1);
    mouseDown = true;
    frames(1);
    mouse.x += 80.0f;
    frames(2);
    mouseDown = false;
    frames(2);
    EXPECT_NEAR(s.timeline.nameWidth, before + 80.0f, 2.0f);
    const float width = s.timeline.nameWidth;
    viewer.reset();
    start(cfg);
    EXPECT_FLOAT_EQ(viewer->state().timeline.nameWidth, width) << "the name column's width was not kept";
}

// The Curves view: the selected joint's rotation as curves through its keys, read back from
// what the view drew: each point is a key of the clip at its time, its value the key's
// quaternion component (or Euler angle, which turns back into the key's rotation), its place
// the ruler's time mapping (zoom shared) and the view's value axis.
TEST_F(ViewerLayout, TheCurvesViewDrawsARotationChannelsKeysAtTheirValues) {
    const Clip& clip = startOnWalkPaused();
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    int joint = -1;
    for (size_t n = 0; n < m.skeleton.size() && joint < 0; ++n) {
        const int t = clip.trackOfNode[n];
        if (t >= 0 && clip.tracks[static_cast<size_t>(t)].rotation.count >= 5) joint = static_cast<int>(n);
    }
    ASSERT_GE(joint, 0);
    s.selectedJoint = joint;
    click("curves:on");
    frames(2);
    TimelineState& tl = s.timeline;
    ASSERT_TRUE(tl.curves);
    const Channel& ch = clip.tracks[static_cast<size_t>(clip.trackOfNode[static_cast<size_t>(joint)])].rotation;
    const float* times = clip.times.data() + ch.times;
    auto keyAt = [&](float t) {
        const auto it = std::find(times, times + ch.count, t);
        return it == times + ch.count ? -1 : static_cast<int>(it - times);
    };
    auto checkPlaces = [&](const char* when) {
        ASSERT_FALSE(tl.curvePoints.empty()) << when;
        for (const TimelineState::CurvePoint& p : tl.curvePoints) {
            const double t0 = tl.viewEnd > tl.viewStart ? tl.viewStart : tl.start;
            const double t1 = tl.viewEnd > tl.viewStart ? tl.viewEnd : tl.end;
            EXPECT_NEAR(p.x, tl.rulerLeft + (p.time - t0) / (t1 - t0) * tl.rulerWidth, 0.5) << when;
            EXPECT_NEAR(p.y, tl.curveBottom - (p.value - tl.curveMin) / (tl.curveMax - tl.curveMin) * (tl.curveBottom - tl.curveTop), 0.5) << when;
        }
    };
    // Euler angles (the default): three curves, every key; each key's angles are its rotation.
    EXPECT_EQ(tl.curvePoints.size(), 3u * ch.count);
    for (size_t i = 0; i + 2 < tl.curvePoints.size(); i += 1) {
        const TimelineState::CurvePoint& p = tl.curvePoints[i];
        if (p.component != 0) continue;
        const int k = keyAt(p.time);
        ASSERT_GE(k, 0) << p.time;
        glm::vec3 e(p.value, 0.0f, 0.0f);
        for (const TimelineState::CurvePoint& q : tl.curvePoints) {
            if (q.time == p.time) e[q.component] = q.value;
        }
        const glm::quat back(glm::radians(e));
        EXPECT_NEAR(std::abs(glm::dot(back, clip.quatKeys[ch.values + static_cast<uint32_t>(k)])), 1.0f, 1e-4f) << "key " << k;
    }
    checkPlaces("Euler");
    shot("curves-euler");
    // Quaternion components: four curves, each point the key's own component.
    click("curves:quaternion");
    frames(2);
    ASSERT_TRUE(tl.curveQuaternion);
    EXPECT_EQ(tl.curvePoints.size(), 4u * ch.count);
    for (const TimelineState::CurvePoint& p : tl.curvePoints) {
        const int k = keyAt(p.time);
        ASSERT_GE(k, 0);
        const glm::quat& q = clip.quatKeys[ch.values + static_cast<uint32_t>(k)];
        EXPECT_EQ(p.value, (p.component == 0 ? q.x : p.component == 1 ? q.y : p.component == 2 ? q.z : q.w));
    }
    checkPlaces("quaternion");
    // The ruler zoomed to the clip's first half: the curves follow (only keys in view).
    tl.viewStart = tl.start;
    tl.viewEnd = tl.start + 0.5 * (tl.end - tl.start);
    frames(2);
    EXPECT_LT(tl.curvePoints.size(), 4u * ch.count);
    for (const TimelineState::CurvePoint& p : tl.curvePoints) EXPECT_LE(p.time, tl.viewEnd + 1e-6);
    checkPlaces("zoomed");
}

// Issue 44: Ctrl + click in the Hierarchy adds joints to the selection, Shift + click selects a
// run of them in the tree's order; the Curves view draws every selected joint's channels, each
// key at its own joint's value, with a legend entry per curve; one joint again after a plain
// click, and a selection made elsewhere (the viewport) stands alone.
TEST_F(ViewerLayout, TheCurvesViewShowsEverySelectedJoint) {
    const Clip& clip = startOnWalkPaused();
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    std::vector<int> keyed;
    for (size_t n = 0; n < m.skeleton.size(); ++n) {
        const int tr = clip.trackOfNode[n];
        if (tr >= 0 && clip.tracks[static_cast<size_t>(tr)].rotation.count >= 5) keyed.push_back(static_cast<int>(n));
    }
    ASSERT_GE(keyed.size(), 3u);
    const int a = keyed[0], b = keyed[2];
    auto clickNode = [&](int node) {
        const std::string name = "node:" + m.skeleton.names[static_cast<size_t>(node)];
        revealIn("Hierarchy/tree", name);
        click(name);
    };
    clickNode(a);
    ctrl = true;
    clickNode(b);
    ctrl = false;
    EXPECT_EQ(s.jointSelection(), (std::vector<int32_t>{b, a}));
    EXPECT_EQ(s.selectedJoint, b) << "the joint clicked last is the inspector's";
    click("curves:on");
    frames(2);
    TimelineState& tl = s.timeline;
    ASSERT_TRUE(tl.curves);
    click("curves:quaternion");
    frames(2);
    ASSERT_TRUE(tl.curveQuaternion);
    auto rotation = [&](int joint) -> const Channel& { return clip.tracks[static_cast<size_t>(clip.trackOfNode[static_cast<size_t>(joint)])].rotation; };
    auto checkPoints = [&](const std::vector<int>& joints, const char* when) {
        size_t expected = 0;
        for (int j : joints) expected += 4u * rotation(j).count;
        EXPECT_EQ(tl.curvePoints.size(), expected) << when;
        for (const TimelineState::CurvePoint& p : tl.curvePoints) {
            ASSERT_NE(std::find(joints.begin(), joints.end(), p.joint), joints.end()) << p.joint << " " << when;
            const Channel& ch = rotation(p.joint);
            const float* times = clip.times.data() + ch.times;
            const auto it = std::find(times, times + ch.count, p.time);
            ASSERT_NE(it, times + ch.count) << when;
            const glm::quat& q = clip.quatKeys[ch.values + static_cast<uint32_t>(it - times)];
            EXPECT_EQ(p.value, (p.component == 0 ? q.x : p.component == 1 ? q.y : p.component == 2 ? q.z : q.w)) << when;
            EXPECT_NEAR(p.y, tl.curveBottom - (p.value - tl.curveMin) / (tl.curveMax - tl.curveMin) * (tl.curveBottom - tl.curveTop), 0.5)
                << when;
        }
    };
    checkPoints({a, b}, "two joints");
    // A legend entry per joint and component, each on screen.
    EXPECT_EQ(tl.curveLegend.size(), 8u);
    for (int j : {a, b}) {
        for (const char* c : {"x", "y", "z", "w"}) EXPECT_TRUE(has("curves:legend:" + std::to_string(j) + ":" + c)) << j << c;
    }
    EXPECT_NE(std::find(tl.curveLegend.begin(), tl.curveLegend.end(), m.skeleton.names[static_cast<size_t>(a)] + " w"), tl.curveLegend.end());
    shot("curves-two-joints");
    // Ctrl + click on a selected joint takes it out: one joint, no legend.
    ctrl = true;
    clickNode(a);
    ctrl = false;
    frames(1);
    EXPECT_EQ(s.jointSelection(), (std::vector<int32_t>{b}));
    checkPoints({b}, "one joint");
    EXPECT_TRUE(tl.curveLegend.empty());
    // Shift + click: the run from the selected joint to the one clicked, in the tree's order.
    std::vector<int32_t> order;
    std::function<void(int32_t)> walk = [&](int32_t n) {
        order.push_back(n);
        for (int32_t c : s.children[static_cast<size_t>(n)]) walk(c);
    };
    for (size_t n = 0; n < m.skeleton.size(); ++n) {
        if (m.skeleton.parent[n] < 0) walk(static_cast<int32_t>(n));
    }
    clickNode(a);
    shift = true;
    clickNode(b);
    shift = false;
    const auto ia = std::find(order.begin(), order.end(), a), ib = std::find(order.begin(), order.end(), b);
    ASSERT_TRUE(ia != order.end() && ib != order.end());
    std::vector<int32_t> run(std::min(ia, ib), std::max(ia, ib) + 1);
    std::vector<int32_t> got = s.jointSelection();
    EXPECT_EQ(got.front(), b);
    std::sort(got.begin(), got.end());
    std::sort(run.begin(), run.end());
    EXPECT_EQ(got, run);
    // A plain click: that joint alone; a joint picked elsewhere stands alone too.
    clickNode(a);
    EXPECT_EQ(s.jointSelection(), (std::vector<int32_t>{a}));
    ctrl = true;
    clickNode(b);
    ctrl = false;
    EXPECT_EQ(s.jointSelection().size(), 2u);
    s.selectedJoint = keyed[1];  // as a pick in the viewport sets it
    frames(2);
    EXPECT_EQ(s.jointSelection(), (std::vector<int32_t>{keyed[1]}));
    checkPoints({keyed[1]}, "picked");
}

// A finding about a joint's motion (the mocap clip's sudden rotation jump) opens the Curves view
// on that joint's rotation, paused at the jump.
TEST_F(ViewerLayout, ARotationJumpFindingOpensTheCurvesAtTheJump) {
    ViewerConfig cfg;
    cfg.model = "/usr/share/assimp/models/BVH/01_01.bvh";
    start(cfg);
    ViewerState& s = viewer->state();
    int index = -1;
    for (size_t i = 0; i < s.checks.report.findings.size(); ++i) {
        if (s.checks.report.findings[i].code == "sudden-rotation-jump") index = static_cast<int>(i);
    }
    ASSERT_GE(index, 0);
    const Finding& f = s.checks.report.findings[static_cast<size_t>(index)];
    ASSERT_GE(f.joint, 0);
    reveal("finding:sudden-rotation-jump");
    click("finding:sudden-rotation-jump");
    frames(3);
    EXPECT_TRUE(s.timeline.curves);
    EXPECT_EQ(s.timeline.curveFamily, 1);
    EXPECT_EQ(s.selectedJoint, f.joint);
    EXPECT_FALSE(s.timeline.playing);
    EXPECT_GT(s.timeline.viewEnd, s.timeline.viewStart);
    EXPECT_GE(s.timeline.time, s.timeline.viewStart);
    EXPECT_LE(s.timeline.time, s.timeline.viewEnd);
    EXPECT_FALSE(s.timeline.curvePoints.empty());
    shot("curves-jump");
}

// glTF is +Y by specification: ClearCoatTest (a wall of spheres, standing on nothing, wider
// than tall, which the bind-pose guess called Z up) opens upright, with *Z up* unticked, and
// framed as `rigview render --up auto` frames it: the same width-to-height ratio on screen.
TEST_F(ViewerLayout, AGltfStandsUpAsRenderDrawsIt) {
    const std::string gltf = "/usr/share/assimp/models/glTF2/ClearCoat-glTF/ClearCoatTest.gltf";
    ViewerConfig cfg;
    cfg.model = gltf;
    start(cfg);
    ViewerState& s = viewer->state();
    EXPECT_FALSE(s.camera.zUp);
    EXPECT_NE(s.ui.upAxisSource.find("glTF"), std::string::npos) << s.ui.upAxisSource;
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const glm::mat4 vp = s.camera.projection(d.x / d.y) * s.camera.view();
    const glm::vec3 c = s.bounds.center();
    glm::vec2 bottom, top;
    ASSERT_TRUE(projectToScreen(vp, glm::vec3(c.x, s.bounds.min.y, c.z), d.x, d.y, bottom));
    ASSERT_TRUE(projectToScreen(vp, glm::vec3(c.x, s.bounds.max.y, c.z), d.x, d.y, top));
    EXPECT_GT(bottom.y - top.y, 5.0f * std::abs(bottom.x - top.x)) << "its +Y is not upright on screen";
    shot("clearcoat-upright");
    const glm::vec4 r = projectedBounds(s);
    const float viewerRatio = (r.z - r.x) / (r.w - r.y);

    const std::string png = (config / "clearcoat.png").string();
    const testing::RunResult run = testing::run(RIGVIEW_EXE, {"render", gltf, "-o", png, "--size", "400x400", "--up", "auto"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
    ASSERT_NE(px, nullptr);
    int x0 = w, x1 = -1, y0 = h, y1 = -1;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = px + (static_cast<size_t>(y) * w + x) * 3;
            if (std::abs(p[0] - px[0]) + std::abs(p[1] - px[1]) + std::abs(p[2] - px[2]) <= 24) continue;
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    }
    stbi_image_free(px);
    ASSERT_GT(x1, x0);
    const float renderRatio = static_cast<float>(x1 - x0 + 1) / static_cast<float>(y1 - y0 + 1);
    EXPECT_NEAR(viewerRatio, renderRatio, 0.15f * renderRatio) << "the viewer and render frame it differently";
}

// Issue 29: every panel is readable at 800 x 500 and 1280 x 720, at UI scale 1 and 1.5. Each
// panel is opened in turn (chosen as its area's tab where the area is tabbed), with the demo
// (it has a state machine) and with a model with morph targets; in every panel drawn then (and
// in each of its child regions) nothing drawn reaches past the window's visible right edge (a
// clipped label, slider or button), and no window or child region is lower than one line.
// Regions that scroll sideways on purpose (the Hierarchy's tree of a deep rig) are left out.
TEST_F(ViewerLayout, EveryPanelIsReadableAtSmallSizesAndUiScales) {
    start(false);
    ViewerState& s = viewer->state();
    const std::string morphModel = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/morph_skin.gltf";
    const std::vector<std::string> models{demoModelPath(), morphModel};
    auto panelWindow = [](const ImGuiWindow* win) {
        const ImGuiWindow* root = win->RootWindow ? win->RootWindow : win;
        for (int i = 0; i < kPanelCount; ++i) {
            if (std::string(root->Name) == panelName(static_cast<PanelId>(i))) return true;
        }
        return std::string(root->Name).rfind("##tabs", 0) == 0;
    };
    int checked = 0;
    for (const std::string& model : models) {
        s.requests.open = model;
        frames(1);
        viewer->waitForLoad();
        frames(2);
        ASSERT_TRUE(s.model) << s.error;
        for (auto [w, h, scale] : {std::tuple{800, 500, 1.0f}, {1280, 720, 1.0f}, {800, 500, 1.5f}, {1280, 720, 1.5f}}) {
            s.ui.uiScale = scale;
            resize(w, h);
            for (int i = 0; i < kPanelCount; ++i) {
                const PanelId id = static_cast<PanelId>(i);
                bool* flag = panelOpenFlag(s, id);
                ASSERT_NE(flag, nullptr);
                const bool wasOpen = *flag;
                *flag = true;
                frames(2);
                Layout& layout = s.ui.layout;
                const Area area = layout.rects.area[i];
                if (id != PanelId::Timeline && layout.rects.tabbed[static_cast<int>(area)]) {
                    layout.activeTab[tabGroup(area, layout.rects.pane[i])] = id;
                }
                frames(3);
                const std::string where = std::string(panelName(id)) + " open, " + std::filesystem::path(model).filename().string() +
                                          " at " + std::to_string(w) + "x" + std::to_string(h) + " scale " + std::to_string(scale);
                ASSERT_TRUE(layout.shows(id)) << where;
                const float line = ImGui::GetTextLineHeight();
                for (ImGuiWindow* win : ImGui::GetCurrentContext()->Windows) {
                    if (!win->Active || win->Hidden || !panelWindow(win)) continue;
                    ++checked;
                    EXPECT_GE(win->Size.y, line) << win->Name << " has no height: " << where;
                    if (win->Flags & ImGuiWindowFlags_HorizontalScrollbar) continue;
                    EXPECT_LE(win->DC.CursorMaxPos.x, win->InnerClipRect.Max.x + 0.5f)
                        << win->Name << ": something is clipped by " << win->DC.CursorMaxPos.x - win->InnerClipRect.Max.x
                        << " px on the right, " << where;
                    if (std::string(win->Name).rfind("##tabs", 0) == 0) {
                        EXPECT_LE(win->DC.CursorMaxPos.y, win->InnerClipRect.Max.y + 0.5f) << "the tabs are clipped, " << where;
                    }
                }
                shot("readable-" + std::to_string(i) + "-" + std::to_string(w) + "-" + std::to_string(static_cast<int>(scale * 10)) +
                     "-" + std::filesystem::path(model).stem().string());
                *flag = wasOpen;
            }
            frames(2);
        }
    }
    EXPECT_GT(checked, 100);
}

// Two clicks on two different checkboxes within one frame (the cursor moving from the first to
// the second between them): each lands where it was made, so both toggle. Wheel turns within
// one frame over the viewport all count: the camera zooms by their sum.
TEST_F(ViewerSmoke, TwoClicksAtTwoPlacesInOneFrameBothActAndWheelTurnsAdd) {
    ViewerState& s = viewer->state();
    const ImVec2 bones = at("bones"), grid = at("grid");
    ASSERT_GT(std::abs(bones.y - grid.y) + std::abs(bones.x - grid.x), 10.0f);
    glfwMouse();
    const bool bonesWas = s.view.bones, gridWas = s.view.grid;
    GLFWwindow* w = viewer->windowHandle();
    const auto [cursor, button] = mouseCallbacks();
    ASSERT_NE(cursor, nullptr);
    ASSERT_NE(button, nullptr);
    cursor(w, bones.x, bones.y);
    button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
    button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);
    cursor(w, grid.x, grid.y);
    button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
    button(w, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);
    frames(5);
    EXPECT_NE(s.view.bones, bonesWas) << "the first click did not land on Bones";
    EXPECT_NE(s.view.grid, gridWas) << "the second click did not land on Grid";
    EXPECT_EQ(viewer->input().pendingButtonEvents(), 0u);
    // Three wheel notches in one frame over the middle of the viewport.
    const LayoutRect& c = s.ui.layout.rects.centre;
    cursor(w, c.x + 0.5f * c.w, c.y + 0.5f * c.h);
    frames(2);
    GLFWscrollfun scroll = glfwSetScrollCallback(w, nullptr);
    glfwSetScrollCallback(w, scroll);
    ASSERT_NE(scroll, nullptr);
    const float before = s.camera.distance;
    for (int i = 0; i < 3; ++i) scroll(w, 0.0, 1.0);
    frames(1);
    EXPECT_NEAR(s.camera.distance, before * std::pow(0.88f, 3.0f), 1e-4f * before) << "not every wheel turn counted";
    const float after = s.camera.distance;
    frames(2);
    EXPECT_FLOAT_EQ(s.camera.distance, after) << "a wheel turn counted twice";
}

// The Hierarchy's splitter dragged down with the mouse gives the tree more room; after a
// quit and a new start with the same config folder the inspector has that height again.
// Issue 44: the Timeline's strip spans the window's whole width (under the left column too),
// and at every size and UI scale, 800 x 500 at 1.5 included, its ruler and two key rows (all
// joints, the selected joint) lie inside it, unscrolled: the other panels give way.
TEST_F(ViewerLayout, TheTimelineSpansTheWindowAndKeepsItsRulerAndKeyRows) {
    start(false);
    ViewerState& s = viewer->state();
    click("clip:walk");
    s.selectedJoint = s.joints.at(2);
    for (auto [w, h, scale] : {std::tuple{1600, 1000, 1.0f}, {1280, 720, 1.0f}, {800, 500, 1.0f}, {1600, 1000, 1.5f},
                               {1280, 720, 1.5f}, {800, 500, 1.5f}}) {
        s.ui.uiScale = scale;
        resize(w, h);
        frames(2);
        const std::string where = std::to_string(w) + "x" + std::to_string(h) + " at " + std::to_string(scale);
        ImGuiWindow* tl = ImGui::FindWindowByName("Timeline");
        ASSERT_NE(tl, nullptr);
        EXPECT_FLOAT_EQ(tl->Pos.x, 0.0f) << where;
        EXPECT_FLOAT_EQ(tl->Size.x, static_cast<float>(w)) << where;
        EXPECT_FLOAT_EQ(tl->Pos.y + tl->Size.y, static_cast<float>(h)) << where;
        EXPECT_EQ(tl->Scroll.y, 0.0f) << where;
        // The ruler and key rows: the scrub area (ruler + a row for all joints + one for the
        // selected joint) inside the panel's visible part.
        const ImVec4 ruler = rect("scrub");
        const float rowH = std::round(12.0f * ImGui::GetFontSize() / 13.0f);
        EXPECT_GE(ruler.w - ruler.y, std::round(22.0f * ImGui::GetFontSize() / 13.0f) + 2.0f * rowH - 0.5f) << where;
        EXPECT_LE(ruler.w, tl->InnerClipRect.Max.y + 0.5f) << "the key rows are cut " << where;
        EXPECT_GE(ruler.y, tl->InnerClipRect.Min.y - 0.5f) << where;
        // Nothing else lies over it: the left column ends above it.
        const Layout& layout = s.ui.layout;
        for (int i = 0; i < kPanelCount; ++i) {
            if (i == static_cast<int>(PanelId::Timeline) || !layout.rects.shown[i]) continue;
            EXPECT_LE(layout.rects.panel[i].bottom(), tl->Pos.y) << panelName(static_cast<PanelId>(i)) << " " << where;
        }
        if (scale == 1.0f || w > 800) expectPanelsInside(where);  // (at 800 x 500 at 1.5 the columns are one tab each)
        shot("timeline-" + where);
    }
}

// Issue 44: with Blend, Crowd and IK open the right column is too crowded to stack and shows
// tabs, split in two halves with a splitter: Checks chosen above and Stats below both show in
// the window at once. The splitter is dragged with the mouse and is there after a restart.
TEST_F(ViewerLayout, StatsAndChecksShowTogetherWhileBlendCrowdAndIkAreOpen) {
    start();
    ViewerState& s = viewer->state();
    s.panels.blend = true;
    s.panels.ik = true;
    s.crowd.panelOpen = true;
    frames(3);
    const Layout& layout = s.ui.layout;
    ASSERT_TRUE(layout.rects.tabbed[static_cast<int>(Area::Right)]);
    click("tab:Checks");
    click("tab:Stats");
    frames(2);
    EXPECT_TRUE(layout.shows(PanelId::Checks));
    EXPECT_TRUE(layout.shows(PanelId::Stats));
    for (PanelId id : {PanelId::Blend, PanelId::Crowd, PanelId::Ik, PanelId::View}) {
        EXPECT_FALSE(layout.shows(id)) << panelName(id);
        EXPECT_TRUE(has(std::string("tab:") + panelName(id))) << panelName(id) << " has no tab";
    }
    ImGuiWindow* checks = ImGui::FindWindowByName("Checks");
    ImGuiWindow* stats = ImGui::FindWindowByName("Stats");
    ASSERT_TRUE(checks && stats);
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    for (ImGuiWindow* w : {checks, stats}) {
        EXPECT_TRUE(w->Active && !w->Hidden) << w->Name;
        EXPECT_GT(w->Size.y, 4.0f * ImGui::GetTextLineHeight()) << w->Name;
        EXPECT_LE(w->Pos.x + w->Size.x, d.x + 0.5f) << w->Name;
        EXPECT_LE(w->Pos.y + w->Size.y, layout.rects.timeline.y) << w->Name << " runs under the Timeline";
    }
    EXPECT_LE(checks->Pos.y + checks->Size.y, stats->Pos.y) << "Checks and Stats overlap";
    EXPECT_NEAR(checks->Pos.x, stats->Pos.x, 0.5f);
    expectPanelsInside("Checks and Stats together");
    shot("checks-and-stats");
    // Drag the splitter between the halves 40 pixels down: Checks grows, Stats shrinks.
    const Splitter* between = nullptr;
    for (int i = 0; i < layout.rects.splitterCount; ++i) {
        if (layout.rects.splitters[i].kind == Splitter::BetweenPanes) between = &layout.rects.splitters[i];
    }
    ASSERT_NE(between, nullptr);
    const float checksH = checks->Size.y, statsH = stats->Size.y;
    drag(ImVec2(between->rect.x + 0.5f * between->rect.w, between->rect.y + 0.5f * between->rect.h), ImVec2(0.0f, 40.0f), 4);
    EXPECT_NEAR(checks->Size.y, checksH + 40.0f, 1.0f);
    EXPECT_NEAR(stats->Size.y, statsH - 40.0f, 1.0f);
    const float split = s.ui.layout.settings.split[1];
    const float upperH = layout.rects.paneRect[tabGroup(Area::Right, 0)].h;
    viewer.reset();  // quit
    start();
    ViewerState& t = viewer->state();
    EXPECT_FLOAT_EQ(t.ui.layout.settings.split[1], split);
    EXPECT_TRUE(t.ui.layout.shows(PanelId::Stats));
    EXPECT_NEAR(t.ui.layout.rects.paneRect[tabGroup(Area::Right, 0)].h, upperH, 1.0f);
    // A tab's right-click menu moves its panel to the other half, where it shows.
    t.panels.blend = true;
    t.panels.ik = true;
    frames(3);
    clickAt(at("tab:Stats"), 1);
    click("tab:move");
    frames(2);
    EXPECT_EQ(t.ui.layout.settings.pane[static_cast<int>(PanelId::Stats)], 0);
    EXPECT_EQ(t.ui.layout.rects.pane[static_cast<int>(PanelId::Stats)], 0);
    EXPECT_TRUE(t.ui.layout.shows(PanelId::Stats));
    int lower = 0;
    for (int i = 0; i < kPanelCount; ++i) {
        const LayoutRects& r = t.ui.layout.rects;
        if (r.shown[i] && r.area[i] == Area::Right && r.pane[i] == 1) ++lower;
    }
    EXPECT_EQ(lower, 1) << "the lower half shows one of its other panels";
}

TEST_F(ViewerLayout, TheHierarchySplitterIsRestoredAfterQuit) {
    start();
    frames(2);
    ViewerState& s = viewer->state();
    const ImVec4 bar = rect("hierarchy:splitter");
    const float before = rect("hierarchy:inspector").w - rect("hierarchy:inspector").y;
    drag(ImVec2(0.5f * (bar.x + bar.z), 0.5f * (bar.y + bar.w)), ImVec2(0.0f, 30.0f), 3);
    const float dragged = rect("hierarchy:inspector").w - rect("hierarchy:inspector").y;
    EXPECT_NEAR(dragged, before - 30.0f, 1.0f);
    const float saved = s.ui.inspectorHeight;
    viewer.reset();  // quit
    start();
    frames(2);
    EXPECT_FLOAT_EQ(viewer->state().ui.inspectorHeight, saved);
    EXPECT_NEAR(rect("hierarchy:inspector").w - rect("hierarchy:inspector").y, dragged, 1.0f);
}

// Timeline markers through the window: M adds one at the playhead, dragging its handle moves
// it (to a whole frame), its right-click menu renames (in place) and deletes it; Ctrl+S saves
// them beside the model, so opening the model again brings them back.
TEST_F(ViewerSmoke, TimelineMarkersAddDragRenameDeleteAndComeBackWithTheModel) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("rigview-markers-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* f : {"rigview_demo.gltf", "rigview_demo.bin", "rigview_demo_albedo.png"}) {
        fs::copy_file(fs::path(RIGVIEW_SOURCE_DIR) / "assets/demo" / f, dir / f);
    }
    const std::string model = (dir / "rigview_demo.gltf").string();
    ViewerState& s = viewer->state();
    s.requests.open = model;
    frames(1);
    viewer->waitForLoad();
    frames(3);
    ASSERT_EQ(s.path, model);
    const int walk = s.model->findClip("walk");
    click("clip:walk");
    click("play");  // paused
    ASSERT_FALSE(s.timeline.playing);
    ASSERT_EQ(s.timeline.clip, walk);
    // M at two times.
    click("scrub", 0.2f);
    const double t1 = s.timeline.time;
    press(GLFW_KEY_M);
    frames(1);
    click("scrub", 0.7f);
    const double t2 = s.timeline.time;
    press(GLFW_KEY_M);
    frames(1);
    ASSERT_EQ(s.clipMarkers[walk].size(), 2u);
    EXPECT_NEAR(s.clipMarkers[walk][0].time, t1, 1e-5);
    EXPECT_NEAR(s.clipMarkers[walk][1].time, t2, 1e-5);
    EXPECT_EQ(s.clipMarkers[walk][0].name, "marker 1");
    EXPECT_EQ(s.clipMarkers[walk][1].name, "marker 2");
    EXPECT_EQ(s.timeline.driver->markers(walk).size(), 2u);  // the controller plays them
    EXPECT_TRUE(s.timeline.markersModified);
    EXPECT_FALSE(fs::exists(model + ".markers.json")) << "saved only when asked";
    EXPECT_NE(viewer->probe().rects.count("markerlabel:0"), 0u) << "labels apart: both shown";

    // Drag the first marker's handle a tenth of the ruler to the right: it moves to a frame.
    const float fps = s.timeline.sampleRate;
    const ImVec2 h = at("marker:0");
    mouse = ImVec2(h.x, h.y + 2.0f);
    frames(1);
    mouseDown = true;
    frames(1);
    for (int i = 1; i <= 5; ++i) {
        mouse = ImVec2(h.x + s.timeline.rulerWidth * 0.02f * i, h.y + 2.0f);
        frames(1);
    }
    mouseDown = false;
    frames(2);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    ASSERT_EQ(s.clipMarkers[walk].size(), 2u);
    const double len = s.timeline.end - s.timeline.start;
    EXPECT_NEAR(s.clipMarkers[walk][0].time, t1 + 0.1 * len, 2.0 / fps);
    EXPECT_NEAR(s.clipMarkers[walk][0].time * fps, std::round(s.clipMarkers[walk][0].time * fps), 1e-3);
    EXPECT_NEAR(s.clipMarkers[walk][1].time, t2, 1e-5);
    EXPECT_NEAR(s.timeline.time, t2, 1e-5) << "dragging a marker does not scrub";

    // Right click on it: Rename, type, Enter.
    bool enter = false;
    std::string typed;
    viewer->setInputHook([&](ImGuiIO& io) {
        io.MousePos = mouse;
        io.MouseDown[0] = mouseDown;
        io.MouseDown[1] = rightDown;
        io.KeysDown[GLFW_KEY_ENTER] = enter;
        if (!typed.empty()) io.AddInputCharactersUTF8(typed.c_str());
        typed.clear();
    });
    auto rightClick = [&](ImVec2 p) { clickAt(p, 1); };
    rightClick(at("marker:0"));
    click("marker:rename");
    frames(2);
    ASSERT_NE(viewer->probe().rects.count("marker:name"), 0u);
    // The field is above the ruler (not hidden behind it), on top, focused, its old name selected.
    {
        const ImVec4 field = rect("marker:name"), ruler = rect("scrub");
        EXPECT_LE(field.w, ruler.y + 1.0f) << "the rename field overlaps the ruler";
        ImGuiWindow* w = ImGui::FindWindowByName("##markerrename");
        ASSERT_NE(w, nullptr);
        EXPECT_EQ(ImGui::GetCurrentContext()->NavWindow, w) << "the rename field's window is not focused";
        const ImGuiInputTextState& st = ImGui::GetCurrentContext()->InputTextState;
        EXPECT_EQ(ImGui::GetCurrentContext()->ActiveId, st.ID) << "the field is not active";
        EXPECT_TRUE(st.HasSelection());
        EXPECT_EQ(std::abs(st.Stb.select_end - st.Stb.select_start), static_cast<int>(s.clipMarkers[walk][0].name.size()))
            << "the old name is not selected";
        shot("marker-rename");
    }
    typed = "left foot down";
    frames(2);
    enter = true;
    frames(1);
    enter = false;
    frames(2);
    EXPECT_EQ(s.clipMarkers[walk][0].name, "left foot down");
    EXPECT_EQ(s.timeline.driver->markers(walk)[0].name, "left foot down");
    // Delete the second one.
    rightClick(at("marker:1"));
    click("marker:delete");
    ASSERT_EQ(s.clipMarkers[walk].size(), 1u);
    EXPECT_EQ(s.clipMarkers[walk][0].name, "left foot down");
    EXPECT_EQ(viewer->probe().rects.count("marker:1"), 0u);
    const float kept = s.clipMarkers[walk][0].time;
    // The ruler's menu away from a marker adds one at the playhead.
    const ImVec4 ruler = viewer->probe().rects.at("scrub");
    rightClick(ImVec2(ruler.x + 0.95f * (ruler.z - ruler.x), ruler.y + 3.0f));
    click("marker:add");
    EXPECT_EQ(s.clipMarkers[walk].size(), 2u);
    rightClick(at("marker:1"));
    click("marker:delete");
    setInputHookDefault();
    ASSERT_EQ(s.clipMarkers[walk].size(), 1u);

    // Close markers: the later one's name does not overlap the earlier's (one label hidden).
    press(GLFW_KEY_M);  // at t2
    click("scrub", 0.71f);
    press(GLFW_KEY_M);
    frames(1);
    ASSERT_EQ(s.clipMarkers[walk].size(), 3u);
    const auto& rects = viewer->probe().rects;
    for (int i = 0; i + 1 < 3; ++i) {
        auto a = rects.find("markerlabel:" + std::to_string(i));
        auto b = rects.find("marker:" + std::to_string(i + 1));
        if (a != rects.end() && b != rects.end()) EXPECT_LT(a->second.z, b->second.x + 1e-3f) << i;
    }
    EXPECT_TRUE(rects.count("markerlabel:1") == 0 || rects.count("markerlabel:2") == 0 ||
                rects.at("markerlabel:1").z < rects.at("marker:2").x);

    // Saved (Ctrl+S), then opened again (as after a restart): the markers come back.
    press(GLFW_KEY_S, GLFW_MOD_CONTROL);
    frames(1);
    EXPECT_FALSE(s.timeline.markersModified);
    ASSERT_TRUE(fs::exists(model + ".markers.json"));
    s.requests.open = model;
    frames(1);
    viewer->waitForLoad();
    frames(3);
    ASSERT_EQ(s.clipMarkers[walk].size(), 3u);
    EXPECT_EQ(s.clipMarkers[walk][0].name, "left foot down");
    EXPECT_NEAR(s.clipMarkers[walk][0].time, kept, 1e-6);
    EXPECT_EQ(s.model->clips[walk].markers.size(), 3u);
    fs::remove_all(dir);
}

// The dope sheet: a row per skeleton node, indented by hierarchy; a node's arrow folds its
// subtree away; clicking a row selects its joint; a clip with morph weight keys adds a row per
// morph target.
TEST_F(ViewerSmoke, DopeSheetHasARowPerJointFoldsByHierarchyAndShowsMorphRows) {
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    click("clip:walk");
    click("dopesheet");
    ASSERT_TRUE(s.timeline.dopeSheet);
    EXPECT_EQ(s.timeline.rowCount, static_cast<int>(m.skeleton.size()));
    ASSERT_FALSE(s.timeline.rowsDrawn.empty());
    // The first row with children that is drawn: fold it.
    int parent = -1;
    for (const std::string& r : s.timeline.rowsDrawn) {
        const int n = std::stoi(r.substr(r.find(':') + 1));
        if (r.rfind("joint:", 0) == 0 && !s.children[n].empty()) {
            parent = n;
            break;
        }
    }
    ASSERT_GE(parent, 0);
    int below = 0;
    for (size_t j = 0; j < m.skeleton.size(); ++j) {
        for (int p = m.skeleton.parent[j]; p >= 0; p = m.skeleton.parent[p]) below += p == parent;
    }
    ASSERT_GT(below, 0);
    click("dope:fold:" + std::to_string(parent));
    EXPECT_EQ(s.timeline.rowCount, static_cast<int>(m.skeleton.size()) - below);
    const int child = s.children[parent][0];
    EXPECT_EQ(std::count(s.timeline.rowsDrawn.begin(), s.timeline.rowsDrawn.end(), "joint:" + std::to_string(child)), 0);
    click("dope:fold:" + std::to_string(parent));
    EXPECT_EQ(s.timeline.rowCount, static_cast<int>(m.skeleton.size()));
    // A row selects its joint.
    click("dope:joint:" + std::to_string(child));
    EXPECT_EQ(s.selectedJoint, child);

    s.requests.open = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/morph_skin.gltf";
    frames(1);
    viewer->waitForLoad();
    frames(3);
    const Model& mm = *s.model;
    const Clip& bend = mm.clips[s.timeline.clip];
    ASSERT_FALSE(bend.morphTracks.empty());
    size_t targets = 0;
    for (const MorphTrack& t : bend.morphTracks) targets += t.targets;
    EXPECT_EQ(s.timeline.rowCount, static_cast<int>(mm.skeleton.size() + targets));
    // The morph rows come last: the wheel over the rows scrolls them into view.
    mouse = at("dope:joint:0");
    for (int i = 0; i < 10 && std::count(s.timeline.rowsDrawn.begin(), s.timeline.rowsDrawn.end(), "morph:0:1") == 0; ++i) {
        wheel = -3.0f;
        frames(2);
    }
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    EXPECT_EQ(std::count(s.timeline.rowsDrawn.begin(), s.timeline.rowsDrawn.end(), "morph:0:1"), 1);
    EXPECT_EQ(std::count(s.timeline.rowsDrawn.begin(), s.timeline.rowsDrawn.end(), "joint:0"), 0) << "scrolled";
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

}  // namespace
}  // namespace rig

namespace rig {
namespace {

// The model's box as the camera shows it: its height on screen, in pixels.
float projectedHeight(const ViewerState& s, int w, int h) {
    const glm::mat4 viewProj = s.camera.projection(static_cast<float>(w) / static_cast<float>(h)) * s.camera.view();
    float top = 1e30f, bottom = -1e30f;
    for (int c = 0; c < 8; ++c) {
        const glm::vec3 p((c & 1) ? s.bounds.max.x : s.bounds.min.x, (c & 2) ? s.bounds.max.y : s.bounds.min.y,
                          (c & 4) ? s.bounds.max.z : s.bounds.min.z);
        glm::vec2 px;
        if (!projectToScreen(viewProj, p, static_cast<float>(w), static_cast<float>(h), px)) continue;
        top = std::min(top, px.y);
        bottom = std::max(bottom, px.y);
    }
    return bottom > top ? bottom - top : 0.0f;
}

// Issue 29: a crowd of 1,000 turned on through the Crowd panel keeps the window usable. The
// viewer's frame budget poses and draws only the instances that fit it, says so in the panel
// and over the viewport, and turning the crowd off frames the single model again.
//
// This test asserts wall-clock frame times, which the other tests never do: the issue's bar is
// what a person feels (a frame under 100 ms under llvmpipe; without the budget such a frame
// takes seconds). To hold on a loaded shared machine it compares medians over several frames
// after the budget has settled, against the same window's frames without the crowd: the
// crowd may add at most 100 ms to the median frame, or double it where the window alone is
// already over 100 ms (a machine busy with other work: with 1,000 instances drawn a frame
// takes seconds, so the bar still catches a crowd out of its budget).
TEST_F(ViewerSmoke, CrowdOfAThousandStaysWithinTheFrameBudget) {
    ViewerState& s = viewer->state();
    s.crowd.panelOpen = true;
    frames(2);
    int w = 0, h = 0;
    viewer->captureFrame(w, h);
    const float before = projectedHeight(s, w, h);
    ASSERT_GT(before, 0.0f);
    auto frameMs = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        frames(1);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    auto median = [](std::vector<double> ms) {
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    };

    s.crowd.instances = 1000;
    click("crowd:on");
    ASSERT_TRUE(s.crowd.enabled);
    ASSERT_TRUE(s.crowd.budgeted);  // the viewer's default
    frames(15);                     // the budget settles
    // Frames with and without the crowd alternate (the flag alone: the posed crowd and its
    // budget stay), so that other work on a shared machine weighs on both alike. A load spike
    // can still land on one side: the bar holds when one of three rounds meets it, while a
    // viewer drawing all 1,000 instances (seconds a frame under llvmpipe) fails every round.
    bool met = false;
    for (int round = 0; round < 3 && !met; ++round) {
        std::vector<double> with, without;
        for (int i = 0; i < 7; ++i) {
            s.crowd.enabled = false;
            without.push_back(frameMs());
            s.crowd.enabled = true;
            with.push_back(frameMs());
        }
        const double a = median(without), b = median(with);
        std::printf("round %d, median frame: %.1f ms without the crowd, %.1f ms with 1,000 (%zu posed, crowd %.1f ms)\n",
                    round, a, b, s.crowd.posed, s.crowd.updateMs + s.crowd.drawMs);
        met = b < std::max(a + 100.0, 2.0 * a);
    }
    EXPECT_TRUE(met) << "the crowd should add under 100 ms a frame";
    // Under llvmpipe 1,000 instances never fit the budget: fewer are drawn, and both notes say so.
    EXPECT_GE(s.crowd.posed, 1u);
    EXPECT_LT(s.crowd.posed, 1000u);
    EXPECT_EQ(s.crowd.drawn + s.crowd.culled, s.crowd.posed);
    EXPECT_TRUE(s.crowd.capped());
    EXPECT_TRUE(viewer->probe().rects.count("crowd:budget-note")) << "no note in the Crowd panel";
    ImGuiWindow* note = window("##crowd-budget");
    ASSERT_NE(note, nullptr) << "no note over the viewport";
    EXPECT_TRUE(note->Active);
    const LayoutRect& centre = s.ui.layout.rects.centre;
    EXPECT_TRUE(centre.contains(note->Pos.x + 1.0f, note->Pos.y + 1.0f)) << "the note should sit in the viewport";
    // The camera framed what is drawn (the posed instances, about sqrt(posed) rows of them, far
    // ones drawn lighter: how many fit depends on the machine): one model is about a row's height,
    // not the speck it would be with the whole thousand, or more, framed (measured: 1.2 x
    // centre.h / sqrt(posed)).
    EXPECT_GT(projectedHeight(s, w, h), 0.6f * centre.h / std::sqrt(static_cast<float>(s.crowd.posed)));

    // Off, with the camera far out (as when a whole grid was framed): the single model is
    // framed again as it was before the crowd, not left a speck.
    s.camera.distance *= 8.0f;
    frames(1);
    ASSERT_LT(projectedHeight(s, w, h), 0.5f * before);
    click("crowd:on");
    ASSERT_FALSE(s.crowd.enabled);
    frames(2);
    EXPECT_FALSE(window("##crowd-budget")->Active);
    const float after = projectedHeight(s, w, h);
    EXPECT_NEAR(after, before, 0.2f * before);
    EXPECT_GT(after, 0.25f * centre.h);
}

// A crowd of 1,000 on a software renderer shows a grid: the budget never draws fewer than 25
// instances, the far ones from the lighter model; unticking the budget when the whole crowd
// would take over a second a frame asks first (Keep the budget / Draw all anyway).
TEST_F(ViewerSmoke, ACrowdOfAThousandShowsAGridAndAsksBeforeDrawingAll) {
    ViewerState& s = viewer->state();
    s.crowd.panelOpen = true;
    frames(2);
    s.crowd.instances = 1000;
    click("crowd:on");
    ASSERT_TRUE(s.crowd.enabled);
    frames(15);  // the budget settles, the camera frames what is drawn
    EXPECT_GE(s.crowd.posed, kCrowdMinInstances);
    EXPECT_GE(s.crowd.drawn, kCrowdMinInstances) << "the framed grid should be on screen";
    if (s.stats.softwareRenderer) {
        EXPECT_LT(s.crowd.posed, 1000u);
        EXPECT_GT(s.crowd.lowDetail, 0u) << "no instance drawn from the lighter model";
    }
    shot("crowd-grid");
    // Instances across the viewport's middle row: runs of model pixels apart from the background.
    int w = 0, h = 0;
    const std::vector<uint8_t> px = viewer->captureFrame(w, h);
    const LayoutRect c = s.ui.layout.rects.centre;
    const size_t corner = (static_cast<size_t>(c.y + 4) * w + static_cast<size_t>(c.x + 4)) * 4;
    int most = 0;
    for (int y = static_cast<int>(c.y + c.h * 0.3f); y < static_cast<int>(c.y + c.h * 0.7f); y += 2) {
        int runs = 0;
        bool inside = false;
        for (int x = static_cast<int>(c.x); x < static_cast<int>(c.x + c.w); ++x) {
            const size_t i = (static_cast<size_t>(y) * w + x) * 4;
            const bool model = std::abs(px[i] - px[corner]) + std::abs(px[i + 1] - px[corner + 1]) +
                                   std::abs(px[i + 2] - px[corner + 2]) > 40;
            runs += model && !inside;
            inside = model;
        }
        most = std::max(most, runs);
    }
    EXPECT_GE(most, 4) << "no row of the viewport crosses four instances: not a grid";

    // 10,000 would take seconds a frame here (far over kCrowdAskAboveMs, whatever the load):
    // unticking the budget asks first.
    s.crowd.instances = 10000;
    frames(4);
    const float whole = s.crowd.unbudgetedMs();
    std::printf("the whole crowd of 10,000: about %.0f ms a frame\n", whole);
    if (whole > 3.0f * kCrowdAskAboveMs) {
        click("crowd:budgeted");
        EXPECT_TRUE(s.crowd.budgeted) << "the budget went without asking";
        ASSERT_TRUE(has("crowd:ask"));
        click("crowd:ask:keep");
        EXPECT_TRUE(s.crowd.budgeted);
        EXPECT_FALSE(s.crowd.askUnbudgeted);
        click("crowd:budgeted");
        ASSERT_TRUE(s.crowd.askUnbudgeted);
        click("crowd:ask:all");
        EXPECT_FALSE(s.crowd.budgeted) << "Draw all anyway did not turn the budget off";
        click("crowd:budgeted");  // back on: no question
        EXPECT_TRUE(s.crowd.budgeted);
        EXPECT_FALSE(s.crowd.askUnbudgeted);
    } else {
        std::printf("the whole crowd takes %.0f ms a frame here: nothing to ask\n", whole);
    }
}

}  // namespace
}  // namespace rig
