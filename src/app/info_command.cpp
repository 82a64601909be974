// `rigview info`: what a model holds (meshes, joints, clips, units, morph targets), as text or JSON.
#include "app/schema_versions.h"
#include "app/commands.h"

#include <sys/resource.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/command_util.h"
#include "app/exit_codes.h"
#include "util/json_out.h"
#include "util/version.h"
#include "util/text.h"
#include "platform/import_worker.h"

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
// The bytes of the model's vertex and index arrays (what the GPU draws from: positions,
// normals, UVs, colours, tangents, influences, indices, morph deltas).
size_t meshDataBytes(const Model& model) {
    size_t n = 0;
    auto add = [&](const auto& v) { n += v.size() * sizeof(v[0]); };
    for (const Mesh& m : model.meshes) {
        add(m.positions), add(m.normals), add(m.uvs), add(m.uvs1), add(m.colors), add(m.tangents), add(m.indices);
        add(m.joints), add(m.weights), add(m.joints2), add(m.weights2);
        for (const MorphTarget& t : m.morphTargets) add(t.positionDeltas), add(t.normalDeltas);
    }
    return n;
}

// Peak resident memory in MiB: of this process, and of the largest child it has waited for
// (the import worker).
double peakMib(int who) {
    rusage u{};
    return ::getrusage(who, &u) == 0 ? static_cast<double>(u.ru_maxrss) / 1024.0 : 0.0;
}

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
        j["schema"] = kInfoSchema;
        j["rigview_version"] = rigviewVersion();
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
        // The model's vertex and index data, and what opening it took: the peak memory of the
        // worker and of this process.
        j["mesh_data_mib"] = static_cast<double>(meshDataBytes(model)) / (1024.0 * 1024.0);
        j["import"]["worker_peak_mib"] = peakMib(RUSAGE_CHILDREN);
        j["import"]["process_peak_mib"] = peakMib(RUSAGE_SELF);
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
    const double meshMib = static_cast<double>(meshDataBytes(model)) / (1024.0 * 1024.0);
    std::cout << "memory:     mesh data " << fmt(meshMib, "%.1f") << " MiB; peak " << fmt(peakMib(RUSAGE_SELF), "%.0f")
              << " MiB here";
    if (iso.enabled) std::cout << ", " << fmt(peakMib(RUSAGE_CHILDREN), "%.0f") << " MiB in the import worker";
    std::cout << "\n";
    return exitcode::kOk;
}

}  // namespace rig
