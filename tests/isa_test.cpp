// The per-tick kernels' forms (anim/runtime/isa.h): the baseline, AVX2 + FMA and, where the CPU has it,
// AVX-512 (palettes), forced in turn in one process, on real files.
// Sampling fuses nothing, so its forms give the same bits; local-to-model and the palettes
// fuse their matrix products, so poses may move by float rounding only: within 1e-6 of the
// model's size (the bar for a faster runtime).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "anim/control/controller.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/local_to_model_job.h"
#include "anim/runtime/sampling_job.h"
#include "anim/runtime/pose.h"
#include "import/import.h"

namespace rig {
namespace {

struct Posed {
    std::vector<glm::mat4> world, palette;
    std::vector<Transform> local;
};

Posed pose(const Model& m, int32_t clip, float t, isa::Level level) {
    isa::force(level);
    Animator a(m);
    a.evaluate(clip, t);
    Posed p{a.world(), a.palette(), {}};
    const Clip& c = m.clips[static_cast<size_t>(clip)];
    p.local = m.skeleton.bindLocalSqt;
    std::vector<uint32_t> cursors(3 * c.tracks.size(), 0);
    SamplingJob job;
    job.clip = &c;
    job.time = t;
    job.bindLocal = m.skeleton.bindLocalSqt;
    job.cursors = cursors;
    job.local = p.local;
    EXPECT_TRUE(job.run());
    return p;
}

float jointDiagonal(const Posed& p) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::mat4& w : p.world) {
        lo = glm::min(lo, glm::vec3(w[3]));
        hi = glm::max(hi, glm::vec3(w[3]));
    }
    return glm::length(hi - lo);
}

class IsaForms : public ::testing::TestWithParam<std::string> {};

TEST_P(IsaForms, SameSamplesAndPosesWithinAMillionthOfTheModel) {
    if (!isa::cpuHasAvx2()) GTEST_SKIP() << "this CPU has no AVX2 + FMA: only the baseline form runs";
    Result<Model> r = importModel(GetParam());
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    ASSERT_FALSE(m.clips.empty());
    const isa::Level chosen = isa::level();
    size_t compared = 0;
    for (size_t ci = 0; ci < m.clips.size(); ++ci) {
        const Clip& c = m.clips[ci];
        for (float f : {0.0f, 0.137f, 0.5f, 0.77f, 1.0f}) {
            const float t = c.startTime + f * (c.duration - c.startTime);
            const Posed a = pose(m, static_cast<int32_t>(ci), t, isa::Level::Baseline);
            for (int level = 1; level < isa::levelsHere(); ++level) {
                const Posed b = pose(m, static_cast<int32_t>(ci), t, static_cast<isa::Level>(level));
                ASSERT_EQ(a.local.size(), b.local.size());
                for (size_t j = 0; j < a.local.size(); ++j) {
                    ASSERT_EQ(std::memcmp(&a.local[j], &b.local[j], sizeof(Transform)), 0) << "sampled node " << j << " at " << t;
                }
                const float tol = 1e-6f * std::max(jointDiagonal(a), 1e-3f);
                for (size_t j = 0; j < a.world.size(); ++j) {
                    EXPECT_LE(glm::length(glm::vec3(a.world[j][3]) - glm::vec3(b.world[j][3])), tol) << "node " << j << " at " << t;
                }
                // Palette entries move vertices near their joints: their translation by the same
                // bound, their 3x3 part by a millionth.
                for (size_t e = 0; e < a.palette.size(); ++e) {
                    EXPECT_LE(glm::length(glm::vec3(a.palette[e][3]) - glm::vec3(b.palette[e][3])), tol) << "entry " << e;
                    for (int col = 0; col < 3; ++col) {
                        const glm::vec3 d = glm::vec3(a.palette[e][col]) - glm::vec3(b.palette[e][col]);
                        EXPECT_LE(glm::length(d), 1e-6f * std::max(1.0f, glm::length(glm::vec3(a.palette[e][col])))) << "entry " << e;
                    }
                }
                ++compared;
            }
        }
    }
    isa::force(chosen);
    EXPECT_GT(compared, 0u);
}

// A clip's SamplingPlan (what the Animator and the Controller sample by) against sampling by
// its tracks: the same bits in every node, at 60 ticks per second forwards (cursors kept), a
// tick that skips many keys, backwards and random times, in both forms and both blends.
class PlanFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(PlanFiles, PlanSamplesTheSameBitsAsTheTracks) {
    Result<Model> r = importModel(GetParam());
    ASSERT_TRUE(r) << r.error().message;
    const Model& m = r.value();
    ASSERT_FALSE(m.clips.empty());
    const isa::Level chosen = isa::level();
    size_t compared = 0;
    for (const Clip& c : m.clips) {
        const SamplingPlan plan = buildSamplingPlan(c);
        ASSERT_TRUE(plan.validFor(c)) << c.name;
        ASSERT_LE(plan.runs.size(), 3 * c.tracks.size());
        std::vector<float> times;
        const float len = std::max(c.duration - c.startTime, 1e-3f);
        for (int k = 0; k < 200; ++k) times.push_back(c.startTime + k / 60.0f);   // playing on
        times.push_back(c.startTime + 0.9f * len);                                  // a jump
        for (int k = 0; k < 20; ++k) times.push_back(c.startTime + len * (0.9f - 0.04f * k));  // backwards
        for (int k = 0; k < 40; ++k) times.push_back(c.startTime + len * ((k * 37) % 41) / 40.0f - 0.1f);  // anywhere
        for (int form = 0; form < (isa::cpuHasAvx2() ? 2 : 1); ++form) {
            isa::force(form == 1);
            for (const RotationBlend blend : {RotationBlend::Slerp, RotationBlend::Nlerp}) {
                std::vector<Transform> byTracks = m.skeleton.bindLocalSqt, byPlan(m.skeleton.size());
                std::vector<uint32_t> cursorsA(3 * c.tracks.size(), 0), cursorsB(3 * c.tracks.size(), 0);
                for (const float t : times) {
                    SamplingJob a;
                    a.clip = &c;
                    a.time = t;
                    a.blend = blend;
                    a.bindLocal = m.skeleton.bindLocalSqt;
                    a.cursors = cursorsA;
                    a.local = byTracks;
                    ASSERT_TRUE(a.run());
                    SamplingJob b = a;
                    b.cursors = cursorsB;
                    b.local = byPlan;
                    b.plan = &plan;
                    ASSERT_TRUE(b.validate());
                    ASSERT_TRUE(b.run());
                    for (const Track& tr : c.tracks) {
                        ASSERT_EQ(std::memcmp(&byTracks[tr.node], &byPlan[tr.node], sizeof(Transform)), 0)
                            << c.name << " node " << tr.node << " at " << t << " form " << form;
                    }
                    ++compared;
                }
            }
        }
    }
    isa::force(chosen);
    EXPECT_GT(compared, 0u);
}

INSTANTIATE_TEST_SUITE_P(Files, PlanFiles,
                         ::testing::Values("/usr/share/assimp/models/X/BCN_Epileptic.X", "/usr/share/assimp/models/X/Testwuson.X",
                                           "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx",
                                           "/usr/share/assimp/models/BVH/01_01.bvh",
                                           "/usr/share/assimp/models/Collada/anims_with_full_rotations_between_keys.DAE",
                                           "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf",
                                           std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf"));

// The local matrices of nodes a clip holds still are made once per clip (Animator, and the
// Controller playing one clip): the world matrices are the same bits as local->model over the
// sampled pose with the plain mask (sampled nodes by their pose, the others by the file's
// matrix), in evaluate() and in the Controller's path, through clip changes, an override and a
// cross-fade (no promise then).
class SteadyFiles : public ::testing::TestWithParam<std::string> {};

std::vector<glm::mat4> plainWorld(const Model& m, const std::vector<Transform>& local, const std::vector<uint8_t>& use) {
    std::vector<glm::mat4> world(m.skeleton.size());
    LocalToModelJob job;
    job.parent = m.skeleton.parent;
    job.local = local;
    job.bindLocal = m.skeleton.bindLocal;
    job.useLocal = use;
    job.model = world;
    EXPECT_TRUE(job.run());
    return world;
}

void expectSameWorld(const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(glm::mat4)), 0) << what << " node " << i;
}

// The palettes too: a steady tick writes only the entries of joints that can move, the others
// keep theirs; all must be what a fresh Animator gives for the same world matrices.
void expectSamePalette(const Animator& a, const Animator& fresh, const std::string& what) {
    ASSERT_EQ(a.paletteInUse(), fresh.paletteInUse()) << what;
    for (size_t e = 0; e < a.paletteInUse(); ++e) {
        ASSERT_EQ(std::memcmp(&a.palette()[e], &fresh.palette()[e], sizeof(glm::mat4)), 0) << what << " palette entry " << e;
    }
}

void expectFreshPalette(const Model& m, const Animator& a, int32_t clip, float t, const std::string& what, int32_t overrideNode = -1,
                        const glm::quat& overrideRotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) {
    Animator fresh(m);
    fresh.setRotationOverride(overrideNode, overrideRotation);
    fresh.evaluate(clip, t);
    expectSamePalette(a, fresh, what);
}

void steadyCase(const Model& m) {
    const size_t n = m.skeleton.size();
    Animator a(m);
    // evaluate(): each clip, then back to the first, with and without an override.
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t ci = 0; ci <= m.clips.size(); ++ci) {
            const int32_t clip = static_cast<int32_t>(ci % m.clips.size());
            const Clip& c = m.clips[clip];
            const glm::quat turn = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
            if (pass == 1) a.setRotationOverride(static_cast<int32_t>(n - 1), turn);
            for (float f : {0.1f, 0.45f, 0.9f}) {
                a.evaluate(clip, c.startTime + f * (c.duration - c.startTime));
                std::vector<uint8_t> use(n, 0);
                for (size_t i = 0; i < n; ++i) use[i] = c.trackOfNode[i] >= 0 || (pass == 1 && i == n - 1);
                expectSameWorld(a.world(), plainWorld(m, a.local(), use), c.name + " evaluate");
                // Tick after tick of one clip (the still components kept from the first), as a
                // fresh Animator's first tick gives it.
                expectFreshPalette(m, a, clip, c.startTime + f * (c.duration - c.startTime), c.name + " evaluate",
                                   pass == 1 ? static_cast<int32_t>(n - 1) : -1, turn);
            }
            // Another writer of the world matrices between two ticks of the same clip (only the
            // moving nodes are recomputed while nothing else wrote them).
            a.evaluate(kFilePose, 0.0f);
            a.evaluate(clip, c.startTime + 0.3f * (c.duration - c.startTime));
            std::vector<uint8_t> use(n, 0);
            for (size_t i = 0; i < n; ++i) use[i] = c.trackOfNode[i] >= 0 || (pass == 1 && i == n - 1);
            expectSameWorld(a.world(), plainWorld(m, a.local(), use), c.name + " evaluate after the file pose");
        }
        a.setRotationOverride(-1, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    }
    // The override released, then a pose from outside, between ticks of one clip.
    const Clip& first = m.clips[0];
    auto at = [&](float f) { return first.startTime + f * (first.duration - first.startTime); };
    a.evaluate(0, at(0.2f));
    expectFreshPalette(m, a, 0, at(0.2f), "evaluate after the override");
    a.evaluatePose(m.skeleton.bindPoseLocalSqt());
    a.evaluate(0, at(0.7f));
    expectFreshPalette(m, a, 0, at(0.7f), "evaluate after a given pose");
    // The Controller's path: one clip (the promise), then a cross-fade to another (none).
    std::vector<uint8_t> animated(n, 0);
    for (const Clip& c : m.clips) {
        for (const Track& tr : c.tracks) animated[tr.node] = 1;
    }
    Controller ctl(m);
    Animator b(m);
    ctl.play(MotionSource::clip(0));
    for (int tick = 0; tick < 40; ++tick) {
        if (tick == 20) ctl.crossFadeTo(MotionSource::clip(static_cast<int32_t>(m.clips.size() - 1)), 0.25f);
        ctl.update(1.0 / 60.0);
        ASSERT_TRUE(ctl.evaluate(b));
        expectSameWorld(b.world(), plainWorld(m, ctl.pose(), animated), "controller tick " + std::to_string(tick));
        Animator fresh(m);
        fresh.evaluatePose(ctl.pose(), &animated);
        expectSamePalette(b, fresh, "controller tick " + std::to_string(tick));
    }
    // A crowd's character posed by the same Animator between two ticks (its scratch world
    // matrices, another clip): the next tick's palette is still whole.
    const int32_t last = static_cast<int32_t>(m.clips.size() - 1);
    const Clip& lc = m.clips[last];
    const float t0 = lc.startTime + 0.2f * (lc.duration - lc.startTime), t1 = lc.startTime + 0.6f * (lc.duration - lc.startTime);
    Animator c(m);
    std::vector<uint32_t> cursors(c.cursorCount(), 0);
    std::vector<SkinCorrection> skins(c.skinCount());
    std::vector<glm::vec4> rows(c.instanceRows());
    c.evaluate(0, m.clips[0].startTime);
    c.evaluate(0, m.clips[0].startTime + 0.1f * (m.clips[0].duration - m.clips[0].startTime));
    c.evaluateInto(last, t0, {cursors, skins, rows});
    c.evaluate(last, t1);
    c.evaluate(last, t0);
    expectFreshPalette(m, c, last, t0, "evaluate after a crowd character");
}

TEST_P(SteadyFiles, StillNodesGiveTheSameBits) {
    Result<Model> r = importModel(GetParam());
    ASSERT_TRUE(r) << r.error().message;
    const isa::Level chosen = isa::level();
    for (int level = 0; level < isa::levelsHere(); ++level) {
        SCOPED_TRACE("isa level " + std::to_string(level));
        isa::force(static_cast<isa::Level>(level));
        steadyCase(r.value());
    }
    isa::force(chosen);
}

INSTANTIATE_TEST_SUITE_P(Files, SteadyFiles,
                         ::testing::Values("/usr/share/assimp/models/X/BCN_Epileptic.X",
                                           "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx",
                                           "/usr/share/assimp/models/BVH/01_01.bvh",
                                           std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf"));

const std::string kModels = "/usr/share/assimp/models/";

INSTANTIATE_TEST_SUITE_P(Files, IsaForms,
                         ::testing::Values(kModels + "X/BCN_Epileptic.X", kModels + "X/Testwuson.X",
                                           kModels + "FBX/animation_with_skeleton.fbx", kModels + "BVH/01_01.bvh",
                                           std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf"));

}  // namespace
}  // namespace rig
