// A small character with morph targets and a skin, for the morph tests: a tube of 6 rings
// of 8 vertices around a two-joint chain (hip, spine), two morph targets ("bulge", "lean",
// with normal offsets), default weights (0.25, 0), and two clips: "bend" (spine rotation,
// weights with CUBICSPLINE keys, one of them negative) and "blink" (hip translation, STEP
// weights). tests/data/morph/morph_skin.gltf is this document written out, and
// morph_skin.three.json is three.js's evaluation of that file (tools/three_refs).
#pragma once

#include "support/gltf_writer.h"

namespace rig::testing {

gltf::Document morphSkinCharacter();

}  // namespace rig::testing
