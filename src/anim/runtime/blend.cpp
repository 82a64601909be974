#include "anim/runtime/blend.h"
#include "anim/runtime/unit_interval.h"

#include <algorithm>
#include <cmath>

namespace rig {

namespace {

inline glm::quat normalizedQuat(const glm::quat& q) {
    const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (!(len2 > 0.0f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    const float inv = 1.0f / std::sqrt(len2);
    return glm::quat(q.w * inv, q.x * inv, q.y * inv, q.z * inv);
}

inline float safeRatio(float s, float r) {
    return std::fabs(r) > 1e-12f ? s / r : 1.0f;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Poses

void samplePose(const Clip& clip, float t, const Skeleton& skeleton, uint32_t* cursors,
                std::span<Transform> out, RotationBlend blend) {
    const size_t n = skeleton.size();
    if (out.size() < n || skeleton.bindLocalSqt.size() < n) return;
    std::copy(skeleton.bindLocalSqt.begin(), skeleton.bindLocalSqt.begin() + static_cast<std::ptrdiff_t>(n), out.begin());
    sampleClip(clip, t, skeleton.bindLocalSqt.data(), out.data(), cursors, blend);
}

Transform blendTransforms(const Transform& a, const Transform& b, float w) {
    w = clamp01(w);
    if (w == 0.0f) return a;
    if (w == 1.0f) return b;
    Transform r;
    r.translation = a.translation + (b.translation - a.translation) * w;
    r.rotation = slerpShortest(a.rotation, b.rotation, w);
    r.scale = a.scale + (b.scale - a.scale) * w;
    return r;
}

void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float w,
                std::span<Transform> out) {
    const size_t n = std::min({a.size(), b.size(), out.size()});
    for (size_t i = 0; i < n; ++i) out[i] = blendTransforms(a[i], b[i], w);
}

void blendPosesMasked(std::span<const Transform> a, std::span<const Transform> b,
                      std::span<const float> weights, std::span<Transform> out, float scale) {
    const size_t n = std::min({a.size(), b.size(), out.size()});
    for (size_t i = 0; i < n; ++i) {
        const float w = i < weights.size() ? weights[i] * scale : 0.0f;
        out[i] = blendTransforms(a[i], b[i], w);
    }
}

Transform differenceTransform(const Transform& source, const Transform& reference) {
    Transform d;
    d.rotation = normalizedQuat(source.rotation * glm::inverse(reference.rotation));
    d.translation = source.translation - reference.translation;
    d.scale = glm::vec3(safeRatio(source.scale.x, reference.scale.x),
                        safeRatio(source.scale.y, reference.scale.y),
                        safeRatio(source.scale.z, reference.scale.z));
    return d;
}

Transform addTransform(const Transform& base, const Transform& difference, float w) {
    w = clamp01(w);
    if (w == 0.0f) return base;
    Transform r;
    const glm::quat q = w == 1.0f ? difference.rotation
                                  : slerpShortest(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), difference.rotation, w);
    r.rotation = normalizedQuat(q * base.rotation);
    r.translation = base.translation + difference.translation * w;
    r.scale = base.scale * (glm::vec3(1.0f) + (difference.scale - glm::vec3(1.0f)) * w);
    return r;
}

void makeDifference(std::span<const Transform> source, std::span<const Transform> reference,
                    std::span<Transform> out) {
    const size_t n = std::min({source.size(), reference.size(), out.size()});
    for (size_t i = 0; i < n; ++i) out[i] = differenceTransform(source[i], reference[i]);
}

Pose makeDifference(const Pose& source, const Pose& reference) {
    Pose out(std::min(source.size(), reference.size()));
    makeDifference(source, reference, out);
    return out;
}

void applyAdditive(std::span<const Transform> base, std::span<const Transform> difference,
                   float weight, std::span<Transform> out) {
    const size_t n = std::min({base.size(), difference.size(), out.size()});
    for (size_t i = 0; i < n; ++i) out[i] = addTransform(base[i], difference[i], weight);
}

void applyAdditiveMasked(std::span<const Transform> base, std::span<const Transform> difference,
                         std::span<const float> weights, std::span<Transform> out, float scale) {
    const size_t n = std::min({base.size(), difference.size(), out.size()});
    for (size_t i = 0; i < n; ++i) {
        const float w = i < weights.size() ? weights[i] * scale : 0.0f;
        out[i] = addTransform(base[i], difference[i], w);
    }
}

}  // namespace rig
