#include "anim/runtime/transform.h"

#include <cmath>

namespace rig {

bool decompose(const glm::mat4& m, Transform& out) {
    glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    glm::vec3 scale(glm::length(axis[0]), glm::length(axis[1]), glm::length(axis[2]));
    out.translation = glm::vec3(m[3]);
    for (int i = 0; i < 3; ++i) {
        if (!(scale[i] > 1e-12f) || !std::isfinite(scale[i])) {
            out.scale = scale;
            out.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
            return false;
        }
    }
    if (glm::dot(glm::cross(axis[0], axis[1]), axis[2]) < 0.0f) scale.x = -scale.x;
    glm::mat3 r(axis[0] / scale.x, axis[1] / scale.y, axis[2] / scale.z);
    out.scale = scale;
    out.rotation = glm::normalize(glm::quat_cast(r));
    return true;
}

}  // namespace rig
