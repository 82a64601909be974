// CPU linear blend skinning: the reference the GPU path is tested against, with the same
// math as shaders/skinned.vert: blend the palette matrices of a vertex's influences by weight
// (weights renormalized), transform the position once, and the normal by the blended matrix's
// upper 3x3, then normalize. `influences` is how many are blended: 4 (the first set, the
// default) or 8 (both sets, where the mesh has a second; model.h).
#pragma once

#include <cstddef>

#include <glm/glm.hpp>

#include "anim/runtime/model.h"

namespace rig {

// How influences combine (seed 002 and beyond): the 4-bone linear blend (the default and
// the shader's main path), "stitching" (each vertex follows only its strongest bone), and
// dual-quaternion blending (rigid parts of the palette only; keeps volume at twists).
enum class SkinningMethod { Linear, Stitch, DualQuat };

// Skin `mesh` with `palette` (its own palette: Animator::palette() + paletteOffset).
// Writes positions (and normals if `outNormals` and the mesh has normals) in the palette's
// space: Animator::skinToModel(mesh) takes them to model space.
// Unskinned meshes are copied unchanged.
void skinMesh(const Mesh& mesh, const glm::mat4* palette, glm::vec3* outPositions,
              glm::vec3* outNormals, SkinningMethod method = SkinningMethod::Linear,
              int influences = kMaxInfluences);

// The same with morph targets applied first: positions (and normals) of the mesh plus each
// target's deltas times its weight (`morphWeights`: one per target, e.g.
// Animator::meshMorphWeights), then skinned; unskinned meshes are morphed only. Normals are
// normalized at the end. nullptr or a mesh without targets: skinMesh above.
void skinMesh(const Mesh& mesh, const glm::mat4* palette, const float* morphWeights, glm::vec3* outPositions,
              glm::vec3* outNormals, SkinningMethod method = SkinningMethod::Linear,
              int influences = kMaxInfluences);

// Morphed bind-pose position and normal of one vertex (sum in target order, zero weights
// skipped: the order the shader uses).
glm::vec3 morphedPosition(const Mesh& mesh, size_t vertex, const float* morphWeights);
glm::vec3 morphedNormal(const Mesh& mesh, size_t vertex, const float* morphWeights);

// The skin slot with the largest weight (the rigid slot for an unweighted vertex).
uint32_t strongestSlot(const Mesh& mesh, size_t vertex);

// The blended skinning matrix of one vertex.
glm::mat4 blendMatrix(const Mesh& mesh, size_t vertex, const glm::mat4* palette, int influences = kMaxInfluences);

// Whether skinning `mesh` with `influences` blends its second set (8 asked and the mesh has one).
inline bool blendsSecondSet(const Mesh& mesh, int influences) {
    return influences > kMaxInfluences && mesh.hasSecondInfluenceSet();
}

}  // namespace rig
