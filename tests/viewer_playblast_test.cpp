// File > Playblast... in the real viewer window (run under Xvfb by CTest), driven through the
// dialog's widgets: the fields filled from what plays, Render writing an MP4 of the asked
// frames while the viewer's own playback stands still (paused, its time unchanged), Cancel
// leaving no file, and bad outputs reported in the dialog.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "app/viewer.h"
#include "support/run.h"
#include "support/viewer_driver.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

const std::string kSimpleSkin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";

class ViewerPlayblastTest : public ::testing::Test, protected testing::ViewerDriver {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("rigview-playblast-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir / "config");
        configHome = std::make_unique<testing::ScopedEnv>("XDG_CONFIG_HOME", (dir / "config").c_str());
        ViewerConfig cfg;
        cfg.model = kSimpleSkin;
        cfg.remember = false;
        cfg.width = 1280;
        cfg.height = 800;
        cfg.screenshotDir = dir.string();
        start(cfg);
    }
    void TearDown() override {
        viewer.reset();
        configHome.reset();
        fs::remove_all(dir);
    }
    // File > Playblast... (the menu item's two assignments), then the dialog drawn.
    void openDialog() {
        viewer->state().playblast.prefill = true;
        viewer->state().playblast.open = true;
        frames(2);
    }
    // Frames until the render ends (at most `limit`).
    void untilDone(int limit = 400) {
        for (int i = 0; i < limit && viewer->state().playblast.running; ++i) frames(1);
    }
    fs::path dir;
    std::unique_ptr<testing::ScopedEnv> configHome;
};

TEST_F(ViewerPlayblastTest, RendersTheAskedFramesAndLeavesPlaybackAlone) {
    ViewerState& s = viewer->state();
    s.requests.togglePlay = true;  // pause the viewer's playback
    frames(2);
    ASSERT_FALSE(s.timeline.playing);
    const double time = s.timeline.time;
    openDialog();
    PlayblastState& p = s.playblast;
    EXPECT_EQ(p.clip, 0);
    EXPECT_FLOAT_EQ(p.from, 0.0f);
    EXPECT_NEAR(p.to, 5.5f, 1e-4f);
    EXPECT_GT(p.fps, 0.0f);
    EXPECT_EQ(p.output, (dir / "simple_skin-clip0.mp4").string());
    ASSERT_TRUE(has("playblast:render"));
    p.from = 1.0f, p.to = 2.0f, p.fps = 10.0f, p.width = 160, p.height = 120;
    click("playblast:render");
    EXPECT_TRUE(p.running || !p.result.empty());
    untilDone();
    ASSERT_FALSE(p.running);
    EXPECT_FALSE(p.failed) << p.result;
    EXPECT_EQ(p.result.rfind("wrote " + p.output, 0), 0u) << p.result;
    EXPECT_EQ(p.done, 10u);
    // The viewer's playback did not move while the playblast ran.
    EXPECT_FALSE(s.timeline.playing);
    EXPECT_DOUBLE_EQ(s.timeline.time, time);
    testing::RunResult probe = testing::run("/usr/bin/ffprobe", {"-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                 "-show_entries", "stream=nb_read_frames,width,height", "-of", "json",
                                                                 p.output});
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    const nlohmann::json j = nlohmann::json::parse(probe.out);
    EXPECT_EQ(j["streams"][0]["nb_read_frames"], "10");
    EXPECT_EQ(j["streams"][0]["width"], 160);
    EXPECT_EQ(j["streams"][0]["height"], 120);
    // The frames show the model: many pixels of the first unlike its corner.
    testing::RunResult first = testing::run("/usr/bin/ffmpeg", {"-v", "error", "-i", p.output, "-frames:v", "1", "-f", "rawvideo",
                                                                "-pix_fmt", "rgb24", "-"});
    ASSERT_EQ(first.out.size(), 160u * 120u * 3u) << first.err;
    int differ = 0;
    for (size_t i = 0; i < first.out.size(); i += 3) {
        int d = 0;
        for (size_t c = 0; c < 3; ++c) d += std::abs(static_cast<unsigned char>(first.out[i + c]) - static_cast<unsigned char>(first.out[c]));
        differ += d > 40;
    }
    EXPECT_GT(differ, 500);
    if (const char* shots = std::getenv("RIGVIEW_SMOKE_SHOTS")) fs::copy_file(p.output, fs::path(shots) / "playblast.mp4", fs::copy_options::overwrite_existing);
}

// A model opened while a playblast runs stops it (its frames would come from another model);
// the video is not written.
TEST_F(ViewerPlayblastTest, AModelOpenedMeanwhileStopsIt) {
    openDialog();
    PlayblastState& p = viewer->state().playblast;
    p.output = (dir / "stopped.mp4").string();
    p.from = 0.0f, p.to = 5.5f, p.fps = 240.0f, p.width = 320, p.height = 240;
    click("playblast:render");
    ASSERT_TRUE(p.running) << p.result;
    drop(kSimpleSkin);
    viewer->waitForLoad();
    frames(2);
    EXPECT_FALSE(p.running);
    EXPECT_TRUE(p.failed);
    EXPECT_NE(p.result.find("changed"), std::string::npos) << p.result;
    EXPECT_FALSE(fs::exists(dir / "stopped.mp4"));
}

// "Frame the whole range": the camera at the view's angles, framed on the model over the range
// as `render` frames it: the frames together span about 85% of the image.
TEST_F(ViewerPlayblastTest, FramedOnTheRange) {
    openDialog();
    PlayblastState& p = viewer->state().playblast;
    p.output = (dir / "framed.mp4").string();
    p.from = 0.0f, p.to = 5.5f, p.fps = 2.0f, p.width = 160, p.height = 120;
    click("playblast:frame");
    ASSERT_TRUE(p.frameRange);
    click("playblast:render");
    untilDone();
    ASSERT_FALSE(p.failed) << p.result;
    testing::RunResult all = testing::run("/usr/bin/ffmpeg", {"-v", "error", "-i", p.output, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"});
    const size_t frame = 160u * 120u * 3u;
    ASSERT_EQ(all.out.size(), 11u * frame) << all.err;
    int x0 = 160, x1 = -1, y0 = 120, y1 = -1;
    for (size_t f = 0; f < 11; ++f) {
        const unsigned char* px = reinterpret_cast<const unsigned char*>(all.out.data()) + f * frame;
        for (int y = 0; y < 120; ++y) {
            for (int x = 0; x < 160; ++x) {
                const unsigned char* c = px + (static_cast<size_t>(y) * 160 + x) * 3;
                if (c[0] < 200 || c[1] < 200 || c[2] < 200) continue;  // the white model on the dark background
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
        }
    }
    const double fill = std::max((x1 - x0 + 1) / 160.0, (y1 - y0 + 1) / 120.0);
    std::printf("framed on the range: the frames together span %.0f%% of the image\n", 100.0 * fill);
    EXPECT_GT(fill, 0.75);
    EXPECT_LT(fill, 0.95);
}

TEST_F(ViewerPlayblastTest, CancelLeavesNoFileAndBadOutputsAreReported) {
    openDialog();
    PlayblastState& p = viewer->state().playblast;
    p.output = (dir / "long.mp4").string();
    p.from = 0.0f, p.to = 5.5f, p.fps = 240.0f, p.width = 320, p.height = 240;  // 1,320 frames: still running after the clicks
    click("playblast:render");
    ASSERT_TRUE(p.running) << p.result;
    frames(1);
    ASSERT_TRUE(has("playblast:cancel"));
    shot("playblast-running");  // with RIGVIEW_SMOKE_SHOTS=DIR: the dialog mid-render, to look at
    click("playblast:cancel");
    EXPECT_FALSE(p.running);
    EXPECT_TRUE(p.failed);
    EXPECT_NE(p.result.find("cancelled"), std::string::npos) << p.result;
    frames(1);
    for (const auto& e : fs::directory_iterator(dir)) {
        EXPECT_EQ(e.path().extension(), "") << "left behind: " << e.path();  // only the config folder
    }
    p.output = (dir / "clip.avi").string();
    click("playblast:render");
    EXPECT_FALSE(p.running);
    EXPECT_TRUE(p.failed);
    EXPECT_NE(p.result.find("clip.avi"), std::string::npos) << p.result;
    p.output = (dir / "clip.mp4").string();
    p.to = 9.0f;  // past the clip's end
    click("playblast:render");
    EXPECT_TRUE(p.failed);
    EXPECT_NE(p.result.find("leaves the clip"), std::string::npos) << p.result;
    EXPECT_FALSE(fs::exists(dir / "clip.mp4"));
}

}  // namespace
}  // namespace rig
