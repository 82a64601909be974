// Files that Assimp's validation refuses only on repairable points open, repaired, with the
// repair reported by `check` and `info`; files refused for anything else still fail with
// Assimp's message. Also, through the binary: .blend files (geometry with a warning line, a
// check error) and .iqm files (rigview's own reader). The Blitz3D files are written here, chunk by chunk (Assimp reads them; a
// key one frame past the ANIM chunk's frame count is what Blitz3D exporters write).
#include <gtest/gtest.h>

#include <assimp/scene.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "check/diagnostics.h"
#include "import/import.h"
#include "import/assimp/scene_repair.h"
#include "support/run.h"

namespace rig {
namespace {

const std::string kExe = RIGVIEW_EXE;

// ---- A small Blitz3D writer ------------------------------------------------------------

struct Bytes {
    std::string b;
    Bytes& i32(int32_t v) {
        b.append(reinterpret_cast<const char*>(&v), 4);  // little-endian host (x86-64, arm64)
        return *this;
    }
    Bytes& f32(float v) {
        b.append(reinterpret_cast<const char*>(&v), 4);
        return *this;
    }
    Bytes& str(const std::string& s) {
        b.append(s);
        b.push_back('\0');
        return *this;
    }
    Bytes& raw(const std::string& s) {
        b.append(s);
        return *this;
    }
};

std::string chunk(const char* tag, const std::string& body) {
    Bytes c;
    c.raw(std::string(tag, 4)).i32(static_cast<int32_t>(body.size())).raw(body);
    return c.b;
}

// A two-node rig: "root" holds a quad (4 vertices, 2 triangles) and weights vertices 0 and 1;
// its child "arm" at (0, 1, 0) weights vertices 2 and 3 and turns about Z by 3 degrees per
// frame, keys at frames 0..lastKey. The ANIM chunk says 30 frames at 30 fps.
std::string writeB3d(const std::string& path, int lastKey) {
    auto node = [](const std::string& name, float ty, const std::string& children) {
        Bytes n;
        n.str(name).f32(0).f32(ty).f32(0).f32(1).f32(1).f32(1).f32(1).f32(0).f32(0).f32(0).raw(children);
        return chunk("NODE", n.b);
    };
    Bytes vrts;
    vrts.i32(0).i32(0).i32(0);
    for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 2.f, 0.f}) vrts.f32(v);
    Bytes tris;
    tris.i32(-1);
    for (int i : {0, 1, 2, 1, 3, 2}) tris.i32(i);
    Bytes mesh;
    mesh.i32(-1).raw(chunk("VRTS", vrts.b)).raw(chunk("TRIS", tris.b));
    Bytes rootBone, armBone, keys;
    rootBone.i32(0).f32(1).i32(1).f32(1);
    armBone.i32(2).f32(1).i32(3).f32(1);
    keys.i32(4);  // rotation keys only: w x y z
    for (int f = 0; f <= lastKey; ++f) {
        const double half = 0.5 * (3.0 * f) * 3.14159265358979323846 / 180.0;
        keys.i32(f).f32(static_cast<float>(std::cos(half))).f32(0).f32(0).f32(static_cast<float>(std::sin(half)));
    }
    Bytes anim;
    anim.i32(0).i32(30).f32(30.0f);
    const std::string arm = node("arm", 1.0f, chunk("BONE", armBone.b) + chunk("KEYS", keys.b));
    const std::string root = node("root", 0.0f, chunk("MESH", mesh.b) + chunk("BONE", rootBone.b) + arm + chunk("ANIM", anim.b));
    Bytes file;
    file.i32(1).raw(root);
    std::ofstream(path, std::ios::binary) << chunk("BB3D", file.b);
    return path;
}

std::string tempPath(const std::string& name) { return testing::tempDir() + "/" + name; }

glm::quat worldRotation(const Animator& a, int32_t node) { return glm::quat_cast(glm::mat3(a.world()[node])); }

TEST(Repair, B3dKeyPastTheClipsEndOpensWithItsClip) {
    const std::string path = writeB3d(tempPath("past.b3d"), 31);
    Result<Model> r = importModel(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = *r;
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_NEAR(m.clips[0].duration, 31.0f / 30.0f, 1e-6f);  // extended to the last key
    ASSERT_EQ(m.stats.repairs.size(), 1u);
    EXPECT_EQ(m.stats.repairs[0].code, "repaired-keys");
    EXPECT_NE(m.stats.repairs[0].what.find("1 key past its duration of 30 ticks (the last at 31)"), std::string::npos)
        << m.stats.repairs[0].what;

    const Report rep = checkModel(m);
    const Finding* f = nullptr;
    for (const Finding& x : rep.findings) f = x.code == "repaired-keys" ? &x : f;
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);

    // The pose is sane: finite, inside a box around the quad, and the repaired key counts:
    // from frame 30 to frame 31 the arm turns 3 degrees more.
    const int32_t arm = m.skeleton.find("arm");
    ASSERT_GE(arm, 0);
    Animator a(m);
    a.evaluate(0, 30.0f / 30.0f);
    const glm::quat q30 = worldRotation(a, arm);
    a.evaluate(0, 31.0f / 30.0f);
    const glm::quat q31 = worldRotation(a, arm);
    const float turn = glm::degrees(2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(q30, q31)))));
    EXPECT_NEAR(turn, 3.0f, 0.05f);
    a.evaluate(0, 0.5f);
    for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
        std::vector<glm::vec3> p(m.meshes[mi].vertexCount());
        skinMesh(m.meshes[mi], a.palette().data() + a.paletteOffset(mi), p.data(), nullptr);
        for (const glm::vec3& v : p) {
            EXPECT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
            EXPECT_LT(glm::length(v), 3.0f);  // the quad spans 2 units; the arm turns about its base
        }
    }
}

TEST(Repair, B3dWithinItsDurationNeedsNoRepair) {
    const std::string path = writeB3d(tempPath("ok.b3d"), 30);
    Result<Model> r = importModel(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r->stats.repairs.empty());
    for (const Finding& f : checkModel(*r).findings) EXPECT_NE(f.code.rfind("repaired-", 0), 0u) << f.code;
}

TEST(Repair, CheckAndInfoReportTheRepair) {
    const std::string path = writeB3d(tempPath("past_cli.b3d"), 31);
    const testing::RunResult check = testing::run(kExe, {"check", path, "--json"});
    EXPECT_EQ(check.exitCode, 0) << check.err;  // a warning: check passes unless --strict
    const nlohmann::json j = nlohmann::json::parse(check.out)["files"][0];
    bool found = false;
    for (const auto& f : j["findings"]) found = found || (f["code"] == "repaired-keys" && f["severity"] == "warning");
    EXPECT_TRUE(found) << check.out;
    const testing::RunResult info = testing::run(kExe, {"info", path});
    EXPECT_EQ(info.exitCode, 0);
    EXPECT_NE(info.out.find("repaired:   clip 0: 1 key past its duration"), std::string::npos) << info.out;
}

// Refused for something rigview cannot repair: Assimp's message, as before.
TEST(Repair, NotRepairableStillFailsWithAssimpsMessage) {
    Result<Model> r = importModel("/usr/share/assimp/models/STL/triangle_with_empty_solid.stl");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "/usr/share/assimp/models/STL/triangle_with_empty_solid.stl: Validation failed: The mesh emptySolid contains no vertices");
}

// assimp-testmodels' WusonBlitz.b3d is not refused by this Assimp (5.2.5): it holds one static
// mesh and an ANIM chunk (30 frames, 0 fps) but no KEYS or BONE chunk, so it has no clip to
// repair. It opens as the static mesh it is.
TEST(Repair, WusonBlitzIsAStaticMesh) {
    Result<Model> r = importModel("/usr/share/assimp/models/B3D/WusonBlitz.b3d");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->meshes.size(), 1u);
    EXPECT_EQ(r->meshes[0].vertexCount(), 2117u);
    EXPECT_TRUE(r->clips.empty());
    EXPECT_TRUE(r->stats.repairs.empty());
}

// rigview uses no lights or cameras: they are dropped before validation, so OpenGEX files that
// Assimp refuses for a light without a node ("aiScene::mLights[1] has no corresponding node in
// the scene graph") open with their meshes.
TEST(Repair, LightsAndCamerasAreNotRead) {
    for (const char* f : {"/usr/share/assimp/models/OpenGEX/camera.ogex", "/usr/share/assimp/models/OpenGEX/collada.ogex"}) {
        Result<Model> r = importModel(f);
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_FALSE(r->meshes.empty()) << f;
        EXPECT_GT(r->meshes[0].triangleCount(), 0u) << f;
    }
    aiScene scene;
    scene.mNumLights = 2;
    scene.mLights = new aiLight*[2]{new aiLight, new aiLight};
    scene.mNumCameras = 1;
    scene.mCameras = new aiCamera*[1]{new aiCamera};
    dropLightsAndCameras(scene);
    EXPECT_EQ(scene.mNumLights, 0u);
    EXPECT_EQ(scene.mLights, nullptr);
    EXPECT_EQ(scene.mNumCameras, 0u);
    EXPECT_EQ(scene.mCameras, nullptr);
}

// repairScene on scenes built in code: empty and null channels dropped, a clip left with none
// dropped, keys past the end extend the duration.
TEST(Repair, RepairSceneDropsEmptyChannelsAndExtendsDurations) {
    aiScene scene;
    scene.mNumAnimations = 2;
    scene.mAnimations = new aiAnimation*[2];
    aiAnimation* walk = scene.mAnimations[0] = new aiAnimation;
    walk->mName = aiString("walk");
    walk->mDuration = 10.0;
    walk->mNumChannels = 3;
    walk->mChannels = new aiNodeAnim*[3];
    walk->mChannels[0] = new aiNodeAnim;  // no keys at all
    walk->mChannels[1] = nullptr;
    aiNodeAnim* good = walk->mChannels[2] = new aiNodeAnim;
    good->mNodeName = aiString("hip");
    good->mNumPositionKeys = 2;
    good->mPositionKeys = new aiVectorKey[2];
    good->mPositionKeys[0].mTime = 0.0;
    good->mPositionKeys[1].mTime = 12.5;
    aiAnimation* idle = scene.mAnimations[1] = new aiAnimation;
    idle->mNumChannels = 1;
    idle->mChannels = new aiNodeAnim*[1];
    idle->mChannels[0] = new aiNodeAnim;  // empty: the clip is left with nothing

    const std::vector<ImportRepair> reps = repairScene(scene);
    ASSERT_EQ(reps.size(), 4u);
    EXPECT_EQ(reps[0].code, "repaired-channels");
    EXPECT_EQ(reps[0].what, "clip 0 'walk': 2 empty animation channels dropped");
    EXPECT_EQ(reps[1].code, "repaired-keys");
    EXPECT_EQ(reps[1].what, "clip 0 'walk': 1 key past its duration of 10 ticks (the last at 12.5); duration extended to the last key");
    EXPECT_EQ(reps[2].what, "clip 1: 1 empty animation channel dropped");
    EXPECT_EQ(reps[3].what, "1 clip without any channel dropped");
    ASSERT_EQ(scene.mNumAnimations, 1u);
    EXPECT_EQ(scene.mAnimations[0], walk);
    EXPECT_EQ(walk->mNumChannels, 1u);
    EXPECT_EQ(walk->mChannels[0], good);
    EXPECT_DOUBLE_EQ(walk->mDuration, 12.5);
    EXPECT_TRUE(repairScene(scene).empty());  // nothing left to repair
}

// ---- Through the binary: .blend and .iqm ----------------------------------------------

TEST(FormatCli, BlendShowsGeometryWithOneWarningLineAndFailsCheck) {
    const std::string file = "/usr/share/assimp/models/BLEND/HUMAN.blend";
    const testing::RunResult info = testing::run(kExe, {"info", file, "--json"});
    EXPECT_EQ(info.exitCode, 0);
    EXPECT_EQ(info.err, "rigview: " + file +
                            ": Assimp reads no armature or animation from .blend files; export FBX or glTF from Blender\n");
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_GT(j["vertices"].get<int>(), 0);
    EXPECT_EQ(j["clips"].size(), 0u);
    const testing::RunResult check = testing::run(kExe, {"check", file, "--json"});
    EXPECT_EQ(check.exitCode, 1);
    const nlohmann::json c = nlohmann::json::parse(check.out)["files"][0];
    ASSERT_FALSE(c["findings"].empty());
    EXPECT_EQ(c["findings"][0]["code"], "blend-not-supported");
    EXPECT_EQ(c["findings"][0]["severity"], "error");
    // A .blend Assimp cannot read at all: its error, with the hint, on one line.
    const testing::RunResult bad = testing::run(kExe, {"info", "/usr/share/assimp/models/BLEND/BlenderDefault_262.blend"});
    EXPECT_EQ(bad.exitCode, 3);
    EXPECT_NE(bad.err.find("(and Assimp reads no armature or animation from .blend files; export FBX or glTF from Blender)\n"),
              std::string::npos) << bad.err;
}

TEST(FormatCli, IqmOpensWithSkinAndClip) {
    const std::string file = "/usr/share/assimp/models/IQM/mrfixit.iqm";
    const testing::RunResult info = testing::run(kExe, {"info", file, "--json"});
    ASSERT_EQ(info.exitCode, 0) << info.err;
    EXPECT_TRUE(info.err.empty()) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["joints"], 75);
    ASSERT_EQ(j["clips"].size(), 1u);
    EXPECT_EQ(j["clips"][0]["name"], "idle");
    EXPECT_NEAR(j["clips"][0]["duration"].get<double>(), 100.0 / 24.0, 1e-5);
    EXPECT_EQ(j["meshes"][0]["skinned"], true);
    const std::string out = tempPath("mrfixit_pose.json");
    const testing::RunResult pose = testing::run(kExe, {"pose", file, "-o", out, "--clip", "idle", "--time", "2"});
    EXPECT_EQ(pose.exitCode, 0) << pose.err;
    const testing::RunResult check = testing::run(kExe, {"check", file});
    EXPECT_EQ(check.exitCode, 0) << check.out;  // warnings and infos only
}

}  // namespace
}  // namespace rig
