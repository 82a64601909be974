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

#include <cmath>
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

// ---- the fold on scenes built as Assimp 5.2.5 builds them -----------------------------------

aiNode* node(const std::string& name, aiNode* parent, const aiMatrix4x4& m = aiMatrix4x4()) {
    aiNode* n = new aiNode(name);
    n->mTransformation = m;
    n->mParent = parent;
    if (parent) {
        aiNode** kids = new aiNode*[parent->mNumChildren + 1];
        for (unsigned c = 0; c < parent->mNumChildren; ++c) kids[c] = parent->mChildren[c];
        kids[parent->mNumChildren] = n;
        delete[] parent->mChildren;
        parent->mChildren = kids;
        ++parent->mNumChildren;
    }
    return n;
}

aiMatrix4x4 rotation(float x, float y, float z) {
    aiMatrix4x4 rx, ry, rz;
    aiMatrix4x4::RotationX(x, rx);
    aiMatrix4x4::RotationY(y, ry);
    aiMatrix4x4::RotationZ(z, rz);
    return rz * ry * rx;
}

aiMatrix4x4 translation(float x, float y, float z) {
    aiMatrix4x4 m;
    aiMatrix4x4::Translation(aiVector3D(x, y, z), m);
    return m;
}

bool near(const aiMatrix4x4& a, const aiMatrix4x4& b) {
    for (unsigned r = 0; r < 4; ++r)
        for (unsigned c = 0; c < 4; ++c)
            if (std::fabs(a[r][c] - b[r][c]) > 1e-5f) return false;
    return true;
}

TEST(FbxChain, WholeTransformChannelsTakeRpostInverted) {
    // "joint" with T, Rpre, R and Rpost^-1 helpers, and Assimp's one channel on "joint" holding
    // T * (Rpre * R * Rpost) * S.
    aiScene scene;
    scene.mRootNode = new aiNode("RootNode");
    const aiMatrix4x4 T = translation(0, 100, 0), pre = rotation(0.3f, -0.2f, 0.5f), R = rotation(0.1f, 0.4f, -0.3f);
    const aiMatrix4x4 post = rotation(-0.25f, 0.15f, 0.35f);
    aiMatrix4x4 postInverse = post;
    postInverse.Inverse();
    aiNode* h = node("joint_$AssimpFbx$_Translation", scene.mRootNode, T);
    h = node("joint_$AssimpFbx$_PreRotation", h, pre);
    h = node("joint_$AssimpFbx$_Rotation", h, R);
    h = node("joint_$AssimpFbx$_PostRotation", h, postInverse);
    aiNode* joint = node("joint", h);
    node("child", joint, translation(0, 10, 0));
    scene.mNumAnimations = 1;
    scene.mAnimations = new aiAnimation*[1];
    aiAnimation* anim = scene.mAnimations[0] = new aiAnimation();
    anim->mTicksPerSecond = 30.0;
    anim->mDuration = 1.0;
    anim->mNumChannels = 1;
    anim->mChannels = new aiNodeAnim*[1];
    aiNodeAnim* ch = anim->mChannels[0] = new aiNodeAnim();
    ch->mNodeName = aiString("joint");
    const aiQuaternion assimps{aiMatrix3x3(pre * R * post)};
    ch->mNumPositionKeys = ch->mNumRotationKeys = ch->mNumScalingKeys = 1;
    ch->mPositionKeys = new aiVectorKey[1]{aiVectorKey(0.0, aiVector3D(0, 100, 0))};
    ch->mRotationKeys = new aiQuatKey[1]{aiQuatKey(0.0, assimps)};
    ch->mScalingKeys = new aiVectorKey[1]{aiVectorKey(0.0, aiVector3D(1, 1, 1))};

    const scene::FbxChainStats st = scene::foldFbxTransformChains(scene);
    EXPECT_EQ(st.chains, 1u);
    EXPECT_EQ(st.channels, 1u);
    ASSERT_EQ(scene.mRootNode->mNumChildren, 1u);
    aiNode* folded = scene.mRootNode->mChildren[0];
    EXPECT_EQ(std::string(folded->mName.C_Str()), "joint");
    EXPECT_EQ(folded->mParent, scene.mRootNode);
    ASSERT_EQ(folded->mNumChildren, 1u);
    EXPECT_EQ(std::string(folded->mChildren[0]->mName.C_Str()), "child");
    EXPECT_TRUE(near(folded->mTransformation, T * pre * R * postInverse));
    // The channel's rotation: Rpre * R * Rpost^-1.
    ASSERT_EQ(anim->mNumChannels, 1u);
    const aiMatrix4x4 got(aiMatrix3x3(anim->mChannels[0]->mRotationKeys[0].mValue.GetMatrix()));
    EXPECT_TRUE(near(got, pre * R * postInverse));
}

TEST(FbxChain, TermChannelsAreMultipliedOutAndGeometryIsBaked) {
    // A node with a rotation pivot (animated rotation: Assimp's channel on the Rotation helper),
    // a geometric translation moving its mesh, and a child behind the geometric inverse.
    aiScene scene;
    scene.mRootNode = new aiNode("RootNode");
    aiNode* h = node("n_$AssimpFbx$_Translation", scene.mRootNode, translation(1, 2, 3));
    h = node("n_$AssimpFbx$_RotationPivot", h, translation(0, 1, 0));
    h = node("n_$AssimpFbx$_Rotation", h, aiMatrix4x4());
    h = node("n_$AssimpFbx$_RotationPivotInverse", h, translation(0, -1, 0));
    h = node("n_$AssimpFbx$_GeometricTranslation", h, translation(5, 0, 0));
    aiNode* n = node("n", h);
    aiNode* inverse = node("n_$AssimpFbx$_GeometricTranslationInverse", n, translation(-5, 0, 0));
    node("child", inverse, translation(0, 0, 7));
    scene.mNumMeshes = 1;
    scene.mMeshes = new aiMesh*[1];
    aiMesh* mesh = scene.mMeshes[0] = new aiMesh();
    mesh->mNumVertices = 1;
    mesh->mVertices = new aiVector3D[1]{aiVector3D(0, 0, 1)};
    n->mNumMeshes = 1;
    n->mMeshes = new unsigned[1]{0};
    scene.mNumAnimations = 1;
    scene.mAnimations = new aiAnimation*[1];
    aiAnimation* anim = scene.mAnimations[0] = new aiAnimation();
    anim->mTicksPerSecond = 1.0;
    anim->mDuration = 1.0;
    anim->mNumChannels = 1;
    anim->mChannels = new aiNodeAnim*[1];
    aiNodeAnim* ch = anim->mChannels[0] = new aiNodeAnim();
    ch->mNodeName = aiString("n_$AssimpFbx$_Rotation");
    ch->mNumRotationKeys = 2;
    const aiQuaternion half{aiVector3D(0, 0, 1), 3.14159265f / 2.0f};
    ch->mRotationKeys = new aiQuatKey[2]{aiQuatKey(0.0, aiQuaternion()), aiQuatKey(1.0, half)};
    ch->mNumPositionKeys = ch->mNumScalingKeys = 1;
    ch->mPositionKeys = new aiVectorKey[1]{aiVectorKey(0.0, aiVector3D())};
    ch->mScalingKeys = new aiVectorKey[1]{aiVectorKey(0.0, aiVector3D(1, 1, 1))};

    const scene::FbxChainStats st = scene::foldFbxTransformChains(scene);
    EXPECT_EQ(st.chains, 1u);
    EXPECT_EQ(st.geometricMeshes, 1u);
    aiNode* folded = scene.mRootNode->mChildren[0];
    EXPECT_EQ(std::string(folded->mName.C_Str()), "n");
    ASSERT_EQ(folded->mNumChildren, 1u);
    EXPECT_EQ(std::string(folded->mChildren[0]->mName.C_Str()), "child");
    EXPECT_TRUE(near(folded->mTransformation, translation(1, 2, 3)));
    EXPECT_EQ(mesh->mVertices[0], aiVector3D(5, 0, 1));
    // The channel on "n": at t = 1 a quarter turn about z around the pivot (0, 1, 0).
    ASSERT_EQ(anim->mNumChannels, 1u);
    const aiNodeAnim& out = *anim->mChannels[0];
    EXPECT_EQ(std::string(out.mNodeName.C_Str()), "n");
    ASSERT_EQ(out.mNumPositionKeys, 2u);
    const aiVector3D at1 = out.mPositionKeys[1].mValue;  // T + Rp - R * Rp = (1,2,3) + (0,1,0) - (-1,0,0)
    EXPECT_NEAR(at1.x, 2.0f, 1e-5f);
    EXPECT_NEAR(at1.y, 3.0f, 1e-5f);
    EXPECT_NEAR(at1.z, 3.0f, 1e-5f);
}

TEST(FbxChain, ChainsOfNodesSharingANameAreLeftAsAssimpMadeThem) {
    aiScene scene;
    scene.mRootNode = new aiNode("RootNode");
    for (int k = 0; k < 2; ++k) node("twin", node("twin_$AssimpFbx$_PreRotation", scene.mRootNode, rotation(0.2f, 0, 0)));
    EXPECT_EQ(scene::foldFbxTransformChains(scene).chains, 0u);
    ASSERT_EQ(scene.mRootNode->mNumChildren, 2u);
    EXPECT_EQ(std::string(scene.mRootNode->mChildren[0]->mName.C_Str()), "twin_$AssimpFbx$_PreRotation");
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
