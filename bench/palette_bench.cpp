// The per-tick palette update (sample -> local->model -> palette) at 60 ticks per second,
// on real rigs from assimp-testmodels and on synthetic ones. One benchmark iteration is one
// character-tick. Run: build/bench/palette_bench (see docs/performance.md).
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/ik.h"
#include "anim/control/layer_clock.h"
#include "anim/runtime/pose.h"
#include "import/import.h"
#include "support/rigs.h"

namespace rig {
namespace {

void tickLoop(benchmark::State& state, const Model& model, RotationBlend blend = RotationBlend::Slerp) {
    Animator anim(model);
    anim.setRotationBlend(blend);
    LayerClock clock;
    const int32_t clip = model.clips.empty() ? -1 : 0;
    clock.start(clip >= 0 ? model.clips[0].duration : 0.0, 0.0, 1.0f, LoopMode::Loop, 0);
    for (auto _ : state) {
        clock.advance(1.0 / 60.0);
        anim.evaluate(clip, static_cast<float>(clock.time()));
        benchmark::DoNotOptimize(anim.palette().data());
    }
    const double joints = static_cast<double>(model.skeleton.size());
    state.counters["joints"] = joints;
    state.counters["ns_per_joint"] =
        benchmark::Counter(joints * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate |
                                                                                 benchmark::Counter::kInvert);
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(joints));
}

void realFile(benchmark::State& state, const std::string& rel) {
    static std::vector<std::unique_ptr<Model>> cache;
    Result<Model> r = importModel("/usr/share/assimp/models/" + rel);
    if (!r) {
        state.SkipWithError(r.error().message.c_str());
        return;
    }
    cache.push_back(std::make_unique<Model>(std::move(r.value())));
    tickLoop(state, *cache.back());
}

void BM_BcnEpileptic(benchmark::State& s) { realFile(s, "X/BCN_Epileptic.X"); }
void BM_AnimationWithSkeletonFbx(benchmark::State& s) { realFile(s, "FBX/animation_with_skeleton.fbx"); }
void BM_Testwuson(benchmark::State& s) { realFile(s, "X/Testwuson.X"); }
void BM_Bvh0101(benchmark::State& s) { realFile(s, "BVH/01_01.bvh"); }
BENCHMARK(BM_BcnEpileptic);
BENCHMARK(BM_AnimationWithSkeletonFbx);
BENCHMARK(BM_Testwuson);
BENCHMARK(BM_Bvh0101);

// Synthetic rigs: T, R and S keys on every joint (30 keys per track).
void BM_SyntheticChain(benchmark::State& s) {
    const Model m = testing::makeChain(static_cast<int>(s.range(0)), 30);
    tickLoop(s, m);
}
BENCHMARK(BM_SyntheticChain)->Arg(16)->Arg(64)->Arg(256)->Arg(1024);

void BM_SyntheticWideTree(benchmark::State& s) {
    const Model m = testing::makeWideTree(static_cast<int>(s.range(0)), 30);
    tickLoop(s, m);
}
BENCHMARK(BM_SyntheticWideTree)->Arg(64)->Arg(1024);

void BM_SyntheticChainNlerp(benchmark::State& s) {
    const Model m = testing::makeChain(static_cast<int>(s.range(0)), 30);
    tickLoop(s, m, RotationBlend::Nlerp);
}
BENCHMARK(BM_SyntheticChainNlerp)->Arg(64)->Arg(1024);

// Key count: 64 joints, 30 / 300 / 3000 keys per track at 30 keys per second, played
// sequentially at 60 ticks per second. Cursors keep this flat.
void BM_KeysPerTrack(benchmark::State& s) {
    const Model m = testing::makeChain(64, static_cast<int>(s.range(0)));
    tickLoop(s, m);
}
BENCHMARK(BM_KeysPerTrack)->Arg(30)->Arg(300)->Arg(3000);

// Random seeks (scrubbing) on 3000 keys per track: binary search per channel.
void BM_RandomSeek3000Keys(benchmark::State& state) {
    const Model m = testing::makeChain(64, 3000);
    Animator anim(m);
    uint32_t x = 1;
    const float d = m.clips[0].duration;
    for (auto _ : state) {
        x = x * 1664525u + 1013904223u;
        anim.evaluate(0, d * static_cast<float>(x >> 8) / static_cast<float>(1u << 24));
        benchmark::DoNotOptimize(anim.palette().data());
    }
    state.SetItemsProcessed(state.iterations() * 64);
}
BENCHMARK(BM_RandomSeek3000Keys);

// Many instances: 1,000 characters of 50 joints sharing one model, each with its own clock
// phase; one iteration is one 60 Hz frame for all of them on one thread.
void BM_ThousandCharacters(benchmark::State& state) {
    const Model m = testing::makeWideTree(50, 60);
    std::vector<Animator> anims;
    std::vector<LayerClock> clocks(1000);
    anims.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
        anims.emplace_back(m);
        clocks[i].start(m.clips[0].duration, 0.001 * i, 1.0f, LoopMode::Loop, 0);
    }
    for (auto _ : state) {
        for (int i = 0; i < 1000; ++i) {
            clocks[i].advance(1.0 / 60.0);
            anims[i].evaluate(0, static_cast<float>(clocks[i].time()));
        }
        benchmark::ClobberMemory();
    }
    state.counters["us_per_character"] =
        benchmark::Counter(1000.0 * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert) ;
}
BENCHMARK(BM_ThousandCharacters)->Unit(benchmark::kMillisecond);

// The demo character's tick without and with the IK stage (both legs and both arms as
// two-bone chains, found by name, targets moving): the cost IK adds per character-tick.
void demoTick(benchmark::State& state, bool withIk) {
    static std::unique_ptr<Model> demo;
    if (!demo) {
        Result<Model> r = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
        if (!r) {
            state.SkipWithError(r.error().message.c_str());
            return;
        }
        demo = std::make_unique<Model>(std::move(r.value()));
    }
    Animator anim(*demo);
    IkStage ik(demo->skeleton);
    for (const ChainGuess& g : findLimbChains(demo->skeleton)) ik.addTwoBone(g.start, g.mid, g.end);
    if (withIk) anim.setPostProcess(&ik);
    double time = 0.0;
    float phase = 0.0f;
    for (auto _ : state) {
        time = wrapTime(time + 1.0 / 60.0, demo->clips[0].duration);
        phase += 0.05f;
        for (TwoBoneChain& c : ik.twoBone()) {
            c.target = glm::vec3(demo->skeleton.bindModel[c.start][3]) + glm::vec3(0.2f * std::sin(phase), -0.5f, 0.3f);
        }
        anim.evaluate(0, static_cast<float>(time));
        benchmark::DoNotOptimize(anim.palette().data());
    }
    state.counters["chains"] = withIk ? static_cast<double>(ik.twoBone().size()) : 0.0;
}
void BM_DemoNoIk(benchmark::State& s) { demoTick(s, false); }
void BM_DemoFourIkChains(benchmark::State& s) { demoTick(s, true); }
BENCHMARK(BM_DemoNoIk);
BENCHMARK(BM_DemoFourIkChains);

}  // namespace
}  // namespace rig

BENCHMARK_MAIN();
