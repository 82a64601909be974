// COLLADA skins as the specification reads them (import/assimp/collada_skins), against Blender
// 3.4's and three.js r187's imports. The characters (tests/data/collada, gzip'd) are made by
// tools/blender/make_collada_characters.py with Blender's COLLADA exporter (Z_UP):
//   bind_shape.dae  the skin's bind_shape_matrix turns, scales (0.6) and moves the geometry;
//                   the instancing node is the identity
//   skin_morph.dae  a skin controller over a morph controller over the geometry
// References:
//   blender -b --factory-startup --python tools/blender/pose_reference.py -- \
//       bind_shape.dae bind_shape.blender.json 0,3,6,9,12,15,18,21,24 Rig_Rig
//   node tools/three_render/pose_dump.mjs bind_shape.dae bind_shape.three.json \
//       'default=0,0.125,0.25,0.375,0.5,0.625,0.75,0.875,1'
// (Blender 3.4 does not load skin_morph.dae's mesh, and three.js r187's ColladaLoader throws on it.)
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "check/diagnostics.h"
#include "import/assimp/collada_skins.h"
#include "import/import.h"
#include "support/gunzip.h"
#include "support/pose_reference.h"

namespace rig {
namespace {

using rig::testing::gunzip;

const std::string kData = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/collada/";

// Assimp names a COLLADA joint after its node's id ("Rig_arm_L"), Blender and three after its
// name ("arm.L", three "arm_L").
std::string colladaJoint(const std::string& name) {
    std::string n = name.rfind("Rig_", 0) == 0 ? name.substr(4) : name;
    std::string out;
    for (char c : n)
        if (c != '_' && c != '.') out += c;
    return out;
}

TEST(Collada, BindShapeMatrixBindPoseStandsWhereBlenderAndThreeJsPoseIt) {
    Result<Model> r = importModel(gunzip(kData + "bind_shape.dae.gz"));
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    ASSERT_EQ(m.meshes.size(), 1u);
    ASSERT_TRUE(m.meshes[0].skinned);
    ASSERT_EQ(m.clips.size(), 1u);
    testing::PoseNames names;
    names.joint = colladaJoint;
    names.clip = m.clips[0].name;
    // Blender's: the rest (bind) pose first, then the clip; three's: the clip.
    for (const char* ref : {"bind_shape.blender.json.gz", "bind_shape.three.json.gz"}) {
        const testing::PoseComparison c = testing::comparePoses(m, testing::readJsonFile(kData + ref), names);
        std::printf("%s: vertices %.3g, strays %.3g, joints %.3g of the diagonal over %zu poses\n", ref, c.vertices, c.strays,
                    c.joints, c.poses);
        EXPECT_LE(c.vertices, 1e-5f) << ref;
        EXPECT_LE(c.strays, 1e-5f) << ref;
        EXPECT_LE(c.joints, 1e-5f) << ref;
        EXPECT_EQ(c.jointsCompared, 5u) << ref;
    }
    // The bind pose agrees with every joint's inverse bind matrix: no bind-pose finding.
    for (const Finding& f : checkModel(m).findings) EXPECT_NE(f.code, "bind-pose-mismatch") << f.message;
}

TEST(Collada, SkinOverAMorphControllerIsRefusedSayingSo) {
    const std::string path = gunzip(kData + "skin_morph.dae.gz");
    Result<Model> r = importModel(path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, path + ": COLLADA controller 'Rig_Body-skin' skins the morph controller 'Body-morph' "
                                        "(skin -> morph -> geometry), a mesh Assimp 5.2.5 cannot read: refused rather than "
                                        "shown without it (export the skin over the geometry, or the character as FBX or glTF)");
}

TEST(Collada, ControllersAreReadFromTheTextAsWritten) {
    using scene::ColladaController;
    const std::string xml = R"(<?xml version="1.0"?>
<COLLADA><library_controllers>
  <!-- <controller id="commented"><skin source="#g"/></controller> -->
  <controller id='a-skin' name="A"><skin source = '#a-morph'>
    <bind_shape_matrix> 2 0 0 1  0 2 0 2  0 0 2 3  0 0 0 1 </bind_shape_matrix></skin></controller>
  <controller id="a-morph"><morph method="RELATIVE" source="#a-mesh"/></controller>
  <c:controller id="b-skin"><c:skin source="#b-mesh"><c:bind_shape_matrix>1 0 0</c:bind_shape_matrix></c:skin></c:controller>
  <controller><skin source="#no-id"/></controller>
</library_controllers></COLLADA>)";
    const auto cs = scene::scanColladaControllers(xml);
    ASSERT_EQ(cs.size(), 3u);
    EXPECT_EQ(cs[0].id, "a-skin");
    EXPECT_EQ(cs[0].kind, ColladaController::Kind::Skin);
    EXPECT_EQ(cs[0].source, "a-morph");
    ASSERT_TRUE(cs[0].hasBindShape);
    EXPECT_EQ(cs[0].bindShape[0], 2.0f);
    EXPECT_EQ(cs[0].bindShape[11], 3.0f);
    EXPECT_EQ(cs[1].kind, ColladaController::Kind::Morph);
    EXPECT_EQ(cs[1].source, "a-mesh");
    EXPECT_EQ(cs[2].id, "b-skin");
    EXPECT_FALSE(cs[2].hasBindShape) << "three numbers are no matrix";
    EXPECT_NE(scene::skinOverMorph(cs).find("'a-skin' skins the morph controller 'a-morph'"), std::string::npos);
    EXPECT_EQ(scene::skinOverMorph({cs[2]}), "");
}

}  // namespace
}  // namespace rig
