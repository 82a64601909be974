// The per-tick path allocates nothing: count calls to operator new around evaluate().
#include <gtest/gtest.h>

#include <cmath>
#include <vector>


#include "anim/control/layer_clock.h"
#include "anim/control/crowd.h"
#include "anim/runtime/ik.h"
#include "anim/runtime/compressed_sampling_job.h"
#include "anim/offline/compress.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "anim/runtime/transform.h"
#include "support/alloc_counter.h"
#include "support/rigs.h"

namespace rig {
namespace {

TEST(PerTick, TheCounterSeesAllocations) {
    const long before = testing::allocations();
    auto* v = new std::vector<int>(100);
    EXPECT_GE(testing::allocations() - before, 2);  // the vector and its buffer
    delete v;
}

TEST(PerTick, EvaluateAndSkinningAllocateNothing) {
    for (Model m : {testing::makeChain(64, 300), testing::makeWideTree(300, 30), testing::makeTwoBone()}) {
        Animator anim(m);
        LayerClock clock;
        clock.start(m.clips[0].duration, 0.0, 1.0f, LoopMode::Loop, 0);
        std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(m.meshes[0].vertexCount());
        const long before = testing::allocations();
        for (int tick = 0; tick < 500; ++tick) {
            clock.advance(1.0 / 60.0);
            anim.evaluate(0, static_cast<float>(clock.time()));
            if (tick == 250) clock.seek(0.37);  // a random seek too
            skinMesh(m.meshes[0], anim.palette().data(), pos.data(), nrm.data());
        }
        anim.evaluate(-1, 0.0f);  // bind pose
        EXPECT_EQ(testing::allocations() - before, 0) << m.path;
    }
}

TEST(PerTick, EightInfluenceSkinningAllocatesNothing) {
    Model m = testing::makeChain(64, 300);
    Mesh& mesh = m.meshes[0];
    // A second set: the first set's slots again at half weight, blended as 8 influences.
    mesh.joints2 = mesh.joints;
    for (const glm::vec4& w : mesh.weights) mesh.weights2.push_back(0.5f * w);
    Animator anim(m);
    std::vector<glm::vec3> pos(mesh.vertexCount()), nrm(mesh.vertexCount());
    const long before = testing::allocations();
    for (int tick = 0; tick < 300; ++tick) {
        anim.evaluate(0, static_cast<float>(tick % 60) / 60.0f);
        for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuat, SkinningMethod::Stitch}) {
            skinMesh(mesh, anim.palette().data(), pos.data(), nrm.data(), method, kMostInfluences);
        }
    }
    EXPECT_EQ(testing::allocations() - before, 0);
}

TEST(PerTick, ModelSpaceAndMeshSpacePalettesAllocateNothing) {
    // The two-bone strip three times: on the root (identity), on the turning tip (a rigid
    // motion: model-space palette) and on a node scaled by 2 (mesh-space palette).
    Model m = testing::makeTwoBone();
    Transform big;
    big.translation = glm::vec3(1, 0, 0);
    big.scale = glm::vec3(2.0f);
    m.skeleton.names.push_back("big");
    m.skeleton.parent.push_back(0);
    m.skeleton.bindLocalSqt.push_back(big);
    m.skeleton.bindLocal.push_back(toMatrix(big));
    m.skeleton.computeBindModel();
    for (Clip& c : m.clips) c.trackOfNode.push_back(-1);
    for (int32_t node : {1, 2}) {
        Mesh copy = m.meshes[0];
        copy.node = node;
        m.meshes.push_back(copy);
    }
    Animator anim(m);
    std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(pos.size());
    const long before = testing::allocations();
    for (int tick = 0; tick < 300; ++tick) {
        anim.evaluate(0, static_cast<float>(tick % 60) / 60.0f);
        for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
            skinMesh(m.meshes[mi], anim.palette().data() + anim.paletteOffset(mi), pos.data(), nrm.data());
        }
    }
    anim.evaluate(-1, 0.0f);
    EXPECT_EQ(testing::allocations() - before, 0);
    anim.evaluate(0, 0.5f);
    EXPECT_EQ(anim.skinToModel(1), glm::mat4(1.0f));              // model space
    EXPECT_EQ(anim.skinToModel(2), anim.world()[2]);              // mesh space
    EXPECT_NE(anim.paletteOffset(1), anim.paletteOffset(2));
    // Both put the tip's vertex (0, 2, 0) where the tip and the mesh node take it.
    for (size_t mi : {1u, 2u}) {
        skinMesh(m.meshes[mi], anim.palette().data() + anim.paletteOffset(mi), pos.data(), nullptr);
        const glm::vec3 got(anim.skinToModel(mi) * glm::vec4(pos[1], 1.0f));
        const glm::vec3 want(anim.world()[1] * m.meshes[mi].skin.inverseBind[1] * glm::vec4(0, 2, 0, 1));
        EXPECT_LT(glm::length(got - want), 1e-5f) << mi;
    }
}

TEST(PerTick, IkStageAllocatesNothing) {
    // Two-bone chains (one foot-locked) and an aim joint, run by the animator's evaluate()
    // and evaluatePose() after local->model, with the targets moving every tick.
    const Model m = testing::makeChain(64, 300);
    Animator anim(m);
    IkStage stage(m.skeleton);
    ASSERT_EQ(stage.addTwoBone(10, 11, 12), 0);
    ASSERT_EQ(stage.addTwoBone(20, 22, 25), 1);
    ASSERT_EQ(stage.addAim(40), 0);
    stage.twoBone()[1].footLock.enabled = true;
    anim.setPostProcess(&stage);
    std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(m.meshes[0].vertexCount());
    const long before = testing::allocations();
    for (int tick = 0; tick < 500; ++tick) {
        const float t = static_cast<float>(tick) / 60.0f;
        stage.twoBone()[0].target = glm::vec3(std::sin(t), 11.0f + std::cos(t), 0.5f);
        stage.twoBone()[1].target = glm::vec3(0.3f, 22.0f, std::sin(2.0f * t));
        stage.aim()[0].target = glm::vec3(5.0f * std::cos(t), 40.0f, 5.0f * std::sin(t));
        stage.advance(1.0f / 60.0f);
        anim.evaluate(0, std::fmod(t, m.clips[0].duration));
        if (tick % 50 == 0) anim.evaluatePose(anim.local());
        skinMesh(m.meshes[0], anim.palette().data(), pos.data(), nrm.data());
    }
    EXPECT_EQ(testing::allocations() - before, 0);
    // It does something: the first chain's end on a reachable target (its start joint is not
    // moved by the IK).
    anim.evaluate(0, 0.5f);
    stage.twoBone()[0].target = glm::vec3(anim.world()[10][3]) + glm::vec3(0.5f, 1.2f, 0.3f);
    anim.evaluate(0, 0.5f);
    EXPECT_LT(glm::length(glm::vec3(anim.world()[12][3]) - stage.twoBone()[0].target), 1e-3f);
}

TEST(PerTick, CompressedSamplingAllocatesNothing) {
    const Model m = testing::makeChain(64, 300);
    Result<CompressionResult> r = compressClip(m, m.clips[0], CompressSettings{});
    ASSERT_TRUE(r);
    const Model other = testing::makeChain(64, 30);
    Result<CompressionResult> r2 = compressClip(other, other.clips[0], CompressSettings{});
    ASSERT_TRUE(r2);
    CompressedSamplingCache cache;
    cache.reserve(r->clip.tracks.size());
    std::vector<Transform> local(m.skeleton.bindLocalSqt);
    CompressedSamplingJob job;
    job.bindLocal = m.skeleton.bindLocalSqt;
    job.cache = &cache;
    job.local = local;
    const long before = testing::allocations();
    for (int tick = 0; tick < 500; ++tick) {
        job.clip = tick == 300 ? &r2->clip : &r->clip;  // switching clips re-binds the cache
        job.time = tick == 250 ? 3.7f : static_cast<float>(tick) / 60.0f;
        EXPECT_TRUE(job.run());
    }
    EXPECT_EQ(testing::allocations() - before, 0);
}

TEST(PerTick, MorphWeightsAndMorphThenSkinAllocateNothing) {
    for (Model m : {testing::makeChain(64, 300), testing::makeTwoBone()}) {
        testing::addMorphs(m, 40);
        Animator anim(m);
        std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(m.meshes[0].vertexCount());
        const long before = testing::allocations();
        for (int tick = 0; tick < 500; ++tick) {
            const float t = static_cast<float>(tick) / 60.0f;
            anim.evaluate(0, std::fmod(t, m.clips[0].duration));
            if (tick == 200) anim.setMorphOverride(0, 1, 0.5f);
            if (tick == 300) anim.clearMorphOverrides();
            for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuat}) {
                skinMesh(m.meshes[0], anim.palette().data(), anim.meshMorphWeights(0), pos.data(), nrm.data(), method);
            }
            anim.evaluateMorphs(0, 0.37f);
        }
        anim.evaluate(-1, 0.0f);
        EXPECT_EQ(testing::allocations() - before, 0) << m.path;
        EXPECT_NE(anim.meshMorphWeights(0)[0], 0.0f);
    }
}

TEST(PerTick, CrowdUpdateOnWorkerThreadsAllocatesNothing) {
    const Model m = testing::makeChain(50, 30);
    for (unsigned threads : {1u, 2u, 3u}) {
        Crowd crowd(m, 64, 0, threads);
        crowd.update(0.0);  // workers started and settled
        const long before = testing::allocations();
        for (int frame = 0; frame < 200; ++frame) crowd.update(frame / 60.0);
        EXPECT_EQ(testing::allocations() - before, 0) << threads << " threads";
    }
}

// Per-instance clips, phases and rates, with the GPU rows written each tick: still nothing
// allocated per tick, and the rows hold each instance's own palette.
TEST(PerTick, CrowdWithOwnClipsAndGpuRowsAllocatesNothing) {
    Model m = testing::makeChain(40, 30);
    m.clips.push_back(m.clips[0]);
    m.clips[1].duration *= 0.5f;
    for (unsigned threads : {1u, 2u}) {
        Crowd crowd(m, 50, 0, threads);
        for (size_t i = 0; i < crowd.size(); ++i) crowd.setInstance(i, static_cast<int32_t>(i % 3) - 1, 0.01 * i, i % 2 ? -0.5 : 1.5);
        crowd.update(0.0);
        const long before = testing::allocations();
        for (int frame = 0; frame < 200; ++frame) crowd.update(frame / 60.0);
        EXPECT_EQ(testing::allocations() - before, 0) << threads << " threads";
        // Instance 7's rows: its palette entry 5, row 1 (the y row of the 3x4 matrix), as a
        // lone Animator has it.
        Animator lone(m);
        lone.evaluate(crowd.clip(7), crowd.localTime(7));
        const glm::mat4& p = lone.palette()[5];
        const glm::vec4& row = crowd.gpuRows()[7 * crowd.texelsPerInstance() + 5 * 3 + 1];
        EXPECT_EQ(row[0], p[0][1]);
        EXPECT_EQ(row[3], p[3][1]);
        EXPECT_EQ(crowd.clip(7), 0);  // 7 % 3 - 1
        EXPECT_EQ(crowd.clip(6), -1);
        EXPECT_GE(crowd.localTime(1), 0.0f);  // a negative rate still wraps into the clip
    }
}

}  // namespace
}  // namespace rig
