// Crowds: N characters of a 50-joint rig (makeChain: T, R and S keys on every joint) sharing
// one Model, posed each 60 Hz frame by rig::Crowd on 1 or 2 threads. One benchmark iteration
// is one frame of the whole crowd; Time is wall time, CPU the process's (all threads): on a
// host other processes share, a frame's wall time also holds their slices, the more the longer
// the frame, so compare crowd sizes by CPU. Run: build/bench/crowd_bench (see
// docs/performance.md).
#include <benchmark/benchmark.h>

#include "anim/control/crowd.h"
#include "support/rigs.h"

namespace rig {
namespace {

void crowdFrame(benchmark::State& state) {
    static const Model model = testing::makeChain(50, 30);
    const size_t instances = static_cast<size_t>(state.range(0));
    const unsigned threads = static_cast<unsigned>(state.range(1));
    Crowd crowd(model, instances, 0, threads);
    double t = 0.0;
    for (auto _ : state) {
        crowd.update(t += 1.0 / 60.0);
        benchmark::DoNotOptimize(crowd.gpuRows().data());
    }
    const double joints = static_cast<double>(model.skeleton.size() * instances);
    state.counters["instances"] = static_cast<double>(instances);
    state.counters["threads"] = threads;
    state.counters["ns_per_joint"] = benchmark::Counter(joints * static_cast<double>(state.iterations()),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(crowdFrame)
    ->ArgNames({"characters", "threads"})
    ->ArgsProduct({{1, 1000, 10000}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
}  // namespace rig

BENCHMARK_MAIN();
