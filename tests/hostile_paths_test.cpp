// Files that are not what their names say (issue 28), end to end through the rigview binary on
// copies of assimp's test models in a temporary folder:
// - a resource (glTF buffer, image) that is a hard link, or not a regular file (a FIFO, a link
//   to /dev/zero), is not read even inside the model's folder;
// - `check FOLDER` skips, with one line each, symbolic links that lead out of the folder;
// - an output that exists and is not a regular file (a FIFO with a reader that never reads)
//   is refused with one line, never waited on.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run.h"

namespace rig {
namespace {

namespace fs = std::filesystem;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kBox = kModels + "glTF2/BoxTextured-glTF/";  // BoxTextured.gltf, BoxTextured0.bin, CesiumLogoFlat.png
const std::string kSimpleSkin = kModels + "glTF2/simple_skin/simple_skin.gltf";

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// root/model: a copy of BoxTextured; root/outside: copies of its buffer and image.
std::string boxFolder(const std::string& root) {
    fs::create_directories(root + "/model");
    fs::create_directories(root + "/outside");
    for (const char* f : {"BoxTextured.gltf", "BoxTextured0.bin", "CesiumLogoFlat.png"}) {
        fs::copy_file(kBox + f, root + "/model/" + f);
        fs::copy_file(kBox + f, root + "/outside/" + f);
    }
    return root + "/model/BoxTextured.gltf";
}

void replaceWithHardLink(const std::string& root, const std::string& name) {
    fs::remove(root + "/model/" + name);
    fs::create_hard_link(root + "/outside/" + name, root + "/model/" + name);
}

// Hard links: the folder rule and Landlock judge a file by the name it is opened with, and a
// hard link inside the folder names the same data as a file that may lie anywhere. A resource
// file with more than one link is therefore refused (the model's own file is what the user
// named, and is read); --allow-external-paths reads it.
TEST(HostilePaths, HardLinkedResourcesAreNotRead) {
    const std::string root = testing::tempDir();
    const std::string model = boxFolder(root);
    ASSERT_EQ(run(kExe, {"info", model}).exitCode, 0);
    replaceWithHardLink(root, "BoxTextured0.bin");
    for (const bool isolated : {true, false}) {
        const std::vector<std::string> mode = isolated ? std::vector<std::string>{} : std::vector<std::string>{"--no-isolation"};
        std::vector<std::string> args = mode;
        args.insert(args.end(), {"info", model});
        RunResult r = run(kExe, args, 60);
        EXPECT_EQ(r.exitCode, 3) << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_TRUE(has(r.err, "BoxTextured0.bin (a file with 2 hard links counts as outside")) << r.err;
        EXPECT_TRUE(has(r.err, "--allow-external-paths")) << r.err;
        args = mode;
        args.insert(args.end(), {"--allow-external-paths", "info", model});
        EXPECT_EQ(run(kExe, args, 60).exitCode, 0);
    }
    // The image hard-linked: the model loads, the texture is refused with one warning line, and
    // check reports it (external-path-refused).
    fs::remove(root + "/model/BoxTextured0.bin");
    fs::copy_file(kBox + "BoxTextured0.bin", root + "/model/BoxTextured0.bin");
    replaceWithHardLink(root, "CesiumLogoFlat.png");
    RunResult t = run(kExe, {"info", model});
    EXPECT_EQ(t.exitCode, 0) << t.err;
    EXPECT_EQ(lines(t.err), 1) << t.err;
    EXPECT_TRUE(has(t.err, "CesiumLogoFlat.png (a file with 2 hard links")) << t.err;
    RunResult c = run(kExe, {"check", "--json", model});
    EXPECT_TRUE(has(c.out, "external-path-refused")) << c.out;
    // The model file itself hard-linked (the user named it): read as ever.
    fs::remove(root + "/model/CesiumLogoFlat.png");
    fs::copy_file(kBox + "CesiumLogoFlat.png", root + "/model/CesiumLogoFlat.png");
    fs::create_hard_link(model, root + "/model/again.gltf");
    RunResult m = run(kExe, {"info", model});
    EXPECT_EQ(m.exitCode, 0) << m.err;
    EXPECT_EQ(m.err, "");
}

// A buffer that is a FIFO or a link to /dev/zero inside the folder: opening it would block or
// never end. Refused at once in both modes, also with --allow-external-paths.
TEST(HostilePaths, SpecialFilesAsBuffersAreRefusedAtOnce) {
    const std::string root = testing::tempDir();
    const std::string model = boxFolder(root);
    const std::string buffer = root + "/model/BoxTextured0.bin";
    for (const std::string kind : {"fifo", "zero"}) {
        fs::remove(buffer);
        if (kind == "fifo") {
            ASSERT_EQ(::mkfifo(buffer.c_str(), 0600), 0);
        } else {
            fs::create_symlink("/dev/zero", buffer);
        }
        for (const std::vector<std::string>& mode :
             {std::vector<std::string>{"--import-timeout", "60"}, std::vector<std::string>{"--no-isolation"},
              std::vector<std::string>{"--no-isolation", "--allow-external-paths"}}) {
            std::vector<std::string> args = mode;
            args.insert(args.end(), {"info", model});
            RunResult r = run(kExe, args, 30);
            ASSERT_FALSE(r.timedOut) << kind << ": waited on the buffer";
            EXPECT_EQ(r.exitCode, 3) << kind << ": " << r.err;
            EXPECT_EQ(lines(r.err), 1) << r.err;
            EXPECT_TRUE(has(r.err, "BoxTextured0.bin")) << r.err;
        }
    }
}

// `check FOLDER` reads the folder: a symbolic link in it that leads out is skipped (one line on
// stderr each) and never imported, so the worker's sandbox is not widened to its target. Links
// that stay inside are checked.
TEST(HostilePaths, CheckOfAFolderSkipsLinksThatLeadOut) {
    const std::string root = testing::tempDir();
    fs::create_directories(root + "/lib/sub");
    fs::create_directories(root + "/elsewhere");
    fs::copy_file(kSimpleSkin, root + "/lib/sub/skin.gltf");
    fs::copy_file(kSimpleSkin, root + "/elsewhere/secret.gltf");
    fs::create_symlink(root + "/elsewhere/secret.gltf", root + "/lib/out.gltf");
    fs::create_symlink("../../elsewhere/secret.gltf", root + "/lib/sub/up.gltf");
    fs::create_symlink("sub/skin.gltf", root + "/lib/in.gltf");
    for (const std::string lib : {root + "/lib", root + "/lib/"}) {
        RunResult r = run(kExe, {"check", lib}, 60);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(lines(r.err), 2) << r.err;
        EXPECT_TRUE(has(r.err, "out.gltf: skipped, a symbolic link to " + root + "/elsewhere/secret.gltf")) << r.err;
        EXPECT_TRUE(has(r.err, "up.gltf: skipped")) << r.err;
        EXPECT_FALSE(has(r.out, "secret")) << r.out;
        EXPECT_FALSE(has(r.out, "out.gltf")) << r.out;
        EXPECT_TRUE(has(r.out, "in.gltf")) << r.out;
        EXPECT_TRUE(has(r.out, "sub/skin.gltf")) << r.out;
    }
    // Named on the command line, a link is the user's choice: checked.
    RunResult one = run(kExe, {"check", root + "/lib/out.gltf"}, 60);
    EXPECT_EQ(one.exitCode, 0) << one.err;
}

// A model whose name is long but valid (245 bytes): its side files' names (the clip markers,
// "<model>.markers.json") are longer than a name may be, so none exists; the model imports.
TEST(HostilePaths, AModelWithALongNameImports) {
    const std::string dir = testing::tempDir();
    const std::string model = dir + "/" + std::string(240, 'x') + ".gltf";
    fs::copy_file(kSimpleSkin, model);
    for (const char* mode : {"--import-timeout=60", "--no-isolation"}) {
        RunResult r = run(kExe, {mode, "info", model}, 60);
        EXPECT_EQ(r.exitCode, 0) << mode << ": " << r.err;
        EXPECT_EQ(r.err, "");
    }
}

// A FIFO whose reader holds it open and never reads would block a write for good (and its
// reader leaving would kill rigview with SIGPIPE). Every command that writes a file refuses it
// with one line and exit 4.
TEST(HostilePaths, OutputsThatAreNotRegularFilesAreRefusedNotWaitedOn) {
    const std::string dir = testing::tempDir();
    const std::vector<std::string> names = {"a.bvh", "b.gltf", "c.json", "d.png", "e.png"};
    for (const std::string& n : names) ASSERT_EQ(::mkfifo((dir + "/" + n).c_str(), 0600), 0);
    const pid_t reader = ::fork();
    ASSERT_GE(reader, 0);
    if (reader == 0) {
        for (const std::string& n : names) ::open((dir + "/" + n).c_str(), O_RDONLY | O_NONBLOCK);
        ::sleep(300);
        ::_exit(0);
    }
    ::usleep(200 * 1000);
    const std::vector<std::vector<std::string>> commands = {
        {"export", kModels + "BVH/01_01.bvh", "-o", dir + "/a.bvh"},
        {"export", kSimpleSkin, "-o", dir + "/b.gltf"},
        {"pose", kSimpleSkin, "-o", dir + "/c.json"},
        {"render", kSimpleSkin, "-o", dir + "/d.png", "--size", "64x48"},
        {"check", kSimpleSkin, "--sheet", dir + "/e.png"},
    };
    for (const std::vector<std::string>& args : commands) {
        RunResult r = run(kExe, args, 60);
        EXPECT_FALSE(r.timedOut) << args[0] << ": waited on the FIFO";
        EXPECT_FALSE(r.signaled) << args[0] << ": signal " << r.signal;
        EXPECT_EQ(r.exitCode, 4) << args[0] << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_TRUE(has(r.err, args[3] + ": cannot write the output file (not a regular file (a named pipe)")) << r.err;
    }
    ::kill(reader, SIGKILL);
    ::waitpid(reader, nullptr, 0);
    // The memory devices still take output (or refuse it at once).
    EXPECT_EQ(run(kExe, {"export", kModels + "BVH/01_01.bvh", "-o", "/dev/null"}).exitCode, 0);
    EXPECT_EQ(run(kExe, {"export", kModels + "BVH/01_01.bvh", "-o", "/dev/full"}).exitCode, 4);
}

}  // namespace
}  // namespace rig
