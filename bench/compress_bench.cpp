// Sampling a clip: the plain SamplingJob on the imported keys against CompressedSamplingJob on
// the same clip compressed at 0.1 mm (anim/offline/compress; "NoDelta": without delta-coded
// channels), at 60 ticks per second through
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
    size_t keptKeys = 0, bytes = 0;
};

// Each model once, its first clip compressed once (at 0.1 mm), with delta-coded channels where
// they are smaller (the default) or with plain codes only.
const Fixture* fixture(const std::string& key, bool deltaCoding) {
    static std::map<std::pair<std::string, bool>, std::unique_ptr<Fixture>> cache;
    auto it = cache.find({key, deltaCoding});
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
    s.deltaCoding = deltaCoding;
    Result<CompressionResult> c = compressClip(f->model, f->model.clips[0], s);
    if (!c) return nullptr;
    f->compressed = std::move(c->clip);
    f->keptKeys = c->keptKeys;
    f->bytes = c->compressedBytes;
    return (cache[{key, deltaCoding}] = std::move(f)).get();
}

enum class Form { Plain, Compressed, PlainCodes };

template <Form form>
void sampleLoop(benchmark::State& state, const std::string& key) {
    constexpr bool Compressed = form != Form::Plain;
    const Fixture* f = fixture(key, form != Form::PlainCodes);
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
    const SamplingPlan plan = buildSamplingPlan(clip);  // plain sampling as the Animator does it
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
            job.plan = &plan;
            job.run();
        }
        benchmark::DoNotOptimize(local.data());
        benchmark::ClobberMemory();
    }
    state.counters["tracks"] = static_cast<double>(clip.tracks.size());
    if (Compressed) state.counters["table"] = static_cast<double>(f->compressed.frameTimes.size());
    if (Compressed) {
        state.counters["kept_keys"] = static_cast<double>(f->keptKeys);
        state.counters["bytes"] = static_cast<double>(f->bytes);
    }
    state.counters["ns_per_track"] = benchmark::Counter(static_cast<double>(clip.tracks.size()) * state.iterations(),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

const std::string kBcn = "/usr/share/assimp/models/X/BCN_Epileptic.X";
const std::string kDemo = RIGVIEW_SOURCE_DIR "/assets/demo/rigview_demo.gltf";
const std::string kBvh = "/usr/share/assimp/models/BVH/01_01.bvh";

void BM_Bcn_Plain(benchmark::State& s) { sampleLoop<Form::Plain>(s, kBcn); }
void BM_Bcn_Compressed(benchmark::State& s) { sampleLoop<Form::Compressed>(s, kBcn); }
void BM_Bcn_CompressedNoDelta(benchmark::State& s) { sampleLoop<Form::PlainCodes>(s, kBcn); }
void BM_Demo_Plain(benchmark::State& s) { sampleLoop<Form::Plain>(s, kDemo); }
void BM_Demo_Compressed(benchmark::State& s) { sampleLoop<Form::Compressed>(s, kDemo); }
void BM_Demo_CompressedNoDelta(benchmark::State& s) { sampleLoop<Form::PlainCodes>(s, kDemo); }
void BM_Bvh0101_Plain(benchmark::State& s) { sampleLoop<Form::Plain>(s, kBvh); }
void BM_Bvh0101_Compressed(benchmark::State& s) { sampleLoop<Form::Compressed>(s, kBvh); }
void BM_Bvh0101_CompressedNoDelta(benchmark::State& s) { sampleLoop<Form::PlainCodes>(s, kBvh); }
void BM_Chain64_Plain(benchmark::State& s) { sampleLoop<Form::Plain>(s, "chain"); }
void BM_Chain64_Compressed(benchmark::State& s) { sampleLoop<Form::Compressed>(s, "chain"); }
void BM_Chain64_CompressedNoDelta(benchmark::State& s) { sampleLoop<Form::PlainCodes>(s, "chain"); }
void BM_Tree200_Plain(benchmark::State& s) { sampleLoop<Form::Plain>(s, "tree"); }
void BM_Tree200_Compressed(benchmark::State& s) { sampleLoop<Form::Compressed>(s, "tree"); }
void BM_Tree200_CompressedNoDelta(benchmark::State& s) { sampleLoop<Form::PlainCodes>(s, "tree"); }

BENCHMARK(BM_Bcn_Plain);
BENCHMARK(BM_Bcn_Compressed);
BENCHMARK(BM_Bcn_CompressedNoDelta);
BENCHMARK(BM_Demo_Plain);
BENCHMARK(BM_Demo_Compressed);
BENCHMARK(BM_Demo_CompressedNoDelta);
BENCHMARK(BM_Bvh0101_Plain);
BENCHMARK(BM_Bvh0101_Compressed);
BENCHMARK(BM_Bvh0101_CompressedNoDelta);
BENCHMARK(BM_Chain64_Plain);
BENCHMARK(BM_Chain64_Compressed);
BENCHMARK(BM_Chain64_CompressedNoDelta);
BENCHMARK(BM_Tree200_Plain);
BENCHMARK(BM_Tree200_Compressed);
BENCHMARK(BM_Tree200_CompressedNoDelta);

}  // namespace
}  // namespace rig

BENCHMARK_MAIN();
