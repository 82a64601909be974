// Vertex joining that respects skinning, on a character whose legs touch (tests/data/join,
// made by tools/blender/make_touching_legs.py: flat-shaded leg boxes meeting at x = 0 under a
// pelvis, mirrored UVs, one weight of 1.0 per vertex). Where the legs' front and back faces meet,
// and where the legs meet the pelvis, corners of two bones share position, normal and UV.
// References, Blender 3.4's and three.js r187's imports of the FBX:
//   blender -b --factory-startup --python tools/blender/pose_reference.py -- \
//       touching_legs.fbx touching_legs.blender.json 1,4,7,10,13,16,19,22,25
//   node tools/three_render/pose_dump.mjs touching_legs.fbx touching_legs.three.json --scale 0.01 \
//       'Rig|Walk=0.0,0.125,0.25,0.375,0.5,0.625,0.75,0.875,1.0'
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cstdio>
#include <string>
#include <vector>

#include "check/diagnostics.h"
#include "import/import.h"
#include "support/gunzip.h"
#include "support/pose_reference.h"

namespace rig {
namespace {

using rig::testing::gunzip;

const std::string kData = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/join/";

TEST(JoinReference, TouchingLegsStaySplitAndPoseLikeBlenderAndThreeJs) {
    Result<Model> r = importModel(gunzip(kData + "touching_legs.fbx.gz"));
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    ASSERT_EQ(m.meshes.size(), 1u);
    // Every vertex keeps the file's one weight of 1.0 on one bone.
    const Mesh& mesh = m.meshes[0];
    for (size_t v = 0; v < mesh.vertexCount(); ++v) {
        EXPECT_EQ(mesh.weights[v][0], 1.0f) << "vertex " << v << " weighs on two bones";
        EXPECT_EQ(mesh.originalInfluenceCount[v], 1u) << "vertex " << v;
    }
    EXPECT_EQ(mesh.weightStats.unnormalizedVertices, 0u);
    EXPECT_EQ(mesh.weightStats.maxInfluences, 1u);
    // Posed like both readers at every tested time, and no vertex where neither has one (a
    // vertex joined across the legs would stay between them as they swing apart).
    for (const char* ref : {"touching_legs.blender.json.gz", "touching_legs.three.json.gz"}) {
        const testing::PoseComparison c = testing::comparePoses(m, testing::readJsonFile(kData + ref));
        std::printf("%s: vertices %.3g, strays %.3g, joints %.3g of the diagonal over %zu poses\n", ref, c.vertices, c.strays,
                    c.joints, c.poses);
        EXPECT_LE(c.vertices, 1e-5f) << ref;
        EXPECT_LE(c.strays, 1e-5f) << ref;
        EXPECT_LE(c.joints, 1e-5f) << ref;
        EXPECT_GE(c.poses, 9u);
    }
    // check blames the file for nothing about its weights.
    for (const Finding& f : checkModel(m).findings) {
        EXPECT_NE(f.code, "weights-not-normalized") << f.message;
        EXPECT_NE(f.code, "too-many-influences") << f.message;
    }
}

// The file does what the Minetest character did: Assimp's own join (5.2.5), which
// compares positions, normals and UVs but no bones, makes vertices of it that weigh on two legs.
TEST(JoinReference, AssimpsOwnJoinMergesTheTouchingLegs) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(gunzip(kData + "touching_legs.fbx.gz"),
                                             aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    ASSERT_TRUE(scene && scene->mNumMeshes == 1) << importer.GetErrorString();
    const aiMesh* mesh = scene->mMeshes[0];
    std::vector<int> bones(mesh->mNumVertices, 0);
    for (unsigned b = 0; b < mesh->mNumBones; ++b)
        for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w) ++bones[mesh->mBones[b]->mWeights[w].mVertexId];
    int straddling = 0;
    for (int n : bones) straddling += n > 1;
    std::printf("Assimp's join: %d vertices weighted to two bones\n", straddling);
    EXPECT_GE(straddling, 8);
}

}  // namespace
}  // namespace rig
