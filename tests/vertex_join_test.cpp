// rigview's join of identical vertices (import/assimp/vertex_join), on meshes built as Assimp
// hands them over (one vertex per face corner), and on a real FBX file.
#include <gtest/gtest.h>

#include <assimp/scene.h>

#include <memory>
#include <vector>

#include "import/assimp/vertex_join.h"
#include "import/import.h"

namespace rig {
namespace {

// Two triangles that share an edge, as corners: (0 1 2) and (3 4 5), where corners 3 and 4 sit
// on 2 and 1. Every corner weighs 1 on bone `boneOf[v]`.
std::unique_ptr<aiMesh> cornerMesh(const std::vector<unsigned>& boneOf, unsigned bones) {
    auto m = std::make_unique<aiMesh>();
    const aiVector3D p[6] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}};
    m->mNumVertices = 6;
    m->mVertices = new aiVector3D[6];
    m->mNormals = new aiVector3D[6];
    for (unsigned v = 0; v < 6; ++v) {
        m->mVertices[v] = p[v];
        m->mNormals[v] = aiVector3D(0, 0, 1);
    }
    m->mNumFaces = 2;
    m->mFaces = new aiFace[2];
    for (unsigned f = 0; f < 2; ++f) {
        m->mFaces[f].mNumIndices = 3;
        m->mFaces[f].mIndices = new unsigned[3]{3 * f, 3 * f + 1, 3 * f + 2};
    }
    m->mNumBones = bones;
    m->mBones = new aiBone*[bones];
    for (unsigned b = 0; b < bones; ++b) {
        m->mBones[b] = new aiBone();
        std::vector<aiVertexWeight> w;
        for (unsigned v = 0; v < 6; ++v) {
            if (boneOf[v] == b) w.emplace_back(v, 1.0f);
        }
        m->mBones[b]->mNumWeights = static_cast<unsigned>(w.size());
        m->mBones[b]->mWeights = new aiVertexWeight[w.size()];
        std::copy(w.begin(), w.end(), m->mBones[b]->mWeights);
    }
    return m;
}

// The bone each vertex of `m` weighs on (one each), by its new index.
std::vector<int> bonesByVertex(const aiMesh& m) {
    std::vector<int> out(m.mNumVertices, -1);
    for (unsigned b = 0; b < m.mNumBones; ++b) {
        for (unsigned w = 0; w < m.mBones[b]->mNumWeights; ++w) {
            EXPECT_EQ(out[m.mBones[b]->mWeights[w].mVertexId], -1) << "a vertex weighs twice";
            out[m.mBones[b]->mWeights[w].mVertexId] = static_cast<int>(b);
        }
    }
    return out;
}

TEST(VertexJoin, CornersAlikeInEverythingAreJoined) {
    auto m = cornerMesh({0, 0, 0, 0, 0, 0}, 1);
    EXPECT_EQ(scene::joinMeshVertices(*m), 2u);
    ASSERT_EQ(m->mNumVertices, 4u);
    const unsigned want[2][3] = {{0, 1, 2}, {2, 1, 3}};  // 3 and 4 became 2 and 1; 5 is the 4th vertex
    for (unsigned f = 0; f < 2; ++f) {
        for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(m->mFaces[f].mIndices[k], want[f][k]) << f << " " << k;
    }
    EXPECT_EQ(m->mVertices[3], aiVector3D(1, 1, 0));
    EXPECT_EQ(bonesByVertex(*m), (std::vector<int>{0, 0, 0, 0}));
}

// The legs of a character touching: coincident corners alike in position, normal and UV but
// bound to different bones (one leg each) are not joined, so each follows its own leg.
// Assimp's aiProcess_JoinIdenticalVertices compared no weights and joined them (weighted half
// to each leg afterwards).
TEST(VertexJoin, CornersOnDifferentBonesStayApart) {
    auto m = cornerMesh({0, 0, 0, 1, 1, 1}, 2);  // the second triangle on the other leg
    EXPECT_EQ(scene::joinMeshVertices(*m), 0u);
    EXPECT_EQ(m->mNumVertices, 6u);
    EXPECT_EQ(bonesByVertex(*m), (std::vector<int>{0, 0, 0, 1, 1, 1}));

    // Alike in bone but not in weight: apart as well.
    auto half = cornerMesh({0, 0, 0, 0, 0, 0}, 1);
    for (unsigned w = 0; w < half->mBones[0]->mNumWeights; ++w) {
        if (half->mBones[0]->mWeights[w].mVertexId == 4) half->mBones[0]->mWeights[w].mWeight = 0.5f;
    }
    EXPECT_EQ(scene::joinMeshVertices(*half), 1u);  // 3 joins 2; 4 stays apart from 1
    EXPECT_EQ(half->mNumVertices, 5u);
}

// Morph targets that move coincident corners apart (the lips of a closed mouth) keep them apart.
TEST(VertexJoin, CornersMovedApartByAMorphTargetStayApart) {
    auto m = cornerMesh({0, 0, 0, 0, 0, 0}, 1);
    m->mNumAnimMeshes = 1;
    m->mAnimMeshes = new aiAnimMesh*[1];
    aiAnimMesh* t = m->mAnimMeshes[0] = new aiAnimMesh();
    t->mNumVertices = 6;
    t->mVertices = new aiVector3D[6];
    for (unsigned v = 0; v < 6; ++v) t->mVertices[v] = m->mVertices[v];
    t->mVertices[4].z = 1.0f;  // the target lifts corner 4 only
    EXPECT_EQ(scene::joinMeshVertices(*m), 1u);
    ASSERT_EQ(m->mNumVertices, 5u);
    EXPECT_EQ(m->mFaces[1].mIndices[0], 2u);  // 3 joined into 2
    EXPECT_EQ(m->mFaces[1].mIndices[1], 3u);  // 4 kept, now the 4th vertex
    EXPECT_EQ(t->mVertices[3].z, 1.0f);       // its target value moved with it
}

// A real file whose corners Assimp splits per face: joined back to the vertices the file shares
// (the same count as before the join was rigview's own), every corner posed where it was.
TEST(VertexJoin, FbxCornersJoinBackToTheFilesVertices) {
    Result<Model> model = importModel("/usr/share/assimp/models/FBX/huesitos.fbx");
    ASSERT_TRUE(model) << model.error().message;
    size_t vertices = 0, corners = 0;
    for (const Mesh& m : model->meshes) {
        vertices += m.vertexCount();
        corners += m.indices.size();
    }
    EXPECT_GT(corners, vertices * 2) << "corners were not joined";
}

}  // namespace
}  // namespace rig
