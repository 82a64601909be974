// importModel: the reader of each format. ASF/AMC (import/asf_amc), IQM (import/iqm) and glTF 2.0
// (import/gltf/read) are rigview's own; every other format, glTF 1.0 included, goes through
// Assimp (import/assimp/read). Then the markers file.
#include "import/import.h"

#include <assimp/Importer.hpp>
#include <assimp/version.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>

#include "anim/offline/clip_tools.h"
#include "import/asf_amc/asf_amc.h"
#include "import/assimp/read.h"
#include "import/clip_markers.h"
#include "import/gltf/read.h"
#include "import/images/model_images.h"
#include "import/iqm/iqm.h"
#include "util/paths.h"

namespace rig {

namespace {

using paths::lowerExtension;

float amcFramesPerSecond(const ImportOptions& options) {
    const float fps = options.amcFramesPerSecond;
    return fps > 0.0f && std::isfinite(fps) ? fps : kDefaultAmcFramesPerSecond;
}

}  // namespace

bool isModelFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext.empty()) return false;
    if (ext == ".asf" || ext == ".amc") return true;
    static const Assimp::Importer probe;
    return probe.IsExtensionSupported(ext);
}

std::vector<std::string> modelExtensions() {
    aiString list;  // "*.3d;*.3ds;..."
    Assimp::Importer().GetExtensionList(list);
    std::vector<std::string> out = {"asf", "amc"};
    const std::string text(list.C_Str());
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find(';', pos), text.size());
        std::string ext = text.substr(pos, end - pos);
        if (ext.rfind("*.", 0) == 0) ext.erase(0, 2);
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
        if (!ext.empty()) out.push_back(ext);
        pos = end + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string assimpVersion() {
    return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
           std::to_string(aiGetVersionPatch());
}

namespace {

Result<Model> importModelFile(const std::string& path, const ImportOptions& options) {
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();

    // Acclaim motion capture (CMU): our own parser; an .amc finds its skeleton beside it.
    const std::string ext = lowerExtension(path);
    if (ext == ".asf" || ext == ".amc" || ext == ".iqm") reportStage(options, ImportStage::Parsing);
    if (ext == ".asf") return importAsf(path);
    if (ext == ".amc") {
        const std::string asf = findAsfForAmc(path);
        if (asf.empty()) {
            return Error{path + ": no skeleton beside it (for 01_01.amc rigview looks for 01.asf in the same folder)"};
        }
        Result<Model> m = importAsfAmc(asf, {path}, amcFramesPerSecond(options));
        if (m) m.value().stats.filesRead.push_back(asf);
        return m;
    }
    // Inter-Quake Model: our own reader (Assimp 5.2.5 reads only the static meshes).
    if (ext == ".iqm") {
        Result<Model> iqm = importIqm(path);
        if (iqm) computeSkinBindPose(iqm.value());
        return iqm;
    }
    // glTF 2.0: our own reader, straight from the one parsed document (glTF 1.0: Assimp).
    if (ext == ".gltf" || ext == ".glb") {
        if (std::optional<Result<Model>> model = gltf::importGltf(path, options)) return std::move(*model);
    }
    return importWithAssimp(path, ext, options);
}

}  // namespace

Result<Model> importModel(const std::string& path, const ImportOptions& options) {
    Result<Model> model = importModelFile(path, options);
    if (!model) return model;
    // The markers edited in the viewer, saved beside the file (import/clip_markers.h).
    std::string error;
    if (!applyMarkersFile(path, model.value(), error)) return Error{error};
    if (options.decodeImages) decodeModelImages(model.value());
    return model;
}

Result<Model> importModelWithAnims(const std::string& path, const std::vector<std::string>& animPaths,
                                   const ImportOptions& options) {
    if (animPaths.empty()) return importModel(path, options);
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();
    for (const std::string& a : animPaths) {
        if (Result<bool> regular = checkRegularFile(a); !regular) return regular.error();
    }
    std::vector<std::string> amcs, others;
    for (const std::string& a : animPaths) (lowerExtension(a) == ".amc" && lowerExtension(path) == ".asf" ? amcs : others).push_back(a);
    Result<Model> base = amcs.empty() ? importModel(path, options) : importAsfAmc(path, amcs, amcFramesPerSecond(options));
    if (!base) return base;
    Model& model = base.value();
    for (const std::string& a : amcs) {
        model.stats.retargetNotes.push_back(a + ": motion read with the skeleton's own dof");
        model.stats.filesRead.push_back(a);
    }
    for (const std::string& a : others) {
        // An animation-only IQM file (poses, no joints or names) plays on its IQM model's joints
        // by index (import/iqm/iqm.h); every other file binds by joint name.
        const bool byIndex = lowerExtension(a) == ".iqm" && isIqmAnimationOnlyFile(a);
        if (byIndex && lowerExtension(path) != ".iqm") {
            return Error{a + ": an animation-only IQM file (poses, no joints) plays on the joints of its IQM model; " + path +
                         " is not an IQM file"};
        }
        ImportOptions clipsOnly = options;
        clipsOnly.decodeImages = false;  // only its clips are kept
        Result<Model> src = byIndex ? importIqmAnimations(a, path) : importModel(a, clipsOnly);
        if (!src) return src.error();
        const Model& from = src.value();
        if (from.clips.empty()) return Error{a + ": has no clips to add"};
        if (byIndex && from.skeleton.names != model.skeleton.names) {
            return Error{a + ": the joints of " + path + " read differently the second time (was the file replaced?)"};
        }
        for (const std::string& r : from.stats.refusedPaths) model.stats.refusedPaths.push_back(r);
        model.stats.filesRead.push_back(a);
        for (const std::string& f : from.stats.filesRead) model.stats.filesRead.push_back(f);
        model.stats.clipsWithoutTicksPerSecond += from.stats.clipsWithoutTicksPerSecond;
        const RetargetMap map = buildRetargetMap(from.skeleton, model.skeleton);
        std::vector<std::string> skipped;
        size_t added = 0;
        for (const Clip& c : from.clips) {
            Clip clip = byIndex ? c : retargetClip(c, map, from.skeleton, model.skeleton, &skipped);
            if (clip.tracks.empty()) continue;
            if (model.findClip(clip.name) >= 0) clip.name = std::filesystem::path(a).stem().string() + ":" + clip.name;
            model.clips.push_back(std::move(clip));
            ++added;
        }
        if (added == 0) {
            return Error{a + ": none of its joints match " + path + " by name (" +
                         std::to_string(map.missingInTarget.size()) + " joints missing)"};
        }
        std::sort(skipped.begin(), skipped.end());
        skipped.erase(std::unique(skipped.begin(), skipped.end()), skipped.end());
        std::string note = a + ": " + std::to_string(added) + " clips added" + (byIndex ? " (poses on the joints by index)" : "");
        if (!skipped.empty()) {
            note += "; " + std::to_string(skipped.size()) + " joints not in the model skipped:";
            for (size_t i = 0; i < skipped.size() && i < 12; ++i) note += (i ? ", " : " ") + skipped[i];
            if (skipped.size() > 12) note += ", ...";
        }
        if (!map.missingInSource.empty()) {
            note += "; " + std::to_string(map.missingInSource.size()) + " model joints not animated";
        }
        model.stats.retargetNotes.push_back(note);
    }
    return base;
}

}  // namespace rig
