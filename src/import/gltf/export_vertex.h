// Vertex attributes as glTF wants them, for the glTF export (import/gltf/export.h): unit
// normals, unit tangents with a +-1 sign, and tangents made from a UV set where glTF requires
// them and the file gave none. No GL, no Assimp.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/model.h"

namespace rig {

// Normals of unit length: a file's normals of another length are normalized, a zero or
// non-finite one becomes +Z (glTF has no "no normal").
std::vector<glm::vec3> unitNormals(const std::vector<glm::vec3>& normals);

// `tangents` (one per vertex of `mesh`) with xyz of unit length and w +1 or -1; a zero or
// non-finite tangent becomes a unit vector perpendicular to the vertex's normal.
std::vector<glm::vec4> unitTangents(const Mesh& mesh, const std::vector<glm::vec4>& tangents);

// Tangents made from UV set `set` of `mesh` (0: uvs, 1: uvs1; read with glTF's v, down the
// image), for unitTangents: per vertex the sum of its triangles' UV directions (Lengyel's
// method) made perpendicular to the normal, w the side the v direction lies on; zero where the
// UVs say nothing. `mesh` has normals.
std::vector<glm::vec4> uvTangents(const Mesh& mesh, int set);

}  // namespace rig
