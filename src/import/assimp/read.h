// The Assimp path of importModel (internal to import/): every format rigview does not read
// itself (FBX, glTF, COLLADA, .X, BVH, MD5, SMD, OBJ...). The file and what it names are read
// from disk once (import/source_files) and handed to Assimp from memory; a glTF file is also
// parsed once into the gltf::Document that the range check before Assimp and rigview's own
// passes after it read (import/gltf).
#pragma once

#include <string>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"
#include "import/import_options.h"

namespace rig {

// Read `path` (`ext`: its lower-case extension) through Assimp into a Model: repaired where
// Assimp's validation would refuse it for one safe reading (assimp/scene_repair), identical
// vertices joined (assimp/vertex_join), converted to the model's units (assimp/units), its bones
// and channels bound to nodes (assimp/node_binding) and turned into a Model
// (assimp/scene_convert); for glTF, what Assimp drops or misreads read back from the file.
Result<Model> importWithAssimp(const std::string& path, const std::string& ext, const ImportOptions& options);

}  // namespace rig
