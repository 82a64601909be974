// The JSON that `rigview pose -o X.json` writes: the posed meshes' world positions and the
// joints' world matrices of an evaluated Animator. Its own file so the whole-import fuzz target
// (tests/fuzz/import_fuzz.cpp) runs the same writer on whatever a hostile file turns into.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "util/json_out.h"

namespace rig {

// Mesh m of `model` skinned with `anim`'s current palette and morph weights, taken to world
// space (skinToModel): the positions `pose` writes, mesh.vertexCount() of them into `out`.
// `skinned` and `normals` are scratch (resized as needed). `method`: how influences combine
// (linear blend: what `pose` writes and the shader's main path); `influences`: 4 or 8 blended.
void posedMeshPositions(const Model& model, const Animator& anim, size_t m, std::vector<glm::vec3>& skinned,
                        std::vector<glm::vec3>& normals, glm::vec3* out,
                        SkinningMethod method = SkinningMethod::Linear, int influences = kMaxInfluences);

// Skins every mesh of `model` with `anim`'s current palette and returns the document (one line
// and a newline). Non-finite numbers are written as null and counted in `stats`; names are
// valid UTF-8 JSON strings whatever the file held. `clip` < 0: the bind pose (clip null).
std::string poseJson(const Model& model, const Animator& anim, int32_t clip, float time, jsonout::Stats& stats,
                     int influences = kMaxInfluences);

}  // namespace rig
