// Sampling a clip: the plain SamplingJob on the imported keys against CompressedSamplingJob on
// the same clip compressed at 0.1 mm (anim/offline/compress; "NoDelta": without delta-coded
// channels), at 60 ticks per second through
// the clip (sequential playback, cursors kept). One iteration samples every track once.
// BM_*_Ratio times both samplers in one loop, alternating, and reports compressed / plain.
// Run: build/bench/compress_bench (see docs/compression.md).
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/compressed_sampling_job.h"
#include "anim/runtime/sampling_job.h"
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

// One sampler of a fixture's first clip, ticking at 60 Hz through it (cursors kept): the plain
// SamplingJob by plan (as the Animator runs it), or CompressedSamplingJob through its cache.
class Sampler {
public:
    Sampler(const Fixture& f, Form form)
        : f_(f), form_(form), local_(f.model.skeleton.bindLocalSqt), cursors_(3 * f.model.clips[0].tracks.size(), 0),
          plan_(buildSamplingPlan(f.model.clips[0])) {
        cache_.reserve(f.compressed.tracks.size());
    }
    void tick() {
        const Clip& clip = f_.model.clips[0];
        const float length = clip.duration - clip.startTime;
        t_ += 1.0f / 60.0f;
        if (t_ > length) t_ -= length;
        if (form_ != Form::Plain) {
            CompressedSamplingJob job;
            job.clip = &f_.compressed;
            job.time = clip.startTime + t_;
            job.bindLocal = f_.model.skeleton.bindLocalSqt;
            job.cache = &cache_;
            job.local = local_;
            job.run();
        } else {
            SamplingJob job;
            job.clip = &clip;
            job.time = clip.startTime + t_;
            job.bindLocal = f_.model.skeleton.bindLocalSqt;
            job.cursors = cursors_;
            job.local = local_;
            job.plan = &plan_;
            job.run();
        }
        benchmark::DoNotOptimize(local_.data());
        benchmark::ClobberMemory();
    }

private:
    const Fixture& f_;
    Form form_;
    std::vector<Transform> local_;
    std::vector<uint32_t> cursors_;
    CompressedSamplingCache cache_;
    const SamplingPlan plan_;
    float t_ = 0.0f;
};

template <Form form>
void sampleLoop(benchmark::State& state, const std::string& key) {
    constexpr bool Compressed = form != Form::Plain;
    const Fixture* f = fixture(key, form != Form::PlainCodes);
    if (!f) {
        state.SkipWithError("no model or clip");
        return;
    }
    Sampler sampler(*f, form);
    for (auto _ : state) sampler.tick();
    const Clip& clip = f->model.clips[0];
    state.counters["tracks"] = static_cast<double>(clip.tracks.size());
    if (Compressed) state.counters["table"] = static_cast<double>(f->compressed.frameTimes.size());
    if (Compressed) {
        state.counters["kept_keys"] = static_cast<double>(f->keptKeys);
        state.counters["bytes"] = static_cast<double>(f->bytes);
    }
    state.counters["ns_per_track"] = benchmark::Counter(static_cast<double>(clip.tracks.size()) * state.iterations(),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The ratio compressed / plain measured in one loop: each iteration runs 256 ticks of the
// plain sampler, then 256 of the compressed one (the default, or plain codes only), each
// chunk timed on its own, so that the host's slow and fast phases (1.5-1.9x here) fall on
// both alike. Counters: plain_ns and compressed_ns per tick, and their ratio.
template <Form form>
void ratioLoop(benchmark::State& state, const std::string& key) {
    const Fixture* f = fixture(key, form != Form::PlainCodes);
    if (!f) {
        state.SkipWithError("no model or clip");
        return;
    }
    Sampler plain(*f, Form::Plain), compressed(*f, form);
    constexpr int kChunk = 256;
    using Clock = std::chrono::steady_clock;
    Clock::duration spent[2] = {};
    for (auto _ : state) {
        for (int side = 0; side < 2; ++side) {
            Sampler& s = side ? compressed : plain;
            const Clock::time_point start = Clock::now();
            for (int i = 0; i < kChunk; ++i) s.tick();
            spent[side] += Clock::now() - start;
        }
    }
    const double ticks = double(state.iterations()) * kChunk;
    const double ns[2] = {std::chrono::duration<double, std::nano>(spent[0]).count() / ticks,
                          std::chrono::duration<double, std::nano>(spent[1]).count() / ticks};
    state.counters["plain_ns"] = ns[0];
    state.counters["compressed_ns"] = ns[1];
    state.counters["ratio"] = ns[0] > 0.0 ? ns[1] / ns[0] : 0.0;
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

void BM_Bcn_Ratio(benchmark::State& s) { ratioLoop<Form::Compressed>(s, kBcn); }
void BM_Bcn_RatioNoDelta(benchmark::State& s) { ratioLoop<Form::PlainCodes>(s, kBcn); }
void BM_Demo_Ratio(benchmark::State& s) { ratioLoop<Form::Compressed>(s, kDemo); }
void BM_Demo_RatioNoDelta(benchmark::State& s) { ratioLoop<Form::PlainCodes>(s, kDemo); }
void BM_Bvh0101_Ratio(benchmark::State& s) { ratioLoop<Form::Compressed>(s, kBvh); }
void BM_Bvh0101_RatioNoDelta(benchmark::State& s) { ratioLoop<Form::PlainCodes>(s, kBvh); }
void BM_Chain64_Ratio(benchmark::State& s) { ratioLoop<Form::Compressed>(s, "chain"); }
void BM_Chain64_RatioNoDelta(benchmark::State& s) { ratioLoop<Form::PlainCodes>(s, "chain"); }
void BM_Tree200_Ratio(benchmark::State& s) { ratioLoop<Form::Compressed>(s, "tree"); }
void BM_Tree200_RatioNoDelta(benchmark::State& s) { ratioLoop<Form::PlainCodes>(s, "tree"); }

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
BENCHMARK(BM_Bcn_Ratio);
BENCHMARK(BM_Bcn_RatioNoDelta);
BENCHMARK(BM_Demo_Ratio);
BENCHMARK(BM_Demo_RatioNoDelta);
BENCHMARK(BM_Bvh0101_Ratio);
BENCHMARK(BM_Bvh0101_RatioNoDelta);
BENCHMARK(BM_Chain64_Ratio);
BENCHMARK(BM_Chain64_RatioNoDelta);
BENCHMARK(BM_Tree200_Ratio);
BENCHMARK(BM_Tree200_RatioNoDelta);

}  // namespace
}  // namespace rig

BENCHMARK_MAIN();
