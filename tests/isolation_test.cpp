// Imports in the isolated worker process (platform/import_worker), end to end through the
// rigview binary: the worker gives the same model as an in-process import; a worker that
// crashes or hangs is one error line naming the file (exit 3), never a crash or hang of
// rigview; FIFOs are refused at once; Landlock keeps the worker inside the model's folder.
// Workers that misbehave on purpose are small shell scripts named by RIGVIEW_WORKER.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "platform/import_worker.h"
#include "support/acclaim_files.h"
#include "support/run.h"

namespace rig {
namespace {

using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kBcn = kModels + "X/BCN_Epileptic.X";

int lines_(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

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
    EXPECT_EQ(lines_(r.err), 1) << r.err;
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

// ImportOptions reach the worker on its command line (workerImportArgs) and come back as the
// same import an in-process call makes: units, and the AMC frame rate (the second frame of a
// motion at 1/fps seconds).
TEST(Isolation, ImportOptionsReachTheWorker) {
    EXPECT_EQ(workerImportArgs(ImportOptions{UnitMode::File, 60.0f}),
              (std::vector<std::string>{"--units=file", "--amc-fps=60"}));
    EXPECT_EQ(workerImportArgs(ImportOptions{}), (std::vector<std::string>{"--units=metres", "--amc-fps=120"}));
    const std::string dir = testing::tempDir();
    testing::writeOneBoneAsfAmc(dir);
    const std::string fbx = kModels + "FBX/huesitos.fbx", amc = dir + "/07_01.amc";
    for (const bool isolated : {true, false}) {
        IsolationConfig config;
        config.enabled = isolated;
        config.workerExe = kExe;
        setIsolation(config);
        ImportOutcome metres = importIsolated(fbx, {}, ImportOptions{UnitMode::Metres});
        ImportOutcome file = importIsolated(fbx, {}, ImportOptions{UnitMode::File});
        ImportOutcome at60 = importIsolated(amc, {}, ImportOptions{UnitMode::Metres, 60.0f});
        ImportOutcome at120 = importIsolated(amc, {}, ImportOptions{});
        ASSERT_TRUE(metres.model && file.model && at60.model && at120.model) << isolated;
        EXPECT_DOUBLE_EQ(metres.model->units.scaleApplied, 0.01) << isolated;
        EXPECT_DOUBLE_EQ(file.model->units.scaleApplied, 1.0) << isolated;
        ASSERT_EQ(at60.model->clips.size(), 1u);
        ASSERT_EQ(at120.model->clips.size(), 1u);
        EXPECT_FLOAT_EQ(at60.model->clips[0].duration, 1.0f / 60.0f) << isolated;
        EXPECT_FLOAT_EQ(at120.model->clips[0].duration, 1.0f / 120.0f) << isolated;
    }
    setIsolation(IsolationConfig{});
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

// The worker gets a minimal environment: rigview's own settings and the sanitizers' options,
// not the parent's other variables (a token in the environment stays with the parent).
TEST(Isolation, TheWorkerGetsOnlyTheEnvironmentItNeeds) {
    const std::string dir = testing::tempDir();
    const std::string dump = script(dir, "dump.sh", "env > \"" + dir + "/env.txt\"; exit 1");
    RunResult r = run(kExe, {"info", kBcn}, 30,
                      {"RIGVIEW_WORKER=" + dump, "SECRET_TOKEN=abc123", "AWS_SECRET_ACCESS_KEY=xyz", "RIGVIEW_ISA=sse2"});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    const std::string env = slurp(dir + "/env.txt");
    ASSERT_FALSE(env.empty());
    EXPECT_EQ(env.find("SECRET_TOKEN"), std::string::npos) << env;
    EXPECT_EQ(env.find("AWS_SECRET_ACCESS_KEY"), std::string::npos) << env;
    EXPECT_NE(env.find("RIGVIEW_ISA=sse2"), std::string::npos) << env;
    EXPECT_NE(env.find("PATH="), std::string::npos) << env;
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
    // The buffer itself is good: read when the user allows files outside the folder, in
    // process and through the worker (the option reaches it and widens its sandbox).
    RunResult inProcess = run(kExe, {"--no-isolation", "--allow-external-paths", "info", model});
    ASSERT_EQ(inProcess.exitCode, 0) << inProcess.err;
    RunResult allowed = run(kExe, {"info", "--allow-external-paths", model});
    EXPECT_EQ(allowed.exitCode, 0) << allowed.err;
    RunResult isolated = run(kExe, {"info", model});
    expectOneErrorLine(isolated, model, "outside.bin");
    // Landlock on its own (below the importer's own path rule): a process restricted to the
    // model's folder cannot open the file beside it, and still reads inside it.
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (!rig::restrictFileAccess({dir + "/model"})) ::_exit(2);
        const int out = ::open(outside.c_str(), O_RDONLY);
        const bool outsideDenied = out < 0 && errno == EACCES;
        const int in = ::open(model.c_str(), O_RDONLY);
        ::_exit(outsideDenied && in >= 0 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: Landlock let the file outside be opened (or blocked the one inside)";
    // The same file beside the model is fine.
    std::filesystem::copy_file(outside, dir + "/model/inside.bin");
    gltf.replace(gltf.find("../outside.bin"), 14, "inside.bin");
    std::ofstream(model, std::ios::trunc) << gltf;
    EXPECT_EQ(run(kExe, {"info", model}).exitCode, 0);
}

// Beyond files: after runImportWorker has sandboxed itself and imported, the same process can
// open no socket (TCP or AF_UNIX), connect nowhere and signal no other process (its parent
// included), and still signals itself (abort() and raise() need that). Run in a forked child.
TEST(Isolation, TheWorkerCannotUseSocketsOrSignalOtherProcesses) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int sink = ::open("/dev/null", O_WRONLY);
        if (runImportWorker(kModels + "glTF2/simple_skin/simple_skin.gltf", {}, ImportOptions{}, sink, ::getppid()) != 0) {
            ::_exit(100);
        }
        int failures = 0;
        const int tcp = ::socket(AF_INET, SOCK_STREAM, 0);
        failures |= tcp >= 0 || errno != EPERM ? 1 : 0;
        const int local = ::socket(AF_UNIX, SOCK_STREAM, 0);
        failures |= local >= 0 || errno != EPERM ? 2 : 0;
        int pair[2];
        failures |= ::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0 ? 4 : 0;
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(9);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        failures |= ::connect(3, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 || errno != EPERM ? 8 : 0;
        failures |= ::kill(::getppid(), 0) == 0 || errno != EPERM ? 16 : 0;
        failures |= ::kill(0, 0) == 0 ? 32 : 0;
        failures |= ::kill(::getpid(), 0) != 0 ? 64 : 0;
        ::_exit(failures);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "bits: 1 TCP socket, 2 AF_UNIX socket, 4 socketpair, 8 connect, "
                                         "16 kill(parent), 32 kill(own group), 64 kill(self) failed; 100 import failed";
}

// The same on a kernel without Landlock (RIGVIEW_NO_LANDLOCK turns it off, as such a kernel
// would have it): the seccomp filter alone keeps the worker from directing a signal at another
// process through a file (fcntl F_SETOWN, F_SETOWN_EX, F_SETSIG, O_ASYNC; their ioctl forms),
// from typing into a terminal, from changing another process's limits or priority, and from
// signalling; what the worker needs of fcntl and ioctl still works.
TEST(Isolation, WithoutLandlockTheFilterAloneKeepsSignalsAndOtherProcessesOut) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::setenv("RIGVIEW_NO_LANDLOCK", "1", 1);
        if (sandboxDescription().find("Landlock turned off") == std::string::npos) ::_exit(101);
        const pid_t parent = ::getppid();
        // The parent's own values, so that a call the filter let through would change nothing.
        rlimit files{};
        ::prlimit(parent, RLIMIT_NOFILE, nullptr, &files);
        errno = 0;
        const int nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(parent));
        const int sink = ::open("/dev/null", O_WRONLY);
        if (runImportWorker(kModels + "glTF2/simple_skin/simple_skin.gltf", {}, ImportOptions{}, sink, parent) != 0) {
            ::_exit(100);
        }
        int p[2];
        if (::pipe(p) != 0) ::_exit(102);
        int first = 0;  // the first check that failed
        auto expect = [&](bool ok, int id) {
            if (!ok && first == 0) first = id;
        };
        auto refused = [](int rc) { return rc == -1 && errno == EPERM; };
        expect(refused(::fcntl(p[0], F_SETOWN, parent)), 1);
        f_owner_ex owner{F_OWNER_PID, parent};
        expect(refused(::fcntl(p[0], F_SETOWN_EX, &owner)), 2);
        expect(refused(::fcntl(p[0], F_SETSIG, SIGTERM)), 3);
        expect(refused(::fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK)), 4);
        int on = 1;
        expect(refused(::ioctl(p[0], FIOASYNC, &on)), 5);
        expect(refused(::ioctl(p[0], FIOSETOWN, &parent)), 6);
        char c = 'x';
        expect(refused(::ioctl(p[0], TIOCSTI, &c)), 7);
        expect(refused(::prlimit(parent, RLIMIT_NOFILE, &files, nullptr)), 8);
        expect(refused(::setpriority(PRIO_PROCESS, static_cast<id_t>(parent), nice)), 9);
        expect(refused(::kill(parent, 0)), 10);
        // What the worker itself needs still works.
        expect(::fcntl(p[0], F_SETFL, O_NONBLOCK) == 0, 11);
        expect((::fcntl(p[0], F_GETFL) & O_NONBLOCK) != 0, 12);
        expect(::prlimit(0, RLIMIT_NOFILE, nullptr, &files) == 0, 13);
        int n = 0;
        expect(::ioctl(p[0], FIONREAD, &n) == 0, 14);
        ::_exit(first);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "allowed: 1 F_SETOWN, 2 F_SETOWN_EX, 3 F_SETSIG, 4 O_ASYNC, 5 FIOASYNC, "
                                         "6 FIOSETOWN, 7 TIOCSTI, 8 prlimit(parent), 9 setpriority(parent), "
                                         "10 kill(parent); refused: 11-12 F_SETFL O_NONBLOCK, 13 prlimit(self), "
                                         "14 FIONREAD; 100 import failed, 101 Landlock not off, 102 no pipe";
}

// And through the command line: `info` says Landlock is off, and imports still work there.
TEST(Isolation, TheWorkerRunsWithLandlockTurnedOff) {
    RunResult r = run(kExe, {"info", kModels + "glTF2/simple_skin/simple_skin.gltf", "--json"}, 60, {"RIGVIEW_NO_LANDLOCK=1"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Landlock turned off (RIGVIEW_NO_LANDLOCK)"), std::string::npos) << r.out;
}

// A worker that crashes on BCN_Epileptic.X, hangs on Testwuson.X and is rigview otherwise.
std::string saboteur(const std::string& dir) {
    return script(dir, "saboteur.sh",
                  "case \"$*\" in *BCN_Epileptic*) kill -SEGV $$;; *Testwuson*) sleep 60;; esac\nexec " + kExe + " \"$@\"");
}

std::vector<json> jsonLines(const std::string& out) {
    std::vector<json> v;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) v.push_back(json::parse(line));
    return v;
}

TEST(Isolation, CheckReportsCrashedAndHungFilesAsFindingsAndGoesOn) {
    const std::string dir = testing::tempDir();
    const std::vector<std::string> env = {"RIGVIEW_WORKER=" + saboteur(dir)};
    const std::string folder = kModels + "X";
    RunResult a = run(kExe, {"--import-timeout", "2", "check", folder, "--json-lines", "--jobs", "3"}, 60, env);
    ASSERT_FALSE(a.signaled || a.timedOut) << a.err;
    EXPECT_EQ(a.exitCode, 3) << a.err;
    const std::vector<json> lines = jsonLines(a.out);
    ASSERT_EQ(lines.size(), 10u) << a.out;  // 9 files and the summary, last
    std::map<std::string, json> byFile;
    for (size_t i = 0; i + 1 < lines.size(); ++i) byFile[lines[i]["file"].get<std::string>()] = lines[i];
    EXPECT_EQ(byFile.size(), 9u);
    const json& bcn = byFile[kBcn];
    ASSERT_EQ(bcn["findings"].size(), 1u) << bcn;
    EXPECT_EQ(bcn["findings"][0]["code"], "importer-crashed");
    EXPECT_EQ(bcn["findings"][0]["severity"], "error");
    const json& wuson = byFile[kModels + "X/Testwuson.X"];
    ASSERT_EQ(wuson["findings"].size(), 1u) << wuson;
    EXPECT_EQ(wuson["findings"][0]["code"], "importer-timeout");
    EXPECT_TRUE(byFile[kModels + "X/test.x"]["passed"].get<bool>());
    const json& summary = lines.back()["summary"];
    EXPECT_EQ(summary["files"], 9);
    EXPECT_EQ(summary["unreadable"], 2);
    EXPECT_EQ(summary["importer_crashed"], 1);
    EXPECT_EQ(summary["importer_timeout"], 1);
    // The same summary and the same human report on another run, whatever finishes first.
    RunResult b = run(kExe, {"--import-timeout", "2", "check", folder, "--json-lines", "--jobs", "2"}, 60, env);
    EXPECT_EQ(jsonLines(b.out).back(), lines.back());
    RunResult t1 = run(kExe, {"--import-timeout", "2", "check", folder, "--jobs", "3"}, 60, env);
    RunResult t2 = run(kExe, {"--import-timeout", "2", "check", folder, "--jobs", "1"}, 60, env);
    EXPECT_EQ(t1.out, t2.out);
    EXPECT_EQ(t1.err, t2.err);
    EXPECT_EQ(t1.exitCode, 3);
    EXPECT_NE(t1.out.find("CRASHED"), std::string::npos) << t1.out;
    EXPECT_NE(t1.out.find("TIMEOUT"), std::string::npos) << t1.out;
    // --json: one report, the crash a finding of its file.
    RunResult j = run(kExe, {"--import-timeout", "2", "check", folder, "--json"}, 60, env);
    const json report = json::parse(j.out);
    EXPECT_EQ(report["summary"], summary);
}

TEST(Isolation, ShardsSplitTheSortedFileListAndConcatenateToTheWhole) {
    const std::string folder = kModels + "X";
    RunResult whole = run(kExe, {"check", folder, "--json-lines"}, 120);
    std::vector<json> all = jsonLines(whole.out);
    ASSERT_GE(all.size(), 2u);
    all.pop_back();
    std::vector<std::string> expected;
    for (const json& j : all) expected.push_back(j.dump());
    std::sort(expected.begin(), expected.end());
    std::vector<std::string> got, files;
    for (int i = 1; i <= 4; ++i) {
        RunResult shard = run(kExe, {"check", folder, "--json-lines", "--shard", std::to_string(i) + "/4"}, 120);
        std::vector<json> lines = jsonLines(shard.out);
        ASSERT_FALSE(lines.empty());
        lines.pop_back();
        for (const json& j : lines) {
            got.push_back(j.dump());
            files.push_back(j["file"]);
        }
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected);
    // The rule: shard I of N holds files I, I+N, ... of the sorted list (1-based).
    std::vector<std::string> sorted = files;
    std::sort(sorted.begin(), sorted.end());
    RunResult second = run(kExe, {"check", folder, "--json-lines", "--shard", "2/4"}, 120);
    std::vector<json> lines = jsonLines(second.out);
    lines.pop_back();
    std::vector<std::string> mine;
    for (const json& j : lines) mine.push_back(j["file"]);
    std::sort(mine.begin(), mine.end());
    std::vector<std::string> rule;
    for (size_t k = 1; k < sorted.size(); k += 4) rule.push_back(sorted[k]);
    EXPECT_EQ(mine, rule);
    // An empty shard is no error; a bad one is a usage error.
    EXPECT_EQ(run(kExe, {"check", kBcn, "--json-lines", "--shard", "2/2"}).exitCode, 0);
    for (const char* bad : {"0/3", "4/3", "x/3", "1/0", "1"}) {
        RunResult r = run(kExe, {"check", folder, "--shard", bad});
        EXPECT_EQ(r.exitCode, 2) << bad;
        EXPECT_EQ(lines_(r.err), 1) << r.err;
    }
}

TEST(Isolation, InfoSaysHowFilesAreRead) {
    RunResult a = run(kExe, {"--import-timeout", "7", "info", kBcn});
    EXPECT_NE(a.out.find("import:     isolated worker process (time limit 7 s"), std::string::npos) << a.out;
    RunResult b = run(kExe, {"--no-isolation", "info", kBcn});
    EXPECT_NE(b.out.find("import:     in this process (--no-isolation)"), std::string::npos) << b.out;
}

}  // namespace
}  // namespace rig
