// A glTF 2.0 mesh primitive decoded straight into a runtime Mesh (internal to import/gltf): its
// accessors resolved once and decoded into the Mesh's final arrays (reserved once, no copy of
// the whole mesh in between), strips and fans turned into triangles, indices outside the
// vertices dropped with their triangle, normals made smooth where the file has none, vertex
// colours given alpha 1 where COLOR_0 is RGB, morph targets as deltas, and the skin's
// influences (every JOINTS_n / WEIGHTS_n set) sorted, the 4 strongest renormalized (influences
// 5 to 8 as the second set; every influence of a vertex with more kept for `check`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "import/gltf/accessors.h"

namespace rig::gltf {

// The skin a primitive's node binds: skeleton node of each joint (-1: not in the scene) and its
// inverse bind matrix (`offsetComputed` where the file gives none usable).
struct SkinBinding {
    std::vector<int32_t> joints;
    std::vector<glm::mat4> inverseBind;
    std::vector<uint8_t> offsetComputed;
    std::vector<std::string> jointNames;  // for joints outside the scene (Mesh::missingBones)
};

// Whether primitive mode `mode` draws triangles (TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN).
inline bool drawsTriangles(size_t mode) { return mode >= 4 && mode <= 6; }

// Decode `prim` (a JSON primitive whose mode draws triangles) into `mesh` (name, node and
// material already set). `skin` is the node's skin, or nullptr. Morph target default weights
// come from `weights` (the mesh's "weights", may be null). Returns an error phrase (naming the
// accessor) when an accessor the primitive needs cannot be read; "" on success.
std::string decodePrimitive(const Document& doc, const json& prim, const SkinBinding* skin, const json* weights,
                            const Skeleton& sk, Mesh& mesh, ImportStats& stats);

}  // namespace rig::gltf
