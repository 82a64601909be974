// Repair of Assimp scenes that fail Assimp's validation only on points with one safe reading
// (keys past the clip's duration, empty or missing animation channels). Assimp types stay
// inside import/.
#pragma once

#include <assimp/matrix4x4.h>

#include <string>
#include <vector>

#include "anim/runtime/model.h"

struct aiScene;
struct aiMesh;

namespace rig {

// Mend `scene` (read without validation, before it is validated) exactly where Assimp's
// validator would refuse it although the file has one safe reading:
// - keys after the animation's duration (e.g. a Blitz3D key one frame past the clip's frame
//   count): the duration is extended to the last key ("repaired-keys");
// - null or key-less node / morph channels are dropped, and animations left with no channel
//   are dropped ("repaired-channels").
// Unsorted and duplicate key times are not touched here: Assimp only warns about them and
// rigview's import sorts and reports them. Anything else the validator refuses still fails with
// its message (validation runs after this, as the first post-processing step). Returns what was
// repaired (empty: nothing, the common case).
std::vector<ImportRepair> repairScene(aiScene& scene);

// Turn each rotation key onto the side of its predecessor (q and -q are one rotation), for
// formats whose files key rotations as something else (matrices, Euler angles, axis and angle)
// and so hold no quaternion sign: the signs are the import's, and a flip between neighbouring
// keys would be reported by `check` (quaternion-sign-flip) as the file's. Returns the keys turned.
unsigned alignRotationKeys(aiScene& scene);

// Delete the scene's lights and cameras (rigview uses neither), before validation: a light with
// no node of its name or a camera with a bad field of view no longer refuses the whole file.
void dropLightsAndCameras(aiScene& scene);

// Move a mesh's data by `m`: positions (and morph targets' positions) by m, normals by its
// inverse transpose, tangents and bitangents by its linear part, directions renormalized. Bone
// offsets are the caller's (a bind-shape bake and a geometric-transform bake treat them apart).
void transformMeshData(aiMesh& mesh, const aiMatrix4x4& m);

}  // namespace rig
