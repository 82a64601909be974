// The command line end to end: JSON/OBJ shapes, exit codes, one-line errors.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "support/acclaim_files.h"
#include "support/gunzip.h"
#include "support/run.h"

namespace rig {
namespace {

using nlohmann::json;
using testing::run;
using testing::RunResult;
namespace fs = std::filesystem;

const std::string kExe = RIGVIEW_EXE;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kSimpleSkin = kModels + "glTF2/simple_skin/simple_skin.gltf";

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST(Cli, PoseJsonHasTheSpecShape) {
    const std::string out = testing::tempDir() + "/pose.json";
    RunResult r = run(kExe, {"pose", kSimpleSkin, "-o", out, "--clip", "0", "--time", "1.25"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(slurp(out));
    EXPECT_EQ(j["clip"], "clip0");
    EXPECT_NEAR(j["time"].get<double>(), 1.25, 1e-6);
    ASSERT_EQ(j["meshes"].size(), 1u);
    EXPECT_TRUE(j["meshes"][0]["skinned"].get<bool>());
    const auto& p = j["meshes"][0]["positions"];
    ASSERT_EQ(p.size(), 30u);
    // Vertex 9 (1,2,0) at 90 degrees: s=1, Rz90 * (0.5,1) = (-1,0.5), + (0,1) -> (-1,1.5,0).
    EXPECT_NEAR(p[27].get<double>(), -1.0, 2e-4);
    EXPECT_NEAR(p[28].get<double>(), 1.5, 2e-4);
    ASSERT_EQ(j["joints"].size(), 2u);
    EXPECT_EQ(j["joints"][0]["world"].size(), 16u);
    // Joint 0 (node at (0,1,0)): column-major translation in elements 12..14.
    EXPECT_NEAR(j["joints"][0]["world"][13].get<double>(), 1.0, 1e-6);
}

TEST(Cli, PoseTimePastTheEndWraps) {
    const std::string dir = testing::tempDir();
    ASSERT_EQ(run(kExe, {"pose", kSimpleSkin, "-o", dir + "/a.json", "--time", "0.5"}).exitCode, 0);
    ASSERT_EQ(run(kExe, {"pose", kSimpleSkin, "-o", dir + "/b.json", "--time", "6.0"}).exitCode, 0);
    const json a = json::parse(slurp(dir + "/a.json")), b = json::parse(slurp(dir + "/b.json"));
    EXPECT_EQ(a["meshes"], b["meshes"]);
    EXPECT_NEAR(b["time"].get<double>(), 0.5, 1e-6);
}

TEST(Cli, PoseObjHasVerticesNormalsAndFaces) {
    const std::string out = testing::tempDir() + "/pose.obj";
    RunResult r = run(kExe, {"pose", kModels + "X/BCN_Epileptic.X", "-o", out, "--time", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::istringstream in(slurp(out));
    std::string line;
    int v = 0, vn = 0, f = 0, o = 0;
    while (std::getline(in, line)) {
        if (line.rfind("v ", 0) == 0) ++v;
        if (line.rfind("vn ", 0) == 0) ++vn;
        if (line.rfind("f ", 0) == 0) ++f;
        if (line.rfind("o ", 0) == 0) ++o;
    }
    EXPECT_EQ(v, 3014);
    EXPECT_EQ(vn, 3014);
    EXPECT_EQ(f, 5126);
    EXPECT_EQ(o, 3);
}

TEST(Cli, InfoJson) {
    RunResult r = run(kExe, {"info", kModels + "X/Testwuson.X", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["joints"], 37);
    EXPECT_EQ(j["max_influences"], 4);
    ASSERT_EQ(j["clips"].size(), 3u);
    EXPECT_EQ(j["clips"][1]["name"], "Wuson_Walk");
    EXPECT_NEAR(j["clips"][1]["duration"].get<double>(), 3.6, 1e-4);
    EXPECT_GT(j["clips"][1]["keys"]["rotation"].get<int>(), 0);
    EXPECT_GT(j["triangles"].get<int>(), 0);
}

TEST(Cli, InfoListsMorphTargetsAndTheClipsThatAnimateThem) {
    const std::string file = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/morph_skin.gltf";
    RunResult text = run(kExe, {"info", file});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("morph targets (2): bulge (0.25), lean"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("morph weights animated by: 'bend', 'blink'"), std::string::npos) << text.out;
    RunResult js = run(kExe, {"info", file, "--json"});
    ASSERT_EQ(js.exitCode, 0) << js.err;
    const json j = json::parse(js.out);
    const json& morph = j["meshes"][0]["morph"];
    ASSERT_EQ(morph["targets"].size(), 2u);
    EXPECT_EQ(morph["targets"][0]["name"], "bulge");
    EXPECT_NEAR(morph["targets"][0]["default_weight"].get<double>(), 0.25, 1e-7);
    EXPECT_EQ(morph["animated_by"], json::array({"bend", "blink"}));
    EXPECT_EQ(j["clips"][0]["morph_tracks"][0]["interpolation"], "cubicspline");
    EXPECT_EQ(j["clips"][1]["morph_tracks"][0]["interpolation"], "step");
    EXPECT_EQ(j["clips"][1]["morph_tracks"][0]["keys"], 3);
    // A file without morph targets says so by an empty list.
    RunResult plain = run(kExe, {"info", kSimpleSkin, "--json"});
    EXPECT_TRUE(json::parse(plain.out)["meshes"][0]["morph"]["targets"].empty());
}

TEST(Cli, PoseIncludesMorphTargetsAtTheTimeAsked) {
    // AnimatedMorphCube at 2.5 s (key 75: thin 0.44100067, angle 0.5589993). Both targets
    // only move vertices along y (their POSITION accessors' min and max are 0 in x and z),
    // by at most 0.01893253 (thin) and 0.0198908355 (angle), both on the top vertices; the
    // node's rotation turns y into -z and its scale is 100.
    const std::string cube = kModels + "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf";
    const std::string dir = testing::tempDir();
    ASSERT_EQ(run(kExe, {"pose", cube, "-o", dir + "/a.json", "--time", "0"}).exitCode, 0);
    ASSERT_EQ(run(kExe, {"pose", cube, "-o", dir + "/b.json", "--time", "2.4999990463256836"}).exitCode, 0);
    const json a = json::parse(slurp(dir + "/a.json")), b = json::parse(slurp(dir + "/b.json"));
    const auto& pa = a["meshes"][0]["positions"];
    const auto& pb = b["meshes"][0]["positions"];
    ASSERT_EQ(pa.size(), pb.size());
    double moved = 0.0;
    for (size_t i = 0; i < pa.size(); ++i) moved = std::max(moved, std::fabs(pa[i].get<double>() - pb[i].get<double>()));
    EXPECT_NEAR(moved, 100.0 * (0.01893253 * 0.44100067 + 0.0198908355 * 0.5589993), 1e-4) << "largest vertex move";
}

TEST(Cli, CheckExitCodesAndJson) {
    const std::string fbx = kModels + "FBX/animation_with_skeleton.fbx";
    RunResult r = run(kExe, {"check", fbx, "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;  // warnings only
    const json doc = json::parse(r.out);
    EXPECT_EQ(doc["schema"], "rigview.check/1");
    ASSERT_EQ(doc["files"].size(), 1u);  // the same shape as for many files
    const json& j = doc["files"][0];
    EXPECT_EQ(j["worst"], "warning");
    bool truncated = false;
    for (const auto& f : j["findings"]) {
        if (f["code"] == "too-many-influences") {
            truncated = true;
            EXPECT_GT(f["count"].get<int>(), 0);
            EXPECT_FALSE(f["examples"].empty());
            EXPECT_GT(f["value"].get<double>(), 0.0);  // worst truncation error, model units
            EXPECT_EQ(f["mesh"], 0);
        }
    }
    EXPECT_TRUE(truncated);
    EXPECT_EQ(run(kExe, {"check", fbx, "--strict"}).exitCode, 1);
    RunResult clean = run(kExe, {"check", kModels + "MD5/SimpleCube.md5mesh"});
    EXPECT_EQ(clean.exitCode, 0);
    EXPECT_NE(clean.out.find("no problems"), std::string::npos) << clean.out;
    // simple_skin's offsets all sit 0.5 off its node pose: that is its bind pose, in which it
    // renders whole, so nothing is reported.
    RunResult info = run(kExe, {"check", kSimpleSkin, "--json", "--strict"});
    EXPECT_EQ(info.exitCode, 0) << info.out;
    EXPECT_EQ(json::parse(info.out)["files"][0]["worst"], "none");
}

// `check --list-codes` prints the table of finding codes that README.md carries (check_tests
// compares that with the table in the code), and checks nothing; `check` with no file is a usage error.
// --influences on pose, check and render, on Blender's FBX with six influences per vertex
// (tests/data/blender/six_influences.fbx.gz; reference_tests compare its poses with Blender's).
TEST(Cli, InfluencesOption) {
    const std::string fbx = testing::gunzip(std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/blender/six_influences.fbx.gz");
    ASSERT_FALSE(fbx.empty());
    const std::string dir = testing::tempDir();
    auto positions = [&](const std::string& influences) {
        const std::string out = dir + "/infl" + influences + ".json";
        RunResult r = run(kExe, {"pose", fbx, "-o", out, "--time", "0.8", "--influences", influences});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return json::parse(slurp(out))["meshes"][0]["positions"];
    };
    const json four = positions("4"), eight = positions("8");
    ASSERT_EQ(four.size(), eight.size());
    double apart = 0.0;
    for (size_t i = 0; i < four.size(); ++i) apart = std::max(apart, std::fabs(four[i].get<double>() - eight[i].get<double>()));
    EXPECT_GT(apart, 1e-3) << "8 influences pose like 4";
    const json byDefault = json::parse(slurp(dir + "/infl4.json"));
    RunResult plain = run(kExe, {"pose", fbx, "-o", dir + "/infl.json", "--time", "0.8"});
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_EQ(json::parse(slurp(dir + "/infl.json")), byDefault) << "4 is the default";

    // check: six influences are too many for 4, not for 8.
    auto codes = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"check", fbx, "--json"});
        RunResult r = run(kExe, args);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        std::string all;
        const json report = json::parse(r.out);
        for (const auto& f : report["files"][0]["findings"]) all += f["code"].get<std::string>() + " ";
        return all;
    };
    EXPECT_NE(codes({}).find("too-many-influences"), std::string::npos);
    EXPECT_EQ(codes({"--influences", "8"}).find("too-many-influences"), std::string::npos);

    EXPECT_EQ(run(kExe, {"render", fbx, "-o", dir + "/infl.png", "--influences", "8", "--size", "64x48"}).exitCode, 0);
    RunResult bad = run(kExe, {"pose", fbx, "-o", dir + "/x.json", "--influences", "6"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--influences"), std::string::npos) << bad.err;
}

TEST(Cli, CheckListCodesPrintsTheReadmeTable) {
    RunResult r = run(kExe, {"check", "--list-codes"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string readme = slurp(std::string(RIGVIEW_SOURCE_DIR) + "/README.md");
    const std::string begin = "<!-- check-codes:begin -->\n";
    const size_t b = readme.find(begin), e = readme.find("<!-- check-codes:end -->");
    ASSERT_NE(b, std::string::npos);
    ASSERT_NE(e, std::string::npos);
    EXPECT_EQ(r.out, readme.substr(b + begin.size(), e - b - begin.size()));
    EXPECT_EQ(r.out.rfind("| code | severity | meaning |\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("| `loop-seam` | warning | "), std::string::npos) << r.out;
    RunResult none = run(kExe, {"check"});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_EQ(lines(none.err), 1) << none.err;
    EXPECT_TRUE(none.out.empty()) << none.out;
}

TEST(Cli, CheckFoldersInParallelWithOneReport) {
    RunResult r = run(kExe, {"check", kModels + "X", kModels + "BVH/01_01.bvh", "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;  // anim_test.x has errors (bones missing from its hierarchy)
    const json j = json::parse(r.out);
    ASSERT_TRUE(j.contains("files"));
    EXPECT_GE(j["files"].size(), 10u);
    EXPECT_EQ(j["summary"]["files"], j["files"].size());
    bool sawMissingBones = false;
    for (const auto& f : j["files"]) {
        if (f["file"].get<std::string>().find("anim_test.x") == std::string::npos) continue;
        for (const auto& finding : f["findings"]) sawMissingBones |= finding["code"] == "bone-missing-from-hierarchy";
        EXPECT_FALSE(f["passed"].get<bool>());
    }
    EXPECT_TRUE(sawMissingBones);
    RunResult text = run(kExe, {"check", kModels + "BVH", "--jobs", "2"});
    EXPECT_NE(text.out.find("files:"), std::string::npos) << text.out;
    const std::string dir = testing::tempDir();
    RunResult sheet = run(kExe, {"check", kModels + "FBX/huesitos.fbx", "--sheet", dir + "/sheet.png"});
    EXPECT_EQ(sheet.exitCode, 0) << sheet.err;
    EXPECT_EQ(slurp(dir + "/sheet.png").substr(1, 3), "PNG");
}

// `check --sheet` over several files: one sheet, a section per file in the report's order (a
// title line, then a row of six frames per clip), an unreadable file's section its title and
// reason; the exit code stays the check's. More than 60 files, or a sheet over an input: exit 2.
TEST(Cli, CheckSheetHasASectionPerModel) {
    const std::string dir = testing::tempDir();
    const std::string character = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/character/textured_character.gltf";
    RunResult r = run(kExe, {"check", character, kSimpleSkin, kModels + "invalid/empty.obj", "--sheet", dir + "/s.png"});
    EXPECT_EQ(r.exitCode, 3) << r.err;  // the unreadable file decides the exit code, as without --sheet
    const std::string png = slurp(dir + "/s.png");
    int w = 0, h = 0, n = 0;
    stbi_uc* px = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), static_cast<int>(png.size()), &w, &h, &n, 4);
    ASSERT_NE(px, nullptr);
    // Sections sorted by path: simple_skin (one clip), empty.obj (two lines), the character (one clip).
    constexpr int kLabel = 18, kCell = 240;
    EXPECT_EQ(w, 6 * kCell);
    EXPECT_EQ(h, (kLabel + kLabel + kCell) + 2 * kLabel + (kLabel + kLabel + kCell));
    // Each clip row's cells hold a drawn model: many pixels unlike the cell's corner.
    auto drawn = [&](int top, int column) {
        const stbi_uc* corner = px + (static_cast<size_t>(top + 2) * w + column * kCell + 2) * 4;
        int differ = 0;
        for (int y = top; y < top + kCell; ++y) {
            for (int x = column * kCell; x < (column + 1) * kCell; ++x) {
                const stbi_uc* p = px + (static_cast<size_t>(y) * w + x) * 4;
                differ += std::abs(p[0] - corner[0]) + std::abs(p[1] - corner[1]) + std::abs(p[2] - corner[2]) > 30;
            }
        }
        return differ;
    };
    const int firstRow = 2 * kLabel, lastRow = 2 * kLabel + kCell + 2 * kLabel + 2 * kLabel;
    for (int c : {0, 5}) {
        EXPECT_GT(drawn(firstRow, c), 500) << "simple_skin, column " << c;
        EXPECT_GT(drawn(lastRow, c), 500) << "character, column " << c;
    }
    stbi_image_free(px);
    // --json-lines streams its lines, then the sheet is written too.
    RunResult lines2 = run(kExe, {"check", kSimpleSkin, "--json-lines", "--sheet", dir + "/j.png"});
    EXPECT_EQ(lines2.exitCode, 0) << lines2.err;
    EXPECT_EQ(slurp(dir + "/j.png").substr(1, 3), "PNG");
    // Too many files for one sheet, refused before any is read.
    const std::string many = dir + "/many";
    fs::create_directories(many);
    for (int i = 0; i <= 60; ++i) std::ofstream(many + "/m" + std::to_string(i) + ".obj") << "";
    RunResult tooMany = run(kExe, {"check", many, "--sheet", dir + "/x.png"});
    EXPECT_EQ(tooMany.exitCode, 2) << tooMany.err;
    EXPECT_EQ(lines(tooMany.err), 1) << tooMany.err;
    EXPECT_FALSE(fs::exists(dir + "/x.png"));
}

// `check --list-files` lists what `check` would check, in its order, each name NUL-ended (so any
// name is exact), after --shard; it checks nothing. rigview.batch checks these on a Dask cluster.
TEST(Cli, CheckListFilesIsWhatCheckWouldCheck) {
    RunResult all = run(kExe, {"check", kModels + "invalid", kModels + "BVH", "--json"});
    const json report = json::parse(all.out);
    std::vector<std::string> expected;
    for (const auto& f : report["files"]) expected.push_back(f["file"].get<std::string>());
    ASSERT_GE(expected.size(), 10u);
    auto names = [](const std::string& out) {
        std::vector<std::string> v;
        for (size_t b = 0, e; (e = out.find('\0', b)) != std::string::npos; b = e + 1) v.push_back(out.substr(b, e - b));
        return v;
    };
    RunResult list = run(kExe, {"check", "--list-files", kModels + "invalid", kModels + "BVH"});
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_TRUE(list.err.empty()) << list.err;
    EXPECT_EQ(list.out.back(), '\0');
    EXPECT_EQ(names(list.out), expected);
    RunResult shard = run(kExe, {"check", "--list-files", "--shard", "2/3", kModels + "invalid", kModels + "BVH"});
    std::vector<std::string> second;
    for (size_t k = 1; k < expected.size(); k += 3) second.push_back(expected[k]);
    EXPECT_EQ(names(shard.out), second);
    EXPECT_EQ(run(kExe, {"check", "--list-files", testing::tempDir()}).exitCode, 3);  // no model files
}

TEST(Cli, AnimAddsClipsOfAnotherFileByJointName) {
    const std::string a = kModels + "BVH/01_01.bvh", b = kModels + "BVH/01_03.bvh";
    RunResult r = run(kExe, {"info", a, "--anim", b, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["clips"].size(), 2u);
    EXPECT_EQ(j["clips"][1]["name"], "01_03:Motion");  // the name "Motion" was taken
    EXPECT_EQ(j["added_animations"].size(), 1u);
    // Posed with the added clip: same as 01_03 on its own at that time.
    const std::string dir = testing::tempDir();
    ASSERT_EQ(run(kExe, {"pose", a, "--anim", b, "--clip", "1", "--time", "2.5", "-o", dir + "/x.json"}).exitCode, 0);
    ASSERT_EQ(run(kExe, {"pose", b, "--time", "2.5", "-o", dir + "/y.json"}).exitCode, 0);
    const json x = json::parse(slurp(dir + "/x.json")), y = json::parse(slurp(dir + "/y.json"));
    ASSERT_EQ(x["joints"].size(), y["joints"].size());
    for (size_t k = 0; k < x["joints"].size(); ++k) {
        for (int e = 12; e < 15; ++e) {
            EXPECT_NEAR(x["joints"][k]["world"][e].get<double>(), y["joints"][k]["world"][e].get<double>(), 1e-3);
        }
    }
    // No joint in common: one clear error.
    RunResult bad = run(kExe, {"info", std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf", "--anim", a});
    EXPECT_EQ(bad.exitCode, 3);
    EXPECT_EQ(lines(bad.err), 1) << bad.err;
}

TEST(Cli, AsfModelTakesAmcMotions) {
    const std::string dir = testing::tempDir();
    testing::writeOneBoneAsfAmc(dir);
    RunResult asf = run(kExe, {"info", dir + "/07.asf", "--anim", dir + "/07_01.amc", "--json"});
    ASSERT_EQ(asf.exitCode, 0) << asf.err;
    EXPECT_EQ(json::parse(asf.out)["clips"].size(), 1u);
    // An .amc as MODEL finds 07.asf beside it; at its second frame (1/120 s) "upper" has
    // turned 90 degrees about Z, so its end point (2 up) lies 2 along -X from (1,0,0).
    ASSERT_EQ(run(kExe, {"pose", dir + "/07_01.amc", "--time", "0.00833333", "-o", dir + "/p.json"}).exitCode, 0);
    const json p = json::parse(slurp(dir + "/p.json"));
    bool found = false;
    for (const auto& jt : p["joints"]) {
        if (jt["name"] != "upper_end") continue;
        found = true;
        EXPECT_NEAR(jt["world"][12].get<double>(), -1.0, 1e-4);
        EXPECT_NEAR(jt["world"][13].get<double>(), 0.0, 1e-4);
    }
    EXPECT_TRUE(found) << p.dump();
    // At 60 frames per second the same motion lasts twice as long.
    RunResult slow = run(kExe, {"--amc-fps", "60", "info", dir + "/07_01.amc", "--json"});
    ASSERT_EQ(slow.exitCode, 0) << slow.err;
    EXPECT_NEAR(json::parse(slow.out)["clips"][0]["duration"].get<double>(), 1.0 / 60.0, 1e-6);
}

TEST(Cli, ExportTrimsAndResamplesMocapToBvhKeepingPoses) {
    const std::string src = kModels + "BVH/01_01.bvh";
    const std::string dir = testing::tempDir();
    RunResult e = run(kExe, {"export", src, "-o", dir + "/cut.bvh", "--from", "1", "--to", "2", "--fps", "30"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    RunResult info = run(kExe, {"info", dir + "/cut.bvh", "--json"});
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const json ij = json::parse(info.out);
    EXPECT_NEAR(ij["clips"][0]["duration"].get<double>(), 1.0, 1e-4);
    EXPECT_NEAR(ij["clips"][0]["sample_rate"].get<double>(), 30.0, 1e-3);
    // The cut at 0.5 s (a 30 fps frame) poses as the original at 1.5 s.
    ASSERT_EQ(run(kExe, {"pose", dir + "/cut.bvh", "--time", "0.5", "-o", dir + "/a.json"}).exitCode, 0);
    ASSERT_EQ(run(kExe, {"pose", src, "--time", "1.5", "-o", dir + "/b.json"}).exitCode, 0);
    const json a = json::parse(slurp(dir + "/a.json")), b = json::parse(slurp(dir + "/b.json"));
    std::map<std::string, json> byName;
    for (const auto& j : a["joints"]) byName[j["name"]] = j["world"];
    int compared = 0;
    for (const auto& j : b["joints"]) {
        auto it = byName.find(j["name"]);
        if (it == byName.end()) continue;
        ++compared;
        for (int k = 12; k < 15; ++k) {
            EXPECT_NEAR(it->second[k].get<double>(), j["world"][k].get<double>(), 1e-2) << j["name"];
        }
    }
    EXPECT_GE(compared, 31);
    EXPECT_EQ(run(kExe, {"export", src, "-o", dir + "/x.bvh", "--from", "2", "--to", "1"}).exitCode, 2);
    EXPECT_EQ(run(kExe, {"export", src, "-o", dir + "/x.fbx"}).exitCode, 2);
}

TEST(Cli, BenchJson) {
    RunResult r = run(kExe, {"bench", kModels + "X/BCN_Epileptic.X", "--ticks", "200", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["joints"], 58);
    EXPECT_GT(j["ns_per_tick"].get<double>(), 0.0);
    EXPECT_NEAR(j["ns_per_joint"].get<double>() * 58, j["ns_per_tick"].get<double>(), 1e-6);
}

TEST(Cli, BenchCrowdJson) {
    RunResult r = run(kExe, {"bench", kModels + "X/BCN_Epileptic.X", "--instances", "40", "--threads", "2", "--ticks", "20", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["instances"], 40);
    EXPECT_EQ(j["threads"], 2);
    EXPECT_EQ(j["joints"], 58);
    EXPECT_GT(j["ms_per_frame"].get<double>(), 0.0);
    EXPECT_NEAR(j["ns_per_tick"].get<double>() * 40, j["ms_per_frame"].get<double>() * 1e6, 1e-3);
    EXPECT_NEAR(j["ns_per_joint"].get<double>() * 58, j["ns_per_tick"].get<double>(), 1e-6);
    // The CPU time of both threads per frame, and what each character keeps: at least its 171
    // track cursors (57 channels x T, R, S) and the rows of 54 palette entries and 3 meshes'
    // skin-to-model matrices (3 texels of 16 bytes each); its state and skin corrections add
    // under a KB.
    EXPECT_GT(j["cpu_ms_per_frame"].get<double>(), 0.0);
    const size_t rows = 3 * (54 + 3) * 16, cursors = 171 * 4;
    EXPECT_EQ(j["clip_bytes_per_instance"].get<size_t>(), cursors);
    EXPECT_GT(j["instance_bytes"].get<size_t>(), rows + cursors);
    EXPECT_LT(j["instance_bytes"].get<size_t>(), rows + cursors + 1024);
    for (const std::vector<std::string>& bad : {std::vector<std::string>{"--instances", "-1"}, {"--instances", "10", "--threads", "0"},
                                                {"--threads", "2"}, {"--instances", "2000000"}}) {
        std::vector<std::string> args = {"bench", kModels + "X/BCN_Epileptic.X"};
        args.insert(args.end(), bad.begin(), bad.end());
        RunResult e = run(kExe, args);
        EXPECT_EQ(e.exitCode, 2) << bad[0];
        EXPECT_NE(e.err.find("rigview: "), std::string::npos) << e.err;
    }
}

TEST(Cli, RenderWritesAPngAndFailsCleanly) {
    const std::string dir = testing::tempDir();
    RunResult ok = run(kExe, {"render", kSimpleSkin, "-o", dir + "/a.png", "--size", "160x120", "--time", "1", "--bones", "--grid"});
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    const std::string png = slurp(dir + "/a.png");
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    RunResult broken = run(kExe, {"render", kModels + "invalid/empty.obj", "-o", dir + "/b.png"});
    EXPECT_EQ(broken.exitCode, 3);
    EXPECT_EQ(lines(broken.err), 1) << broken.err;
    EXPECT_FALSE(std::ifstream(dir + "/b.png").good());
    EXPECT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/c.png", "--size", "big"}).exitCode, 2);
    EXPECT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/c.png", "--skinning", "magic"}).exitCode, 2);
    EXPECT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/c.jpg"}).exitCode, 2);
    EXPECT_FALSE(std::ifstream(dir + "/c.png").good());
}

// The reference flags: --background is the cleared pixel exactly, --camera places the eye;
// every bad value is one line and exit 2, an --env that does not load one line and exit 3.
TEST(Cli, RenderReferenceFlagsAndTheirBadValues) {
    const std::string dir = testing::tempDir();
    const std::string out = dir + "/ref.png";
    RunResult ok = run(kExe, {"render", kSimpleSkin, "-o", out, "--size", "64x48", "--background", "10,200,30",
                              "--camera", "0,1,40,0,1,0,30", "--tonemap", "aces", "--exposure", "1.5"});
    ASSERT_EQ(ok.exitCode, 0) << ok.err;
    int w = 0, h = 0, n = 0;
    const std::string png = slurp(out);
    stbi_uc* px = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), static_cast<int>(png.size()), &w, &h, &n, 4);
    ASSERT_NE(px, nullptr);
    EXPECT_EQ(w, 64);
    EXPECT_EQ(px[0], 10);
    EXPECT_EQ(px[1], 200);
    EXPECT_EQ(px[2], 30);
    // The model (simple skin, about 2 units tall at the origin) is small and centred from 40 away.
    const size_t centre = (static_cast<size_t>(h / 2) * w + w / 2) * 4;
    EXPECT_NE(px[centre + 1], 200);
    stbi_image_free(px);
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--camera", "0,0,5,0,0,0"}, {"--camera", "0,0,5,0,0,0,x"}, {"--camera", "0,0,5,0,0,0,200"},
          {"--camera", "0,0,0,0,0,0,40"}, {"--camera", "0,5,0,0,0,0,40"}, {"--background", "256,0,0"},
          {"--background", "1,2"}, {"--background", "0.5,0.5,0.5"}, {"--exposure", "-1"}, {"--exposure", "nan"},
          {"--tonemap", "filmic"}, {"--debug-channel", "depth"}, {"--camera", "0,0,5,0,0,0,40", "--azimuth", "10"}}) {
        std::vector<std::string> args = {"render", kSimpleSkin, "-o", dir + "/bad.png"};
        args.insert(args.end(), bad.begin(), bad.end());
        RunResult e = run(kExe, args);
        EXPECT_EQ(e.exitCode, 2) << bad[0] << " " << bad[1] << ": " << e.err;
        EXPECT_EQ(lines(e.err), 1) << e.err;
        EXPECT_FALSE(std::ifstream(dir + "/bad.png").good());
    }
    RunResult env = run(kExe, {"render", kSimpleSkin, "-o", dir + "/env.png", "--env", dir + "/missing.hdr"});
    EXPECT_EQ(env.exitCode, 3) << env.err;
    EXPECT_EQ(lines(env.err), 1) << env.err;
    EXPECT_NE(env.err.find("missing.hdr"), std::string::npos) << env.err;
}

TEST(Cli, ViewerWithoutADisplaySaysSoAndPointsToRender) {
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
    RunResult r = run(kExe, {});
    EXPECT_EQ(r.exitCode, 5);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("rigview render"), std::string::npos) << r.err;
}

TEST(Cli, ErrorsAreOneLineWithTheirExitCodes) {
    const std::string dir = testing::tempDir();
    RunResult missing = run(kExe, {"info", "/nope/missing.fbx"});
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_EQ(lines(missing.err), 1) << missing.err;
    EXPECT_NE(missing.err.find("/nope/missing.fbx"), std::string::npos);

    RunResult badClip = run(kExe, {"pose", kSimpleSkin, "-o", dir + "/x.json", "--clip", "walk"});
    EXPECT_EQ(badClip.exitCode, 2);
    EXPECT_EQ(lines(badClip.err), 1) << badClip.err;
    EXPECT_NE(badClip.err.find("walk"), std::string::npos);

    RunResult badOut = run(kExe, {"pose", kSimpleSkin, "-o", "/nonexistent-dir/x.json"});
    EXPECT_EQ(badOut.exitCode, 4);
    EXPECT_EQ(lines(badOut.err), 1) << badOut.err;

    RunResult badExt = run(kExe, {"pose", kSimpleSkin, "-o", dir + "/x.png"});
    EXPECT_EQ(badExt.exitCode, 2);

    RunResult usage = run(kExe, {"info"});
    EXPECT_EQ(usage.exitCode, 2);
    EXPECT_EQ(lines(usage.err), 1) << usage.err;

    RunResult broken = run(kExe, {"pose", kModels + "invalid/empty.obj", "-o", dir + "/y.json"});
    EXPECT_EQ(broken.exitCode, 3);
    EXPECT_EQ(lines(broken.err), 1) << broken.err;
    EXPECT_NE(broken.err.find("empty.obj"), std::string::npos);
    std::ifstream none(dir + "/y.json");
    EXPECT_FALSE(none.good());  // no output for a failed import
}

TEST(Cli, UnitsAndBindVersusFilePose) {
    const std::string fbx = kModels + "FBX/huesitos.fbx";
    const json metres = json::parse(run(kExe, {"info", fbx, "--json"}).out);
    EXPECT_EQ(metres["units"]["file_unit"], "centimetre");
    EXPECT_DOUBLE_EQ(metres["units"]["scale_applied"].get<double>(), 0.01);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--units", "file", "info", fbx, "--json"},
                                                 std::vector<std::string>{"info", fbx, "--json", "--units", "file"}}) {
        RunResult r = run(kExe, args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_DOUBLE_EQ(json::parse(r.out)["units"]["scale_applied"].get<double>(), 1.0);
    }
    EXPECT_NE(run(kExe, {"info", fbx, "--units", "inches"}).exitCode, 0);
    RunResult text = run(kExe, {"info", fbx});
    EXPECT_NE(text.out.find("units:      centimetre (FBX UnitScaleFactor 1), scaled by 0.01 to metres"), std::string::npos)
        << text.out;

    // simple_skin: its inverse bind matrices put both joints at (0.5, 1, 0), its nodes at (0, 1, 0).
    const std::string dir = testing::tempDir();
    auto joint = [&](const std::string& flag) {
        RunResult r = run(kExe, {"pose", kSimpleSkin, "-o", dir + "/p.json", flag});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        std::ifstream in(dir + "/p.json");
        const json j = json::parse(in);
        EXPECT_EQ(j["pose"], flag == "--bind-pose" ? "bind" : "file");
        return glm::vec3(j["joints"][0]["world"][12].get<float>(), j["joints"][0]["world"][13].get<float>(),
                         j["joints"][0]["world"][14].get<float>());
    };
    EXPECT_NEAR(glm::length(joint("--bind-pose") - glm::vec3(0.5f, 1.0f, 0.0f)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(joint("--file-pose") - glm::vec3(0.0f, 1.0f, 0.0f)), 0.0f, 1e-6f);
    EXPECT_NE(run(kExe, {"pose", kSimpleSkin, "-o", dir + "/p.json", "--bind-pose", "--file-pose"}).exitCode, 0);
    EXPECT_EQ(run(kExe, {"render", kSimpleSkin, "-o", dir + "/b.png", "--size", "64x48", "--file-pose"}).exitCode, 0);
}

// --ik-two-bone on pose: the left leg of the demo reaches a target (hand-picked, reachable),
// the knee bends towards the pole, bone lengths are kept; bad IK options are usage errors.
TEST(Cli, PoseWithTwoBoneIk) {
    const std::string demo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";
    const std::string plainOut = testing::tempDir() + "/ik_plain.json", ikOut = testing::tempDir() + "/ik.json";
    RunResult r = run(kExe, {"pose", demo, "--bind-pose", "-o", plainOut});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = run(kExe, {"pose", demo, "--bind-pose", "-o", ikOut, "--ik-two-bone", "thigh.L,shin.L,foot.L",
                   "--ik-target", "0.2,0.4,0.3", "--ik-pole", "0,0,1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto joints = [&](const std::string& path) {
        std::map<std::string, glm::vec3> out;
        const json doc = json::parse(slurp(path));
        for (const json& jt : doc["joints"]) {
            const auto& w = jt["world"];
            out[jt["name"].get<std::string>()] = glm::vec3(w[12].get<float>(), w[13].get<float>(), w[14].get<float>());
        }
        return out;
    };
    auto a = joints(plainOut), b = joints(ikOut);
    EXPECT_LT(glm::length(b["foot.L"] - glm::vec3(0.2f, 0.4f, 0.3f)), 1e-5f);
    EXPECT_NEAR(glm::length(b["shin.L"] - b["thigh.L"]), glm::length(a["shin.L"] - a["thigh.L"]), 1e-5f);
    EXPECT_NEAR(glm::length(b["foot.L"] - b["shin.L"]), glm::length(a["foot.L"] - a["shin.L"]), 1e-5f);
    EXPECT_GT(b["shin.L"].z, 0.3f);                      // the knee out in front (+Z pole)
    EXPECT_EQ(b["foot.R"], a["foot.R"]);                 // the other leg untouched
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--ik-two-bone", "thigh.L,nope,foot.L", "--ik-target", "0,0,0"},
          std::vector<std::string>{"--ik-two-bone", "thigh.L,shin.L,foot.L"},
          std::vector<std::string>{"--ik-two-bone", "foot.L,shin.L,thigh.L", "--ik-target", "0,0,0"},
          std::vector<std::string>{"--ik-two-bone", "thigh.L,shin.L,foot.L", "--ik-target", "1,nan,0"},
          std::vector<std::string>{"--ik-two-bone", "thigh.L,shin.L,foot.L", "--ik-target", "1,1,0", "--ik-weight", "2"},
          std::vector<std::string>{"--ik-target", "1,1,0"}}) {
        std::vector<std::string> args{"pose", demo, "-o", ikOut};
        args.insert(args.end(), bad.begin(), bad.end());
        r = run(kExe, args);
        EXPECT_EQ(r.exitCode, 2) << bad[1];
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("rigview: " + demo + ": --ik-"), std::string::npos) << r.err;
    }
    // IK poses one model: not a crowd.
    r = run(kExe, {"render", demo, "-o", testing::tempDir() + "/ik_crowd.png", "--instances", "4", "--ik-two-bone",
                   "thigh.L,shin.L,foot.L", "--ik-target", "0.2,0.4,0.3"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
}

// A .glb cut short: `info` and `check` say "truncated" with what the file has of what its
// header or its BIN chunk claims (not Assimp's "No suitable reader found"), one line, exit 3.
TEST(Cli, ATruncatedGlbSaysTruncatedWithItsSizes) {
    const std::string whole = slurp(kModels + "glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb");
    ASSERT_EQ(whole.size(), 1838084u);
    const std::string dir = testing::tempDir();
    auto write = [&](const std::string& name, const std::string& bytes) {
        std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
        return dir + "/" + name;
    };
    // Cut at 600,000 bytes: the header still claims 1,838,084.
    const std::string cut = write("cut.glb", whole.substr(0, 600000));
    for (const char* command : {"info", "check"}) {
        RunResult r = run(kExe, {command, cut});
        EXPECT_EQ(r.exitCode, 3) << command << " " << r.err;
        EXPECT_EQ(r.err, "rigview: " + cut + ": truncated: 600.0 kB of 1.8 MB\n") << command;
    }
    // The header's length made to match the cut: the BIN chunk still runs past the end.
    std::string patched = whole.substr(0, 600000);
    const uint32_t length = 600000;
    patched.replace(8, 4, reinterpret_cast<const char*>(&length), 4);
    RunResult chunk = run(kExe, {"info", write("chunk.glb", patched)});
    EXPECT_EQ(chunk.exitCode, 3) << chunk.err;
    EXPECT_NE(chunk.err.find(": truncated: 600.0 kB of 1.8 MB"), std::string::npos) << chunk.err;
    // One byte short: sizes that round alike are given in bytes.
    RunResult oneByte = run(kExe, {"info", write("short.glb", whole.substr(0, whole.size() - 1))});
    EXPECT_NE(oneByte.err.find(": truncated: 1838083 bytes of 1838084 bytes"), std::string::npos) << oneByte.err;
    // Shorter than the 12-byte header.
    RunResult tiny = run(kExe, {"info", write("tiny.glb", whole.substr(0, 10))});
    EXPECT_NE(tiny.err.find(": truncated: 10 bytes of 12 bytes"), std::string::npos) << tiny.err;
    // `check --json` gives the same line as its error.
    RunResult json = run(kExe, {"check", "--json", cut});
    EXPECT_NE(json.out.find("truncated: 600.0 kB of 1.8 MB"), std::string::npos) << json.out << json.err;
    // The whole file still reads.
    EXPECT_EQ(run(kExe, {"info", write("whole.glb", whole)}).exitCode, 0);
}

}  // namespace
}  // namespace rig
