// IQM import (src/import/iqm.cpp): mrfixit.iqm from assimp-testmodels (written by the IQM
// project's own exporter) against numbers worked out from its raw bytes by
// tests/iqm_reference.py (plain Python, nothing of rigview's) and against the per-frame
// bounds the exporter stored in the file; small files built here for hand-computed poses and
// for every kind of broken input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "import/iqm/iqm.h"
#include "support/iqm_writer.h"

namespace rig {
namespace {

using namespace rig::testing;

const std::string kMrFixit = "/usr/share/assimp/models/IQM/mrfixit.iqm";

// rigview's root node turns IQM's Z-up file space into Y-up: (x, y, z) -> (x, z, -y).
glm::vec3 yUp(const glm::vec3& p) { return {p.x, p.z, -p.y}; }

void expectNear(const glm::vec3& a, const glm::vec3& b, float tol, const std::string& what) {
    EXPECT_NEAR(a.x, b.x, tol) << what;
    EXPECT_NEAR(a.y, b.y, tol) << what;
    EXPECT_NEAR(a.z, b.z, tol) << what;
}

Model loadMrFixit() {
    Result<Model> r = importModel(kMrFixit);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

TEST(IqmMrFixit, JointsMeshesAndClip) {
    const Model m = loadMrFixit();
    // 75 joints below the Z-up -> Y-up root.
    ASSERT_EQ(m.skeleton.size(), 76u);
    EXPECT_EQ(m.skeleton.names[0], "<IQMRoot>");
    EXPECT_EQ(m.skeleton.names[1], "Root");
    EXPECT_EQ(m.jointNodes().size(), 75u);
    for (int32_t i = 0; i < static_cast<int32_t>(m.skeleton.size()); ++i) EXPECT_LT(m.skeleton.parent[i], i);
    ASSERT_EQ(m.meshes.size(), 2u);
    EXPECT_EQ(m.meshes[0].name, "Body");
    EXPECT_EQ(m.meshes[0].vertexCount(), 1476u);
    EXPECT_EQ(m.meshes[0].triangleCount(), 2386u);
    EXPECT_EQ(m.meshes[1].name, "Head");
    EXPECT_EQ(m.meshes[1].vertexCount(), 385u);
    EXPECT_EQ(m.meshes[1].triangleCount(), 602u);
    EXPECT_TRUE(m.meshes[0].skinned);
    EXPECT_EQ(m.meshes[0].skin.joints.size(), 75u);
    EXPECT_EQ(m.materials[m.meshes[0].material].baseColorTexture.path, "Body.jpg");
    EXPECT_EQ(m.materials[m.meshes[1].material].baseColorTexture.path, "Head.jpg");
    EXPECT_EQ(m.meshes[0].weightStats.unnormalizedVertices, 0u);
    EXPECT_EQ(m.meshes[0].weightStats.unweightedVertices, 0u);
    // One anim "idle": frames 0..100 at 24 fps, not flagged as a loop.
    ASSERT_EQ(m.clips.size(), 1u);
    const Clip& c = m.clips[0];
    EXPECT_EQ(c.name, "idle");
    EXPECT_DOUBLE_EQ(c.ticksPerSecond, 24.0);
    EXPECT_FLOAT_EQ(c.sampleRate, 24.0f);
    EXPECT_NEAR(c.duration, 100.0f / 24.0f, 1e-6f);
    EXPECT_EQ(c.tracks.size(), 75u);
    uint32_t maxKeys = 0;
    for (const Track& t : c.tracks) maxKeys = std::max({maxKeys, t.translation.count, t.rotation.count, t.scale.count});
    EXPECT_EQ(maxKeys, 101u);
}

TEST(IqmMrFixit, RawVertexAsInTheFile) {
    const Model m = loadMrFixit();
    ASSERT_EQ(m.meshes.size(), 2u);
    // tests/iqm_reference.py: vertex 0 position -0.178719 -0.857190 4.313614, joints 6 and 5
    // with byte weights 128 and 127.
    expectNear(m.meshes[0].positions[0], {-0.178719f, -0.857190f, 4.313614f}, 1e-6f, "vertex 0");
    const Mesh& body = m.meshes[0];
    EXPECT_EQ(body.joints[0][0], 6);
    EXPECT_EQ(body.joints[0][1], 5);
    EXPECT_NEAR(body.weights[0][0], 128.0f / 255.0f, 1e-6f);
    EXPECT_NEAR(body.weights[0][1], 127.0f / 255.0f, 1e-6f);
    EXPECT_EQ(m.skeleton.names[body.skin.joints[6]], "Spine1");
    EXPECT_EQ(m.skeleton.names[body.skin.joints[5]], "Hips");
}

TEST(IqmMrFixit, JointWorldTranslationAtFramesZeroAndFifty) {
    const Model m = loadMrFixit();
    const int32_t hand = m.skeleton.find("Hand.L");
    ASSERT_GE(hand, 0);
    Animator anim(m);
    // tests/iqm_reference.py, file (Z-up) space.
    anim.evaluate(-1, 0.0f);
    expectNear(glm::vec3(anim.world()[hand][3]), yUp({-0.153571f, 3.598859f, 5.946824f}), 2e-5f, "bind pose");
    anim.evaluate(0, 0.0f);
    expectNear(glm::vec3(anim.world()[hand][3]), yUp({-0.344527f, 2.849961f, 4.537577f}), 2e-5f, "frame 0");
    anim.evaluate(0, 50.0f / 24.0f);
    expectNear(glm::vec3(anim.world()[hand][3]), yUp({-0.119842f, 2.636219f, 4.463103f}), 2e-5f, "frame 50");
}

// Skinned vertices in the mesh's own (file) space: skinMesh's output taken to model space by
// skinToModel, then back by the mesh node's world matrix (its Z-up to Y-up turn).
std::vector<glm::vec3> skinned(const Animator& anim, size_t mesh) {
    const Mesh& me = anim.model().meshes[mesh];
    std::vector<glm::vec3> out(me.vertexCount());
    skinMesh(me, anim.palette().data() + anim.paletteOffset(mesh), out.data(), nullptr);
    const glm::mat4 toMesh = safeAffineInverse(anim.world()[me.node]) * anim.skinToModel(mesh);
    for (glm::vec3& p : out) p = glm::vec3(toMesh * glm::vec4(p, 1.0f));
    return out;
}

TEST(IqmMrFixit, SkinnedVerticesAtFramesZeroAndFifty) {
    const Model m = loadMrFixit();
    Animator anim(m);
    anim.evaluate(-1, 0.0f);
    // The bind pose gives the file's vertices back.
    std::vector<glm::vec3> p = skinned(anim, 0);
    for (size_t v = 0; v < p.size(); v += 97) expectNear(p[v], m.meshes[0].positions[v], 1e-5f, "bind");
    // tests/iqm_reference.py: linear blend of the file's byte weights, mesh (file) space.
    anim.evaluate(0, 0.0f);
    p = skinned(anim, 0);
    expectNear(p[0], {-0.178718f, -0.827854f, 4.165417f}, 2e-5f, "vertex 0 frame 0");
    expectNear(p[1000], {-0.178960f, 1.030482f, 5.622740f}, 2e-5f, "vertex 1000 frame 0");
    anim.evaluate(0, 50.0f / 24.0f);
    p = skinned(anim, 0);
    expectNear(p[0], {-0.178718f, -0.864371f, 4.165417f}, 2e-5f, "vertex 0 frame 50");
    expectNear(p[1000], {-0.180339f, 0.968689f, 5.640481f}, 2e-5f, "vertex 1000 frame 50");
}

// The IQM exporter stores each frame's bounding box (of the skinned mesh, file space, from
// its own unquantized data): the posed mesh must fill the same box at every one of the 101
// frames, within 1e-3 of the box's diagonal (measured: 8e-4 at worst, at frame 70's feet;
// quaternion or joint-space mistakes move it by whole limbs).
TEST(IqmMrFixit, SkinnedBoundsMatchTheExportersBoundsAtEveryFrame) {
    const Model m = loadMrFixit();
    ASSERT_EQ(m.clips.size(), 1u);
    std::ifstream in(kMrFixit, std::ios::binary);
    const std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(file.size(), 257808u);
    uint32_t ofsBounds = 0;
    std::memcpy(&ofsBounds, file.data() + 16 + 4 * 22, 4);  // header field ofs_bounds (little-endian host)
    ASSERT_EQ(ofsBounds + 101u * 32u, file.size());
    Animator anim(m);
    for (int frame = 0; frame < 101; ++frame) {
        float b[8];
        std::memcpy(b, file.data() + ofsBounds + 32 * frame, sizeof(b));
        const glm::vec3 fileLo(b[0], b[1], b[2]), fileHi(b[3], b[4], b[5]);
        const float tol = 1e-3f * glm::length(fileHi - fileLo);
        anim.evaluate(0, static_cast<float>(frame) / 24.0f);
        glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
        for (size_t mesh = 0; mesh < m.meshes.size(); ++mesh) {
            for (const glm::vec3& p : skinned(anim, mesh)) {
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
            }
        }
        expectNear(lo, fileLo, tol, "min, frame " + std::to_string(frame));
        expectNear(hi, fileHi, tol, "max, frame " + std::to_string(frame));
    }
}

// ---------------------------------------------------------------------------------------
// Small IQM files built here (tests/support/iqm_writer.h).

Result<Model> parseSmall(const SmallIqm& s) { return parseIqm(s.bytes.data(), s.bytes.size(), "small.iqm"); }


TEST(IqmSmall, ParentAfterChildIsReorderedAndSkinSlotsKeepFileIndices) {
    Result<Model> r = parseSmall(SmallIqm());
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = *r;
    ASSERT_EQ(m.skeleton.size(), 3u);
    EXPECT_EQ(m.skeleton.names[1], "base");
    EXPECT_EQ(m.skeleton.names[2], "tip");
    EXPECT_EQ(m.skeleton.parent[1], 0);
    EXPECT_EQ(m.skeleton.parent[2], 1);
    ASSERT_EQ(m.meshes.size(), 1u);
    const Mesh& me = m.meshes[0];
    EXPECT_EQ(me.skin.joints, (std::vector<int32_t>{2, 1}));  // slot 0 = file joint 0 = tip
    EXPECT_EQ(me.indices, (std::vector<uint32_t>{0, 2, 1}));  // clockwise IQM -> counter-clockwise
    EXPECT_EQ(m.materials[me.material].baseColorTexture.path, "skin.png");
    ASSERT_EQ(me.normals.size(), 3u);  // smooth normals made for a file without them
    EXPECT_NEAR(glm::length(me.normals[0]), 1.0f, 1e-6f);
    EXPECT_EQ(me.joints[2][0], 0);
    EXPECT_NEAR(me.weights[2][0], 128.0f / 255.0f, 1e-6f);
    EXPECT_NEAR(me.weights[2][1], 127.0f / 255.0f, 1e-6f);
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_EQ(m.clips[0].name, "bend");
    EXPECT_NEAR(m.clips[0].duration, 0.1f, 1e-7f);
}

TEST(IqmSmall, PosesWorkedByHand) {
    Result<Model> r = parseSmall(SmallIqm());
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = *r;
    Animator anim(m);
    // Bind: base at (1,0,0) turned 90 about Z; tip (0,0,1) from it: (1,0,1). Y-up: (x, z, -y).
    anim.evaluate(-1, 0.0f);
    expectNear(glm::vec3(anim.world()[2][3]), yUp({1, 0, 1}), 1e-6f, "tip bind");
    // Frame 0: base not turned, tip x 0 -> tip at (1,0,1).
    anim.evaluate(0, 0.0f);
    expectNear(glm::vec3(anim.world()[2][3]), yUp({1, 0, 1}), 1e-6f, "tip frame 0");
    expectNear(glm::vec3(anim.world()[2][0]), yUp({1, 0, 0}), 1e-6f, "tip x axis frame 0");
    // Frame 1: base turned 90 about Z, tip local (1,0,1) -> (1,0,0) + (0,1,1) = (1,1,1).
    anim.evaluate(0, 0.1f);
    expectNear(glm::vec3(anim.world()[2][3]), yUp({1, 1, 1}), 1e-4f, "tip frame 1");
    // Skinned (mesh = file space) at frame 1: v0 rides the tip to (1,1,1); v1 stays at base's
    // origin (1,0,0); v2 = 128/255 * (2,1,0) [tip] + 127/255 * (2,0,0) [base].
    const std::vector<glm::vec3> p = skinned(anim, 0);
    expectNear(p[0], {1, 1, 1}, 1e-4f, "v0");
    expectNear(p[1], {1, 0, 0}, 1e-4f, "v1");
    expectNear(p[2], {2, 128.0f / 255.0f, 0}, 1e-4f, "v2");
}

TEST(IqmSmall, LoopFlagAddsFrameZeroAtTheEnd) {
    SmallIqm s;
    const size_t anim = get32(s.bytes, field(kOfsAnims));
    put32(s.bytes, anim + 16, 1);  // IQM_LOOP
    Result<Model> r = parseSmall(s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_NEAR(r->clips[0].duration, 0.2f, 1e-7f);
    Animator a(*r);
    a.evaluate(0, 0.2f);  // back at frame 0
    expectNear(glm::vec3(a.world()[2][3]), yUp({1, 0, 1}), 1e-6f, "loop end");
}

void expectError(const std::vector<uint8_t>& bytes, const std::string& what) {
    Result<Model> r = parseIqm(bytes.data(), bytes.size(), "bad.iqm");
    ASSERT_FALSE(r.ok()) << "expected an error about: " << what;
    const std::string& msg = r.error().message;
    EXPECT_EQ(msg.rfind("bad.iqm: ", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
}

TEST(IqmSmall, BrokenFilesGiveOneLineErrors) {
    const SmallIqm good;
    auto with = [&](Field f, uint32_t v) {
        std::vector<uint8_t> b = good.bytes;
        put32(b, field(f), v);
        return b;
    };
    expectError({}, "too small");
    expectError(std::vector<uint8_t>(good.bytes.begin(), good.bytes.begin() + 100), "too small");
    std::vector<uint8_t> b = good.bytes;
    b[0] = 'X';
    expectError(b, "not an IQM file");
    expectError(with(kVersion, 1), "version 1");
    b = good.bytes;
    b.resize(b.size() - 7);
    expectError(b, "truncated");
    expectError(with(kOfsJoints, static_cast<uint32_t>(good.bytes.size() - 10)), "joints");
    expectError(with(kNumJoints, 0xffffffffu), "joints");
    expectError(with(kOfsText, 0xfffffff0u), "text");
    expectError(with(kNumVertexes, 0x40000000u), "vertex array");
    expectError(with(kNumTriangles, 0xffffffffu), "triangles");
    expectError(with(kNumFrameChannels, 4), "channels");
    expectError(with(kNumFrames, 1), "frames");
    expectError(with(kNumPoses, 1), "poses");
    // Mesh uses more vertices than the file has.
    b = good.bytes;
    put32(b, get32(b, field(kOfsMeshes)) + 12, 4);
    expectError(b, "uses vertices");
    // A triangle's index past the mesh's vertices.
    b = good.bytes;
    put32(b, good.ofsTriangles + 4, 3);
    expectError(b, "outside the mesh's vertices");
    // A blend index past the joints.
    b = good.bytes;
    b[good.ofsBlendIndexes] = 2;
    expectError(b, "blend index");
    // Parents: out of range, itself, a cycle.
    b = good.bytes;
    put32(b, good.ofsJoints + 4, 7);
    expectError(b, "parent 7");
    b = good.bytes;
    put32(b, good.ofsJoints + 4, 0);
    expectError(b, "parent 0");
    b = good.bytes;
    put32(b, good.ofsJoints + 48 + 4, 0);  // base's parent: tip, whose parent is base
    expectError(b, "cycle");
    // A name offset outside the text block.
    b = good.bytes;
    put32(b, good.ofsJoints, 5000);
    expectError(b, "outside the text block");
}

// Meshes may share vertex ranges; a small file must not expand to gigabytes: 200 meshes over
// the same 100000 vertices are refused before anything is built.
TEST(IqmSmall, OverlappingMeshesAreBounded) {
    SmallIqm s;
    std::vector<uint8_t>& b = s.bytes;
    const uint32_t n = 100000;
    const uint32_t arrays = get32(b, field(kOfsVertexArrays));
    const uint32_t sizes[3] = {12, 4, 4};
    for (int a = 0; a < 3; ++a) {
        put32(b, arrays + 20 * a + 16, static_cast<uint32_t>(b.size()));
        b.resize(b.size() + size_t(n) * sizes[a], 0);
    }
    put32(b, field(kNumVertexes), n);
    put32(b, field(kOfsMeshes), static_cast<uint32_t>(b.size()));
    put32(b, field(kNumMeshes), 200);
    for (int m = 0; m < 200; ++m)
        for (uint32_t v : {1u, 6u, 0u, n, 0u, 1u}) append32(b, v);
    put32(b, field(kFileSize), static_cast<uint32_t>(b.size()));
    Result<Model> r = parseSmall(s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("the meshes expand to more than"), std::string::npos) << r.error().message;
    // One such mesh is fine.
    put32(b, field(kNumMeshes), 1);
    EXPECT_TRUE(parseSmall(s).ok());
}

// Every byte set to 0xff in turn: an error or a model, never a crash (ASan runs this too).
TEST(IqmSmall, EveryByteCorruptedParsesOrFailsCleanly) {
    const SmallIqm good;
    for (size_t i = 0; i < good.bytes.size(); ++i) {
        for (uint8_t v : {uint8_t(0xff), uint8_t(0x80)}) {
            std::vector<uint8_t> b = good.bytes;
            b[i] = v;
            Result<Model> r = parseIqm(b.data(), b.size(), "x.iqm");
            if (!r.ok()) {
                EXPECT_EQ(r.error().message.rfind("x.iqm: ", 0), 0u);
                continue;
            }
            for (int32_t n = 0; n < static_cast<int32_t>(r->skeleton.size()); ++n) EXPECT_LT(r->skeleton.parent[n], n);
            Animator a(*r);
            a.evaluate(r->clips.empty() ? -1 : 0, 0.05f);
        }
    }
}

// Found by iqm_fuzz: an anim whose framerate is positive but tiny made 1/fps overflow the
// float key times (an infinite clip duration). Such a rate reads like a missing one.
TEST(IqmFuzzRegression, TinyFramerateGivesFiniteClipTimes) {
    Result<Model> r = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/iqm/fuzz_tiny_framerate.iqm");
    if (!r) return;  // refused with an error line is fine too
    for (const Clip& c : r.value().clips) {
        EXPECT_TRUE(std::isfinite(c.duration) && c.duration >= 0.0f) << c.name << ": " << c.duration;
        for (float t : c.times) EXPECT_TRUE(std::isfinite(t));
    }
}

// Found by iqm_fuzz: a joint named "\n" with a zero-scale base pose made a two-line error.
TEST(IqmFuzzRegression, ANameWithANewlineStaysOnOneErrorLine) {
    const std::string path = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/iqm/fuzz_newline_in_joint_name.iqm";
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty());
    Result<Model> r = parseIqm(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.rfind(path + ": ", 0), 0u) << r.error().message;
}

}  // namespace
}  // namespace rig
