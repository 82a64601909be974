// Safe outputs (issue 9): JSON is always valid, text for the terminal is escaped, outputs are
// written to a temporary file and renamed (never over an input, never half a file), export's
// --fps is bounded, and resources outside the model's folder are not read. End to end through
// the rigview binary on glTF files the tests write, plus the helpers themselves.
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/gltf_writer.h"
#include "support/run.h"
#include "util/input_file.h"
#include "util/json_out.h"
#include "util/output_file.h"
#include "util/paths.h"
#include "util/text.h"

namespace rig {
namespace {

namespace fs = std::filesystem;
namespace g = testing::gltf;
using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kSimpleSkin = kModels + "glTF2/simple_skin/simple_skin.gltf";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void spit(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

// Temporary files OutputFile leaves in `dir` (there must be none after any command).
int tempFiles(const std::string& dir) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().find(".rigview-") != std::string::npos;
    return n;
}

bool hasByte(const std::string& s, unsigned char b) { return s.find(static_cast<char>(b)) != std::string::npos; }

// A small rig: "root" -> joint (at y=1) and "body" (a triangle skinned to the joint); clip
// "spin" turns the joint 90 degrees about Z over one second.
g::Document smallRig(const std::string& jointName = "joint", const std::string& meshName = "tri") {
    g::Document d;
    d.nodes.resize(3);
    d.nodes[0].name = "root";
    d.nodes[0].children = {1, 2};
    d.nodes[1].name = jointName;
    d.nodes[1].translation = glm::vec3(0, 1, 0);
    d.nodes[2].name = "body";
    d.nodes[2].mesh = 0;
    d.nodes[2].skin = 0;
    g::Mesh m;
    m.name = meshName;
    m.positions = {{0, 1, 0}, {1, 1, 0}, {0, 2, 0}};
    m.indices = {0, 1, 2};
    m.influences = {{{0, 1.0f}}, {{0, 1.0f}}, {{0, 1.0f}}};
    d.meshes.push_back(m);
    g::Skin s;
    s.joints = {1};
    s.inverseBind = g::inverseBindFromNodes(d, s.joints);
    d.skins.push_back(s);
    g::Animation a;
    a.name = "spin";
    g::Channel c;
    c.node = 1;
    c.path = "rotation";
    c.times = {0.0f, 1.0f};
    g::appendQuat(c.values, glm::quat(1, 0, 0, 0));
    g::appendQuat(c.values, glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)));
    a.channels.push_back(c);
    d.animations.push_back(a);
    return d;
}

// `doc` as glTF text with every `placeholder` replaced by `raw` (bytes the JSON writer would
// refuse: invalid UTF-8, or escapes such as \u001b written as they stand).
std::string withRaw(const std::string& text, const std::string& placeholder, const std::string& raw) {
    std::string s = text;
    for (size_t at = s.find(placeholder); at != std::string::npos; at = s.find(placeholder, at + raw.size())) {
        s.replace(at, placeholder.size(), raw);
    }
    return s;
}


std::string unbase64(const std::string& in) {
    std::string out;
    uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
              : c == '+' ? 62 : c == '/' ? 63 : -1;
        if (v < 0) continue;
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return out;
}

// smallRig() written to `model` with its buffer in a separate file: the bytes go to
// `bufferFile` (if not empty) and the glTF refers to them as `uri`.
void writeWithExternalBuffer(const std::string& model, const std::string& uri, const std::string& bufferFile) {
    json j = json::parse(g::toJson(smallRig()));
    const std::string data = j["buffers"][0]["uri"].get<std::string>();
    if (!bufferFile.empty()) spit(bufferFile, unbase64(data.substr(data.find(',') + 1)));
    j["buffers"][0]["uri"] = uri;
    spit(model, j.dump(1));
}

bool hasFinding(const json& fileReport, const std::string& code, const std::string& severity) {
    for (const json& f : fileReport["findings"]) {
        if (f["code"] == code && f["severity"] == severity) return true;
    }
    return false;
}

// ---- 1. JSON is always valid; 2. text for the terminal is escaped -------------------------

TEST(SafeText, TerminalTextEscapesControlsAndReplacesInvalidUtf8) {
    EXPECT_EQ(text::forTerminal("a\x1b[31mb"), "a\\x1B[31mb");
    EXPECT_EQ(text::forTerminal("x\ny\tz\x7f"), "x\\x0Ay\\x09z\\x7F");
    EXPECT_EQ(text::forTerminal("\xC2\x9B" "2J"), "\\u009B2J");  // the one-character CSI (U+009B)
    EXPECT_EQ(text::forTerminal("caf\xC3\xA9 \xE2\x9C\x93"), "caf\xC3\xA9 \xE2\x9C\x93");
    EXPECT_EQ(text::forTerminal("ab\xFF" "c"), "ab\xEF\xBF\xBD" "c");
    EXPECT_EQ(text::validUtf8("ab\xFF\xFE" "c"), "ab\xEF\xBF\xBD\xEF\xBF\xBD" "c");
    EXPECT_EQ(text::validUtf8("x\xE2\x82"), "x\xEF\xBF\xBD");                   // truncated: one
    EXPECT_EQ(text::validUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");         // overlong: two
    EXPECT_EQ(text::validUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
    EXPECT_EQ(text::validUtf8("\xF4\x90\x80\x80").size(), 12u);                 // past U+10FFFF
    EXPECT_TRUE(text::isValidUtf8("\xF0\x9F\x98\x80"));
    EXPECT_FALSE(text::isValidUtf8("\xF0\x9F\x98"));
}

TEST(SafeJson, NonFiniteNumbersBecomeNullAndBadStringsAreReplaced) {
    json j = {{"a", std::numeric_limits<double>::quiet_NaN()},
              {"b", {1.5, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}},
              {"name", "ok\xFFok"}};
    j["key\xFE"] = 1;
    jsonout::Stats st;
    const std::string text = jsonout::dump(j, 2, st);
    EXPECT_EQ(st.nonFinite, 3u);
    EXPECT_EQ(st.invalidUtf8, 2u);
    const json back = json::parse(text);  // throws (fails the test) if not valid JSON
    EXPECT_TRUE(back["a"].is_null());
    EXPECT_EQ(back["b"][0].get<double>(), 1.5);
    EXPECT_TRUE(back["b"][1].is_null());
    EXPECT_EQ(back["name"], "ok\xEF\xBF\xBDok");
    EXPECT_TRUE(back.contains("key\xEF\xBF\xBD"));
    std::string out;
    jsonout::appendNumber(out, std::nan(""), st);
    out += ',';
    jsonout::appendString(out, "q\"\x01\xC3", st);
    EXPECT_EQ(out, "null,\"q\\\"\\u0001\xEF\xBF\xBD\"");
}

// A rig whose names hold invalid UTF-8 and terminal escape sequences, in a file whose own name
// holds one too: every output stays valid JSON, every line on the terminal stays harmless.
TEST(SafeOutputCli, BadNamesGiveValidJsonAndEscapedText) {
    const std::string dir = testing::tempDir();
    g::Document d = smallRig("@@J@@", "@@M@@");
    d.animations[0].name = "@@C@@";
    std::string text = g::toJson(d);
    text = withRaw(text, "@@J@@", "bad\xFF\xFEjoint");
    text = withRaw(text, "@@M@@", "esc\\u001b[31mred\\u0007");
    text = withRaw(text, "@@C@@", "clip\\u001b]0;owned\\u0007\xC3");
    const std::string model = dir + "/m\x1b[2J.gltf";
    spit(model, text);

    RunResult info = run(kExe, {"info", "--json", model});
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const json ji = json::parse(info.out);
    EXPECT_EQ(ji["meshes"][0]["name"], "esc\x1b[31mred\x07");  // kept, escaped by JSON itself
    EXPECT_EQ(ji["clips"][0]["name"], "clip\x1b]0;owned\x07\xEF\xBF\xBD");

    RunResult check = run(kExe, {"check", "--json", model});
    ASSERT_TRUE(check.exitCode == 0 || check.exitCode == 1) << check.err;
    EXPECT_NO_THROW(json::parse(check.out)) << check.out;

    const std::string pose = dir + "/pose.json";
    RunResult p = run(kExe, {"pose", model, "-o", pose, "--time", "0.5"});
    ASSERT_EQ(p.exitCode, 0) << p.err;
    const json jp = json::parse(slurp(pose));
    EXPECT_EQ(jp["joints"][0]["name"], "bad\xEF\xBF\xBD\xEF\xBF\xBDjoint");
    EXPECT_EQ(jp["clip"], "clip\x1b]0;owned\x07\xEF\xBF\xBD");

    RunResult t = run(kExe, {"info", model});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    EXPECT_FALSE(hasByte(t.out, 0x1b)) << t.out;
    EXPECT_FALSE(hasByte(t.out, 0x07)) << t.out;
    EXPECT_TRUE(text::isValidUtf8(t.out));
    EXPECT_NE(t.out.find("esc\\x1B[31mred\\x07"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("m\\x1B[2J.gltf"), std::string::npos) << t.out;

    RunResult ct = run(kExe, {"check", model, dir});
    EXPECT_FALSE(hasByte(ct.out + ct.err, 0x1b)) << ct.out << ct.err;
    EXPECT_TRUE(text::isValidUtf8(ct.out + ct.err));
    EXPECT_NE(ct.out.find("m\\x1B[2J.gltf"), std::string::npos) << ct.out;

    RunResult e = run(kExe, {"pose", model, "-o", pose, "--clip", "no\x1b[1mclip"});
    EXPECT_EQ(e.exitCode, 2);
    EXPECT_EQ(lines(e.err), 1) << e.err;
    EXPECT_FALSE(hasByte(e.err, 0x1b)) << e.err;
    EXPECT_NE(e.err.find("no\\x1B[1mclip"), std::string::npos) << e.err;
}

// A node transform so large that world matrices overflow to infinity (and 0 * inf to NaN):
// the posed positions and joint matrices are not finite. pose writes them as null with one
// warning line; check --json stays valid too.
TEST(SafeOutputCli, NonFinitePoseIsValidJsonWithNullsAndOneWarning) {
    const std::string dir = testing::tempDir();
    g::Document d = smallRig();
    d.nodes[0].scale = glm::vec3(1e20f);
    d.nodes[1].scale = glm::vec3(1e20f);
    d.nodes[2].scale = glm::vec3(1e20f);
    d.skins[0].inverseBind = {glm::mat4(1.0f)};
    const std::string model = dir + "/huge.gltf";
    ASSERT_TRUE(g::write(d, model));
    const std::string out = dir + "/pose.json";
    RunResult r = run(kExe, {"pose", model, "-o", out, "--time", "0.5"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("non-finite"), std::string::npos) << r.err;
    const json j = json::parse(slurp(out));
    size_t nulls = 0;
    for (const json& v : j["meshes"][0]["positions"]) nulls += v.is_null();
    for (const json& v : j["joints"][0]["world"]) nulls += v.is_null();
    EXPECT_GT(nulls, 0u);
    EXPECT_NE(r.err.find(std::to_string(nulls) + " non-finite"), std::string::npos) << r.err << nulls;

    RunResult c = run(kExe, {"check", "--json", model});
    EXPECT_NO_THROW(json::parse(c.out)) << c.out;
    RunResult i = run(kExe, {"info", "--json", model});
    EXPECT_NO_THROW(json::parse(i.out)) << i.out;
}

// An animated scale key near the float limit: the posed mesh overflows only at that time.
TEST(SafeOutputCli, AnimatedScaleOverflowPosesToNull) {
    const std::string dir = testing::tempDir();
    g::Document d = smallRig();
    g::Channel sc;
    sc.node = 1;
    sc.path = "scale";
    sc.times = {0.0f, 1.0f};
    g::appendVec3(sc.values, glm::vec3(1.0f));
    g::appendVec3(sc.values, glm::vec3(3e38f));
    d.animations[0].channels.push_back(sc);
    const std::string model = dir + "/grow.gltf";
    ASSERT_TRUE(g::write(d, model));
    const std::string out = dir + "/pose.json";
    RunResult start = run(kExe, {"pose", model, "-o", out, "--time", "0"});
    ASSERT_EQ(start.exitCode, 0) << start.err;
    EXPECT_EQ(start.err, "");  // all finite at the start: no warning
    RunResult end = run(kExe, {"pose", model, "-o", out, "--time", "1"});
    ASSERT_EQ(end.exitCode, 0) << end.err;
    EXPECT_EQ(lines(end.err), 1) << end.err;
    const json j = json::parse(slurp(out));
    size_t nulls = 0;
    for (const json& v : j["meshes"][0]["positions"]) nulls += v.is_null();
    EXPECT_GT(nulls, 0u);
}

// Vertices near the float limit: the bind-pose check measures an infinite displacement (a
// second skin binds the joint in a pose twice as large as the first's). The report writes it as
// null and says so in a finding (non-finite-output).
TEST(SafeOutputCli, CheckReportsNonFiniteValuesAsNullWithAFinding) {
    const std::string dir = testing::tempDir();
    g::Document d = smallRig();
    d.meshes[0].positions = {{-3e38f, 1, 0}, {3e38f, 1, 0}, {0, 3e38f, 0}};
    d.meshes.push_back(d.meshes[0]);
    g::Node second;
    second.name = "body2";
    second.mesh = 1;
    second.skin = 1;
    d.nodes[0].children.push_back(static_cast<int>(d.nodes.size()));
    d.nodes.push_back(second);
    d.skins.push_back(d.skins[0]);
    d.skins[1].inverseBind = {glm::mat4(2.0f)};
    const std::string model = dir + "/edge.gltf";
    ASSERT_TRUE(g::write(d, model));
    RunResult c = run(kExe, {"check", "--json", model});
    EXPECT_EQ(c.exitCode, 1) << c.err;
    const json j = json::parse(c.out)["files"][0];
    const json* extra = nullptr;
    size_t nulls = 0;
    for (const json& f : j["findings"]) {
        if (f["code"] == "non-finite-output") extra = &f;
        nulls += f["value"].is_null();
    }
    ASSERT_NE(extra, nullptr) << c.out;
    EXPECT_GT(nulls, 0u);
    EXPECT_EQ((*extra)["count"].get<size_t>(), nulls);
    EXPECT_EQ((*extra)["severity"], "warning");
}

// Vertices that are NaN in the file (non-finite-vertices) pose to NaN: null in the JSON.
TEST(SafeOutputCli, NaNVerticesPoseToNull) {
    const std::string dir = testing::tempDir();
    g::Document d = smallRig();
    d.meshes[0].positions[1] = glm::vec3(std::numeric_limits<float>::quiet_NaN(), 1.0f, 0.0f);
    const std::string model = dir + "/nanvert.gltf";
    ASSERT_TRUE(g::write(d, model));
    const std::string out = dir + "/pose.json";
    RunResult r = run(kExe, {"pose", model, "-o", out, "--time", "0.5"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    const json j = json::parse(slurp(out));
    // (Assimp may merge the NaN vertex away from its triangle; what stays must be null.)
    size_t nulls = 0, numbers = 0;
    for (const json& v : j["meshes"][0]["positions"]) (v.is_null() ? nulls : numbers) += 1;
    EXPECT_GT(nulls, 0u);
    EXPECT_GT(numbers, 0u);
    RunResult c = run(kExe, {"check", "--json", model});
    EXPECT_EQ(c.exitCode, 1);
    const json jc = json::parse(c.out)["files"][0];
    bool nonFiniteVertices = false;
    for (const json& f : jc["findings"]) nonFiniteVertices = nonFiniteVertices || f["code"] == "non-finite-vertices";
    EXPECT_TRUE(nonFiniteVertices) << c.out;
}

// ---- 3. outputs: never over an input, never half a file ---------------------------------

TEST(SafeOutputCli, PoseOverItsOwnInputIsRefused) {
    const std::string dir = testing::tempDir();
    const std::string model = dir + "/m.obj";
    fs::copy_file(kModels + "OBJ/spider.obj", model);
    const std::string before = slurp(model);
    fs::create_symlink(model, dir + "/link.obj");
    fs::create_hard_link(model, dir + "/hard.obj");
    const std::string cwdRelative = fs::relative(model).string();  // m.obj as another path
    for (const std::string& out : {model, dir + "/./m.obj", dir + "/link.obj", dir + "/hard.obj", cwdRelative}) {
        RunResult r = run(kExe, {"pose", model, "-o", out});
        EXPECT_EQ(r.exitCode, 2) << out << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("is the input file"), std::string::npos) << r.err;
    }
    EXPECT_EQ(slurp(model), before);
    EXPECT_TRUE(fs::is_symlink(dir + "/link.obj"));
    EXPECT_EQ(tempFiles(dir), 0);
    // A different file is fine.
    EXPECT_EQ(run(kExe, {"pose", model, "-o", dir + "/posed.obj"}).exitCode, 0);
}

// Any texture of the model is an input, not only the base colour: ClearCoatTest's labels image
// is its emissive texture.
TEST(SafeOutputCli, RenderOverAnyTextureOfTheModelIsRefused) {
    const std::string dir = testing::tempDir();
    const std::string src = kModels + "glTF2/ClearCoat-glTF/";
    for (const char* f : {"ClearCoatTest.gltf", "ClearCoatTest.bin", "ClearCoatLabels.png"}) fs::copy_file(src + f, dir + "/" + f);
    const std::string labels = dir + "/ClearCoatLabels.png";
    const std::string before = slurp(labels);
    RunResult r = run(kExe, {"render", dir + "/ClearCoatTest.gltf", "-o", labels, "--size", "64x48"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("is the texture"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(labels), before);
}

TEST(SafeOutputCli, ExportOverItsInputOrAnAnimFileIsRefused) {
    const std::string dir = testing::tempDir();
    const std::string bvh = dir + "/m.bvh";
    fs::copy_file(kModels + "BVH/01_01.bvh", bvh);
    const std::string before = slurp(bvh);
    RunResult r = run(kExe, {"export", bvh, "-o", bvh});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    RunResult a = run(kExe, {"export", bvh, "--anim", bvh, "-o", dir + "/../" + fs::path(dir).filename().string() + "/m.bvh"});
    EXPECT_EQ(a.exitCode, 2) << a.err;
    EXPECT_EQ(slurp(bvh), before);
    EXPECT_EQ(tempFiles(dir), 0);
}

TEST(SafeOutputCli, RenderToAFullDeviceFailsWithExit4) {
    RunResult r = run(kExe, {"render", kSimpleSkin, "-o", "/dev/full", "--size", "64x48"});
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("/dev/full"), std::string::npos) << r.err;
    RunResult e = run(kExe, {"export", kModels + "BVH/01_01.bvh", "-o", "/dev/full"});
    EXPECT_EQ(e.exitCode, 4) << e.err;
    EXPECT_EQ(lines(e.err), 1) << e.err;
    // /dev/stdout redirected to a file by the shell is written there, appended (not replaced).
    const std::string dir = testing::tempDir();
    spit(dir + "/log.txt", "before\n");
    RunResult so = run("/bin/sh", {"-c", "exec \"$0\" export \"$1\" -o /dev/stdout --to 0.1 >> \"$2\"", kExe,
                                   kModels + "BVH/01_01.bvh", dir + "/log.txt"});
    EXPECT_EQ(so.exitCode, 0) << so.err;
    EXPECT_EQ(slurp(dir + "/log.txt").rfind("before\nHIERARCHY\n", 0), 0u) << slurp(dir + "/log.txt").substr(0, 40);
    // /dev/null takes anything: success.
    EXPECT_EQ(run(kExe, {"render", kSimpleSkin, "-o", "/dev/null", "--size", "64x48"}).exitCode, 0);
}

// A write that fails part-way (here: past the file size limit, `ulimit -f`) and a command that
// fails before writing both leave the previous good output as it was, and no temporary file.
TEST(SafeOutputCli, AFailedCommandKeepsThePreviousGoodOutput) {
    const std::string dir = testing::tempDir();
    const std::string out = dir + "/pose.obj";
    ASSERT_EQ(run(kExe, {"pose", kSimpleSkin, "-o", out}).exitCode, 0);
    const std::string good = slurp(out);
    ASSERT_GT(good.size(), 100u);
    // BCN_Epileptic posed is about 1 MB of OBJ; the limit is 16 KB.
    RunResult big = run("/bin/sh", {"-c", "ulimit -f 32; exec \"$0\" pose \"$1\" -o \"$2\"", kExe,
                                    kModels + "X/BCN_Epileptic.X", out});
    EXPECT_EQ(big.exitCode, 4) << big.err;
    EXPECT_EQ(lines(big.err), 1) << big.err;
    EXPECT_EQ(slurp(out), good);
    RunResult bad = run(kExe, {"pose", kSimpleSkin, "-o", out, "--clip", "nope"});
    EXPECT_EQ(bad.exitCode, 2);
    RunResult missing = run(kExe, {"pose", dir + "/missing.gltf", "-o", out});
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_EQ(slurp(out), good);
    EXPECT_EQ(tempFiles(dir), 0);
    // And a successful run replaces it whole (permissions of the old file kept).
    ::chmod(out.c_str(), 0640);
    ASSERT_EQ(run(kExe, {"pose", kModels + "X/BCN_Epileptic.X", "-o", out}).exitCode, 0);
    EXPECT_GT(slurp(out).size(), good.size());
    struct stat st{};
    ASSERT_EQ(::stat(out.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

// SIGTERM while a large export is being written: the temporary file is removed, the previous
// output stays.
TEST(SafeOutputCli, AnInterruptedExportLeavesNoHalfFile) {
    const std::string dir = testing::tempDir();
    g::Document d = smallRig();
    d.animations[0].channels[0].times = {0.0f, 3000.0f};  // 3000 s at 1000 fps: 3 million frames
    const std::string model = dir + "/long.gltf";
    ASSERT_TRUE(g::write(d, model));
    const std::string out = dir + "/out.bvh";
    spit(out, "previous good file\n");
    std::vector<std::string> args{kExe, "export", model, "-o", out, "--fps", "1000"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, kExe.c_str(), nullptr, nullptr, argv.data(), environ), 0);
    bool sawTemp = false;
    for (int i = 0; i < 20000 && !sawTemp; ++i) {  // up to 20 s
        sawTemp = tempFiles(dir) > 0;
        if (!sawTemp) ::usleep(1000);
    }
    EXPECT_TRUE(sawTemp) << "the export never started writing";
    ::kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the export finished before it could be interrupted";
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(tempFiles(dir), 0);
    EXPECT_EQ(slurp(out), "previous good file\n");
}

TEST(SafeOutputCli, ExportFpsMustBeFiniteAndBounded) {
    const std::string dir = testing::tempDir();
    const std::string bvh = kModels + "BVH/01_01.bvh";
    const std::string out = dir + "/out.bvh";
    for (const char* fps : {"0", "-5", "nan", "1e30", "1e9", "inf", "1000.5"}) {
        RunResult r = run(kExe, {"export", bvh, "-o", out, "--fps", fps});
        EXPECT_EQ(r.exitCode, 2) << fps << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("--fps"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(out));
    // 1000 is allowed: frames = duration x 1000 + 1 (the clip's own rate is 120 fps).
    ASSERT_EQ(run(kExe, {"export", bvh, "-o", out, "--fps", "120"}).exitCode, 0);
    const std::string at120 = slurp(out);
    const size_t f120 = std::stoul(at120.substr(at120.find("Frames: ") + 8));
    ASSERT_EQ(run(kExe, {"export", bvh, "-o", out, "--fps", "1000"}).exitCode, 0);
    const std::string at1000 = slurp(out);
    const size_t f1000 = std::stoul(at1000.substr(at1000.find("Frames: ") + 8));
    EXPECT_NEAR(static_cast<double>(f1000 - 1) / 1000.0, static_cast<double>(f120 - 1) / 120.0, 1.0 / 120.0);
    // A clip so long that even the clip's own rate gives too many frames: refused, not written.
    g::Document d = smallRig();
    d.animations[0].channels[0].times = {0.0f, 1e7f};
    ASSERT_TRUE(g::write(d, dir + "/forever.gltf"));
    RunResult r = run(kExe, {"export", dir + "/forever.gltf", "-o", dir + "/forever.bvh"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/forever.bvh"));
}

TEST(SafeOutput, OutputFileWritesThroughATemporaryFile) {
    const std::string dir = testing::tempDir();
    const std::string path = dir + "/a.txt";
    spit(path, "old");
    {
        OutputFile f(path);
        ASSERT_TRUE(f.open());
        ASSERT_TRUE(f.write("new content"));
        EXPECT_EQ(slurp(path), "old");  // not yet
        EXPECT_EQ(tempFiles(dir), 1);
        // destroyed without commit: discarded
    }
    EXPECT_EQ(slurp(path), "old");
    EXPECT_EQ(tempFiles(dir), 0);
    std::string error;
    ASSERT_TRUE(writeOutputFile(path, "new", error)) << error;
    EXPECT_EQ(slurp(path), "new");
    EXPECT_FALSE(writeOutputFile(dir + "/no/such/folder/x.txt", "x", error));
    EXPECT_NE(error.find("cannot write the output file"), std::string::npos);
    EXPECT_FALSE(writeOutputFile(dir, "x", error));  // a folder
    EXPECT_FALSE(writeOutputFile("/dev/full", "x", error));
    EXPECT_TRUE(writeOutputFile("/dev/null", "x", error));
    EXPECT_TRUE(paths::sameFile(dir + "/./a.txt", path));
    EXPECT_FALSE(paths::sameFile(dir + "/b.txt", path));
}

// A report on stdout that cannot be written (a full device, a closed stdout) is a failed
// output: exit 4 and one line, not exit 0 and a lost report.
TEST(SafeOutputCli, AReportThatCannotBeWrittenFailsWithExit4) {
    for (const std::string redirect : {"> /dev/full", ">&-"}) {
        for (const std::vector<std::string> cmd : {std::vector<std::string>{"info", "--json"}, {"check", "--json"}, {"info"}}) {
            std::string script = "exec \"$0\"";
            for (size_t i = 0; i < cmd.size(); ++i) script += " " + cmd[i];
            script += " \"$1\" " + redirect;
            RunResult r = run("/bin/sh", {"-c", script, kExe, kSimpleSkin});
            EXPECT_EQ(r.exitCode, 4) << script << ": " << r.err;
            EXPECT_EQ(lines(r.err), 1) << script << ": " << r.err;
            EXPECT_NE(r.err.find("standard output"), std::string::npos) << r.err;
        }
    }
    // A command that writes nothing on stdout does not fail for a closed stdout.
    const std::string dir = testing::tempDir();
    RunResult quiet = run("/bin/sh", {"-c", "exec \"$0\" pose \"$1\" -o \"$2\" >&-", kExe, kSimpleSkin, dir + "/p.obj"});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_TRUE(fs::exists(dir + "/p.obj"));
}

// Outputs never replace what the model refers to: its texture, the state machine file.
TEST(SafeOutputCli, OutputsOverTexturesAndMachineFilesAreRefused) {
    const std::string dir = testing::tempDir();
    const std::string demo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/";
    for (const char* f : {"rigview_demo.gltf", "rigview_demo.bin", "rigview_demo_albedo.png", "rigview_demo.machine.json"}) {
        fs::copy_file(demo + f, dir + "/" + f);
    }
    const std::string model = dir + "/rigview_demo.gltf", texture = dir + "/rigview_demo_albedo.png",
                      machine = dir + "/rigview_demo.machine.json";
    const std::string png = slurp(texture), json = slurp(machine);
    RunResult r = run(kExe, {"render", model, "-o", texture, "--size", "64x48"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("texture"), std::string::npos) << r.err;
    RunResult c = run(kExe, {"check", model, "--sheet", texture});
    EXPECT_EQ(c.exitCode, 2) << c.err;
    EXPECT_NE(c.err.find("texture"), std::string::npos) << c.err;
    for (const char* command : {"pose", "render"}) {
        RunResult m = run(kExe, {command, model, "--machine", machine, "-o", machine});
        EXPECT_EQ(m.exitCode, 2) << command << ": " << m.err;
        EXPECT_EQ(lines(m.err), 1) << m.err;
    }
    EXPECT_EQ(slurp(texture), png);
    EXPECT_EQ(slurp(machine), json);
    EXPECT_EQ(tempFiles(dir), 0);
}

// One rule for every command that writes and every file a command reads: the model, its glTF
// buffer, its texture, its markers file, the --machine file, an --anim file and that file's
// buffer, the --env map. An output naming one (directly, or through a link with the extension
// the command wants) is refused with one line, exit 2, before anything is written. Each command
// meets several kinds of input and each kind several commands.
TEST(SafeOutputCli, NoCommandWritesOverAnyFileItReads) {
    const std::string dir = testing::tempDir();
    const std::string demo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/";
    for (const char* f : {"rigview_demo.gltf", "rigview_demo.bin", "rigview_demo_albedo.png", "rigview_demo.machine.json"}) {
        fs::copy_file(demo + f, dir + "/" + f);
    }
    fs::create_directory(dir + "/anim");
    for (const char* f : {"rigview_demo.gltf", "rigview_demo.bin", "rigview_demo_albedo.png"}) fs::copy_file(demo + f, dir + "/anim/" + f);
    fs::copy_file(std::string(RIGVIEW_SOURCE_DIR) + "/assets/env/studio.hdr", dir + "/studio.hdr");
    const std::string model = dir + "/rigview_demo.gltf", anim = dir + "/anim/rigview_demo.gltf";
    {
        std::ofstream(model + ".markers.json") << "{\"clips\": []}";
    }
    const std::map<std::string, std::string> inputs = {
        {"model", model},
        {"buffer", dir + "/rigview_demo.bin"},
        {"texture", dir + "/rigview_demo_albedo.png"},
        {"markers", model + ".markers.json"},
        {"machine", dir + "/rigview_demo.machine.json"},
        {"anim", anim},
        {"anim buffer", dir + "/anim/rigview_demo.bin"},
        {"env", dir + "/studio.hdr"},
    };
    std::map<std::string, std::string> before;
    for (const auto& [kind, file] : inputs) before[kind] = slurp(file);
    struct Case {
        std::string command, kind;
    };
    const std::vector<Case> cases = {
        {"render", "buffer"}, {"render", "env"},         {"render", "markers"},  {"render", "anim buffer"},
        {"thumbnail", "texture"}, {"thumbnail", "model"}, {"pose", "machine"},    {"pose", "anim"},
        {"export", "markers"}, {"export", "buffer"},      {"export", "model"},    {"compress", "anim buffer"},
        {"compress", "texture"}, {"check", "buffer"},     {"check", "markers"},   {"check", "anim"},
    };
    // The output: the file itself where the command takes any name (thumbnail), else a link to
    // it with the extension the command wants.
    const std::map<std::string, std::string> extension = {
        {"render", ".png"}, {"pose", ".json"}, {"export", ".gltf"}, {"compress", ".glb"}, {"check", ".png"}};
    int n = 0;
    for (const Case& c : cases) {
        const std::string& target = inputs.at(c.kind);
        std::string out = target;
        if (extension.count(c.command) && paths::lowerExtension(target) != extension.at(c.command)) {
            out = dir + "/link" + std::to_string(n++) + extension.at(c.command);
            fs::create_symlink(target, out);
        }
        std::vector<std::string> args;
        if (c.command == "thumbnail") {
            args = {"thumbnail", model, out};
        } else if (c.command == "check") {
            args = {"check", model, "--anim", anim, "--sheet", out};
        } else {
            args = {c.command, model, "--anim", anim, "-o", out};
            if (c.command == "render" || c.command == "pose") args.insert(args.end(), {"--machine", inputs.at("machine")});
            if (c.command == "render") args.insert(args.end(), {"--env", inputs.at("env"), "--size", "64x48"});
        }
        const RunResult r = run(kExe, args);
        const std::string what = c.command + " over the " + c.kind + ": ";
        EXPECT_EQ(r.exitCode, 2) << what << r.err;
        EXPECT_EQ(lines(r.err), 1) << what << r.err;
        EXPECT_NE(r.err.find("refusing to overwrite it"), std::string::npos) << what << r.err;
    }
    for (const auto& [kind, file] : inputs) EXPECT_EQ(slurp(file), before[kind]) << kind << " changed";
    EXPECT_EQ(tempFiles(dir), 0);
}

// glTF accessors and views that leave their buffers are refused before Assimp reads them
// (an accessor byteOffset of 2^64 - 4 made it read 4 bytes before its buffer), naming the entry.
TEST(SafeOutputCli, GltfRangesOutsideTheirBuffersAreRefused) {
    const std::string dir = testing::tempDir();
    const std::string good = dir + "/good.gltf";
    ASSERT_TRUE(g::write(smallRig(), good));
    ASSERT_EQ(run(kExe, {"info", good}).exitCode, 0);
    const json doc = json::parse(slurp(good));
    struct Case {
        const char* name;
        std::function<void(json&)> edit;
        const char* names;  // what the error names
    };
    const std::vector<Case> cases{
        {"wrapping_offset", [](json& d) { d["accessors"][0]["byteOffset"] = 18446744073709551612ull; }, "accessors[0]"},
        {"past_view", [](json& d) { d["accessors"][0]["count"] = 1000000; }, "accessors[0]"},
        {"view_past_buffer", [](json& d) { d["bufferViews"][0]["byteLength"] = 1u << 30; }, "bufferViews[0]"},
        {"negative_offset", [](json& d) { d["bufferViews"][0]["byteOffset"] = -4; }, "bufferViews[0]"},
        {"no_such_view", [](json& d) { d["accessors"][0]["bufferView"] = 99; }, "accessors[0]"},
    };
    for (const Case& c : cases) {
        json d = doc;
        c.edit(d);
        const std::string path = dir + "/" + c.name + ".gltf";
        spit(path, d.dump());
        for (const char* command : {"info", "check"}) {
            RunResult r = run(kExe, {command, path});
            EXPECT_EQ(r.exitCode, 3) << c.name << " " << command << ": " << r.err << r.out;
            if (std::string(command) == "info") {
                EXPECT_EQ(lines(r.err), 1) << r.err;
                EXPECT_NE(r.err.find(c.names), std::string::npos) << c.name << ": " << r.err;
            }
        }
    }
}

// An output name of 250 bytes is valid (NAME_MAX is 255): its temporary name must fit too.
TEST(SafeOutputCli, ALongOutputNameIsWritten) {
    const std::string dir = testing::tempDir();
    const std::string out = dir + "/" + std::string(246, 'p') + ".obj";
    RunResult r = run(kExe, {"pose", kSimpleSkin, "-o", out});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_GT(slurp(out).size(), 100u);
    EXPECT_EQ(tempFiles(dir), 0);
}

// nan passes a range check (every comparison with it is false): the limits that are ranges
// refuse it by name.
TEST(SafeOutputCli, NonFiniteLimitsAreRefused) {
    for (const char* option : {"--import-timeout", "--amc-fps"}) {
        for (const char* value : {"nan", "inf", "NaN"}) {
            RunResult r = run(kExe, {option, value, "info", kSimpleSkin});
            EXPECT_EQ(r.exitCode, 2) << option << " " << value << ": " << r.err;
            EXPECT_EQ(lines(r.err), 1) << r.err;
            EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
        }
    }
    EXPECT_EQ(run(kExe, {"--import-timeout", "30", "info", kSimpleSkin}).exitCode, 0);
}

// An isolated import's error keeps the whole file name, newline and all (escaped when printed).
TEST(SafeOutputCli, AnImportErrorNamesAFileWithANewlineWhole) {
    const std::string dir = testing::tempDir();
    const std::string bad = dir + "/bad\nname.gltf";
    spit(bad, "{ not json");
    RunResult r = run(kExe, {"info", bad});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("bad\\x0Aname.gltf"), std::string::npos) << r.err;
}

// Small files rigview reads but did not make (settings): only a regular file, only up to a
// stated size; a FIFO or a link to /dev/zero is refused at once, not waited on or read forever.
TEST(SafeInput, InputFileReadsOnlySmallRegularFiles) {
    const std::string dir = testing::tempDir();
    std::string text, error;
    spit(dir + "/a.json", "{\"x\": 1}");
    EXPECT_EQ(readInputFile(dir + "/a.json", 64, text, error), InputFileStatus::Read) << error;
    EXPECT_EQ(text, "{\"x\": 1}");
    EXPECT_EQ(readInputFile(dir + "/none.json", 64, text, error), InputFileStatus::Missing);
    EXPECT_EQ(readInputFile(dir + "/a.json", 4, text, error), InputFileStatus::Refused);
    EXPECT_NE(error.find("larger than 4 bytes"), std::string::npos) << error;
    EXPECT_TRUE(text.empty());
    ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
    EXPECT_EQ(readInputFile(dir + "/fifo", 64, text, error), InputFileStatus::Refused);
    EXPECT_NE(error.find("named pipe"), std::string::npos) << error;
    fs::create_symlink("/dev/zero", dir + "/zero");
    EXPECT_EQ(readInputFile(dir + "/zero", 64, text, error), InputFileStatus::Refused);
    EXPECT_NE(error.find("a device"), std::string::npos) << error;
    EXPECT_EQ(readInputFile(dir, 64, text, error), InputFileStatus::Refused);
    EXPECT_NE(error.find("folder"), std::string::npos) << error;
}

// ---- 4. resources only from inside the model's folder ------------------------------------

// Buffers: outside the folder ("../" up and out, an absolute path, a symlink inside pointing
// out) they are not opened, so the model does not load; with --allow-external-paths the same
// files load, which shows that the refused file held good data and was simply not read.
TEST(ResourcePaths, BuffersOutsideTheFolderAreNotRead) {
    const std::string root = testing::tempDir();
    fs::create_directories(root + "/outside");
    fs::create_directories(root + "/lib/a/b/sub");
    const std::string secret = root + "/outside/secret.bin";
    const std::string dir = root + "/lib/a/b";
    writeWithExternalBuffer(dir + "/up.gltf", "../../../outside/secret.bin", secret);
    writeWithExternalBuffer(dir + "/absolute.gltf", secret, "");
    fs::create_symlink(secret, dir + "/link.bin");
    writeWithExternalBuffer(dir + "/symlink.gltf", "link.bin", "");
    writeWithExternalBuffer(dir + "/passwd.gltf", "../../../../../../../../../../etc/passwd", "");
    // Each model given as a path, and by its bare name from inside its folder (Assimp reads an
    // absolute buffer URI relative to the model's folder unless that folder is "").
    auto inFolder = [&](const std::vector<std::string>& args) {
        std::vector<std::string> a{"-c", "cd \"$0\" && exec \"$@\"", dir, kExe};
        a.insert(a.end(), args.begin(), args.end());
        return run("/bin/sh", a);
    };
    for (const std::string name : {"up", "absolute", "symlink", "passwd"}) {
        for (const bool bare : {false, true}) {
            const std::string model = bare ? name + ".gltf" : dir + "/" + name + ".gltf";
            auto rigview = [&](std::vector<std::string> args) { return bare ? inFolder(args) : run(kExe, args); };
            RunResult r = rigview({"info", model});
            EXPECT_EQ(r.exitCode, 3) << name << ": " << r.err;
            EXPECT_EQ(lines(r.err), 1) << r.err;
            if (name == "absolute" && !bare) continue;  // Assimp looked for <folder>/<absolute path>: nothing
            EXPECT_NE(r.err.find("refused to read"), std::string::npos) << r.err;
            EXPECT_NE(r.err.find("--allow-external-paths"), std::string::npos) << r.err;
            RunResult c = rigview({"check", "--json", model});
            EXPECT_EQ(c.exitCode, 3) << c.err;
            const json jc = json::parse(c.out)["files"][0];
            EXPECT_TRUE(hasFinding(jc, "external-path-refused", "error")) << c.out;
            if (name == "passwd") continue;
            RunResult allowed = rigview({"info", model, "--allow-external-paths"});
            EXPECT_EQ(allowed.exitCode, 0) << name << ": " << allowed.err;
            EXPECT_EQ(rigview({"--allow-external-paths", "info", model}).exitCode, 0);
        }
    }
    // A Windows path up and out is out too.
    writeWithExternalBuffer(dir + "/backslash.gltf", "..\\..\\..\\outside\\secret.bin", "");
    RunResult bs = run(kExe, {"info", dir + "/backslash.gltf"});
    EXPECT_EQ(bs.exitCode, 3) << bs.err;
    EXPECT_NE(bs.err.find("refused to read"), std::string::npos) << bs.err;
    // A FIFO outside: opening it would block; refused, it is never opened.
    ASSERT_EQ(::mkfifo((root + "/outside/fifo.bin").c_str(), 0644), 0);
    writeWithExternalBuffer(dir + "/fifo.gltf", "../../../outside/fifo.bin", "");
    RunResult f = run(kExe, {"info", dir + "/fifo.gltf"}, 20.0);
    EXPECT_FALSE(f.timedOut);
    EXPECT_EQ(f.exitCode, 3) << f.err;

    // Inside the folder (a subfolder too) and embedded data URIs load as ever.
    writeWithExternalBuffer(dir + "/inside.gltf", "sub/data.bin", dir + "/sub/data.bin");
    RunResult in = run(kExe, {"info", dir + "/inside.gltf"});
    EXPECT_EQ(in.exitCode, 0) << in.err;
    EXPECT_EQ(in.err, "");
    ASSERT_TRUE(g::write(smallRig(), dir + "/embedded.gltf"));
    RunResult em = run(kExe, {"check", "--json", dir + "/embedded.gltf"});
    EXPECT_FALSE(hasFinding(json::parse(em.out)["files"][0], "external-path-refused", "warning")) << em.out;
}

// Images: a texture outside the folder is not read (by check, the renderer or anyone); the
// model still loads, with one warning line, and check says external-path-refused (warning),
// not missing-texture. Inside the folder and data URIs are fine.
TEST(ResourcePaths, TexturesOutsideTheFolderAreRefusedWithAWarning) {
    const std::string root = testing::tempDir();
    fs::create_directories(root + "/outside");
    fs::create_directories(root + "/model/textures");
    spit(root + "/outside/skin.png", "not really a png");
    spit(root + "/model/textures/in.png", "not really a png");
    auto withTexture = [&](const std::string& name, const std::string& uri) {
        g::Document d = smallRig();
        d.materials.push_back({"skin", glm::vec4(1), uri});
        d.meshes[0].material = 0;
        const std::string path = root + "/model/" + name + ".gltf";
        EXPECT_TRUE(g::write(d, path));
        return path;
    };
    for (const std::string& uri : {std::string("../outside/skin.png"), root + "/outside/skin.png"}) {
        const std::string model = withTexture("out", uri);
        RunResult c = run(kExe, {"check", "--json", model});
        const json jc = json::parse(c.out)["files"][0];
        EXPECT_TRUE(hasFinding(jc, "external-path-refused", "warning")) << c.out;
        EXPECT_FALSE(hasFinding(jc, "missing-texture", "warning")) << c.out;
        bool named = false;
        for (const json& f : jc["findings"]) {
            if (f["code"] != "external-path-refused") continue;
            for (const json& n : f["names"]) named = named || n.get<std::string>().find("outside/skin.png") != std::string::npos;
        }
        EXPECT_TRUE(named) << c.out;
        RunResult i = run(kExe, {"info", model});
        EXPECT_EQ(i.exitCode, 0) << i.err;
        EXPECT_EQ(lines(i.err), 1) << i.err;
        EXPECT_NE(i.err.find("outside the model's folder"), std::string::npos) << i.err;
        RunResult r = run(kExe, {"render", model, "-o", root + "/r.png", "--size", "64x48"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        RunResult allowed = run(kExe, {"check", "--json", "--allow-external-paths", model});
        EXPECT_FALSE(hasFinding(json::parse(allowed.out)["files"][0], "external-path-refused", "warning")) << allowed.out;
        RunResult quiet = run(kExe, {"info", "--allow-external-paths", model});
        EXPECT_EQ(quiet.err, "");
    }
    for (const std::string& uri : {std::string("textures/in.png"), std::string("data:image/png;base64,iVBORw0KGgo=")}) {
        const std::string model = withTexture("in", uri);
        RunResult c = run(kExe, {"check", "--json", model});
        const json jc = json::parse(c.out)["files"][0];
        EXPECT_FALSE(hasFinding(jc, "external-path-refused", "warning")) << c.out;
        EXPECT_FALSE(hasFinding(jc, "missing-texture", "warning")) << c.out;
        EXPECT_EQ(run(kExe, {"info", model}).err, "");
    }
}

// Anything else Assimp opens goes through the same rule: an OBJ material library outside the
// folder is not read (Assimp goes on without it), inside it is.
TEST(ResourcePaths, ObjMaterialLibraryOutsideTheFolderIsNotRead) {
    const std::string root = testing::tempDir();
    fs::create_directories(root + "/outside");
    fs::create_directories(root + "/model");
    spit(root + "/outside/evil.mtl", "newmtl red\nKd 1 0 0\n");
    spit(root + "/model/inside.mtl", "newmtl red\nKd 1 0 0\n");
    const std::string mesh = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n";
    spit(root + "/model/out.obj", "mtllib ../outside/evil.mtl\n" + mesh);
    spit(root + "/model/in.obj", "mtllib inside.mtl\n" + mesh);
    RunResult out = run(kExe, {"check", "--json", root + "/model/out.obj"});
    const json jo = json::parse(out.out)["files"][0];
    EXPECT_TRUE(hasFinding(jo, "external-path-refused", "warning")) << out.out;
    RunResult info = run(kExe, {"info", root + "/model/out.obj"});
    EXPECT_EQ(info.exitCode, 0) << info.err;
    EXPECT_EQ(lines(info.err), 1) << info.err;
    EXPECT_NE(info.err.find("evil.mtl"), std::string::npos) << info.err;
    RunResult in = run(kExe, {"check", "--json", root + "/model/in.obj"});
    EXPECT_FALSE(hasFinding(json::parse(in.out)["files"][0], "external-path-refused", "warning")) << in.out;
    EXPECT_EQ(run(kExe, {"info", root + "/model/in.obj"}).err, "");
    EXPECT_EQ(run(kExe, {"info", "--allow-external-paths", root + "/model/out.obj"}).err, "");
}

TEST(ResourcePaths, InsideMeansInsideAfterResolving) {
    const std::string root = testing::tempDir();
    fs::create_directories(root + "/m/sub");
    fs::create_directories(root + "/mx");
    spit(root + "/m/sub/a.bin", "x");
    spit(root + "/mx/a.bin", "x");
    fs::create_symlink(root + "/mx/a.bin", root + "/m/out.bin");
    const std::string folder = paths::modelFolder(root + "/m/model.gltf");
    EXPECT_TRUE(paths::isInside(folder, root + "/m/sub/a.bin"));
    EXPECT_TRUE(paths::isInside(folder, root + "/m/sub/../sub/a.bin"));
    EXPECT_FALSE(paths::isInside(folder, root + "/m/../mx/a.bin"));
    EXPECT_FALSE(paths::isInside(folder, root + "/mx/a.bin"));  // a sibling sharing the prefix "m"
    EXPECT_FALSE(paths::isInside(folder, root + "/m/out.bin"));  // a symlink leading out
    EXPECT_FALSE(paths::isInside(folder, "/etc/passwd"));
}

}  // namespace
}  // namespace rig
