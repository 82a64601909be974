// Vertex colours as glTF means them, where Assimp 5.2.5 reads a VEC3 COLOR_0 (FLOAT, or normalized
// UNSIGNED_BYTE / SHORT) into four components and leaves the fourth, alpha, uninitialised.
#pragma once

#include "anim/runtime/model.h"
#include "import/gltf/document.h"
#include "import/gltf/nodes.h"

namespace rig::gltf {

// Alpha 1 on every vertex of each mesh whose primitive's COLOR_0 is VEC3 (glTF: "RGB", opaque).
// Meshes are found through the node that instances them (`nodes`: the file's node identities);
// a node whose drawn primitives do not match its meshes one for one is left out. Returns the
// meshes set.
int applyColorAlpha(const Document& doc, const Nodes& nodes, Model& model);

}  // namespace rig::gltf
