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
//   blender -b --factory-startup --python tools/blender/pose_reference.py -- F.fbx F.blender.json 1,4,9,13,20,25,31
//   node tools/three_render/pose_dump.mjs F.fbx F.three.json --scale 0.01 \
//       'Armature|Walk=0,0.1,0.26666666666666666,0.4,0.6333333333333333,0.8' \
//       'Armature|Idle=0,0.1,0.26666666666666666,0.4,0.6333333333333333,0.8,1'
// Each file is compared with the readers that follow the FBX SDK's formula for its terms
// (Blender 3.4 multiplies by Rpost where the formula has Rpost^-1; three.js's FBXLoader leaves
// pivots and offsets out of its animation tracks), and, since the rewritten files pose as the
// plain one did, with the other reader's poses of mixamo_like.fbx.
#include <gtest/gtest.h>

#include <assimp/scene.h>

#include <cstdio>
#include <string>

#include "check/diagnostics.h"
#include "import/assimp/fbx_chain.h"
#include "import/import.h"
#include "support/gunzip.h"
#include "support/pose_reference.h"

namespace rig {
namespace {

using rig::testing::gunzip;

const std::string kData = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/fbx_chain/";

Model load(const std::string& gz) {
    Result<Model> r = importModel(gunzip(kData + gz), ImportOptions{UnitMode::Metres});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

// rigview against a reference file of tests/data/fbx_chain: vertices, strays and joint heads
// within 1e-5 of the size at every pose of it, every joint compared.
void expectPosesLike(const Model& m, const std::string& refGz, const std::string& label) {
    const testing::PoseComparison c = testing::comparePoses(m, testing::readJsonFile(kData + refGz));
    std::printf("%s: vertices %.3g, strays %.3g, joints %.3g of the diagonal over %zu poses\n", label.c_str(), c.vertices,
                c.strays, c.joints, c.poses);
    EXPECT_LE(c.vertices, 1e-5f) << label;
    EXPECT_LE(c.strays, 1e-5f) << label;
    EXPECT_LE(c.joints, 1e-5f) << label;
    EXPECT_EQ(c.jointsCompared, m.jointNodes().size()) << label;
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
    expectPosesLike(m, "mixamo_like.blender.json.gz", "mixamo_like vs Blender");
    expectPosesLike(m, "mixamo_like.three.json.gz", "mixamo_like vs three.js");
}

TEST(FbxChain, PostRotationsPoseLikeThreeJs) {
    const Model m = load("fbx_post_rotation.fbx.gz");
    expectFileJoints(m);
    expectPosesLike(m, "fbx_post_rotation.three.json.gz", "fbx_post_rotation vs three.js");
    // The post-rotations were added with the rotation keys rewritten so that the file poses as
    // before: read with Rpost^-1 it poses as Blender poses mixamo_like.fbx (Blender 3.4 itself
    // multiplies by Rpost, and poses this file elsewhere).
    expectPosesLike(m, "mixamo_like.blender.json.gz", "fbx_post_rotation vs Blender's mixamo_like");
}

TEST(FbxChain, PivotsAndOffsetsPoseLikeBlender) {
    const Model m = load("fbx_pivots.fbx.gz");
    expectFileJoints(m);
    expectPosesLike(m, "fbx_pivots.blender.json.gz", "fbx_pivots vs Blender");
    // The pivots and offsets were added with the translation keys rewritten so that the file
    // poses as before: it poses as three.js poses mixamo_like.fbx (three's FBXLoader animates
    // the translation curves without the pivots and offsets, so it is no reference for this file).
    expectPosesLike(m, "mixamo_like.three.json.gz", "fbx_pivots vs three.js's mixamo_like");
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
