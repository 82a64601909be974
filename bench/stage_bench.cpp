// The per-tick work split into its stages, each timed alone on the same model at 60 ticks per
// second: sampling (SamplingJob, by the clip's tracks or by its SamplingPlan), local->model (LocalToModelJob, as the Animator runs it),
// the palettes (SkinningMatrixJob per skin), the whole Animator::evaluate, and what
// `rigview bench` times (Controller::update + Controller::evaluate). One iteration is one
// character-tick.
// Run: build/bench/stage_bench [benchmark flags] [MODEL...] (default: BCN_Epileptic and
// animation_with_skeleton.fbx from assimp-testmodels).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "anim/control/controller.h"
#include "anim/runtime/local_to_model_job.h"
#include "anim/runtime/sampling_job.h"
#include "anim/runtime/skinning_matrix_job.h"
#include "anim/control/layer_clock.h"
#include "anim/runtime/pose.h"
#include "import/import.h"

namespace rig {
namespace {

// Clip time at 60 ticks per second, looping over the first clip.
struct Ticker {
    LayerClock clock;
    explicit Ticker(const Model& m) { clock.start(m.clips[0].duration, 0.0, 1.0f, LoopMode::Loop, 0); }
    float next() {
        clock.advance(1.0 / 60.0);
        return static_cast<float>(clock.time());
    }
};

void perJoint(benchmark::State& state, const Model& m) {
    const double joints = static_cast<double>(m.skeleton.size());
    state.counters["ns_per_joint"] = benchmark::Counter(joints * static_cast<double>(state.iterations()),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void sample(benchmark::State& state, const Model& m, RotationBlend blend, bool planned = false) {
    const Skeleton& sk = m.skeleton;
    std::vector<Transform> local = sk.bindLocalSqt;
    std::vector<uint32_t> cursors(3 * m.clips[0].tracks.size(), 0);
    Ticker tick(m);
    SamplingJob job;
    job.clip = &m.clips[0];
    job.bindLocal = sk.bindLocalSqt;
    job.cursors = cursors;
    job.local = local;
    job.blend = blend;
    const SamplingPlan plan = buildSamplingPlan(m.clips[0]);
    if (planned) job.plan = &plan;
    for (auto _ : state) {
        job.time = tick.next();
        job.run();
        benchmark::DoNotOptimize(local.data());
    }
    perJoint(state, m);
}

// The masked form the Animator runs: nodes without a track keep the file's exact matrix.
void localToModel(benchmark::State& state, const Model& m, bool levels, int form = 2) {
    const Skeleton& sk = m.skeleton;
    std::vector<Transform> local = sk.bindLocalSqt;
    std::vector<glm::mat4> world(sk.size());
    std::vector<uint8_t> use(sk.size(), 0);
    for (size_t i = 0; i < sk.size(); ++i) use[i] = m.clips[0].trackOfNode[i] >= 0;
    const JointOrder order(sk.parent);
    LocalToModelJob job;
    job.parent = sk.parent;
    job.local = local;
    job.bindLocal = sk.bindLocal;
    job.useLocal = use;
    job.model = world;
    if (levels) job.order = &order;
    if (form == 0) job.bindLocal = {}, job.useLocal = {};  // sampled poses only
    if (form == 1) job.local = {}, job.useLocal = {};      // the file's matrices only
    for (auto _ : state) {
        job.run();
        benchmark::DoNotOptimize(world.data());
    }
    perJoint(state, m);
}

void palettes(benchmark::State& state, const Model& m) {
    const Skeleton& sk = m.skeleton;
    std::vector<glm::mat4> world = sk.bindModel;
    std::vector<SkinningMatrixJob> jobs;
    std::vector<std::vector<glm::mat4>> out;
    // One job per distinct skin (joints and inverse binds), as the Animator runs them while
    // the meshes bound to a skin share its palette (BCN_Epileptic's glTF: one for three meshes).
    std::vector<const Skin*> skins;
    for (const Mesh& mesh : m.meshes) {
        if (!mesh.skinned || std::any_of(skins.begin(), skins.end(), [&](const Skin* s) {
                return s->joints == mesh.skin.joints && s->inverseBind == mesh.skin.inverseBind;
            })) {
            continue;
        }
        skins.push_back(&mesh.skin);
        out.emplace_back(mesh.skin.joints.size());
    }
    size_t k = 0;
    for (const Skin* skin : skins) {
        const Skin& s = *skin;
        SkinningMatrixJob job;
        job.model = world;
        job.joints = s.joints;
        job.inverseBind = s.inverseBind;
        job.palette = out[k++];
        jobs.push_back(job);
    }
    for (auto _ : state) {
        for (const SkinningMatrixJob& j : jobs) j.run();
        benchmark::DoNotOptimize(out.data());
    }
    perJoint(state, m);
}

void evaluate(benchmark::State& state, const Model& m) {
    Animator anim(m);
    Ticker tick(m);
    for (auto _ : state) {
        anim.evaluate(0, tick.next());
        benchmark::DoNotOptimize(anim.palette().data());
    }
    perJoint(state, m);
}

void controller(benchmark::State& state, const Model& m) {
    Controller c(m);
    c.play(MotionSource::clip(0));
    Animator anim(m);
    for (auto _ : state) {
        c.update(1.0 / 60.0);
        c.evaluate(anim);
        benchmark::DoNotOptimize(anim.palette().data());
    }
    perJoint(state, m);
}

}  // namespace
}  // namespace rig

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    std::vector<std::string> files(argv + 1, argv + argc);
    if (files.empty()) {
        files = {"/usr/share/assimp/models/X/BCN_Epileptic.X", "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx"};
    }
    std::vector<std::unique_ptr<rig::Model>> models;
    for (const std::string& f : files) {
        rig::Result<rig::Model> r = rig::importModel(f);
        if (!r || r.value().clips.empty()) {
            std::fprintf(stderr, "stage_bench: %s: %s\n", f.c_str(), r ? "no clip" : r.error().message.c_str());
            return 1;
        }
        models.push_back(std::make_unique<rig::Model>(std::move(r.value())));
        const rig::Model& m = *models.back();
        const std::string name = f.substr(f.find_last_of('/') + 1);
        benchmark::RegisterBenchmark((name + "/sample").c_str(), [&m](benchmark::State& s) { rig::sample(s, m, rig::RotationBlend::Slerp); });
        benchmark::RegisterBenchmark((name + "/sample_plan").c_str(), [&m](benchmark::State& s) { rig::sample(s, m, rig::RotationBlend::Slerp, true); });
        benchmark::RegisterBenchmark((name + "/sample_nlerp").c_str(), [&m](benchmark::State& s) { rig::sample(s, m, rig::RotationBlend::Nlerp); });
        benchmark::RegisterBenchmark((name + "/local_to_model").c_str(), [&m](benchmark::State& s) { rig::localToModel(s, m, false); });
        benchmark::RegisterBenchmark((name + "/local_to_model_levels").c_str(), [&m](benchmark::State& s) { rig::localToModel(s, m, true); });
        benchmark::RegisterBenchmark((name + "/local_to_model_sqt").c_str(), [&m](benchmark::State& s) { rig::localToModel(s, m, true, 0); });
        benchmark::RegisterBenchmark((name + "/local_to_model_matrices").c_str(), [&m](benchmark::State& s) { rig::localToModel(s, m, true, 1); });
        benchmark::RegisterBenchmark((name + "/palettes").c_str(), [&m](benchmark::State& s) { rig::palettes(s, m); });
        benchmark::RegisterBenchmark((name + "/evaluate").c_str(), [&m](benchmark::State& s) { rig::evaluate(s, m); });
        benchmark::RegisterBenchmark((name + "/controller").c_str(), [&m](benchmark::State& s) { rig::controller(s, m); });
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
