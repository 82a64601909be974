// Playblasts (app/playblast.h, `rigview render --from --to --fps -o out.mp4|out.gif|out_%04d.png`):
// the range arithmetic and output names without GL; through the binary, each frame of an MP4
// against a one-frame render at its time (PSNR, decoded by ffmpeg), frame counts and durations
// read by ffprobe, a GIF's frames, a PNG sequence's names, the framing of a whole range, and
// bad ranges, names and a missing ffmpeg refused in one line.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/playblast.h"
#include "support/run.h"

namespace rig {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
// One clip of 5.5 s; about 2 units tall at the origin.
const std::string kSimpleSkin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
// The same camera for the video and the one-frame renders it is compared with.
const std::string kCamera = "0,1,5.5,0,1,0,40";

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// RGB pixels of a PNG (alpha dropped).
std::vector<uint8_t> pngRgb(const std::string& path, int& w, int& h) {
    const std::string bytes = slurp(path);
    int n = 0;
    stbi_uc* px = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()),
                                        &w, &h, &n, 3);
    if (!px) return {};
    std::vector<uint8_t> out(px, px + static_cast<size_t>(w) * h * 3);
    stbi_image_free(px);
    return out;
}

// Every frame of a video as RGB24, decoded by ffmpeg (which reads the BT.709 tags).
std::vector<std::vector<uint8_t>> decodeFrames(const std::string& video, int w, int h) {
    RunResult r = run("/usr/bin/ffmpeg", {"-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const size_t frame = static_cast<size_t>(w) * h * 3;
    std::vector<std::vector<uint8_t>> frames;
    for (size_t at = 0; at + frame <= r.out.size(); at += frame) {
        frames.emplace_back(r.out.begin() + static_cast<std::ptrdiff_t>(at), r.out.begin() + static_cast<std::ptrdiff_t>(at + frame));
    }
    return frames;
}

double psnr(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    if (a.size() != b.size() || a.empty()) return 0.0;
    double se = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
        se += d * d;
    }
    const double mse = se / static_cast<double>(a.size());
    return mse == 0.0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

// ffprobe's view of the first video stream: frames counted by decoding, duration, codec.
json probe(const std::string& path) {
    RunResult r = run("/usr/bin/ffprobe", {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                           "stream=codec_name,pix_fmt,width,height,nb_read_frames,color_space:format=duration,format_name",
                                           "-of", "json", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return json::parse(r.out, nullptr, false);
}

std::string timeArg(double t) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", t);
    return buf;
}

bool haveFfmpeg() { return fs::exists("/usr/bin/ffmpeg") && fs::exists("/usr/bin/ffprobe"); }

TEST(PlayblastNames, FormatByExtensionAndSequenceField) {
    BlastFormat f{};
    std::string error;
    EXPECT_TRUE(blastFormatOf("a/out.MP4", f, error));
    EXPECT_EQ(f, BlastFormat::Mp4);
    EXPECT_TRUE(blastFormatOf("out.gif", f, error));
    EXPECT_EQ(f, BlastFormat::Gif);
    EXPECT_TRUE(blastFormatOf("out.png", f, error));
    EXPECT_EQ(f, BlastFormat::Png);
    EXPECT_TRUE(blastFormatOf("shots/out_%04d.png", f, error));
    EXPECT_EQ(f, BlastFormat::PngSequence);
    EXPECT_TRUE(blastFormatOf("%d.png", f, error));
    EXPECT_EQ(f, BlastFormat::PngSequence);
    for (const char* bad : {"out.avi", "out", "out_%s.png", "out_%d_%d.png", "out_%0d.png", "out_%4d.png", "a%d/out.png",
                            "out_%d.mp4", "out_%.png"}) {
        error.clear();
        EXPECT_FALSE(blastFormatOf(bad, f, error)) << bad;
        EXPECT_NE(error.find(bad), std::string::npos) << error;
    }
    EXPECT_EQ(sequenceFileName("shots/out_%04d.png", 7), "shots/out_0007.png");
    EXPECT_EQ(sequenceFileName("%d.png", 12), "12.png");
    EXPECT_EQ(sequenceFileName("f%02d.png", 123), "f123.png");
}

TEST(PlayblastRange, DefaultsCountsAndRefusals) {
    Clip clip;
    clip.name = "walk";
    clip.duration = 2.0f;
    clip.sampleRate = 24.0f;
    FrameRange r;
    std::string error;
    ASSERT_TRUE(resolveRange(clip, {}, BlastFormat::Mp4, r, error)) << error;
    EXPECT_EQ(r.count, 48u);  // the whole clip at its own rate, the end frame left to the loop
    EXPECT_DOUBLE_EQ(r.fps, 24.0);
    RangeRequest q;
    q.from = 0.5, q.to = 1.5, q.fps = 10.0;
    q.fromGiven = q.toGiven = q.fpsGiven = true;
    ASSERT_TRUE(resolveRange(clip, q, BlastFormat::Mp4, r, error)) << error;
    EXPECT_EQ(r.count, 10u);
    EXPECT_DOUBLE_EQ(r.time(3), 0.8);
    q.to = 0.85;  // 3.5 frames: the last one starts before the end
    ASSERT_TRUE(resolveRange(clip, q, BlastFormat::Mp4, r, error));
    EXPECT_EQ(r.count, 4u);
    // The end as `info` prints it (3 decimals) is the clip's end.
    RangeRequest printed;
    printed.to = 2.0004, printed.toGiven = true;
    ASSERT_TRUE(resolveRange(clip, printed, BlastFormat::Mp4, r, error)) << error;
    EXPECT_DOUBLE_EQ(r.to, 2.0);
    // The GIF default divides a fast rate down to 50 or less.
    clip.sampleRate = 60.0f;
    ASSERT_TRUE(resolveRange(clip, {}, BlastFormat::Gif, r, error));
    EXPECT_DOUBLE_EQ(r.fps, 30.0);
    clip.sampleRate = 2000.0f;  // not a video rate
    ASSERT_TRUE(resolveRange(clip, {}, BlastFormat::Mp4, r, error));
    EXPECT_DOUBLE_EQ(r.fps, 30.0);

    auto refused = [&](RangeRequest bad, BlastFormat f = BlastFormat::Mp4) {
        error.clear();
        FrameRange out;
        return !resolveRange(clip, bad, f, out, error) && !error.empty();
    };
    RangeRequest outside = q;
    outside.to = 3.0;
    EXPECT_TRUE(refused(outside));
    EXPECT_NE(error.find("walk"), std::string::npos) << error;
    outside = q;
    outside.from = -0.5;
    EXPECT_TRUE(refused(outside));
    RangeRequest backwards = q;
    backwards.from = 1.0, backwards.to = 0.5;
    EXPECT_TRUE(refused(backwards));
    for (double fps : {0.0, -5.0, 1e-300, 0.05, std::nan(""), HUGE_VAL, 241.0}) {
        RangeRequest badFps = q;
        badFps.fps = fps;
        EXPECT_TRUE(refused(badFps)) << fps;
    }
    RangeRequest gifFast = q;
    gifFast.fps = 60.0;
    EXPECT_TRUE(refused(gifFast, BlastFormat::Gif));
    EXPECT_NE(error.find("GIF"), std::string::npos) << error;
    RangeRequest tooMany = q;
    tooMany.from = 0.0, tooMany.to = 2.0, tooMany.fps = 240.0;
    clip.duration = 1000.0f;
    tooMany.to = 1000.0;
    EXPECT_TRUE(refused(tooMany));
}

// Frame i of the MP4 is `render --time from + i/fps` with the same camera, within H.264's loss;
// ffprobe counts the frames and reads the duration; frames far apart differ (the clip moves).
TEST(PlayblastCli, Mp4FramesAreOneFrameRendersAtTheirTimes) {
    if (!haveFfmpeg()) GTEST_SKIP() << "no ffmpeg";
    const std::string dir = testing::tempDir();
    const std::string mp4 = dir + "/clip.mp4";
    RunResult r = run(kExe, {"render", kSimpleSkin, "-o", mp4, "--size", "160x120", "--from", "0.5", "--to", "1.5",
                             "--fps", "10", "--camera", kCamera});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");  // no progress bar when stderr is not a terminal
    const json p = probe(mp4);
    ASSERT_TRUE(p.is_object());
    const json& s = p["streams"][0];
    EXPECT_EQ(s["codec_name"], "h264");
    EXPECT_EQ(s["pix_fmt"], "yuv420p");
    EXPECT_EQ(s["color_space"], "bt709");
    EXPECT_EQ(s["width"], 160);
    EXPECT_EQ(s["height"], 120);
    EXPECT_EQ(s["nb_read_frames"], "10");
    EXPECT_NEAR(std::stod(p["format"]["duration"].get<std::string>()), 1.0, 1e-3);
    const std::vector<std::vector<uint8_t>> frames = decodeFrames(mp4, 160, 120);
    ASSERT_EQ(frames.size(), 10u);
    std::vector<std::vector<uint8_t>> stills;
    for (int i : {0, 4, 9}) {
        const std::string png = dir + "/still" + std::to_string(i) + ".png";
        RunResult one = run(kExe, {"render", kSimpleSkin, "-o", png, "--size", "160x120", "--time", timeArg(0.5 + i / 10.0),
                                   "--camera", kCamera});
        ASSERT_EQ(one.exitCode, 0) << one.err;
        int w = 0, h = 0;
        stills.push_back(pngRgb(png, w, h));
        ASSERT_EQ(w, 160);
        const double db = psnr(frames[static_cast<size_t>(i)], stills.back());
        std::printf("frame %d against render --time %.1f: PSNR %.1f dB\n", i, 0.5 + i / 10.0, db);
        EXPECT_GT(db, 30.0) << "frame " << i;
    }
    // The comparison can fail: the first frame is not the last frame's render.
    const double apart = psnr(frames[0], stills[2]);
    std::printf("frame 0 against render --time 1.4: PSNR %.1f dB\n", apart);
    EXPECT_LT(apart, psnr(frames[0], stills[0]) - 5.0);
}

// A state machine's playblast (--machine): the machine runs from time 0 and ticks on frame by
// frame, so each frame is, pixel for pixel, what `render --machine --time` reaches at that time
// (the same ticks at --fps 30: two of 1/60 s a frame); with --set speed=1 the demo walks, which
// its idle pose does not. Without --to (a machine has no end) it is refused in one line.
TEST(PlayblastCli, MachineFramesAreOneFrameMachineRendersAtTheirTimes) {
    const std::string dir = testing::tempDir();
    const std::string demo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";
    const std::string machine = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.machine.json";
    const std::string camera = "0.5,1.2,4.5,0,0.9,0,40";
    const std::vector<std::string> look = {"--size", "120x90", "--camera", camera, "--background", "0,0,255"};
    const auto args = [&](std::vector<std::string> a) {
        a.insert(a.begin(), {"render", demo, "--machine", machine});
        a.insert(a.end(), look.begin(), look.end());
        return a;
    };
    RunResult r = run(kExe, args({"--set", "speed=1", "-o", dir + "/m_%02d.png", "--from", "0.2", "--to", "1.2", "--fps", "30"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir + "/m_29.png"));
    EXPECT_FALSE(fs::exists(dir + "/m_30.png"));
    for (int i : {0, 10, 29}) {
        char name[32];
        std::snprintf(name, sizeof name, "/m_%02d.png", i);
        const std::string t = timeArg(0.2 + i / 30.0);
        ASSERT_EQ(run(kExe, args({"--set", "speed=1", "--time", t, "-o", dir + "/walk.png"})).exitCode, 0);
        ASSERT_EQ(run(kExe, args({"--time", t, "-o", dir + "/idle.png"})).exitCode, 0);
        int w = 0, h = 0;
        const std::vector<uint8_t> frame = pngRgb(dir + name, w, h);
        ASSERT_EQ(w, 120) << name;
        const std::vector<uint8_t> walk = pngRgb(dir + "/walk.png", w, h);
        const double idle = psnr(frame, pngRgb(dir + "/idle.png", w, h));
        std::printf("frame %d (t %s) against render --machine --time: %.1f dB; against the idle machine: %.1f dB\n", i,
                    t.c_str(), psnr(frame, walk), idle);
        EXPECT_TRUE(frame == walk) << name << ": not pixel for pixel render --machine --time " << t;
        EXPECT_LT(idle, 40.0) << name;  // the comparison can fail: walking is not idling
    }
    if (haveFfmpeg()) {  // a video of it: the frame count and duration of the range
        const std::string mp4 = dir + "/machine.mp4";
        ASSERT_EQ(run(kExe, args({"--set", "speed=1", "-o", mp4, "--to", "1.5", "--fps", "10"})).exitCode, 0);
        const json p = probe(mp4);
        ASSERT_TRUE(p.is_object());
        EXPECT_EQ(p["streams"][0]["nb_read_frames"], "15");
        EXPECT_NEAR(std::stod(p["format"]["duration"].get<std::string>()), 1.5, 1e-3);
    }
    RunResult noEnd = run(kExe, args({"-o", dir + "/none_%d.png"}));
    EXPECT_EQ(noEnd.exitCode, 2) << noEnd.err;
    EXPECT_EQ(lines(noEnd.err), 1) << noEnd.err;
    EXPECT_NE(noEnd.err.find("--to"), std::string::npos) << noEnd.err;
    EXPECT_FALSE(fs::exists(dir + "/none_0.png"));
}

// A GIF: one image per frame, 0.5 s at 10 fps; its one palette (made from every frame) keeps
// the textured character's colours close to the one-frame render's.
TEST(PlayblastCli, GifHasEveryFrameAndAGoodPalette) {
    if (!haveFfmpeg()) GTEST_SKIP() << "no ffmpeg";
    const std::string dir = testing::tempDir();
    const std::string gif = dir + "/wave.gif";
    const std::string character = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/character/textured_character.gltf";
    const std::string camera = "0.6,1.15,3.3,0,0.98,0,40";
    RunResult r = run(kExe, {"render", character, "-o", gif, "--size", "160x120", "--from", "0", "--to", "0.5", "--fps",
                             "10", "--camera", camera});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(slurp(gif).substr(0, 6), "GIF89a");
    const json p = probe(gif);
    ASSERT_TRUE(p.is_object());
    EXPECT_EQ(p["streams"][0]["nb_read_frames"], "5");
    EXPECT_NEAR(std::stod(p["format"]["duration"].get<std::string>()), 0.5, 0.02);
    const std::vector<std::vector<uint8_t>> frames = decodeFrames(gif, 160, 120);
    ASSERT_EQ(frames.size(), 5u);
    const std::string png = dir + "/still.png";
    ASSERT_EQ(run(kExe, {"render", character, "-o", png, "--size", "160x120", "--time", "0.3", "--camera", camera}).exitCode, 0);
    int w = 0, h = 0;
    const std::vector<uint8_t> still = pngRgb(png, w, h);
    const double db = psnr(frames[3], still);
    std::printf("GIF frame 3 against render --time 0.3: PSNR %.1f dB (frame 0: %.1f dB)\n", db, psnr(frames[0], still));
    EXPECT_GT(db, 30.0);
    EXPECT_GT(db, psnr(frames[0], still));
}

// A PNG sequence needs no ffmpeg: frame i is out_%03d's i from 0, each the one-frame render
// at its time; nothing past the last frame. The default framing holds the whole range: the
// model never touches the border of any frame.
TEST(PlayblastCli, PngSequenceNamesCountAndFraming) {
    const std::string dir = testing::tempDir();
    RunResult r = run(kExe, {"render", kSimpleSkin, "-o", dir + "/f_%03d.png", "--size", "120x90", "--from", "0", "--to",
                             "5.5", "--fps", "2", "--background", "0,0,255"},
                      120.0, {"PATH=/nonexistent"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    int unionX0 = 1 << 20, unionX1 = -1, unionY0 = 1 << 20, unionY1 = -1;
    double smallest = 1e30;
    for (int i = 0; i < 11; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "/f_%03d.png", i);
        int w = 0, h = 0;
        const std::vector<uint8_t> px = pngRgb(dir + name, w, h);
        ASSERT_EQ(w, 120) << name;
        ASSERT_EQ(h, 90) << name;
        size_t modelPixels = 0, borderModel = 0;
        int x0 = w, x1 = -1, y0 = h, y1 = -1;
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                const uint8_t* c = &px[(static_cast<size_t>(y) * w + x) * 3];
                const bool background = c[0] == 0 && c[1] == 0 && c[2] == 255;
                if (background) continue;
                ++modelPixels;
                if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) ++borderModel;
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
        }
        EXPECT_GT(modelPixels, 100u) << name;
        EXPECT_EQ(borderModel, 0u) << name;
        unionX0 = std::min(unionX0, x0), unionX1 = std::max(unionX1, x1);
        unionY0 = std::min(unionY0, y0), unionY1 = std::max(unionY1, y1);
        smallest = std::min(smallest, static_cast<double>(x1 - x0 + 1) * (y1 - y0 + 1));
    }
    EXPECT_FALSE(fs::exists(dir + "/f_011.png"));
    // One camera, framed on every frame: together the frames fill about 85% of the image's
    // width or height, while the model (bending) covers less in some frame.
    const double fill = std::max((unionX1 - unionX0 + 1) / 120.0, (unionY1 - unionY0 + 1) / 90.0);
    std::printf("the range's frames together span %.0f%% of the frame\n", 100.0 * fill);
    EXPECT_GT(fill, 0.75);
    EXPECT_LT(smallest, 0.8 * (unionX1 - unionX0 + 1) * (unionY1 - unionY0 + 1));
    // A one-frame render frames its own pose only: not frame 4 of the range's camera.
    ASSERT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/tight.png", "--size", "120x90", "--time", "2",
                         "--background", "0,0,255"}).exitCode, 0);
    {
        int w = 0, h = 0;
        EXPECT_LT(psnr(pngRgb(dir + "/f_004.png", w, h), pngRgb(dir + "/tight.png", w, h)), 30.0);
    }
    // A crowd moves too.
    ASSERT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/crowd_%d.png", "--size", "120x90", "--instances", "4",
                         "--from", "1", "--to", "1.2", "--fps", "10"}).exitCode, 0);
    {
        int w = 0, h = 0;
        EXPECT_LT(psnr(pngRgb(dir + "/crowd_0.png", w, h), pngRgb(dir + "/crowd_1.png", w, h)), 40.0);
        EXPECT_FALSE(fs::exists(dir + "/crowd_2.png"));
    }
    // The sequence's frames are one-frame renders at their times (same camera: pixel for pixel
    // but for the depth range, which follows the whole range's bounds).
    ASSERT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/s_%d.png", "--size", "120x90", "--from", "1", "--to", "1.3",
                         "--fps", "10", "--camera", kCamera}).exitCode, 0);
    EXPECT_TRUE(fs::exists(dir + "/s_2.png"));
    EXPECT_FALSE(fs::exists(dir + "/s_3.png"));
    ASSERT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/one.png", "--size", "120x90", "--time", "1.2", "--camera",
                         kCamera}).exitCode, 0);
    int w = 0, h = 0;
    EXPECT_GT(psnr(pngRgb(dir + "/s_2.png", w, h), pngRgb(dir + "/one.png", w, h)), 45.0);
}

// Bad ranges, rates, names and sizes: one line, exit 2, nothing written. No ffmpeg: one line
// naming it, exit 4. A sequence frame that would land on the model's own texture: refused.
TEST(PlayblastCli, RefusesBadRequestsInOneLine) {
    const std::string dir = testing::tempDir();
    const std::vector<std::vector<std::string>> bad = {
        {"-o", dir + "/a.mp4", "--to", "99"},
        {"-o", dir + "/a.mp4", "--from", "-1"},
        {"-o", dir + "/a.mp4", "--from", "2", "--to", "1"},
        {"-o", dir + "/a.mp4", "--fps", "0"},
        {"-o", dir + "/a.mp4", "--fps", "-3"},
        {"-o", dir + "/a.gif", "--fps", "60"},
        {"-o", dir + "/a.mp4", "--time", "1"},
        {"-o", dir + "/a.mp4", "--bind-pose"},
        {"-o", dir + "/a.mp4", "--size", "161x120"},
        {"-o", dir + "/a.avi"},
        {"-o", dir + "/a.png", "--from", "1"},
        {"-o", dir + "/a_%s.png"},
        {"-o", dir + "/a.mp4", "--clip", "nosuchclip"},
    };
    for (const std::vector<std::string>& extra : bad) {
        std::vector<std::string> args = {"render", kSimpleSkin, "--size", "64x48"};
        args.insert(args.end(), extra.begin(), extra.end());
        RunResult r = run(kExe, args);
        std::string what;
        for (const std::string& a : extra) what += a + " ";
        EXPECT_EQ(r.exitCode, 2) << what << r.err;
        EXPECT_EQ(lines(r.err), 1) << what << r.err;
    }
    EXPECT_TRUE(fs::is_empty(dir));
    RunResult none = run(kExe, {"render", kSimpleSkin, "-o", dir + "/b.mp4", "--size", "64x48"}, 60.0, {"PATH=/nonexistent"});
    EXPECT_EQ(none.exitCode, 4) << none.err;
    EXPECT_EQ(lines(none.err), 1) << none.err;
    EXPECT_NE(none.err.find("ffmpeg"), std::string::npos) << none.err;
    EXPECT_TRUE(fs::is_empty(dir));

    // An ffmpeg that never reads (or never ends) is stopped after RIGVIEW_FFMPEG_TIMEOUT: one
    // line, exit 4, no file.
    const std::string bin = dir + "/bin";
    fs::create_directories(bin);
    std::ofstream(bin + "/ffmpeg") << "#!/bin/sh\nexec /bin/sleep 20\n";
    fs::permissions(bin + "/ffmpeg", fs::perms::owner_all);
    for (const char* fps : {"10", "200"}) {  // 3 frames fit the pipe: ffmpeg never ends; 60 do not: it never reads
        RunResult hung = run(kExe, {"render", kSimpleSkin, "-o", dir + "/hung.mp4", "--size", "320x240", "--to", "0.3", "--fps", fps},
                             60.0, {"PATH=" + bin, "RIGVIEW_FFMPEG_TIMEOUT=1"});
        EXPECT_EQ(hung.exitCode, 4) << fps << ": " << hung.err;
        EXPECT_EQ(lines(hung.err), 1) << hung.err;
        EXPECT_NE(hung.err.find("ffmpeg"), std::string::npos) << hung.err;
        EXPECT_FALSE(fs::exists(dir + "/hung.mp4"));
    }
    fs::remove_all(bin);
    EXPECT_TRUE(fs::is_empty(dir));

    // A copy of the textured character whose base colour texture is named like frame 0.
    const std::string src = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/character/";
    const std::string model = dir + "/model";
    fs::create_directories(model);
    for (const auto& e : fs::directory_iterator(src)) fs::copy_file(e.path(), model + "/" + e.path().filename().string());
    std::string gltf = slurp(model + "/textured_character.gltf");
    const size_t at = gltf.find("\"character_base.png\"");
    ASSERT_NE(at, std::string::npos);
    gltf.replace(at, 20, "\"frame_0.png\"");
    std::ofstream(model + "/textured_character.gltf") << gltf;
    fs::rename(model + "/character_base.png", model + "/frame_0.png");
    const std::string before = slurp(model + "/frame_0.png");
    RunResult over = run(kExe, {"render", model + "/textured_character.gltf", "-o", model + "/frame_%d.png", "--size",
                                "64x48", "--to", "0.2", "--fps", "10"});
    EXPECT_EQ(over.exitCode, 2) << over.err;
    EXPECT_EQ(lines(over.err), 1) << over.err;
    EXPECT_EQ(slurp(model + "/frame_0.png"), before);
    EXPECT_FALSE(fs::exists(model + "/frame_1.png"));
}

}  // namespace
}  // namespace rig
