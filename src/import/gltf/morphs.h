// Morph targets as glTF means them, where Assimp 5.2.5 falls short: it drops the target names,
// the weights channels' interpolation (STEP and CUBICSPLINE) and negative weights.
#pragma once

#include "anim/runtime/model.h"
#include "import/gltf/document.h"

namespace rig::gltf {

// Target names from the mesh's `extras.targetNames` (else the target POSITION accessor's name),
// and each "weights" channel read again from the document's buffers with its sampler's
// interpolation. Does nothing when the model has no morph targets or the document holds no
// JSON. Returns the number of tracks read.
int applyMorphs(const Document& doc, Model& model);

}  // namespace rig::gltf
