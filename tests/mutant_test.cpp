// Hostile files (written by tests/make_mutants.py into the build folder before this runs):
// every one through info, check --json and pose ends with a result or one error line naming
// the file, never a signal death of rigview or a hang past the import time limit; check over
// the folder reports every file, crashers as findings, with the same summary on two runs.
// Some of these files crash or hang Assimp 5.2.5 when read in process: the test makes sure they
// still do (so it tests isolation, not luck) and that through the worker they are an error line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run.h"

namespace rig {
namespace {

using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kDir = RIGVIEW_MUTANTS_DIR;
constexpr double kImportTimeout = 3.0;
const std::string kTimeoutArg = "3";

// Files that crash Assimp 5.2.5 in process (found with `rigview --no-isolation info`).
const std::vector<std::string> kKnownCrashers = {
    "gltf_deep_chain_100000.gltf",          "gltf_skin_10000_joints_no_ibm.gltf",
    "gltf_sparse_offset_past_buffer.gltf",  "gltf_sparse_values_offset_past_buffer.gltf",
    "md5_simplecube_truncated_50.md5mesh",  "md5_weight_index_far.md5mesh",
};

// Files on which Assimp 5.2.5 never returns (an SMD whose nodes block does not end).
const std::vector<std::string> kKnownHangs = {"smd_unterminated_nodes.smd", "smd_unterminated_nodes_2.smd"};

std::vector<std::string> mutants(bool withSpecial) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(kDir)) {
        std::error_code ec;
        if (e.is_regular_file(ec) || withSpecial) files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

void expectCleanEnd(const RunResult& r, const std::string& file, std::set<int> allowed, const std::string& what) {
    ASSERT_FALSE(r.timedOut) << what << " hung on " << file;
    ASSERT_FALSE(r.signaled) << what << ": rigview died of signal " << r.signal << " on " << file << "\n" << r.err;
    EXPECT_TRUE(allowed.count(r.exitCode)) << what << " exit " << r.exitCode << " on " << file << "\n" << r.err;
    if (r.exitCode == 3) {
        EXPECT_EQ(lines(r.err), 1) << what << " on " << file << ":\n" << r.err;
        EXPECT_EQ(r.err.rfind("rigview: " + file + ": ", 0), 0u) << what << ": " << r.err;
    }
}

TEST(Mutants, EveryCommandOnEveryFileEndsCleanly) {
    const std::vector<std::string> files = mutants(true);
    ASSERT_GT(files.size(), 40u) << "run tests/make_mutants.py " << kDir;
    const std::string out = testing::tempDir();
    size_t crashed = 0, timedOut = 0;
    const double limit = kImportTimeout + 30.0;  // past the import time limit: a hang of rigview
    for (const std::string& f : files) {
        RunResult info = run(kExe, {"--import-timeout", kTimeoutArg, "info", f}, limit);
        expectCleanEnd(info, f, {0, 3}, "info");
        crashed += info.err.find("the importer crashed") != std::string::npos;
        timedOut += info.err.find("import time limit") != std::string::npos;
        RunResult check = run(kExe, {"--import-timeout", kTimeoutArg, "check", f, "--json"}, limit);
        expectCleanEnd(check, f, {0, 1, 3}, "check --json");
        if (!check.signaled && !check.timedOut) {
            EXPECT_TRUE(json::accept(check.out)) << "check --json on " << f << ":\n" << check.out.substr(0, 300);
        }
        const std::string pose = out + "/pose.json";
        std::filesystem::remove(pose);
        RunResult p = run(kExe, {"--import-timeout", kTimeoutArg, "pose", f, "-o", pose}, limit);
        expectCleanEnd(p, f, {0, 3}, "pose");
        EXPECT_EQ(std::filesystem::exists(pose), p.exitCode == 0) << f;
    }
    EXPECT_GE(crashed, 1u) << "no file crashed the importer: the mutants no longer test isolation";
    EXPECT_GE(timedOut, 1u) << "no file hung the importer: the mutants no longer test the time limit";
}

TEST(Mutants, KnownCrashersStillCrashAssimpInProcessAndAreOneLineIsolated) {
    size_t crashedInProcess = 0;
    for (const std::string& name : kKnownCrashers) {
        const std::string f = kDir + "/" + name;
        ASSERT_TRUE(std::filesystem::exists(f)) << f;
        RunResult direct = run(kExe, {"--no-isolation", "info", f}, 120.0, {"ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"});
        crashedInProcess += direct.signaled;
        RunResult isolated = run(kExe, {"--import-timeout", kTimeoutArg, "info", f}, kImportTimeout + 30.0);
        expectCleanEnd(isolated, f, {3}, "info");
        EXPECT_TRUE(isolated.err.find("the importer crashed") != std::string::npos ||
                    isolated.err.find("import time limit") != std::string::npos)
            << isolated.err;
    }
    // Assimp 5.2.5 crashes on all of them; a fixed Assimp would make this test say so.
    EXPECT_GE(crashedInProcess, 1u) << "none of the known crashers crashes Assimp in process any more";
}

TEST(Mutants, KnownHangsHangAssimpInProcessAndAreKilledAtTheLimitIsolated) {
    for (const std::string& name : kKnownHangs) {
        const std::string f = kDir + "/" + name;
        ASSERT_TRUE(std::filesystem::exists(f)) << f;
        RunResult direct = run(kExe, {"--no-isolation", "info", f}, 3.0);
        EXPECT_TRUE(direct.timedOut) << "Assimp no longer hangs on " << f << " in process";
        RunResult isolated = run(kExe, {"--import-timeout", "1", "info", f}, 30.0);
        expectCleanEnd(isolated, f, {3}, "info");
        EXPECT_NE(isolated.err.find("the importer was killed after 1 s (import time limit"), std::string::npos)
            << isolated.err;
    }
}

TEST(Mutants, CheckOverTheFolderReportsEveryFileWithTheSameSummaryTwice) {
    const std::vector<std::string> files = mutants(false);
    std::vector<json> summaries;
    for (int pass = 0; pass < 2; ++pass) {
        RunResult r = run(kExe, {"--import-timeout", kTimeoutArg, "check", kDir, "--json-lines"}, 600.0);
        ASSERT_FALSE(r.signaled || r.timedOut) << r.err;
        EXPECT_EQ(r.exitCode, 3);
        std::istringstream in(r.out);
        std::vector<json> objects;
        for (std::string line; std::getline(in, line);) objects.push_back(json::parse(line));
        ASSERT_EQ(objects.size(), files.size() + 1) << r.out.substr(0, 500);
        std::set<std::string> reported;
        for (size_t i = 0; i + 1 < objects.size(); ++i) reported.insert(objects[i]["file"].get<std::string>());
        EXPECT_EQ(reported, std::set<std::string>(files.begin(), files.end()));
        for (size_t i = 0; i + 1 < objects.size(); ++i) {
            const json& o = objects[i];
            const std::string name = std::filesystem::path(o["file"].get<std::string>()).filename();
            if (std::find(kKnownCrashers.begin(), kKnownCrashers.end(), name) == kKnownCrashers.end() &&
                std::find(kKnownHangs.begin(), kKnownHangs.end(), name) == kKnownHangs.end()) {
                continue;
            }
            ASSERT_EQ(o["findings"].size(), 1u) << o;
            EXPECT_TRUE(o["findings"][0]["code"] == "importer-crashed" || o["findings"][0]["code"] == "importer-timeout") << o;
        }
        summaries.push_back(objects.back());
        EXPECT_GE(objects.back()["summary"]["importer_crashed"].get<int>(), 1) << objects.back();
        EXPECT_GE(objects.back()["summary"]["importer_timeout"].get<int>(), 1) << objects.back();
    }
    EXPECT_EQ(summaries[0], summaries[1]);
}

}  // namespace
}  // namespace rig
