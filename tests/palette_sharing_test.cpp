// One palette per skin (Animator::palette): meshes on different nodes bound to one skin (as
// BCN_Epileptic's glTF, where `assimp export` merges its three skins into one of 54 joints)
// share one palette while their nodes stay out of it, fall back to a palette per node when a
// node is scaled, keep their own when a vertex follows the rigid slot, and a Crowd's
// instances hold the shared palette. Each case is checked against the file's own three skins
// (three palettes, the same joint matrices): the same skinned vertices.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "anim/control/crowd.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "support/rigs.h"

namespace rig {
namespace {

const std::string kEpileptic = "/usr/share/assimp/models/X/BCN_Epileptic.X";

Model load() {
    Result<Model> r = importModel(kEpileptic);
    EXPECT_TRUE(r.ok()) << kEpileptic;
    return r.ok() ? std::move(r.value()) : Model{};
}

// Mesh i skinned with `anim`'s palette, in model space.
std::vector<glm::vec3> skinned(const Animator& anim, size_t i) {
    const Mesh& mesh = anim.model().meshes[i];
    std::vector<glm::vec3> p(mesh.positions.size());
    skinMesh(mesh, anim.palette().data() + anim.paletteOffset(i), p.data(), nullptr);
    for (glm::vec3& v : p) v = glm::vec3(anim.skinToModel(i) * glm::vec4(v, 1.0f));
    return p;
}

void expectSameVertices(const Animator& a, const Animator& b, float tol) {
    for (size_t i = 0; i < a.model().meshes.size(); ++i) {
        const std::vector<glm::vec3> pa = skinned(a, i), pb = skinned(b, i);
        ASSERT_EQ(pa.size(), pb.size());
        for (size_t v = 0; v < pa.size(); ++v) {
            ASSERT_NEAR(pa[v].x, pb[v].x, tol) << "mesh " << i << " vertex " << v;
            ASSERT_NEAR(pa[v].y, pb[v].y, tol) << "mesh " << i << " vertex " << v;
            ASSERT_NEAR(pa[v].z, pb[v].z, tol) << "mesh " << i << " vertex " << v;
        }
    }
}

TEST(PaletteSharing, MeshesOnThreeNodesShareOneSkinsPalette) {
    const Model file = load();
    ASSERT_EQ(file.meshes.size(), 3u);
    const Model m = testing::mergeSkins(file);
    ASSERT_NE(m.meshes[0].node, m.meshes[1].node);
    ASSERT_NE(m.meshes[1].node, m.meshes[2].node);
    Animator shared(m), separate(file);
    ASSERT_EQ(shared.sharedPaletteSize(), 55u);  // 54 joints and the rigid slot, once
    ASSERT_EQ(separate.sharedPaletteSize(), 57u);
    for (float t : {0.0f, 0.37f, 1.2f}) {
        shared.evaluate(0, t);
        separate.evaluate(0, t);
        EXPECT_EQ(shared.paletteInUse(), 55u);
        for (size_t i = 0; i < 3; ++i) EXPECT_EQ(shared.paletteOffset(i), 0u) << "mesh " << i;
        // The same joint matrices (one product each, in model space): the same bits.
        expectSameVertices(shared, separate, 0.0f);
    }
}

TEST(PaletteSharing, AScaledMeshNodeGivesEachNodeItsOwnPalette) {
    const Model file = load();
    const Model m = testing::mergeSkins(file);
    Animator shared(m), separate(file);
    // The file pose with the head mesh's node scaled unevenly: its palette is in mesh space.
    std::vector<Transform> local = m.skeleton.bindLocalSqt;
    local[m.meshes[1].node].scale *= glm::vec3(1.5f, 0.8f, 1.0f);
    for (int round = 0; round < 2; ++round) {
        shared.evaluatePose(local);
        separate.evaluatePose(local);
        EXPECT_EQ(shared.paletteInUse(), shared.palette().size());
        EXPECT_EQ(shared.palette().size(), 3u * 55u);
        EXPECT_NE(shared.paletteOffset(1), shared.paletteOffset(0));
        EXPECT_NE(shared.paletteOffset(2), shared.paletteOffset(0));
        EXPECT_NE(shared.skinToModel(1), glm::mat4(1.0f));
        expectSameVertices(shared, separate, 1e-4f);
        // Back to the file pose: shared again.
        shared.evaluatePose(m.skeleton.bindLocalSqt);
        separate.evaluatePose(m.skeleton.bindLocalSqt);
        EXPECT_EQ(shared.paletteInUse(), 55u);
        for (size_t i = 0; i < 3; ++i) EXPECT_EQ(shared.paletteOffset(i), 0u) << "mesh " << i;
        expectSameVertices(shared, separate, 0.0f);
    }
}

TEST(PaletteSharing, AMeshWithAVertexOnTheRigidSlotKeepsItsNodesPalette) {
    const Model file = load();
    Model m = testing::mergeSkins(file);
    Mesh& legs = m.meshes[2];
    EXPECT_FALSE(Animator::usesRigidSlot(legs));
    legs.joints[0] = {static_cast<uint16_t>(legs.skin.rigidSlot()), 0, 0, 0};
    legs.weights[0] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
    EXPECT_TRUE(Animator::usesRigidSlot(legs));
    Animator anim(m);
    anim.evaluate(0, 0.5f);
    EXPECT_EQ(anim.sharedPaletteSize(), 2u * 55u);
    EXPECT_EQ(anim.paletteOffset(0), anim.paletteOffset(1));
    EXPECT_EQ(anim.paletteOffset(2), 55u);
    // The vertex follows the legs' own node.
    const std::vector<glm::vec3> p = skinned(anim, 2);
    const glm::vec3 want(anim.world()[legs.node] * glm::vec4(legs.positions[0], 1.0f));
    EXPECT_NEAR(glm::length(p[0] - want), 0.0f, 1e-4f);
}

TEST(PaletteSharing, CrowdInstancesHoldTheSharedPalette) {
    const Model m = testing::mergeSkins(load());
    Crowd crowd(m, 5, 0, 2);
    EXPECT_EQ(crowd.paletteSize(), 55u);
    crowd.update(0.6);
    Animator lone(m);
    for (size_t i = 0; i < crowd.size(); ++i) {
        lone.evaluate(crowd.clip(i), crowd.localTime(i));
        for (size_t e = 0; e < crowd.paletteSize(); ++e) ASSERT_EQ(crowd.paletteEntry(i, e), lone.palette()[e]) << "entry " << e;
        for (size_t mesh = 0; mesh < 3; ++mesh) {
            EXPECT_EQ(crowd.paletteOffset(mesh), 0u);
            EXPECT_EQ(crowd.skinToModel(i, mesh), lone.skinToModel(mesh));
        }
    }
}

}  // namespace
}  // namespace rig
