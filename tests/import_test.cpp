// Real files from Debian's assimp-testmodels: counts, clip data, and posed positions
// checked against values derived by hand from the files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/control/layer_clock.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "import/assimp/off_header.h"

namespace rig {
namespace {

const std::string kModels = "/usr/share/assimp/models/";

Model load(const std::string& rel) {
    Result<Model> r = importModel(kModels + rel);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

TEST(Import, BcnEpilepticHas54BonesAndOneClip) {
    Model m = load("X/BCN_Epileptic.X");
    EXPECT_EQ(m.skeleton.size(), 58u);
    EXPECT_EQ(m.jointNodes().size(), 54u);
    ASSERT_EQ(m.meshes.size(), 3u);
    EXPECT_EQ(m.meshes[0].name, "Torso");
    EXPECT_EQ(m.meshes[0].skin.joints.size(), 24u);
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_EQ(m.clips[0].name, "Epileptisch");
    EXPECT_NEAR(m.clips[0].duration, 3.3f, 1e-4f);
    EXPECT_EQ(m.clips[0].tracks.size(), 57u);
    for (int32_t i = 0; i < static_cast<int32_t>(m.skeleton.size()); ++i) EXPECT_LT(m.skeleton.parent[i], i);
}

// Issue 10: BCN_Epileptic's three meshes hang from rotated nodes (Torso, Head, Legs: 90
// degrees about X, each with a one-key track in the clip), so their palettes are kept in model
// space: one product per entry (model * inverseBind), skinToModel the identity. Each mesh
// keeps its own palette range: their joint sets are disjoint (24 + 20 + 10 joints; 57
// entries with the three rigid slots), so there is nothing to share. Skinned vertices equal,
// within 1e-6 of the bounding-box diagonal, (a) a sum in double precision over the file's
// inverse bind matrices and the joints' model matrices, and (b) the mesh-space path (palette
// inverse(meshWorld) * model * inverseBind, the result taken to model space by the mesh
// node) with linear, stitched and dual quaternion skinning; normals agree to 1e-5.
TEST(Palette, BcnEpilepticMeshesSkinInModelSpace) {
    const Model m = load("X/BCN_Epileptic.X");
    ASSERT_EQ(m.meshes.size(), 3u);
    ASSERT_EQ(m.clips.size(), 1u);
    std::vector<int> used(m.skeleton.size(), 0);
    size_t entries = 0;
    for (const Mesh& mesh : m.meshes) {
        ASSERT_TRUE(mesh.skinned);
        for (int32_t j : mesh.skin.joints) EXPECT_EQ(used[j]++, 0) << m.skeleton.names[j];
        entries += mesh.skin.paletteSize();
    }
    EXPECT_EQ(entries, 57u);
    Animator anim(m);
    EXPECT_EQ(anim.palette().size(), 57u);
    EXPECT_EQ(anim.paletteOffset(0), 0u);
    EXPECT_EQ(anim.paletteOffset(1), 25u);
    EXPECT_EQ(anim.paletteOffset(2), 46u);
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const Mesh& mesh : m.meshes) {
        for (const glm::vec3& p : mesh.positions) {
            const glm::vec3 w(m.skeleton.bindModel[mesh.node] * glm::vec4(p, 1.0f));
            lo = glm::min(lo, w);
            hi = glm::max(hi, w);
        }
    }
    const float tol = 1e-6f * glm::length(hi - lo);
    ASSERT_GT(tol, 0.0f);
    struct Pose {
        int32_t clip;
        float t;
    };
    const Pose poses[] = {{kBindPose, 0.0f}, {kFilePose, 0.0f}, {0, 0.0f}, {0, 0.37f}, {0, 1.1f}, {0, 2.9f}};
    for (const Pose& pose : poses) {
        anim.evaluate(pose.clip, pose.t);
        for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
            SCOPED_TRACE("clip " + std::to_string(pose.clip) + " t " + std::to_string(pose.t) + " mesh " + std::to_string(mi));
            const Mesh& mesh = m.meshes[mi];
            const size_t n = mesh.vertexCount();
            ASSERT_EQ(mesh.normals.size(), n);
            const Skin& skin = mesh.skin;
            const glm::mat4& meshWorld = anim.world()[mesh.node];
            EXPECT_GT(glm::length(glm::vec3(meshWorld[1]) - glm::vec3(0, 1, 0)), 1.0f);  // rotated
            EXPECT_EQ(anim.skinToModel(mi), glm::mat4(1.0f));
            const glm::mat4* pal = anim.palette().data() + anim.paletteOffset(mi);
            // (a) By the file's numbers, in double precision.
            std::vector<glm::vec3> p(n), nrm(n), q(n), qn(n);
            skinMesh(mesh, pal, p.data(), nrm.data(), SkinningMethod::Linear);
            float worst = 0.0f;
            for (size_t v = 0; v < n; ++v) {
                glm::dvec3 sum(0.0);
                double ws = 0.0;
                for (int k = 0; k < 4; ++k) {
                    const double w = mesh.weights[v][k];
                    if (!(w > 0.0)) continue;
                    const uint16_t slot = mesh.joints[v][k];
                    const glm::dmat4 x = slot < skin.joints.size()
                                             ? glm::dmat4(anim.world()[skin.joints[slot]]) * glm::dmat4(skin.inverseBind[slot])
                                             : glm::dmat4(meshWorld);
                    sum += w * glm::dvec3(x * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
                    ws += w;
                }
                ASSERT_GT(ws, 0.0);
                worst = std::max(worst, static_cast<float>(glm::length(sum / ws - glm::dvec3(p[v]))));
            }
            EXPECT_LE(worst, tol);
            // (b) The mesh-space palette, then the mesh node.
            std::vector<glm::mat4> meshSpace(skin.paletteSize(), glm::mat4(1.0f));
            const glm::mat4 inv = glm::inverse(meshWorld);
            for (size_t j = 0; j < skin.joints.size(); ++j) {
                meshSpace[j] = inv * anim.world()[skin.joints[j]] * skin.inverseBind[j];
            }
            for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::Stitch, SkinningMethod::DualQuat}) {
                skinMesh(mesh, pal, p.data(), nrm.data(), method);
                skinMesh(mesh, meshSpace.data(), q.data(), qn.data(), method);
                float worstP = 0.0f, worstN = 0.0f;
                for (size_t v = 0; v < n; ++v) {
                    worstP = std::max(worstP, glm::length(p[v] - glm::vec3(meshWorld * glm::vec4(q[v], 1.0f))));
                    worstN = std::max(worstN, glm::length(nrm[v] - glm::normalize(glm::mat3(meshWorld) * qn[v])));
                }
                EXPECT_LE(worstP, tol) << "method " << static_cast<int>(method);
                EXPECT_LE(worstN, 1e-5f) << "method " << static_cast<int>(method);
            }
        }
    }
}

TEST(Import, TestwusonHasThreeClips) {
    Model m = load("X/Testwuson.X");
    ASSERT_EQ(m.clips.size(), 3u);
    EXPECT_EQ(m.clips[0].name, "Wuson_Run");
    EXPECT_EQ(m.clips[1].name, "Wuson_Walk");
    EXPECT_EQ(m.clips[2].name, "Wuson_Bind");
    EXPECT_NEAR(m.clips[1].duration, 3.6f, 1e-4f);
    EXPECT_FLOAT_EQ(m.clips[2].duration, 0.0f);
    EXPECT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].weightStats.maxInfluences, 4u);
    EXPECT_EQ(m.findClip("Wuson_Walk"), 1);
    EXPECT_EQ(m.findClip("2"), 2);
    EXPECT_EQ(m.findClip("nope"), -1);
}

TEST(Import, AnimationWithSkeletonFbxTruncatesToFourInfluences) {
    Model m = load("FBX/animation_with_skeleton.fbx");
    ASSERT_EQ(m.meshes.size(), 1u);
    const Mesh& mesh = m.meshes[0];
    EXPECT_TRUE(mesh.skinned);
    EXPECT_EQ(mesh.skin.joints.size(), 14u);
    EXPECT_EQ(mesh.weightStats.maxInfluences, 6u);
    EXPECT_GT(mesh.weightStats.truncatedVertices, 0u);
    // Kept weights are renormalized to 1.
    for (const glm::vec4& w : mesh.weights) EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_EQ(m.clips[0].name, "Armature|ArmatureAction");
}

TEST(Import, HuesitosFbx) {
    Model m = load("FBX/huesitos.fbx");
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].skin.joints.size(), 9u);
    EXPECT_EQ(m.meshes[0].vertexCount(), 128u);
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_NEAR(m.clips[0].duration, 1.56f, 1e-3f);
}

// simple_skin.gltf, read by hand: vertices (0|1, 0..2 step 0.5, 0), weights (1-s, s) with
// s = y/2 on joints [node1, node2]; node1 at (0,1,0), node2 its child; both inverse bind
// matrices are translate(-0.5,-1,0). Node2's rotation keys every 0.5 s: 0, 45, 90, 90, 45,
// 0, 0, -45, -90, -90, -45, 0 degrees about Z (quaternions (0,0,0.383,0.924) etc.).
// So a vertex v goes to (1-s) * (v + (-0.5,0,0)) + s * (Rz(theta) * (v - (0.5,1,0)) + (0,1,0)).
glm::vec3 simpleSkinExpected(const glm::vec3& v, float thetaDeg) {
    const float s = v.y / 2.0f;
    const float th = glm::radians(thetaDeg);
    const glm::vec3 a = v + glm::vec3(-0.5f, 0, 0);
    const glm::vec3 d = v - glm::vec3(0.5f, 1, 0);
    const glm::vec3 b = glm::vec3(std::cos(th) * d.x - std::sin(th) * d.y, std::sin(th) * d.x + std::cos(th) * d.y, 0) +
                        glm::vec3(0, 1, 0);
    return (1 - s) * a + s * b;
}

TEST(Import, SimpleSkinGltfMatchesHandDerivedPositions) {
    Model m = load("glTF2/simple_skin/simple_skin.gltf");
    ASSERT_EQ(m.meshes.size(), 1u);
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_NEAR(m.clips[0].duration, 5.5f, 1e-6f);
    EXPECT_EQ(m.clips[0].tracks.size(), 1u);
    EXPECT_EQ(m.clips[0].tracks[0].rotation.count, 12u);
    const Mesh& mesh = m.meshes[0];
    ASSERT_EQ(mesh.vertexCount(), 10u);
    // The key angles: 2 * atan2(0.383, 0.924) is 45.0 degrees to 3 decimals, and so on.
    const float k45 = glm::degrees(2.0f * std::atan2(0.383f, 0.924f));
    const float k90 = 90.0f;
    struct Case { double time; float theta; };
    // Slerp between keys is linear in angle.
    const Case cases[] = {{0.0, 0.0f},          {0.25, 0.5f * k45},       {0.5, k45},
                          {1.25, k90},          {2.25, 0.5f * k45}, {3.75, -0.5f * (k45 + k90)},
                          {5.5, 0.0f},          {6.0, k45} /* wraps to 0.5 */};
    Animator anim(m);
    LayerClock clock;
    clock.start(m.clips[0].duration, 0.0, 1.0f, LoopMode::Loop, 0);
    for (const Case& c : cases) {
        clock.seek(c.time);
        anim.evaluate(0, static_cast<float>(clock.time()));
        std::vector<glm::vec3> p(10);
        skinMesh(mesh, anim.palette().data(), p.data(), nullptr);
        const glm::mat4& meshWorld = anim.skinToModel(0);
        for (size_t v = 0; v < 10; ++v) {
            const glm::vec3 world = glm::vec3(meshWorld * glm::vec4(p[v], 1));
            const glm::vec3 want = simpleSkinExpected(mesh.positions[v], c.theta);
            EXPECT_NEAR(world.x, want.x, 2e-4f) << "t=" << c.time << " v=" << v;
            EXPECT_NEAR(world.y, want.y, 2e-4f) << "t=" << c.time << " v=" << v;
            EXPECT_NEAR(world.z, want.z, 2e-4f) << "t=" << c.time << " v=" << v;
        }
    }
}

// 01_01.bvh (CMU): 2752 frames at 1/120 s. First frame: Hips at (9.3722, 17.8693, -17.3198)
// with no rotation, LHipJoint unrotated, LeftUpLeg offset (1.36306, -1.79463, 0.83929)
// rotated -17 degrees about Z.
TEST(Import, Bvh0101FirstFrameByHand) {
    Model m = load("BVH/01_01.bvh");
    EXPECT_TRUE(m.meshes.empty());  // a skeleton-only asset
    ASSERT_EQ(m.clips.size(), 1u);
    const Clip& c = m.clips[0];
    EXPECT_NEAR(c.duration, 2751 * 0.0083333f, 1e-3f);
    EXPECT_FLOAT_EQ(c.sampleRate, 120.0f);
    EXPECT_EQ(m.skeleton.size(), 38u);  // 31 joints + 7 end sites
    Animator anim(m);
    anim.evaluate(0, 0.0f);
    const int32_t hips = m.skeleton.find("Hips");
    const int32_t upLeg = m.skeleton.find("LeftUpLeg");
    ASSERT_GE(hips, 0);
    ASSERT_GE(upLeg, 0);
    const glm::vec3 h(anim.world()[hips][3]);
    EXPECT_NEAR(h.x, 9.3722f, 1e-4f);
    EXPECT_NEAR(h.y, 17.8693f, 1e-4f);
    EXPECT_NEAR(h.z, -17.3198f, 1e-4f);
    const glm::mat4& w = anim.world()[upLeg];
    const glm::vec3 u(w[3]);
    EXPECT_NEAR(u.x, 9.3722f + 1.36306f, 1e-4f);
    EXPECT_NEAR(u.y, 17.8693f - 1.79463f, 1e-4f);
    EXPECT_NEAR(u.z, -17.3198f + 0.83929f, 1e-4f);
    const float a = glm::radians(-17.0f);
    EXPECT_NEAR(w[0][0], std::cos(a), 1e-5f);
    EXPECT_NEAR(w[0][1], std::sin(a), 1e-5f);
    EXPECT_NEAR(w[1][0], -std::sin(a), 1e-5f);
}

TEST(Import, MissingAndBrokenFilesGiveOneLineErrorsNamingTheFile) {
    for (const std::string& rel : {std::string("does/not/exist.fbx"), std::string("invalid/empty.obj"),
                                   std::string("glTF2/RecursiveNodes/RecursiveNodes.gltf")}) {
        Result<Model> r = importModel(kModels + rel);
        ASSERT_FALSE(r.ok()) << rel;
        EXPECT_NE(r.error().message.find(kModels + rel), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
    }
}

TEST(Import, TicksPerSecondConvertedToSeconds) {
    // huesitos: Blender FBX at 24 ticks... keys must lie within [0, duration] in seconds.
    Model m = load("FBX/huesitos.fbx");
    for (const Clip& c : m.clips) {
        EXPECT_GT(c.ticksPerSecond, 0.0);
        for (float t : c.times) {
            EXPECT_GE(t, c.startTime - 1e-6f);
            EXPECT_LE(t, c.duration + 1e-6f);
        }
    }
}

}  // namespace
}  // namespace rig

namespace rig {
namespace {

std::string base64(const std::vector<uint8_t>& in) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < in.size(); i += 3) {
        uint32_t v = in[i] << 16;
        if (i + 1 < in.size()) v |= in[i + 1] << 8;
        if (i + 2 < in.size()) v |= in[i + 2];
        out += k[(v >> 18) & 63];
        out += k[(v >> 12) & 63];
        out += i + 1 < in.size() ? k[(v >> 6) & 63] : '=';
        out += i + 2 < in.size() ? k[v & 63] : '=';
    }
    return out;
}

// A glTF written here: two nodes, one animation whose "stepper" translation sampler is STEP
// and whose "glider" translation sampler is LINEAR, keys (0,0,0)@0s and (1,0,0)@1s.
TEST(Import, GltfStepInterpolationIsHonoured) {
    std::vector<float> data = {0.0f, 1.0f, 0, 0, 0, 1, 0, 0};
    std::vector<uint8_t> bytes(data.size() * 4);
    std::memcpy(bytes.data(), data.data(), bytes.size());
    const std::string gltf = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1]}],
      "nodes":[{"name":"stepper"},{"name":"glider"}],
      "buffers":[{"byteLength":32,"uri":"data:application/octet-stream;base64,)" + base64(bytes) + R"("}],
      "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
                   {"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],
      "animations":[{"name":"steps","samplers":[{"input":0,"output":1,"interpolation":"STEP"},
                                               {"input":0,"output":1,"interpolation":"LINEAR"}],
        "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}},
                    {"sampler":1,"target":{"node":1,"path":"translation"}}]}]})";
    const std::string path = testing::TempDir() + "/step.gltf";
    std::ofstream(path) << gltf;
    Result<Model> r = importModel(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    Model& m = r.value();
    ASSERT_EQ(m.clips.size(), 1u);
    Animator anim(m);
    anim.evaluate(0, 0.75f);
    const int32_t stepper = m.skeleton.find("stepper"), glider = m.skeleton.find("glider");
    ASSERT_GE(stepper, 0);
    ASSERT_GE(glider, 0);
    EXPECT_FLOAT_EQ(anim.world()[stepper][3].x, 0.0f);   // holds the earlier key
    EXPECT_FLOAT_EQ(anim.world()[glider][3].x, 0.75f);   // interpolates
    anim.evaluate(0, 1.0f);
    EXPECT_FLOAT_EQ(anim.world()[stepper][3].x, 1.0f);
}


// OFF headers are read before Assimp allocates for their counts (off_header.h).
TEST(OffHeader, ReadsTheCountsOfEveryForm) {
    OffCounts c = readOffCounts("OFF\n8 6 0\n-0.5 -0.5 0.5\n");
    EXPECT_TRUE(c.found);
    EXPECT_EQ(c.vertices, 8u);
    EXPECT_EQ(c.faces, 6u);
    EXPECT_EQ(c.dimensions, 3u);
    c = readOffCounts("# made by hand\n  STCNOFF # keyword\n 12\t7 0\n");
    EXPECT_TRUE(c.found);
    EXPECT_EQ(c.vertices, 12u);
    EXPECT_EQ(c.faces, 7u);
    c = readOffCounts("nOFF 4\n5 2 0\n");
    EXPECT_TRUE(c.found);
    EXPECT_EQ(c.dimensions, 4u);
    EXPECT_EQ(c.vertices, 5u);
    c = readOffCounts("3 4\n0.1 0.2 0.3\n");  // no keyword: allowed by the format
    EXPECT_TRUE(c.found);
    EXPECT_EQ(c.vertices, 3u);
    EXPECT_FALSE(readOffCounts("3 4\n0.1 0.2 0.3\n", true).found);
    EXPECT_FALSE(readOffCounts("GOOFF 3 4\n").found);
    EXPECT_FALSE(readOffCounts("OFF 3 x\n").found);
    EXPECT_FALSE(readOffCounts("OFF 3").found);
    EXPECT_FALSE(readOffCounts("{\"asset\": {}}").found);
    c = readOffCounts("OFF\n99999999999999999999999 1\n");  // saturates
    EXPECT_TRUE(c.found);
    EXPECT_EQ(c.vertices, UINT64_MAX);
}

TEST(OffHeader, RealFilesReadAndClaimsPastTheFileAreRefused) {
    // Every OFF file of assimp-testmodels that Assimp reads still reads (invalid.off's counts
    // fit in its bytes: Assimp reads what it can).
    for (const char* rel : {"OFF/Cube.off", "OFF/Wuson.off", "OFF/formatDetection", "OFF/invalid.off"}) {
        std::ifstream in(kModels + rel, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_TRUE(checkOffCounts(kModels + rel, bytes, true).ok()) << rel;
        EXPECT_TRUE(importModel(kModels + rel).ok()) << rel;
    }

    // invalid/OutOfMemory.off claims 353535235358 vertices in 309 bytes: refused before Assimp.
    const std::string oom = kModels + "invalid/OutOfMemory.off";
    Result<Model> r = importModel(oom);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, oom + ": the OFF header claims 353535235358 vertices and 6 faces, more than its 309 bytes can hold");

    // A small file that holds its counts reads; the same header with one more digit does not,
    // and neither does a file of another extension that starts with the keyword.
    const std::string dir = testing::TempDir();
    const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    {
        std::ofstream(dir + "/tri.off") << "OFF\n3 1 0\n" << body;
        std::ofstream(dir + "/big.off") << "OFF\n3 10000000000 0\n" << body;
        std::ofstream(dir + "/big.txt") << "OFF\n3 10000000000 0\n" << body;
    }
    Result<Model> tri = importModel(dir + "/tri.off");
    ASSERT_TRUE(tri.ok()) << tri.error().message;
    EXPECT_EQ(tri.value().meshes.at(0).vertexCount(), 3u);
    for (const char* name : {"/big.off", "/big.txt"}) {
        Result<Model> big = importModel(dir + name);
        ASSERT_FALSE(big.ok()) << name;
        EXPECT_NE(big.error().message.find(dir + name + ": the OFF header claims 3 vertices and 10000000000 faces"),
                  std::string::npos)
            << big.error().message;
    }
}

}  // namespace
}  // namespace rig
