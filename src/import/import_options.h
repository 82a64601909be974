// What the command line decides about an import, passed to every import explicitly (importModel,
// importModelWithAnims, and through platform/import_worker to the worker process).
#pragma once

namespace rig {

// Lengths: converted to metres (the default; FBX UnitScaleFactor, COLLADA <unit meter>, glTF is
// metres already) or kept as the file's numbers (`--units file`).
enum class UnitMode { Metres, File };

// Frames per second of AMC motions when nothing else is said (CMU's are 120; some are 60).
inline constexpr float kDefaultAmcFramesPerSecond = 120.0f;

struct ImportOptions {
    UnitMode units = UnitMode::Metres;                        // --units
    float amcFramesPerSecond = kDefaultAmcFramesPerSecond;    // --amc-fps (> 0; anything else: the default)
};

}  // namespace rig
