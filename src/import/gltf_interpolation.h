// Assimp 5.2.5 drops glTF's per-sampler interpolation mode, so STEP animations would be
// interpolated linearly. This reads the modes back from the glTF JSON itself (.gltf, or the
// JSON chunk of a .glb) and marks the matching channels as step-interpolated.
#pragma once

#include <string>

#include "anim/model.h"

namespace rig {

// Mark channels whose glTF sampler says "STEP". Does nothing for other formats or when the
// JSON cannot be read (Assimp already read the file; this only refines it). Returns the
// number of channels marked.
int applyGltfStepInterpolation(const std::string& path, Model& model);

// The same on the file's bytes: glTF JSON text, or (`glb`) a binary container whose first
// chunk is the JSON. Any bytes are safe (the libFuzzer target tests/fuzz/gltf_json_fuzz.cpp).
int applyGltfStepInterpolationToBytes(const std::string& bytes, bool glb, Model& model);

// Morph targets as glTF means them, where Assimp 5.2.5 falls short: target names from the
// mesh's `extras.targetNames` (else the target POSITION accessor's name), and each "weights"
// channel read again from the file's own buffers with its sampler's interpolation (Assimp
// drops STEP and CUBICSPLINE and clamps negative weights to 0). Does nothing for other
// formats or when the JSON or a buffer cannot be read. Returns the number of tracks read.
int applyGltfMorphs(const std::string& path, Model& model);

}  // namespace rig
