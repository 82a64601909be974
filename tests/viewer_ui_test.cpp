// The viewer's pure parts, no window: the file browser's listing and folder stepping, the
// shortcut table, the key queue, the colour-view legends, and the render framing maths.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <glm/gtc/matrix_transform.hpp>
#include <stb_image.h>

#include "app/input_queue.h"
#include "import/import.h"
#include "render/camera.h"
#include "support/run.h"
#include "ui/file_browser.h"
#include "ui/legend.h"
#include "ui/shortcuts.h"
#include "ui/timeline_panel.h"
#include "app/model_sniff.h"
#include "app/up_axis.h"
#include "check/vertex_views.h"
#include "app/viewer_settings.h"
#include "render/renderer.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

class Folder : public ::testing::Test {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("rigview-browser-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir / "zoo");
        fs::create_directories(dir / "Anims");
        fs::create_directories(dir / ".git");
        for (const char* f : {"b.fbx", "A.gltf", "c.BVH", "notes.txt", "model.bin", "tex.png", ".hidden.obj", "walk.amc"}) {
            std::ofstream(dir / f) << "x";
        }
    }
    void TearDown() override { fs::remove_all(dir); }
    std::vector<std::string> names(const std::string& filter = "") {
        std::vector<FileBrowserState::Entry> e;
        std::string error;
        EXPECT_TRUE(listFolder(dir.string(), filter, isModelFile, e, error)) << error;
        std::vector<std::string> out;
        for (const auto& x : e) out.push_back(x.folder ? x.name + "/" : x.name);
        return out;
    }
    fs::path dir;
};

TEST_F(Folder, ListsFoldersFirstThenOnlyModelFilesByName) {
    // Hidden entries, buffers, textures and notes are left out; case does not split the order.
    EXPECT_EQ(names(), (std::vector<std::string>{"Anims/", "zoo/", "A.gltf", "b.fbx", "c.BVH", "walk.amc"}));
    // The filter narrows files by a case-insensitive part of the name; folders stay.
    EXPECT_EQ(names("GL"), (std::vector<std::string>{"Anims/", "zoo/", "A.gltf"}));
}

TEST_F(Folder, AnUnreadableFolderIsAnError) {
    std::vector<FileBrowserState::Entry> e;
    std::string error;
    EXPECT_FALSE(listFolder((dir / "missing").string(), "", isModelFile, e, error));
    EXPECT_NE(error.find("missing"), std::string::npos) << error;
    EXPECT_TRUE(e.empty());
}

TEST_F(Folder, NextAndPreviousFileWrapAroundTheFolder) {
    const std::string a = (dir / "A.gltf").string(), b = (dir / "b.fbx").string(), w = (dir / "walk.amc").string();
    EXPECT_EQ(neighbourFile(a, 1, isModelFile), b);
    EXPECT_EQ(neighbourFile(b, -1, isModelFile), a);
    EXPECT_EQ(neighbourFile(w, 1, isModelFile), a);   // wraps
    EXPECT_EQ(neighbourFile(a, -1, isModelFile), w);
    // From a file that is not a model file: where it would sort.
    EXPECT_EQ(neighbourFile((dir / "notes.txt").string(), 1, isModelFile), w);
    EXPECT_EQ(neighbourFile((dir / "notes.txt").string(), -1, isModelFile), (dir / "c.BVH").string());
    // Alone in its folder: nowhere to go.
    EXPECT_EQ(neighbourFile((dir / "zoo" / "x.fbx").string(), 1, isModelFile), "");
}

TEST(Shortcuts, TheTableIsUnambiguousAndEveryActionIsReachable) {
    std::set<std::pair<int, int>> seen;
    for (const Shortcut& s : shortcuts()) {
        EXPECT_TRUE(seen.insert({s.key, s.mods}).second) << s.keys << " is bound twice";
        EXPECT_EQ(findShortcut(s.key, s.mods, false), &s) << s.keys;
        EXPECT_NE(std::string(s.what), "");
    }
    // Page keys step files (F3D's arrows step frames here).
    EXPECT_EQ(findShortcut(GLFW_KEY_RIGHT, 0, false)->action, ShortcutAction::StepForward);
    EXPECT_EQ(findShortcut(GLFW_KEY_PAGE_DOWN, 0, false)->action, ShortcutAction::NextFile);
    // Ctrl+O is not O; Ctrl+G is not G; auto-repeat only steps.
    EXPECT_EQ(findShortcut(GLFW_KEY_O, 0, false), nullptr);
    EXPECT_EQ(findShortcut(GLFW_KEY_G, GLFW_MOD_CONTROL, false), nullptr);
    EXPECT_NE(findShortcut(GLFW_KEY_RIGHT, 0, true), nullptr);
    EXPECT_EQ(findShortcut(GLFW_KEY_G, 0, true), nullptr);
    // ? is Shift+/; / alone is nothing.
    EXPECT_EQ(findShortcut(GLFW_KEY_SLASH, GLFW_MOD_SHIFT, false)->action, ShortcutAction::HelpQuestion);
    EXPECT_EQ(findShortcut(GLFW_KEY_SLASH, 0, false), nullptr);
}

// Each view option with a key in the view option table (render/view_options.h) has that key,
// listed with the option's help, and pressing it flips the flag or steps the choice round.
TEST(Shortcuts, EveryViewOptionKeyIsBoundAndActsOnItsOption) {
    int bound = 0;
    for (const ViewOptionSpec& o : viewOptionTable()) {
        if (!o.shortcut) continue;
        ++bound;
        const Shortcut* sc = findShortcut(GLFW_KEY_A + (o.shortcut[0] - 'A'), 0, false);
        ASSERT_NE(sc, nullptr) << o.key << ": " << o.shortcut << " is not bound";
        EXPECT_EQ(sc->option, &o) << o.shortcut;
        EXPECT_STREQ(sc->keys, o.shortcut);
        EXPECT_STREQ(sc->what, o.help);
        ViewerState s;
        if (o.type == ViewOptionType::Flag) {
            const bool before = s.view.*o.flag;
            applyShortcut(s, *sc);
            EXPECT_NE(s.view.*o.flag, before) << o.shortcut;
            applyShortcut(s, *sc);
            EXPECT_EQ(s.view.*o.flag, before) << o.shortcut;
        } else {
            ASSERT_EQ(o.type, ViewOptionType::Choice) << o.key << ": a key flips a flag or steps a choice";
            const int first = o.choiceOf(s.view);
            for (size_t i = 1; i <= o.choices.size(); ++i) {
                applyShortcut(s, *sc);
                EXPECT_EQ(o.choiceOf(s.view), static_cast<int>((first + i) % o.choices.size())) << o.shortcut;
            }
        }
    }
    EXPECT_EQ(bound, 4);  // B, N, G, W
}

TEST(Shortcuts, ApplyingPostsRequests) {
    ViewerState s;
    applyShortcut(s, ShortcutAction::StepForward);
    applyShortcut(s, ShortcutAction::StepForward);
    applyShortcut(s, ShortcutAction::StepBack);
    EXPECT_EQ(s.requests.step, 1);
    applyShortcut(s, ShortcutAction::TogglePlay);
    applyShortcut(s, ShortcutAction::TogglePlay);
    EXPECT_FALSE(s.requests.togglePlay);  // two taps in one frame cancel
    applyShortcut(s, ShortcutAction::NextFile);
    EXPECT_EQ(s.requests.nextFile, 1);
    // Directions are counts: every press adds one (two Down taps in a frame move two keys).
    applyShortcut(s, ShortcutAction::NextFile);
    EXPECT_EQ(s.requests.nextFile, 2);
    for (int i = 0; i < 4; ++i) applyShortcut(s, ShortcutAction::NextKey);
    EXPECT_EQ(s.requests.key, 4);
    applyShortcut(s, ShortcutAction::PreviousKey);
    applyShortcut(s, ShortcutAction::PreviousKey);
    EXPECT_EQ(s.requests.key, 2);
    s.selectedJoint = 3;
    applyShortcut(s, ShortcutAction::Help);
    applyShortcut(s, ShortcutAction::ClearSelection);  // Esc closes the overlay first
    EXPECT_FALSE(s.ui.help);
    EXPECT_EQ(s.selectedJoint, 3);
    applyShortcut(s, ShortcutAction::ClearSelection);
    EXPECT_EQ(s.selectedJoint, -1);
}

TEST(InputQueue, KeepsEveryPressInOrderAndDragsOnlyWhileHeld) {
    InputQueue q;
    q.onKey(GLFW_KEY_G, GLFW_PRESS, 0);
    q.onKey(GLFW_KEY_G, GLFW_RELEASE, 0);
    q.onKey(GLFW_KEY_RIGHT, GLFW_PRESS, 0);
    q.onKey(GLFW_KEY_RIGHT, GLFW_REPEAT, 0);
    q.onKey(GLFW_KEY_RIGHT, GLFW_RELEASE, 0);
    ASSERT_EQ(q.size(), 3u);
    EXPECT_EQ(q[0].key, GLFW_KEY_G);
    EXPECT_FALSE(q[1].repeat);
    EXPECT_TRUE(q[2].repeat);
    for (size_t i = 0; i < InputQueue::kCapacity; ++i) q.onKey(GLFW_KEY_A, GLFW_PRESS, 0);
    EXPECT_EQ(q.size(), InputQueue::kCapacity);
    EXPECT_EQ(q.dropped(), 3u);
    q.clear();
    EXPECT_EQ(q.size(), 0u);
    // A move, then a press: no drag; moves while held add up; after release nothing.
    q.onCursor(10, 10);
    q.onCursor(200, 150);
    q.onMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS);
    EXPECT_EQ(q.dragX(), 0.0f);
    q.onCursor(210, 145);
    q.onCursor(230, 140);
    EXPECT_EQ(q.dragX(), 30.0f);
    EXPECT_EQ(q.dragY(), -10.0f);
    q.onMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE);
    q.onCursor(500, 500);
    EXPECT_EQ(q.dragX(), 30.0f);
    // A move to a HiDPI monitor is reported once.
    EXPECT_EQ(q.takeContentScale(), 0.0f);
    q.onContentScale(2.0f, 2.0f);
    EXPECT_EQ(q.takeContentScale(), 2.0f);
    EXPECT_EQ(q.takeContentScale(), 0.0f);
}

// Two clicks at two places within one frame: each press and release reaches ImGui at the
// cursor position it was made at, the second click's after the cursor's move.
// Keys reach ImGui one change per key per frame: Enter tapped between two frames is down for
// one frame and up the next; Ctrl+A tapped (Ctrl's own press and release around it) is down with
// Ctrl; letters typed as text are never handed on (ImGui takes them as characters), so they
// hold nothing up; a second tap of the same key waits for the next frame.
TEST(InputQueue, KeysReachImGuiOneChangePerFrame) {
    InputQueue q;
    KeyFrame f;
    q.onKey(GLFW_KEY_M, GLFW_PRESS, 0);
    q.onKey(GLFW_KEY_M, GLFW_RELEASE, 0);
    q.onKey(GLFW_KEY_ENTER, GLFW_PRESS, 0);
    q.onKey(GLFW_KEY_ENTER, GLFW_RELEASE, 0);
    q.onKey(GLFW_KEY_ENTER, GLFW_PRESS, 0);
    q.onKey(GLFW_KEY_ENTER, GLFW_RELEASE, 0);
    EXPECT_EQ(q.size(), 3u);  // the shortcuts still see every press at once
    q.nextKeyFrame(f);
    EXPECT_TRUE(f.down[GLFW_KEY_ENTER]);
    EXPECT_FALSE(f.down[GLFW_KEY_M]);
    q.nextKeyFrame(f);
    EXPECT_FALSE(f.down[GLFW_KEY_ENTER]);
    q.nextKeyFrame(f);
    EXPECT_TRUE(f.down[GLFW_KEY_ENTER]) << "the second tap";
    q.nextKeyFrame(f);
    EXPECT_FALSE(f.down[GLFW_KEY_ENTER]);
    EXPECT_EQ(q.pendingKeyEvents(), 0u);
    q.onKey(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0);
    q.onKey(GLFW_KEY_A, GLFW_PRESS, GLFW_MOD_CONTROL);
    q.onKey(GLFW_KEY_A, GLFW_RELEASE, GLFW_MOD_CONTROL);
    q.onKey(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL);
    q.nextKeyFrame(f);
    EXPECT_TRUE(f.down[GLFW_KEY_A]);
    EXPECT_TRUE(f.ctrl);
    q.nextKeyFrame(f);
    EXPECT_FALSE(f.down[GLFW_KEY_A]);
    EXPECT_FALSE(f.ctrl);
    q.onKey(GLFW_KEY_A, GLFW_PRESS, 0);  // a letter typed as text
    q.onKey(GLFW_KEY_A, GLFW_RELEASE, 0);
    EXPECT_EQ(q.pendingKeyEvents(), 0u);
}

TEST(InputQueue, ClicksAtTwoPlacesInOneFrameKeepTheirOwnPositions) {
    constexpr int L = GLFW_MOUSE_BUTTON_LEFT;
    InputQueue q;
    q.onCursor(10, 20);
    q.onMouseButton(L, GLFW_PRESS, 1.00);
    q.onMouseButton(L, GLFW_RELEASE, 1.01);
    q.onCursor(200, 300);
    q.onMouseButton(L, GLFW_PRESS, 1.02);
    q.onCursor(210, 305);  // moved while held: the release is where the cursor was then
    q.onMouseButton(L, GLFW_RELEASE, 1.03);
    const float want[4][2] = {{10, 20}, {10, 20}, {200, 300}, {210, 305}};
    for (int i = 0; i < 4; ++i) {
        const MouseFrame f = q.nextMouseFrame(0.3, 6.0f);
        EXPECT_EQ(f.down[L], i % 2 == 0) << i;
        ASSERT_TRUE(f.hasPos) << i;
        EXPECT_EQ(f.x, want[i][0]) << i;
        EXPECT_EQ(f.y, want[i][1]) << i;
        if (i == 2) EXPECT_EQ(f.clickCount[L], 1) << "200 px apart: two single clicks, not a double click";
    }
    EXPECT_FALSE(q.nextMouseFrame(0.3, 6.0f).hasPos);
}

// ImGui 1.86 reads one state per button per frame: the queue hands it one change at a time.
TEST(InputQueue, HandsOutOneButtonChangePerFrameAndTimesDoubleClicksByTheEvents) {
    constexpr int L = GLFW_MOUSE_BUTTON_LEFT, R = GLFW_MOUSE_BUTTON_RIGHT;
    InputQueue q;
    q.onCursor(100, 50);
    // Two clicks within one frame: press, release, press, release over four frames.
    q.onMouseButton(L, GLFW_PRESS, 1.00);
    q.onMouseButton(L, GLFW_RELEASE, 1.02);
    q.onMouseButton(L, GLFW_PRESS, 1.05);
    q.onMouseButton(L, GLFW_RELEASE, 1.07);
    MouseFrame f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_TRUE(f.down[L]);
    EXPECT_TRUE(f.pressed[L]);
    EXPECT_EQ(f.clickCount[L], 1);
    EXPECT_TRUE(f.hasPos);
    EXPECT_EQ(f.x, 100.0f);
    EXPECT_FALSE(f.down[R]);
    EXPECT_EQ(q.pendingButtonEvents(), 3u);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_FALSE(f.down[L]);
    EXPECT_FALSE(f.pressed[L]);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_TRUE(f.down[L]);
    EXPECT_EQ(f.clickCount[L], 2);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_FALSE(f.down[L]);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_FALSE(f.down[L]);
    EXPECT_FALSE(f.hasPos);  // nothing delivered: the current position stands
    EXPECT_EQ(q.pendingButtonEvents(), 0u);
    // A third press right after a double click: a triple click.
    q.onMouseButton(L, GLFW_PRESS, 1.10);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_TRUE(f.pressed[L]);
    EXPECT_EQ(f.clickCount[L], 3);
    // Held across frames: no change, no new press; a release and press in one frame both reach it.
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_TRUE(f.down[L]);
    EXPECT_FALSE(f.pressed[L]);
    q.onMouseButton(L, GLFW_RELEASE, 3.0);
    q.onMouseButton(L, GLFW_PRESS, 3.1);
    EXPECT_FALSE(q.nextMouseFrame(0.3, 6.0f).down[L]);
    EXPECT_TRUE(q.nextMouseFrame(0.3, 6.0f).down[L]);
    q.onMouseButton(L, GLFW_RELEASE, 3.15);
    q.nextMouseFrame(0.3, 6.0f);
    // At 5 fps: clicks 0.2 s apart are a double click, though the second press reaches ImGui
    // two frames (0.4 s) after the first.
    q.onMouseButton(L, GLFW_PRESS, 5.0);
    q.onMouseButton(L, GLFW_RELEASE, 5.05);
    EXPECT_EQ(q.nextMouseFrame(0.3, 6.0f).clickCount[L], 1);
    q.onMouseButton(L, GLFW_PRESS, 5.2);
    q.onMouseButton(L, GLFW_RELEASE, 5.25);
    q.nextMouseFrame(0.3, 6.0f);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_TRUE(f.pressed[L]);
    EXPECT_EQ(f.clickCount[L], 2);
    q.nextMouseFrame(0.3, 6.0f);
    // Too slow, or too far apart: two single clicks.
    q.onMouseButton(L, GLFW_PRESS, 9.0);
    q.onMouseButton(L, GLFW_RELEASE, 9.1);
    q.onMouseButton(L, GLFW_PRESS, 9.5);
    q.onMouseButton(L, GLFW_RELEASE, 9.6);
    q.onCursor(120, 50);
    q.onMouseButton(L, GLFW_PRESS, 9.7);
    q.onMouseButton(L, GLFW_RELEASE, 9.8);
    int doubles = 0, presses = 0;
    for (int i = 0; i < 6; ++i) {
        f = q.nextMouseFrame(0.3, 6.0f);
        presses += f.pressed[L];
        doubles += f.clickCount[L] > 1;
    }
    EXPECT_EQ(presses, 3);
    EXPECT_EQ(doubles, 0);
    // Buttons are independent: the right button's press comes in the same frame as the left's.
    q.onMouseButton(L, GLFW_PRESS, 12.0);
    q.onMouseButton(R, GLFW_PRESS, 12.0);
    f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_TRUE(f.down[L]);
    EXPECT_TRUE(f.down[R]);
    q.onMouseButton(L, GLFW_RELEASE, 12.1);
    q.onMouseButton(R, GLFW_RELEASE, 12.1);
    q.nextMouseFrame(0.3, 6.0f);
    // A frame many clicks long: the oldest go, the state they lead to stays right.
    for (int i = 0; i < 20; ++i) {
        q.onMouseButton(L, GLFW_PRESS, 20.0 + i);
        q.onMouseButton(L, GLFW_RELEASE, 20.0 + i + 0.5);
    }
    EXPECT_EQ(q.pendingButtonEvents(), InputQueue::kButtonEvents);
    EXPECT_EQ(q.droppedButtonEvents(), 40u - InputQueue::kButtonEvents);
    for (size_t i = 0; i < InputQueue::kButtonEvents; ++i) f = q.nextMouseFrame(0.3, 6.0f);
    EXPECT_FALSE(f.down[L]);
    EXPECT_EQ(q.pendingButtonEvents(), 0u);
}

TEST(Legend, TruncationOfACleanModelSaysSo) {
    LegendInputs in;
    in.truncationMax = 0.0f;
    const Legend clean = legendFor(ColorView::TruncationError, in);
    EXPECT_EQ(clean.note, "no truncation: max 0.000");
    EXPECT_FALSE(clean.gradient);
    in.truncationMax = 0.02f;
    const Legend l = legendFor(ColorView::TruncationError, in);
    ASSERT_TRUE(l.gradient);
    ASSERT_EQ(l.entries.size(), 5u);
    EXPECT_EQ(l.entries.front().label, "0");
    EXPECT_EQ(l.entries[2].label, "0.01");
    EXPECT_EQ(l.entries.back().label, "0.02");
    // The bar's ends are the colours the vertices get for 0 and for the maximum.
    EXPECT_EQ(l.entries.front().color, heatColor(0.0f));
    EXPECT_EQ(l.entries.back().color, heatColor(1.0f));
}

TEST(Legend, EveryColourViewHasOneWithItsScale) {
    LegendInputs in;
    in.jointName = "hips";
    in.flagged = 80;
    EXPECT_TRUE(legendFor(ColorView::None, in).title.empty());
    const Legend w = legendFor(ColorView::JointWeight, in);
    EXPECT_EQ(w.title, "weight of hips");
    EXPECT_EQ(w.entries.front().label, "0.00");
    EXPECT_EQ(w.entries.back().label, "1.00");
    const Legend sum = legendFor(ColorView::WeightSum, in);
    EXPECT_EQ(sum.entries.front().color, weightSumColor(kWeightSumTolerance));
    EXPECT_EQ(sum.entries.back().label, ">=1");
    const Legend n = legendFor(ColorView::InfluenceCount, in);
    ASSERT_EQ(n.entries.size(), 6u);
    EXPECT_EQ(n.entries[4].color, influenceCountColor(4));
    const Legend u = legendFor(ColorView::Unweighted, in);
    EXPECT_EQ(u.entries.front().color, kUnweightedColor);
    EXPECT_NE(u.note.find("80 unweighted"), std::string::npos) << u.note;
}

TEST(Legend, OnionSkinPastAndFutureDifferAndFadeWithDistance) {
    for (int count : {1, 2, 5}) {
        for (int k = 1; k <= count; ++k) {
            const glm::vec4 past = onionTint(-k, count), future = onionTint(k, count);
            EXPECT_GT(past.g, std::max(past.r, past.b));        // green
            EXPECT_GT(std::min(future.r, future.b), future.g);  // magenta
            EXPECT_FLOAT_EQ(past.a, future.a);
            EXPECT_GT(past.a, 0.0f);
            if (k > 1) EXPECT_LT(past.a, onionTint(-(k - 1), count).a);
        }
    }
}

// fitPoints: the fitted points' projected extent is `fill` of the view on the binding axis,
// centred, for any angles and aspect (checked with the camera's own matrices).
TEST(Framing, FitPointsSpansTheFillFractionCentred) {
    std::vector<glm::vec3> pts;
    for (int i = 0; i < 200; ++i) {
        const float t = static_cast<float>(i) * 0.37f;
        pts.push_back(glm::vec3(0.3f * std::sin(t), 0.9f + 0.9f * std::cos(1.3f * t), 0.2f * std::sin(2.1f * t)));
    }
    Bounds b;
    for (const glm::vec3& p : pts) b.add(p);
    for (float az : {0.0f, 30.0f, 95.0f}) {
        for (float el : {0.0f, 15.0f, 60.0f}) {
            for (float aspect : {4.0f / 3.0f, 0.5f, 2.5f}) {
                OrbitCamera cam;
                cam.azimuthDeg = az;
                cam.elevationDeg = el;
                cam.fitPoints(pts.data(), pts.size(), b, aspect, 0.85f);
                const glm::mat4 vp = cam.projection(aspect) * cam.view();
                glm::vec2 lo(1e9f), hi(-1e9f);
                for (const glm::vec3& p : pts) {
                    const glm::vec4 c = vp * glm::vec4(p, 1.0f);
                    ASSERT_GT(c.w, 0.0f);
                    const glm::vec2 ndc(c.x / c.w, c.y / c.w);
                    lo = glm::min(lo, ndc);
                    hi = glm::max(hi, ndc);
                    // Inside the near/far planes too.
                    EXPECT_LE(std::abs(c.z / c.w), 1.0f);
                }
                const float span = std::max(hi.x - lo.x, hi.y - lo.y) / 2.0f;
                EXPECT_NEAR(span, 0.85f, 0.01f) << az << " " << el << " " << aspect;
                EXPECT_NEAR(lo.x + hi.x, 0.0f, 0.01f);
                EXPECT_NEAR(lo.y + hi.y, 0.0f, 0.01f);
            }
        }
    }
}

// `rigview render` frames the subject tightly: the non-background pixels span 80-92% of the
// image's height or width (whichever binds), on the demo and on public models, landscape and
// portrait.
TEST(Framing, RenderFillsMostOfTheFrame) {
    const std::string dir = testing::tempDir();
    const std::vector<std::string> models = {std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf",
                                             "/usr/share/assimp/models/X/Testwuson.X",
                                             "/usr/share/assimp/models/FBX/huesitos.fbx",
                                             "/usr/share/assimp/models/BVH/01_01.bvh"};
    for (const std::string& model : models) {
        for (const char* size : {"320x240", "160x320"}) {
            const std::string png = dir + "/frame.png";
            const testing::RunResult r = testing::run(RIGVIEW_EXE, {"render", model, "-o", png, "--size", size});
            if (r.exitCode == 6 && !std::getenv("RIGVIEW_GL_TEST")) GTEST_SKIP() << "no OpenGL context here: " << r.err;
            ASSERT_EQ(r.exitCode, 0) << model << ": " << r.err;
            int w = 0, h = 0, n = 0;
            unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
            ASSERT_NE(px, nullptr) << png;
            const unsigned char* bg = px;  // a corner is background
            int x0 = w, x1 = -1, y0 = h, y1 = -1;
            for (int y = 0; y < h; ++y) {
                for (int x = 0; x < w; ++x) {
                    const unsigned char* p = px + (static_cast<size_t>(y) * w + x) * 3;
                    if (std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) <= 24) continue;
                    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
                }
            }
            stbi_image_free(px);
            ASSERT_GE(x1, x0) << model << ": nothing drawn";
            const float fw = static_cast<float>(x1 - x0 + 1) / w, fh = static_cast<float>(y1 - y0 + 1) / h;
            const float fill = std::max(fw, fh);
            EXPECT_GE(fill, 0.80f) << model << " " << size << ": " << fw << " x " << fh;
            EXPECT_LE(fill, 0.92f) << model << " " << size << ": " << fw << " x " << fh;
            // Centred: the margins on the binding axis differ by a few pixels at most.
            if (fh >= fw) {
                EXPECT_NEAR(y0, h - 1 - y1, 0.03f * h) << model << " " << size;
            } else {
                EXPECT_NEAR(x0, w - 1 - x1, 0.03f * w) << model << " " << size;
            }
        }
    }
}

// Key navigation (Up / Down): the keys of a joint are the union of its T / R / S channels;
// with no joint, every joint's. Next / previous from a time, standing on a key moves on.
TEST(TimelineKeys, NextAndPreviousKeyAcrossChannelsAndJoints) {
    auto model = std::make_shared<Model>();
    for (int i = 0; i < 3; ++i) {
        model->skeleton.names.push_back("j" + std::to_string(i));
        model->skeleton.parent.push_back(i - 1);
        model->skeleton.bindLocalSqt.emplace_back();
        model->skeleton.bindLocal.emplace_back(1.0f);
    }
    Clip c;
    c.name = "c";
    c.trackOfNode = {0, -1, 1};
    auto channel = [&](std::vector<float> t) {
        Channel ch;
        ch.times = c.addTimes(t.data(), static_cast<uint32_t>(t.size()));
        ch.count = static_cast<uint32_t>(t.size());
        return ch;
    };
    Track a;  // joint 0: translation at 0, 1, 2; rotation at 0.5, 2; scale at 3
    a.node = 0;
    a.translation = channel({0.0f, 1.0f, 2.0f});
    a.rotation = channel({0.5f, 2.0f});
    a.scale = channel({3.0f});
    Track b;  // joint 2: rotation at 0.25, 2.5
    b.node = 2;
    b.rotation = channel({0.25f, 2.5f});
    c.tracks = {a, b};
    c.duration = 3.0f;
    model->clips.push_back(c);
    ViewerState s;
    s.model = model;
    s.timeline.clip = 0;
    refreshKeyTimes(s);
    ASSERT_EQ(s.keyTimes.perNode.size(), 3u);
    EXPECT_EQ(s.keyTimes.perNode[0], (std::vector<float>{0.0f, 0.5f, 1.0f, 2.0f, 3.0f}));
    EXPECT_TRUE(s.keyTimes.perNode[1].empty());
    EXPECT_EQ(s.keyTimes.perNode[2], (std::vector<float>{0.25f, 2.5f}));
    EXPECT_EQ(s.keyTimes.all, (std::vector<float>{0.0f, 0.25f, 0.5f, 1.0f, 2.0f, 2.5f, 3.0f}));
    const std::vector<float>& j0 = s.keyTimes.perNode[0];
    EXPECT_DOUBLE_EQ(adjacentKey(j0, 0.0, 1), 0.5);   // standing on a key: the next one
    EXPECT_DOUBLE_EQ(adjacentKey(j0, 0.7, 1), 1.0);
    EXPECT_DOUBLE_EQ(adjacentKey(j0, 2.0, -1), 1.0);
    EXPECT_DOUBLE_EQ(adjacentKey(j0, 1.5, -1), 1.0);
    EXPECT_TRUE(std::isnan(adjacentKey(j0, 3.0, 1)));  // none after the last
    EXPECT_TRUE(std::isnan(adjacentKey(j0, 0.0, -1)));
    EXPECT_DOUBLE_EQ(adjacentKey(s.keyTimes.all, 0.0, 1), 0.25);
    EXPECT_DOUBLE_EQ(adjacentKey(s.keyTimes.all, 2.2, 1), 2.5);
    // Cached: the same clip is not rebuilt; another clip is.
    const float* data = s.keyTimes.all.data();
    refreshKeyTimes(s);
    EXPECT_EQ(s.keyTimes.all.data(), data);
    s.timeline.clip = -1;
    refreshKeyTimes(s);
    EXPECT_TRUE(s.keyTimes.all.empty());
}

// The colours each colour view paints (colorViewColors, what the viewer uploads and draws
// without the material) are the legend's: a swatch's exact colour, or a colour on the
// legend's gradient between its two ends. A mesh of the demo with a vertex of each kind.
TEST(Legend, EachViewPaintsOnlyTheColoursItsLegendShows) {
    auto model = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    ASSERT_TRUE(model.ok()) << model.error().message;
    const Mesh* skinned = nullptr;
    for (const Mesh& m : model.value().meshes) {
        if (m.skinned && m.vertexCount() >= 8) skinned = &m;
    }
    ASSERT_NE(skinned, nullptr);
    Mesh mesh = *skinned;
    const size_t nv = mesh.vertexCount();
    mesh.originalInfluenceCount.resize(nv);
    mesh.originalWeightSum.resize(nv);
    const std::vector<uint8_t> counts = influenceCounts(*skinned);
    for (size_t v = 0; v < nv; ++v) {
        mesh.originalInfluenceCount[v] = counts[v];
        mesh.originalWeightSum[v] = 1.0f;
    }
    mesh.originalInfluenceCount[0] = 0;  // unweighted
    mesh.originalInfluenceCount[1] = 6;  // more than 4
    mesh.originalWeightSum[2] = 0.7f;    // off by 0.3
    mesh.originalWeightSum[3] = 3.0f;    // off by more than 1
    // A joint that moves some of the mesh's vertices and not others.
    int joint = -1;
    for (uint32_t j : mesh.skin.joints) {
        const std::vector<float> w = jointWeights(mesh, static_cast<int32_t>(j));
        const bool some = std::any_of(w.begin(), w.end(), [](float x) { return x > 0.0f; });
        const bool notAll = std::any_of(w.begin(), w.end(), [](float x) { return x == 0.0f; });
        if (some && notAll) joint = static_cast<int>(j);
    }
    ASSERT_GE(joint, 0);
    std::vector<float> truncation(nv, 0.0f);
    for (size_t v = 0; v < nv; v += 3) truncation[v] = 0.004f * static_cast<float>(v % 7);
    const float truncationMax = 0.024f;
    auto distance = [](const glm::vec4& a, const glm::vec4& b) { return glm::length(glm::vec3(a) - glm::vec3(b)); };
    // The heat ramp's parameter nearest to a colour.
    auto rampAt = [&](const glm::vec4& c) {
        float best = 0.0f, bestD = 1e9f;
        for (int i = 0; i <= 4000; ++i) {
            const float t = i / 4000.0f, d = distance(heatColor(t), c);
            if (d < bestD) bestD = d, best = t;
        }
        return best;
    };
    for (ColorView view : {ColorView::JointWeight, ColorView::InfluenceCount, ColorView::WeightSum, ColorView::Unweighted,
                           ColorView::TruncationError}) {
        SCOPED_TRACE(static_cast<int>(view));
        std::vector<uint32_t> flagged;
        const std::vector<glm::vec4> colors = colorViewColors(view, mesh, joint, truncation, truncationMax, flagged);
        ASSERT_EQ(colors.size(), nv);
        LegendInputs in;
        in.jointName = model.value().skeleton.names[joint];
        in.truncationMax = truncationMax;
        const Legend l = legendFor(view, in);
        std::vector<LegendEntry> swatches = l.gradient ? l.swatches : l.entries;
        size_t onRamp = 0;
        std::set<size_t> swatchUsed;
        for (size_t v = 0; v < nv; ++v) {
            bool found = false;
            for (size_t k = 0; k < swatches.size(); ++k) {
                if (colors[v] == swatches[k].color) found = true, swatchUsed.insert(k);
            }
            if (!found && l.gradient) {
                const float lo = rampAt(l.entries.front().color), hi = rampAt(l.entries.back().color);
                const float t = rampAt(colors[v]);
                found = t >= lo - 1e-3f && t <= hi + 1e-3f && distance(heatColor(t), colors[v]) < 2e-3f;
                onRamp += found;
            }
            EXPECT_TRUE(found) << "vertex " << v << " painted (" << colors[v].r << ", " << colors[v].g << ", " << colors[v].b
                               << "), not in the legend";
        }
        if (l.gradient) EXPECT_GT(onRamp, 0u);
        // The flagged vertices are those the note counts: 0 or more than 4, off-sum, unweighted.
        if (view == ColorView::InfluenceCount) EXPECT_EQ(flagged, (std::vector<uint32_t>{0, 1}));
        if (view == ColorView::WeightSum) EXPECT_EQ(flagged, (std::vector<uint32_t>{2, 3}));
        if (view == ColorView::Unweighted) {
            EXPECT_EQ(flagged, (std::vector<uint32_t>{0}));
            EXPECT_EQ(swatchUsed.size(), 2u) << "both the unweighted and the weighted swatch are painted";
        }
    }
}

// The onion skin's ghosts, drawn in their tint alone, are told apart from the demo's own
// colours: each tint is far from every material colour of the demo.
TEST(Legend, OnionSkinColoursAreNotTheDemosMaterialColours) {
    auto model = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    ASSERT_TRUE(model.ok()) << model.error().message;
    ASSERT_GE(model.value().materials.size(), 2u);
    for (int k : {-1, 1}) {
        const glm::vec3 tint(onionTint(k, 2));
        for (const Material& m : model.value().materials) {
            EXPECT_GT(glm::length(tint - glm::vec3(m.baseColor)), 0.45f) << m.name << " ghost " << k;
        }
    }
    EXPECT_GT(glm::length(glm::vec3(onionTint(-1, 2)) - glm::vec3(onionTint(1, 2))), 0.8f);
}

// Up axis: the SMD sample (Z up, the format does not say) is guessed Z up from its bind pose;
// the demo (Y up) and a Y-up quadruped standing on the ground, longer along Z than tall, are not.
TEST(UpAxis, TheSmdSampleIsGuessedZUpAndYUpModelsAreNot) {
    auto smd = importModel("/usr/share/assimp/models/SMD/WusonSMD.smd");
    ASSERT_TRUE(smd.ok()) << smd.error().message;
    EXPECT_TRUE(guessZUp(animatedBounds(smd.value(), -1, 1)));
    auto demo = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    EXPECT_FALSE(guessZUp(animatedBounds(demo.value(), -1, 1)));
    Bounds horse;
    horse.add({-0.3f, 0.0f, -1.2f});
    horse.add({0.3f, 1.6f, 1.2f});
    EXPECT_FALSE(guessZUp(horse));
    Bounds lying;  // a Z-up character centred on the origin
    lying.add({-0.4f, -0.2f, -0.9f});
    lying.add({0.4f, 0.2f, 0.9f});
    EXPECT_TRUE(guessZUp(lying));
}

// Up axis by the format's rule: glTF is +Y whatever its bind pose looks like (ClearCoatTest, a
// wall of spheres wider than tall and standing on nothing, was guessed Z up); COLLADA is +Y after
// import whatever its <up_axis> said; FBX says it in its GlobalSettings (a copy of box.fbx with
// UpAxis 2 is Z up, the original Y); formats that say nothing (SMD) are still guessed.
TEST(UpAxis, FormatsThatDefineTheirUpAxisAreNotGuessed) {
    const std::string models = "/usr/share/assimp/models/";
    const std::string clearCoat = models + "glTF2/ClearCoat-glTF/ClearCoatTest.gltf";
    auto gltf = importModel(clearCoat);
    ASSERT_TRUE(gltf.ok()) << gltf.error().message;
    std::string why;
    EXPECT_TRUE(guessZUp(animatedBounds(gltf.value(), -1, 1))) << "the guess alone lays it down";
    EXPECT_FALSE(chooseZUp(clearCoat, animatedBounds(gltf.value(), -1, 1), &why));
    EXPECT_NE(why.find("glTF"), std::string::npos) << why;
    EXPECT_EQ(declaredUpAxis(models + "glTF2/BoxAnimated.glb", "").axis, DeclaredUp::Axis::Y);

    // Collada/regr01.dae says Z_UP: import turns it to +Y (its height, along the file's Z, is
    // along Y after import; a copy saying Y_UP keeps it along Z).
    const std::string regr = models + "Collada/regr01.dae";
    const DeclaredUp colladaUp = declaredUpAxis(regr);
    EXPECT_EQ(colladaUp.axis, DeclaredUp::Axis::Y);
    EXPECT_NE(colladaUp.source.find("Z_UP"), std::string::npos) << colladaUp.source;
    std::ifstream daeIn(regr, std::ios::binary);
    std::string dae((std::istreambuf_iterator<char>(daeIn)), std::istreambuf_iterator<char>());
    const size_t upAt = dae.find("<up_axis>Z_UP");
    ASSERT_NE(upAt, std::string::npos);
    dae.replace(upAt, 13, "<up_axis>Y_UP");
    const fs::path yUpDae = fs::temp_directory_path() / ("rigview-yup-" + std::to_string(::getpid()) + ".dae");
    std::ofstream(yUpDae, std::ios::binary) << dae;
    EXPECT_EQ(declaredUpAxis(yUpDae.string()).source, "COLLADA <up_axis> Y_UP");
    auto zModel = importModel(regr);
    auto yModel = importModel(yUpDae.string());
    fs::remove(yUpDae);
    ASSERT_TRUE(zModel.ok()) << zModel.error().message;
    ASSERT_TRUE(yModel.ok()) << yModel.error().message;
    const Bounds zBox = animatedBounds(zModel.value(), -1, 1), yBox = animatedBounds(yModel.value(), -1, 1);
    const float height = yBox.max.z - yBox.min.z;
    EXPECT_GT(height, 1.5f * (yBox.max.y - yBox.min.y));
    EXPECT_NEAR(zBox.max.y - zBox.min.y, height, 1e-3f * height) << "not turned to +Y at import";

    const std::string box = models + "FBX/box.fbx";
    EXPECT_EQ(declaredUpAxis(box).axis, DeclaredUp::Axis::Y);
    std::ifstream in(box, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string key = std::string("S\x06\0\0\0UpAxis", 11);
    const size_t at = bytes.find(key);
    ASSERT_NE(at, std::string::npos);
    // Past "int", "Integer" and "" to the I record's value.
    size_t p = at + key.size();
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(bytes[p], 'S');
        p += 5 + static_cast<unsigned char>(bytes[p + 1]);
    }
    ASSERT_EQ(bytes[p], 'I');
    EXPECT_EQ(bytes[p + 1], 1);
    bytes[p + 1] = 2;
    const fs::path zUpFbx = fs::temp_directory_path() / ("rigview-zup-" + std::to_string(::getpid()) + ".fbx");
    std::ofstream(zUpFbx, std::ios::binary) << bytes;
    const DeclaredUp fbxUp = declaredUpAxis(zUpFbx.string());
    EXPECT_EQ(fbxUp.axis, DeclaredUp::Axis::Z);
    EXPECT_EQ(fbxUp.source, "FBX UpAxis Z");
    Bounds yTall;  // a bind pose the guess would call Y up
    yTall.add({-0.3f, 0.0f, -0.2f});
    yTall.add({0.3f, 1.8f, 0.2f});
    EXPECT_TRUE(chooseZUp(zUpFbx.string(), yTall));
    fs::remove(zUpFbx);

    // ASCII FBX, and an up axis the view cannot stand on (-Y) left to the guess.
    int value = 0;
    EXPECT_TRUE(fbxIntProperty("\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",-1\n\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",2\n",
                               "UpAxis", value));
    EXPECT_EQ(value, 2);
    EXPECT_EQ(declaredUpAxis("a.fbx", "P: \"UpAxis\", \"int\", \"Integer\", \"\",1\nP: \"UpAxisSign\", \"int\", \"Integer\", \"\",-1\n").axis,
              DeclaredUp::Axis::None);
    EXPECT_EQ(declaredUpAxis("a.fbx", "").axis, DeclaredUp::Axis::None);

    const std::string smd = models + "SMD/WusonSMD.smd";
    EXPECT_EQ(declaredUpAxis(smd).axis, DeclaredUp::Axis::None);
    auto smdModel = importModel(smd);
    ASSERT_TRUE(smdModel.ok()) << smdModel.error().message;
    EXPECT_TRUE(chooseZUp(smd, animatedBounds(smdModel.value(), -1, 1), &why));
    EXPECT_NE(why.find("guessed"), std::string::npos) << why;
}

// The first bytes of a file the viewer is asked to open: what can be no format rigview reads is
// refused (wrong magic, zeros, binary in a text format, empty); every real file of the
// assimp test models with an extension the check knows passes (broken ones are left to import).
TEST(ModelSniff, WrongMagicZerosAndBinaryTextAreRefusedAndRealFilesPass) {
    using namespace std::string_literals;
    EXPECT_EQ(sniffModelHead("a.glb", std::string(64, '\0'), 1u << 30), "its first 64 bytes are all zero: no format rigview reads");
    EXPECT_EQ(sniffModelHead("a.glb", std::string(64, '\0'), 64), "all zero bytes: no format rigview reads");
    EXPECT_EQ(sniffModelHead("a.fbx", "", 0), "empty file: no format rigview reads");
    EXPECT_NE(sniffModelHead("a.GLB", "PK\x03\x04zip", 100).find("not a binary glTF file"), std::string::npos);
    EXPECT_EQ(sniffModelHead("a.glb", "glTF\x02\0\0\0"s, 100), "");
    EXPECT_EQ(sniffModelHead("a.gltf", "\xEF\xBB\xBF  {\"asset\"", 100), "");
    EXPECT_NE(sniffModelHead("a.gltf", "<html>", 100).find("not a glTF file"), std::string::npos);
    EXPECT_NE(sniffModelHead("a.fbx", "\x01\x02\0\0binary"s, 100).find("not an FBX file"), std::string::npos);
    EXPECT_EQ(sniffModelHead("a.fbx", "; FBX 7.4.0 project file", 100), "");
    EXPECT_NE(sniffModelHead("a.bvh", "MOTION", 100).find("HIERARCHY"), std::string::npos);
    EXPECT_NE(sniffModelHead("a.obj", "v 1 2 3\n\0\0"s, 100).find("a zero byte at offset 8"), std::string::npos);
    EXPECT_EQ(sniffModelHead("a.unknown", "anything", 100), "");
    int checked = 0;
    for (const auto& e : fs::recursive_directory_iterator("/usr/share/assimp/models")) {
        const std::string p = e.path().string();
        if (!e.is_regular_file() || p.find("/invalid/") != std::string::npos) continue;
        std::string ext = e.path().extension().string();
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        static const std::set<std::string> known = {".glb", ".gltf", ".fbx", ".dae", ".bvh", ".iqm", ".x", ".b3d", ".3ds", ".obj", ".smd", ".md5mesh", ".ply", ".ms3d", ".md2"};
        if (!known.count(ext)) continue;
        const std::string problem = sniffModelFile(p);
        // Files named for a format they are not (fuzzer finds, deliberately broken tests) may be refused.
        if (!problem.empty() && (p.find("/ParsingFiles/") != std::string::npos || p.find("fuzz") != std::string::npos)) continue;
        EXPECT_EQ(problem, "") << p;
        ++checked;
    }
    EXPECT_GT(checked, 100);
}

// Ctrl+Q posts the quit request (File > Quit does too); plain Q is not it.
TEST(Shortcuts, CtrlQQuits) {
    const Shortcut* q = findShortcut(GLFW_KEY_Q, GLFW_MOD_CONTROL, false);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->action, ShortcutAction::Quit);
    ViewerState s;
    applyShortcut(s, *q);
    EXPECT_TRUE(s.requests.quit);
}

// The window's size and place and each file's chosen up axis round-trip through the settings.
TEST(ViewerSettingsFile, WindowPlacementAndUpAxesRoundTrip) {
    ViewerState a;
    a.ui.window = {40, 30, 900, 600};
    a.ui.zUpByFile["/models/a.smd"] = true;
    a.ui.zUpByFile["/models/b.fbx"] = false;
    ViewerState b;
    bool hasCamera = false;
    std::string why;
    ASSERT_TRUE(applySettingsJson(settingsToJson(a), b, hasCamera, why)) << why;
    EXPECT_EQ(b.ui.window.x, 40);
    EXPECT_EQ(b.ui.window.y, 30);
    EXPECT_EQ(b.ui.window.width, 900);
    EXPECT_EQ(b.ui.window.height, 600);
    EXPECT_EQ(b.ui.zUpByFile, a.ui.zUpByFile);
    // An up axis that is neither is skipped; a window of the wrong type makes the file ignored.
    ViewerState c;
    ASSERT_TRUE(applySettingsJson(R"({"version": 1, "upAxis": {"/m.smd": "x", "/n.smd": "z"}})", c, hasCamera, why)) << why;
    EXPECT_EQ(c.ui.zUpByFile.size(), 1u);
    EXPECT_FALSE(applySettingsJson(R"({"version": 1, "window": {"width": "wide"}})", c, hasCamera, why));
    // Nested deeper than 64 levels: ignored before parsing, saying why.
    EXPECT_FALSE(applySettingsJson("{\"version\": 1, \"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}", c,
                                   hasCamera, why));
    EXPECT_EQ(why, "nested more than 64 deep");
}

// `rigview render --up auto` stands the SMD sample (a bull, Z up) as the viewer does: seen from
// the side, wider than tall; the default (Y up) shows it from above, taller than wide.
TEST(Framing, RenderUpAutoStandsAZUpModel) {
    const std::string dir = testing::tempDir();
    auto extent = [&](const char* up, float& fw, float& fh) {
        const std::string png = dir + "/up.png";
        const testing::RunResult r = testing::run(
            RIGVIEW_EXE, {"render", "/usr/share/assimp/models/SMD/WusonSMD.smd", "-o", png, "--size", "320x320", "--up", up});
        if (r.exitCode == 6 && !std::getenv("RIGVIEW_GL_TEST")) GTEST_SKIP() << "no OpenGL context here: " << r.err;
        ASSERT_EQ(r.exitCode, 0) << r.err;
        int w = 0, h = 0, n = 0;
        unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
        ASSERT_NE(px, nullptr) << png;
        int x0 = w, x1 = -1, y0 = h, y1 = -1;
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                const unsigned char* p = px + (static_cast<size_t>(y) * w + x) * 3;
                if (std::abs(p[0] - px[0]) + std::abs(p[1] - px[1]) + std::abs(p[2] - px[2]) <= 24) continue;
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
        }
        stbi_image_free(px);
        ASSERT_GE(x1, x0) << "nothing drawn";
        fw = static_cast<float>(x1 - x0 + 1) / w;
        fh = static_cast<float>(y1 - y0 + 1) / h;
    };
    float fw = 0.0f, fh = 0.0f;
    extent("auto", fw, fh);
    EXPECT_GT(fw, fh) << "--up auto: " << fw << " x " << fh;
    extent("y", fw, fh);
    EXPECT_GT(fh, fw) << "--up y: " << fw << " x " << fh;
}

}  // namespace
}  // namespace rig
