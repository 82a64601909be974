// Rig diagnostics (`rigview check`) and the per-vertex numbers of the viewer's check views.
//
// Each check has a rig that triggers it and one that does not. Rigs are glTF files written by
// the test (tests/support/gltf_writer) and read back through Assimp like any user file; where
// glTF or Assimp 5.2.5 cannot carry the problem to us, the Model is built in code and the test
// says why. The clean rig (cleanRig) is the "does not trigger" case of every check; near
// misses (just under a threshold) are tested where a check has a threshold. Real files from
// assimp-testmodels and the bundled demo asset give the findings asserted at the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "check/check_config.h"
#include "check/codes.h"
#include "check/diagnostics.h"
#include "check/vertex_views.h"
#include "import/import.h"
#include "support/gltf_writer.h"
#include "support/rigs.h"
#include "support/run.h"

namespace rig {
namespace {

namespace g = testing::gltf;

const std::string kModels = "/usr/share/assimp/models/";
const std::string kDemo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

glm::quat rotZ(float degrees) { return glm::angleAxis(glm::radians(degrees), glm::vec3(0, 0, 1)); }

// ---- finding helpers -------------------------------------------------------------------

std::vector<const Finding*> all(const Report& r, const std::string& code) {
    std::vector<const Finding*> out;
    for (const Finding& f : r.findings)
        if (f.code == code) out.push_back(&f);
    return out;
}

const Finding* find(const Report& r, const std::string& code) {
    auto v = all(r, code);
    return v.empty() ? nullptr : v.front();
}

bool has(const Report& r, const std::string& code) { return find(r, code) != nullptr; }

std::string describe(const Report& r) {
    std::string s;
    for (const Finding& f : r.findings) s += std::string(severityName(f.severity)) + " [" + f.code + "] " + f.message + "\n";
    return s.empty() ? "(no findings)\n" : s;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// ---- the clean rig ---------------------------------------------------------------------
// Nodes: 0 "rig" (root) -> 1 "hips" (0,1,0) -> 2 "spine" (+0.5 y) -> 3 "head" (+0.5 y);
// 4 "body" (the skinned mesh, child of "rig"). The mesh is a square column of 7 rings of 4
// vertices from y = 0.9 to 2.1, weighted smoothly between neighbouring joints (1 or 2
// influences, summing to 1). Offset matrices are the inverses of the joints' bind transforms.
// Clip "walk": 1 s, keys every 1/30 s: spine and head sway about Z (10 and 5 degrees), the
// hips bob; the last key equals the first (a clean loop).

constexpr int kHips = 1, kSpine = 2, kHead = 3, kBody = 4;

g::Influences influencesAt(float y) {
    // Joints along y: hips 1.0, spine 1.5, head 2.0 (skin slots 0, 1, 2).
    if (y <= 1.0f) return {{0, 1.0f}};
    if (y >= 2.0f) return {{2, 1.0f}};
    const uint16_t lo = y < 1.5f ? 0 : 1;
    const float a = (y - (1.0f + 0.5f * lo)) / 0.5f;
    if (a <= 0.0f) return {{lo, 1.0f}};
    return {{lo, 1.0f - a}, {static_cast<uint16_t>(lo + 1), a}};
}

g::Channel rotationChannel(int node, std::vector<float> times, const std::vector<glm::quat>& keys,
                           const std::string& interpolation = "LINEAR") {
    g::Channel c;
    c.node = node;
    c.path = "rotation";
    c.interpolation = interpolation;
    c.times = std::move(times);
    for (const glm::quat& q : keys) g::appendQuat(c.values, q);
    return c;
}

g::Channel vec3Channel(int node, const std::string& path, std::vector<float> times, const std::vector<glm::vec3>& keys) {
    g::Channel c;
    c.node = node;
    c.path = path;
    c.times = std::move(times);
    for (const glm::vec3& v : keys) g::appendVec3(c.values, v);
    return c;
}

g::Animation walkClip(const std::string& name = "walk", float hipsForward = 0.0f) {
    g::Animation a;
    a.name = name;
    std::vector<float> times;
    std::vector<glm::quat> spine, head;
    std::vector<glm::vec3> hips;
    for (int k = 0; k <= 30; ++k) {
        const float t = static_cast<float>(k) / 30.0f;
        const float s = k == 30 ? 0.0f : std::sin(2.0f * 3.14159265f * t);
        times.push_back(t);
        spine.push_back(rotZ(10.0f * s));
        head.push_back(rotZ(-5.0f * s));
        hips.push_back(glm::vec3(hipsForward * t, 1.0f + 0.02f * s * s, 0.0f));
    }
    a.channels.push_back(rotationChannel(kSpine, times, spine));
    a.channels.push_back(rotationChannel(kHead, times, head));
    a.channels.push_back(vec3Channel(kHips, "translation", times, hips));
    return a;
}

g::Document cleanRig() {
    g::Document d;
    g::Node rigNode;
    rigNode.name = "rig";
    rigNode.children = {kHips, kBody};
    g::Node hips;
    hips.name = "hips";
    hips.translation = {0, 1, 0};
    hips.children = {kSpine};
    g::Node spine;
    spine.name = "spine";
    spine.translation = {0, 0.5f, 0};
    spine.children = {kHead};
    g::Node head;
    head.name = "head";
    head.translation = {0, 0.5f, 0};
    g::Node body;
    body.name = "body";
    body.mesh = 0;
    body.skin = 0;
    d.nodes = {rigNode, hips, spine, head, body};

    g::Mesh m;
    m.name = "column";
    const int rings = 7;
    for (int r = 0; r < rings; ++r) {
        const float y = 0.9f + 0.2f * static_cast<float>(r);
        const glm::vec2 corners[4] = {{0.2f, 0.2f}, {-0.2f, 0.2f}, {-0.2f, -0.2f}, {0.2f, -0.2f}};
        for (const glm::vec2& c : corners) {
            m.positions.push_back(glm::vec3(c.x, y, c.y));
            m.influences.push_back(influencesAt(y));
        }
    }
    for (uint32_t r = 0; r + 1 < rings; ++r) {
        for (uint32_t s = 0; s < 4; ++s) {
            const uint32_t a = 4 * r + s, b = 4 * r + (s + 1) % 4, c = a + 4, e = b + 4;
            m.indices.insert(m.indices.end(), {a, b, e, a, e, c});
        }
    }
    d.meshes.push_back(m);
    g::Skin skin;
    skin.joints = {kHips, kSpine, kHead};
    skin.inverseBind = g::inverseBindFromNodes(d, skin.joints);
    d.skins.push_back(skin);
    d.animations.push_back(walkClip());
    return d;
}

// Write `doc` to a fresh folder and import it like a user's file.
Model load(const g::Document& doc, const std::string& dir = "") {
    const std::string folder = dir.empty() ? testing::tempDir() : dir;
    const std::string path = folder + "/rig.gltf";
    EXPECT_TRUE(g::write(doc, path));
    Result<Model> r = importModel(path);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

Report check(const g::Document& doc) { return checkModel(load(doc)); }

// ---- the clean rig ---------------------------------------------------------------------

TEST(Check, CleanRigHasNoFindings) {
    const Model m = load(cleanRig());
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.skeleton.find("spine"), kSpine);
    const Report r = checkModel(m);
    EXPECT_TRUE(r.empty()) << describe(r);
}

// ---- weights -----------------------------------------------------------------------------

TEST(Check, WeightsNotNormalized) {
    g::Document d = cleanRig();
    d.meshes[0].influences[9] = {{0, 0.3f}, {1, 0.3f}};  // sums to 0.6
    const Report r = check(d);
    const Finding* f = find(r, "weights-not-normalized");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->examples, std::vector<int64_t>{9});
    EXPECT_EQ(f->mesh, 0);
    EXPECT_NEAR(f->value, 0.4, 1e-5);

    g::Document nearMiss = cleanRig();
    nearMiss.meshes[0].influences[9] = {{0, 0.5f}, {1, 0.5005f}};  // off by 5e-4 < 1e-3
    EXPECT_FALSE(has(check(nearMiss), "weights-not-normalized"));
}

// A fan of `joints` joints under "rig", each at x = i / 10, with one triangle per joint
// weighted fully to it; `perVertex` influences per vertex (slot i first, then the next ones).
g::Document fan(int joints, int perVertex = 1) {
    g::Document d;
    g::Node root;
    root.name = "rig";
    d.nodes.push_back(root);
    for (int i = 0; i < joints; ++i) {
        g::Node j;
        j.name = "j" + std::to_string(i);
        j.translation = {0.1f * static_cast<float>(i), 0, 0};
        d.nodes[0].children.push_back(static_cast<int>(d.nodes.size()));
        d.nodes.push_back(j);
    }
    g::Node body;
    body.name = "body";
    body.mesh = 0;
    body.skin = 0;
    d.nodes[0].children.push_back(static_cast<int>(d.nodes.size()));
    d.nodes.push_back(body);
    g::Mesh m;
    for (int i = 0; i < joints; ++i) {
        const float x = 0.1f * static_cast<float>(i);
        for (const glm::vec3& p : {glm::vec3(x, 0, 0), glm::vec3(x + 0.05f, 0, 0), glm::vec3(x, 0.05f, 0)}) {
            m.positions.push_back(p);
            g::Influences inf;
            // Weights 0.3, 0.2, 0.2, 0.1, 0.1, 0.1 (sum 1) for 6, or 1 for 1.
            const float six[6] = {0.3f, 0.2f, 0.2f, 0.1f, 0.1f, 0.1f};
            for (int k = 0; k < perVertex; ++k) {
                inf.push_back({static_cast<uint16_t>((i + k) % joints), perVertex == 1 ? 1.0f : six[k]});
            }
            m.influences.push_back(inf);
        }
        const uint32_t b = static_cast<uint32_t>(3 * i);
        m.indices.insert(m.indices.end(), {b, b + 1, b + 2});
    }
    d.meshes.push_back(m);
    g::Skin skin;
    for (int i = 0; i < joints; ++i) skin.joints.push_back(1 + i);
    skin.inverseBind = g::inverseBindFromNodes(d, skin.joints);
    d.skins.push_back(skin);
    return d;
}

TEST(Check, TooManyInfluencesThroughJoints1) {
    // Assimp 5.2.5 reads JOINTS_1 / WEIGHTS_1: 6 influences per vertex reach us.
    g::Document d = fan(6, 6);
    // Move j4 and j5 (the dropped influences of the first triangle's vertices) in a clip.
    g::Animation a;
    a.name = "move";
    a.channels.push_back(vec3Channel(5, "translation", {0, 1}, {{0.4f, 0, 0}, {1.4f, 0, 0}}));
    a.channels.push_back(vec3Channel(6, "translation", {0, 1}, {{0.5f, 0, 0}, {0.5f, 1, 0}}));
    d.animations.push_back(a);
    const Model m = load(d);
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].weightStats.maxInfluences, 6u);
    const Report r = checkModel(m);
    const Finding* f = find(r, "too-many-influences");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 18u);  // every vertex
    EXPECT_EQ(f->examples.size(), 10u);
    EXPECT_NE(f->message.find("up to 6"), std::string::npos) << f->message;
    // First triangle: all 6 influences move j4 by (1,0,0) and j5 by (0,1,0) at t = 1, the kept 4
    // do not move: error = |(0.1, 0.1, 0)| = 0.1414 (the other triangles' vertices keep
    // different joints and see less).
    EXPECT_NEAR(f->value, std::sqrt(0.02), 1e-4);
    EXPECT_EQ(f->clip, 0);
    EXPECT_NE(f->message.find("0.1414"), std::string::npos) << f->message;

    EXPECT_FALSE(has(check(fan(6, 4)), "too-many-influences"));

    // With 8 kept (check --influences 8) six are not too many.
    CheckSettings eight;
    eight.influences = kMostInfluences;
    EXPECT_FALSE(has(checkModel(m, eight), "too-many-influences")) << describe(checkModel(m, eight));
}

TEST(Check, UnweightedVertices) {
    g::Document d = cleanRig();
    d.meshes[0].influences[5] = {{0, 0.0f}, {1, 0.0f}};
    d.meshes[0].influences[6] = {};
    const Report r = check(d);
    const Finding* f = find(r, "unweighted-vertices");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 2u);
    EXPECT_EQ(f->examples, (std::vector<int64_t>{5, 6}));
    EXPECT_EQ(f->mesh, 0);
}

TEST(Check, InvalidWeightsBuiltInCode) {
    // Built in code: Assimp's glTF reader drops negative weights before we see them (checked:
    // a WEIGHTS_0 of -0.3 arrives as a missing weight), so only import's own count can say so.
    Model m = testing::makeTwoBone();
    EXPECT_FALSE(has(checkModel(m), "invalid-weights"));
    m.meshes[0].weightStats.invalidWeights = 2;
    const Report report = checkModel(m);
    const Finding* f = find(report, "invalid-weights");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 2u);
    EXPECT_EQ(f->mesh, 0);
}

TEST(Check, JointInfluencesNothing) {
    g::Document d = cleanRig();
    g::Node tail;
    tail.name = "tail";
    tail.translation = {0, -0.3f, 0.2f};
    d.nodes[kHips].children.push_back(static_cast<int>(d.nodes.size()));
    d.nodes.push_back(tail);
    d.skins[0].joints.push_back(static_cast<int>(d.nodes.size()) - 1);
    d.skins[0].inverseBind = g::inverseBindFromNodes(d, d.skins[0].joints);
    const Model m = load(d);
    const Report r = checkModel(m);
    const Finding* f = find(r, "joint-influences-nothing");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"tail"});
    EXPECT_EQ(f->joint, m.skeleton.find("tail"));
    EXPECT_EQ(r.worst(), Severity::Info) << describe(r);
}

// ---- skin and bind pose ------------------------------------------------------------------

TEST(Check, BoneMissingFromHierarchy) {
    // A skin joint that is not in the scene: Assimp imports only the scene's nodes, so the
    // bone names a node missing from the hierarchy.
    g::Document d = cleanRig();
    g::Node orphan;
    orphan.name = "orphan";
    d.nodes.push_back(orphan);
    d.sceneRoots = {0};
    d.skins[0].joints.push_back(5);
    d.skins[0].inverseBind.push_back(glm::mat4(1.0f));
    d.meshes[0].influences[0] = {{3, 1.0f}};
    const Report r = check(d);
    const Finding* f = find(r, "bone-missing-from-hierarchy");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"orphan"});
    EXPECT_EQ(f->mesh, 0);
}

TEST(Check, OffsetMatrixComputed) {
    g::Document d = cleanRig();
    d.skins[0].inverseBind[1] = glm::mat4(0.0f);  // singular: import computes it from the bind pose
    const Report r = check(d);
    const Finding* f = find(r, "offset-matrix-computed");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"spine"});
    EXPECT_EQ(f->joint, kSpine);
    EXPECT_FALSE(has(r, "bind-pose-mismatch")) << describe(r);  // the computed one agrees
}

TEST(Check, NonFiniteOffsetMatrixBuiltInCode) {
    // Built in code: import replaces a NaN offset matrix (reported as offset-matrix-computed,
    // checked here through glTF too), so only a Model made by hand still holds one.
    g::Document d = cleanRig();
    d.skins[0].inverseBind[2][3][0] = kNaN;
    EXPECT_TRUE(has(check(d), "offset-matrix-computed"));

    Model m = testing::makeTwoBone();
    m.meshes[0].skin.inverseBind[1][0][0] = kNaN;
    const Report r = checkModel(m);
    const Finding* f = find(r, "non-finite-offset-matrix");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"tip"});
    EXPECT_FALSE(has(checkModel(testing::makeTwoBone()), "non-finite-offset-matrix"));
}

// A second copy of the column, on node "body2", bound by a second skin over the same joints.
// Its inverse bind matrices come from `shift` applied to the first skin's: where they differ,
// the two skins were bound in different poses and only one can be the joints' bind pose.
g::Document twoSkins(const std::vector<glm::mat4>& shift) {
    g::Document d = cleanRig();
    g::Node body2;
    body2.name = "body2";
    body2.mesh = 1;
    body2.skin = 1;
    d.nodes[0].children.push_back(static_cast<int>(d.nodes.size()));
    d.nodes.push_back(body2);
    d.meshes.push_back(d.meshes[0]);
    g::Skin skin = d.skins[0];
    for (size_t j = 0; j < skin.inverseBind.size(); ++j) skin.inverseBind[j] = shift[j] * skin.inverseBind[j];
    d.skins.push_back(skin);
    return d;
}

glm::mat4 moveBy(float x, float y, float z) { return glm::translate(glm::mat4(1.0f), glm::vec3(x, y, z)); }

TEST(Check, BindPoseComesFromTheSkinNotTheFilePose) {
    // The spine's offset says it was bound 0.3 to the -x side of where the file's node pose puts
    // it. That is the bind pose: the mesh renders whole there, so no bind-pose-mismatch.
    g::Document d = cleanRig();
    d.skins[0].inverseBind[1] = moveBy(0.3f, 0, 0) * d.skins[0].inverseBind[1];
    const Model m = load(d);
    EXPECT_FALSE(has(checkModel(m), "bind-pose-mismatch")) << describe(checkModel(m));
    const glm::vec3 file(m.skeleton.bindModel[kSpine][3]), bind(m.skeleton.bindPoseModel()[kSpine][3]);
    EXPECT_NEAR(glm::length(bind - (file - glm::vec3(0.3f, 0, 0))), 0.0f, 1e-5f);
    // The head's own offset agrees with the file pose, so its bind pose stays there.
    EXPECT_NEAR(glm::length(glm::vec3(m.skeleton.bindPoseModel()[kHead][3]) - glm::vec3(m.skeleton.bindModel[kHead][3])), 0.0f, 1e-5f);
    // Posed in the bind pose, every vertex sits where the mesh's node puts it.
    Animator a(m);
    a.evaluate(kBindPose, 0.0f);
    std::vector<glm::vec3> pos(m.meshes[0].vertexCount());
    skinMesh(m.meshes[0], a.palette().data() + a.paletteOffset(0), pos.data(), nullptr);
    for (size_t v = 0; v < pos.size(); ++v) EXPECT_NEAR(glm::length(pos[v] - m.meshes[0].positions[v]), 0.0f, 1e-5f);
    // The file pose still has the spine where the file's nodes put it: there the mesh is torn.
    a.evaluate(kFilePose, 0.0f);
    EXPECT_NEAR(glm::length(glm::vec3(a.world()[kSpine][3]) - file), 0.0f, 1e-6f);
}

TEST(Check, BindPoseMismatchTwoSkinsDisagreeOnOneJoint) {
    const Report r = check(twoSkins({glm::mat4(1.0f), moveBy(0.3f, 0, 0), glm::mat4(1.0f)}));
    const Finding* f = find(r, "bind-pose-mismatch");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"spine"});
    EXPECT_EQ(f->examples, std::vector<int64_t>{kSpine});
    EXPECT_EQ(f->joint, kSpine);
    EXPECT_EQ(f->mesh, 1);
    EXPECT_NEAR(f->value, 0.3, 1e-4);
    EXPECT_NE(f->message.find("distorted"), std::string::npos) << f->message;
    EXPECT_NE(f->message.find("where the mesh's node puts them"), std::string::npos) << f->message;
    EXPECT_EQ(all(r, "bind-pose-mismatch").size(), 1u) << describe(r);  // the first skin is whole
}

TEST(Check, BindPoseWholeSkinShiftedIsNoMismatch) {
    // Every offset off by the same transform: the skeleton was bound 0.5 away from the file
    // pose; the mesh is whole in its bind pose.
    g::Document d = cleanRig();
    for (glm::mat4& ib : d.skins[0].inverseBind) ib = moveBy(0, 0, 0.5f) * ib;
    EXPECT_FALSE(has(check(d), "bind-pose-mismatch"));
}

TEST(Check, BindPoseMismatchAgainstTheDominantJoint) {
    // The second skin's joints all disagree with the first's by 0.5, the head by another 0.2:
    // against the joint that moves the most vertices (spine), the head is the distorted one.
    const glm::mat4 s = moveBy(0, 0, 0.5f);
    const Report r = check(twoSkins({s, s, moveBy(0.2f, 0, 0) * s}));
    const Finding* f = find(r, "bind-pose-mismatch");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"head"});
    EXPECT_NEAR(f->value, 0.2, 1e-4);
}

TEST(Check, BindPoseWithinToleranceIsNoMismatch) {
    g::Document d = cleanRig();
    // 1e-4 units off on a mesh ~1.3 units across: under 1e-3 of its size.
    d.skins[0].inverseBind[1] = glm::translate(glm::mat4(1.0f), glm::vec3(1e-4f, 0, 0)) * d.skins[0].inverseBind[1];
    EXPECT_FALSE(has(check(d), "bind-pose-mismatch"));
}

TEST(Check, TooManyJointsForAUniformPalette) {
    const Model m = load(fan(257));
    ASSERT_EQ(m.meshes[0].skin.joints.size(), 257u);
    const Report r = checkModel(m);
    const Finding* f = find(r, "too-many-joints-for-gpu");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->count, 257u);
    EXPECT_EQ(f->mesh, 0);
    EXPECT_FALSE(has(r, "too-many-joints"));
    EXPECT_TRUE(r.empty() || r.worst() == Severity::Info) << describe(r);

    EXPECT_FALSE(has(check(fan(256)), "too-many-joints-for-gpu"));
}

TEST(Check, TooManyJointsBuiltInCode) {
    // Built in code: a 65,536-joint glTF is possible but slow to write and import for a unit
    // test; the check only looks at the skin's size.
    Model m = testing::makeTwoBone();
    Mesh& mesh = m.meshes[0];
    EXPECT_FALSE(has(checkModel(m), "too-many-joints"));
    mesh.skin.joints.resize(65536, 1);
    mesh.skin.inverseBind.resize(65536, mesh.skin.inverseBind[1]);
    mesh.skin.offsetComputed.resize(65536, 0);
    // Vertices keep slots 0 and 1; the rigid slot moved to 65536.
    const Report r = checkModel(m);
    const Finding* f = find(r, "too-many-joints");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 65536u);
    EXPECT_FALSE(has(r, "too-many-joints-for-gpu"));
}

// A flat grid of w x h vertices (all distinct), unskinned.
g::Document grid(int w, int h) {
    g::Document d;
    g::Node n;
    n.name = "plane";
    n.mesh = 0;
    d.nodes.push_back(n);
    g::Mesh m;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) m.positions.push_back(glm::vec3(x, y, 0) * 0.01f);
    for (int y = 0; y + 1 < h; ++y) {
        for (int x = 0; x + 1 < w; ++x) {
            const uint32_t a = static_cast<uint32_t>(y * w + x), b = a + 1, c = a + static_cast<uint32_t>(w), e = c + 1;
            m.indices.insert(m.indices.end(), {a, b, e, a, e, c});
        }
    }
    d.meshes.push_back(m);
    return d;
}

TEST(Check, NeedsThirtyTwoBitIndices) {
    const Model m = load(grid(256, 256));
    ASSERT_EQ(m.meshes.size(), 1u);
    ASSERT_EQ(m.meshes[0].vertexCount(), 65536u);
    const Report r = checkModel(m);
    const Finding* f = find(r, "needs-32-bit-indices");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->count, 65536u);
    EXPECT_EQ(f->mesh, 0);

    const Model fits = load(grid(255, 257));
    ASSERT_EQ(fits.meshes[0].vertexCount(), 65535u);
    EXPECT_TRUE(checkModel(fits).empty()) << describe(checkModel(fits));
}

// ---- hierarchy and bind-pose transforms --------------------------------------------------

TEST(Check, DuplicateNodeNameUsedByABoneIsBoundByGltfIndex) {
    // The root takes the name of a joint. Assimp names bone "spine" only by name; rigview binds
    // it by the glTF skin's joint index to node 2, and check reports the shared name as info,
    // naming the node chosen.
    g::Document d = cleanRig();
    d.nodes[0].name = "spine";
    const Model m = load(d);
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].skin.joints[1], kSpine);  // the skin's joint, not the root
    const Report r = checkModel(m);
    const Finding* f = find(r, "duplicate-node-name");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"spine"});
    EXPECT_EQ(f->examples, (std::vector<int64_t>{0, kSpine}));
    EXPECT_EQ(f->joint, kSpine);
    EXPECT_NE(f->message.find("node " + std::to_string(kSpine)), std::string::npos) << f->message;
}

TEST(Check, DuplicateNodeNameUnusedIsAWarning) {
    g::Document d = cleanRig();
    for (int k = 0; k < 2; ++k) {
        g::Node prop;
        prop.name = "prop";
        prop.translation = {0.3f * static_cast<float>(k), 0, 0};
        d.nodes[0].children.push_back(static_cast<int>(d.nodes.size()));
        d.nodes.push_back(prop);
    }
    const Report r = check(d);
    const auto dup = all(r, "duplicate-node-name");
    ASSERT_EQ(dup.size(), 1u) << describe(r);
    EXPECT_EQ(dup[0]->severity, Severity::Warning);
    EXPECT_EQ(dup[0]->count, 1u);
    EXPECT_EQ(dup[0]->names, std::vector<std::string>{"prop"});
    EXPECT_EQ(dup[0]->examples.size(), 2u);
}

TEST(Check, SameNamedAnimatedNodesBindByTargetIndex) {
    // glTF targets nodes by index; Assimp names channels by node name only. Two nodes named
    // "prop", each animated: each channel binds to its own node (told apart by the JSON's
    // target.node and key data), so no channel is lost and the shared name is only info.
    g::Document d = cleanRig();
    for (int k = 0; k < 2; ++k) {
        g::Node prop;
        prop.name = "prop";
        d.nodes[0].children.push_back(static_cast<int>(d.nodes.size()));
        d.nodes.push_back(prop);
        std::vector<float> times = k == 0 ? std::vector<float>{0, 1} : std::vector<float>{0, 0.5f, 1};
        std::vector<glm::quat> values;
        for (size_t i = 0; i < times.size(); ++i) values.push_back(rotZ(10.0f * static_cast<float>(k + 1) * static_cast<float>(i)));
        d.animations[0].channels.push_back(rotationChannel(static_cast<int>(d.nodes.size()) - 1, times, values));
    }
    const Model m = load(d);
    const Report r = checkModel(m);
    EXPECT_FALSE(has(r, "duplicate-channel")) << describe(r);
    const Finding* name = find(r, "duplicate-node-name");
    ASSERT_TRUE(name) << describe(r);
    EXPECT_EQ(name->severity, Severity::Info);
    EXPECT_EQ(name->names, std::vector<std::string>{"prop"});
    ASSERT_EQ(m.clips.size(), 1u);
    std::vector<int32_t> props;  // in node order: the first "prop" of the file, then the second
    for (size_t i = 0; i < m.skeleton.size(); ++i)
        if (m.skeleton.names[i] == "prop") props.push_back(static_cast<int32_t>(i));
    ASSERT_EQ(props.size(), 2u);
    const int32_t a = props[0], b = props[1];
    ASSERT_GE(m.clips[0].trackOfNode[a], 0);
    ASSERT_GE(m.clips[0].trackOfNode[b], 0);
    EXPECT_EQ(m.clips[0].tracks[m.clips[0].trackOfNode[a]].rotation.count, 2u);
    EXPECT_EQ(m.clips[0].tracks[m.clips[0].trackOfNode[b]].rotation.count, 3u);
}

TEST(Check, DegenerateBindTransform) {
    g::Document d = cleanRig();
    const std::vector<glm::mat4> ib = d.skins[0].inverseBind;  // from the unscaled pose
    d.nodes[kHead].scale = {0, 0, 0};
    d.skins[0].inverseBind = ib;
    const Report r = check(d);
    const Finding* f = find(r, "degenerate-transform");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"head"});
    EXPECT_EQ(f->joint, kHead);
    EXPECT_EQ(f->clip, -1);

    g::Document small = cleanRig();
    small.nodes[kHead].scale = glm::vec3(1e-3f);  // tiny but not degenerate
    small.skins[0].inverseBind = g::inverseBindFromNodes(small, small.skins[0].joints);
    EXPECT_FALSE(has(check(small), "degenerate-transform"));
}

TEST(Check, NonUniformBindScale) {
    g::Document d = cleanRig();
    d.nodes[kSpine].scale = {1, 2, 1};
    d.skins[0].inverseBind = g::inverseBindFromNodes(d, d.skins[0].joints);
    const Report r = check(d);
    const Finding* f = find(r, "non-uniform-scale");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"spine"});
    EXPECT_EQ(f->joint, kSpine);
    EXPECT_NEAR(f->value, 2.0, 1e-4);
    EXPECT_EQ(f->clip, -1);
    EXPECT_FALSE(has(r, "bind-pose-mismatch")) << describe(r);

    g::Document nearMiss = cleanRig();
    nearMiss.nodes[kSpine].scale = {1, 1.0005f, 1};
    nearMiss.skins[0].inverseBind = g::inverseBindFromNodes(nearMiss, nearMiss.skins[0].joints);
    EXPECT_FALSE(has(check(nearMiss), "non-uniform-scale"));
}

TEST(Check, NegativeBindScale) {
    g::Document d = cleanRig();
    d.nodes[kHead].scale = {-1, 1, 1};
    d.skins[0].inverseBind = g::inverseBindFromNodes(d, d.skins[0].joints);
    const Report r = check(d);
    const Finding* f = find(r, "negative-scale");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->names, std::vector<std::string>{"head"});
    EXPECT_FALSE(has(r, "non-uniform-scale")) << describe(r);  // |scale| is uniform
}

TEST(Check, NonFiniteNodeTransformBuiltInCode) {
    // Built in code: glTF's JSON cannot hold NaN or infinity (node TRS and matrices are JSON).
    Model m = testing::makeTwoBone();
    m.skeleton.bindLocal[1][3][0] = std::numeric_limits<float>::infinity();
    const Report report = checkModel(m);
    const Finding* f = find(report, "non-finite-node-transform");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"tip"});
    EXPECT_EQ(f->joint, 1);
    EXPECT_FALSE(has(checkModel(testing::makeTwoBone()), "non-finite-node-transform"));
}

TEST(Check, NonFiniteVertices) {
    g::Document d = cleanRig();
    d.meshes[0].positions[3].x = kNaN;  // the binary buffer holds any float
    const Report r = check(d);
    const Finding* f = find(r, "non-finite-vertices");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_GE(f->count, 1u);
    ASSERT_FALSE(f->examples.empty());
    EXPECT_EQ(f->mesh, 0);
}

TEST(Check, MissingTexture) {
    g::Document d = cleanRig();
    d.materials.push_back({"skin", glm::vec4(1), "textures/nothere.png"});
    d.meshes[0].material = 0;
    const Report r = check(d);
    const Finding* f = find(r, "missing-texture");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->names, std::vector<std::string>{"textures/nothere.png"});
    EXPECT_EQ(f->examples, std::vector<int64_t>{0});
    EXPECT_EQ(f->mesh, 0);

    // Found: beside the model by its file name, though written with a folder.
    const std::string dir = testing::tempDir();
    std::ofstream(dir + "/albedo.png") << "not really a png";
    g::Document beside = cleanRig();
    beside.materials.push_back({"skin", glm::vec4(1), "textures/albedo.png"});
    beside.meshes[0].material = 0;
    EXPECT_FALSE(has(checkModel(load(beside, dir)), "missing-texture"));

    // Only the letter case differs (a file made on Windows): still missing here, and said so.
    const std::string caseDir = testing::tempDir();
    std::ofstream(caseDir + "/Albedo.PNG") << "not really a png";
    const Model caseModel = load(beside, caseDir);
    const Report caseReport = checkModel(caseModel);
    const Finding* caseFinding = find(caseReport, "missing-texture");
    ASSERT_TRUE(caseFinding) << describe(caseReport);
    EXPECT_NE(caseFinding->message.find("'Albedo.PNG' beside the model differs only in letter case"), std::string::npos)
        << caseFinding->message;

    // Embedded: a data URI becomes Assimp's "*0".
    g::Document embedded = cleanRig();
    embedded.materials.push_back({"skin", glm::vec4(1), "data:image/png;base64,iVBORw0KGgo="});
    embedded.meshes[0].material = 0;
    const Model em = load(embedded);
    ASSERT_FALSE(em.textures.empty());
    EXPECT_FALSE(has(checkModel(em), "missing-texture")) << em.materials[0].baseColorTexture.path;
}

// Every texture slot is looked for, not only the base colour: ClearCoatTest.gltf (assimp test
// models) copied without its two normal maps (RibsNormal.png: normal textures;
// PlasticWrap_normals.jpg: a clearcoat normal texture and a normal texture).
TEST(Check, MissingTextureOfEverySlotNamesTheSlot) {
    const std::string dir = testing::tempDir();
    const std::string src = kModels + "glTF2/ClearCoat-glTF/";
    for (const char* f : {"ClearCoatTest.gltf", "ClearCoatTest.bin", "ClearCoatLabels.png", "PartialCoating.png",
                          "PartialCoating_Alpha.png", "RoughnessStripes.png"}) {
        std::filesystem::copy_file(src + f, dir + "/" + f);
    }
    Result<Model> r = importModel(dir + "/ClearCoatTest.gltf");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = r.value();
    auto materialIndex = [&](const std::string& name) {
        for (size_t i = 0; i < m.materials.size(); ++i)
            if (m.materials[i].name == name) return std::to_string(i);
        ADD_FAILURE() << "no material " << name;
        return std::string("?");
    };
    const Report report = checkModel(m);
    std::set<std::string> messages;
    for (const Finding& f : report.findings)
        if (f.code == "missing-texture") messages.insert(f.message);
    auto said = [&](const std::string& what) {
        for (const std::string& msg : messages)
            if (msg.rfind(what, 0) == 0) return true;
        return false;
    };
    EXPECT_TRUE(said("normal texture 'RibsNormal.png' of material " + materialIndex("BaseNorm_Base") + " 'BaseNorm_Base' is missing"))
        << describe(report);
    EXPECT_TRUE(said("clearcoat-normal texture 'PlasticWrap_normals.jpg' of material " + materialIndex("CoatNorm_Coated") +
                     " 'CoatNorm_Coated' is missing"))
        << describe(report);
    EXPECT_TRUE(said("normal texture 'PlasticWrap_normals.jpg' of material " + materialIndex("CoatNorm_Coating") +
                     " 'CoatNorm_Coating' is missing"))
        << describe(report);
    for (const std::string& msg : messages) {
        const bool normalMap = msg.find("RibsNormal.png") != std::string::npos || msg.find("PlasticWrap_normals.jpg") != std::string::npos;
        EXPECT_TRUE(normalMap) << msg;  // the other textures are there
    }
}

// A texture of any slot outside the model's folder is refused like a base-colour one: the
// emissive texture of ClearCoatTest's labels pointed one folder up.
TEST(Check, TextureOfAnySlotOutsideTheFolderIsRefused) {
    const std::string dir = testing::tempDir();
    const std::string src = kModels + "glTF2/ClearCoat-glTF/";
    std::filesystem::create_directories(dir + "/model");
    std::filesystem::copy_file(src + "ClearCoatTest.bin", dir + "/model/ClearCoatTest.bin");
    std::filesystem::copy_file(src + "ClearCoatLabels.png", dir + "/ClearCoatLabels.png");
    nlohmann::json j;
    std::ifstream(src + "ClearCoatTest.gltf") >> j;
    bool moved = false;
    for (auto& image : j["images"]) {
        if (image["uri"] == "ClearCoatLabels.png") {
            image["uri"] = "../ClearCoatLabels.png";
            moved = true;
        }
    }
    ASSERT_TRUE(moved);
    std::ofstream(dir + "/model/ClearCoatTest.gltf") << j.dump();
    Result<Model> r = importModel(dir + "/model/ClearCoatTest.gltf");
    ASSERT_TRUE(r.ok()) << r.error().message;
    bool refused = false;
    for (const std::string& p : r->stats.refusedPaths) refused = refused || p.find("ClearCoatLabels.png") != std::string::npos;
    EXPECT_TRUE(refused);
    const Report report = checkModel(r.value());
    EXPECT_TRUE(has(report, "external-path-refused")) << describe(report);
    for (const Finding& f : report.findings) {
        if (f.code == "missing-texture") EXPECT_EQ(f.message.find("ClearCoatLabels.png"), std::string::npos) << f.message;
    }
}

// ---- animation: channels and clips -------------------------------------------------------

TEST(Check, ChannelMissingNodeAndClipWithoutChannels) {
    // A channel targeting a node outside the scene: Assimp keeps the channel, naming a node
    // that is not in the hierarchy.
    g::Document d = cleanRig();
    g::Node ghost;
    ghost.name = "ghost";
    d.nodes.push_back(ghost);
    d.sceneRoots = {0};
    g::Animation a;
    a.name = "haunt";
    a.channels.push_back(rotationChannel(5, {0, 1}, {rotZ(0), rotZ(30)}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "channel-missing-node");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"ghost"});
    const Finding* e = find(r, "clip-without-channels");
    ASSERT_TRUE(e) << describe(r);
    EXPECT_EQ(e->severity, Severity::Warning);
    EXPECT_EQ(e->names, std::vector<std::string>{"haunt"});
    EXPECT_EQ(e->examples, std::vector<int64_t>{1});
    EXPECT_EQ(e->clip, 1);
}

TEST(Check, ClipZeroLength) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "pose";
    a.channels.push_back(rotationChannel(kSpine, {0}, {rotZ(20)}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "clip-zero-length");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->names, std::vector<std::string>{"pose"});
    EXPECT_EQ(f->clip, 1);
    EXPECT_FALSE(has(r, "clip-static")) << describe(r);  // zero length says it already
}

TEST(Check, ClipNoTicksPerSecondBuiltInCode) {
    // Built in code: Assimp's glTF reader always sets ticks per second (glTF keys are seconds).
    Model m = testing::makeTwoBone();
    EXPECT_FALSE(has(checkModel(m), "clip-no-ticks-per-second"));
    m.clips[0].ticksPerSecondFromFile = false;
    const Report report = checkModel(m);
    const Finding* f = find(report, "clip-no-ticks-per-second");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->names, std::vector<std::string>{"bend"});
}

TEST(Check, NonFiniteKeys) {
    g::Document d = cleanRig();
    d.animations[0].channels[0].values[4 * 7 + 2] = kNaN;  // spine, key 7, z
    const Report r = check(d);
    const Finding* f = find(r, "non-finite-keys");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"walk"});
    EXPECT_EQ(f->clip, 0);
}

TEST(Check, KeysOutOfOrder) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "nod";
    a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 0.25f, 1}, {rotZ(0), rotZ(10), rotZ(5), rotZ(0)}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "keys-out-of-order");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->clip, 1);
    EXPECT_TRUE(contains(f->names, "head.rotation"));
}

TEST(Check, DuplicateKeyTimes) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "nod";
    a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 0.5f, 1}, {rotZ(0), rotZ(10), rotZ(20), rotZ(0)}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "duplicate-key-times");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"head.rotation"});
    EXPECT_EQ(f->joint, kHead);
    EXPECT_EQ(f->clip, 1);
}

TEST(Check, NonUnitRotationKeys) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "nod";
    a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 1}, {rotZ(0) * 2.0f, rotZ(10) * 2.0f, rotZ(0) * 2.0f}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "non-unit-rotation-keys");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 3u);
    EXPECT_TRUE(contains(f->names, "head.rotation"));
    EXPECT_EQ(f->clip, 1);
}

// The bound is the Khronos glTF validator's: a key is reported when its length is off 1 by
// more than 0.00769 (ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION).
TEST(Check, NonUnitRotationKeysTakeTheValidatorsBound) {
    for (const auto& [scale, reported] : {std::pair{1.0075f, false}, std::pair{0.9925f, false}, std::pair{1.0078f, true},
                                          std::pair{0.9922f, true}}) {
        g::Document d = cleanRig();
        g::Animation a;
        a.name = "nod";
        a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 1}, {rotZ(0), rotZ(10) * scale, rotZ(0)}));
        d.animations.push_back(a);
        const Report r = check(d);
        const Finding* f = find(r, "non-unit-rotation-keys");
        EXPECT_EQ(f != nullptr, reported) << "length " << scale << ": " << describe(r);
        if (f) EXPECT_EQ(f->count, 1u);
    }
}

// Rotation keys stored as normalized SHORT or BYTE (KHR_mesh_quantization, rigview's own
// compressed export) are counted from the file's values, dequantized, in every interpolation
// mode; not from Assimp's reading of their bytes as floats.
TEST(Check, NonUnitRotationKeysQuantized) {
    for (const int type : {5122, 5120}) {
        for (const std::string mode : {"LINEAR", "STEP", "CUBICSPLINE"}) {
            for (const bool scaled : {false, true}) {
                g::Document d = cleanRig();
                g::Animation a;
                a.name = "nod";
                const std::vector<glm::quat> keys = {rotZ(0), rotZ(90) * (scaled ? 1.2f : 1.0f), rotZ(-90)};
                std::vector<glm::quat> values;
                for (const glm::quat& q : keys) {
                    if (mode == "CUBICSPLINE") values.push_back(glm::quat(0, 0, 0, 0));
                    values.push_back(q);
                    if (mode == "CUBICSPLINE") values.push_back(glm::quat(0, 0, 0, 0));
                }
                a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 1}, values, mode));
                a.channels.back().componentType = type;
                d.animations.push_back(a);
                const Report r = check(d);
                const std::string what = std::to_string(type) + " " + mode + (scaled ? " scaled" : " unit");
                EXPECT_FALSE(has(r, "non-finite-keys")) << what << ": " << describe(r);
                EXPECT_FALSE(has(r, "clip-static")) << what << ": the keys are read, not noise: " << describe(r);
                const Finding* f = find(r, "non-unit-rotation-keys");
                ASSERT_EQ(f != nullptr, scaled) << what << ": " << describe(r);
                if (f) {
                    EXPECT_EQ(f->count, 1u) << what;
                    EXPECT_TRUE(contains(f->names, "head.rotation")) << what << ": " << describe(r);
                }
            }
        }
    }
}

TEST(Check, QuaternionSignFlip) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "nod";
    a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 1}, {rotZ(0), -rotZ(10), rotZ(0)}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "quaternion-sign-flip");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->count, 2u);  // key pairs (0,1) and (1,2)
    EXPECT_EQ(f->names, std::vector<std::string>{"head.rotation"});
    EXPECT_EQ(f->clip, 1);
    // The short way round: no jump.
    EXPECT_FALSE(has(r, "sudden-rotation-jump")) << describe(r);
}

g::Document withSwing(float degrees) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "swing";
    // Still for half a second, then `degrees` within one frame (1/30 s), then back at t = 1.
    const float f = 1.0f / 30.0f;
    a.channels.push_back(rotationChannel(kSpine, {0, 10 * f, 15 * f, 16 * f, 30 * f},
                                         {rotZ(0), rotZ(0), rotZ(0), rotZ(degrees), rotZ(0)}));
    d.animations.push_back(a);
    return d;
}

TEST(Check, SuddenRotationJump) {
    const Report r = check(withSwing(90));
    const Finding* f = find(r, "sudden-rotation-jump");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 1u);
    EXPECT_EQ(f->names, std::vector<std::string>{"spine"});
    EXPECT_EQ(f->joint, kSpine);
    EXPECT_EQ(f->clip, 1);
    EXPECT_NEAR(f->value, 90.0, 0.01);

    EXPECT_FALSE(has(check(withSwing(40)), "sudden-rotation-jump"));
    CheckSettings strict;
    strict.rotationJumpDegrees = 30.0f;
    EXPECT_TRUE(has(checkModel(load(withSwing(40)), strict), "sudden-rotation-jump"));
}

TEST(Check, JumpCheckUnderAWorkLimitKeepsOneFrameSteps) {
    // Past the work limit, pairs of consecutive frames are spread over the clip: still one
    // frame apart, so a smooth clip shows no jump; a jump between two unsampled frames can be
    // missed (documented).
    CheckSettings tight;
    tight.maxRotationSamplesPerClip = 10;  // the walk has 31 frames x 2 rotation channels
    const Model walk = load(cleanRig());
    const Report r = checkModel(walk, tight);
    EXPECT_TRUE(r.empty()) << describe(r);
    tight.maxRotationSamplesPerClip = 0;
    EXPECT_FALSE(has(checkModel(walk, tight), "sudden-rotation-jump"));
}

TEST(Check, StepKeysJumpToo) {
    // STEP interpolation (read back from the glTF JSON): a 60 degree snap is a jump.
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "snap";
    a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 1}, {rotZ(0), rotZ(60), rotZ(0)}, "STEP"));
    d.animations.push_back(a);
    const Report report = check(d);
    const Finding* f = find(report, "sudden-rotation-jump");
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->value, 60.0, 0.01);
}

TEST(Check, ClipScaleKeys) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "squash";
    a.channels.push_back(vec3Channel(kSpine, "scale", {0, 0.5f, 1}, {{1, 1, 1}, {1, 1.5f, 1}, {1, 1, 1}}));
    a.channels.push_back(vec3Channel(kHead, "scale", {0, 0.5f, 1}, {{1, 1, 1}, {-1, 1, 1}, {1, 1, 1}}));
    a.channels.push_back(vec3Channel(kHips, "scale", {0, 0.5f, 1}, {{1, 1, 1}, {0, 0, 0}, {1, 1, 1}}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* nonUni = find(r, "non-uniform-scale");
    ASSERT_TRUE(nonUni) << describe(r);
    EXPECT_EQ(nonUni->severity, Severity::Warning);
    EXPECT_EQ(nonUni->clip, 1);
    EXPECT_EQ(nonUni->names, std::vector<std::string>{"spine"});
    EXPECT_NEAR(nonUni->value, 1.5, 1e-5);
    const Finding* neg = find(r, "negative-scale");
    ASSERT_TRUE(neg) << describe(r);
    EXPECT_EQ(neg->clip, 1);
    EXPECT_EQ(neg->names, std::vector<std::string>{"head"});
    const Finding* deg = find(r, "degenerate-transform");
    ASSERT_TRUE(deg) << describe(r);
    EXPECT_EQ(deg->severity, Severity::Warning);  // in a clip: often a deliberate "hide"
    EXPECT_EQ(deg->clip, 1);
    EXPECT_EQ(deg->names, std::vector<std::string>{"hips"});

    g::Document uniform = cleanRig();
    g::Animation b;
    b.name = "grow";
    b.channels.push_back(vec3Channel(kSpine, "scale", {0, 0.5f, 1}, {{1, 1, 1}, {1.5f, 1.5f, 1.5f}, {1, 1, 1}}));
    uniform.animations.push_back(b);
    const Report ok = check(uniform);
    EXPECT_FALSE(has(ok, "non-uniform-scale") || has(ok, "negative-scale") || has(ok, "degenerate-transform"))
        << describe(ok);
}

// The walk clip with the spine drifting by `driftDegrees` over the clip: its last pose ends
// that far from the first, while each frame moves it by a couple of degrees only.
g::Document withSeam(const std::string& name, float driftDegrees) {
    g::Document d = cleanRig();
    g::Animation a = walkClip(name);
    g::Channel& spine = a.channels[0];
    for (size_t k = 0; k < spine.times.size(); ++k) {
        const float t = spine.times[k];
        const float s = k + 1 == spine.times.size() ? 0.0f : std::sin(2.0f * 3.14159265f * t);
        const glm::quat q = rotZ(10.0f * s + driftDegrees * t);
        spine.values[4 * k + 0] = q.x;
        spine.values[4 * k + 1] = q.y;
        spine.values[4 * k + 2] = q.z;
        spine.values[4 * k + 3] = q.w;
    }
    d.animations = {a};
    return d;
}

TEST(Check, LoopSeamOnALoopingClip) {
    const Report r = check(withSeam("Walk_Cycle", 30));
    const Finding* f = find(r, "loop-seam");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->clip, 0);
    EXPECT_EQ(f->joint, kHead);  // the head travels furthest: 0.5 x 2 sin(15 deg) = 0.26 units
    EXPECT_NEAR(f->value, 0.2588, 1e-3);
    EXPECT_NE(f->message.find("'spine' is turned 30 degrees"), std::string::npos) << f->message;

    // A one-shot clip with the same seam: info only.
    const Report oneShot = check(withSeam("wave", 30));
    const Finding* info = find(oneShot, "loop-seam");
    ASSERT_TRUE(info) << describe(oneShot);
    EXPECT_EQ(info->severity, Severity::Info);

    // 8 degrees is over the tolerance (5) and well over a frame's 2.4: a seam. 3 degrees is a
    // frame's worth and under the tolerance: none.
    EXPECT_TRUE(has(check(withSeam("walk", 8)), "loop-seam"));
    EXPECT_FALSE(has(check(withSeam("walk", 3)), "loop-seam"));
}

TEST(Check, LoopWithoutTheClosingFrameIsNoSeam) {
    // Keys 0..29 of the 30-frame cycle: the closing frame (equal to the first) is left out, so
    // the wrap from the last key to the first is an ordinary one-frame step.
    g::Document d = cleanRig();
    for (g::Channel& c : d.animations[0].channels) {
        c.times.pop_back();
        c.values.resize(c.values.size() - (c.path == "rotation" ? 4 : 3));
    }
    const Report r = check(d);
    EXPECT_TRUE(r.empty()) << describe(r);
}

TEST(Check, RootMotionIsNoLoopSeam) {
    g::Document d = cleanRig();
    d.animations = {walkClip("walk", 1.5f)};  // the hips travel 1.5 units forward
    const Report r = check(d);
    EXPECT_TRUE(r.empty()) << describe(r);
}

TEST(Check, ClipMeantToLoop) {
    const CheckSettings s;
    for (const char* name : {"walk", "Run_Fast", "IDLE", "swim loop", "bike_cycle", "jog"}) {
        EXPECT_TRUE(clipMeantToLoop(name, s)) << name;
    }
    for (const char* name : {"wave", "jump", "death", "attack"}) EXPECT_FALSE(clipMeantToLoop(name, s)) << name;
}

TEST(Check, ClipStatic) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "hold";
    // Keys that never change (a pose away from the bind pose, held for a second).
    a.channels.push_back(rotationChannel(kSpine, {0, 0.5f, 1}, {rotZ(20), rotZ(20), rotZ(20)}));
    a.channels.push_back(vec3Channel(kHips, "translation", {0, 1}, {{0, 1, 0}, {0, 1, 0}}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "clip-static");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->clip, 1);
    EXPECT_EQ(f->names, std::vector<std::string>{"hold"});
    EXPECT_EQ(f->count, 2u);
    EXPECT_FALSE(has(r, "loop-seam")) << describe(r);
}

TEST(Check, ClipHoldingTheBindPoseIsStaticAsInfo) {
    // A deliberate T-pose clip: the keys hold every joint where the skin was bound.
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "TPose";
    a.channels.push_back(rotationChannel(kSpine, {0, 1}, {rotZ(0), rotZ(0)}));
    a.channels.push_back(vec3Channel(kHips, "translation", {0, 1}, {{0, 1, 0}, {0, 1, 0}}));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "clip-static");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_NE(f->message.find("that pose is the bind pose"), std::string::npos) << f->message;
}

// ---- posed shapes: symmetric parts, ranges, a skeleton that comes apart ---------------------

// A prism of `sides` sides around the Y axis (radius 0.3, from y = 0 to 1), skinned whole to
// joint "barrel" under "rig", with clip `clip`.
g::Document barrel(int sides, const g::Animation& clip) {
    g::Document d;
    g::Node rigNode;
    rigNode.name = "rig";
    rigNode.children = {1, 2};
    g::Node joint;
    joint.name = "barrel";
    g::Node body;
    body.name = "body";
    body.mesh = 0;
    body.skin = 0;
    d.nodes = {rigNode, joint, body};
    g::Mesh m;
    m.name = "prism";
    for (int ring = 0; ring < 2; ++ring)
        for (int k = 0; k < sides; ++k) {
            const float a = 2.0f * 3.14159265f * static_cast<float>(k) / static_cast<float>(sides);
            m.positions.push_back(glm::vec3(0.3f * std::cos(a), static_cast<float>(ring), 0.3f * std::sin(a)));
            m.influences.push_back({{0, 1.0f}});
        }
    for (int k = 0; k < sides; ++k) {
        const uint32_t a = static_cast<uint32_t>(k), b = static_cast<uint32_t>((k + 1) % sides);
        const uint32_t n = static_cast<uint32_t>(sides);
        m.indices.insert(m.indices.end(), {a, b, b + n, a, b + n, a + n});
    }
    d.meshes.push_back(m);
    g::Skin skin;
    skin.joints = {1};
    skin.inverseBind = g::inverseBindFromNodes(d, skin.joints);
    d.skins.push_back(skin);
    d.animations.push_back(clip);
    return d;
}

glm::quat rotY(float degrees) { return glm::angleAxis(glm::radians(degrees), glm::vec3(0, 1, 0)); }

// The barrel turning 60 degrees over a one-second loop (keys every frame).
g::Animation spinLoop() {
    g::Animation a;
    a.name = "spin_loop";
    std::vector<float> times;
    std::vector<glm::quat> keys;
    for (int k = 0; k <= 30; ++k) {
        times.push_back(static_cast<float>(k) / 30.0f);
        keys.push_back(rotY(2.0f * static_cast<float>(k)));
    }
    a.channels.push_back(rotationChannel(1, times, keys));
    return a;
}

TEST(Check, ASymmetricPartTurnedOntoItselfIsNoLoopSeam) {
    // A hexagonal barrel's 60 degree turn per loop leaves it looking the same: no seam.
    EXPECT_FALSE(has(check(barrel(6, spinLoop())), "loop-seam")) << describe(check(barrel(6, spinLoop())));
    // A pentagonal one shows it.
    const Report r = check(barrel(5, spinLoop()));
    const Finding* f = find(r, "loop-seam");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->message.find("'barrel' is turned 60 degrees"), std::string::npos) << f->message;
}

TEST(Check, ASymmetricPartSnappingOntoItselfIsNoRotationJump) {
    // Holds, then snaps back 60 degrees within one frame (STEP keys).
    g::Animation a;
    a.name = "recoil";
    a.channels.push_back(rotationChannel(1, {0, 0.5f, 1}, {rotY(60), rotY(0), rotY(0)}, "STEP"));
    EXPECT_FALSE(has(check(barrel(6, a)), "sudden-rotation-jump")) << describe(check(barrel(6, a)));
    const Report r = check(barrel(5, a));
    const Finding* f = find(r, "sudden-rotation-jump");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_NEAR(f->value, 60.0, 0.01);
}

TEST(Check, RangesSeparatedByAGapInTheKeysAreNotPlayedAcross) {
    // One clip holding two ranges a game plays apart: frames 0-20 and 23-43 (no key between),
    // the spine turned 180 degrees from one to the other. Neither the jump across the gap nor
    // the clip's end leading into its start is a fault.
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "walk";
    std::vector<float> times;
    std::vector<glm::quat> keys;
    for (int k = 0; k <= 43; ++k) {
        if (k > 20 && k < 23) continue;
        times.push_back(static_cast<float>(k) / 30.0f);
        keys.push_back(rotZ((k <= 20 ? 0.0f : 170.0f) + 5.0f * std::sin(static_cast<float>(k) / 3.0f)));
    }
    a.channels.push_back(rotationChannel(kSpine, times, keys));
    d.animations = {a};
    const Report r = check(d);
    EXPECT_FALSE(has(r, "sudden-rotation-jump")) << describe(r);
    EXPECT_FALSE(has(r, "loop-seam")) << describe(r);
    // The same turn within one range is a jump and a seam.
    g::Document joined = d;
    std::vector<float>& t = joined.animations[0].channels[0].times;
    for (float& x : t)
        if (x > 0.7f) x -= 2.0f / 30.0f;
    const Report j = check(joined);
    EXPECT_TRUE(has(j, "sudden-rotation-jump")) << describe(j);
    EXPECT_TRUE(has(j, "loop-seam")) << describe(j);
}

// A chain of 6 joints 0.3 apart up Y under "rig" with a column skinned along it, and clip `clip`.
g::Document chain(const std::vector<g::Channel>& channels, const std::string& name = "move") {
    g::Document d;
    g::Node rigNode;
    rigNode.name = "rig";
    rigNode.children = {1, 7};
    d.nodes.push_back(rigNode);
    for (int j = 0; j < 6; ++j) {
        g::Node n;
        n.name = "j" + std::to_string(j);
        n.translation = glm::vec3(0.0f, j == 0 ? 0.0f : 0.3f, 0.0f);
        if (j < 5) n.children = {j + 2};
        d.nodes.push_back(n);
    }
    g::Node body;
    body.name = "body";
    body.mesh = 0;
    body.skin = 0;
    d.nodes.push_back(body);
    g::Mesh m;
    m.name = "column";
    for (int r = 0; r < 6; ++r)
        for (const glm::vec2& c : {glm::vec2(0.1f, 0.1f), glm::vec2(-0.1f, 0.1f), glm::vec2(-0.1f, -0.1f), glm::vec2(0.1f, -0.1f)}) {
            m.positions.push_back(glm::vec3(c.x, 0.3f * static_cast<float>(r), c.y));
            m.influences.push_back({{static_cast<uint16_t>(r), 1.0f}});
        }
    for (uint32_t r = 0; r + 1 < 6; ++r)
        for (uint32_t s = 0; s < 4; ++s) {
            const uint32_t a = 4 * r + s, b = 4 * r + (s + 1) % 4;
            m.indices.insert(m.indices.end(), {a, b, b + 4, a, b + 4, a + 4});
        }
    d.meshes.push_back(m);
    g::Skin skin;
    skin.joints = {1, 2, 3, 4, 5, 6};
    skin.inverseBind = g::inverseBindFromNodes(d, skin.joints);
    d.skins.push_back(skin);
    g::Animation a;
    a.name = name;
    a.channels = channels;
    d.animations.push_back(a);
    return d;
}

TEST(Check, ASkeletonComingApartExplodes) {
    // Every joint's offset applied twice, as Assimp 5.2.5 did to Mixamo characters: each bone
    // twice its length while the chain bends.
    std::vector<g::Channel> doubled;
    for (int j = 1; j < 6; ++j) {
        doubled.push_back(vec3Channel(j + 1, "translation", {0, 1}, {{0, 0.6f, 0}, {0, 0.6f, 0}}));
        doubled.push_back(rotationChannel(j + 1, {0, 1}, {rotZ(0), rotZ(10)}));
    }
    const Report r = check(chain(doubled));
    const Finding* f = find(r, "animation-explodes");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->count, 5u);
    EXPECT_NEAR(f->value, 2.0, 1e-3);

    // Bending alone keeps every bone's length.
    std::vector<g::Channel> bend;
    for (int j = 1; j < 6; ++j) bend.push_back(rotationChannel(j + 1, {0, 1}, {rotZ(0), rotZ(40)}));
    EXPECT_FALSE(has(check(chain(bend)), "animation-explodes")) << describe(check(chain(bend)));
    // One joint thrown far (a prop let go) is no skeleton coming apart.
    std::vector<g::Channel> thrown = bend;
    thrown.push_back(vec3Channel(6, "translation", {0, 1}, {{0, 0.3f, 0}, {3, 2, 0}}));
    EXPECT_FALSE(has(check(chain(thrown)), "animation-explodes")) << describe(check(chain(thrown)));
    // Squash and stretch by scale keys is deliberate.
    std::vector<g::Channel> stretch = bend;
    for (int j = 1; j < 5; ++j) stretch.push_back(vec3Channel(j + 1, "scale", {0, 1}, {{1, 1, 1}, {1, 2.5f, 1}}));
    EXPECT_FALSE(has(check(chain(stretch)), "animation-explodes")) << describe(check(chain(stretch)));
}

// IQM and MD5 name materials the game resolves, not texture files the model carries.
TEST(Check, MaterialNamesOfIqmAndMd5AreNoMissingTextures) {
    const std::string dir = testing::tempDir();
    std::filesystem::copy_file(kModels + "IQM/mrfixit.iqm", dir + "/mrfixit.iqm");  // without Body.jpg, Head.jpg
    Result<Model> iqm = importModel(dir + "/mrfixit.iqm");
    ASSERT_TRUE(iqm) << iqm.error().message;
    EXPECT_FALSE(iqm->materials.empty() || iqm->materials[0].baseColorTexture.path.empty());
    EXPECT_FALSE(has(checkModel(iqm.value()), "missing-texture")) << describe(checkModel(iqm.value()));
    std::ifstream in(kModels + "MD5/SimpleCube.md5mesh");
    std::stringstream text;
    text << in.rdbuf();
    std::string md5 = text.str();
    const size_t at = md5.find("shader \"\"");
    ASSERT_NE(at, std::string::npos);
    md5.replace(at, 9, "shader \"models/characters/hero/skin\"");
    std::ofstream(dir + "/hero.md5mesh") << md5;
    Result<Model> mesh = importModel(dir + "/hero.md5mesh");
    ASSERT_TRUE(mesh) << mesh.error().message;
    EXPECT_FALSE(has(checkModel(mesh.value()), "missing-texture")) << describe(checkModel(mesh.value()));
}

TEST(Check, FindingsAreSortedWorstFirst) {
    g::Document d = cleanRig();
    d.meshes[0].influences[9] = {{0, 0.3f}, {1, 0.3f}};  // warning
    d.meshes[0].positions[3].x = kNaN;                    // error
    g::Animation a;
    a.name = "nod";
    a.channels.push_back(rotationChannel(kHead, {0, 0.5f, 1}, {rotZ(0), -rotZ(10), rotZ(0)}));  // info
    d.animations.push_back(a);
    const Report r = check(d);
    ASSERT_GE(r.findings.size(), 3u) << describe(r);
    for (size_t i = 1; i < r.findings.size(); ++i) {
        EXPECT_GE(static_cast<int>(r.findings[i - 1].severity), static_cast<int>(r.findings[i].severity)) << describe(r);
    }
    EXPECT_EQ(r.worst(), Severity::Error);
}

// ---- vertex views ------------------------------------------------------------------------

TEST(VertexViews, JointWeightsHeatMap) {
    // makeTwoBone: (0,0,0) w0=1; (0,2,0) w1=1; (1,1.5,0) 0.5/0.5; (2,0.5,0) 0.25/0.75.
    const Model m = testing::makeTwoBone();
    EXPECT_EQ(jointWeights(m.meshes[0], 0), (std::vector<float>{1.0f, 0.0f, 0.5f, 0.25f}));
    EXPECT_EQ(jointWeights(m.meshes[0], 1), (std::vector<float>{0.0f, 1.0f, 0.5f, 0.75f}));
    EXPECT_EQ(jointWeights(m.meshes[0], 7), (std::vector<float>(4, 0.0f)));
}

TEST(VertexViews, JointWeightsOfImportedRig) {
    const Model m = load(cleanRig());
    const Mesh& mesh = m.meshes[0];
    const std::vector<float> spine = jointWeights(mesh, kSpine);
    ASSERT_EQ(spine.size(), 28u);
    // Rings at y = 0.9 + 0.2 r: spine weight 0, 0.2, 0.6, 1 (y = 1.5), 0.6, 0.2, 0.
    const float want[7] = {0.0f, 0.2f, 0.6f, 1.0f, 0.6f, 0.2f, 0.0f};
    for (size_t v = 0; v < 28; ++v) EXPECT_NEAR(spine[v], want[v / 4], 1e-5f) << v;
    // Every vertex's weights over all joints sum to 1.
    const std::vector<float> hips = jointWeights(mesh, kHips), head = jointWeights(mesh, kHead);
    for (size_t v = 0; v < 28; ++v) EXPECT_NEAR(hips[v] + spine[v] + head[v], 1.0f, 1e-5f);
}

TEST(VertexViews, RigidVerticesFollowTheMeshNode) {
    g::Document d = cleanRig();
    d.meshes[0].influences[2] = {};
    const Model m = load(d);
    const Mesh& mesh = m.meshes[0];
    EXPECT_EQ(jointWeights(mesh, mesh.node)[2], 1.0f);
    EXPECT_EQ(jointWeights(mesh, mesh.node)[3], 0.0f);
    EXPECT_EQ(jointWeights(mesh, kHips)[2], 0.0f);
    EXPECT_EQ(influenceCounts(mesh)[2], 0);
    EXPECT_EQ(weightSumError(mesh)[2], 1.0f);
}

TEST(VertexViews, InfluenceCountsAndWeightSumError) {
    Model m = testing::makeTwoBone();
    Mesh& mesh = m.meshes[0];
    // Without import records: counted from the kept weights.
    EXPECT_EQ(influenceCounts(mesh), (std::vector<uint8_t>{1, 1, 2, 2}));
    EXPECT_EQ(weightSumError(mesh), (std::vector<float>(4, 0.0f)));
    // As import records them.
    mesh.originalInfluenceCount = {0, 1, 4, 6};
    mesh.originalWeightSum = {0.0f, 1.0f, 0.75f, 1.25f};
    EXPECT_EQ(influenceCounts(mesh), (std::vector<uint8_t>{0, 1, 4, 5}));
    const std::vector<float> err = weightSumError(mesh);
    ASSERT_EQ(err.size(), 4u);
    EXPECT_FLOAT_EQ(err[0], 1.0f);
    EXPECT_FLOAT_EQ(err[1], 0.0f);
    EXPECT_FLOAT_EQ(err[2], 0.25f);
    EXPECT_FLOAT_EQ(err[3], 0.25f);
}

TEST(VertexViews, InfluenceCountsOfImportedWeights) {
    g::Document d = fan(6, 6);
    d.meshes[0].influences[0] = {{0, 1.0f}};
    d.meshes[0].influences[1] = {{0, 0.5f}, {1, 0.25f}, {2, 0.25f}};
    d.meshes[0].influences[2] = {{0, 0.5f}, {1, 0.25f}, {2, 0.1f}, {3, 0.1f}, {4, 0.05f}};
    d.meshes[0].influences[3] = {{0, 0.5f}, {1, 0.2f}};  // sums to 0.7
    const Model m = load(d);
    const std::vector<uint8_t> counts = influenceCounts(m.meshes[0]);
    ASSERT_EQ(counts.size(), 18u);
    EXPECT_EQ(counts[0], 1);
    EXPECT_EQ(counts[1], 3);
    EXPECT_EQ(counts[2], 5);
    EXPECT_EQ(counts[3], 2);
    EXPECT_EQ(counts[4], 5);  // 6 influences
    const std::vector<float> err = weightSumError(m.meshes[0]);
    EXPECT_NEAR(err[0], 0.0f, 1e-6f);
    EXPECT_NEAR(err[3], 0.3f, 1e-6f);
    EXPECT_NEAR(err[4], 0.0f, 1e-6f);
}

// Six joints under a root, one vertex at the origin with 6 influences (0.3, 0.2, 0.2, 0.1,
// 0.1, 0.1), a clip that moves joints 4 and 5 only: by (1,0,0) and (0,1,0) at t = 1.
Model sixInfluences() {
    Model m;
    m.path = "six";
    Skeleton& sk = m.skeleton;
    for (int i = 0; i < 7; ++i) {
        sk.names.push_back(i == 0 ? "root" : "j" + std::to_string(i - 1));
        sk.parent.push_back(i == 0 ? -1 : 0);
        Transform t;
        t.translation = glm::vec3(static_cast<float>(i), 0, 0);
        sk.bindLocalSqt.push_back(t);
        sk.bindLocal.push_back(toMatrix(t));
    }
    sk.computeBindModel();
    Mesh mesh;
    mesh.name = "dot";
    mesh.node = 0;
    mesh.skinned = true;
    for (int j = 0; j < 6; ++j) {
        mesh.skin.joints.push_back(1 + j);
        mesh.skin.inverseBind.push_back(glm::inverse(sk.bindModel[1 + j]));
        mesh.skin.offsetComputed.push_back(0);
    }
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.indices = {0, 1, 2};
    const float w[6] = {0.3f, 0.2f, 0.2f, 0.1f, 0.1f, 0.1f};
    // Vertex 0: all six; vertices 1 and 2: joint 0 only.
    mesh.joints = {{0, 1, 2, 3}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    mesh.weights = {glm::vec4(0.3f, 0.2f, 0.2f, 0.1f) / 0.8f, {1, 0, 0, 0}, {1, 0, 0, 0}};
    FullInfluences full;
    full.vertex = 0;
    for (int j = 0; j < 6; ++j) full.influences.emplace_back(static_cast<uint16_t>(j), w[j]);
    mesh.truncated.push_back(full);
    mesh.originalInfluenceCount = {6, 1, 1};
    mesh.originalWeightSum = {1.0f, 1.0f, 1.0f};
    mesh.weightStats.maxInfluences = 6;
    mesh.weightStats.truncatedVertices = 1;
    mesh.weightStats.truncatedExamples = {0};
    m.meshes.push_back(mesh);
    m.materials.emplace_back();

    Clip c;
    c.name = "pull";
    c.ticksPerSecond = 1.0;
    c.trackOfNode.assign(sk.size(), -1);
    c.times = {0.0f, 1.0f};
    const glm::vec3 moves[2] = {{1, 0, 0}, {0, 1, 0}};
    for (int k = 0; k < 2; ++k) {
        Track tr;
        tr.node = 5 + k;
        tr.translation = {0, static_cast<uint32_t>(c.vec3Keys.size()), 2};
        c.vec3Keys.push_back(sk.bindLocalSqt[5 + k].translation);
        c.vec3Keys.push_back(sk.bindLocalSqt[5 + k].translation + moves[k]);
        c.trackOfNode[tr.node] = static_cast<int32_t>(c.tracks.size());
        c.tracks.push_back(tr);
    }
    c.duration = 1.0f;
    c.sampleRate = 30.0f;
    m.clips.push_back(c);
    return m;
}

TEST(VertexViews, TruncationErrorByHand) {
    const Model m = sixInfluences();
    // Bind pose: every palette entry is the identity, so nothing differs.
    EXPECT_EQ(truncationError(m, 0, -1, 1), (std::vector<float>{0.0f, 0.0f, 0.0f}));
    // At t = 1: all six give 0.1 (1,0,0) + 0.1 (0,1,0); the kept four do not move.
    const std::vector<float> e = truncationError(m, 0, 0, 2);
    ASSERT_EQ(e.size(), 3u);
    EXPECT_NEAR(e[0], std::sqrt(0.02f), 1e-6f);
    EXPECT_EQ(e[1], 0.0f);
    EXPECT_EQ(e[2], 0.0f);
    // Halfway: half of it.
    const std::vector<float> h = truncationError(m, 0, 0, 1);  // one sample: the first key
    EXPECT_EQ(h[0], 0.0f);
    const std::vector<float> three = truncationError(m, 0, 0, 3);  // 0, 0.5, 1
    EXPECT_NEAR(three[0], std::sqrt(0.02f), 1e-6f);

    // In model units: the root (the mesh's node and the joints' parent) scaled by 2 doubles
    // it in model space, though in mesh space it stays the same.
    Model scaled = sixInfluences();
    Skeleton& sk = scaled.skeleton;
    sk.bindLocalSqt[0].scale = glm::vec3(2.0f);
    sk.bindLocal[0] = toMatrix(sk.bindLocalSqt[0]);
    sk.computeBindModel();
    for (size_t j = 0; j < 6; ++j) {
        scaled.meshes[0].skin.inverseBind[j] = sk.offsetFromBindPose(scaled.meshes[0].skin.joints[j], 0);
    }
    const std::vector<float> s = truncationError(scaled, 0, 0, 2);
    EXPECT_NEAR(s[0], 2.0f * std::sqrt(0.02f), 1e-5f);

    // The check reports the same number.
    const Report report = checkModel(m);
    const Finding* f = find(report, "too-many-influences");
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->value, std::sqrt(0.02), 1e-6);
    EXPECT_EQ(f->clip, 0);
    EXPECT_EQ(f->examples, std::vector<int64_t>{0});
}

// ---- real files --------------------------------------------------------------------------

Model loadFile(const std::string& path) {
    Result<Model> r = importModel(path);
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

TEST(CheckRealFiles, AnimationWithSkeletonFbx) {
    const Model m = loadFile(kModels + "FBX/animation_with_skeleton.fbx");
    const Report r = checkModel(m);
    const Finding* f = find(r, "too-many-influences");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->message.find("up to 6"), std::string::npos) << f->message;
    EXPECT_GT(f->count, 0u);
    EXPECT_FALSE(f->examples.empty());
    EXPECT_GE(f->mesh, 0);
    EXPECT_GT(f->value, 0.0);
    const Finding* w = find(r, "weights-not-normalized");
    ASSERT_TRUE(w) << describe(r);
    EXPECT_EQ(w->severity, Severity::Warning);
    EXPECT_GT(w->count, 0u);
    EXPECT_NE(r.worst(), Severity::Error) << describe(r);
}

TEST(CheckRealFiles, TestwusonBindClipHasZeroLength) {
    const Model m = loadFile(kModels + "X/Testwuson.X");
    const Report r = checkModel(m);
    const Finding* f = find(r, "clip-zero-length");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_TRUE(contains(f->names, "Wuson_Bind")) << describe(r);
    EXPECT_EQ(m.clips[f->clip].name, f->names.front());
}

TEST(CheckRealFiles, SimpleSkinBindPoseIsWhereItsInverseBindMatricesSay) {
    // Its inverse bind matrices are translate(-0.5, -1, 0) for both joints, while the nodes put
    // both joints at (0, 1, 0). The bind pose is the one the matrices say: both joints at
    // (0.5, 1, 0) (the mesh node is the identity). There the mesh renders whole, so
    // bind-pose-mismatch does not fire.
    const Model m = loadFile(kModels + "glTF2/simple_skin/simple_skin.gltf");
    const Report r = checkModel(m);
    EXPECT_FALSE(has(r, "bind-pose-mismatch")) << describe(r);
    ASSERT_EQ(m.meshes.size(), 1u);
    for (int32_t j : m.meshes[0].skin.joints) {
        EXPECT_NEAR(glm::length(glm::vec3(m.skeleton.bindPoseModel()[j][3]) - glm::vec3(0.5f, 1.0f, 0.0f)), 0.0f, 1e-6f);
        EXPECT_NEAR(glm::length(glm::vec3(m.skeleton.bindModel[j][3]) - glm::vec3(0.0f, 1.0f, 0.0f)), 0.0f, 1e-6f);
    }
}

// simple_skin.gltf's rotation keys are off 1 by up to 2.3e-4 (0.383 and 0.924 rounded):
// within the validator's bound, and the validator reports nothing either. A copy whose third
// key is scaled to length 1.2 is reported, once.
TEST(CheckRealFiles, SimpleSkinRotationKeysAgainstTheValidatorsBound) {
    const std::string source = kModels + "glTF2/simple_skin/simple_skin.gltf";
    EXPECT_FALSE(has(checkModel(loadFile(source)), "non-unit-rotation-keys"));

    std::ifstream in(source);
    nlohmann::json doc = nlohmann::json::parse(in);
    const nlohmann::json& acc = doc["accessors"][doc["animations"][0]["samplers"][0]["output"].get<size_t>()];
    ASSERT_EQ(acc["componentType"], 5126);
    ASSERT_EQ(acc["type"], "VEC4");
    const nlohmann::json& view = doc["bufferViews"][acc["bufferView"].get<size_t>()];
    nlohmann::json& buffer = doc["buffers"][view["buffer"].get<size_t>()];
    const std::string uri = buffer["uri"];
    const size_t comma = uri.find(',');
    ASSERT_NE(comma, std::string::npos);
    std::vector<uint8_t> bytes = g::fromBase64(uri.substr(comma + 1));
    const size_t at = view.value("byteOffset", size_t{0}) + acc.value("byteOffset", size_t{0}) + 2 * 16;
    ASSERT_LE(at + 16, bytes.size());
    float q[4];
    std::memcpy(q, &bytes[at], 16);
    const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (float& c : q) c *= 1.2f / len;
    std::memcpy(&bytes[at], q, 16);
    buffer["uri"] = uri.substr(0, comma + 1) + g::base64(bytes);
    doc["accessors"][doc["animations"][0]["samplers"][0]["output"].get<size_t>()]["max"][2] = q[2];  // stays valid
    const std::string copy = testing::tempDir() + "/simple_skin_rot12.gltf";
    std::ofstream(copy) << doc.dump();
    const Report r = checkModel(loadFile(copy));
    const Finding* f = find(r, "non-unit-rotation-keys");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->count, 1u);
}

TEST(CheckRealFiles, AnimationWithSkeletonFbxIsWholeInItsBindPose) {
    // Its node (file) pose turns Bone.005 38 degrees away from the pose its offset matrices
    // were made in. The bind pose comes from the offsets, so the mesh is whole there and
    // bind-pose-mismatch does not fire; the file pose keeps the turned bone.
    const Model m = loadFile(kModels + "FBX/animation_with_skeleton.fbx");
    const Report r = checkModel(m);
    EXPECT_FALSE(has(r, "bind-pose-mismatch")) << describe(r);
    const int32_t bone = m.skeleton.find("Bone.005");
    ASSERT_GE(bone, 0);
    const glm::mat3 a = glm::mat3(m.skeleton.bindModel[bone]), b = glm::mat3(m.skeleton.bindPoseModel()[bone]);
    const glm::quat qa = glm::quat_cast(glm::mat3(glm::normalize(a[0]), glm::normalize(a[1]), glm::normalize(a[2])));
    const glm::quat qb = glm::quat_cast(glm::mat3(glm::normalize(b[0]), glm::normalize(b[1]), glm::normalize(b[2])));
    const float degrees = glm::degrees(2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(qa, qb)))));
    EXPECT_NEAR(degrees, 38.0f, 1.0f);
}

TEST(CheckRealFiles, XFilesRenderWholeInTheirBindPose) {
    for (const char* file : {"X/Testwuson.X", "X/BCN_Epileptic.X"}) {
        const Model m = loadFile(kModels + file);
        const Report r = checkModel(m);
        EXPECT_FALSE(has(r, "bind-pose-mismatch")) << file << "\n" << describe(r);
    }
}

TEST(CheckRealFiles, DemoAssetIsClean) {
    const Model m = loadFile(kDemo);
    const Report r = checkModel(m);
    for (const Finding& f : r.findings) {
        EXPECT_EQ(f.severity, Severity::Info) << describe(r);
    }
}

}  // namespace
// ---- redundant-keys ----------------------------------------------------------------------

// A clip baked at 30 fps: the spine swings (every key needed), the head turns at a steady rate
// (a slerp between the ends restores every key in between) and the hips hold one position on
// every frame: 30 + 29 of 93 keys are redundant, and one of the spine's: the key at the sine's
// zero crossing (t = 0.5), where its neighbours average to it exactly (sin(pi - h) = -sin(pi + h)).
TEST(Check, RedundantKeysFireOnBakedConstantAndLinearChannels) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "baked";
    std::vector<float> times;
    std::vector<glm::quat> spine, head;
    std::vector<glm::vec3> hips;
    for (int k = 0; k <= 30; ++k) {
        const float t = static_cast<float>(k) / 30.0f;
        times.push_back(t);
        spine.push_back(rotZ(30.0f * std::sin(2.0f * 3.14159265f * t)));
        head.push_back(rotZ(20.0f * t));
        hips.push_back(glm::vec3(0, 1, 0));
    }
    a.channels.push_back(rotationChannel(kSpine, times, spine));
    a.channels.push_back(rotationChannel(kHead, times, head));
    a.channels.push_back(vec3Channel(kHips, "translation", times, hips));
    d.animations.push_back(a);
    const Report r = check(d);
    const Finding* f = find(r, "redundant-keys");
    ASSERT_TRUE(f) << describe(r);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->clip, 1);
    EXPECT_EQ(f->count, 30u + 29u + 1u);  // hips: all but one; head: all but the two ends; spine: one
    EXPECT_NE(f->message.find("1 channels hold one value"), std::string::npos) << f->message;
    // Of the file's 93 keys (three channels of 31).
    EXPECT_NEAR(f->value, 60.0 / 93.0, 1e-9);
}

// The same motion keyed only where it changes course: nothing to drop.
TEST(Check, RedundantKeysSilentOnSparseKeys) {
    g::Document d = cleanRig();
    g::Animation a;
    a.name = "sparse";
    a.channels.push_back(rotationChannel(kSpine, {0, 0.25f, 0.5f, 0.75f, 1}, {rotZ(0), rotZ(30), rotZ(0), rotZ(-30), rotZ(0)}));
    a.channels.push_back(rotationChannel(kHead, {0, 1}, {rotZ(0), rotZ(20)}));
    d.animations.push_back(a);
    const Report r = check(d);
    EXPECT_FALSE(has(r, "redundant-keys")) << describe(r);
    // A clean clip keyed every frame whose every key matters (walkClip: sines at 30 fps).
    g::Document w = cleanRig();
    w.animations.push_back(walkClip());
    EXPECT_FALSE(has(check(w), "redundant-keys")) << describe(check(w));
}

// ---- the table of codes ------------------------------------------------------------------

TEST(CheckCodes, TableIsWellFormed) {
    std::set<std::pair<std::string, Severity>> rows;
    for (const CodeInfo& c : codeTable()) {
        const std::string code = c.code, meaning = c.meaning;
        EXPECT_FALSE(code.empty());
        EXPECT_EQ(code.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"), std::string::npos) << code;
        EXPECT_FALSE(meaning.empty()) << code;
        EXPECT_EQ(meaning.find_first_of("|\n"), std::string::npos) << code << ": " << meaning;
        EXPECT_TRUE(rows.insert({code, c.severity}).second) << "two rows for " << code << " " << severityName(c.severity);
        EXPECT_EQ(&codeInfo(c.id), &c);
        EXPECT_EQ(findCode(code, c.severity), &c);
        const Finding f = makeFinding(c.id, "m", 1, "s");
        EXPECT_EQ(f.code, code);
        EXPECT_EQ(f.severity, c.severity);
    }
    EXPECT_EQ(findCode("weights-not-normalized", Severity::Error), nullptr);
    EXPECT_EQ(findCode("no-such-code", Severity::Warning), nullptr);
}

// README.md carries the table exactly as `rigview check --list-codes` prints it.
TEST(CheckCodes, ReadmeCarriesTheTable) {
    std::ifstream in(RIGVIEW_SOURCE_DIR "/README.md");
    ASSERT_TRUE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const std::string begin = "<!-- check-codes:begin -->\n", end = "<!-- check-codes:end -->";
    const size_t b = readme.find(begin), e = readme.find(end);
    ASSERT_NE(b, std::string::npos);
    ASSERT_NE(e, std::string::npos);
    ASSERT_LT(b, e);
    EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), codesMarkdown())
        << "README.md's table of check codes differs from src/check/codes.cpp; regenerate it with "
           "`rigview check --list-codes`:\n"
        << codesMarkdown();
}

// Every finding that the checks give on real files, the demo and rigs with problems has its
// row in the table (its code at its severity).
TEST(CheckCodes, EveryEmittedCodeIsInTheTable) {
    std::vector<Report> reports;
    for (const char* rel : {"X/BCN_Epileptic.X", "X/Testwuson.X", "FBX/animation_with_skeleton.fbx", "FBX/huesitos.fbx",
                            "glTF2/simple_skin/simple_skin.gltf", "BVH/01_01.bvh", "Collada/duck.dae"}) {
        reports.push_back(checkModel(loadFile(kModels + rel)));
    }
    reports.push_back(checkModel(loadFile(kDemo)));
    g::Document loops = cleanRig();
    loops.animations[0].channels[0].values[0] = 0.5f;  // spine's first key: a seam, and not unit
    g::Animation idle = walkClip("idle");
    idle.channels[1].values[1] = 0.7f;
    loops.animations.push_back(idle);
    reports.push_back(check(loops));
    size_t findings = 0;
    for (const Report& r : reports) {
        for (const Finding& f : r.findings) {
            ++findings;
            EXPECT_NE(findCode(f.code, f.severity), nullptr) << severityName(f.severity) << " [" << f.code << "] " << f.message;
        }
    }
    EXPECT_GT(findings, 10u);
}

// The project configuration (check/check_config): globs, parsing, and rules applied to a report.
TEST(CheckConfig, GlobsMatchAsDocumented) {
    EXPECT_TRUE(globMatch("props/**", "props/a.fbx"));
    EXPECT_TRUE(globMatch("props/**", "props/x/y/a.fbx"));
    EXPECT_FALSE(globMatch("props/**", "chars/props/a.fbx"));
    EXPECT_TRUE(globMatch("**/*.bvh", "a.bvh"));
    EXPECT_TRUE(globMatch("**/*.bvh", "mocap/run/a.bvh"));
    EXPECT_FALSE(globMatch("mocap/*.bvh", "mocap/run/a.bvh"));  // * stays within a folder
    EXPECT_TRUE(globMatch("*.bvh", "mocap/run/a.bvh"));         // a name alone: in any folder
    EXPECT_TRUE(globMatch("chars/hero_[0-9].fbx", "chars/hero_7.fbx"));
    EXPECT_FALSE(globMatch("chars/hero_[!0-9].fbx", "chars/hero_7.fbx"));
    EXPECT_TRUE(globMatch("chars/?.fbx", "chars/a.fbx"));
    EXPECT_FALSE(globMatch("chars/?.fbx", "chars/ab.fbx"));
    EXPECT_TRUE(globMatch("./a/b.x", "a/b.x"));
    EXPECT_TRUE(globMatch("a[b", "a[b"));  // an unclosed set is itself
    // Many stars against a long name that does not match: each (glob, name) position once,
    // never exponential time (as a plain backtracking matcher takes here).
    EXPECT_FALSE(globMatch("**/*a*a*a*a*a*a*a*a*a*a*a*a*b", std::string(500, 'a')));
    EXPECT_TRUE(globMatch("**/*a*a*a*a*a*a*a*a*a*a*a*a*b", std::string(500, 'a') + "b"));
}

TEST(CheckConfig, ParsesAndRefusesInOneLine) {
    CheckConfig c;
    std::string error;
    ASSERT_TRUE(parseCheckConfig(R"({"schema": 1, "ignore": ["clip-static"], "severity": {"loop-seam": "error"},
        "tolerances": {"rotation_jump_degrees": 60}, "loop_names": ["cycle"],
        "overrides": [{"paths": ["props/**"], "ignore": ["redundant-keys"]}]})", "/p/rigview-check.json", c, error))
        << error;
    ASSERT_EQ(c.rules.size(), 2u);
    EXPECT_EQ(c.folder, "/p");
    const CheckSettings s = settingsFor(rulesFor(c, "/p/chars/a.fbx"), CheckSettings{});
    EXPECT_FLOAT_EQ(s.rotationJumpDegrees, 60.0f);
    EXPECT_EQ(s.loopNameHints, std::vector<std::string>{"cycle"});
    EXPECT_EQ(rulesFor(c, "/p/chars/a.fbx").size(), 1u);
    EXPECT_EQ(rulesFor(c, "/p/props/x/a.fbx").size(), 2u);
    for (const char* bad : {"[", "[]", R"({"ignore": "clip-static"})", R"({"ignore": [1]})", R"({"severity": {"x": "error"}})",
                            R"({"tolerances": {"bind_pose": "big"}})", R"({"tolerances": {"bind_pose": 1e400}})",
                            R"({"overrides": {}})", R"({"overrides": [{"paths": []}]})", R"({"schema": 2})",
                            R"({"loop_names": [1]})", R"({"paths": ["a"]})"}) {
        EXPECT_FALSE(parseCheckConfig(bad, "/p/c.json", c, error)) << bad;
        EXPECT_EQ(error.rfind("/p/c.json: ", 0), 0u) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

TEST(CheckConfig, RulesDropAndRaiseFindingsInOrder) {
    CheckConfig c;
    std::string error;
    ASSERT_TRUE(parseCheckConfig(R"({"severity": {"loop-seam": "error"},
        "overrides": [{"paths": ["*.bvh"], "severity": {"loop-seam": "info"}, "ignore": ["clip-static"]}]})",
                                 "/p/rigview-check.json", c, error));
    auto report = [] {
        Report r;
        r.findings.push_back(makeFinding(CheckCode::ClipStatic, "static", 1, ""));
        r.findings.push_back(makeFinding(CheckCode::LoopSeam, "seam", 1, ""));
        r.findings.push_back(makeFinding(CheckCode::RedundantKeys, "keys", 1, ""));
        return r;
    };
    Report fbx = report();
    applyRules(rulesFor(c, "/p/a.fbx"), fbx);
    ASSERT_EQ(fbx.findings.size(), 3u);
    EXPECT_EQ(fbx.findings[0].code, "loop-seam");  // now an error: sorted first
    EXPECT_EQ(fbx.worst(), Severity::Error);
    Report bvh = report();
    applyRules(rulesFor(c, "/p/m/a.bvh"), bvh);  // the later rule wins; clip-static dropped
    ASSERT_EQ(bvh.findings.size(), 2u);
    EXPECT_EQ(bvh.findings[0].code, "loop-seam");
    EXPECT_EQ(bvh.findings[0].severity, Severity::Info);
}

}  // namespace rig
