// Sampling a clip: the plain SamplingJob on the imported keys against CompressedSamplingJob on
// the same clip compressed at 0.1 mm (anim/offline/compress), at 60 ticks per second through
// the clip (sequential playback, cursors kept). One iteration samples every track once.
// Run: build/bench/compress_bench (see README "Animation compression").
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "anim/jobs/compressed_sampling_job.h"
#include "anim/jobs/sampling_job.h"
#include "anim/offline/compress.h"
#include "import/import.h"
#include "support/rigs.h"

namespace rig {
namespace {

struct Fixture {
    Model model;
    CompressedClip compressed;
};

// Each model once, its first clip compressed once (at 0.1 mm).
const Fixture* fixture(const std::string& key) {
    static std::map<std::string, std::unique_ptr<Fixture>> cache;
    auto it = cache.find(key);
    if (it != cache.end()) return it->second.get();
    auto f = std::make_unique<Fixture>();
    if (key == "chain") {
        f->model = rig::testing::makeChain(64, 300);
    } else if (key == "tree") {
        f->model = rig::testing::makeWideTree(200, 300);
    } else {
        Result<Model> r = importModel(key);
        if (!r || r->clips.empty()) return nullptr;
        f->model = std::move(r.value());
    }
    CompressSettings s;
    s.tolerance = 1e-4f;
    Result<CompressionResult> c = compressClip(f->model, f->model.clips[0], s);
    if (!c) return nullptr;
    f->compressed = std::move(c->clip);
    return (cache[key] = std::move(f)).get();
}

template <bool Compressed>
void sampleLoop(benchmark::State& state, const std::string& key) {
    const Fixture* f = fixture(key);
    if (!f) {
        state.SkipWithError("no model or clip");
        return;
    }
    const Model& m = f->model;
    const Clip& clip = m.clips[0];
    std::vector<Transform> local(m.skeleton.bindLocalSqt);
    std::vector<uint32_t> cursors(3 * clip.tracks.size(), 0);
    CompressedSamplingCache cache;
    cache.reserve(f->compressed.tracks.size());
    const float start = clip.startTime, length = clip.duration - clip.startTime;
    float t = 0.0f;
    for (auto _ : state) {
        t += 1.0f / 60.0f;
        if (t > length) t -= length;
        if constexpr (Compressed) {
            CompressedSamplingJob job;
            job.clip = &f->compressed;
            job.time = start + t;
            job.bindLocal = m.skeleton.bindLocalSqt;
            job.cache = &cache;
            job.local = local;
            job.run();
        } else {
            SamplingJob job;
            job.clip = &clip;
            job.time = start + t;
            job.bindLocal = m.skeleton.bindLocalSqt;
            job.cursors = cursors;
            job.local = local;
            job.run();
        }
        benchmark::DoNotOptimize(local.data());
        benchmark::ClobberMemory();
    }
    state.counters["tracks"] = static_cast<double>(clip.tracks.size());
    state.counters["ns_per_track"] = benchmark::Counter(static_cast<double>(clip.tracks.size()) * state.iterations(),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

const std::string kBcn = "/usr/share/assimp/models/X/BCN_Epileptic.X";
const std::string kDemo = RIGVIEW_SOURCE_DIR "/assets/demo/rigview_demo.gltf";
const std::string kBvh = "/usr/share/assimp/models/BVH/01_01.bvh";

void BM_Bcn_Plain(benchmark::State& s) { sampleLoop<false>(s, kBcn); }
void BM_Bcn_Compressed(benchmark::State& s) { sampleLoop<true>(s, kBcn); }
void BM_Demo_Plain(benchmark::State& s) { sampleLoop<false>(s, kDemo); }
void BM_Demo_Compressed(benchmark::State& s) { sampleLoop<true>(s, kDemo); }
void BM_Bvh0101_Plain(benchmark::State& s) { sampleLoop<false>(s, kBvh); }
void BM_Bvh0101_Compressed(benchmark::State& s) { sampleLoop<true>(s, kBvh); }
void BM_Chain64_Plain(benchmark::State& s) { sampleLoop<false>(s, "chain"); }
void BM_Chain64_Compressed(benchmark::State& s) { sampleLoop<true>(s, "chain"); }
void BM_Tree200_Plain(benchmark::State& s) { sampleLoop<false>(s, "tree"); }
void BM_Tree200_Compressed(benchmark::State& s) { sampleLoop<true>(s, "tree"); }

BENCHMARK(BM_Bcn_Plain);
BENCHMARK(BM_Bcn_Compressed);
BENCHMARK(BM_Demo_Plain);
BENCHMARK(BM_Demo_Compressed);
BENCHMARK(BM_Bvh0101_Plain);
BENCHMARK(BM_Bvh0101_Compressed);
BENCHMARK(BM_Chain64_Plain);
BENCHMARK(BM_Chain64_Compressed);
BENCHMARK(BM_Tree200_Plain);
BENCHMARK(BM_Tree200_Compressed);

}  // namespace
}  // namespace rig

BENCHMARK_MAIN();
