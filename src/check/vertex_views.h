// Per-vertex numbers behind the viewer's check views (weight heat map, influence count,
// weight-sum error, truncation error). Pure C++, no GL: the viewer turns them into colours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/model.h"

namespace rig {

// The weight of skeleton node `skeletonNode` on each vertex of `mesh`, as skinning uses it
// (the kept, renormalized influences; several skin slots naming the node add up); 0 where the
// node does not move the vertex. Vertices that follow the mesh's node rigidly (unweighted
// vertices, or every vertex of an unskinned mesh) get 1 when `skeletonNode` is that node.
std::vector<float> jointWeights(const Mesh& mesh, int32_t skeletonNode);

// Influences per vertex as the file gave them, before truncation: 0 unweighted, 1..4, and 5
// for more than 4. Unskinned meshes: all 0. Meshes without import records
// (originalInfluenceCount empty, e.g. built in code) count their non-zero kept weights.
std::vector<uint8_t> influenceCounts(const Mesh& mesh);

// |sum of the file's weights - 1| per vertex (so 1 for an unweighted vertex of a skinned
// mesh); all 0 for an unskinned mesh. Without import records, the kept weights' sum is used.
std::vector<float> weightSumError(const Mesh& mesh);

// Per vertex, the largest distance (model units: the skinned positions taken through the
// mesh node's posed transform) between skinning with all of the vertex's original influences
// (renormalized) and with the 4 kept ones, over `samples` evenly spaced times of clip `clip`
// (first key to last, both included), or at the bind pose when clip < 0 or out of range (or
// the clip has no node -> track map).
// 0 for vertices that were never truncated.
std::vector<float> truncationError(const Model& model, size_t mesh, int32_t clip, int samples);

// One truncated vertex at one pose: the distance in model units between skinning with all
// its influences (renormalized) and with the kept 4 (or 8: `influences`). `palette` is the
// mesh's own palette, `meshWorld` its node's posed model-space matrix.
float truncationDistance(const Mesh& mesh, const FullInfluences& full, const glm::mat4* palette,
                         const glm::mat4& meshWorld, int influences = kMaxInfluences);

}  // namespace rig
