// Small helpers shared by the IK jobs (quaternion arcs and weights). Header-only, internal.
#pragma once

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace rig::ik {

inline bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

inline bool isIdentity(const glm::quat& q) {
    return q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && (q.w == 1.0f || q.w == -1.0f);
}

// The shortest rotation taking unit vector a onto unit vector b; half a turn about some axis
// perpendicular to a when they are opposite.
inline glm::quat fromTo(const glm::vec3& a, const glm::vec3& b) {
    const float d = glm::dot(a, b);
    if (d >= 1.0f - 1e-7f) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    if (d <= -1.0f + 1e-6f) {
        glm::vec3 axis = glm::cross(glm::vec3(1.0f, 0.0f, 0.0f), a);
        if (glm::dot(axis, axis) < 1e-6f) axis = glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), a);
        return glm::angleAxis(3.14159265358979f, glm::normalize(axis));
    }
    const glm::vec3 c = glm::cross(a, b);
    return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

// A fraction w in [0, 1] of rotation q (from the identity, the short way round).
inline glm::quat weighted(glm::quat q, float w) {
    if (w >= 1.0f) return q;
    if (!(w > 0.0f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    if (q.w < 0.0f) q = -q;
    const float vl = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(vl > 0.0f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    const float h = std::atan2(vl, q.w) * w;
    const float k = std::sin(h) / vl;
    return glm::normalize(glm::quat(std::cos(h), q.x * k, q.y * k, q.z * k));
}

// Rotation angle of a unit quaternion, in [0, pi].
inline float angleOf(const glm::quat& q) {
    return 2.0f * std::atan2(std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z), std::fabs(q.w));
}

}  // namespace rig::ik
