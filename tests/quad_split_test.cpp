// rigview's split of quads (import/assimp/quad_split) against Assimp's own aiProcess_Triangulate
// on the same quads: convex, concave at each corner, non-planar, with a zero edge, three corners
// in a line, and random ones; and on real FBX files.
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "import/assimp/quad_split.h"

namespace rig {
namespace {

using Quad = std::vector<aiVector3D>;

// The quads as an OBJ file (one face of four corners each, and one triangle among them).
std::string objOf(const std::vector<Quad>& quads) {
    std::string obj;
    char line[160];
    for (const Quad& q : quads) {
        for (const aiVector3D& p : q) {
            std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
            obj += line;
        }
    }
    obj += "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (size_t k = 0; k < quads.size(); ++k) {
        std::snprintf(line, sizeof line, "f %zu %zu %zu %zu\n", 4 * k + 1, 4 * k + 2, 4 * k + 3, 4 * k + 4);
        obj += line;
        if (k == quads.size() / 2) {
            std::snprintf(line, sizeof line, "f %zu %zu %zu\n", 4 * quads.size() + 1, 4 * quads.size() + 2, 4 * quads.size() + 3);
            obj += line;
        }
    }
    return obj;
}

// Each face's vertex indices, in order.
std::vector<std::vector<unsigned>> facesOf(const aiMesh& m) {
    std::vector<std::vector<unsigned>> out;
    for (unsigned f = 0; f < m.mNumFaces; ++f) out.emplace_back(m.mFaces[f].mIndices, m.mFaces[f].mIndices + m.mFaces[f].mNumIndices);
    return out;
}

// Assimp's triangles and rigview's for the same file: equal, face for face.
void expectSameAsAssimp(const std::vector<Quad>& quads) {
    const std::string obj = objOf(quads);
    Assimp::Importer theirs, ours;
    const aiScene* a = theirs.ReadFileFromMemory(obj.data(), obj.size(), aiProcess_Triangulate, "obj");
    const aiScene* b = ours.ReadFileFromMemory(obj.data(), obj.size(), aiProcess_ValidateDataStructure, "obj");
    ASSERT_TRUE(a && b && a->mNumMeshes == 1 && b->mNumMeshes == 1);
    aiMesh& mine = *b->mMeshes[0];
    EXPECT_EQ(scene::splitQuads(mine), quads.size());
    EXPECT_EQ(mine.mPrimitiveTypes & aiPrimitiveType_POLYGON, 0u);
    EXPECT_NE(mine.mPrimitiveTypes & aiPrimitiveType_TRIANGLE, 0u);
    const auto expected = facesOf(*a->mMeshes[0]);
    const auto got = facesOf(mine);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t f = 0; f < got.size(); ++f) EXPECT_EQ(got[f], expected[f]) << "face " << f;
}

TEST(QuadSplit, SplitsAsAssimpsStepSplits) {
    std::vector<Quad> quads = {
        {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}},           // convex
        {{0, 0, 0}, {2, 0, 0}, {0.5f, 0.5f, 0}, {0, 2, 0}},     // concave at corner 2
        {{0.5f, 0.5f, 0}, {0, 2, 0}, {0, 0, 0}, {2, 0, 0}},     // ... at corner 0
        {{2, 0, 0}, {0.5f, 0.5f, 0}, {0, 2, 0}, {0, 0, 0}},     // ... at corner 1
        {{0, 2, 0}, {0, 0, 0}, {2, 0, 0}, {0.5f, 0.5f, 0}},     // ... at corner 3
        {{0, 0, 0}, {1, 0, 0.4f}, {1, 1, 0}, {0, 1, 0.7f}},     // not planar
        {{0, 0, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}},           // a zero edge
        {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}},           // three corners in a line
    };
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int k = 0; k < 500; ++k) {
        Quad q;
        for (int c = 0; c < 4; ++c) q.push_back({u(rng), u(rng), k % 2 ? 0.0f : 0.2f * u(rng)});
        quads.push_back(q);
    }
    expectSameAsAssimp(quads);
}

TEST(QuadSplit, LeavesMeshesWithLargerPolygonsToAssimp) {
    const std::string obj = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\nf 1 2 3 4\n";
    Assimp::Importer importer;
    const aiScene* s = importer.ReadFileFromMemory(obj.data(), obj.size(), aiProcess_ValidateDataStructure, "obj");
    ASSERT_TRUE(s && s->mNumMeshes == 1);
    EXPECT_EQ(scene::splitQuads(*s->mMeshes[0]), 0u);
    EXPECT_EQ(s->mMeshes[0]->mNumFaces, 2u);
    EXPECT_NE(s->mMeshes[0]->mPrimitiveTypes & aiPrimitiveType_POLYGON, 0u);
}

TEST(QuadSplit, RealFbxFilesAsAssimp) {
    size_t quads = 0;
    for (const char* name : {"box.fbx", "cubes_with_names.fbx", "phong_cube.fbx", "spider.fbx", "huesitos.fbx",
                             "animation_with_skeleton.fbx"}) {
        const std::string path = std::string("/usr/share/assimp/models/FBX/") + name;
        Assimp::Importer theirs, ours;
        const aiScene* a = theirs.ReadFile(path, aiProcess_Triangulate);
        const aiScene* b = ours.ReadFile(path, aiProcess_ValidateDataStructure);
        ASSERT_TRUE(a && b) << name;
        ASSERT_EQ(a->mNumMeshes, b->mNumMeshes) << name;
        for (unsigned m = 0; m < b->mNumMeshes; ++m) quads += scene::splitQuads(*b->mMeshes[m]);
        for (unsigned m = 0; m < a->mNumMeshes; ++m) EXPECT_EQ(facesOf(*b->mMeshes[m]), facesOf(*a->mMeshes[m])) << name;
    }
    EXPECT_GT(quads, 0u);
}

}  // namespace
}  // namespace rig
