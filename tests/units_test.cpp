// Units: every file comes out in metres (FBX UnitScaleFactor, COLLADA <unit meter>), with the
// scale baked into the data so that joint matrices stay rigid; --units file keeps the numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "anim/runtime/pose.h"
#include "import/import.h"

namespace rig {
namespace {

const std::string kModels = "/usr/share/assimp/models/";

Model load(const std::string& path, UnitMode mode) {
    ImportOptions options;
    options.units = mode;
    Result<Model> r = importModel(path, options);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

// Bounding box of every vertex, posed at clip -1 (bind pose), world space.
glm::vec3 extent(const Model& m) {
    Animator a(m);
    a.evaluate(-1, 0.0f);
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const Mesh& mesh : m.meshes) {
        const glm::mat4& w = a.world()[mesh.node];
        for (const glm::vec3& p : mesh.positions) {
            const glm::vec3 q(w * glm::vec4(p, 1.0f));
            lo = glm::min(lo, q);
            hi = glm::max(hi, q);
        }
    }
    return hi - lo;
}

float maxScaleError(const Model& m) {
    float worst = 0.0f;
    for (const glm::mat4& w : m.skeleton.bindModel) {
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::fabs(glm::length(glm::vec3(w[c])) - 1.0f));
    }
    return worst;
}

float maxJointScaleError(const Model& m) {
    float worst = 0.0f;
    for (int32_t j : m.jointNodes()) {
        const glm::mat4& w = m.skeleton.bindPoseModel()[j];
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::fabs(glm::length(glm::vec3(w[c])) - 1.0f));
    }
    return worst;
}

TEST(Units, FbxInCentimetresComesOutInMetres) {
    // huesitos.fbx: UnitScaleFactor 1 (centimetres), and, like Blender's FBX exports, its nodes
    // scaled by 100. In metres it is 0.01 times as large, and its joints come out rigid (the
    // unit's 0.01 cancels the nodes' 100) where the file's numbers give them a scale of 100.
    const Model metres = load(kModels + "FBX/huesitos.fbx", UnitMode::Metres);
    const Model file = load(kModels + "FBX/huesitos.fbx", UnitMode::File);
    EXPECT_EQ(metres.units.file, "centimetre");
    EXPECT_DOUBLE_EQ(metres.units.metresPerUnit, 0.01);
    EXPECT_DOUBLE_EQ(metres.units.scaleApplied, 0.01);
    EXPECT_TRUE(metres.units.appliedAtRoot);
    EXPECT_DOUBLE_EQ(file.units.scaleApplied, 1.0);
    const glm::vec3 a = extent(metres), b = extent(file);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[k], 0.01f * b[k], 1e-5f * b[k] + 1e-7f);
    EXPECT_LT(maxJointScaleError(metres), 1e-5f);
    EXPECT_GT(maxJointScaleError(file), 10.0f);
}

TEST(Units, BakedScaleKeepsRigidJointsRigid) {
    // A centimetre file whose nodes carry no compensating scale: the unit is baked into the
    // translations, vertices and keys; world matrices keep their (unit) scale.
    const Model metres = load(kModels + "Collada/duck.dae", UnitMode::Metres);
    EXPECT_FALSE(metres.units.appliedAtRoot);
    EXPECT_LT(maxScaleError(metres), 1e-5f);
}

TEST(Units, FbxAlreadyInMetresIsLeftAlone) {
    const Model m = load(kModels + "FBX/box.fbx", UnitMode::Metres);
    EXPECT_EQ(m.units.file, "metre");
    EXPECT_DOUBLE_EQ(m.units.scaleApplied, 1.0);
    EXPECT_NE(m.units.source.find("OriginalUnitScaleFactor 1"), std::string::npos);
}

TEST(Units, ColladaUnitIsBakedNotLeftInTheRootMatrix) {
    // duck.dae says <unit meter="0.01">: Assimp alone puts a 0.01 scale into the root node, so
    // every joint matrix carried it. Baked, the duck is as large (1.65 m long) with rigid nodes.
    const Model m = load(kModels + "Collada/duck.dae", UnitMode::Metres);
    EXPECT_EQ(m.units.file, "centimetre");
    EXPECT_DOUBLE_EQ(m.units.scaleApplied, 0.01);
    EXPECT_LT(maxScaleError(m), 1e-5f);
    EXPECT_NEAR(extent(m).x, 1.6548f, 1e-3f);
    const Model file = load(kModels + "Collada/duck.dae", UnitMode::File);
    EXPECT_NEAR(extent(file).x, 165.48f, 0.1f);
    EXPECT_LT(maxScaleError(file), 1e-5f);
}

TEST(Units, GltfIsMetresAndOtherFormatsKeepTheirNumbers) {
    const Model g = load(kModels + "glTF2/simple_skin/simple_skin.gltf", UnitMode::Metres);
    EXPECT_EQ(g.units.file, "metre");
    EXPECT_DOUBLE_EQ(g.units.scaleApplied, 1.0);
    const Model x = load(kModels + "X/Testwuson.X", UnitMode::Metres);
    EXPECT_TRUE(x.units.file.empty());
    EXPECT_DOUBLE_EQ(x.units.scaleApplied, 1.0);
}

}  // namespace
}  // namespace rig
