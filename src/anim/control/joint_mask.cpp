#include "anim/control/joint_mask.h"
#include "anim/runtime/unit_interval.h"

#include <algorithm>

namespace rig {

// ---------------------------------------------------------------------------------------
// Joint masks

JointMask uniformMask(const Skeleton& skeleton, float weight) {
    return JointMask{std::vector<float>(skeleton.size(), clamp01(weight))};
}

JointMask maskFromSubtree(const Skeleton& skeleton, int32_t rootNode, float weight) {
    const size_t n = skeleton.size();
    JointMask m{std::vector<float>(n, 0.0f)};
    if (rootNode < 0 || static_cast<size_t>(rootNode) >= n) return m;
    const float w = clamp01(weight);
    std::vector<uint8_t> in(n, 0);
    in[rootNode] = 1;
    // Parents come first, so one forward pass from the root marks its whole subtree.
    for (size_t i = static_cast<size_t>(rootNode) + 1; i < n; ++i) {
        const int32_t p = skeleton.parent[i];
        if (p >= 0 && in[p]) in[i] = 1;
    }
    for (size_t i = 0; i < n; ++i) m.weights[i] = in[i] ? w : 0.0f;
    return m;
}

JointMask invertMask(const JointMask& mask) {
    JointMask r{mask.weights};
    for (float& w : r.weights) w = 1.0f - clamp01(w);
    return r;
}

JointMask combineMasks(const JointMask& a, const JointMask& b, MaskCombine op) {
    const size_t n = std::max(a.weights.size(), b.weights.size());
    JointMask r{std::vector<float>(n, 0.0f)};
    for (size_t i = 0; i < n; ++i) {
        const float x = i < a.weights.size() ? a.weights[i] : 0.0f;
        const float y = i < b.weights.size() ? b.weights[i] : 0.0f;
        float v = 0.0f;
        switch (op) {
            case MaskCombine::Max: v = std::max(x, y); break;
            case MaskCombine::Min: v = std::min(x, y); break;
            case MaskCombine::Multiply: v = x * y; break;
            case MaskCombine::Add: v = x + y; break;
        }
        r.weights[i] = clamp01(v);
    }
    return r;
}

}  // namespace rig
