#include "app/commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/control/clock.h"
#include "anim/control/controller.h"
#include "anim/control/crowd.h"
#include "anim/control/playback_tick_job.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "app/command_util.h"
#include "app/pose_json.h"
#include "app/exit_codes.h"
#include "anim/offline/clip_tools.h"
#include "anim/offline/ik_bake.h"
#include "app/machine_run.h"
#include "import/bvh_export.h"
#include "import/gltf_export.h"
#include "import/import.h"
#include "util/json_out.h"
#include "util/output_file.h"
#include "util/text.h"
#include "platform/import_worker.h"

namespace rig {

namespace {

using nlohmann::json;
using cmd::load;
using cmd::printError;
using cmd::resolveClip;

std::string fmt(double v, const char* f = "%.9g") {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

bool writeFile(const std::string& path, const std::string& text) {
    std::string error;
    if (writeOutputFile(path, text, error)) return true;
    printError(error);
    return false;
}

// One warning line when a JSON output held NaN / Inf (written as null).
void warnNonFinite(const std::string& what, size_t count) {
    if (count == 0) return;
    printError(what + ": warning: " + std::to_string(count) +
               " non-finite values (NaN or infinite) written as null");
}

std::string term(const std::string& s) { return text::forTerminal(s); }

struct ClipSummary {
    size_t channels = 0, tKeys = 0, rKeys = 0, sKeys = 0;
};

ClipSummary summarize(const Clip& c) {
    ClipSummary s;
    s.channels = c.tracks.size();
    for (const Track& t : c.tracks) {
        s.tKeys += t.translation.count;
        s.rKeys += t.rotation.count;
        s.sKeys += t.scale.count;
    }
    return s;
}

// "centimetre (FBX UnitScaleFactor 1), scaled by 0.01 to metres".
std::string unitsLine(const Units& u) {
    if (u.file.empty()) return "not given by the format; the file's numbers are kept (scale 1)";
    std::string line = u.file + " (" + u.source + ")";
    if (u.scaleApplied != 1.0) {
        return line + ", scaled by " + fmt(u.scaleApplied, "%g") + " to metres" +
               (u.appliedAtRoot ? " (at the root: the file's nodes carry the inverse scale)" : " (baked in)");
    }
    if (u.metresPerUnit == 1.0) return line + ", already metres (scale 1)";
    return line + ", the file's numbers kept (--units file, scale 1)";
}

// Names of the clips with a morph track for mesh m.
std::vector<std::string> clipsAnimatingMorphs(const Model& model, size_t m) {
    std::vector<std::string> names;
    for (const Clip& c : model.clips) {
        for (const MorphTrack& t : c.morphTracks) {
            if (t.mesh == static_cast<int32_t>(m)) {
                names.push_back(c.name);
                break;
            }
        }
    }
    return names;
}

const char* interpolationName(WeightInterpolation i) {
    return i == WeightInterpolation::Step ? "step" : i == WeightInterpolation::CubicSpline ? "cubicspline" : "linear";
}

json morphInfoJson(const Model& model, size_t m) {
    const Mesh& mesh = model.meshes[m];
    json targets = json::array();
    for (size_t t = 0; t < mesh.morphTargets.size(); ++t) {
        targets.push_back({{"name", mesh.morphTargets[t].name},
                           {"default_weight", t < mesh.morphDefaultWeights.size() ? mesh.morphDefaultWeights[t] : 0.0f},
                           {"normals", !mesh.morphTargets[t].normalDeltas.empty()}});
    }
    return {{"targets", targets}, {"animated_by", clipsAnimatingMorphs(model, m)}};
}

}  // namespace

int runInfo(const InfoOptions& o) {
    Model model;
    if (!load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    const std::vector<int32_t> joints = model.jointNodes();
    size_t vertices = 0, triangles = 0, skinned = 0;
    uint32_t maxInfl = 0;
    for (const Mesh& m : model.meshes) {
        vertices += m.vertexCount();
        triangles += m.triangleCount();
        skinned += m.skinned ? 1 : 0;
        maxInfl = std::max(maxInfl, m.weightStats.maxInfluences);
    }
    if (o.json) {
        json j;
        j["file"] = model.path;
        j["nodes"] = model.skeleton.size();
        j["joints"] = joints.size();
        j["vertices"] = vertices;
        j["triangles"] = triangles;
        j["max_influences"] = maxInfl;
        j["units"] = {{"file_unit", model.units.file.empty() ? json(nullptr) : json(model.units.file)},
                      {"metres_per_unit", model.units.metresPerUnit > 0.0 ? json(model.units.metresPerUnit) : json(nullptr)},
                      {"scale_applied", model.units.scaleApplied},
                      {"applied_at_root", model.units.appliedAtRoot},
                      {"source", model.units.source},
                      {"output", model.units.scaleApplied != 1.0 || model.units.metresPerUnit == 1.0 ? "metres" : "file"}};
        j["meshes"] = json::array();
        for (const Mesh& m : model.meshes) {
            j["meshes"].push_back({{"name", m.name},
                                   {"node", model.skeleton.names[m.node]},
                                   {"vertices", m.vertexCount()},
                                   {"triangles", m.triangleCount()},
                                   {"skinned", m.skinned},
                                   {"joints", m.skin.joints.size()},
                                   {"max_influences", m.weightStats.maxInfluences}});
            j["meshes"].back()["morph"] = morphInfoJson(model, static_cast<size_t>(&m - model.meshes.data()));
        }
        j["clips"] = json::array();
        for (const Clip& c : model.clips) {
            const ClipSummary s = summarize(c);
            j["clips"].push_back({{"name", c.name},
                                  {"duration", c.duration},
                                  {"start", c.startTime},
                                  {"ticks_per_second", c.ticksPerSecond},
                                  {"sample_rate", c.sampleRate},
                                  {"channels", s.channels},
                                  {"keys", {{"translation", s.tKeys}, {"rotation", s.rKeys}, {"scale", s.sKeys}}}});
            json morphs = json::array();
            for (const MorphTrack& t : c.morphTracks) {
                morphs.push_back({{"mesh", model.meshes[t.mesh].name}, {"mesh_index", t.mesh}, {"targets", t.targets},
                                  {"keys", t.count}, {"interpolation", interpolationName(t.interpolation)}});
            }
            j["clips"].back()["morph_tracks"] = morphs;
        }
        j["added_animations"] = model.stats.retargetNotes;
        j["repairs"] = json::array();
        for (const ImportRepair& rep : model.stats.repairs) j["repairs"].push_back({{"code", rep.code}, {"what", rep.what}});
        if (!model.stats.formatLimitation.empty()) j["format_limitation"] = model.stats.formatLimitation;
        j["import"] = {{"isolated", isolation().enabled},
                       {"time_limit_s", isolation().timeoutSeconds},
                       {"memory_limit_mib", isolation().memoryLimitMb},
                       {"file_access", isolation().enabled ? sandboxDescription() : "not restricted (in process)"}};
        jsonout::Stats st;
        std::cout << jsonout::dump(std::move(j), 2, st) << "\n";
        warnNonFinite(o.model, st.nonFinite);
        return exitcode::kOk;
    }
    std::cout << "file:       " << term(model.path) << "\n"
              << "nodes:      " << model.skeleton.size() << "\n"
              << "joints:     " << joints.size() << "\n"
              << "meshes:     " << model.meshes.size() << " (" << skinned << " skinned)\n"
              << "vertices:   " << vertices << "\n"
              << "triangles:  " << triangles << "\n"
              << "max influences per vertex: " << maxInfl << "\n"
              << "units:      " << unitsLine(model.units) << "\n";
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        const Mesh& m = model.meshes[i];
        std::cout << "  mesh " << i << " '" << term(m.name) << "': " << m.vertexCount() << " vertices, "
                  << m.triangleCount() << " triangles";
        if (m.skinned) std::cout << ", skinned by " << m.skin.joints.size() << " joints";
        std::cout << "\n";
        if (!m.morphTargets.empty()) {
            std::cout << "    morph targets (" << m.morphTargets.size() << "):";
            for (size_t t = 0; t < m.morphTargets.size(); ++t) {
                std::cout << (t ? ", " : " ") << m.morphTargets[t].name;
                if (t < m.morphDefaultWeights.size() && m.morphDefaultWeights[t] != 0.0f) {
                    std::cout << " (" << fmt(m.morphDefaultWeights[t], "%g") << ")";
                }
            }
            const std::vector<std::string> clips = clipsAnimatingMorphs(model, i);
            std::cout << "\n    morph weights animated by: ";
            if (clips.empty()) std::cout << "no clip";
            for (size_t c = 0; c < clips.size(); ++c) std::cout << (c ? ", " : "") << "'" << clips[c] << "'";
            std::cout << "\n";
        }
    }
    for (const std::string& note : model.stats.retargetNotes) std::cout << "added:      " << term(note) << "\n";
    for (const ImportRepair& rep : model.stats.repairs) std::cout << "repaired:   " << term(rep.what) << " [" << rep.code << "]\n";
    std::cout << "clips:      " << model.clips.size() << "\n";
    for (size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& c = model.clips[i];
        const ClipSummary s = summarize(c);
        std::cout << "  clip " << i << " '" << term(c.name) << "': " << fmt(c.duration, "%.3f") << " s, "
                  << s.channels << " channels, keys T/R/S " << s.tKeys << "/" << s.rKeys << "/" << s.sKeys
                  << ", " << fmt(c.sampleRate, "%g") << " fps";
        if (!c.morphTracks.empty()) {
            size_t keys = 0;
            for (const MorphTrack& t : c.morphTracks) keys += t.count;
            std::cout << ", morph weights of " << c.morphTracks.size() << " mesh" << (c.morphTracks.size() > 1 ? "es" : "")
                      << " (" << keys << " keys)";
        }
        std::cout << "\n";
    }
    // How the file was read: in a worker process (limits, sandbox) or in this one.
    const IsolationConfig& iso = isolation();
    if (iso.enabled) {
        std::cout << "import:     isolated worker process (time limit " << fmt(iso.timeoutSeconds, "%g") << " s, memory "
                  << (iso.memoryLimitMb ? std::to_string(iso.memoryLimitMb) + " MiB" : std::string("unlimited"))
                  << ", file access: " << sandboxDescription() << ")\n";
    } else {
        std::cout << "import:     in this process (--no-isolation)\n";
    }
    return exitcode::kOk;
}

int runPose(const PoseOptions& o) {
    const std::string ext = cmd::extensionOf(o.output);
    const bool asJson = ext == ".json";
    const bool asObj = ext == ".obj";
    if (!asJson && !asObj) {
        printError(o.output + ": output must end in .json or .obj");
        return exitcode::kUsage;
    }
    if (!cmd::outputIsNotAnInput(o.output, o.model, o.anims)) return exitcode::kUsage;
    Model model;
    if (!load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    int32_t clip = o.filePose ? kFilePose : kBindPose;
    if (!o.sets.empty() && o.machine.empty()) {
        printError("--set needs --machine");
        return exitcode::kUsage;
    }
    if (!o.machine.empty() && (!o.clip.empty() || o.filePose)) {
        printError("--machine decides what plays: it excludes --clip, --bind-pose and --file-pose");
        return exitcode::kUsage;
    }
    if (o.machine.empty() && !o.bindPose && !o.filePose && !resolveClip(model, o.clip, clip)) return exitcode::kUsage;
    if (!std::isfinite(o.time)) {
        printError(o.model + ": --time must be a finite number of seconds");
        return exitcode::kUsage;
    }
    float t = 0.0f;
    IkStage ik;
    if (!setupIk(model, o.ik, o.model, ik)) return exitcode::kUsage;
    Animator anim(model);
    if (o.ik.any()) anim.setPostProcess(&ik);  // IK on whatever drives the pose
    if (!o.machine.empty()) {
        // The state machine drives the pose: run from 0 to --time (app/machine_run.h).
        t = static_cast<float>(o.time);
        if (const int rc = poseWithMachine(model, o.machine, o.sets, o.time, anim, clip); rc != exitcode::kOk) return rc;
    } else {
        t = cmd::clipTime(model, clip, o.time);
        anim.evaluate(clip, t);
    }

    std::string out;
    jsonout::Stats st;
    if (asJson) out = poseJson(model, anim, clip, t, st);
    std::vector<glm::vec3> pos, nrm;
    size_t objNonFinite = 0;
    auto num = [&](double v) {
        objNonFinite += std::isfinite(v) ? 0 : 1;
        out += fmt(v);
    };
    size_t base = 1;
    for (size_t m = 0; m < model.meshes.size() && asObj; ++m) {
        const Mesh& mesh = model.meshes[m];
        pos.resize(mesh.vertexCount());
        nrm.resize(mesh.vertexCount());
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), pos.data(), nrm.data());
        const glm::mat4& world = anim.skinToModel(m);
        const glm::mat3 normalMat = glm::transpose(glm::mat3(safeAffineInverse(world)));
        // OBJ names end at the line: keep the name on it (control characters as '_').
        std::string name = mesh.name.empty() ? "mesh" + std::to_string(m) : text::validUtf8(mesh.name);
        for (char& ch : name) ch = static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F ? '_' : ch;
        out += "o " + name + "\n";
        for (const glm::vec3& q : pos) {
            const glm::vec3 p = glm::vec3(world * glm::vec4(q, 1.0f));
            out += "v ";
            num(p.x);
            out += ' ';
            num(p.y);
            out += ' ';
            num(p.z);
            out += '\n';
        }
        const bool hasN = !mesh.normals.empty();
        if (hasN) {
            for (const glm::vec3& q : nrm) {
                glm::vec3 n = normalMat * q;
                const float len = glm::length(n);
                if (len > 0.0f) n /= len;
                out += "vn ";
                num(n.x);
                out += ' ';
                num(n.y);
                out += ' ';
                num(n.z);
                out += '\n';
            }
        }
        for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
            out += 'f';
            for (int k = 0; k < 3; ++k) {
                const std::string idx = std::to_string(base + mesh.indices[i + k]);
                out += ' ' + idx;
                if (hasN) out += "//" + idx;
            }
            out += '\n';
        }
        base += mesh.vertexCount();
    }
    if (!writeFile(o.output, out)) return exitcode::kOutputFailed;
    if (asJson) {
        warnNonFinite(o.output, st.nonFinite);
    } else if (objNonFinite) {
        printError(o.output + ": warning: " + std::to_string(objNonFinite) +
                   " non-finite values (NaN or infinite) in the posed mesh (OBJ has no null: written as nan/inf)");
    }
    return exitcode::kOk;
}

namespace {

// `bench --instances N --threads T`: frames of a Crowd (N Animators sharing the model, the
// clip at N phases) on T threads; the median frame gives ms per frame.
int runCrowdBench(const BenchOptions& o, const Model& model, int32_t clip) {
    Crowd crowd(model, static_cast<size_t>(o.instances), clip, static_cast<unsigned>(o.threads));
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
    for (int64_t f = 0; f < frames; ++f) {
        const auto start = Clock::now();
        tick.run();
        crowd.update(motionTime(controller));
        perFrame.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::nth_element(perFrame.begin(), perFrame.begin() + perFrame.size() / 2, perFrame.end());
    const double ms = perFrame[perFrame.size() / 2];
    const size_t joints = model.skeleton.size();
    const double nsTick = ms * 1e6 / static_cast<double>(o.instances);
    const double nsJoint = joints ? nsTick / static_cast<double>(joints) : 0.0;
    if (o.json) {
        json j{{"instances", o.instances}, {"threads", o.threads}, {"joints", joints},
               {"ms_per_frame", ms}, {"ns_per_tick", nsTick}, {"ns_per_joint", nsJoint}, {"isa", isa::name()}};
        jsonout::Stats st;
        std::cout << jsonout::dump(std::move(j), -1, st) << "\n";
        warnNonFinite(o.model, st.nonFinite);
    } else {
        std::cout << term(model.path) << ": clip " << (clip >= 0 ? "'" + term(model.clips[clip].name) + "'" : "(bind pose)")
                  << ", " << o.instances << " instances x " << joints << " nodes on " << o.threads << " thread(s), "
                  << frames << " frames\n"
                  << "  median " << fmt(ms, "%.3f") << " ms per frame, " << fmt(nsTick, "%.1f") << " ns per instance, "
                  << fmt(nsJoint, "%.2f") << " ns per joint (" << isa::name() << ")\n";
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
    if (o.instances > 0) return runCrowdBench(o, model, clip);
    // The playback pipeline's tick as the viewer runs it: the clip plays on the controller's clock.
    Controller controller(model);
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
        json j{{"joints", joints}, {"ns_per_tick", ns}, {"ns_per_joint", perJoint}, {"isa", isa::name()}};
        jsonout::Stats st;
        std::cout << jsonout::dump(std::move(j), -1, st) << "\n";
        warnNonFinite(o.model, st.nonFinite);
    } else {
        std::cout << term(model.path) << ": clip " << (clip >= 0 ? "'" + term(model.clips[clip].name) + "'" : "(bind pose)")
                  << ", " << joints << " nodes, " << batches * kBatch << " ticks at 60 Hz\n"
                  << "  median " << fmt(ns, "%.1f") << " ns per tick, " << fmt(perJoint, "%.2f") << " ns per joint ("
                  << isa::name() << ")\n";
    }
    return exitcode::kOk;
}

namespace {

// --from/--to applied to one clip of `model` (the result starts at 0). False (after one
// error line) when the range is empty.
bool trimForExport(const ExportOptions& o, const Model& model, Clip& c) {
    if (o.from < 0.0 && o.to < 0.0) return true;
    const double from = std::max(0.0, o.from), to = o.to >= 0.0 ? o.to : c.duration;
    if (!(to > from)) {
        printError(model.path + ": --from " + fmt(from, "%g") + " --to " + fmt(to, "%g") + " keeps nothing of clip '" + c.name +
                   "' (" + fmt(c.startTime, "%g") + " to " + fmt(c.duration, "%g") + " s): --to must be after --from");
        return false;
    }
    c = trimClip(c, static_cast<float>(from), static_cast<float>(to));
    return true;
}

// --ik-*: the chain solved on every frame of `c` (at --fps, or the clip's own rate) and baked
// into its keys. False after one error line for a bad chain.
bool bakeIkForExport(const ExportOptions& o, const Model& model, Clip& c) {
    if (!o.ik.any()) return true;
    IkStage stage(model.skeleton);  // fresh per clip: foot locking starts unlocked
    if (!setupIk(model, o.ik, o.model, stage)) return false;
    c = bakeIk(model, c, stage, o.fpsGiven ? static_cast<float>(o.fps) : c.sampleRate);
    return true;
}

// glTF export: the chosen clip, or every clip, trimmed and resampled as asked.
int exportGltf(const ExportOptions& o, const Model& model, bool binary) {
    std::vector<Clip> clips;
    if (!o.clip.empty()) {
        int32_t clip = -1;
        if (!resolveClip(model, o.clip, clip)) return exitcode::kUsage;
        clips.push_back(model.clips[clip]);
    } else {
        if ((o.from >= 0.0 || o.to >= 0.0) && model.clips.size() > 1) {
            printError(model.path + ": --from/--to trim one clip, and the model has " + std::to_string(model.clips.size()) +
                       " clips: choose one with --clip");
            return exitcode::kUsage;
        }
        clips = model.clips;
    }
    if ((o.from >= 0.0 || o.to >= 0.0) && clips.empty()) {
        printError(model.path + ": has no clip to trim");
        return exitcode::kUsage;
    }
    for (Clip& c : clips) {
        if (!trimForExport(o, model, c)) return exitcode::kUsage;
        if (!bakeIkForExport(o, model, c)) return exitcode::kUsage;
        if (!o.fpsGiven) continue;
        // Resampling writes one key per frame per channel: bounded like a BVH export.
        const int64_t frames = bvhFrameCount(c, o.fps);
        const int64_t channels = static_cast<int64_t>(c.tracks.size()) * 3 + static_cast<int64_t>(c.morphTracks.size());
        if (frames > kMaxBvhFrames || frames * std::max<int64_t>(channels, 1) > kMaxBvhValues / 4) {
            printError(o.output + ": resampling clip '" + c.name + "' at " + fmt(o.fps, "%g") + " fps would write " +
                       std::to_string(frames) + " keys for each of its " + std::to_string(channels) +
                       " channels; lower --fps or trim with --from/--to");
            return exitcode::kUsage;
        }
        c = resampleClip(c, static_cast<float>(o.fps));
    }
    GltfExportOptions options;
    options.binary = binary;
    std::string error;
    if (!writeGltf(model, clips, o.output, options, error)) {
        printError(error);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace

int runExport(const ExportOptions& o) {
    const std::string ext = cmd::extensionOf(o.output);
    const bool gltf = ext == ".gltf" || ext == ".glb";
    if (ext != ".bvh" && !gltf && !cmd::isStreamOutput(o.output)) {
        printError(o.output + ": output must end in .bvh, .gltf or .glb");
        return exitcode::kUsage;
    }
    if (o.fpsGiven && !(o.fps > 0.0 && o.fps <= kMaxBvhFps)) {
        printError("--fps " + fmt(o.fps, "%g") + ": must be a number of frames per second in (0, 1000]");
        return exitcode::kUsage;
    }
    if (!cmd::outputIsNotAnInput(o.output, o.model, o.anims)) return exitcode::kUsage;
    Model model;
    if (!load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    if (gltf) return exportGltf(o, model, ext == ".glb");
    int32_t clip = -1;
    if (!resolveClip(model, o.clip, clip)) return exitcode::kUsage;
    if (clip < 0) {
        printError(model.path + ": has no clip to export");
        return exitcode::kUsage;
    }
    Clip c = model.clips[clip];
    if (!trimForExport(o, model, c)) return exitcode::kUsage;
    if (!bakeIkForExport(o, model, c)) return exitcode::kUsage;
    const float fps = o.fpsGiven ? static_cast<float>(o.fps) : c.sampleRate;
    const int64_t frames = bvhFrameCount(c, fps);
    const int64_t values = frames > kMaxBvhFrames ? frames : frames * bvhChannelCount(model, c);
    if (frames > kMaxBvhFrames || values > kMaxBvhValues) {
        printError(o.output + ": the export would have " + std::to_string(frames) + " frames of " +
                   std::to_string(bvhChannelCount(model, c)) + " numbers (at most 10000000 frames and 200000000 numbers); " +
                   "lower --fps or trim with --from/--to");
        return exitcode::kUsage;
    }
    Result<bool> r = exportBvh(model, c, fps, o.output);
    if (!r) {
        printError(r.error().message);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
