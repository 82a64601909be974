// Imports in the isolated worker process (platform/import_worker), end to end through the
// rigview binary: the worker gives the same model as an in-process import; a worker that
// crashes or hangs is one error line naming the file (exit 3), never a crash or hang of
// rigview; FIFOs are refused at once; Landlock keeps the worker inside the model's folder.
// Workers that misbehave on purpose are small shell scripts named by RIGVIEW_WORKER.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run.h"

namespace rig {
namespace {

using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kBcn = kModels + "X/BCN_Epileptic.X";

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string script(const std::string& dir, const std::string& name, const std::string& body) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
    return path;
}

void expectOneErrorLine(const RunResult& r, const std::string& file, const std::string& what) {
    ASSERT_FALSE(r.timedOut) << r.err;
    ASSERT_FALSE(r.signaled) << "rigview itself died of signal " << r.signal << "\n" << r.err;
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("rigview: " + file + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

TEST(Isolation, WorkerGivesTheSameModelAsAnInProcessImport) {
    const std::string dir = testing::tempDir();
    for (const std::string& file : {kBcn, kModels + "X/Testwuson.X", kModels + "glTF2/simple_skin/simple_skin.gltf"}) {
        RunResult a = run(kExe, {"pose", file, "-o", dir + "/a.json", "--time", "0.3"});
        RunResult b = run(kExe, {"--no-isolation", "pose", file, "-o", dir + "/b.json", "--time", "0.3"});
        ASSERT_EQ(a.exitCode, 0) << a.err;
        ASSERT_EQ(b.exitCode, 0) << b.err;
        EXPECT_EQ(slurp(dir + "/a.json"), slurp(dir + "/b.json")) << file;
        RunResult ia = run(kExe, {"info", file, "--json"});
        RunResult ib = run(kExe, {"--no-isolation", "info", file, "--json"});
        json ja = json::parse(ia.out), jb = json::parse(ib.out);
        EXPECT_TRUE(ja["import"]["isolated"].get<bool>());
        EXPECT_FALSE(jb["import"]["isolated"].get<bool>());
        ja.erase("import");
        jb.erase("import");
        EXPECT_EQ(ja, jb) << file;
    }
}

TEST(Isolation, CrashingWorkerIsOneErrorLine) {
    const std::string dir = testing::tempDir();
    const std::string segv = script(dir, "segv.sh", "echo 'AddressSanitizer chatter that must not spill' >&2\nkill -SEGV $$");
    const std::string abrt = script(dir, "abrt.sh", "kill -ABRT $$");
    for (const auto& [worker, sig] : {std::pair{segv, std::string("SIGSEGV")}, std::pair{abrt, std::string("SIGABRT")}}) {
        const std::vector<std::string> env = {"RIGVIEW_WORKER=" + worker};
        expectOneErrorLine(run(kExe, {"info", kBcn}, 60, env), kBcn, "the importer crashed (" + sig + ")");
        expectOneErrorLine(run(kExe, {"pose", kBcn, "-o", dir + "/p.json"}, 60, env), kBcn, "crashed");
        EXPECT_FALSE(std::filesystem::exists(dir + "/p.json"));
        expectOneErrorLine(run(kExe, {"export", kBcn, "-o", dir + "/p.bvh"}, 60, env), kBcn, "crashed");
        expectOneErrorLine(run(kExe, {"bench", kBcn, "--ticks", "10"}, 60, env), kBcn, "crashed");
    }
}

TEST(Isolation, HungWorkerIsKilledAtTheTimeLimit) {
    const std::string dir = testing::tempDir();
    const std::string hang = script(dir, "hang.sh", "sleep 60 & sleep 60");
    const auto start = std::chrono::steady_clock::now();
    RunResult r = run(kExe, {"--import-timeout", "1", "info", kBcn}, 30, {"RIGVIEW_WORKER=" + hang});
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    expectOneErrorLine(r, kBcn, "the importer was killed after 1 s (import time limit");
    EXPECT_LT(took, 10.0);
}

TEST(Isolation, WorkerThatExitsWithoutAModelIsAnError) {
    const std::string dir = testing::tempDir();
    expectOneErrorLine(run(kExe, {"info", kBcn}, 60, {"RIGVIEW_WORKER=" + script(dir, "fail.sh", "exit 7")}), kBcn,
                       "exit status 7");
    // Exit 0 with nothing on the result pipe: not a model.
    expectOneErrorLine(run(kExe, {"info", kBcn}, 60, {"RIGVIEW_WORKER=" + script(dir, "ok.sh", "exit 0")}), kBcn,
                       "broken model");
}

TEST(Isolation, NonRegularFilesAreRefusedAtOnceInBothModes) {
    const std::string dir = testing::tempDir();
    const std::string fifo = dir + "/model.fbx";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::vector<std::string>& mode : {std::vector<std::string>{}, std::vector<std::string>{"--no-isolation"}}) {
        std::vector<std::string> args = mode;
        args.insert(args.end(), {"info", fifo});
        expectOneErrorLine(run(kExe, args, 20), fifo, "not a regular file (a named pipe)");
        args = mode;
        args.insert(args.end(), {"info", kBcn, "--anim", fifo});
        expectOneErrorLine(run(kExe, args, 20), fifo, "not a regular file");
        args = mode;
        args.insert(args.end(), {"info", "/dev/zero"});
        expectOneErrorLine(run(kExe, args, 20), "/dev/zero", "not a regular file (a device)");
    }
}

TEST(Isolation, LandlockKeepsTheWorkerInsideTheModelsFolder) {
    RunResult info = run(kExe, {"info", kBcn});
    if (info.out.find("Landlock ABI") == std::string::npos) GTEST_SKIP() << "no Landlock here: " << info.out;
    // A glTF whose buffer lies outside its folder ("../"): read in process, refused isolated.
    const std::string dir = testing::tempDir();
    std::filesystem::create_directories(dir + "/model");
    std::filesystem::copy_file(kModels + "glTF2/simple_skin/simple_skin.gltf", dir + "/model/skin.gltf");
    std::string gltf = slurp(dir + "/model/skin.gltf");
    const std::string outside = dir + "/outside.bin";
    // simple_skin embeds its buffers as data URIs: write the first out beside the folder instead.
    const size_t uri = gltf.find("\"uri\"");
    ASSERT_NE(uri, std::string::npos);
    const size_t open = gltf.find('"', uri + 5), close = gltf.find('"', open + 1);
    const std::string data = gltf.substr(open + 1, close - open - 1);
    ASSERT_EQ(data.rfind("data:", 0), 0u) << data.substr(0, 40);
    {
        const std::string b64 = data.substr(data.find(',') + 1);
        std::string bytes;
        int val = 0, bits = -8;
        for (char c : b64) {
            const std::string table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            const size_t k = table.find(c);
            if (k == std::string::npos) break;
            val = (val << 6) + static_cast<int>(k);
            bits += 6;
            if (bits >= 0) {
                bytes.push_back(static_cast<char>((val >> bits) & 0xff));
                bits -= 8;
            }
        }
        std::ofstream(outside, std::ios::binary) << bytes;
    }
    gltf.replace(open + 1, close - open - 1, "../outside.bin");
    std::ofstream(dir + "/model/skin.gltf", std::ios::trunc) << gltf;
    const std::string model = dir + "/model/skin.gltf";
    RunResult inProcess = run(kExe, {"--no-isolation", "info", model});
    ASSERT_EQ(inProcess.exitCode, 0) << inProcess.err;
    RunResult isolated = run(kExe, {"info", model});
    expectOneErrorLine(isolated, model, "outside.bin");
    // The same file beside the model is fine.
    std::filesystem::copy_file(outside, dir + "/model/inside.bin");
    gltf.replace(gltf.find("../outside.bin"), 14, "inside.bin");
    std::ofstream(model, std::ios::trunc) << gltf;
    EXPECT_EQ(run(kExe, {"info", model}).exitCode, 0);
}

TEST(Isolation, InfoSaysHowFilesAreRead) {
    RunResult a = run(kExe, {"--import-timeout", "7", "info", kBcn});
    EXPECT_NE(a.out.find("import:     isolated worker process (time limit 7 s"), std::string::npos) << a.out;
    RunResult b = run(kExe, {"--no-isolation", "info", kBcn});
    EXPECT_NE(b.out.find("import:     in this process (--no-isolation)"), std::string::npos) << b.out;
}

}  // namespace
}  // namespace rig
