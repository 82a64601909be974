// glTF node channels as the file has them, where Assimp 5.2.5 falls short: it drops each
// sampler's interpolation mode (STEP played as LINEAR), hands key times over as float
// milliseconds and misreads quantized rotations. These passes read the document's own samplers
// after Assimp's import and correct the Model's clips.
#pragma once

#include "anim/runtime/model.h"
#include "import/gltf/document.h"
#include "import/gltf/nodes.h"

namespace rig::gltf {

// Mark the channels whose glTF sampler says "STEP" as step-interpolated. Channels are found by
// node index where `nodes` is valid (two nodes may share a name), by name otherwise. Does
// nothing when the document holds no JSON. Returns the number of channels marked.
int applyStepInterpolation(const Document& doc, const Nodes& nodes, Model& model);

// Node channels as the file has them:
// - key times: Assimp hands them over as float milliseconds (float(t * 1000)), which moves a key
//   by up to one float step of t (2e-6 s at 20 s: enough for fast motion sampled at its own key
//   times to be off by 1e-5, or a STEP key to give the previous value). The file's own times
//   replace them in every translation / rotation / scale channel whose sampler input is a FLOAT
//   accessor with the channel's key count and times within 1e-4 s of Assimp's;
// - rotations stored as normalized BYTE or SHORT (glTF's quantized rotations, e.g. rigview's
//   compressed export): Assimp copies their bytes into floats; they are read again (for
//   CUBICSPLINE their values, played linearly as Assimp plays float ones), and the noise keys
//   import dropped as non-finite are no longer counted;
// - the count of non-unit rotation keys (CurveStats::nonUnitRotationKeys), from every rotation
//   channel's own values (float or dequantized, any interpolation) with the glTF validator's
//   bound (kUnitRotationTolerance).
// Updates each changed clip's range. Reads no other CUBICSPLINE keys again; does nothing when
// the document holds no JSON or a buffer cannot be read. Returns the number of channels restored.
int applyNodeKeys(const Document& doc, const Nodes& nodes, Model& model);

}  // namespace rig::gltf
