// rigview's own glTF 2.0 reader (.gltf and .glb): the file read once (import/source_files), parsed
// once into a gltf::Document, its ranges and accessor uses checked (gltf/ranges) before any data
// is read, then the runtime Model built directly from that document: the default scene's node
// tree, meshes decoded straight into their final arrays (gltf/primitives), skins bound by the
// file's node indices, clips with their STEP / LINEAR modes, quantized rotations and the file's
// own key times, morph targets and their weight channels (gltf/morphs), materials
// (gltf/materials), embedded images, markers (gltf/markers). glTF 1.0 files (asset.version
// "1.x", or a version 1 .glb) are not read here: they go to Assimp.
#pragma once

#include <optional>
#include <string>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"
#include "import/import_options.h"

namespace rig {
class SourceFiles;
}

namespace rig::gltf {

// Read `path` into a Model (see above). Errors name the file and what is wrong with it. nullopt:
// the file is glTF 1.0, for Assimp.
std::optional<Result<Model>> importGltf(const std::string& path, const ImportOptions& options);

class Document;
// The reading of a parsed glTF 2.0 document (what importGltf does once the file is read and
// parsed; the libFuzzer target gltf_read_fuzz feeds it bytes from memory). `files` is the
// import's SourceFiles, through which the document loads external buffers.
Result<Model> readGltf(const Document& doc, SourceFiles& files, const ImportOptions& options);

}  // namespace rig::gltf
