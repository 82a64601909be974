#include "anim/runtime/ik_aim_job.h"

#include <algorithm>
#include <cmath>

#include "anim/runtime/ik_two_bone_job.h"
#include "anim/runtime/ik_util.h"

namespace rig {

bool IKAimJob::validate() const {
    return joint != nullptr;
}

bool IKAimJob::run() const {
    if (!validate()) return false;
    glm::quat r(1.0f, 0.0f, 0.0f, 0.0f);
    bool hit = false;
    const glm::mat3 a(*joint);
    const glm::vec3 p((*joint)[3]);
    const glm::vec3 tr = target - p;
    const float d = glm::length(tr);
    glm::vec3 f = a * forward;
    const float fl = glm::length(f);
    const float w = std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f;
    if (w > 0.0f && ik::finite(p) && ik::finite(tr) && ik::finite(f) && fl > 1e-12f && d > 1e-12f) {
        f /= fl;
        const glm::vec3 k = tr / d;
        // The point of the ray (offset + s * forward, s > 0) as far from the joint as the
        // target: turning it onto the target puts the target on the ray.
        glm::vec3 from = f;
        const glm::vec3 o = a * offset;
        if (ik::finite(o)) {
            const float of = glm::dot(o, f);
            const float disc = of * of - glm::dot(o, o) + d * d;
            if (disc >= 0.0f) {
                const float s = -of + std::sqrt(disc);
                const glm::vec3 q = o + s * f;
                const float ql = glm::length(q);
                if (s > 0.0f && ql > 1e-12f) from = q / ql;
            }
        }
        r = ik::fromTo(from, k);
        // About the joint-to-target line: up towards the pole.
        float angle = std::isfinite(twist) ? twist : 0.0f;
        const glm::vec3 u = r * (a * up);
        const glm::vec3 up1 = u - k * glm::dot(u, k);
        const glm::vec3 pp = pole - k * glm::dot(pole, k);
        if (ik::finite(up1) && ik::finite(pp) && glm::length(up1) > 1e-9f && glm::length(pp) > 1e-9f) {
            angle += std::atan2(glm::dot(glm::cross(up1, pp), k), glm::dot(up1, pp));
        }
        r = glm::normalize(glm::angleAxis(angle, k) * r);
        bool limited = false;
        if (std::isfinite(limit) && limit > 0.0f) {
            const float total = ik::angleOf(r);
            if (total > limit) {
                r = ik::weighted(r, limit / total);
                limited = true;
            }
        }
        r = ik::weighted(r, w);
        if (!limited && w >= 1.0f) {
            // Distance from the target to the corrected ray.
            const glm::vec3 o1 = ik::finite(o) ? r * o : glm::vec3(0.0f);
            const glm::vec3 f1 = r * f;
            const glm::vec3 to = tr - o1;
            const float along = glm::dot(to, f1);
            hit = along >= 0.0f && glm::length(to - along * f1) <= 1e-4f * std::max(1.0f, d);
        }
    }
    if (rotation) *rotation = r;
    if (correction) *correction = modelToLocalRotation(*joint, r);
    if (reached) *reached = hit;
    return true;
}

}  // namespace rig
