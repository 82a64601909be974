// Known answers on a two-bone rig computed by hand; bind pose gives identity palettes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "support/rigs.h"

namespace rig {
namespace {

void expectVec(const glm::vec3& got, const glm::vec3& want, float tol = 1e-5f) {
    EXPECT_NEAR(got.x, want.x, tol);
    EXPECT_NEAR(got.y, want.y, tol);
    EXPECT_NEAR(got.z, want.z, tol);
}

// Worked by hand (see tests/support/rigs.h): at t = 1 "tip" turns 90 degrees about +Z
// around the point (0,1,0), which maps (x, y) to (1 - y, x + 1) ... i.e. rotate (x, y-1)
// to (-(y-1), x) and add (0, 1).
TEST(Skinning, TwoBoneRigAtNinetyDegrees) {
    Model m = testing::makeTwoBone();
    Animator anim(m);
    anim.evaluate(0, 1.0f);
    std::vector<glm::vec3> p(4), n(4);
    skinMesh(m.meshes[0], anim.palette().data(), p.data(), n.data());
    expectVec(p[0], {0, 0, 0});           // root only: unmoved
    expectVec(p[1], {-1, 1, 0});          // (0,2): (0,1) rotated -> (-1,0), + (0,1)
    // (1,1.5): half unmoved (1,1.5), half rotated: (1,0.5) -> (-0.5,1) + (0,1) = (-0.5,2)
    expectVec(p[2], {0.25f, 1.75f, 0});
    // (2,0.5): 0.25 * (2,0.5) + 0.75 * ((-(-0.5), 2) + (0,1)) = (0.5,0.125) + 0.75*(0.5,3)
    expectVec(p[3], {0.875f, 2.375f, 0});
    // Normals: blended matrix 0.5 I + 0.5 R90 maps (1,0,0) to (0.5,0.5,0), normalized.
    expectVec(n[2], {std::sqrt(0.5f), std::sqrt(0.5f), 0});
    // 0.25 I + 0.75 R90: (0.25, 0.75, 0) normalized.
    const float l = std::sqrt(0.25f * 0.25f + 0.75f * 0.75f);
    expectVec(n[3], {0.25f / l, 0.75f / l, 0});
    // The tip joint's world matrix: rotation 90 degrees about Z at (0,1,0).
    const glm::mat4& w = anim.world()[1];
    expectVec(glm::vec3(w[3]), {0, 1, 0});
    expectVec(glm::vec3(w[0]), {0, 1, 0});
}

TEST(Skinning, TwoBoneRigHalfwayUsesSlerp) {
    Model m = testing::makeTwoBone();
    Animator anim(m);
    anim.evaluate(0, 0.5f);  // 45 degrees
    std::vector<glm::vec3> p(4);
    skinMesh(m.meshes[0], anim.palette().data(), p.data(), nullptr);
    const float c = std::cos(glm::radians(45.0f)), s = std::sin(glm::radians(45.0f));
    expectVec(p[1], {-s, 1 + c, 0});
}

TEST(Skinning, BindPoseGivesIdentityPaletteAndUnchangedVertices) {
    for (Model m : {testing::makeTwoBone(), testing::makeChain(12, 5), testing::makeWideTree(40, 3)}) {
        Animator anim(m);
        anim.evaluate(-1, 0.0f);
        for (const glm::mat4& p : anim.palette()) {
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) EXPECT_NEAR(p[c][r], c == r ? 1.0f : 0.0f, 1e-5f) << m.path;
        }
        const Mesh& mesh = m.meshes[0];
        std::vector<glm::vec3> p(mesh.vertexCount()), n(mesh.vertexCount());
        skinMesh(mesh, anim.palette().data(), p.data(), n.data());
        for (size_t v = 0; v < p.size(); ++v) expectVec(p[v], mesh.positions[v], 1e-4f);
    }
}

// An Animator made only to pose (AnimatorUse::PosesOnly, what compress measures with, one per
// clip) poses a given local pose as one made to play clips does, and samples no clip.
TEST(Skinning, PosesOnlyAnimatorPosesLikeAClipAnimator) {
    const Model m = testing::makeChain(12, 5);
    Animator clips(m), poses(m, AnimatorUse::PosesOnly);
    clips.evaluate(0, 0.37f);
    const std::vector<Transform> local = clips.local();
    poses.evaluatePose(local);
    Animator again(m);
    again.evaluatePose(local);
    ASSERT_EQ(poses.palette().size(), again.palette().size());
    for (size_t i = 0; i < poses.palette().size(); ++i) EXPECT_EQ(poses.palette()[i], again.palette()[i]) << i;
    // A clip asked of it gives the bind pose.
    poses.evaluate(0, 0.37f);
    clips.evaluate(kBindPose, 0.0f);
    for (size_t i = 0; i < poses.palette().size(); ++i) EXPECT_EQ(poses.palette()[i], clips.palette()[i]) << i;
}

TEST(Skinning, UnweightedVertexFollowsTheMeshNode) {
    Model m = testing::makeTwoBone();
    // Hang the mesh below "tip" and leave vertex 0 unweighted (the rigid slot).
    m.meshes[0].node = 1;
    const uint16_t rigid = static_cast<uint16_t>(m.meshes[0].skin.rigidSlot());
    m.meshes[0].joints[0] = {rigid, rigid, rigid, rigid};
    Animator anim(m);
    anim.evaluate(0, 1.0f);
    std::vector<glm::vec3> p(4);
    skinMesh(m.meshes[0], anim.palette().data() + anim.paletteOffset(0), p.data(), nullptr);
    // In model space (skinToModel: the tip's world matrix for a mesh-space palette, the
    // identity for a model-space one) it moves with the tip node.
    const glm::vec3 world = glm::vec3(anim.skinToModel(0) * glm::vec4(p[0], 1.0f));
    expectVec(world, {0, 1, 0});
    // A weighted vertex still lands where the bones put it, in world space.
    const glm::vec3 w1 = glm::vec3(anim.skinToModel(0) * glm::vec4(p[1], 1.0f));
    expectVec(w1, {-1, 1, 0});
}

TEST(Skinning, ChainFollowsItsJoints) {
    // Every vertex sits on a joint with weight 1, so skinned positions, taken to world by
    // the mesh node (joint 0, itself animated), are the joints' world positions.
    Model m = testing::makeChain(20, 7);
    Animator anim(m);
    for (float t : {0.0f, 0.05f, 0.13f}) {
        anim.evaluate(0, t);
        std::vector<glm::vec3> p(20);
        skinMesh(m.meshes[0], anim.palette().data(), p.data(), nullptr);
        const glm::mat4& meshWorld = anim.skinToModel(0);
        for (int j = 0; j < 20; ++j) {
            expectVec(glm::vec3(meshWorld * glm::vec4(p[j], 1.0f)), glm::vec3(anim.world()[j][3]), 1e-4f);
        }
    }
}

// Seed 000: a mesh that hangs below the root, in a file without offset matrices. The
// computed offsets must leave the mesh where its own frame puts it at bind pose, and then
// follow the bones.
TEST(Skinning, OffsetsComputedFromTheBindPoseForAMeshBelowTheRoot) {
    Model m = testing::makeTwoBone();
    // A third node "meshFrame" at (3,0,0) under the root, holding the mesh.
    m.skeleton.names.push_back("meshFrame");
    m.skeleton.parent.push_back(0);
    Transform t;
    t.translation = glm::vec3(3, 0, 0);
    m.skeleton.bindLocalSqt.push_back(t);
    m.skeleton.bindLocal.push_back(toMatrix(t));
    m.skeleton.computeBindModel();
    for (auto& c : m.clips) c.trackOfNode.push_back(-1);
    Mesh& mesh = m.meshes[0];
    mesh.node = 2;
    for (size_t j = 0; j < mesh.skin.joints.size(); ++j) {
        mesh.skin.inverseBind[j] = m.skeleton.offsetFromBindPose(mesh.skin.joints[j], mesh.node);
    }
    // By hand: root offset = T(3,0,0); tip offset = inverse(T(0,1,0)) * T(3,0,0) = T(3,-1,0).
    expectVec(glm::vec3(mesh.skin.inverseBind[0][3]), {3, 0, 0});
    expectVec(glm::vec3(mesh.skin.inverseBind[1][3]), {3, -1, 0});
    Animator anim(m);
    anim.evaluate(-1, 0.0f);
    std::vector<glm::vec3> p(4);
    skinMesh(mesh, anim.palette().data(), p.data(), nullptr);
    for (size_t v = 0; v < 4; ++v) {
        expectVec(glm::vec3(anim.skinToModel(0) * glm::vec4(p[v], 1)), mesh.positions[v] + glm::vec3(3, 0, 0));
    }
    // Animated: vertex (0,2,0) of the mesh sits at world (3,2,0), weight 1 on the tip; the
    // tip turns 90 degrees about Z around (0,1,0): (3,1) -> (-1,3), + (0,1) = (-1,4,0).
    anim.evaluate(0, 1.0f);
    skinMesh(mesh, anim.palette().data(), p.data(), nullptr);
    expectVec(glm::vec3(anim.skinToModel(0) * glm::vec4(p[1], 1)), {-1, 4, 0});
}

// Seed 002 / issue 4: a joint twisted 150 degrees about the bone axis. A vertex on the
// joint's ring (radius 1), half on each bone: linear blend averages the two positions and
// pulls it towards the axis ("candy wrapper"), dual quaternions turn it half way (75
// degrees) and keep its distance from the axis; stitching follows one bone.
TEST(Skinning, DualQuaternionsKeepVolumeWhereLinearBlendCollapses) {
    Model m = testing::makeTwoBone();
    // Bones along +X: root at the origin, tip at (1,0,0); twist the tip about X.
    m.skeleton.bindLocalSqt[1].translation = glm::vec3(1, 0, 0);
    m.skeleton.bindLocal[1] = toMatrix(m.skeleton.bindLocalSqt[1]);
    m.skeleton.computeBindModel();
    Mesh& mesh = m.meshes[0];
    mesh.skin.inverseBind[1] = glm::inverse(m.skeleton.bindModel[1]);
    mesh.positions = {{1, 1, 0}, {1, 1, 0}, {2, 0, 1}, {0, 0, 1}};
    mesh.normals = {{0, 1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}};
    mesh.joints = {{0, 1, 0, 0}, {0, 1, 0, 0}, {1, 1, 1, 1}, {0, 0, 0, 0}};
    mesh.weights = {{0.5f, 0.5f, 0, 0}, {0.6f, 0.4f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    Clip& c = m.clips[0];
    c.quatKeys[1] = glm::angleAxis(glm::radians(150.0f), glm::vec3(1, 0, 0));
    c.trackOfNode = {-1, 0};
    Animator anim(m);
    anim.evaluate(0, 1.0f);
    std::vector<glm::vec3> lbs(4), dqs(4), stitch(4), n(4);
    skinMesh(mesh, anim.palette().data(), lbs.data(), nullptr, SkinningMethod::Linear);
    skinMesh(mesh, anim.palette().data(), dqs.data(), n.data(), SkinningMethod::DualQuat);
    skinMesh(mesh, anim.palette().data(), stitch.data(), nullptr, SkinningMethod::Stitch);
    auto radius = [](const glm::vec3& p) { return std::sqrt(p.y * p.y + p.z * p.z); };
    // Linear: (p + R150 p) / 2 has radius cos(75 degrees) = 0.2588.
    EXPECT_NEAR(radius(lbs[0]), std::cos(glm::radians(75.0f)), 1e-5f);
    // Dual quaternion: radius 1, turned by 75 degrees: (1, cos75, sin75).
    EXPECT_NEAR(radius(dqs[0]), 1.0f, 1e-5f);
    expectVec(dqs[0], {1, std::cos(glm::radians(75.0f)), std::sin(glm::radians(75.0f))});
    expectVec(n[0], {0, std::cos(glm::radians(75.0f)), std::sin(glm::radians(75.0f))});
    // Rigid vertices agree between all methods.
    expectVec(dqs[2], lbs[2]);
    expectVec(dqs[3], lbs[3]);
    // Stitching: vertex 1 (0.6 on the root) does not move; vertex 0 (a tie) takes the first.
    expectVec(stitch[1], {1, 1, 0});
    expectVec(stitch[0], {1, 1, 0});
}

TEST(Skinning, RotationOverrideTurnsAJointOnItsOwnAxes) {
    Model m = testing::makeTwoBone();
    Animator anim(m);
    // Bind pose plus 90 degrees about the tip's own Z: same as the clip's end pose.
    anim.setRotationOverride(1, glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)));
    anim.evaluate(-1, 0.0f);
    expectVec(glm::vec3(anim.world()[1][0]), {0, 1, 0});
    std::vector<glm::vec3> p(4);
    skinMesh(m.meshes[0], anim.palette().data(), p.data(), nullptr);
    expectVec(p[1], {-1, 1, 0});
    // On top of the clip: 90 (clip at t=1) + 90 = 180 degrees.
    anim.evaluate(0, 1.0f);
    expectVec(glm::vec3(anim.world()[1][0]), {-1, 0, 0});
    anim.setRotationOverride(-1, glm::quat(1, 0, 0, 0));
    anim.evaluate(0, 1.0f);
    expectVec(glm::vec3(anim.world()[1][0]), {0, 1, 0});
}

TEST(Skinning, RenormalizesWeightsLikeTheShader) {
    Model m = testing::makeTwoBone();
    m.meshes[0].weights[2] = {1.0f, 1.0f, 0, 0};  // sums to 2: same as 0.5 / 0.5
    Animator anim(m);
    anim.evaluate(0, 1.0f);
    std::vector<glm::vec3> p(4);
    skinMesh(m.meshes[0], anim.palette().data(), p.data(), nullptr);
    expectVec(p[2], {0.25f, 1.75f, 0});
}

// Two influence sets: with 8 all eight weights are divided by their sum (the second set is on
// the first set's scale); with 4 the first set is read alone, as if there were no second.
TEST(Skinning, SecondInfluenceSetBlendsWithEight) {
    Model m = testing::makeTwoBone();
    Mesh& mesh = m.meshes[0];
    mesh.joints[2] = {0, 0, 0, 0};  // vertex 2: root 1 in the first set...
    mesh.weights[2] = {1.0f, 0, 0, 0};
    mesh.joints2.assign(mesh.vertexCount(), {0, 0, 0, 0});
    mesh.weights2.assign(mesh.vertexCount(), glm::vec4(0.0f));
    mesh.joints2[2] = {1, 0, 0, 0};  // ... and tip 1 in the second: 0.5 / 0.5 with 8
    mesh.weights2[2] = {1.0f, 0, 0, 0};
    Animator anim(m);
    anim.evaluate(0, 1.0f);
    std::vector<glm::vec3> p(4);
    skinMesh(mesh, anim.palette().data(), p.data(), nullptr, SkinningMethod::Linear, kMostInfluences);
    expectVec(p[2], {0.25f, 1.75f, 0});  // as RenormalizesWeightsLikeTheShader's 0.5 / 0.5
    expectVec(p[3], {0.875f, 2.375f, 0});  // its second set is empty: 0.25 root + 0.75 tip as ever
    skinMesh(mesh, anim.palette().data(), p.data(), nullptr, SkinningMethod::Linear, kMaxInfluences);
    expectVec(p[2], {1.0f, 1.5f, 0});  // the root alone: where it was bound
    // Dual quaternions blend both sets too: a 50/50 blend of the root and the turned tip.
    skinMesh(mesh, anim.palette().data(), p.data(), nullptr, SkinningMethod::DualQuat, kMostInfluences);
    EXPECT_GT(glm::length(p[2] - glm::vec3(1.0f, 1.5f, 0)), 0.1f);
    skinMesh(mesh, anim.palette().data(), p.data(), nullptr, SkinningMethod::DualQuat, kMaxInfluences);
    expectVec(p[2], {1.0f, 1.5f, 0});
}

}  // namespace
}  // namespace rig
