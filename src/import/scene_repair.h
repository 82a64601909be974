// Repair of Assimp scenes that fail Assimp's validation only on points with one safe reading
// (keys past the clip's duration, empty or missing animation channels). Assimp types stay
// inside import/.
#pragma once

#include <string>
#include <vector>

#include "anim/model.h"

namespace Assimp {
class Importer;
}
struct aiScene;

namespace rig {

// Mend `scene` (read without validation) where Assimp's validator would refuse it although the
// file has one safe reading:
// - keys after the animation's duration (e.g. a Blitz3D key one frame past the clip's frame
//   count): the duration is extended to the last key ("repaired-keys");
// - null or key-less node / morph channels are dropped, and animations left with no channel
//   are dropped ("repaired-channels").
// Unsorted and duplicate key times are not touched here: Assimp only warns about them and
// rigview's import sorts and reports them. Returns what was repaired (empty: nothing).
std::vector<ImportRepair> repairScene(aiScene& scene);

// After importer.ReadFile(path, 0) + ApplyPostProcessing(flags) failed Assimp's validation:
// read `path` again without it, repairScene(), and post-process again with `flags` (which
// validate first, so whatever is not repairable still fails). Returns the scene, or null with
// `error` set: Assimp's first message when nothing was repairable, else the validation message
// left after the repairs. `error` is set to the importer's message on entry either way.
const aiScene* readRepairedScene(Assimp::Importer& importer, const std::string& path, unsigned flags,
                                 std::vector<ImportRepair>& repairs, std::string& error);

}  // namespace rig
