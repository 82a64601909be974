#include "anim/runtime/dual_quat.h"

#include <cmath>

namespace rig {

DualQuat DualQuat::fromMatrix(const glm::mat4& m) {
    glm::vec3 x(m[0]), y(m[1]), z(m[2]);
    // Orthonormalize (drop scale / shear) before extracting the rotation.
    const float lx = glm::length(x);
    x = lx > 0.0f ? x / lx : glm::vec3(1, 0, 0);
    y = y - x * glm::dot(x, y);
    const float ly = glm::length(y);
    y = ly > 0.0f ? y / ly : glm::normalize(glm::cross(glm::abs(x.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0), x));
    (void)z;  // a right-handed frame from x and y: reflections are not rigid motions
    DualQuat d;
    d.real = glm::normalize(glm::quat_cast(glm::mat3(x, y, glm::cross(x, y))));
    const glm::vec3 t(m[3]);
    d.dual = glm::quat(0.0f, t.x, t.y, t.z) * d.real * 0.5f;
    return d;
}

glm::vec3 DualQuat::transformPoint(const glm::vec3& p) const {
    const glm::vec3 r(real.x, real.y, real.z), dv(dual.x, dual.y, dual.z);
    const glm::vec3 t = 2.0f * (real.w * dv - dual.w * r + glm::cross(r, dv));
    return real * p + t;
}

glm::vec3 DualQuat::transformVector(const glm::vec3& v) const { return real * v; }

DualQuat blendDualQuats(const DualQuat* dq, const float* w, int count) {
    glm::quat r(0, 0, 0, 0), d(0, 0, 0, 0);
    for (int i = 0; i < count; ++i) {
        if (w[i] == 0.0f) continue;
        const float s = glm::dot(dq[i].real, dq[0].real) < 0.0f ? -w[i] : w[i];
        r = r + dq[i].real * s;
        d = d + dq[i].dual * s;
    }
    const float len = std::sqrt(glm::dot(r, r));
    DualQuat out;
    if (!(len > 0.0f)) return out;
    out.real = r / len;
    out.dual = d / len;
    return out;
}

}  // namespace rig
