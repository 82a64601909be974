// Transform: a local joint pose as scale, rotation, translation (SQT), applied to a column
// vector as T * R * S.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig {

struct Transform {
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm order: w, x, y, z
    glm::vec3 scale{1.0f};
};

// The matrix T * R * S, built directly (no matrix products).
inline glm::mat4 toMatrix(const Transform& t) {
    const glm::quat& q = t.rotation;
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    glm::mat4 m;
    m[0] = glm::vec4(1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz), 2.0f * (xz - wy), 0.0f) * t.scale.x;
    m[1] = glm::vec4(2.0f * (xy - wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx), 0.0f) * t.scale.y;
    m[2] = glm::vec4(2.0f * (xz + wy), 2.0f * (yz - wx), 1.0f - 2.0f * (xx + yy), 0.0f) * t.scale.z;
    m[3] = glm::vec4(t.translation, 1.0f);
    return m;
}

// Product of two affine matrices (last rows 0,0,0,1): skips the work on the last row.
inline glm::mat4 mulAffine(const glm::mat4& a, const glm::mat4& b) {
#if defined(__SSE2__)
    const __m128 a0 = _mm_loadu_ps(&a[0][0]), a1 = _mm_loadu_ps(&a[1][0]);
    const __m128 a2 = _mm_loadu_ps(&a[2][0]), a3 = _mm_loadu_ps(&a[3][0]);
    glm::mat4 r;
    for (int c = 0; c < 4; ++c) {
        const __m128 bc = _mm_loadu_ps(&b[c][0]);
        __m128 v = _mm_mul_ps(a0, _mm_shuffle_ps(bc, bc, _MM_SHUFFLE(0, 0, 0, 0)));
        v = _mm_add_ps(v, _mm_mul_ps(a1, _mm_shuffle_ps(bc, bc, _MM_SHUFFLE(1, 1, 1, 1))));
        v = _mm_add_ps(v, _mm_mul_ps(a2, _mm_shuffle_ps(bc, bc, _MM_SHUFFLE(2, 2, 2, 2))));
        if (c == 3) v = _mm_add_ps(v, a3);
        _mm_storeu_ps(&r[c][0], v);
    }
    return r;
#else
    glm::mat4 r;
    for (int c = 0; c < 4; ++c) r[c] = a[0] * b[c].x + a[1] * b[c].y + a[2] * b[c].z;
    r[3] += a[3];
    return r;
#endif
}

// Split an affine matrix into SQT. Shear is lost; a negative determinant goes into scale.x.
// Returns false when the matrix is degenerate (a zero or non-finite axis).
bool decompose(const glm::mat4& m, Transform& out);

}  // namespace rig
