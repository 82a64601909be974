// The controller's per-tick path allocates nothing: count calls to operator new around
// update / evaluate / events, with a cross-fade, a blend space, a partial layer, an additive
// layer (cross-fading between two differences), markers and root motion all active, and requests (cross-fades, parameters, layer
// weights) posted between ticks; with plain clips and with compressed ones.
#include <gtest/gtest.h>


#include "anim/control/controller.h"
#include "anim/offline/clip_tools.h"
#include "anim/offline/compress.h"
#include "anim/runtime/pose.h"
#include "support/alloc_counter.h"
#include "support/rigs.h"

namespace rig {
namespace {

// compressed: the clips play from a CompressedClipSet (each motion's sampler rebinds as the
// blend space, the cross-fades and the additive layer move between clips).
void expectNoAllocationPerTick(bool compressed) {
    for (Model m : {testing::makeChain(40, 90), testing::makeWideTree(120, 30)}) {
        // A few more clips: the first one retimed and resampled (different lengths).
        m.clips.push_back(resampleClip(m.clips[0], 20.0f));
        m.clips.push_back(trimClip(m.clips[0], 0.1f, 0.6f));
        m.clips.push_back(trimClip(m.clips[0], 0.0f, 0.0f));  // one pose: an additive reference
        testing::addMorphs(m, 12);  // morph weights follow the current motion
        Controller c(m);
        const int32_t walkRun = c.addBlendSpace(BlendSpace1D({{0, 1.0f}, {2, 3.0f}}));
        const int32_t plane = c.addBlendSpace(BlendSpace2D({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}, {0, {1, 1}}}));
        c.setMarkers(0, {{"step", 0.1f}, {"step", 0.5f}, {"end", m.clips[0].duration}});
        c.setMarkers(2, {{"half", 0.25f}});
        const int32_t upper = c.addLayer(LayerBlend::Override, maskFromSubtree(m.skeleton, 2));
        const int32_t add = c.addLayer(LayerBlend::Additive);
        c.setRootMotion(RootMotion::InPlace);
        Animator anim(m);
        AnimEvent events[8];
        CompressSettings settings;
        settings.tolerance = 1e-3f;
        settings.measureVertices = false;
        settings.refinePasses = 0;
        Result<CompressedClipSet> set = compressed ? compressClips(m, settings) : Result<CompressedClipSet>(CompressedClipSet{});
        ASSERT_TRUE(set) << set.error().message;
        if (compressed) {
            c.setCompressedClips(&set.value());
            ASSERT_NE(c.compressedClips(), nullptr);
            for (size_t k = 0; k < m.clips.size(); ++k) ASSERT_NE(set->clip(static_cast<int32_t>(k)), nullptr) << "clip " << k;
        }

        const long before = testing::allocations();
        c.play(MotionSource::blendSpace(walkRun));
        c.playLayer(upper, MotionSource::clip(1), ClipTiming{1.0f, LoopMode::PingPong});
        c.playAdditive(add, 0, 3);
        size_t seen = 0;
        for (int tick = 0; tick < 600; ++tick) {
            c.setBlendParameter(walkRun, 1.0f + 2.0f * static_cast<float>(tick % 100) / 100.0f);
            c.setBlendParameter(plane, 0.01f * static_cast<float>(tick % 120), 0.3f);
            if (tick == 100) c.crossFadeTo(MotionSource::clip(1), 0.3f, FadeMode::Frozen, Ease{EaseCurve::SmoothStep});
            if (tick == 110) c.crossFadeTo(MotionSource::blendSpace(plane), 0.5f);  // interrupts
            if (tick == 300) c.setLayerWeight(upper, 0.3f, 0.5f);
            if (tick == 200) c.crossFadeAdditive(add, 1, 3, 0.4f, FadeMode::Frozen, Ease{EaseCurve::CubicOut});
            if (tick == 215) c.crossFadeAdditive(add, 2, 0, 0.3f);  // interrupts
            if (tick == 350) c.crossFadeLayer(upper, MotionSource::blendSpace(plane), 0.25f, FadeMode::Frozen);
            if (tick == 400) c.play(MotionSource::clip(2), ClipTiming{-1.0f, LoopMode::Loop});
            if (tick == 450) c.seekPhase(0.3f);
            c.update(1.0 / 60.0);
            ASSERT_TRUE(c.evaluate(anim));
            seen += c.events(events);
        }
        EXPECT_EQ(testing::allocations() - before, 0) << m.path;
        EXPECT_GT(seen, 0u) << m.path;
    }
}

TEST(PerTick, ControllerAllocatesNothing) { expectNoAllocationPerTick(false); }

TEST(PerTick, ControllerPlayingCompressedClipsAllocatesNothing) { expectNoAllocationPerTick(true); }

}  // namespace
}  // namespace rig
