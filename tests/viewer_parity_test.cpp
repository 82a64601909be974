// GPU and headless draw the same picture (issue 27): the viewer in a real window (under Xvfb in
// CTest: GLX on llvmpipe) and `rigview render` (an EGL offscreen target), given the same model,
// clip time, camera and view options, give the same image of the viewport. The viewer shows
// the model in the viewport between its panels (OrbitCamera::viewRect: the projection squeezed
// into that rectangle), so `render` is asked for an image of the viewport's size and compared
// with that rectangle of the window, by tools/image_compare.py, with a tight bar.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>

#include <glm/glm.hpp>

#include "app/viewer.h"
#include "render/offscreen.h"
#include "render/view_options.h"
#include "support/run.h"

namespace rig {
namespace {

const std::string kCharacter = RIGVIEW_SOURCE_DIR "/tests/data/character/textured_character.gltf";

// The camera `render --camera EX,EY,EZ,TX,TY,TZ,FOV` takes, as the viewer's orbit camera.
OrbitCamera orbitFrom(glm::vec3 eye, glm::vec3 target, float fovDeg) {
    OrbitCamera c;
    const glm::vec3 o = eye - target;
    c.target = target;
    c.distance = glm::length(o);
    c.azimuthDeg = glm::degrees(std::atan2(o.x, o.z));
    c.elevationDeg = glm::degrees(std::asin(o.y / c.distance));
    c.fovYDeg = fovDeg;
    c.zUp = false;
    return c;
}

TEST(ViewerParity, TheViewerShowsWhatRenderDraws) {
    ViewerConfig cfg;
    cfg.model = kCharacter;
    cfg.width = 1280;
    cfg.height = 800;
    cfg.remember = false;
    cfg.watchFile = false;
    auto created = Viewer::create(cfg);
    ASSERT_TRUE(created.ok()) << created.error().message;
    Viewer& v = **created;
    v.waitForLoad();
    ViewerState& s = v.state();
    ASSERT_TRUE(s.model) << s.error;

    // What `render` draws by default (no grid, no bones: its flags are off), the same background.
    const glm::vec3 eye(0.6f, 1.15f, 3.3f), target(0.0f, 0.98f, 0.0f);
    const float fov = 40.0f, time = 0.5f;
    s.requests.selectClip = 0;
    v.frame(0.0);
    s.requests.togglePlay = true;  // paused: captureFrame's frame (wall-clock dt) moves nothing
    v.frame(0.0);
    s.requests.seek = time;
    s.view = renderViewDefaults();
    s.view.jointNames = JointNameMode::None;
    s.view.background = glm::vec4(102.0f / 255.0f, 102.0f / 255.0f, 102.0f / 255.0f, 1.0f);
    for (int i = 0; i < 3; ++i) v.frame(0.0);
    const glm::vec4 rect = s.camera.viewRect;
    s.camera = orbitFrom(eye, target, fov);
    s.camera.viewRect = rect;
    s.camera.nearPlane = 1.0f;
    s.camera.farPlane = 10.0f;
    int w = 0, h = 0;
    std::vector<uint8_t> px = v.captureFrame(w, h);
    ASSERT_EQ(w, 1280);
    ASSERT_TRUE(s.error.empty() && s.warning.empty()) << "a notice over the viewport: " << s.error << s.warning;
    ASSERT_NEAR(s.timeline.time, time, 1e-6);

    // The viewport's rectangle, on whole pixels (the layout places it so).
    const LayoutRect& c = s.ui.layout.rects.centre;
    ASSERT_EQ(c.x, std::floor(c.x));
    ASSERT_EQ(c.y, std::floor(c.y));
    ASSERT_EQ(c.w, std::floor(c.w));
    ASSERT_EQ(c.h, std::floor(c.h));
    const int cx = static_cast<int>(c.x), cy = static_cast<int>(c.y), cw = static_cast<int>(c.w), ch = static_cast<int>(c.h);
    ASSERT_GT(cw, 300);
    ASSERT_GT(ch, 300);

    const std::string dir = RIGVIEW_BINARY_DIR "/viewer_parity";
    std::filesystem::create_directories(dir);
    const std::string window = dir + "/viewer.png", headless = dir + "/render.png";
    std::string error;
    ASSERT_TRUE(writePng(window, w, h, px, &error)) << error;

    char camera[160], size[32];
    std::snprintf(camera, sizeof camera, "%g,%g,%g,%g,%g,%g,%g", eye.x, eye.y, eye.z, target.x, target.y, target.z, fov);
    std::snprintf(size, sizeof size, "%dx%d", cw, ch);
    // The scene's samples as the viewer's default anti-aliasing chose them (auto: one on a
    // software renderer, 4 on a GPU): render with the same.
    const std::string samples = std::to_string(s.stats.sceneSamples);
    const auto r = testing::run(RIGVIEW_EXE, {"render", kCharacter, "-o", headless, "--camera", camera, "--size", size,
                                              "--background", "102,102,102", "--clip", "0", "--time", "0.5", "--msaa", samples.c_str()});
    ASSERT_EQ(r.exitCode, 0) << r.err;

    // The window's viewport against the whole render.
    char crop[64];
    std::snprintf(crop, sizeof crop, "%d,%d,%d,%d", cx, cy, cw, ch);
    const std::string cropped = dir + "/viewer_viewport.png";
    std::vector<uint8_t> view(static_cast<size_t>(cw) * ch * 4);
    for (int y = 0; y < ch; ++y) {
        std::copy_n(px.data() + (static_cast<size_t>(cy + y) * w + cx) * 4, static_cast<size_t>(cw) * 4,
                    view.data() + static_cast<size_t>(y) * cw * 4);
    }
    ASSERT_TRUE(writePng(cropped, cw, ch, view, &error)) << error;
    // The character is on screen (two empty frames would agree too): over 5% of the viewport
    // is not the background.
    size_t covered = 0;
    for (size_t i = 0; i < view.size(); i += 4) {
        const int d = std::max({std::abs(view[i] - 102), std::abs(view[i + 1] - 102), std::abs(view[i + 2] - 102)});
        covered += d > 8 ? 1 : 0;
    }
    EXPECT_GT(covered, view.size() / 4 / 20) << "the model is not in the viewport";
    const auto cmp = testing::run("/usr/bin/python3", {RIGVIEW_SOURCE_DIR "/tools/image_compare.py", cropped, headless,
                                                       "--diff", dir + "/diff.png", "--min-ssim", "0.995", "--max-mad", "0.004"});
    std::printf("viewer viewport %s against render %s: %s", crop, size, cmp.out.c_str());
    EXPECT_EQ(cmp.exitCode, 0) << cmp.out << cmp.err << " (images in " << dir << ")";
}

}  // namespace
}  // namespace rig
