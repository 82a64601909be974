#include "check/check_context.h"

#include <cstdio>

namespace rig::checks {

std::vector<int64_t> toExamples(const std::vector<uint32_t>& v) {
    return std::vector<int64_t>(v.begin(), v.end());
}

std::string meshLabel(const Mesh& m, size_t i) {
    return "mesh " + std::to_string(i) + " '" + m.name + "'";
}

std::string clipLabel(const Clip& c, size_t i) {
    return "clip " + std::to_string(i) + " '" + c.name + "'";
}

std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

bool finiteMat(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k)
            if (!std::isfinite(m[c][k])) return false;
    return true;
}

float angleDegrees(const glm::quat& a, const glm::quat& b) {
    const glm::quat r = glm::conjugate(a) * b;
    const float s = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
    const float ang = 2.0f * std::atan2(s, std::fabs(r.w));
    return std::isfinite(ang) ? ang * 180.0f / kPi : 0.0f;
}

const std::string& nodeName(const Model& model, int32_t node) {
    static const std::string none;
    return node >= 0 && static_cast<size_t>(node) < model.skeleton.names.size() ? model.skeleton.names[node] : none;
}

void add(Context& cx, Finding f) { cx.r.findings.push_back(std::move(f)); }

}  // namespace rig::checks
