// `rigview bench`: the per-tick palette update timed, for one Controller or a crowd.
#include "app/commands.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/control/controller.h"
#include "anim/control/crowd.h"
#include "anim/control/playback_tick_job.h"
#include "anim/offline/compress.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/pose.h"
#include "app/command_util.h"
#include "app/exit_codes.h"
#include "util/json_out.h"
#include "util/version.h"

namespace rig {

namespace {

using nlohmann::json;
using cmd::fmt;
using cmd::load;
using cmd::printError;
using cmd::resolveClip;
using cmd::term;
using cmd::warnNonFinite;
using cmd::writeFile;

// The clips' memory: the shared clip data (plain, or the compressed set) and what each
// instance keeps to play it, per instance and for all of them.
struct ClipMemory {
    size_t shared = 0, perInstance = 0, total = 0;
    double maxErrorMm = 0.0;
};
ClipMemory clipMemory(const Model& model, const CompressedClipSet* compressed, size_t perInstance, size_t instances) {
    ClipMemory m;
    if (compressed) {
        m.shared = compressed->byteSize();
        for (size_t c = 0; c < model.clips.size(); ++c) {
            if (!compressed->clip(static_cast<int32_t>(c))) m.shared += clipByteSize(model.clips[c]);  // plays plain
        }
        m.maxErrorMm = compressed->maxError() * 1e3 * cmd::metresPerModelUnit(model);
    } else {
        for (const Clip& c : model.clips) m.shared += clipByteSize(c);
    }
    m.perInstance = perInstance;
    m.total = m.shared + perInstance * instances;
    return m;
}

void addClipMemory(json& j, const Model& model, const CompressedClipSet* compressed, size_t perInstance, size_t instances) {
    const ClipMemory m = clipMemory(model, compressed, perInstance, instances);
    j["compressed"] = compressed != nullptr;
    j["clip_bytes"] = m.total;
    j["clip_bytes_shared"] = m.shared;
    j["clip_bytes_per_instance"] = m.perInstance;
    if (compressed) j["max_error_mm"] = m.maxErrorMm;
}

void printClipMemory(const Model& model, const CompressedClipSet* compressed, size_t perInstance, size_t instances) {
    const ClipMemory m = clipMemory(model, compressed, perInstance, instances);
    std::cout << "  clips " << (compressed ? "compressed (max error " + fmt(m.maxErrorMm, "%.4f") + " mm)" : std::string("plain"))
              << ": " << m.shared << " bytes shared, " << m.perInstance << " per instance, " << m.total << " in all\n";
}

// `bench --instances N --threads T`: frames of a Crowd (N Animators sharing the model, the
// clip at N phases) on T threads; the median frame gives ms per frame.
int runCrowdBench(const BenchOptions& o, const Model& model, int32_t clip, const CompressedClipSet* compressed) {
    Crowd crowd(model, static_cast<size_t>(o.instances), clip, static_cast<unsigned>(o.threads));
    crowd.setCompressedClips(compressed);
    // The playback pipeline as the viewer runs it: one controller's clock, the crowd posed at it.
    Controller controller(model);
    if (clip >= 0) controller.play(MotionSource::clip(clip));
    PlaybackTickJob tick;
    tick.dt = 1.0 / 60.0;
    tick.controller = &controller;
    using Clock = std::chrono::steady_clock;
    const int64_t frames = std::max<int64_t>(3, std::min<int64_t>(o.ticks, 200000000 / std::max<int64_t>(1, o.instances * static_cast<int64_t>(model.skeleton.size()))));
    std::vector<double> perFrame;
    perFrame.reserve(static_cast<size_t>(frames));
    for (int w = 0; w < 3; ++w) {  // warm-up
        tick.run();
        crowd.update(motionTime(controller));
    }
    const std::clock_t cpuStart = std::clock();
    for (int64_t f = 0; f < frames; ++f) {
        const auto start = Clock::now();
        tick.run();
        crowd.update(motionTime(controller));
        perFrame.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    // The process's CPU time (all threads) per frame: on a host shared with other processes a
    // frame's wall time also holds the slices the scheduler gave them, more of them the longer
    // the frame; the CPU time does not.
    const double cpuMs = 1e3 * static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC / static_cast<double>(frames);
    std::nth_element(perFrame.begin(), perFrame.begin() + perFrame.size() / 2, perFrame.end());
    const double ms = perFrame[perFrame.size() / 2];
    const size_t joints = model.skeleton.size();
    const double nsTick = ms * 1e6 / static_cast<double>(o.instances);
    const double nsJoint = joints ? nsTick / static_cast<double>(joints) : 0.0;
    if (o.json) {
        json j{{"rigview_version", rigviewVersion()}, {"instances", o.instances}, {"threads", o.threads}, {"joints", joints},
               {"ms_per_frame", ms}, {"cpu_ms_per_frame", cpuMs}, {"ns_per_tick", nsTick}, {"ns_per_joint", nsJoint},
               {"instance_bytes", crowd.bytesPerInstance()}, {"isa", isa::name()}};
        addClipMemory(j, model, compressed, crowd.clipStateBytesPerInstance(), static_cast<size_t>(o.instances));
        jsonout::Stats st;
        std::cout << jsonout::dump(std::move(j), -1, st) << "\n";
        warnNonFinite(o.model, st.nonFinite);
    } else {
        std::cout << term(model.path) << ": clip " << (clip >= 0 ? "'" + term(model.clips[clip].name) + "'" : "(bind pose)")
                  << ", " << o.instances << " instances x " << joints << " nodes on " << o.threads << " thread(s), "
                  << frames << " frames\n"
                  << "  median " << fmt(ms, "%.3f") << " ms per frame, " << fmt(nsTick, "%.1f") << " ns per instance, "
                  << fmt(nsJoint, "%.2f") << " ns per joint (" << isa::name() << "), " << fmt(cpuMs, "%.3f")
                  << " ms of CPU per frame\n"
                  << "  " << crowd.bytesPerInstance() << " bytes per instance\n";
        printClipMemory(model, compressed, crowd.clipStateBytesPerInstance(), static_cast<size_t>(o.instances));
    }
    return exitcode::kOk;
}

}  // namespace

int runBench(const BenchOptions& o) {
    if (o.ticks < 1) {
        printError("--ticks must be at least 1");
        return exitcode::kUsage;
    }
    if (o.instances == 0 && o.threads != 1) {
        printError("--threads needs --instances");
        return exitcode::kUsage;
    }
    if (o.instances < 0 || o.instances > 1000000) {
        printError("--instances must be between 1 and 1000000");
        return exitcode::kUsage;
    }
    if (o.threads < 1 || o.threads > 256) {
        printError("--threads must be between 1 and 256");
        return exitcode::kUsage;
    }
    Model model;
    if (!load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    int32_t clip = -1;
    if (!resolveClip(model, o.clip, clip)) return exitcode::kUsage;
    std::unique_ptr<CompressedClipSet> compressed;
    if (!cmd::compressedClipsFor(model, o.compressed, compressed)) return exitcode::kUsage;
    if (o.instances > 0) return runCrowdBench(o, model, clip, compressed.get());
    // The playback pipeline's tick as the viewer runs it: the clip plays on the controller's clock.
    Controller controller(model);
    controller.setCompressedClips(compressed.get());
    if (clip >= 0) controller.play(MotionSource::clip(clip));
    Animator anim(model);
    PlaybackTickJob tick;
    tick.dt = 1.0 / 60.0;
    tick.controller = &controller;
    tick.animator = &anim;
    using Clock = std::chrono::steady_clock;
    // Batches of ticks, each timed as a whole (the clock read costs more than a small rig's
    // tick); the median batch gives ns per tick.
    constexpr int64_t kBatch = 32;
    const int64_t batches = std::max<int64_t>(1, (o.ticks + kBatch - 1) / kBatch);
    std::vector<double> perTick;
    perTick.reserve(static_cast<size_t>(batches));
    for (int64_t w = 0; w < kBatch * 4; ++w) tick.run();  // warm-up
    for (int64_t b = 0; b < batches; ++b) {
        const auto start = Clock::now();
        for (int64_t k = 0; k < kBatch; ++k) tick.run();
        const auto end = Clock::now();
        perTick.push_back(std::chrono::duration<double, std::nano>(end - start).count() / kBatch);
    }
    std::nth_element(perTick.begin(), perTick.begin() + perTick.size() / 2, perTick.end());
    const double ns = perTick[perTick.size() / 2];
    const size_t joints = model.skeleton.size();
    const double perJoint = joints ? ns / static_cast<double>(joints) : 0.0;
    if (o.json) {
        json j{{"rigview_version", rigviewVersion()}, {"joints", joints}, {"ns_per_tick", ns}, {"ns_per_joint", perJoint},
               {"isa", isa::name()}};
        if (compressed) addClipMemory(j, model, compressed.get(), controller.compressedStateBytes(), 1);
        jsonout::Stats st;
        std::cout << jsonout::dump(std::move(j), -1, st) << "\n";
        warnNonFinite(o.model, st.nonFinite);
    } else {
        std::cout << term(model.path) << ": clip " << (clip >= 0 ? "'" + term(model.clips[clip].name) + "'" : "(bind pose)")
                  << ", " << joints << " nodes, " << batches * kBatch << " ticks at 60 Hz\n"
                  << "  median " << fmt(ns, "%.1f") << " ns per tick, " << fmt(perJoint, "%.2f") << " ns per joint ("
                  << isa::name() << ")\n";
        if (compressed) printClipMemory(model, compressed.get(), controller.compressedStateBytes(), 1);
    }
    return exitcode::kOk;
}

}  // namespace rig
