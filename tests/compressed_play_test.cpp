// Compressed clips played (anim/runtime/compressed_clip_set.h): a Controller, an Animator and a
// Crowd that play a model's clips compressed pose the model within the compression tolerance
// of the plain clips (and not exactly as them: the compressed path ran), a crowd poses each
// instance as a lone Animator does, and `rigview pose --compressed` agrees with plain `pose`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/control/controller.h"
#include "anim/control/crowd.h"
#include "anim/offline/compress.h"
#include "anim/runtime/compressed_clip_set.h"
#include "anim/runtime/pose.h"
#include "import/import.h"
#include "support/run.h"

namespace {

using rig::testing::run;
using rig::testing::RunResult;

const std::string kModels = "/usr/share/assimp/models/";
const std::string kDemo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";

// The model's extent (its bind-pose joints' bounding box diagonal), for a tolerance of its size.
std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

float extent(const rig::Model& m) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::mat4& w : m.skeleton.bindModel) {
        lo = glm::min(lo, glm::vec3(w[3]));
        hi = glm::max(hi, glm::vec3(w[3]));
    }
    return glm::length(hi - lo);
}

struct PoseGap {
    double max = 0.0;  // largest distance between the two poses' joint origins
};

void widen(PoseGap& g, const rig::Animator& a, const rig::Animator& b) {
    for (size_t i = 0; i < a.world().size(); ++i) {
        g.max = std::max(g.max, static_cast<double>(glm::length(glm::vec3(a.world()[i][3]) - glm::vec3(b.world()[i][3]))));
    }
}

class CompressedPlay : public ::testing::TestWithParam<std::string> {};

// Every clip played through a Controller, plain and compressed, tick by tick for a few
// seconds: each compressed tick within the tolerance of the plain one, and some tick apart.
TEST_P(CompressedPlay, ControllerPosesWithinToleranceOfThePlainClip) {
    const std::string path = GetParam().find('/') == 0 ? GetParam() : kModels + GetParam();
    rig::Result<rig::Model> model = rig::importModel(path);
    ASSERT_TRUE(model) << model.error().message;
    const rig::Model& m = model.value();
    ASSERT_FALSE(m.clips.empty());
    rig::CompressSettings settings;
    settings.tolerance = 1e-4f * extent(m);
    rig::Result<rig::CompressedClipSet> set = rig::compressClips(m, settings);
    ASSERT_TRUE(set) << set.error().message;
    for (size_t c = 0; c < m.clips.size(); ++c) {
        SCOPED_TRACE("clip " + std::to_string(c));
        ASSERT_NE(set->clip(static_cast<int32_t>(c)), nullptr);
        EXPECT_LT(set->stats[c].compressedBytes, set->stats[c].plainBytes);
        rig::Controller plain(m), compressed(m);
        compressed.setCompressedClips(&set.value());
        ASSERT_EQ(compressed.compressedClips(), &set.value());
        rig::Animator a(m), b(m);
        plain.play(rig::MotionSource::clip(static_cast<int32_t>(c)));
        compressed.play(rig::MotionSource::clip(static_cast<int32_t>(c)));
        PoseGap gap;
        for (int tick = 0; tick < 240; ++tick) {
            plain.update(1.0 / 60.0);
            compressed.update(1.0 / 60.0);
            plain.evaluate(a);
            compressed.evaluate(b);
            widen(gap, a, b);
        }
        // The compressor measures its error at key times and halfway between; ticks fall
        // elsewhere, where interpolation may move a little further.
        EXPECT_LE(gap.max, 1.5 * settings.tolerance + 1e-6 * extent(m));
        EXPECT_GT(gap.max, 0.0) << "the compressed clip posed exactly as the plain one: was it played?";
    }
}

// The Animator's own evaluate() (through its cached sampler) and a Crowd (through each
// instance's cursors) give the same poses, bit for bit, and the Crowd keeps no more per
// instance than it does for plain clips: the compressed set is shared.
TEST_P(CompressedPlay, CrowdSharesTheSetAndPosesLikeALoneAnimator) {
    const std::string path = GetParam().find('/') == 0 ? GetParam() : kModels + GetParam();
    rig::Result<rig::Model> model = rig::importModel(path);
    ASSERT_TRUE(model) << model.error().message;
    const rig::Model& m = model.value();
    rig::CompressSettings settings;
    settings.tolerance = 1e-4f * extent(m);
    rig::Result<rig::CompressedClipSet> set = rig::compressClips(m, settings);
    ASSERT_TRUE(set) << set.error().message;
    rig::Crowd crowd(m, 12, 0, 2);
    const size_t plainPerInstance = crowd.clipStateBytesPerInstance();
    crowd.setCompressedClips(&set.value());
    EXPECT_EQ(crowd.clipStateBytesPerInstance(), plainPerInstance);
    rig::Animator lone(m), plainLone(m);
    lone.setCompressedClips(&set.value());
    EXPECT_GT(lone.compressedStateBytes(), 0u);
    bool differs = false;
    for (double t : {0.0, 0.31, 0.77, 1.4}) {
        crowd.update(t);
        for (size_t i = 0; i < crowd.size(); ++i) {
            SCOPED_TRACE("instance " + std::to_string(i) + " at " + std::to_string(t));
            lone.evaluate(crowd.clip(i), crowd.localTime(i));
            plainLone.evaluate(crowd.clip(i), crowd.localTime(i));
            for (size_t e = 0; e < crowd.paletteSize(); ++e) ASSERT_EQ(crowd.paletteEntry(i, e), lone.palette()[e]) << "entry " << e;
            differs = differs || lone.world() != plainLone.world();
        }
    }
    EXPECT_TRUE(differs) << "the crowd posed exactly as plain clips: was the compressed set played?";
    crowd.setCompressedClips(nullptr);
    crowd.update(0.31);
    plainLone.evaluate(crowd.clip(3), crowd.localTime(3));
    for (size_t e = 0; e < crowd.paletteSize(); ++e) ASSERT_EQ(crowd.paletteEntry(3, e), plainLone.palette()[e]) << "entry " << e;
}

INSTANTIATE_TEST_SUITE_P(Files, CompressedPlay, ::testing::Values(kDemo, std::string("BVH/01_01.bvh"), std::string("X/BCN_Epileptic.X")));

// A cross-fade and an additive layer sample two clips a tick from one motion's sampler.
TEST(CompressedPlayBlends, CrossFadeAndAdditiveLayerStayWithinTolerance) {
    rig::Result<rig::Model> model = rig::importModel(kDemo);
    ASSERT_TRUE(model) << model.error().message;
    const rig::Model& m = model.value();
    ASSERT_GE(m.clips.size(), 3u);
    rig::CompressSettings settings;
    settings.tolerance = 1e-4f;
    rig::Result<rig::CompressedClipSet> set = rig::compressClips(m, settings);
    ASSERT_TRUE(set) << set.error().message;
    rig::Controller plain(m), compressed(m);
    compressed.setCompressedClips(&set.value());
    rig::Animator a(m), b(m);
    PoseGap gap;
    for (rig::Controller* c : {&plain, &compressed}) {
        c->play(rig::MotionSource::clip(0));
        const int32_t layer = c->addLayer(rig::LayerBlend::Additive);
        ASSERT_GE(layer, 0);
        ASSERT_TRUE(c->playAdditive(layer, 2, 0));
    }
    for (int tick = 0; tick < 180; ++tick) {
        if (tick == 60) {
            plain.crossFadeTo(rig::MotionSource::clip(1), 0.5f);
            compressed.crossFadeTo(rig::MotionSource::clip(1), 0.5f);
        }
        plain.update(1.0 / 60.0);
        compressed.update(1.0 / 60.0);
        plain.evaluate(a);
        compressed.evaluate(b);
        widen(gap, a, b);
    }
    // An additive layer adds the source's error to the base's: twice the tolerance at most.
    EXPECT_LE(gap.max, 3.0 * settings.tolerance);
    EXPECT_GT(gap.max, 0.0);
}

// `rigview pose --compressed 0.1` against plain `pose`: every vertex and joint within 0.1 mm
// (and a little for ticks between the compressor's sample times), some apart.
TEST(CompressedPlayCli, PoseCompressedIsWithinToleranceOfPlainPose) {
    const std::string dir = rig::testing::tempDir();
    const std::string plainOut = dir + "/plain.json", compOut = dir + "/compressed.json";
    constexpr double kCompressSeconds = 600.0;
    RunResult p = run(RIGVIEW_EXE, {"pose", kDemo, "-o", plainOut, "--clip", "1", "--time", "0.37"});
    ASSERT_EQ(p.exitCode, 0) << p.err;
    RunResult c = run(RIGVIEW_EXE, {"pose", kDemo, "-o", compOut, "--clip", "1", "--time", "0.37", "--compressed", "0.1"},
                      kCompressSeconds);
    ASSERT_EQ(c.exitCode, 0) << c.err;
    const nlohmann::json a = nlohmann::json::parse(readText(plainOut));
    const nlohmann::json b = nlohmann::json::parse(readText(compOut));
    ASSERT_EQ(a["meshes"].size(), b["meshes"].size());
    double worst = 0.0;
    for (size_t mesh = 0; mesh < a["meshes"].size(); ++mesh) {
        const auto& pa = a["meshes"][mesh]["positions"];
        const auto& pb = b["meshes"][mesh]["positions"];
        ASSERT_EQ(pa.size(), pb.size());
        for (size_t i = 0; i + 2 < pa.size(); i += 3) {
            const glm::vec3 va(pa[i].get<float>(), pa[i + 1].get<float>(), pa[i + 2].get<float>());
            const glm::vec3 vb(pb[i].get<float>(), pb[i + 1].get<float>(), pb[i + 2].get<float>());
            worst = std::max(worst, static_cast<double>(glm::length(va - vb)));
        }
    }
    EXPECT_LE(worst, 1.5e-4);
    EXPECT_GT(worst, 0.0);
    RunResult bad = run(RIGVIEW_EXE, {"pose", kDemo, "-o", compOut, "--compressed", "-3"});
    EXPECT_EQ(bad.exitCode, 2) << bad.err;
}

// `bench --instances N --compressed`: the set is counted once, each instance's cursors N times.
TEST(CompressedPlayCli, CrowdBenchCountsTheSharedSetOnce) {
    constexpr double kCompressSeconds = 600.0;
    RunResult r = run(RIGVIEW_EXE, {"bench", kDemo, "--instances", "30", "--ticks", "5", "--json", "--compressed", "0.1"},
                      kCompressSeconds);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["compressed"].get<bool>());
    const size_t shared = j["clip_bytes_shared"].get<size_t>(), per = j["clip_bytes_per_instance"].get<size_t>();
    EXPECT_EQ(j["clip_bytes"].get<size_t>(), shared + 30 * per);
    RunResult p = run(RIGVIEW_EXE, {"bench", kDemo, "--instances", "30", "--ticks", "5", "--json"});
    ASSERT_EQ(p.exitCode, 0) << p.err;
    const nlohmann::json q = nlohmann::json::parse(p.out);
    EXPECT_FALSE(q["compressed"].get<bool>());
    EXPECT_EQ(q["clip_bytes_per_instance"].get<size_t>(), per);
    EXPECT_LT(shared, q["clip_bytes_shared"].get<size_t>());
}

}  // namespace
