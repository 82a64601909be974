// Every file under /usr/share/assimp/models, the broken ones included, through `info`,
// `check`, `pose` and `render` (headless EGL): each works or fails with a one-line error naming the file and a
// documented exit code; none crashes or hangs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/run.h"

namespace rig {
namespace {

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models";

#ifndef RIGVIEW_SWEEP_RUN_SECONDS
#define RIGVIEW_SWEEP_RUN_SECONDS 120.0
#endif
// Seconds a command may run before it counts as hung (tests/CMakeLists.txt: more under ASan).
constexpr double kRunSeconds = RIGVIEW_SWEEP_RUN_SECONDS;

#ifdef RIGVIEW_SWEEP_SANITIZED
// Under the sanitizers the sweep takes every second file (by path, so every folder and format
// is still there), `info` is left out (`check` imports each file through the same worker and
// reads everything `info` prints), and so are `pose` and `render` of a file `check` could not
// import (they fail at the same import): each instrumented run costs half a second or more of
// the CI's hour. The Release sweep runs all four on every file.
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
constexpr size_t kFileStride = kSanitized ? 2 : 1;

std::vector<std::string> allModelFiles() {
    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(kModels, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec)) files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> taken;
    for (size_t i = 0; i < files.size(); i += kFileStride) taken.push_back(files[i]);
    return taken;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

class Sweep : public ::testing::TestWithParam<std::string> {};

void expectClean(const testing::RunResult& r, const std::string& file, std::initializer_list<int> allowed,
                 const char* what) {
    ASSERT_FALSE(r.timedOut) << what << " hung on " << file;
    ASSERT_FALSE(r.signaled) << what << " crashed (signal " << r.signal << ") on " << file << "\n" << r.err;
    EXPECT_TRUE(std::find(allowed.begin(), allowed.end(), r.exitCode) != allowed.end())
        << what << " exit " << r.exitCode << " on " << file << "\n" << r.err;
    if (r.exitCode == 3) {
        EXPECT_EQ(lines(r.err), 1) << what << ": " << r.err;
        EXPECT_NE(r.err.find(file), std::string::npos) << what << ": " << r.err;
    }
    // Imports run in a worker process, which turns a crash into an error line: none of these
    // files may crash it (under the sanitizers, a report in our import code would show here).
    EXPECT_EQ(r.err.find("the importer crashed"), std::string::npos) << what << ": " << r.err;
    EXPECT_EQ(r.err.find("import time limit"), std::string::npos) << what << ": " << r.err;
}

constexpr bool kRunInfo = !kSanitized;

TEST_P(Sweep, InfoCheckPoseRender) {
    const std::string file = GetParam();
    testing::RunResult info;
    if (kRunInfo) {
        info = testing::run(kExe, {"info", file}, kRunSeconds);
        expectClean(info, file, {0, 3}, "info");
    }
    const testing::RunResult check = testing::run(kExe, {"check", file, "--json"}, kRunSeconds);
    expectClean(check, file, {0, 1, 3}, "check");
    if (kRunInfo && file.size() > 6 && file.compare(file.size() - 6, 6, ".blend") == 0) {
        // Assimp reads no armature or clip from .blend files: the geometry is shown with one
        // warning line, and check fails the file (or Assimp's own error carries the hint).
        const std::string hint = "Assimp reads no armature or animation from .blend files; export FBX or glTF from Blender";
        EXPECT_NE(info.err.find(hint), std::string::npos) << info.err;
        EXPECT_EQ(lines(info.err), 1) << info.err;
        if (info.exitCode == 0) {
            EXPECT_EQ(check.exitCode, 1) << check.out;
            EXPECT_NE(check.out.find("\"blend-not-supported\""), std::string::npos) << check.out;
        }
    }
    if (kSanitized && check.exitCode == 3) return;
    const std::string dir = testing::tempDir();
    const std::string out = dir + "/pose.json";
    const testing::RunResult pose = testing::run(kExe, {"pose", file, "-o", out}, kRunSeconds);
    expectClean(pose, file, {0, 3}, "pose");
    std::ifstream in(out);
    if (pose.exitCode == 0) {
        std::string head(8, '\0');
        in.read(head.data(), 8);
        EXPECT_EQ(head, "{\"clip\":") << file;
    } else {
        EXPECT_FALSE(in.good()) << "a failed pose must write no file: " << file;
    }
    in.close();
    const std::string png = dir + "/render.png";
    // Under the sanitizers, render runs without leak detection: the GL driver's threads and
    // UBSan's runtime keep allocations LeakSanitizer cannot attribute (no-op otherwise).
    std::vector<std::string> env;
    if (const char* asan = std::getenv("ASAN_OPTIONS")) env.push_back(std::string("ASAN_OPTIONS=") + asan + ":detect_leaks=0");
    const testing::RunResult render = testing::run(kExe, {"render", file, "-o", png, "--size", "64x48"}, kRunSeconds, env);
    expectClean(render, file, {0, 3}, "render");
    EXPECT_EQ(std::filesystem::exists(png), render.exitCode == 0) << "render: a PNG exactly when it succeeds: " << file;
    std::filesystem::remove_all(dir);
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string s = info.param.substr(kModels.size() + 1);
    for (char& c : s) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return s + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(AssimpTestModels, Sweep, ::testing::ValuesIn(allModelFiles()), testName);

}  // namespace
}  // namespace rig
