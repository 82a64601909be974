// rigview compress: every clip through anim/offline/compress, a table of sizes and errors,
// and the model with its compressed clips written as glTF (import/gltf/export).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/offline/compress.h"
#include "anim/offline/compress_codec.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "import/gltf/export.h"
#include "import/import.h"
#include "util/json_out.h"
#include "util/version.h"
#include "util/text.h"
#include "util/paths.h"

namespace rig {

namespace {

using cmd::printError;

std::string fmt(double v, const char* f) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// The compressed clip as plain keys (what CompressedSamplingJob samples), with the original
// clip's morph tracks, which compression leaves alone. (A clip that compresses to nothing is
// still written: the glTF writer keeps an empty clip with one key of the bind pose.)
Clip decodedWithMorphs(const CompressedClip& cc, const Clip& original, size_t skeletonSize) {
    Clip c = decodeClip(cc, skeletonSize);
    c.ticksPerSecond = original.ticksPerSecond;
    c.ticksPerSecondFromFile = original.ticksPerSecondFromFile;
    for (const MorphTrack& mt : original.morphTracks) {
        MorphTrack m = mt;
        m.times = c.addTimes(original.times.data() + mt.times, mt.count);
        m.values = static_cast<uint32_t>(c.morphKeys.size());
        const size_t stride = (mt.interpolation == WeightInterpolation::CubicSpline ? 3u : 1u) * mt.targets;
        c.morphKeys.insert(c.morphKeys.end(), original.morphKeys.begin() + mt.values,
                           original.morphKeys.begin() + mt.values + stride * mt.count);
        c.morphTracks.push_back(m);
    }
    c.startTime = original.startTime;
    c.duration = original.duration;
    return c;
}

}  // namespace

int compressModel(const CompressOptions& o, nlohmann::json& j) {
    const std::string ext = cmd::isStreamOutput(o.output) ? ".glb" : paths::lowerExtension(o.output);  // "-": one .glb
    if (ext != ".gltf" && ext != ".glb") {
        printError(o.output + ": output must end in .gltf or .glb");
        return exitcode::kUsage;
    }
    if (!(o.toleranceMm >= 0.0 && o.toleranceMm <= 1000.0)) {
        printError("--tolerance " + fmt(o.toleranceMm, "%g") + ": must be a number of millimetres in [0, 1000]");
        return exitcode::kUsage;
    }
    if (!cmd::outputIsNotAnInput(o.output, o.model, o.anims)) return exitcode::kUsage;
    Model model;
    if (!cmd::load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    if (!cmd::outputIsNotAResource(o.output, model)) return exitcode::kUsage;
    if (model.clips.empty()) {
        printError(model.path + ": has no clip to compress");
        return exitcode::kUsage;
    }
    // Model units: metres, unless --units file kept the file's own (then its unit, when known).
    const bool fileUnits = o.import.units == UnitMode::File && model.units.metresPerUnit > 0.0;
    const double metresPerUnit = cmd::metresPerModelUnit(model);
    CompressSettings settings = cmd::compressSettingsFor(model, o.toleranceMm);
    settings.deltaCoding = o.delta;
    const double mmPerUnit = 1e3 * metresPerUnit;

    std::vector<CompressionResult> results;
    std::vector<Clip> outClips;
    for (const Clip& clip : model.clips) {
        Result<CompressionResult> r = compressClip(model, clip, settings);
        if (!r) {
            printError(model.path + ": " + r.error().message);
            return exitcode::kBadInput;
        }
        outClips.push_back(decodedWithMorphs(r->clip, clip, model.skeleton.size()));
        results.push_back(std::move(r.value()));
    }

    std::string error;
    GltfExportOptions gopts;
    gopts.binary = ext == ".glb";
    // Rotations as floats: the file then holds exactly the values CompressedSamplingJob
    // samples. KHR_mesh_quantization's normalized SHORT rotations would round them a second
    // time (about 3e-5 rad), which can take a clip compressed close to its tolerance past it.
    gopts.quantizeRotations = false;
    std::vector<std::string> leftOut;
    if (!writeGltf(model, outClips, o.output, gopts, error, &leftOut)) {
        printError(error);
        return exitcode::kOutputFailed;
    }
    for (const std::string& line : leftOut) printError(o.output + ": warning: left out " + cmd::term(line));

    size_t origBytes = 0, compBytes = 0;
    for (const CompressionResult& r : results) {
        origBytes += r.originalBytes;
        compBytes += r.compressedBytes;
    }
    const std::string unitNote = fileUnits ? "model units are the file's " + model.units.file
                                 : model.units.metresPerUnit > 0.0 ? "model units are metres"
                                                                   : "the file gives no unit: its numbers are taken as metres";
    j = nlohmann::json::object();
    j["rigview_version"] = rigviewVersion();
    j["model"] = model.path;
    j["output"] = o.output;
    j["tolerance_mm"] = o.toleranceMm;
    j["tolerance_model_units"] = settings.tolerance;
    j["units"] = unitNote;
    j["clips"] = nlohmann::json::array();
    for (size_t i = 0; i < results.size(); ++i) {
        const CompressionResult& r = results[i];
        j["clips"].push_back({{"name", model.clips[i].name},
                              {"original_bytes", r.originalBytes},
                              {"compressed_bytes", r.compressedBytes},
                              {"ratio", r.compressedBytes ? nlohmann::json(r.ratio()) : nlohmann::json(nullptr)},
                              {"raw_bytes", r.rawBytes},
                              {"raw_ratio", r.compressedBytes ? nlohmann::json(r.rawRatio()) : nlohmann::json(nullptr)},
                              {"original_keys", r.originalKeys},
                              {"kept_keys", r.keptKeys},
                              {"joint_error_mm", {{"max", r.error.maxJoint * mmPerUnit}, {"mean", r.error.meanJoint * mmPerUnit}}},
                              {"vertex_error_mm", {{"max", r.error.maxVertex * mmPerUnit}, {"mean", r.error.meanVertex * mmPerUnit}}},
                              {"samples", r.error.samples},
                              {"within_tolerance", r.withinTolerance}});
    }
    j["total"] = {{"original_bytes", origBytes},
                  {"compressed_bytes", compBytes},
                  {"ratio", compBytes ? double(origBytes) / double(compBytes) : 0.0}};
    for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].withinTolerance) {
            printError(model.path + ": clip '" + model.clips[i].name + "': quantization alone exceeds the tolerance (" +
                       fmt(results[i].error.max() * mmPerUnit, "%.4g") + " mm); every key was kept");
        }
    }
    return exitcode::kOk;
}

int runCompress(const CompressOptions& o) {
    nlohmann::json j;
    if (const int rc = compressModel(o, j); rc != exitcode::kOk) return rc;
    if (o.json) {
        std::cout << jsonout::dump(std::move(j), 2) << "\n";
        return exitcode::kOk;
    }
    // The same numbers as a table.
    const auto num = [](const nlohmann::json& v) { return v.is_number() ? v.get<double>() : 0.0; };
    std::cout << "model:     " << text::forTerminal(j["model"].get<std::string>()) << "\n"
              << "tolerance: " << fmt(o.toleranceMm, "%g") << " mm (" << fmt(num(j["tolerance_model_units"]), "%g")
              << " model units; " << j["units"].get<std::string>() << ")\n";
    std::printf("%-24s %15s %19s %7s %19s %19s\n", "clip", "keys", "bytes", "ratio", "joint error mm",
                "vertex error mm");
    std::printf("%-24s %15s %19s %7s %9s %9s %9s %9s\n", "", "orig -> kept", "orig -> compressed", "", "max",
                "mean", "max", "mean");
    for (const nlohmann::json& c : j["clips"]) {
        std::string name = text::forTerminal(c["name"].get<std::string>());
        if (name.size() > 24) name = name.substr(0, 21) + "...";
        const std::string keys = std::to_string(c["original_keys"].get<uint64_t>()) + " -> " +
                                 std::to_string(c["kept_keys"].get<uint64_t>());
        const std::string bytes = std::to_string(c["original_bytes"].get<uint64_t>()) + " -> " +
                                  std::to_string(c["compressed_bytes"].get<uint64_t>());
        // A clip holding the bind pose throughout keeps nothing: no ratio.
        const std::string ratio = c["ratio"].is_number() ? fmt(num(c["ratio"]), "%6.2fx") : "     -";
        std::printf("%-24s %15s %19s %7s %9.4f %9.4f %9.4f %9.4f%s\n", name.c_str(), keys.c_str(), bytes.c_str(),
                    ratio.c_str(), num(c["joint_error_mm"]["max"]), num(c["joint_error_mm"]["mean"]),
                    num(c["vertex_error_mm"]["max"]), num(c["vertex_error_mm"]["mean"]),
                    c["within_tolerance"].get<bool>() ? "" : "  (over: quantization alone)");
    }
    const nlohmann::json& total = j["total"];
    std::printf("%-24s %15s %19s %6.2fx\n", "total", "",
                (std::to_string(total["original_bytes"].get<uint64_t>()) + " -> " +
                 std::to_string(total["compressed_bytes"].get<uint64_t>()))
                    .c_str(),
                num(total["ratio"]));
    std::cout << "wrote:     " << text::forTerminal(o.output) << "\n";
    std::cout.flush();
    return exitcode::kOk;
}

}  // namespace rig
