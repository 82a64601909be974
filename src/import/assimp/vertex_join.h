// Joining identical vertices after Assimp's import (internal to import/). Several readers give
// one vertex per face corner (FBX, COLLADA, .X...); rigview joins the corners back into shared
// vertices itself, instead of Assimp's aiProcess_JoinIdenticalVertices (5.2.5), which compares
// neither bone weights nor morph targets (it joined coincident vertices of two legs into one
// weighted half to each, and the two lips of a closed mouth that the targets move apart) and
// costs time quadratic in a bone's weights (minutes at a million vertices).
#pragma once

#include <cstddef>

struct aiMesh;
struct aiScene;

namespace rig::scene {

// Join the vertices of `mesh` that sit at the same position (bit for bit), have the same bone
// influences (bone and weight, bit for bit) and agree within 1e-5 in every other attribute they
// have (normal, tangent, bitangent, every UV and colour channel, and every morph target's values
// for them: Assimp's own tolerance, as exporters write a vertex's per-corner normals with float
// noise). Vertex order is kept (a vertex takes the place of its first occurrence); faces, bone
// weights and morph targets are remapped. Time and memory linear in the mesh's data (a hash of
// positions; at most 32 candidates compared per vertex). A mesh with a morph target of another
// vertex count is left as it is. Returns the number of vertices removed.
size_t joinMeshVertices(aiMesh& mesh);

// joinMeshVertices on every mesh of the scene. Returns the number of vertices removed.
size_t joinIdenticalVertices(aiScene& scene);

}  // namespace rig::scene
