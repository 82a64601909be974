// Crowds drawn instanced, headless (EGL; Mesa's llvmpipe rasterizes on the CPU, so these are
// CPU numbers, not a GPU's): N instances of a real rig on a grid, framed whole, at 800x600
// with 4x MSAA. One iteration = one frame: Crowd::update on 2 threads is timed apart
// ("update_ms"); the iteration time is the cull + upload + one instanced draw per mesh, up
// to glFinish. Run: build/bench/crowd_draw_bench (see docs/performance.md).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "anim/control/crowd.h"
#include "import/import.h"
#include "platform/headless.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render/renderer.h"

namespace rig {
namespace {

const char* const kFiles[] = {RIGVIEW_SOURCE_DIR "/assets/demo/rigview_demo.gltf",
                              "/usr/share/assimp/models/X/BCN_Epileptic.X"};

void crowdDraw(benchmark::State& state) {
    static std::unique_ptr<HeadlessContext> context;
    if (!context) {
        auto c = HeadlessContext::create();
        if (!c) {
            state.SkipWithError(c.error().message.c_str());
            return;
        }
        context = std::move(c.value());
    }
    Result<Model> model = importModel(kFiles[state.range(0)]);
    if (!model) {
        state.SkipWithError(model.error().message.c_str());
        return;
    }
    const Model& m = model.value();
    auto gpu = GpuModel::create(m);
    auto renderer = CrowdRenderer::create();
    auto target = OffscreenTarget::create(800, 600, 4);
    if (!gpu || !renderer || !target) {
        state.SkipWithError("GL set-up failed");
        return;
    }
    const size_t n = static_cast<size_t>(state.range(1));
    Crowd crowd(m, n, m.clips.empty() ? -1 : 0, 2);
    const Bounds one = animatedBounds(m, m.clips.empty() ? -1 : 0, 12);
    const glm::vec3 e = one.max - one.min;
    const std::vector<glm::vec3> offsets = crowdGrid(n, 1.25f * std::max(e.x, e.z), false);
    OrbitCamera cam;
    cam.frame(crowdBounds(one, offsets), 800.0f / 600.0f);
    const ViewOptions view;
    (*target)->bind();
    double t = 0.0, updateMs = 0.0;
    size_t drawn = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const auto u0 = std::chrono::steady_clock::now();
        crowd.update(t += 1.0 / 60.0);
        updateMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - u0).count();
        state.ResumeTiming();
        drawn = (*renderer)->draw(**gpu, crowd, offsets, one, cam, view, 800, 600).drawn;
        glFinish();
    }
    state.counters["instances"] = static_cast<double>(n);
    state.counters["drawn"] = static_cast<double>(drawn);
    state.counters["update_ms"] = updateMs / static_cast<double>(std::max<int64_t>(state.iterations(), 1));
    state.SetLabel(std::string(kFiles[state.range(0)]).substr(std::string(kFiles[state.range(0)]).rfind('/') + 1));
}

BENCHMARK(crowdDraw)
    ->ArgNames({"model", "instances"})
    ->ArgsProduct({{0, 1}, {1, 1000}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(1.0);

}  // namespace
}  // namespace rig

BENCHMARK_MAIN();
