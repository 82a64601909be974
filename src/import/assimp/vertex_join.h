// Joining identical vertices after import. Assimp's aiProcess_JoinIdenticalVertices (5.2.5)
// compares positions, normals, UVs, colours and tangents but not morph targets: it joins two
// vertices whose targets move them apart, and morphing then pulls every triangle of the
// dropped vertex to the kept one's place. So meshes with morph targets are joined here,
// exactly, with their targets compared too; the others by Assimp's step. Assimp types stay
// inside import/.
#pragma once

#include <cstddef>

struct aiMesh;
struct aiScene;

namespace Assimp {
class Importer;
}

namespace rig {

// Join the vertices of `mesh` that are bitwise identical in every per-vertex attribute it has
// (position, normal, tangent, bitangent, every UV and colour channel, bone influences) and in
// every morph target's values for them. Vertex order is kept (a vertex takes the place of its
// first occurrence), faces, bone weights and morph targets are remapped. A mesh with a morph
// target of another vertex count is left as it is. Returns the number of vertices removed.
size_t joinMorphMeshVertices(aiMesh& mesh);

// Join identical vertices in every mesh of the importer's scene: meshes with morph targets by
// joinMorphMeshVertices, the others by Assimp's aiProcess_JoinIdenticalVertices (run on them
// alone). Returns the scene, or nullptr if Assimp's step failed (the scene is then freed).
const aiScene* joinIdenticalVertices(Assimp::Importer& importer);

}  // namespace rig
