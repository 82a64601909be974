#include "app/up_axis.h"

#include <algorithm>
#include <cmath>

namespace rig {

bool guessZUp(const Bounds& b) {
    if (!b.valid()) return false;
    const glm::vec3 ext = b.max - b.min;
    const float size = std::max({ext.x, ext.y, ext.z});
    if (!(size > 0.0f)) return false;
    // Standing on the ground at the origin: the lowest point within 2% of the size from it.
    const float near = 0.02f * size;
    const bool onY = std::abs(b.min.y) <= near && b.max.y > near;
    const bool onZ = std::abs(b.min.z) <= near && b.max.z > near;
    if (onY != onZ) return onZ;
    return ext.z > 1.25f * ext.y && ext.z >= ext.x;
}

}  // namespace rig
