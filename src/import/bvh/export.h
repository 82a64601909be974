// BVH export of a skeleton and one clip (mocap editing: trim, resample, export).
#pragma once

#include <cstdint>
#include <string>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig {

// Write `clip` of `model` as BVH: the whole frame tree as joints (OFFSET = bind local
// translation; scale is not representable and dropped), 6 channels (position + ZXY
// rotation) for the root and for nodes with translation keys, 3 (ZXY rotation) for the
// rest; frames sampled every 1/fps seconds from 0 to the clip's duration.
// Streamed to a temporary file renamed over `path` on success (util/output_file.h).
// Returns an error naming `path` when it cannot be written or is too large (limits below).
Result<bool> exportBvh(const Model& model, const Clip& clip, float fps, const std::string& path);

// Bounds of an export (README: export): --fps in (0, kMaxBvhFps], at most kMaxBvhFrames
// frames and kMaxBvhValues numbers in the MOTION section (about 2 GB of text).
inline constexpr double kMaxBvhFps = 1000.0;
inline constexpr int64_t kMaxBvhFrames = 10'000'000;
inline constexpr int64_t kMaxBvhValues = 200'000'000;

// Frames an export of `clip` at `fps` writes (duration x fps + 1), computed without overflow
// (saturates at INT64_MAX), and the numbers per frame (channels) for `model`.
int64_t bvhFrameCount(const Clip& clip, double fps);
int64_t bvhChannelCount(const Model& model, const Clip& clip);

}  // namespace rig
