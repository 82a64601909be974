// FBX transform chains (pre- and post-rotations, rotation and scaling pivots and offsets) against
// Blender 3.4's and three.js r187's own imports of the same files, raw world space, metres.
//
// The characters (tests/data/fbx_chain, gzip'd) are made by tools/blender/make_mixamo_fbx.py: a
// Mixamo-like rig ("mixamorig:" joints, centimetres, Hips 1 m up with animated translation, two
// clips) whose joints were rewritten to carry
//   mixamo_like.fbx        a PreRotation on every joint (Mixamo's and Maya's joint orients)
//   fbx_post_rotation.fbx  PreRotation on every joint, PostRotation on every third
//   fbx_pivots.fbx         PreRotation on every joint, rotation/scaling pivots and offsets on every second
// with the curves rewritten so that each file poses as the plain export did. References:
//   blender -b --factory-startup --python tools/blender/fbx_pose_reference.py -- F.fbx F.blender.json 1,4,9,13,20,25,31
//   node tools/three_render/pose_dump.mjs F.fbx F.three.json --scale 0.01 \
//       'Armature|Walk=0,0.1,0.26666666666666666,0.4,0.6333333333333333,0.8' \
//       'Armature|Idle=0,0.1,0.26666666666666666,0.4,0.6333333333333333,0.8,1'
// Each file is compared with the readers that follow the FBX SDK's formula for its terms
// (Blender 3.4 multiplies by Rpost where the formula has Rpost^-1; three.js's FBXLoader leaves
// pivots and offsets out of its animation tracks), and, since the rewritten files pose as the
// plain one did, with the other reader's poses of mixamo_like.fbx.
#include <gtest/gtest.h>

#include <assimp/scene.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "check/diagnostics.h"
#include "import/assimp/fbx_chain.h"
#include "import/import.h"
#include "support/gunzip.h"

namespace rig {
namespace {

using nlohmann::json;
using rig::testing::gunzip;

const std::string kData = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/fbx_chain/";

json readGzJson(const std::string& gz) {
    std::ifstream in(gunzip(kData + gz));
    EXPECT_TRUE(in) << gz;
    return json::parse(in, nullptr, false);
}

Model load(const std::string& gz) {
    Result<Model> r = importModel(gunzip(kData + gz), ImportOptions{UnitMode::Metres});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

// three.js's node names (PropertyBinding.sanitizeNodeName) and Blender's alike.
std::string sanitized(const std::string& name) {
    std::string out;
    for (char c : name)
        if (c != '[' && c != ']' && c != '.' && c != ':' && c != '/' && c != ' ') out += c;
    return out;
}

struct Posed {
    std::vector<glm::vec3> vertices;        // every mesh's, in mesh order
    std::map<std::string, glm::vec3> joints;  // by sanitized name
};

Posed pose(const Model& m, int32_t clip, float t) {
    Animator a(m);
    a.evaluate(clip, t);
    Posed out;
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh& mesh = m.meshes[i];
        std::vector<glm::vec3> ps(mesh.vertexCount());
        if (mesh.skinned) {
            skinMesh(mesh, a.palette().data() + a.paletteOffset(i), ps.data(), nullptr, SkinningMethod::Linear, kMaxInfluences);
        } else {
            ps = mesh.positions;
        }
        for (glm::vec3& p : ps) out.vertices.push_back(glm::vec3(a.skinToModel(i) * glm::vec4(p, 1.0f)));
    }
    for (int32_t j : m.jointNodes()) out.joints[sanitized(m.skeleton.names[j])] = glm::vec3(a.world()[j][3]);
    return out;
}

std::vector<glm::vec3> points(const json& pose) {
    std::vector<glm::vec3> out;
    for (const json& mesh : pose["meshes"]) {
        const json& p = mesh["positions"];
        for (size_t i = 0; 3 * i + 2 < p.size(); ++i)
            out.emplace_back(p[3 * i].get<float>(), p[3 * i + 1].get<float>(), p[3 * i + 2].get<float>());
    }
    return out;
}

float diagonal(const std::vector<glm::vec3>& ps) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& p : ps) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    return glm::length(hi - lo);
}

// The worst distance (of the diagonal) between rigview and the reference over every pose of
// `ref`: vertices (matched to rigview's by position at the reference's first pose) and joints.
float worstAgainst(const Model& m, const json& ref, const std::string& label, float tolerance) {
    EXPECT_TRUE(ref.is_object() && ref["poses"].is_array() && !ref["poses"].empty()) << label;
    if (!ref.is_object() || !ref["poses"].is_array() || ref["poses"].empty()) return 1e30f;
    auto posedAs = [&](const json& p) {
        if (p.value("bind", false)) return pose(m, kBindPose, 0.0f);
        const int32_t clip = m.findClip(p["clip"].get<std::string>());
        EXPECT_GE(clip, 0) << label << ": no clip " << p["clip"];
        return pose(m, clip, p["time"].get<float>());
    };
    const json& first = ref["poses"][0];
    const Posed start = posedAs(first);
    const std::vector<glm::vec3> theirs0 = points(first);
    const float diag = diagonal(theirs0);
    std::vector<size_t> match;
    for (const glm::vec3& p : theirs0) {
        size_t best = 0;
        float d = 1e30f;
        for (size_t i = 0; i < start.vertices.size(); ++i) {
            const float e = glm::length(start.vertices[i] - p);
            if (e < d) {
                d = e;
                best = i;
            }
        }
        match.push_back(best);
    }
    float worst = 0.0f;
    for (const json& p : ref["poses"]) {
        const Posed mine = posedAs(p);
        const std::vector<glm::vec3> theirs = points(p);
        EXPECT_EQ(theirs.size(), match.size());
        float w = 0.0f;
        for (size_t i = 0; i < theirs.size() && i < match.size(); ++i) w = std::max(w, glm::length(mine.vertices[match[i]] - theirs[i]));
        size_t joints = 0;
        for (const json& b : p["bones"]) {
            const auto it = mine.joints.find(sanitized(b["name"].get<std::string>()));
            if (it == mine.joints.end()) continue;
            const glm::vec3 head(b["head"][0].get<float>(), b["head"][1].get<float>(), b["head"][2].get<float>());
            w = std::max(w, glm::length(it->second - head));
            ++joints;
        }
        EXPECT_EQ(joints, m.jointNodes().size()) << label << ": every joint compared";
        const std::string what = p.value("bind", false) ? "bind pose" : p["clip"].get<std::string>() + " at " + std::to_string(p["time"].get<float>());
        if (tolerance > 0.0f) EXPECT_LE(w, tolerance * diag) << label << " " << what;
        worst = std::max(worst, w / diag);
    }
    std::printf("%s: worst %.3g of the diagonal (%.4f m) over %zu poses\n", label.c_str(), worst, diag, ref["poses"].size());
    return worst;
}

void expectFileJoints(const Model& m) {
    // The file's 15 joints, named as in the file, and no node of Assimp's helper chains.
    EXPECT_EQ(m.jointNodes().size(), 15u);
    for (int32_t j : m.jointNodes()) EXPECT_EQ(m.skeleton.names[j].rfind("mixamorig:", 0), 0u) << m.skeleton.names[j];
    for (const std::string& n : m.skeleton.names) EXPECT_EQ(n.find("$AssimpFbx$"), std::string::npos) << n;
    // RootNode, Armature, Body and the joints.
    EXPECT_EQ(m.skeleton.size(), 18u);
    ASSERT_EQ(m.clips.size(), 2u);
    EXPECT_EQ(m.units.file, "centimetre");
}

TEST(FbxChain, MixamoLikePreRotationsPoseLikeBlenderAndThreeJs) {
    const Model m = load("mixamo_like.fbx.gz");
    expectFileJoints(m);
    worstAgainst(m, readGzJson("mixamo_like.blender.json.gz"), "mixamo_like vs Blender", 1e-5f);
    worstAgainst(m, readGzJson("mixamo_like.three.json.gz"), "mixamo_like vs three.js", 1e-5f);
}

TEST(FbxChain, PostRotationsPoseLikeThreeJs) {
    const Model m = load("fbx_post_rotation.fbx.gz");
    expectFileJoints(m);
    worstAgainst(m, readGzJson("fbx_post_rotation.three.json.gz"), "fbx_post_rotation vs three.js", 1e-5f);
    // The post-rotations were added with the rotation keys rewritten so that the file poses as
    // before: read with Rpost^-1 it poses as Blender poses mixamo_like.fbx (Blender 3.4 itself
    // multiplies by Rpost, and poses this file elsewhere).
    worstAgainst(m, readGzJson("mixamo_like.blender.json.gz"), "fbx_post_rotation vs Blender's mixamo_like", 1e-5f);
}

TEST(FbxChain, PivotsAndOffsetsPoseLikeBlender) {
    const Model m = load("fbx_pivots.fbx.gz");
    expectFileJoints(m);
    worstAgainst(m, readGzJson("fbx_pivots.blender.json.gz"), "fbx_pivots vs Blender", 1e-5f);
    // The pivots and offsets were added with the translation keys rewritten so that the file
    // poses as before: it poses as three.js poses mixamo_like.fbx (three's FBXLoader animates
    // the translation curves without the pivots and offsets, so it is no reference for this file).
    worstAgainst(m, readGzJson("mixamo_like.three.json.gz"), "fbx_pivots vs three.js's mixamo_like", 1e-5f);
}

TEST(FbxChain, CheckFindsNothingTheImportMade) {
    for (const char* file : {"mixamo_like.fbx.gz", "fbx_post_rotation.fbx.gz", "fbx_pivots.fbx.gz"}) {
        const Model m = load(file);
        const Report d = checkModel(m);
        for (const Finding& f : d.findings) {
            EXPECT_NE(f.code, "duplicate-key-times") << file << ": " << f.message;
            EXPECT_NE(f.code, "animation-explodes") << file << ": " << f.message;
            EXPECT_NE(f.code, "non-uniform-scale") << file << ": " << f.message;
        }
    }
}

// ---- Assimp's keys on one float time ---------------------------------------------------------

TEST(FbxChain, KeysOnOneFloatTimeAreMergedKeepingTheLast) {
    aiScene scene;
    scene.mNumAnimations = 1;
    scene.mAnimations = new aiAnimation*[1];
    aiAnimation* anim = scene.mAnimations[0] = new aiAnimation();
    anim->mTicksPerSecond = 30.0;
    anim->mDuration = 60.0;
    anim->mNumChannels = 1;
    anim->mChannels = new aiNodeAnim*[1];
    aiNodeAnim* ch = anim->mChannels[0] = new aiNodeAnim();
    ch->mNumPositionKeys = 4;
    ch->mPositionKeys = new aiVectorKey[4];
    // 30.0 and 30.0 + 1e-6 ticks are one float second apart from nothing: 1 s.
    ch->mPositionKeys[0] = aiVectorKey(0.0, aiVector3D(0, 0, 0));
    ch->mPositionKeys[1] = aiVectorKey(30.0, aiVector3D(1, 0, 0));
    ch->mPositionKeys[2] = aiVectorKey(30.0 + 1e-6, aiVector3D(2, 0, 0));
    ch->mPositionKeys[3] = aiVectorKey(60.0, aiVector3D(3, 0, 0));
    ch->mNumRotationKeys = 2;
    ch->mRotationKeys = new aiQuatKey[2];
    ch->mRotationKeys[0] = aiQuatKey(0.0, aiQuaternion());
    ch->mRotationKeys[1] = aiQuatKey(60.0, aiQuaternion());
    EXPECT_EQ(scene::mergeKeysAtOneTime(scene, kDefaultTicksPerSecond), 1u);
    ASSERT_EQ(ch->mNumPositionKeys, 3u);
    EXPECT_EQ(ch->mPositionKeys[1].mValue.x, 2.0f);
    EXPECT_EQ(ch->mPositionKeys[2].mTime, 60.0);
    EXPECT_EQ(ch->mNumRotationKeys, 2u);
}

}  // namespace
}  // namespace rig
