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

}  // namespace rig
