// What rigview ships with, through the binary: its version (--version, and "rigview_version" in
// every JSON report), the data folder found beside the executable (and one line when it is
// missing), the thumbnailer command, and the manual page and shell completions made from the
// option table. The package as a whole (the .deb, cmake --install, pip install .) is checked
// by tests/package_test.sh.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/options.h"
#include "support/run.h"

namespace rig {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kSimpleSkin = kModels + "glTF2/simple_skin/simple_skin.gltf";
const std::string kDataFolder = (fs::path(kExe).parent_path() / "share" / "rigview").string();
const std::string kDemo = kDataFolder + "/demo/rigview_demo.gltf";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> linesOf(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The version `rigview --version` prints.
std::string version() {
    static const std::string v = [] {
        const RunResult r = run(kExe, {"--version"});
        const std::vector<std::string> lines = linesOf(r.out);
        return r.exitCode == 0 && !lines.empty() && lines[0].rfind("rigview ", 0) == 0 ? lines[0].substr(8) : std::string();
    }();
    return v;
}

bool onPath(const std::string& program) {
    return run("/bin/sh", {"-c", "command -v " + program}).exitCode == 0;
}

TEST(Version, PrintsRigviewsAndAssimpsVersions) {
    const RunResult r = run(kExe, {"--version"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::vector<std::string> lines = linesOf(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    // project(VERSION), and "+N.gHASH[.dirty]" from a git checkout away from the release's tag.
    EXPECT_TRUE(std::regex_match(lines[0], std::regex(R"(rigview [0-9]+\.[0-9]+\.[0-9]+(\+[0-9]+\.g[0-9a-f]{7,}(\.dirty)?)?)")))
        << lines[0];
    EXPECT_TRUE(std::regex_match(lines[1], std::regex(R"(Assimp [0-9]+\.[0-9]+\.[0-9]+)"))) << lines[1];
}

TEST(Version, VerboseAddsTheLibrariesTheRendererAndTheDataFolder) {
    const RunResult r = run(kExe, {"--version", "--verbose"}, 60.0, {"RIGVIEW_GL_TEST=1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> lines = linesOf(r.out);
    ASSERT_EQ(lines.size(), 6u) << r.out;
    EXPECT_EQ(lines[0], "rigview " + version());
    EXPECT_EQ(lines[2].rfind("Dear ImGui ", 0), 0u) << lines[2];
    EXPECT_EQ(lines[3].rfind("GLFW ", 0), 0u) << lines[3];
    // A headless context is made (EGL), as render would: its renderer and GL version.
    EXPECT_EQ(lines[4].rfind("OpenGL (headless): EGL ", 0), 0u) << lines[4];
    EXPECT_NE(lines[4].find("OpenGL"), std::string::npos);
    // The build tree's data folder: share/rigview beside the binary.
    EXPECT_EQ(lines[5], "data folder: " + kDataFolder);
}

TEST(Version, VerboseAloneIsAUsageError) {
    const RunResult r = run(kExe, {"--verbose"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(linesOf(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("--verbose goes with --version"), std::string::npos) << r.err;
}

// Every JSON report carries the version --version prints.
TEST(Version, EveryJsonReportCarriesIt) {
    const std::string v = version();
    ASSERT_FALSE(v.empty());
    const std::string dir = testing::tempDir();
    auto expectStamped = [&](const std::vector<std::string>& args, const std::string& text) {
        SCOPED_TRACE(args[0]);
        const json j = json::parse(text, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << text.substr(0, 200);
        EXPECT_EQ(j.value("rigview_version", ""), v) << text.substr(0, 200);
    };
    auto runJson = [&](const std::vector<std::string>& args) {
        const RunResult r = run(kExe, args, 300.0, {"RIGVIEW_GL_TEST=1"});
        EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;  // diff: 1 when the versions differ
        expectStamped(args, r.out);
    };
    runJson({"info", kSimpleSkin, "--json"});
    runJson({"check", kSimpleSkin, "--json"});
    runJson({"check", kSimpleSkin, kDemo, "--json"});
    runJson({"diff", kSimpleSkin, kSimpleSkin, "--json"});
    runJson({"bench", kSimpleSkin, "--ticks", "64", "--json"});
    runJson({"bench", kSimpleSkin, "--instances", "4", "--ticks", "4", "--json"});
    runJson({"compress", kSimpleSkin, "-o", dir + "/compressed.glb", "--json"});
    // check --json-lines: each file's line and the summary line.
    const RunResult lines = run(kExe, {"check", kSimpleSkin, kDemo, "--json-lines"});
    ASSERT_EQ(lines.exitCode, 0) << lines.err;
    const std::vector<std::string> each = linesOf(lines.out);
    ASSERT_EQ(each.size(), 3u) << lines.out;
    for (const std::string& line : each) expectStamped({"check --json-lines"}, line);
    // pose writes its JSON to a file.
    const std::string pose = dir + "/pose.json";
    const RunResult p = run(kExe, {"pose", kSimpleSkin, "-o", pose});
    ASSERT_EQ(p.exitCode, 0) << p.err;
    expectStamped({"pose"}, slurp(pose));
}

// RGBA pixels of a PNG, or empty.
std::vector<unsigned char> readPng(const std::string& path, int& w, int& h) {
    int n = 0;
    unsigned char* px = stbi_load(path.c_str(), &w, &h, &n, 4);
    if (!px) return {};
    std::vector<unsigned char> out(px, px + static_cast<size_t>(w) * h * 4);
    stbi_image_free(px);
    return out;
}

TEST(Thumbnail, ASquareFramedPreviewOnATransparentBackground) {
    const std::string dir = testing::tempDir();
    for (const auto& [model, size] : std::vector<std::pair<std::string, int>>{
             {kDemo, 128}, {kModels + "FBX/huesitos.fbx", 96}, {kModels + "X/BCN_Epileptic.X", 64}}) {
        SCOPED_TRACE(model);
        const std::string out = dir + "/thumb-" + std::to_string(size);  // no extension: file managers pass such names
        const RunResult r = run(kExe, {"thumbnail", model, out, "--size", std::to_string(size)}, 120.0, {"RIGVIEW_GL_TEST=1"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.err, "");
        int w = 0, h = 0;
        const std::vector<unsigned char> px = readPng(out, w, h);
        ASSERT_EQ(w, size);
        ASSERT_EQ(h, size);
        // Transparent corners, the model drawn opaque, and framed: it reaches near two opposite
        // edges (render's framing: 85% of the side that binds).
        int minX = size, maxX = -1, minY = size, maxY = -1;
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                if (px[(static_cast<size_t>(y) * w + x) * 4 + 3] != 255) continue;
                minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y), maxY = std::max(maxY, y);
            }
        }
        EXPECT_EQ(px[3], 0);
        EXPECT_EQ(px[(static_cast<size_t>(size) * size - 1) * 4 + 3], 0);
        ASSERT_GE(maxX, 0) << "nothing drawn";
        const int extent = std::max(maxX - minX, maxY - minY) + 1;
        EXPECT_GE(extent, size * 7 / 10) << "not framed";
        EXPECT_LE(extent, size * 95 / 100) << "not framed";
    }
}

TEST(Thumbnail, BadInputIsOneLineAndNoOutput) {
    const std::string dir = testing::tempDir();
    {
        std::ofstream(dir + "/broken.gltf") << slurp(kSimpleSkin).substr(0, 200);
    }
    const std::string out = dir + "/out.png";
    RunResult r = run(kExe, {"thumbnail", dir + "/broken.gltf", out, "--size", "64"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(linesOf(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("broken.gltf"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
    r = run(kExe, {"thumbnail", dir + "/missing.fbx", out});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(linesOf(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(fs::exists(out));
    r = run(kExe, {"thumbnail", kSimpleSkin, out, "--size", "4"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(linesOf(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(fs::exists(out));
    // Never over its own input.
    const std::string copy = dir + "/model.gltf";
    fs::copy_file(kSimpleSkin, copy);
    r = run(kExe, {"thumbnail", copy, copy});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(slurp(copy), slurp(kSimpleSkin));
}

// A binary copied without its data folder says so in one line, and one copied with it works:
// the data is found beside the executable, not through the tree it was built from.
TEST(DataFolder, FoundBesideTheExecutableAndOneLineWhenMissing) {
    const std::string dir = testing::tempDir();
    fs::create_directories(dir + "/lonely/bin");
    const std::string lonely = dir + "/lonely/bin/rigview";
    fs::copy_file(kExe, lonely);
    RunResult r = run(lonely, {"render", kDemo, "-o", dir + "/lonely.png", "--size", "64x48"}, 120.0, {"RIGVIEW_GL_TEST=1"});
    EXPECT_EQ(r.exitCode, 3);
    ASSERT_EQ(linesOf(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("data folder was not found (no " + dir + "/lonely/share/rigview"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--env"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/lonely.png"));
    r = run(lonely, {"thumbnail", kDemo, dir + "/lonely-thumb.png"}, 120.0, {"RIGVIEW_GL_TEST=1"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(linesOf(r.err).size(), 1u) << r.err;
    r = run(lonely, {}, 60.0);  // the viewer with no model: no demo (before any window)
    EXPECT_EQ(r.exitCode, 3);
    ASSERT_EQ(linesOf(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("no demo"), std::string::npos) << r.err;
    r = run(lonely, {"--version", "--verbose"}, 60.0, {"RIGVIEW_GL_TEST=1"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("data folder: none: "), std::string::npos) << r.out;
    // --env lights it without the data folder; commands that need no data work as before.
    r = run(lonely, {"render", kDemo, "-o", dir + "/env.png", "--size", "64x48", "--env", kDataFolder + "/env/studio.hdr"}, 120.0,
            {"RIGVIEW_GL_TEST=1"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(run(lonely, {"info", kSimpleSkin}).exitCode, 0);

    // The installed layout: bin/ and share/rigview beside it, in a folder of its own.
    fs::create_directories(dir + "/prefix/bin");
    fs::create_directories(dir + "/prefix/share");
    fs::copy_file(kExe, dir + "/prefix/bin/rigview");
    fs::copy(kDataFolder, dir + "/prefix/share/rigview", fs::copy_options::recursive);
    r = run(dir + "/prefix/bin/rigview", {"render", kDemo, "-o", dir + "/installed.png", "--size", "64x48"}, 120.0,
            {"RIGVIEW_GL_TEST=1"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const RunResult here = run(kExe, {"render", kDemo, "-o", dir + "/build.png", "--size", "64x48"}, 120.0, {"RIGVIEW_GL_TEST=1"});
    ASSERT_EQ(here.exitCode, 0) << here.err;
    EXPECT_EQ(slurp(dir + "/installed.png"), slurp(dir + "/build.png"));
}

// The manual page: roff, every visible subcommand and option of the table in it; groff reads
// it without a warning.
TEST(ManPage, MadeFromTheOptionTable) {
    const RunResult r = run(kExe, {"--help-man"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.rfind(".\\\" The manual page of rigview", 0), 0u);
    EXPECT_NE(r.out.find("\n.TH RIGVIEW 1 \"\" \"rigview " + version() + "\""), std::string::npos);
    for (const char* section : {".SH NAME", ".SH SYNOPSIS", ".SH COMMANDS", ".SH ARGUMENTS", ".SH OPTIONS", ".SH FILES",
                                ".SH ENVIRONMENT", ".SH EXIT STATUS"}) {
        EXPECT_NE(r.out.find(std::string("\n") + section + "\n"), std::string::npos) << section;
    }
    for (cli::Command c : cli::kCommands) {
        if (cli::hidden(c) || c == cli::Command::Viewer) continue;
        EXPECT_NE(r.out.find(std::string("\\fBrigview\\fR \\fB") + cli::commandName(c) + "\\fR"), std::string::npos)
            << cli::commandName(c);
    }
    for (const cli::OptionSpec& spec : cli::optionTable()) {
        const cli::OptionSummary o = cli::summarize(spec);
        if (o.hidden || spec.names[0] != '-') continue;
        std::string roffName;
        for (char ch : o.names.back()) roffName += ch == '-' ? std::string("\\-") : std::string(1, ch);
        EXPECT_NE(r.out.find("\\fB" + roffName + "\\fR"), std::string::npos) << o.names.back();
    }
    EXPECT_EQ(r.out.find("__import-worker"), std::string::npos);
    if (!onPath("groff")) GTEST_SKIP() << "groff is not installed (Debian: groff-base)";
    const std::string page = testing::tempDir() + "/rigview.1";
    std::ofstream(page) << r.out;
    const RunResult g = run("/bin/sh", {"-c", "groff -man -Tutf8 -ww -z '" + page + "'"});
    EXPECT_EQ(g.exitCode, 0);
    EXPECT_EQ(g.err, "") << "groff warns about the page";
}

// Each completion script names every visible subcommand and each one's options, and its shell
// parses it.
TEST(Completion, EachShellsScriptFromTheOptionTable) {
    for (const std::string shell : {"bash", "zsh", "fish"}) {
        SCOPED_TRACE(shell);
        const RunResult r = run(kExe, {"--completion", shell});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        for (cli::Command c : cli::kCommands) {
            if (cli::hidden(c) || c == cli::Command::Viewer) continue;
            EXPECT_NE(r.out.find(cli::commandName(c)), std::string::npos) << cli::commandName(c);
        }
        for (const cli::OptionSpec& spec : cli::optionTable()) {
            const cli::OptionSummary o = cli::summarize(spec);
            if (o.hidden || spec.names[0] != '-') continue;
            const std::string& name = o.names.back();  // the long name
            // fish writes "-l name", the others the name itself
            const std::string want = shell == "fish" ? "-l " + name.substr(2) : name;
            EXPECT_NE(r.out.find(want), std::string::npos) << name;
        }
        EXPECT_EQ(r.out.find("__import-worker"), std::string::npos);
        // Model files: every format, .fbx and .bvh among them; render's output: .png.
        EXPECT_NE(r.out.find("fbx"), std::string::npos);
        EXPECT_NE(r.out.find("bvh"), std::string::npos);
        EXPECT_NE(r.out.find("png"), std::string::npos);
        if (!onPath(shell)) {
            std::printf("%s is not installed: its script is not parsed\n", shell.c_str());
            continue;
        }
        const std::string script = testing::tempDir() + "/completion." + shell;
        std::ofstream(script) << r.out;
        const std::string check = shell == "fish" ? "fish --no-execute '" + script + "'" : shell + " -n '" + script + "'";
        const RunResult parsed = run("/bin/sh", {"-c", check});
        EXPECT_EQ(parsed.exitCode, 0) << parsed.err;
    }
    const RunResult bad = run(kExe, {"--completion", "tcsh"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_EQ(linesOf(bad.err).size(), 1u) << bad.err;
}

}  // namespace
}  // namespace rig
