// The JSON of a glTF file, for rigview's own readings of what Assimp drops or does not check.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rig {

// The glTF JSON of a file's bytes: JSON text, or (`glb`) a binary container whose first chunk
// is the JSON; `glbBin`, when given, receives the container's BIN chunk (the buffer with no
// uri). False when the bytes are neither, or the JSON is not an object.
bool readGltfJson(const std::string& bytes, bool glb, nlohmann::json& out, std::string* glbBin = nullptr);

// The lower-case extension of `path` (".gltf", ".glb", ...).
std::string lowerExtension(const std::string& path);

// The glTF JSON of the file at `path`, read as readGltfJson reads bytes: a ".glb" (any case)
// as a binary container, a ".gltf" as JSON text. False for other extensions and for a file
// that cannot be read.
bool readGltfFile(const std::string& path, nlohmann::json& out, std::string* glbBin = nullptr);

}  // namespace rig
