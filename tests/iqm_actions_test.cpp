// IQM action files (src/import/iqm.cpp, import/import.cpp): a mesh file plus one file per
// action, animation-only (poses, no joints) or with named joints, written byte by byte by
// tests/iqm_actions.py (nothing of rigview's), played on the mesh's skeleton and checked
// against the joint world translations and skinned vertices that script worked out; the same
// through `rigview pose` and `info`; mismatched files refused with one line; mrfixit.iqm's
// own animation cut out into an animation-only file plays as the embedded one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "import/iqm/iqm.h"
#include "support/iqm_writer.h"
#include "support/run.h"

namespace rig {
namespace {

using nlohmann::json;
using testing::field;
using testing::put32;

const std::string kDir = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/iqm/actions/";
const std::string kExe = RIGVIEW_EXE;
const std::string kMrFixit = "/usr/share/assimp/models/IQM/mrfixit.iqm";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// rigview's root node turns IQM's Z-up file space into Y-up: (x, y, z) -> (x, z, -y).
glm::vec3 yUp(const json& p) { return {p[0].get<float>(), p[2].get<float>(), -p[1].get<float>()}; }

void expectNear(const glm::vec3& a, const glm::vec3& b, float tol, const std::string& what) {
    EXPECT_NEAR(a.x, b.x, tol) << what;
    EXPECT_NEAR(a.y, b.y, tol) << what;
    EXPECT_NEAR(a.z, b.z, tol) << what;
}

const json& reference() {
    static const json r = json::parse(slurp(kDir + "reference.json"));
    return r;
}

Model loadCharacter() {
    Result<Model> r = importModelWithAnims(kDir + "character.iqm", {kDir + "walk.iqm", kDir + "wave.iqm", kDir + "jump.iqm"});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

TEST(IqmActions, EveryActionFileBecomesClipsOnTheMeshSkeleton) {
    const Model m = loadCharacter();
    ASSERT_EQ(m.clips.size(), 4u);
    EXPECT_EQ(m.clips[0].name, "walk");
    EXPECT_EQ(m.clips[1].name, "wave");
    EXPECT_EQ(m.clips[2].name, "nod");
    EXPECT_EQ(m.clips[3].name, "jump");
    for (const Clip& c : m.clips) {
        const json& ref = reference()["clips"][c.name];
        EXPECT_DOUBLE_EQ(c.ticksPerSecond, ref["fps"].get<double>()) << c.name;
        const int keys = ref["frames"].get<int>() - (ref["loop"].get<bool>() ? 0 : 1);
        EXPECT_NEAR(c.duration, keys / ref["fps"].get<float>(), 1e-6f) << c.name;
        EXPECT_EQ(c.tracks.size(), 5u) << c.name;
    }
    ASSERT_EQ(m.stats.retargetNotes.size(), 3u);
    EXPECT_NE(m.stats.retargetNotes[0].find("by index"), std::string::npos) << m.stats.retargetNotes[0];
    EXPECT_EQ(m.stats.retargetNotes[2].find("by index"), std::string::npos) << m.stats.retargetNotes[2];  // jump: by name
}

// At every frame of every action (and a looped action's end, back at frame 0): each joint's
// world translation and each skinned vertex (model space) as tests/iqm_actions.py has them.
TEST(IqmActions, PosesAndSkinnedVerticesMatchTheWritersReference) {
    const Model m = loadCharacter();
    ASSERT_EQ(m.clips.size(), 4u);
    ASSERT_EQ(m.meshes.size(), 1u);
    Animator anim(m);
    std::vector<glm::vec3> skinned(m.meshes[0].vertexCount());
    int checked = 0;
    for (int32_t c = 0; c < 4; ++c) {
        const json& ref = reference()["clips"][m.clips[c].name];
        for (const json& s : ref["samples"]) {
            const float t = s["time"].get<float>();
            const std::string at = m.clips[c].name + " t=" + std::to_string(t);
            anim.evaluate(c, t);
            for (const auto& [name, pos] : s["joints"].items()) {
                const int32_t node = m.skeleton.find(name);
                ASSERT_GE(node, 0) << name;
                expectNear(glm::vec3(anim.world()[node][3]), yUp(pos), 2e-5f, at + " joint " + name);
            }
            skinMesh(m.meshes[0], anim.palette().data() + anim.paletteOffset(0), skinned.data(), nullptr);
            for (size_t v = 0; v < skinned.size(); ++v) {
                const glm::vec3 p(anim.skinToModel(0) * glm::vec4(skinned[v], 1.0f));
                expectNear(p, yUp(s["vertices"][v]), 2e-5f, at + " vertex " + std::to_string(v));
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, 7 + 5 + 4 + 4);
}

TEST(IqmActions, CommandLinePoseAndInfoPlayTheActionFiles) {
    const std::string dir = testing::tempDir();
    const std::vector<std::string> model = {kDir + "character.iqm", "--anim", kDir + "walk.iqm", "--anim", kDir + "wave.iqm"};
    std::vector<std::string> args = {"info"};
    args.insert(args.end(), model.begin(), model.end());
    args.push_back("--json");
    testing::RunResult info = testing::run(kExe, args);
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const json j = json::parse(info.out);
    ASSERT_EQ(j["clips"].size(), 3u);
    EXPECT_EQ(j["clips"][2]["name"], "nod");
    EXPECT_EQ(j["added_animations"].size(), 2u);
    // "nod" at its third frame and "walk" at its fourth, as the script has them.
    for (const auto& [clip, frame] : {std::pair<std::string, int>{"nod", 2}, {"walk", 3}}) {
        const json& s = reference()["clips"][clip]["samples"][frame];
        args = {"pose"};
        args.insert(args.end(), model.begin(), model.end());
        const std::string out = dir + "/" + clip + ".json";
        for (const std::string& a : {std::string("--clip"), clip, std::string("--time"), s["time"].dump(), std::string("-o"), out}) {
            args.push_back(a);
        }
        testing::RunResult r = testing::run(kExe, args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const json p = json::parse(slurp(out));
        EXPECT_EQ(p["clip"], clip);
        int joints = 0;
        for (const json& jt : p["joints"]) {
            if (!s["joints"].contains(jt["name"].get<std::string>())) continue;
            const json& w = jt["world"];
            expectNear({w[12].get<float>(), w[13].get<float>(), w[14].get<float>()}, yUp(s["joints"][jt["name"].get<std::string>()]),
                       1e-4f, clip + " " + jt["name"].get<std::string>());
            ++joints;
        }
        EXPECT_EQ(joints, 5);
        const json& pos = p["meshes"][0]["positions"];
        ASSERT_EQ(pos.size(), 27u);
        for (size_t v = 0; v < 9; ++v) {
            expectNear({pos[3 * v].get<float>(), pos[3 * v + 1].get<float>(), pos[3 * v + 2].get<float>()},
                       yUp(s["vertices"][v]), 1e-4f, clip + " vertex " + std::to_string(v));
        }
    }
}

void expectRefused(const std::vector<std::string>& args, const std::string& what) {
    testing::RunResult r = testing::run(kExe, args);
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

TEST(IqmActions, MismatchedOrLoneActionFilesAreRefusedWithOneLine) {
    const std::string model = kDir + "character.iqm";
    expectRefused({"info", model, "--anim", kDir + "short.iqm"},
                  kDir + "short.iqm: 4 poses, the model " + model + " has 5 joints");
    expectRefused({"pose", model, "--anim", kDir + "walk.iqm", "--anim", kDir + "reparented.iqm", "-o", testing::tempDir() + "/x.json"},
                  kDir + "reparented.iqm: pose 3's parent is 1, joint 3 ('head')'s parent in " + model + " is 2");
    expectRefused({"info", kDir + "walk.iqm"}, "walk.iqm: IQM: an animation-only file (5 poses, no joints)");
    expectRefused({"info", "/usr/share/assimp/models/BVH/01_01.bvh", "--anim", kDir + "walk.iqm"}, "is not an IQM file");
}

// Every byte of an action file set to 0xff or 0x80 in turn: the clips or one line naming the
// action file, never a crash.
TEST(IqmActions, EveryByteOfAnActionFileCorruptedReadsOrFailsCleanly) {
    const std::string model = slurp(kDir + "character.iqm"), good = slurp(kDir + "wave.iqm");
    const auto* m = reinterpret_cast<const uint8_t*>(model.data());
    size_t read = 0;
    for (size_t i = 0; i < good.size(); ++i) {
        for (uint8_t v : {uint8_t(0xff), uint8_t(0x80)}) {
            std::vector<uint8_t> b(good.begin(), good.end());
            b[i] = v;
            Result<Model> r = parseIqmAnimations(b.data(), b.size(), "x.iqm", m, model.size(), "character.iqm");
            if (!r.ok()) {
                EXPECT_EQ(r.error().message.rfind("x.iqm: ", 0), 0u) << r.error().message;
                EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
                continue;
            }
            ++read;
            Animator a(*r);
            EXPECT_EQ(r->skeleton.names.size(), 6u);
            for (int32_t c = 0; c < static_cast<int32_t>(r->clips.size()); ++c) {
                EXPECT_TRUE(std::isfinite(r->clips[c].duration));
                a.evaluate(c, 0.37f * r->clips[c].duration);  // huge but finite scales may give Inf poses
            }
        }
    }
    EXPECT_GT(read, good.size() / 4);  // most bytes are frame data, offsets and scales
}

// mrfixit.iqm (the IQM project's own exporter) cut down to an animation-only file by its header
// alone (no joints, meshes, vertices or bounds: the IQM compiler's layout for an animation file
// without -j): its "idle" played from that file on mrfixit's joints poses every joint as the
// embedded "idle" at every one of the 101 frames.
TEST(IqmActions, MrFixitsIdleCutIntoAnAnimationOnlyFilePlaysAsTheEmbeddedOne) {
    const std::string bytes = slurp(kMrFixit);
    ASSERT_EQ(bytes.size(), 257808u);
    std::vector<uint8_t> anim(bytes.begin(), bytes.end());
    for (testing::Field f : {testing::kNumMeshes, testing::kOfsMeshes, testing::kNumVertexArrays, testing::kNumVertexes,
                             testing::kOfsVertexArrays, testing::kNumTriangles, testing::kOfsTriangles,
                             testing::kOfsAdjacency, testing::kNumJoints, testing::kOfsJoints, testing::kOfsBounds}) {
        put32(anim, field(f), 0);
    }
    EXPECT_TRUE(isIqmAnimationOnly(anim.data(), anim.size()));
    const std::string path = testing::tempDir() + "/idle_only.iqm";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(anim.data()), static_cast<std::streamsize>(anim.size()));
    Result<Model> r = importModelWithAnims(kMrFixit, {path});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = *r;
    ASSERT_EQ(m.clips.size(), 2u);
    EXPECT_EQ(m.clips[1].name, "idle_only:idle");  // "idle" is taken by the embedded clip
    Animator embedded(m), added(m);
    for (int frame = 0; frame <= 100; ++frame) {
        embedded.evaluate(0, frame / 24.0f);
        added.evaluate(1, frame / 24.0f);
        for (size_t n = 0; n < m.skeleton.size(); ++n) {
            for (int c = 0; c < 4; ++c) {
                for (int k = 0; k < 3; ++k) {
                    ASSERT_EQ(embedded.world()[n][c][k], added.world()[n][c][k]) << "frame " << frame << " node " << n;
                }
            }
        }
    }
    // The file with one pose too few, and with a pose reparented: one line each.
    std::vector<uint8_t> fewer = anim;
    put32(fewer, field(testing::kNumPoses), 74);
    Result<Model> bad = parseIqmAnimations(fewer.data(), fewer.size(), "idle.iqm",
                                           reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "mrfixit.iqm");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "idle.iqm: 74 poses, the model mrfixit.iqm has 75 joints");
    std::vector<uint8_t> moved = anim;
    const uint32_t ofsPoses = testing::get32(anim, field(testing::kOfsPoses));
    put32(moved, ofsPoses + 88 * 7, 0xffffffffu);  // a root
    bad = parseIqmAnimations(moved.data(), moved.size(), "idle.iqm", reinterpret_cast<const uint8_t*>(bytes.data()),
                             bytes.size(), "mrfixit.iqm");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message.rfind("idle.iqm: pose 7's parent is -1, joint 7 (", 0), 0u) << bad.error().message;
    EXPECT_NE(bad.error().message.find("'s parent in mrfixit.iqm is "), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace rig
