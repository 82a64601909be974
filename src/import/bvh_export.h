// BVH export of a skeleton and one clip (mocap editing: trim, resample, export).
#pragma once

#include <string>

#include "anim/model.h"
#include "anim/result.h"

namespace rig {

// Write `clip` of `model` as BVH: the whole frame tree as joints (OFFSET = bind local
// translation; scale is not representable and dropped), 6 channels (position + ZXY
// rotation) for the root and for nodes with translation keys, 3 (ZXY rotation) for the
// rest; frames sampled every 1/fps seconds from 0 to the clip's duration.
// Returns an error naming `path` when it cannot be written.
Result<bool> exportBvh(const Model& model, const Clip& clip, float fps, const std::string& path);

}  // namespace rig
