// What the command line decides about an import, passed to every import explicitly (importModel,
// importModelWithAnims, and through platform/import_worker to the worker process).
#pragma once

#include <cstdint>
#include <functional>

namespace rig {

// Lengths: converted to metres (the default; FBX UnitScaleFactor, COLLADA <unit meter>, glTF is
// metres already) or kept as the file's numbers (`--units file`).
enum class UnitMode { Metres, File };

// Frames per second of AMC motions when nothing else is said (CMU's are 120; some are 60).
inline constexpr float kDefaultAmcFramesPerSecond = 120.0f;

// The stages of opening a model, in order, as the viewer's loading notice names them: the import
// (in the worker) reads the file, parses it (Assimp, or rigview's own reader) and converts it;
// the process that asked receives it from the worker, checks it (the viewer's rig checks) and
// uploads it to the GPU.
enum class ImportStage : uint8_t { Reading, Parsing, Converting, Receiving, Checking, Uploading };
inline constexpr ImportStage kLastImportStage = ImportStage::Uploading;
inline const char* importStageName(ImportStage s) {
    switch (s) {
        case ImportStage::Reading: return "reading the file";
        case ImportStage::Parsing: return "parsing";
        case ImportStage::Converting: return "converting";
        case ImportStage::Receiving: return "receiving";
        case ImportStage::Checking: return "checking the rig";
        case ImportStage::Uploading: return "uploading to the GPU";
    }
    return "";
}

struct ImportOptions {
    UnitMode units = UnitMode::Metres;                        // --units
    float amcFramesPerSecond = kDefaultAmcFramesPerSecond;    // --amc-fps (> 0; anything else: the default)
    // Decode the materials' textures (Model::images) as part of the import, so they are decoded
    // where the model is (in the import worker). The commands that draw want them; the others
    // (info, check, export...) turn it off.
    bool decodeImages = true;
    // Told as each stage of the import begins (Reading, Parsing, Converting), on the importing
    // thread. Not a command-line choice: the worker sets its own, which forwards the stages to
    // the parent (platform/import_worker).
    std::function<void(ImportStage)> onStage;
};

inline void reportStage(const ImportOptions& options, ImportStage stage) {
    if (options.onStage) options.onStage(stage);
}

}  // namespace rig
