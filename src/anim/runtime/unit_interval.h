// Weights and progress values kept in [0, 1].
#pragma once

namespace rig {

// w clamped to [0, 1]; NaN gives 0.
inline float clamp01(float w) {
    if (!(w > 0.0f)) return 0.0f;
    return w < 1.0f ? w : 1.0f;
}

}  // namespace rig
