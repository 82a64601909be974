// Joint masks: a weight in [0, 1] per skeleton node, for partial-skeleton blending (seed 001).
// Built at configuration time (they allocate); read per tick.
#pragma once

#include <cstdint>
#include <vector>

#include "anim/runtime/skeleton.h"

namespace rig {

struct JointMask {
    std::vector<float> weights;
};

JointMask uniformMask(const Skeleton& skeleton, float weight);
// `weight` on rootNode and every node below it, 0 elsewhere ("upper body" = the spine's
// subtree). An invalid rootNode gives an all-zero mask.
JointMask maskFromSubtree(const Skeleton& skeleton, int32_t rootNode, float weight = 1.0f);
// 1 - w per node ("lower body" = the inverse of the upper body).
JointMask invertMask(const JointMask& mask);
enum class MaskCombine : uint8_t { Max, Min, Multiply, Add };  // Add clamps at 1
// Node by node; the result has the longer mask's size (missing entries count as 0).
JointMask combineMasks(const JointMask& a, const JointMask& b, MaskCombine op);

}  // namespace rig
