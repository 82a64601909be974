#include "anim/clip.h"

#include <algorithm>
#include <cmath>

namespace rig {

uint32_t findKey(const float* times, uint32_t count, float t, uint32_t& cursor) {
    const uint32_t last = count - 2;  // largest valid segment index
    uint32_t k = cursor < last ? cursor : last;
    if (times[k] <= t) {
        if (k == last || t < times[k + 1]) return cursor = k;
        if (k + 1 == last || t < times[k + 2]) return cursor = k + 1;
    } else if (k > 0 && times[k - 1] <= t) {
        return cursor = k - 1;
    } else if (k == 0) {
        return cursor = 0;
    }
    // Random access: first key strictly greater than t, minus one.
    const float* it = std::upper_bound(times, times + count, t);
    uint32_t idx = static_cast<uint32_t>(it - times);
    k = idx == 0 ? 0 : idx - 1;
    return cursor = k < last ? k : last;
}

namespace {

// Interpolation factor within segment k, clamped so that t outside the keys holds the
// first or last value.
inline float segmentAlpha(const float* times, uint32_t k, float t) {
    const float t0 = times[k], t1 = times[k + 1];
    const float span = t1 - t0;
    if (!(span > 0.0f)) return t >= t1 ? 1.0f : 0.0f;
    const float a = (t - t0) / span;
    return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
}

}  // namespace

glm::vec3 sampleVec3(const Clip& clip, const Channel& ch, float t, uint32_t& cursor) {
    const glm::vec3* v = clip.vec3Keys.data() + ch.first;
    if (ch.count == 1) return v[0];
    const float* times = clip.times.data() + ch.first;
    const uint32_t k = findKey(times, ch.count, t, cursor);
    const float a = segmentAlpha(times, k, t);
    if (ch.interpolation == Interpolation::Step) return a >= 1.0f ? v[k + 1] : v[k];
    return v[k] + (v[k + 1] - v[k]) * a;
}

glm::quat nlerpShortest(const glm::quat& a, const glm::quat& b, float alpha) {
    const float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    const float s = d < 0.0f ? -alpha : alpha;
    const float r = 1.0f - alpha;
    glm::quat q(r * a.w + s * b.w, r * a.x + s * b.x, r * a.y + s * b.y, r * a.z + s * b.z);
    const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    const float inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
    return glm::quat(q.w * inv, q.x * inv, q.y * inv, q.z * inv);
}

glm::quat slerpShortest(const glm::quat& a, const glm::quat& b, float alpha) {
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    float sign = 1.0f;
    if (d < 0.0f) {
        d = -d;
        sign = -1.0f;
    }
    if (d > 0.9995f) return nlerpShortest(a, b, alpha);
    const float theta = std::acos(d);
    const float invSin = 1.0f / std::sin(theta);
    const float wa = std::sin((1.0f - alpha) * theta) * invSin;
    const float wb = sign * std::sin(alpha * theta) * invSin;
    glm::quat q(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
    const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    const float inv = 1.0f / std::sqrt(len2);
    return glm::quat(q.w * inv, q.x * inv, q.y * inv, q.z * inv);
}

glm::quat sampleQuat(const Clip& clip, const Channel& ch, float t, uint32_t& cursor,
                     RotationBlend blend) {
    const glm::quat* v = clip.quatKeys.data() + ch.first;
    if (ch.count == 1) return v[0];
    const float* times = clip.times.data() + ch.first;
    const uint32_t k = findKey(times, ch.count, t, cursor);
    const float a = segmentAlpha(times, k, t);
    if (ch.interpolation == Interpolation::Step) return a >= 1.0f ? v[k + 1] : v[k];
    if (a <= 0.0f) return v[k];
    if (a >= 1.0f) return v[k + 1];
    return blend == RotationBlend::Slerp ? slerpShortest(v[k], v[k + 1], a)
                                         : nlerpShortest(v[k], v[k + 1], a);
}

void sampleClip(const Clip& clip, float t, const Transform* bindLocal, Transform* local,
                uint32_t* cursors, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    for (size_t i = 0; i < n; ++i) {
        const Track& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        uint32_t* c = cursors + 3 * i;
        out.translation = tr.translation.count ? sampleVec3(clip, tr.translation, t, c[0])
                                               : bind.translation;
        out.rotation = tr.rotation.count ? sampleQuat(clip, tr.rotation, t, c[1], blend)
                                         : bind.rotation;
        out.scale = tr.scale.count ? sampleVec3(clip, tr.scale, t, c[2]) : bind.scale;
    }
}

}  // namespace rig
