// `rigview export`: clips written as BVH or glTF, trimmed, resampled or with IK baked in.
#include "app/commands.h"

#include <algorithm>
#include <string>
#include <vector>

#include "anim/offline/clip_tools.h"
#include "anim/offline/ik_bake.h"
#include "app/command_util.h"
#include "app/exit_codes.h"
#include "import/bvh/export.h"
#include "import/gltf/export.h"
#include "util/paths.h"

namespace rig {

namespace {

using cmd::fmt;
using cmd::load;
using cmd::printError;
using cmd::resolveClip;
using cmd::term;
using cmd::warnNonFinite;
using cmd::writeFile;

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
    std::vector<std::string> leftOut;
    if (!writeGltf(model, clips, o.output, options, error, &leftOut)) {
        printError(error);
        return exitcode::kOutputFailed;
    }
    for (const std::string& line : leftOut) printError(o.output + ": warning: left out " + term(line));
    return exitcode::kOk;
}

}  // namespace

int runExport(const ExportOptions& o) {
    const std::string ext = paths::lowerExtension(o.output);
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
    if (!cmd::outputIsNotAResource(o.output, model)) return exitcode::kUsage;
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
