// Units (internal to import/): every file in metres, or the file's own numbers with
// `--units file` (ImportOptions::units).
#pragma once

#include <string>
#include <string_view>

#include <assimp/scene.h>

#include "anim/runtime/model.h"
#include "import/import_options.h"

namespace rig::scene {

// Work out the file's unit, undo Assimp's own COLLADA root scale, and (unless --units file)
// convert to metres: baked into the data (joints stay as rigid as the file made them), or,
// where the file's own nodes carry the inverse of the unit's scale (Blender's FBX export puts
// 100 on every object of a centimetre file), as a scale on the root, which cancels it and
// leaves the joints rigid. Vertices land in the same place either way. `file`: the model
// file's bytes (a COLLADA file's <unit> is read from its first MiB).
Units applyUnits(aiScene* scene, std::string_view file, const std::string& ext, UnitMode mode);

}  // namespace rig::scene
