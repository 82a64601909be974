// `rigview diff A B` end to end on copies of the bundled demo, each edited in one way (a joint
// renamed, one reparented, a bind pose moved 1 cm, the weights of 10 vertices, a clip retimed,
// a mesh's vertex order shuffled): each change reported, and nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "check/rig_diff.h"
#include "support/demo_gltf.h"
#include "support/gunzip.h"
#include "support/rigs.h"
#include "support/run.h"

namespace rig {
namespace {

using nlohmann::json;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kDemoDir = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/";
const std::string kDemo = kDemoDir + "rigview_demo.gltf";

// The demo's glTF and its buffer, to edit (tests/support/demo_gltf.h).
using Gltf = testing::DemoGltf;

Gltf loadDemo() { return testing::loadDemoGltf(kDemoDir); }

// The edits, each applied to a copy of the demo.
void renameNeck(Gltf& g) { g.doc["nodes"][g.node("neck")]["name"] = "neck_renamed"; }

// head from under neck to under chest, its file-pose transform composed with neck's so it
// stays where it was (the bind pose comes from the inverse bind matrices, which stay).
void reparentHead(Gltf& g) {
    const int chest = g.node("chest"), neck = g.node("neck"), head = g.node("head");
    json& n = g.doc["nodes"][neck];
    json& h = g.doc["nodes"][head];
    auto quat = [](const json& q) { return glm::quat(q[3].get<float>(), q[0].get<float>(), q[1].get<float>(), q[2].get<float>()); };
    auto vec = [](const json& v) { return glm::vec3(v[0].get<float>(), v[1].get<float>(), v[2].get<float>()); };
    const glm::quat rn = quat(n["rotation"]), rh = quat(h["rotation"]);
    const glm::vec3 t = vec(n["translation"]) + rn * vec(h["translation"]);
    const glm::quat r = rn * rh;
    h["translation"] = {t.x, t.y, t.z};
    h["rotation"] = {r.x, r.y, r.z, r.w};
    json kids = json::array();
    for (const json& c : n["children"]) {
        if (c.get<int>() != head) kids.push_back(c);
    }
    if (kids.empty()) {
        n.erase("children");
    } else {
        n["children"] = kids;
    }
    g.doc["nodes"][chest]["children"].push_back(head);
}

// The skin bound with spine 1 cm further along +x: its inverse bind matrix alone changes.
void moveSpineBindPose(Gltf& g) { ASSERT_TRUE(testing::moveBindPose(g, "spine", glm::vec3(0.01f, 0.0f, 0.0f))); }

// 0.1 of weight moved from the first influence to the second on 10 vertices of the body.
void reweightTen(Gltf& g) {
    const int w = g.attribute("body", "WEIGHTS_0");
    int changed = 0;
    for (size_t v = 0; v < g.count(w) && changed < 10; v += 7) {
        float* x = g.floats(w, v);
        if (x[0] > 0.3f && x[1] > 0.05f) {
            x[0] -= 0.1f;
            x[1] += 0.1f;
            ++changed;
        }
    }
    ASSERT_EQ(changed, 10);
}

// The wave clip's key times stretched by 10% (2 s -> 2.2 s).
void retimeWave(Gltf& g) {
    for (const json& a : g.doc["animations"]) {
        if (a["name"] != "wave") continue;
        const int input = a["samplers"][0]["input"].get<int>();
        for (size_t k = 0; k < g.count(input); ++k) *g.floats(input, k) *= 1.1f;
        g.doc["accessors"][input]["max"] = {*g.floats(input, g.count(input) - 1)};
    }
}

// The arms mesh's vertices in another order, its triangles renumbered to match.
void shuffleArms(Gltf& g) {
    const int pos = g.attribute("arms", "POSITION");
    const size_t n = g.count(pos);
    std::vector<size_t> order(n);  // new vertex i is old vertex order[i]
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = 0; i < n; ++i) std::swap(order[i], order[(i * 7919 + 13) % n]);
    std::vector<size_t> newOf(n);
    for (size_t i = 0; i < n; ++i) newOf[order[i]] = i;
    for (const char* attr : {"POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"}) {
        const int a = g.attribute("arms", attr);
        const size_t size = static_cast<size_t>(g.element(a, 1) - g.element(a, 0));
        std::vector<uint8_t> old(g.element(a, 0), g.element(a, 0) + size * n);
        for (size_t i = 0; i < n; ++i) std::memcpy(g.element(a, i), old.data() + order[i] * size, size);
    }
    const int idx = g.indices("arms");
    ASSERT_EQ(g.doc["accessors"][idx]["componentType"], 5123);
    for (size_t k = 0; k < g.count(idx); ++k) {
        uint16_t* i = reinterpret_cast<uint16_t*>(g.element(idx, k));
        *i = static_cast<uint16_t>(newOf[*i]);
    }
}

// The edited copies, written once for the whole suite.
class Diff : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new std::string(testing::tempDir());
        std::filesystem::copy_file(kDemoDir + "rigview_demo_albedo.png", *dir_ + "/rigview_demo_albedo.png");
        write("same", [](Gltf&) {});
        write("renamed", renameNeck);
        write("reparented", reparentHead);
        write("bind", moveSpineBindPose);
        write("weights", reweightTen);
        write("retimed", retimeWave);
        write("shuffled", shuffleArms);
        write("all", [](Gltf& g) {
            reparentHead(g);  // finds neck by its name: before the rename
            renameNeck(g);
            moveSpineBindPose(g);
            reweightTen(g);
            retimeWave(g);
            shuffleArms(g);
        });
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    static void write(const std::string& name, const std::function<void(Gltf&)>& edit) {
        Gltf g = loadDemo();
        edit(g);
        testing::writeGltf(std::move(g), *dir_, name);
    }
    static std::string path(const std::string& name) { return *dir_ + "/" + name + ".gltf"; }

    // `rigview diff demo VARIANT --json`: the report, the exit code checked against `differs`.
    static json diff(const std::string& variant, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"diff", kDemo, path(variant), "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const RunResult r = run(kExe, args);
        EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
        json j = json::parse(r.out, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << r.out;
        if (j.is_discarded()) return json::object();
        EXPECT_EQ(j["differs"].get<bool>(), r.exitCode == 1);
        return j;
    }

    // The sections that list something, as "joints.renamed", "clips.motion", "weights", sorted.
    static std::vector<std::string> nonEmpty(const json& j) {
        std::vector<std::string> out;
        for (const char* group : {"joints", "meshes", "clips"}) {
            for (const auto& [key, list] : j[group].items()) {
                if (!list.empty()) out.push_back(std::string(group) + "." + key);
            }
        }
        if (!j["weights"].empty()) out.push_back("weights");
        std::sort(out.begin(), out.end());
        return out;
    }

    static std::string* dir_;
};
std::string* Diff::dir_ = nullptr;

using Sections = std::vector<std::string>;

TEST_F(Diff, SameFileHasNoDifferences) {
    const RunResult r = run(kExe, {"diff", kDemo, path("same")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("no differences"), std::string::npos) << r.out;
    const json j = diff("same");
    EXPECT_FALSE(j["differs"].get<bool>());
    EXPECT_EQ(nonEmpty(j), Sections{});
    for (const char* key : {"tolerance_mm", "tolerance_deg", "weight_tolerance", "a", "b"}) EXPECT_TRUE(j.contains(key)) << key;
}

TEST_F(Diff, RenamedJointIsMatchedByPlace) {
    const json j = diff("renamed");
    EXPECT_EQ(nonEmpty(j), Sections{"joints.renamed"});
    ASSERT_EQ(j["joints"]["renamed"].size(), 1u);
    EXPECT_EQ(j["joints"]["renamed"][0]["from"], "neck");
    EXPECT_EQ(j["joints"]["renamed"][0]["to"], "neck_renamed");
    const RunResult r = run(kExe, {"diff", kDemo, path("renamed")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("renamed    'neck' -> 'neck_renamed'"), std::string::npos) << r.out;
}

TEST_F(Diff, ReparentedJointAndTheMotionItChanges) {
    const json j = diff("reparented");
    // head no longer follows neck's rotation keys: the clips move it differently.
    EXPECT_EQ(nonEmpty(j), (Sections{"clips.motion", "joints.reparented"}));
    ASSERT_EQ(j["joints"]["reparented"].size(), 1u);
    EXPECT_EQ(j["joints"]["reparented"][0]["joint"], "head");
    EXPECT_EQ(j["joints"]["reparented"][0]["parent_a"], "neck");
    EXPECT_EQ(j["joints"]["reparented"][0]["parent_b"], "chest");
    for (const json& m : j["clips"]["motion"]) EXPECT_EQ(m["joint"], "head") << m.dump();
}

TEST_F(Diff, BindPoseMovedOneCentimetre) {
    const json j = diff("bind");
    // The skin bound elsewhere also deforms differently in every clip.
    EXPECT_EQ(nonEmpty(j), (Sections{"clips.motion", "joints.bind_pose"}));
    ASSERT_EQ(j["joints"]["bind_pose"].size(), 1u);
    EXPECT_EQ(j["joints"]["bind_pose"][0]["joint"], "spine");
    EXPECT_NEAR(j["joints"]["bind_pose"][0]["translation_mm"].get<double>(), 10.0, 0.01);
    EXPECT_LT(j["joints"]["bind_pose"][0]["rotation_deg"].get<double>(), 0.01);
    EXPECT_EQ(j["clips"]["motion"].size(), 3u);
    for (const json& m : j["clips"]["motion"]) {
        EXPECT_GT(m["max_mm"].get<double>(), 0.01);
        EXPECT_LE(m["max_mm"].get<double>(), 10.01);  // 1 cm at most, where spine weighs 1
    }
    // Within a 20 mm tolerance nothing differs.
    EXPECT_EQ(run(kExe, {"diff", kDemo, path("bind"), "--tolerance", "20"}).exitCode, 0);
}

TEST_F(Diff, TenVerticesReweighted) {
    const json j = diff("weights");
    Sections s = nonEmpty(j);
    s.erase(std::remove(s.begin(), s.end(), "clips.motion"), s.end());  // the reweighted skin moves differently
    EXPECT_EQ(s, Sections{"weights"});
    ASSERT_EQ(j["weights"].size(), 1u);
    EXPECT_EQ(j["weights"][0]["mesh"], "body");
    EXPECT_EQ(j["weights"][0]["vertices_changed"], 10);
    EXPECT_NEAR(j["weights"][0]["max_delta"].get<double>(), 0.1, 1e-3);
    EXPECT_EQ(j["weights"][0]["vertices"].size(), 10u);
}

TEST_F(Diff, RetimedClip) {
    const json j = diff("retimed");
    EXPECT_EQ(nonEmpty(j), (Sections{"clips.motion", "clips.retimed"}));
    ASSERT_EQ(j["clips"]["retimed"].size(), 1u);
    const json& r = j["clips"]["retimed"][0];
    EXPECT_EQ(r["clip"], "wave");
    EXPECT_NEAR(r["duration_a"].get<double>(), 2.0, 1e-5);
    EXPECT_NEAR(r["duration_b"].get<double>(), 2.2, 1e-5);
    EXPECT_TRUE(r["key_times_changed"].get<bool>());
    ASSERT_EQ(j["clips"]["motion"].size(), 1u);
    EXPECT_EQ(j["clips"]["motion"][0]["clip"], "wave");
    // The union of both versions' key times (61 each; every 10th stretched key lands on an old one).
    EXPECT_GT(j["clips"]["motion"][0]["samples"].get<int>(), 61);
    EXPECT_LE(j["clips"]["motion"][0]["samples"].get<int>(), 122);
}

TEST_F(Diff, ShuffledVertexOrderIsNoDifference) {
    const json j = diff("shuffled");
    EXPECT_FALSE(j["differs"].get<bool>()) << j.dump(1);
    EXPECT_EQ(nonEmpty(j), Sections{});
}

TEST_F(Diff, EveryChangeAtOnce) {
    const json j = diff("all");
    EXPECT_EQ(nonEmpty(j), (Sections{"clips.motion", "clips.retimed", "joints.bind_pose", "joints.renamed",
                                     "joints.reparented", "weights"}));
    EXPECT_EQ(j["joints"]["renamed"].size(), 1u);
    EXPECT_EQ(j["joints"]["reparented"].size(), 1u);
    EXPECT_EQ(j["joints"]["bind_pose"].size(), 1u);
    EXPECT_EQ(j["weights"][0]["vertices_changed"], 10);
}

TEST_F(Diff, UnreadableFileIsOneLineNamingIt) {
    const std::string missing = *dir_ + "/missing.gltf";
    const RunResult r = run(kExe, {"diff", kDemo, missing});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(run(kExe, {"diff", kDemo, path("same"), "--tolerance", "-1"}).exitCode, 2);
    EXPECT_EQ(run(kExe, {"diff", kDemo}).exitCode, 2);
}

TEST(DiffRealFile, SameFileAgainstItself) {
    // A rigged .X, and a glTF whose positions hold infinities (the same non-finite point is no change).
    for (const std::string x : {"/usr/share/assimp/models/X/BCN_Epileptic.X",
                                "/usr/share/assimp/models/glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb"}) {
        const RunResult r = run(kExe, {"diff", x, x, "--json"});
        ASSERT_EQ(r.exitCode, 0) << x << ": " << r.err;
        const json j = json::parse(r.out);
        EXPECT_FALSE(j["differs"].get<bool>()) << x;
    }
}

// The library on synthetic rigs (no files).
TEST(DiffModels, ClipRenamedIsMatchedByItsMotion) {
    const Model a = testing::makeChain(12, 30);
    Model b = a;
    b.clips[0].name = "anim2";
    const RigDiff d = diffModels(a, b);
    ASSERT_EQ(d.clipsRenamed.size(), 1u);
    EXPECT_EQ(d.clipsRenamed[0].from, "anim");
    EXPECT_EQ(d.clipsRenamed[0].to, "anim2");
    EXPECT_TRUE(d.clipsRemoved.empty() && d.clipsAdded.empty() && d.clipsRetimed.empty());
    EXPECT_TRUE(d.clipMotion.empty() && d.jointsRenamed.empty() && d.weightsChanged.empty());
    EXPECT_FALSE(diffModels(a, a).differs());
    // Renamed and moving otherwise (every key 10 cm higher): another clip, removed and added.
    for (glm::vec3& t : b.clips[0].vec3Keys) t += glm::vec3(0.0f, 0.1f, 0.0f);
    const RigDiff e = diffModels(a, b);
    EXPECT_TRUE(e.clipsRenamed.empty());
    EXPECT_EQ(e.clipsRemoved, std::vector<std::string>{"anim"});
    EXPECT_EQ(e.clipsAdded, std::vector<std::string>{"anim2"});
}

TEST(DiffModels, WithoutMeshesTheJointsMotionIsCompared) {
    Model a = testing::makeChain(6, 30);
    a.meshes.clear();
    Model b = a;
    for (glm::vec3& t : b.clips[0].vec3Keys) t += glm::vec3(0.0f, 0.0f, 0.001f);  // 1 mm in z (and in scale)
    const RigDiff d = diffModels(a, b);
    ASSERT_EQ(d.clipMotion.size(), 1u) << toJson(d).dump(1);
    EXPECT_TRUE(d.clipMotion[0].mesh.empty());
    EXPECT_FALSE(d.clipMotion[0].joint.empty());
    EXPECT_GT(d.clipMotion[0].maxMm, 0.5);
    EXPECT_FALSE(diffModels(a, a).differs());
}

TEST(DiffModels, LengthsCompareInMetres) {
    // b kept in centimetres (as --units file would): every length 100 times larger.
    const Model a = testing::makeTwoBone();
    Model b = a;
    for (glm::mat4& m : b.skeleton.bindLocal) m[3] = glm::vec4(glm::vec3(m[3]) * 100.0f, 1.0f);
    for (Transform& t : b.skeleton.bindLocalSqt) t.translation *= 100.0f;
    b.skeleton.computeBindModel();
    for (glm::vec3& p : b.meshes[0].positions) p *= 100.0f;
    for (glm::mat4& m : b.meshes[0].skin.inverseBind) m[3] = glm::vec4(glm::vec3(m[3]) * 100.0f, 1.0f);
    computeSkinBindPose(b);
    DiffOptions o;
    o.metresPerUnitB = 0.01;
    const RigDiff d = diffModels(a, b, o);
    EXPECT_FALSE(d.differs()) << toJson(d).dump(1);
    EXPECT_TRUE(diffModels(a, b).differs());  // read as metres, everything moved
}

TEST(DiffModels, ManyVerticesAtOnePlaceMatchInLinearTime) {
    Model a = testing::makeTwoBone();
    Mesh& m = a.meshes[0];
    const size_t n = 50000;  // quadratic matching would take ~10^9 steps
    m.positions.assign(n, glm::vec3(0.5f));
    m.normals.assign(n, glm::vec3(0, 1, 0));
    m.joints.assign(n, {0, 1, 0, 0});
    m.weights.assign(n, glm::vec4(0.5f, 0.5f, 0, 0));
    m.indices = {0, 1, 2};
    Model b = a;
    b.meshes[0].weights[n - 1] = glm::vec4(0.25f, 0.75f, 0, 0);
    b.meshes[0].positions[0] = glm::vec3(0.4f);  // differs from a's, so the grid search runs
    const RigDiff d = diffModels(a, b);
    ASSERT_EQ(d.meshesChanged.size(), 1u);
    EXPECT_EQ(d.meshesChanged[0].unmatchedA, 1u);
    EXPECT_EQ(d.meshesChanged[0].unmatchedB, 1u);
    ASSERT_EQ(d.weightsChanged.size(), 1u);
    EXPECT_EQ(d.weightsChanged[0].count, 1u);
    EXPECT_NEAR(d.weightsChanged[0].maxDelta, 0.25, 1e-6);
}

// `m` placed elsewhere as a whole: its root node (which the meshes hang from, so their
// vertices and inverse bind matrices, in the mesh node's space, go with it) moved by `p` (a
// similarity): the rig, its skin and its motion are the same, only somewhere else (the root
// must not be animated).
Model placed(Model m, const glm::mat4& p) {
    const glm::quat r = glm::quat_cast(glm::mat3(glm::normalize(glm::vec3(p[0])), glm::normalize(glm::vec3(p[1])),
                                                 glm::normalize(glm::vec3(p[2]))));
    const float s = glm::length(glm::vec3(p[0]));
    m.skeleton.bindLocal[0] = p * m.skeleton.bindLocal[0];
    Transform& t = m.skeleton.bindLocalSqt[0];
    t.translation = glm::vec3(p * glm::vec4(t.translation, 1.0f));
    t.rotation = r * t.rotation;
    t.scale *= s;
    m.skeleton.computeBindModel();
    for (const Mesh& mesh : m.meshes) EXPECT_EQ(mesh.node, 0);
    computeSkinBindPose(m);
    return m;
}

TEST(DiffModels, PlacementIsToldOnceAndTheRestComparedInItsFrame) {
    const Model a = testing::makeTwoBone();
    const glm::mat4 p = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(1.0f, 0.0f, 2.0f)), glm::radians(90.0f),
                                    glm::vec3(0.0f, 1.0f, 0.0f));
    Model b = placed(a, p);
    RigDiff d = diffModels(a, b);
    ASSERT_TRUE(d.placement.moved) << toJson(d).dump(1);
    EXPECT_NEAR(d.placement.rotationDeg, 90.0, 1e-3);
    EXPECT_NEAR(d.placement.axis[1], 1.0, 1e-6);
    EXPECT_NEAR(d.placement.translationMm[0], 1000.0, 1e-2);
    EXPECT_NEAR(d.placement.translationMm[2], 2000.0, 1e-2);
    EXPECT_NEAR(d.placement.scale, 1.0, 1e-6);
    EXPECT_FALSE(d.differs(false)) << "only the placement: " << toJson(d).dump(1);
    // Placed, and the tip's bind pose moved 1 cm: the placement, and that joint alone.
    Model c = b;
    glm::mat4& tipInverseBind = c.meshes[0].skin.inverseBind[1];
    tipInverseBind = tipInverseBind * glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -0.01f, 0.0f));
    computeSkinBindPose(c);
    d = diffModels(a, c);
    EXPECT_TRUE(d.placement.moved);
    ASSERT_EQ(d.bindPoseMoved.size(), 1u) << toJson(d).dump(1);
    EXPECT_EQ(d.bindPoseMoved[0].joint, "tip");
    EXPECT_NEAR(d.bindPoseMoved[0].translationMm, 10.0, 1e-2);
    // A chain of 12 (the least-squares fit of all joints): turned 30 degrees about x and 100 times
    // larger (a file in centimetres read as metres): the placement says so, nothing else differs.
    Model e = testing::makeChain(12, 0);
    const glm::mat4 q = glm::scale(glm::rotate(glm::mat4(1.0f), glm::radians(30.0f), glm::vec3(1.0f, 0.0f, 0.0f)), glm::vec3(100.0f));
    d = diffModels(e, placed(e, q));
    EXPECT_TRUE(d.placement.moved);
    EXPECT_NEAR(d.placement.scale, 100.0, 1e-3);
    EXPECT_NEAR(d.placement.rotationDeg, 30.0, 1e-3);
    EXPECT_FALSE(d.differs(false)) << toJson(d).dump(1);
}

// An FBX file and Blender's glTF export of it with Blender's defaults (tests/data/blender,
// tools/blender/fbx_to_gltf.py): the same character in centimetres and metres; the joints,
// meshes, weights and motion (within 0.1 mm) are the same. What differs is real, and made by
// Blender's converter: the FBX's keys run from 0 s (its KeyTime values) and the glTF's from 1/24 s
// (its accessors' min), since Blender's FBX import starts clips one frame late by default
// ("Animation Offset"); the clip names get the object's name in front; and the materials take
// other values than rigview (and three.js) draw for the FBX's Phong ones (its diffuse colour as
// a linear value, not a display one; its roughness by another rule; two-sided).
TEST(DiffRealFile, FbxAndItsBlenderGltfExportDifferOnlyInNamesTimesAndMaterials) {
    const std::string data = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/blender/";
    const std::string fbx = testing::gunzip(data + "blender_demo.fbx.gz");
    const std::string glb = testing::gunzip(data + "blender_demo_from_fbx.glb.gz");
    ASSERT_FALSE(fbx.empty() || glb.empty());
    const RunResult r = run(kExe, {"diff", fbx, glb, "--json", "--tolerance", "0.1"});
    ASSERT_EQ(r.exitCode, 1) << r.err;
    const json j = json::parse(r.out);
    EXPECT_FALSE(j["placement"]["moved"].get<bool>()) << j["placement"];  // rigview reads both in metres, Y up
    EXPECT_NEAR(j["placement"]["metres_per_unit_a"].get<double>(), 1.0, 1e-9);
    for (const char* group : {"joints", "meshes"}) {
        for (const auto& [key, list] : j[group].items()) EXPECT_TRUE(list.empty()) << group << "." << key << ": " << list;
    }
    EXPECT_TRUE(j["weights"].empty()) << j["weights"];
    EXPECT_TRUE(j["clips"]["motion"].empty()) << j["clips"]["motion"];  // within 0.1 mm at every key of both
    EXPECT_TRUE(j["clips"]["added"].empty() && j["clips"]["removed"].empty());
    ASSERT_EQ(j["clips"]["renamed"].size(), 3u);
    EXPECT_EQ(j["clips"]["renamed"][0]["to"], "rig|rig|" + j["clips"]["renamed"][0]["from"].get<std::string>().substr(4));
    for (const json& rt : j["clips"]["retimed"]) {  // one frame later, the same keys from there
        EXPECT_FALSE(rt["key_times_changed"].get<bool>()) << rt;
        EXPECT_NEAR(rt["start_b"].get<double>() - rt["start_a"].get<double>(), 1.0 / 24.0, 1e-5) << rt;
    }
    // What Blender's FBX import makes of the FBX's Phong materials (colour, roughness, two sides).
    EXPECT_EQ(j["materials"].size(), 2u);
    // In text: the clip renames and no motion line.
    const RunResult text = run(kExe, {"diff", fbx, glb, "--tolerance", "0.1"});
    EXPECT_NE(text.out.find("renamed    'rig|idle_rig' -> 'rig|rig|idle_rig' (the same motion)"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("motion "), std::string::npos) << text.out;
}

// An FBX file and Blender's glTF export of it made to keep what the FBX says
// (tools/blender/fbx_to_gltf_placed.py: the key times, the clip names, the materials as the
// FBX's Phong values are drawn) with the whole character placed elsewhere: centimetres against
// metres, turned 90 degrees and moved 2 m and 1 m. diff reports the placement and nothing else,
// the motion included at 0.1 mm. The same export with one joint's rest moved 2 cm (hand.L):
// that joint's bind pose and the motion it brings are reported, the placement still found.
TEST(DiffRealFile, FbxAndItsPlacedBlenderGltfExportDifferOnlyInPlacement) {
    const std::string data = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/";
    const std::string fbx = testing::gunzip(data + "blender/blender_demo.fbx.gz");
    const std::string glb = testing::gunzip(data + "fbx_gltf/blender_demo_placed.glb.gz");
    const std::string moved = testing::gunzip(data + "fbx_gltf/blender_demo_placed_hand_moved.glb.gz");
    ASSERT_FALSE(fbx.empty() || glb.empty() || moved.empty());
    const auto expectPlaced = [](const json& p, int matched) {
        EXPECT_TRUE(p["moved"].get<bool>()) << p;
        EXPECT_NEAR(p["rotation_deg"].get<double>(), 90.0, 1e-3) << p;
        EXPECT_NEAR(p["axis"][1].get<double>(), 1.0, 1e-6) << p;  // about the up axis
        EXPECT_NEAR(p["translation_mm"][0].get<double>(), 2000.0, 0.01) << p;
        EXPECT_NEAR(p["translation_mm"][1].get<double>(), 0.0, 0.01) << p;
        EXPECT_NEAR(p["translation_mm"][2].get<double>(), -1000.0, 0.01) << p;
        EXPECT_NEAR(p["scale"].get<double>(), 1.0, 1e-6) << p;
        EXPECT_EQ(p["joints_matched"], matched) << p;
        EXPECT_EQ(p["joints_compared"], 22) << p;
    };
    const RunResult r = run(kExe, {"diff", fbx, glb, "--json", "--tolerance", "0.1"});
    ASSERT_EQ(r.exitCode, 1) << r.err;  // the placement differs
    const json j = json::parse(r.out);
    expectPlaced(j["placement"], 22);
    EXPECT_NEAR(j["placement"]["metres_per_unit_a"].get<double>(), 1.0, 1e-9);  // both read in metres
    EXPECT_NEAR(j["placement"]["metres_per_unit_b"].get<double>(), 1.0, 1e-9);
    for (const char* group : {"joints", "meshes", "clips"}) {
        for (const auto& [key, list] : j[group].items()) EXPECT_TRUE(list.empty()) << group << "." << key << ": " << list;
    }
    EXPECT_TRUE(j["weights"].empty()) << j["weights"];
    EXPECT_TRUE(j["materials"].empty()) << j["materials"];
    const RunResult text = run(kExe, {"diff", fbx, glb, "--tolerance", "0.1"});
    EXPECT_NE(text.out.find("placement: B is A turned 90.000 deg"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("nothing else differs"), std::string::npos) << text.out;
    EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), 3) << text.out;  // the header, placement, "nothing else"

    // A real change is reported: one joint moved.
    const RunResult m = run(kExe, {"diff", fbx, moved, "--json", "--tolerance", "0.1"});
    ASSERT_EQ(m.exitCode, 1) << m.err;
    const json k = json::parse(m.out);
    expectPlaced(k["placement"], 21);
    ASSERT_EQ(k["joints"]["bind_pose"].size(), 1u) << k["joints"];
    EXPECT_EQ(k["joints"]["bind_pose"][0]["joint"], "hand.L");
    EXPECT_NEAR(k["joints"]["bind_pose"][0]["translation_mm"].get<double>(), 20.0, 0.01);
    EXPECT_EQ(k["clips"]["motion"].size(), 3u) << k["clips"];
    for (const json& motion : k["clips"]["motion"]) EXPECT_EQ(motion["joint"], "hand.L") << motion;
    EXPECT_TRUE(k["materials"].empty() && k["weights"].empty()) << k;
}

// Large inputs made by a generator (issue 43): matching is by hash and sorting, never pairwise,
// so 200,000 joints all renamed, or 200,000-vertex meshes with a NaN each in another place,
// take seconds (pairwise: 4e10 steps, hours).
TEST(DiffModels, TwoHundredThousandRenamedJointsMatchByPlace) {
    Model a = testing::makeWideTree(200000, 0);
    Model b = a;
    for (std::string& n : b.skeleton.names) n = "renamed_" + n;
    // And one joint moved 0.5 mm: matched all the same (within 1 mm), its bind pose reported.
    const size_t moved = 123457;
    b.skeleton.bindLocal[moved][3].x += 0.0005f;
    b.skeleton.bindLocalSqt[moved].translation.x += 0.0005f;
    b.skeleton.computeBindModel();
    const RigDiff d = diffModels(a, b);
    EXPECT_EQ(d.jointsRenamed.size(), 200000u);
    EXPECT_TRUE(d.jointsAdded.empty() && d.jointsRemoved.empty() && d.jointsReparented.empty());
    ASSERT_FALSE(d.bindPoseMoved.empty());
    EXPECT_EQ(d.bindPoseMoved[0].joint, "renamed_joint123457");
}

Model gridMesh(size_t n) {
    Model m = testing::makeTwoBone();
    m.clips.clear();
    Mesh& mesh = m.meshes[0];
    mesh.positions.resize(n);
    mesh.normals.assign(n, glm::vec3(0, 1, 0));
    mesh.joints.assign(n, {0, 1, 0, 0});
    mesh.weights.assign(n, glm::vec4(0.5f, 0.5f, 0, 0));
    for (size_t i = 0; i < n; ++i) {
        mesh.positions[i] = glm::vec3(static_cast<float>(i % 100), static_cast<float>((i / 100) % 100), static_cast<float>(i / 10000)) * 0.01f;
    }
    mesh.indices = {0, 1, 2};
    return m;
}

TEST(DiffModels, LargeMeshesWithANaNEachMatchInLinearTime) {
    const size_t n = 200000;
    Model a = gridMesh(n);
    Model b = a;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    a.meshes[0].positions[1000].y = nan;
    b.meshes[0].positions[150000].x = nan;
    std::reverse(b.meshes[0].positions.begin(), b.meshes[0].positions.end());  // another order too
    const RigDiff d = diffModels(a, b);
    ASSERT_EQ(d.meshesChanged.size(), 1u) << toJson(d).dump(1);
    // Vertices are compared posed (bind pose, model space), where a NaN coordinate makes the
    // whole point NaN: the two NaN vertices are the same point, and a's vertex 150000 and b's
    // vertex 1000 (finite where the other is NaN) are left over.
    EXPECT_EQ(d.meshesChanged[0].unmatchedA, 1u);
    EXPECT_EQ(d.meshesChanged[0].unmatchedB, 1u);
    // NaN against NaN in the same coordinate is the same point: a NaN each at the same vertex, no change.
    Model c = gridMesh(n);
    c.meshes[0].positions[7].z = nan;
    Model e = c;
    std::reverse(e.meshes[0].positions.begin(), e.meshes[0].positions.end());
    EXPECT_FALSE(diffModels(c, e).differs()) << toJson(diffModels(c, e)).dump(1);
    // Every vertex NaN, in another order: matched point for point (NaN equals NaN), no change.
    for (glm::vec3& p : c.meshes[0].positions) p = glm::vec3(nan, p.y, nan);
    e = c;
    std::reverse(e.meshes[0].positions.begin(), e.meshes[0].positions.end());
    EXPECT_FALSE(diffModels(c, e).differs());
}

}  // namespace
}  // namespace rig
