// rig::Crowd on real files: every character, whatever its clip, phase, rate and thread, has
// the palettes and skin-to-model matrices of a lone Animator posed at its clip time, also
// after characters change clips (their cursors start over) and with several skins per model.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "anim/control/clock.h"
#include "anim/control/crowd.h"
#include "anim/offline/mesh_lod.h"
#include "anim/runtime/pose.h"
#include "import/import.h"

namespace rig {
namespace {

const std::string kModels = "/usr/share/assimp/models/";

// Every instance of `crowd` against a lone Animator at the instance's clip and clip time.
void expectLikeLoneAnimators(const Model& m, const Crowd& crowd, double t) {
    Animator lone(m);
    for (size_t i = 0; i < crowd.size(); ++i) {
        SCOPED_TRACE("instance " + std::to_string(i) + " clip " + std::to_string(crowd.clip(i)) + " at " + std::to_string(t));
        lone.evaluate(crowd.clip(i), crowd.localTime(i));
        ASSERT_EQ(lone.paletteInUse(), lone.sharedPaletteSize());  // every group shared
        ASSERT_EQ(crowd.paletteSize(), lone.paletteInUse());
        for (size_t e = 0; e < crowd.paletteSize(); ++e) ASSERT_EQ(crowd.paletteEntry(i, e), lone.palette()[e]) << "entry " << e;
        for (size_t mesh = 0; mesh < m.meshes.size(); ++mesh) {
            ASSERT_EQ(crowd.paletteOffset(mesh), lone.paletteOffset(mesh));
            ASSERT_EQ(crowd.skinToModel(i, mesh), lone.skinToModel(mesh)) << "mesh " << mesh;
        }
    }
}

class CrowdFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(CrowdFiles, EveryCharacterIsPosedLikeALoneAnimator) {
    Result<Model> r = importModel(GetParam());
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    ASSERT_FALSE(m.clips.empty());
    const int32_t clips = static_cast<int32_t>(m.clips.size());
    for (unsigned threads : {1u, 2u}) {
        Crowd crowd(m, 11, 0, threads);
        // Clips from the file pose and the bind pose to the last clip, phases and rates mixed.
        for (size_t i = 0; i < crowd.size(); ++i) {
            const int32_t clip = static_cast<int32_t>(i % static_cast<size_t>(clips + 2)) - 2;
            crowd.setInstance(i, clip, 0.13 * static_cast<double>(i), i % 3 == 1 ? -0.7 : 1.0 + 0.25 * static_cast<double>(i % 4));
        }
        for (double t : {0.0, 0.4, 0.41, 1.7, 0.2}) {
            crowd.update(t);
            expectLikeLoneAnimators(m, crowd, t);
        }
        // Characters change clips: their cursors start over on the new clip.
        for (size_t i = 0; i < crowd.size(); ++i) {
            crowd.setInstance(i, static_cast<int32_t>((i + 1) % static_cast<size_t>(clips)), 0.05 * static_cast<double>(i));
        }
        for (double t : {2.2, 2.25, 0.3}) {
            crowd.update(t);
            expectLikeLoneAnimators(m, crowd, t);
        }
    }
}

// The viewer's frame budget poses only the first instances: update(t, count) poses those
// (across the threads' chunks) and leaves the others' rows and clip times as they were.
// The crowd's lighter model (anim/offline/mesh_lod.h): far fewer vertices and triangles, every
// triangle naming a kept vertex, each kept vertex one of the source's with all its attributes
// (so the same palettes pose it), the skeleton, skins and materials as they were.
TEST(Crowd, TheLighterModelKeepsSourceVerticesAndTheRig) {
    Result<Model> r = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    const Model lod = simplifiedModel(m, 14);
    ASSERT_EQ(lod.meshes.size(), m.meshes.size());
    EXPECT_EQ(lod.skeleton.size(), m.skeleton.size());
    EXPECT_EQ(lod.materials.size(), m.materials.size());
    size_t before = 0, after = 0, trisBefore = 0, trisAfter = 0;
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh &a = m.meshes[i], &b = lod.meshes[i];
        before += a.vertexCount();
        after += b.vertexCount();
        trisBefore += a.triangleCount();
        trisAfter += b.triangleCount();
        EXPECT_EQ(b.skin.joints, a.skin.joints);
        EXPECT_EQ(b.node, a.node);
        EXPECT_GT(b.triangleCount(), 0u);
        for (uint32_t v : b.indices) ASSERT_LT(v, b.vertexCount());
        ASSERT_EQ(b.weights.size(), b.vertexCount());
        ASSERT_EQ(b.normals.size(), b.vertexCount());
        for (size_t v = 0; v < b.vertexCount(); ++v) {  // a vertex of the source, whole
            bool found = false;
            for (size_t u = 0; u < a.vertexCount() && !found; ++u) {
                found = a.positions[u] == b.positions[v] && a.weights[u] == b.weights[v] && a.joints[u] == b.joints[v] &&
                        a.normals[u] == b.normals[v];
            }
            ASSERT_TRUE(found) << "mesh " << i << " vertex " << v << " is not one of the source's";
        }
    }
    std::printf("demo: %zu vertices, %zu triangles -> %zu vertices, %zu triangles\n", before, trisBefore, after, trisAfter);
    EXPECT_LT(after * 4, before);
    EXPECT_LT(trisAfter * 4, trisBefore);
}

TEST(Crowd, UpdatePosesOnlyTheFirstCountInstances) {
    Result<Model> r = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    ASSERT_FALSE(m.clips.empty());
    Crowd crowd(m, 70, 0, 2);
    crowd.update(0.3);
    EXPECT_EQ(crowd.posed(), 70u);
    const std::vector<glm::vec4> before = crowd.gpuRows();
    std::vector<float> times;
    for (size_t i = 0; i < crowd.size(); ++i) times.push_back(crowd.localTime(i));
    crowd.update(0.9, 40);
    EXPECT_EQ(crowd.posed(), 40u);
    const size_t stride = crowd.texelsPerInstance();
    Animator lone(m);
    for (size_t i = 0; i < crowd.size(); ++i) {
        SCOPED_TRACE("instance " + std::to_string(i));
        const bool posed = i < 40;
        EXPECT_EQ(crowd.localTime(i) != times[i], posed);
        const bool same = std::equal(before.begin() + static_cast<std::ptrdiff_t>(i * stride),
                                     before.begin() + static_cast<std::ptrdiff_t>((i + 1) * stride),
                                     crowd.gpuRows().begin() + static_cast<std::ptrdiff_t>(i * stride));
        EXPECT_EQ(same, !posed);
        if (!posed) continue;
        lone.evaluate(crowd.clip(i), crowd.localTime(i));
        for (size_t e = 0; e < crowd.paletteSize(); ++e) ASSERT_EQ(crowd.paletteEntry(i, e), lone.palette()[e]);
    }
    crowd.update(0.9, 1000);  // more than there are: all of them
    EXPECT_EQ(crowd.posed(), 70u);
}

// Frames back to back on more threads than cores, the count changing: a worker that wakes
// late takes no chunk of a frame already done or of a later one (it would pose with a stale
// time), and update() returns with every instance below the count posed at its time.
TEST(Crowd, LateWorkersNeverPoseAStaleFrame) {
    Result<Model> r = importModel(kModels + "X/BCN_Epileptic.X");
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    Crowd crowd(m, 60, 0, 4);
    Animator lone(m);
    for (int f = 0; f < 3000; ++f) {
        const double t = 0.37 * f;
        const size_t count = f % 3 == 0 ? 60 : static_cast<size_t>(f % 50);
        crowd.update(t, count);
        ASSERT_EQ(crowd.posed(), count);
        for (size_t i = 0; i < count; ++i) {
            const double expected = wrapTime(crowd.phase(i) + crowd.rate(i) * t, m.clips[0].duration - m.clips[0].startTime) +
                                    m.clips[0].startTime;
            ASSERT_EQ(crowd.localTime(i), static_cast<float>(expected)) << "frame " << f << " instance " << i;
        }
        if (f % 250 == 0) expectLikeLoneAnimators(m, crowd, t);
    }
}

// Each thread poses its own share of the instances first (the same every frame) and then
// takes what is left of the others'. Whether a frame comes while the workers still watch for
// it or after they fell asleep, and whatever the count against the threads (fewer instances
// than threads, shares of one chunk or less, an empty frame), every instance below the count is
// posed at the frame's time and none above it.
TEST(Crowd, EveryShareIsPosedWhetherFramesComeBackToBackOrApart) {
    Result<Model> r = importModel(kModels + "X/BCN_Epileptic.X");
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    const double start = m.clips[0].startTime, length = m.clips[0].duration - m.clips[0].startTime;
    constexpr size_t kCounts[] = {101, 1, 0, 4, 17, 100, 9, 64};
    for (unsigned threads : {2u, 3u, 5u}) {
        Crowd crowd(m, 101, 0, threads);
        std::vector<float> last(crowd.size(), -1.0f);
        for (int f = 0; f < 400; ++f) {
            SCOPED_TRACE(std::to_string(threads) + " threads, frame " + std::to_string(f));
            const double t = 0.13 + 0.29 * f;
            const size_t count = kCounts[static_cast<size_t>(f) % std::size(kCounts)];
            if (f % 5 == 4) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the workers sleep
            crowd.update(t, count);
            ASSERT_EQ(crowd.posed(), count);
            for (size_t i = 0; i < crowd.size(); ++i) {
                if (i < count) last[i] = static_cast<float>(wrapTime(crowd.phase(i) + crowd.rate(i) * t, length) + start);
                ASSERT_EQ(crowd.localTime(i), last[i]) << "instance " << i;
            }
        }
        expectLikeLoneAnimators(m, crowd, 0.13 + 0.29 * 399);
    }
}

INSTANTIATE_TEST_SUITE_P(Files, CrowdFiles,
                         ::testing::Values(kModels + "X/BCN_Epileptic.X", kModels + "X/Testwuson.X",
                                           kModels + "FBX/animation_with_skeleton.fbx",
                                           kModels + "glTF2/simple_skin/simple_skin.gltf",
                                           std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf",
                                           // A skeleton and no mesh: no rows per character.
                                           kModels + "BVH/01_01.bvh"));

}  // namespace
}  // namespace rig
