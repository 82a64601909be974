// Quads split into triangles before Assimp's aiProcess_Triangulate (internal to import/).
// Assimp 5.2.5's step decides each quad's diagonal with four pairs of acosf calls, which on a
// million-quad FBX (Blender's exporter writes quads) costs more than every later pass of
// rigview's together. This pass makes the same triangles by the same rule with dot products
// only, and leaves the meshes that hold polygons of five or more corners to Assimp's step.
#pragma once

#include <cstddef>

struct aiMesh;

namespace rig::scene {

// Split every quad of `mesh` into two triangles, in place of the quad, as Assimp's step splits
// it: fanned from its first corner whose two angles to the opposite corner add up to more than
// half a turn (its concave corner), else from its first corner. Only for a mesh whose faces all
// have at most 4 corners, with indices already checked (aiProcess_ValidateDataStructure);
// the mesh then holds no polygon type. Returns the number of quads split.
size_t splitQuads(aiMesh& mesh);

}  // namespace rig::scene
