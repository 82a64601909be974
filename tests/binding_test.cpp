// Binding by identity where the file has no indices (.X, like FBX, names bones and channels):
// the documented rule prefers, among the nodes of a bone's name, one inside the skin's skeleton
// that holds no mesh; a channel prefers a skin joint. Files written here, read through Assimp.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "check/diagnostics.h"
#include "import/import.h"

namespace rig {
namespace {

std::string matrix(float tx, float ty, float tz) {
    // DirectX row vectors: the translation is the last row.
    return "1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0," + std::to_string(tx) + "," + std::to_string(ty) + "," +
           std::to_string(tz) + ",1.0;;";
}

// A column mesh on frame "Character" (first in the file), and a skeleton whose root bone is
// also called "Character", with "spine" above it and, when `twins`, two leaf frames "tip" at
// x = +0.1 and -0.1, bone "tip"'s offset saying it was bound at x = tipX. The lower two
// vertices follow bone "Character", the upper two "spine"; a clip lifts bone "Character" by 0.25.
std::string writeX(bool twins, float tipX = 0.0f) {
    const std::string path = ::testing::TempDir() + (twins ? "/twins" + std::to_string(tipX) + ".x" : "/samename.x");
    std::ofstream f(path);
    f << "xof 0303txt 0032\n"
      << "Frame Character {\n FrameTransformMatrix { " << matrix(0, 0, 0) << " }\n"
      << " Mesh body {\n  4;\n  -0.1;0.1;0.0;, 0.1;0.1;0.0;, 0.1;1.0;0.0;, -0.1;1.0;0.0;;\n"
      << "  2;\n  3;0,1,2;, 3;0,2,3;;\n"
      << "  XSkinMeshHeader { 2; 2; " << (twins ? 3 : 2) << "; }\n"
      << "  SkinWeights { \"Character\"; 2; 0,1; 1.0,1.0; " << matrix(0, -0.2f, 0) << " }\n"
      << "  SkinWeights { \"spine\"; 2; 2,3; " << (twins ? "0.5" : "1.0") << ",1.0; " << matrix(0, -0.7f, 0) << " }\n";
    if (twins) f << "  SkinWeights { \"tip\"; 1; 2; 0.5; " << matrix(-tipX, -1.0f, 0) << " }\n";
    f << " }\n}\n"
      << "Frame Armature {\n FrameTransformMatrix { " << matrix(0, 0, 0) << " }\n"
      << " Frame Character {\n  FrameTransformMatrix { " << matrix(0, 0.2f, 0) << " }\n"
      << "  Frame spine {\n   FrameTransformMatrix { " << matrix(0, 0.5f, 0) << " }\n";
    if (twins) {
        f << "   Frame tip { FrameTransformMatrix { " << matrix(0.1f, 0.3f, 0) << " } }\n"
          << "   Frame tip { FrameTransformMatrix { " << matrix(-0.1f, 0.3f, 0) << " } }\n";
    }
    f << "  }\n }\n}\n"
      << "AnimationSet lift {\n Animation {\n  {Character}\n  AnimationKey {\n   2;\n   2;\n"
      << "   0;3;0.0,0.2,0.0;;,\n   100;3;0.0,0.45,0.0;;;\n  }\n }\n}\n";
    return path;
}

Model load(const std::string& path) {
    Result<Model> r = importModel(path);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

TEST(Binding, BoneAndChannelPreferTheSkeletonOverTheMeshNodeOfTheirName) {
    const Model m = load(writeX(false));
    ASSERT_EQ(m.meshes.size(), 1u);
    int32_t meshNode = m.meshes[0].node, bone = -1;
    for (size_t i = 0; i < m.skeleton.size(); ++i)
        if (m.skeleton.names[i] == "Character" && static_cast<int32_t>(i) != meshNode) bone = static_cast<int32_t>(i);
    ASSERT_GE(bone, 0);
    ASSERT_EQ(m.skeleton.names[meshNode], "Character");
    ASSERT_LT(meshNode, bone);  // the mesh's node comes first: binding by name would take it
    EXPECT_EQ(m.meshes[0].skin.joints[0], bone);
    ASSERT_EQ(m.clips.size(), 1u);
    EXPECT_GE(m.clips[0].trackOfNode[bone], 0);
    EXPECT_LT(m.clips[0].trackOfNode[meshNode], 0);

    // Lifted by the clip's end, the lower vertices rise with the bone: 0.1 -> 0.35.
    Animator a(m);
    a.evaluate(0, m.clips[0].duration);
    std::vector<glm::vec3> pos(4);
    skinMesh(m.meshes[0], a.palette().data(), pos.data(), nullptr);
    const glm::vec3 p0(a.world()[meshNode] * glm::vec4(pos[0], 1.0f));
    EXPECT_NEAR(p0.y, 0.35f, 1e-5f);

    const Report r = checkModel(m);
    const Finding* f = nullptr;
    for (const Finding& x : r.findings)
        if (x.code == "duplicate-node-name") f = &x;
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_NE(f->message.find("node " + std::to_string(bone)), std::string::npos) << f->message;
}

TEST(Binding, TwoSkeletonNodesOfOneNameAreToldApartByTheOffset) {
    // Bone "tip" names two leaf frames of the skeleton; its offset says it was bound at
    // x = -0.1, where the second one sits in the file's pose.
    const Model m = load(writeX(true, -0.1f));
    ASSERT_EQ(m.meshes.size(), 1u);
    const int32_t tip = m.meshes[0].skin.joints.back();
    EXPECT_EQ(m.skeleton.names[tip], "tip");
    EXPECT_NEAR(m.skeleton.bindModel[tip][3].x, -0.1f, 1e-6f);
    for (const NameBinding& b : m.stats.nameBindings)
        if (b.name == "tip") EXPECT_TRUE(b.safe) << b.rule;
    const Model other = load(writeX(true, 0.1f));  // bound at +0.1: the first one
    ASSERT_EQ(other.meshes.size(), 1u);
    EXPECT_NEAR(other.skeleton.bindModel[other.meshes[0].skin.joints.back()][3].x, 0.1f, 1e-6f);
}

TEST(Binding, TwoSkeletonNodesOfOneNameAreAnErrorInCheckWhenNothingTellsThemApart) {
    // Bound at x = 0, where neither "tip" sits: the first is taken and check reports the guess
    // as an error.
    const Model m = load(writeX(true, 0.0f));
    ASSERT_EQ(m.meshes.size(), 1u);
    bool unsafe = false;
    for (const NameBinding& b : m.stats.nameBindings) unsafe = unsafe || (b.name == "tip" && !b.safe);
    EXPECT_TRUE(unsafe);
    const Report r = checkModel(m);
    bool error = false;
    for (const Finding& x : r.findings) error = error || (x.code == "duplicate-node-name" && x.severity == Severity::Error);
    EXPECT_TRUE(error);
}

}  // namespace
}  // namespace rig
