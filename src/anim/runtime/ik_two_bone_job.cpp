#include "anim/runtime/ik_two_bone_job.h"

#include <algorithm>
#include <cmath>

#include "anim/runtime/ik_util.h"

namespace rig {

bool IKTwoBoneJob::validate() const {
    return startJoint && midJoint && endJoint;
}

bool IKTwoBoneJob::run() const {
    if (!validate()) return false;
    const glm::quat id(1.0f, 0.0f, 0.0f, 0.0f);
    glm::quat dStart = id, dMid = id;
    const glm::vec3 s((*startJoint)[3]), m((*midJoint)[3]), e((*endJoint)[3]);
    const float w = std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f;
    bool ok = ik::finite(s) && ik::finite(m) && ik::finite(e) && ik::finite(target) && w > 0.0f;
    bool hit = false;
    if (ok) {
        const glm::vec3 sm = m - s, me = e - m, st = target - s;
        const float a = glm::length(sm), b = glm::length(me), c0 = glm::length(st);
        const float chain = a + b;
        const float eps = 1e-6f * std::max(1.0f, chain);
        // 1. The mid joint: the interior angle at the mid joint for a start-to-end distance c.
        if (a > eps && b > eps) {
            float c = c0;
            const float sf = std::isfinite(soft) ? std::clamp(soft, 0.0f, 1.0f) : 1.0f;
            const float da = chain * sf, ds = chain - da;
            if (ds > 0.0f && c > da) c = da + ds * (1.0f - std::exp(-(c - da) / ds));
            c = std::clamp(c, std::fabs(a - b), chain);
            const glm::vec3 u = -sm, v = me;  // from the mid joint to its neighbours
            const float phi0 = std::acos(std::clamp(glm::dot(u, v) / (a * b), -1.0f, 1.0f));
            const float phi1 = std::acos(std::clamp((a * a + b * b - c * c) / (2.0f * a * b), -1.0f, 1.0f));
            glm::vec3 n = glm::mat3(*midJoint) * midAxis;
            const glm::vec3 bend = glm::cross(u, v);
            if (!ik::finite(n) || glm::length(n) < 1e-12f) n = bend;
            const float nl = glm::length(n);
            if (nl > 1e-12f && ik::finite(n)) {
                n /= nl;
                // Turning v about n by +t opens the angle when n goes along u x v.
                const float sign = glm::dot(bend, n) >= 0.0f ? 1.0f : -1.0f;
                dMid = glm::angleAxis(sign * (phi1 - phi0), n);
            }
        }
        // 2. The start joint: the end onto the start-to-target line.
        const glm::vec3 e1 = m + dMid * me;
        const glm::vec3 se1 = e1 - s;
        glm::quat align = id;
        if (glm::length(se1) > eps && c0 > eps) {
            align = ik::fromTo(glm::normalize(se1), st / c0);
            // 3. About that line: the mid joint towards the pole, then the twist.
            const glm::vec3 k = st / c0;
            const glm::vec3 pm = align * sm;
            const glm::vec3 pmp = pm - k * glm::dot(pm, k);
            const glm::vec3 pp = pole - k * glm::dot(pole, k);
            float angle = std::isfinite(twist) ? twist : 0.0f;
            if (ik::finite(pp) && glm::length(pmp) > eps && glm::length(pp) > 1e-12f) {
                angle += std::atan2(glm::dot(glm::cross(pmp, pp), k), glm::dot(pmp, pp));
            }
            dStart = glm::normalize(glm::angleAxis(angle, k) * align);
        }
        dStart = ik::weighted(dStart, w);
        dMid = ik::weighted(dMid, w);
        const glm::vec3 endOut = s + dStart * (sm + dMid * me);
        hit = w >= 1.0f && glm::length(endOut - target) <= 1e-4f * std::max(1.0f, chain);
    }
    if (startRotation) *startRotation = dStart;
    if (midRotation) *midRotation = dMid;
    if (startCorrection) *startCorrection = modelToLocalRotation(*startJoint, dStart);
    if (midCorrection) *midCorrection = modelToLocalRotation(*midJoint, dMid);
    if (reached) *reached = hit;
    return true;
}

void rotateSubtree(std::span<const int32_t> nodes, const glm::vec3& pivot, const glm::quat& rotation,
                   std::span<glm::mat4> model) {
    if (ik::isIdentity(rotation)) return;
    const glm::mat3 r = glm::mat3_cast(rotation);
    const size_t n = model.size();
    for (int32_t i : nodes) {
        if (i < 0 || static_cast<size_t>(i) >= n) continue;
        glm::mat4& mi = model[i];
        mi[0] = glm::vec4(r * glm::vec3(mi[0]), mi[0].w);
        mi[1] = glm::vec4(r * glm::vec3(mi[1]), mi[1].w);
        mi[2] = glm::vec4(r * glm::vec3(mi[2]), mi[2].w);
        mi[3] = glm::vec4(pivot + r * (glm::vec3(mi[3]) - pivot), mi[3].w);
    }
}

std::vector<int32_t> subtreeOf(std::span<const int32_t> parent, int32_t joint) {
    std::vector<int32_t> out;
    if (joint < 0 || static_cast<size_t>(joint) >= parent.size()) return out;
    std::vector<uint8_t> in(parent.size(), 0);
    in[joint] = 1;
    out.push_back(joint);
    for (size_t i = static_cast<size_t>(joint) + 1; i < parent.size(); ++i) {
        const int32_t p = parent[i];
        if (p >= 0 && static_cast<size_t>(p) < i && in[p]) {
            in[i] = 1;
            out.push_back(static_cast<int32_t>(i));
        }
    }
    return out;
}

glm::quat modelToLocalRotation(const glm::mat4& m, const glm::quat& rotation) {
    if (ik::isIdentity(rotation)) return rotation;
    const glm::mat3 a(m);
    const float det = glm::determinant(a);
    const glm::vec3 v(rotation.x, rotation.y, rotation.z);
    const float len = glm::length(v);
    if (!std::isfinite(det) || std::fabs(det) < 1e-30f || len == 0.0f) return rotation;
    glm::vec3 axis = glm::inverse(a) * v;
    const float al = glm::length(axis);
    if (!(al > 0.0f) || !std::isfinite(al)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    axis *= (det < 0.0f ? -len : len) / al;
    return glm::quat(rotation.w, axis.x, axis.y, axis.z);
}

}  // namespace rig
