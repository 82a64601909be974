// IQM import: Inter-Quake Model (.iqm, version 2) files, written here: Assimp 5.2.5 reads
// only their static meshes (no skin, no joints, no animations).
//
// What is read: meshes (positions, normals, texture coordinates, vertex colours, triangles,
// the material string as material name and base-colour texture), the joints (hierarchy and
// base pose), the skin (blend indexes/weights: the 4 strongest influences kept and
// renormalized, as for every other format), and every animation as a clip (poses, frames with
// their channel masks, offsets and scales, the frame rate). Adjacency, tangents, custom
// arrays, bounds, comments and extensions are not read.
//
// Conventions (pinned by tests/iqm_test.cpp):
// - Joints and poses are relative to their parent: local = T * R * S (column vectors), the
//   quaternion stored x, y, z, w (Hamilton, as glm), normalized on import. A pose channel's
//   value is offset[c] + (mask bit c ? frame value * scale[c] : 0), channels 0-2 translation,
//   3-6 rotation (x, y, z, w), 7-9 scale; the frame data lists, per pose, the masked channels
//   in order.
// - Vertices are in the model's base pose; blend index j is joint j of the file. A joint's
//   inverse bind matrix is the inverse of its base-pose model-space transform.
// - Coordinates: IQM is Z-up (Quake, Blender). Like Assimp does for its own IQM reader (and
//   as every other format reaches rigview Y-up), the frame tree gets a root node "<IQMRoot>"
//   that rotates Z-up to Y-up (x, y, z) -> (x, z, -y); meshes hang from it and joints below
//   it, so all file numbers stay as they are in mesh and joint space. Triangles are wound
//   clockwise in IQM and are reversed (counter-clockwise front faces); texture coordinates
//   have their origin top-left and v is flipped (1 - v), as Assimp does.
// - Joints whose parent comes after them are reordered parent-first (stable: a file already in
//   order keeps it); skin slots stay the file's joint indices.
// - Anim k becomes clip k: frame f at f / framerate seconds (a framerate of 0 or less reads
//   at 25 frames per second, as for other formats, and `check` says so); an anim flagged
//   IQM_LOOP gets frame 0 again at numframes / framerate so the wrap from the last frame to
//   the first is interpolated as IQM players do. Components with no masked channel get one key.
// - Animation-only files (no joints, poses only: what the IQM compiler writes for animation
//   files given without a mesh, one file per action beside the mesh's file) carry no joint names
//   and no base pose: pose i drives joint i of the IQM model they are loaded with (--anim). The
//   pose count and every pose's parent must equal the model's joint count and joint i's parent
//   (file indices), else one line names the file and the mismatch. On their own they are
//   refused with a line saying how to load them. Files with joints and no mesh (`iqm -j`,
//   Blender's exporter with Meshes off) are models with clips: --anim binds them by name.
// - Every count and offset is checked against the file's size; errors are one line
//   "path: what is wrong".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig {

inline constexpr size_t kMaxIqmBytes = size_t(1) << 30;
// Values (floats) all clips may expand to, and likewise all meshes (vertex components, indices,
// skin slots): at most kMaxIqmKeyValues, and at most the larger of kMinIqmKeyBudget and
// kIqmKeyValuesPerByte per byte of file (anims may share frames and meshes vertex ranges: a
// small file must not claim gigabytes).
inline constexpr uint64_t kMaxIqmKeyValues = uint64_t(1) << 27;
inline constexpr uint64_t kMinIqmKeyBudget = uint64_t(1) << 22;
inline constexpr uint64_t kIqmKeyValuesPerByte = 64;

// Parse an IQM file held in memory; `path` names it in error messages.
Result<Model> parseIqm(const uint8_t* data, size_t size, const std::string& path);
// Read and parse the file at `path`.
Result<Model> importIqm(const std::string& path);

// Whether an IQM header (the first bytes of a file) is an animation-only file's: version 2, no
// joints, some poses.
bool isIqmAnimationOnly(const uint8_t* data, size_t size);
bool isIqmAnimationOnlyFile(const std::string& path);
// The clips of an animation-only IQM file on the joints of the IQM model file `model`: a Model
// with the model file's skeleton (as parseIqm builds it), no meshes, and the clips.
Result<Model> parseIqmAnimations(const uint8_t* anim, size_t animSize, const std::string& animPath, const uint8_t* model,
                                 size_t modelSize, const std::string& modelPath);
Result<Model> importIqmAnimations(const std::string& animPath, const std::string& modelPath);

}  // namespace rig
