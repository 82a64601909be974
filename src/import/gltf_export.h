// glTF 2.0 export of a Model and a set of clips (`rigview export MODEL -o OUT.gltf|.glb`).
// Clips in, file out: whatever made the clips (trim, resample, retarget, compression, baked
// IK) happens before; this only writes what it is given. No GL, no Assimp.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "anim/model.h"

namespace rig {

struct GltfExportOptions {
    bool binary = false;             // .glb (JSON chunk + one binary chunk) instead of a .gltf
                                     // whose buffer is embedded as a base64 data: URI
    bool quantizeRotations = false;  // rotation sampler outputs as normalized SHORT
                                     // (KHR_mesh_quantization, listed in extensionsUsed/Required)
};

// Writes the model and `clips` as one glTF 2.0 asset:
// - every skeleton node as a glTF node, parent before child, in skeleton order (node i of the
//   skeleton is glTF node i), the skeleton's roots as the scene's root nodes; each node's
//   file-pose local transform as TRS (or as a matrix when it does not split into TRS exactly
//   and no clip animates the node);
// - each mesh as a glTF mesh of one triangle primitive (POSITION, NORMAL, TEXCOORD_0,
//   COLOR_0, JOINTS_0/WEIGHTS_0, morph targets with their default weights and names) on its
//   node; a second mesh on the same node goes on an added child node with an identity
//   transform. A skinned mesh gets its own skin (joints, inverse bind matrices); its
//   unweighted vertices are bound to the mesh's node with an identity inverse bind matrix,
//   which is what they follow in rigview;
// - materials' base colour and base-colour texture where it is embedded in the Model;
// - each clip as a glTF animation: translation / rotation / scale channels with their key
//   times and STEP or LINEAR interpolation, morph weight channels (STEP, LINEAR, CUBICSPLINE).
// Lengths are written as the Model holds them (metres after import). Written through
// OutputFile (a temporary file renamed over `out`). Returns false with `error` set
// ("<out>: <what went wrong>") on failure.
bool writeGltf(const Model& model, std::span<const Clip> clips, const std::filesystem::path& out,
               const GltfExportOptions& options, std::string& error);

}  // namespace rig
