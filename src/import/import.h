// Import: a model file (anything Assimp reads: FBX, glTF, COLLADA, .X, BVH, MD5, SMD...)
// turned into a runtime Model. No GL here; Assimp types stay inside import/.
#pragma once

#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"
#include "import/import_options.h"
#include "import/regular_file.h"

namespace rig {

// Ticks per second assumed when a clip gives none (0): Assimp's own viewer uses 25.
inline constexpr double kDefaultTicksPerSecond = 25.0;

// Read `path`, with `options` (units, AMC frame rate). Errors name the file and what is wrong
// with it. Safe to call from several threads at once (each call has its own Assimp importer).
Result<Model> importModel(const std::string& path, const ImportOptions& options = {});

// `path`, plus the clips of other files (`--anim`) bound to its skeleton by joint name (seed
// 001's retargeting rule: joints missing on either side are skipped and listed in
// Model::stats.retargetNotes). An .asf model takes .amc motions directly. A clip whose name
// is taken gets the file's name in front ("01_02:walk").
Result<Model> importModelWithAnims(const std::string& path, const std::vector<std::string>& animPaths,
                                   const ImportOptions& options = {});

// Whether a file's extension is one Assimp reads (for searching folders).
bool isModelFile(const std::string& path);
// Every extension isModelFile accepts, lower case without the dot, sorted (the shell completions).
std::vector<std::string> modelExtensions();

// The Assimp library's version ("5.2.5"), for the viewer's About window.
std::string assimpVersion();

}  // namespace rig
