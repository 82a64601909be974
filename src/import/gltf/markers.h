// Clip markers of a glTF file: each animation's `extras.markers` ([{"name": string, "time":
// seconds}], as rigview's export writes them), which Assimp 5.2.5 does not hand over.
#pragma once

#include "anim/runtime/model.h"
#include "import/gltf/document.h"

namespace rig::gltf {

// The markers of each animation, on the clip of the same index (the file's animations and the
// model's clips must match in number); entries read as import/clip_markers' readMarkerList
// reads them. Does nothing when the document holds no JSON. Returns the number of markers read.
int applyMarkers(const Document& doc, Model& model);

}  // namespace rig::gltf
