// glTF 2.0 export of a Model and a set of clips (`rigview export MODEL -o OUT.gltf|.glb`).
// Clips in, file out: whatever made the clips (trim, resample, retarget, compression, baked
// IK) happens before; this only writes what it is given. No GL, no Assimp.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "anim/runtime/model.h"

namespace rig {

struct GltfExportOptions {
    bool binary = false;             // .glb (JSON chunk + one binary chunk) instead of a .gltf
                                     // whose buffer is embedded as a base64 data: URI
    bool quantizeRotations = false;  // rotation sampler outputs as normalized SHORT
                                     // (KHR_mesh_quantization, listed in extensionsUsed/Required;
                                     // core glTF allows such rotations, and rigview's importer
                                     // reads them back within 1/32767 per component)
};

// Writes the model and `clips` as one glTF 2.0 asset:
// - every skeleton node as a glTF node, parent before child, in skeleton order (node i of the
//   skeleton is glTF node i), the skeleton's roots as the scene's root nodes; each node's
//   file-pose local transform as TRS (or as a matrix when it does not split into TRS exactly
//   and no clip animates the node); added nodes come after them;
// - each mesh as a glTF mesh of one triangle primitive (POSITION, NORMAL, TEXCOORD_0/1 with
//   glTF's v = 1 - the Model's, TANGENT, COLOR_0, JOINTS_0/WEIGHTS_0, morph targets with their default weights and names) on its
//   node; a second mesh on the same node goes on an added child node with an identity
//   transform. A skinned mesh gets its own skin (joints, inverse bind matrices); its
//   unweighted vertices are bound with an identity inverse bind matrix to the mesh's node
//   (what they follow in rigview), or to an added identity child of it where the skin already
//   binds that node elsewhere;
// - every material with all its fields (import/gltf/export_material.h: factors, every texture
//   slot with its UV set, KHR_texture_transform and sampler, alpha mode, double-sided,
//   KHR_materials_emissive_strength / clearcoat / unlit), its images embedded in the buffer;
// - each clip as a glTF animation: translation / rotation / scale channels with their key
//   times and STEP or LINEAR interpolation, morph weight channels (STEP, LINEAR, CUBICSPLINE).
//   glTF wants increasing, non-negative times: of two keys at one time the earlier is written a
//   float step before it, and a clip with keys before 0 s is moved to start at 0. A clip with
//   no channel is left out. The clip's markers go in the animation's
//   `extras.markers` ([{"name", "time"}], seconds on the written timeline).
// Lengths are written as the Model holds them (metres after import). Written through
// OutputFile (a temporary file renamed over `out`). Returns false with `error` set
// ("<out>: <what went wrong>") on failure. `leftOut`, when given, receives one line per texture
// that could not be embedded (GltfMaterialWriter::leftOut), which the file then lacks.
bool writeGltf(const Model& model, std::span<const Clip> clips, const std::filesystem::path& out,
               const GltfExportOptions& options, std::string& error, std::vector<std::string>* leftOut = nullptr);

}  // namespace rig
