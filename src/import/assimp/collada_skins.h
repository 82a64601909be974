// COLLADA skin controllers as the specification reads them, where Assimp 5.2.5 does not
// (internal to import/).
//
// A skin controller poses a vertex v at sum(w * joint * inverse_bind * bind_shape * v): the
// bind_shape_matrix places the geometry where it was bound, the instance's node does not. Assimp
// folds the bind shape into each bone's offset matrix and hangs the mesh from the instancing node,
// so a rig whose bind pose is worked out as meshToRoot * inverse(offset) (docs/import.md) stands
// wherever that node is, turned and scaled by the inverse of the bind shape. And a skin over a
// morph controller (skin -> morph -> geometry, valid COLLADA 1.4.1 that Maya writes) is a mesh
// Assimp leaves out without an error.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

struct aiScene;

namespace rig::scene {

struct ColladaController {
    std::string id;
    enum class Kind { Skin, Morph } kind = Kind::Skin;
    std::string source;  // the URI's target, without '#': a geometry, or a controller
    bool hasBindShape = false;
    std::array<float, 16> bindShape{};  // row-major, as written
};

// The controllers of a COLLADA document, read from its text (comments skipped; a controller
// whose tags cannot be read is left out).
std::vector<ColladaController> scanColladaControllers(std::string_view xml);

// One line naming the first skin controller whose source is a morph controller ("controller
// 'X-skin' skins the morph controller 'X-morph' (skin -> morph -> geometry)..."), or "" if none.
std::string skinOverMorph(const std::vector<ColladaController>& controllers);

// Re-express each skinned mesh that a single skin controller's geometry gives (Assimp names a
// mesh after its geometry's id) in its node's space as the bind shape places it: vertices,
// normals, tangents and morph targets by X^-1 = inverse(meshToRoot) * root * bind_shape, every
// bone's offset by X. Posed frames are unchanged (offset * v is); the bind pose worked out from
// the offsets then stands where the skin was bound. Call right after Assimp's read, before units.
// Returns the meshes moved.
unsigned placeColladaBindShapes(aiScene& scene, const std::vector<ColladaController>& controllers);

}  // namespace rig::scene
