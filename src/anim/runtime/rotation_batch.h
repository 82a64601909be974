// Interpolation shared by the plain and the compressed samplers (internal to src/anim): a
// segment's two keys blended (lerpPair, blendPair), SLERP by Eberly's polynomial (slerpInline),
// and a queue that interpolates
// rotations four at a time in SSE, each lane computing exactly what slerpInline() /
// nlerpShortest() compute (so the results are the same bits as the scalar path).
#pragma once

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#if RIG_HAVE_AVX2_PATH
#include <immintrin.h>
#endif

namespace rig::detail {

inline glm::quat normalized(float w, float x, float y, float z) {
    const float len2 = x * x + y * y + z * z + w * w;
    const float inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
    return glm::quat(w * inv, x * inv, y * inv, z * inv);
}

// sin(t*theta) / sin(theta) as a polynomial in x = cos(theta) (D. Eberly, "A Fast and
// Accurate Algorithm for Computing SLERP"): t * (1 + b1 (1 + b2 (1 + ... (1 + bN)))) with
// b_i = (t^2 - i^2) / (i (2i + 1)) * (x - 1). With N = 8 the last term is scaled by mu to
// cut the truncation error; keys close together (x - 1 > -0.01, under 16 degrees apart)
// need only N = 4 for the same accuracy, as each term shrinks by at least 200 times.
constexpr float kSlerpMu = 1.85298109240830f;
constexpr float kSlerpU[8] = {1.0f / (1 * 3), 1.0f / (2 * 5), 1.0f / (3 * 7), 1.0f / (4 * 9),
                              1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), kSlerpMu / (8 * 17)};
constexpr float kSlerpV[8] = {1.0f / 3, 2.0f / 5, 3.0f / 7, 4.0f / 9,
                              5.0f / 11, 6.0f / 13, 7.0f / 15, kSlerpMu * 8 / 17};

template <int N>
inline float slerpWeight(float t, float xm1) {
    const float t2 = t * t;
    float r = 1.0f;
    for (int i = N - 1; i >= 0; --i) r = 1.0f + (kSlerpU[i] * t2 - kSlerpV[i]) * xm1 * r;
    return t * r;
}

// Both weights at once, sin((1 - alpha) theta) / sin(theta) and sin(alpha theta) / sin(theta):
// the same operations as two slerpWeight calls, one per SSE lane (so the same results), in
// one dependency chain instead of two.
template <int N>
inline void slerpWeights(float alpha, float xm1, float& wa, float& wb) {
#if defined(__SSE2__)
    const __m128 t = _mm_setr_ps(1.0f - alpha, alpha, 0.0f, 0.0f);
    const __m128 t2 = _mm_mul_ps(t, t);
    const __m128 x = _mm_set1_ps(xm1), one = _mm_set1_ps(1.0f);
    __m128 r = one;
    for (int i = N - 1; i >= 0; --i) {
        const __m128 c = _mm_sub_ps(_mm_mul_ps(_mm_set1_ps(kSlerpU[i]), t2), _mm_set1_ps(kSlerpV[i]));
        r = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(c, x), r));
    }
    r = _mm_mul_ps(t, r);
    wa = _mm_cvtss_f32(r);
    wb = _mm_cvtss_f32(_mm_shuffle_ps(r, r, _MM_SHUFFLE(1, 1, 1, 1)));
#else
    wa = slerpWeight<N>(1.0f - alpha, xm1);
    wb = slerpWeight<N>(alpha, xm1);
#endif
}

// Two keys that hold the same rotation, component for component: any blend of them is that
// rotation, given exactly (the formulas would round it through a normalization). Every path
// (scalar, four- and eight-wide) makes this same test, so they still give the same bits.
inline bool sameKeys(const glm::quat& a, const glm::quat& b) {
#if defined(__SSE2__)
    static_assert(sizeof(glm::quat) == 16, "glm::quat must be four packed floats");
    return _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(&a.x), _mm_loadu_ps(&b.x))) == 0xf;  // one branch, not eight
#else
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
#endif
}

inline glm::quat slerpInline(const glm::quat& a, const glm::quat& b, float alpha) {
    if (sameKeys(a, b)) return a;
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    float sign = 1.0f;
    if (d < 0.0f) {
        d = -d;
        sign = -1.0f;
    }
    if (d > 1.0f) d = 1.0f;
    float wa, wb;
    if (d >= 0.5f) {
        // Keys less than 120 degrees of rotation apart (nearly always): the polynomial.
        const float xm1 = d - 1.0f;
        if (xm1 > -0.01f) {
            slerpWeights<4>(alpha, xm1, wa, wb);
            wb *= sign;
        } else {
            slerpWeights<8>(alpha, xm1, wa, wb);
            wb *= sign;
        }
    } else {
        // Wide swings, where the polynomial loses digits: trigonometry.
        const float theta = std::acos(d);
        const float invSin = 1.0f / std::sqrt(1.0f - d * d);
        wa = std::sin((1.0f - alpha) * theta) * invSin;
        wb = sign * std::sin(alpha * theta) * invSin;
    }
    return normalized(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
}

// The samplers' blend of a segment's two keys at factor alpha (the plain sampler's, which the
// compressed one must give bit for bit): a step channel takes a key, a rotation at the
// segment's ends takes that key as it is, the others interpolate.
inline glm::vec3 lerpPair(const glm::vec3& a, const glm::vec3& b, Interpolation interpolation, float alpha) {
    if (interpolation == Interpolation::Step) return alpha >= 1.0f ? b : a;
    return a + (b - a) * alpha;
}

inline glm::quat blendPair(const glm::quat& a, const glm::quat& b, Interpolation interpolation, float alpha, RotationBlend blend) {
    if (interpolation == Interpolation::Step || alpha >= 1.0f) return alpha >= 1.0f ? b : a;
    if (alpha <= 0.0f) return a;
    return blend == RotationBlend::Slerp ? slerpInline(a, b, alpha) : nlerpShortest(a, b, alpha);
}

// A quaternion from four floats x, y, z, w.
inline glm::quat asQuat(const float* v) { return glm::quat(v[3], v[0], v[1], v[2]); }

// Rotations waiting to be interpolated, four at a time: the key pairs and where each result
// goes. sampleClip() queues every interpolating rotation channel here instead of blending it
// at once, so SLERP/NLERP runs on four quaternions per SSE instruction.
struct RotationBatch {
    static constexpr int kCapacity = 32;  // independent groups in flight (8 of 4, or 4 of 8)
    const float* a[kCapacity];  // keys as x, y, z, w (glm::quat's layout)
    const float* b[kCapacity];
    float alpha[kCapacity];
    glm::quat* out[kCapacity];
    int n = 0;
};

// Every queued rotation by the scalar code (slerpInline / nlerpShortest: the bits every lane
// of the batched forms gives).
RIG_ALWAYS_INLINE void interpolateScalar(RotationBatch& batch, RotationBlend blend) {
    for (int j = 0; j < batch.n; ++j) {
        const glm::quat a = asQuat(batch.a[j]), b = asQuat(batch.b[j]);
        *batch.out[j] = blend == RotationBlend::Slerp ? slerpInline(a, b, batch.alpha[j]) : nlerpShortest(a, b, batch.alpha[j]);
    }
}

#if defined(__SSE2__)

inline __m128 splat(float v) { return _mm_set1_ps(v); }

// The polynomial weight of slerpWeight<N>, four lanes at once (t and xm1 per lane).
template <int N>
inline __m128 slerpWeight4(__m128 t, __m128 xm1) {
    const __m128 t2 = _mm_mul_ps(t, t), one = splat(1.0f);
    __m128 r = one;
    for (int i = N - 1; i >= 0; --i) {
        const __m128 c = _mm_sub_ps(_mm_mul_ps(splat(kSlerpU[i]), t2), splat(kSlerpV[i]));
        r = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(c, xm1), r));
    }
    return _mm_mul_ps(t, r);
}

// Interpolate queued rotations first .. first + n - 1 (n <= 4; lanes past n repeat lane 0
// and are not stored).
RIG_ALWAYS_INLINE void interpolateFour(RotationBatch& all, int first, int n, RotationBlend blend) {
    struct View {
        const float** a;
        const float** b;
        float* alpha;
        glm::quat** out;
    } batch{all.a + first, all.b + first, all.alpha + first, all.out + first};
    __m128 ax = _mm_loadu_ps(batch.a[0]), ay, az, aw;
    __m128 bx = _mm_loadu_ps(batch.b[0]), by, bz, bw;
    ay = n > 1 ? _mm_loadu_ps(batch.a[1]) : ax;
    az = n > 2 ? _mm_loadu_ps(batch.a[2]) : ax;
    aw = n > 3 ? _mm_loadu_ps(batch.a[3]) : ax;
    by = n > 1 ? _mm_loadu_ps(batch.b[1]) : bx;
    bz = n > 2 ? _mm_loadu_ps(batch.b[2]) : bx;
    bw = n > 3 ? _mm_loadu_ps(batch.b[3]) : bx;
    _MM_TRANSPOSE4_PS(ax, ay, az, aw);  // now ax = the four a.x, ay = the four a.y, ...
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    const __m128 alpha = _mm_setr_ps(batch.alpha[0], n > 1 ? batch.alpha[1] : batch.alpha[0],
                                     n > 2 ? batch.alpha[2] : batch.alpha[0], n > 3 ? batch.alpha[3] : batch.alpha[0]);
    // Every lane computes what slerpInline() / nlerpShortest() compute, operation for
    // operation and in the same order, so the results are the same bits.
    const __m128 signBit = splat(-0.0f);
    __m128 d = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz)), _mm_mul_ps(aw, bw));
    const __m128 negSign = _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), signBit);  // d < 0: b flips to a's side
    d = _mm_min_ps(_mm_xor_ps(d, negSign), splat(1.0f));
    const __m128 oneMinus = _mm_sub_ps(splat(1.0f), alpha);
    __m128 wa, wb;
    int wide = 0;  // lanes more than 120 degrees apart: trigonometry, below
    if (blend == RotationBlend::Nlerp) {
        wa = oneMinus;
        wb = alpha;
    } else {
        const __m128 xm1 = _mm_sub_ps(d, splat(1.0f));
        // Keys under 16 degrees apart take four terms, the others eight (as in slerpInline);
        // a group with both kinds computes both and picks per lane.
        const __m128 close = _mm_cmpgt_ps(xm1, splat(-0.01f));
        const int closeLanes = _mm_movemask_ps(close);
        if (closeLanes == 0xf) {
            wa = slerpWeight4<4>(oneMinus, xm1);
            wb = slerpWeight4<4>(alpha, xm1);
        } else {
            wa = slerpWeight4<8>(oneMinus, xm1);
            wb = slerpWeight4<8>(alpha, xm1);
            if (closeLanes != 0) {
                wa = _mm_or_ps(_mm_and_ps(close, slerpWeight4<4>(oneMinus, xm1)), _mm_andnot_ps(close, wa));
                wb = _mm_or_ps(_mm_and_ps(close, slerpWeight4<4>(alpha, xm1)), _mm_andnot_ps(close, wb));
            }
        }
        wide = _mm_movemask_ps(_mm_cmplt_ps(d, splat(0.5f))) & ((1 << n) - 1);
    }
    wb = _mm_xor_ps(wb, negSign);
    __m128 rx = _mm_add_ps(_mm_mul_ps(wa, ax), _mm_mul_ps(wb, bx));
    __m128 ry = _mm_add_ps(_mm_mul_ps(wa, ay), _mm_mul_ps(wb, by));
    __m128 rz = _mm_add_ps(_mm_mul_ps(wa, az), _mm_mul_ps(wb, bz));
    __m128 rw = _mm_add_ps(_mm_mul_ps(wa, aw), _mm_mul_ps(wb, bw));
    const __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), _mm_mul_ps(rz, rz)), _mm_mul_ps(rw, rw));
    // 1 / sqrt(len2), and 0 where len2 is 0 (as normalized() does).
    const __m128 inv = _mm_and_ps(_mm_div_ps(splat(1.0f), _mm_sqrt_ps(len2)), _mm_cmpgt_ps(len2, _mm_setzero_ps()));
    rx = _mm_mul_ps(rx, inv);
    ry = _mm_mul_ps(ry, inv);
    rz = _mm_mul_ps(rz, inv);
    rw = _mm_mul_ps(rw, inv);
    // Lanes whose two keys are the same rotation give that key (sameKeys()).
    const __m128 same = _mm_and_ps(_mm_and_ps(_mm_cmpeq_ps(ax, bx), _mm_cmpeq_ps(ay, by)),
                                   _mm_and_ps(_mm_cmpeq_ps(az, bz), _mm_cmpeq_ps(aw, bw)));
    rx = _mm_or_ps(_mm_and_ps(same, ax), _mm_andnot_ps(same, rx));
    ry = _mm_or_ps(_mm_and_ps(same, ay), _mm_andnot_ps(same, ry));
    rz = _mm_or_ps(_mm_and_ps(same, az), _mm_andnot_ps(same, rz));
    rw = _mm_or_ps(_mm_and_ps(same, aw), _mm_andnot_ps(same, rw));
    _MM_TRANSPOSE4_PS(rx, ry, rz, rw);  // back to one quaternion (x, y, z, w) per register
    const __m128 r[4] = {rx, ry, rz, rw};
    for (int j = 0; j < n; ++j) {
        if (wide & (1 << j)) {
            *batch.out[j] = slerpInline(asQuat(batch.a[j]), asQuat(batch.b[j]), batch.alpha[j]);
        } else {
            _mm_storeu_ps(&batch.out[j]->x, r[j]);
        }
    }
}

// Interpolate every queued rotation, four at a time: the groups are independent, so their
// long dependency chains (polynomial, square root, division) overlap. Always inlined, so that
// it is compiled for the instruction set of the sampler that calls it (anim/runtime/isa.h).
RIG_ALWAYS_INLINE void flushRotations(RotationBatch& batch, RotationBlend blend) {
    for (int first = 0; first < batch.n; first += 4) {
        interpolateFour(batch, first, batch.n - first < 4 ? batch.n - first : 4, blend);
    }
    batch.n = 0;
}

#if RIG_HAVE_AVX2_PATH

RIG_TARGET_AVX2 inline __m256 splat8(float v) { return _mm256_set1_ps(v); }

// slerpWeight4 on eight lanes.
template <int N>
RIG_TARGET_AVX2 inline __m256 slerpWeight8(__m256 t, __m256 xm1) {
    const __m256 t2 = _mm256_mul_ps(t, t), one = splat8(1.0f);
    __m256 r = one;
    for (int i = N - 1; i >= 0; --i) {
        const __m256 c = _mm256_sub_ps(_mm256_mul_ps(splat8(kSlerpU[i]), t2), splat8(kSlerpV[i]));
        r = _mm256_add_ps(one, _mm256_mul_ps(_mm256_mul_ps(c, xm1), r));
    }
    return _mm256_mul_ps(t, r);
}

// Eight rotations a register, as x, y, z and w columns (one lane per rotation).
struct Quat8 {
    __m256 x, y, z, w;
};

// The blend of G groups of eight key pairs (a, b) at `alpha`, in lockstep: interpolateFour on
// eight rotations per register (AVX, 256-bit lanes). Each lane computes the same operations in
// the same order as slerpInline() / nlerpShortest(), so the same bits; lanes whose two keys are
// the same rotation give that key (sameKeys()). Every step is written for all G groups before
// the next, so their long dependency chains (polynomial, square root, division) run side by
// side instead of one after another. `wide[g]`: group g's lanes whose keys are more than 120
// degrees apart under SLERP, which the caller gives slerpInline() (those it stores).
template <int G>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void blendGroups(const Quat8* a, const Quat8* b, const __m256* alpha, RotationBlend blend, Quat8* r,
                                                   int* wide) {
    const __m256 signBit = splat8(-0.0f), one = splat8(1.0f), zero = _mm256_setzero_ps();
    __m256 negSign[G], d[G], wa[G], wb[G];
    for (int g = 0; g < G; ++g) {
        d[g] = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[g].x, b[g].x), _mm256_mul_ps(a[g].y, b[g].y)),
                                           _mm256_mul_ps(a[g].z, b[g].z)),
                             _mm256_mul_ps(a[g].w, b[g].w));
        negSign[g] = _mm256_and_ps(_mm256_cmp_ps(d[g], zero, _CMP_LT_OQ), signBit);  // d < 0: b flips to a's side
        d[g] = _mm256_min_ps(_mm256_xor_ps(d[g], negSign[g]), one);
        wide[g] = 0;
    }
    if (blend == RotationBlend::Nlerp) {
        for (int g = 0; g < G; ++g) {
            wa[g] = _mm256_sub_ps(one, alpha[g]);
            wb[g] = alpha[g];
        }
    } else {
        for (int g = 0; g < G; ++g) {
            const __m256 oneMinus = _mm256_sub_ps(one, alpha[g]);
            const __m256 xm1 = _mm256_sub_ps(d[g], one);
            // Keys under 16 degrees apart take four terms, the others eight (as in slerpInline).
            const __m256 close = _mm256_cmp_ps(xm1, splat8(-0.01f), _CMP_GT_OQ);
            const int closeLanes = _mm256_movemask_ps(close);
            if (closeLanes == 0xff) {
                wa[g] = slerpWeight8<4>(oneMinus, xm1);
                wb[g] = slerpWeight8<4>(alpha[g], xm1);
            } else {
                wa[g] = slerpWeight8<8>(oneMinus, xm1);
                wb[g] = slerpWeight8<8>(alpha[g], xm1);
                if (closeLanes != 0) {
                    wa[g] = _mm256_blendv_ps(wa[g], slerpWeight8<4>(oneMinus, xm1), close);
                    wb[g] = _mm256_blendv_ps(wb[g], slerpWeight8<4>(alpha[g], xm1), close);
                }
            }
            // Lanes more than 120 degrees apart: trigonometry, by the caller.
            wide[g] = _mm256_movemask_ps(_mm256_cmp_ps(d[g], splat8(0.5f), _CMP_LT_OQ));
        }
    }
    for (int g = 0; g < G; ++g) {
        wb[g] = _mm256_xor_ps(wb[g], negSign[g]);
        __m256 rx = _mm256_add_ps(_mm256_mul_ps(wa[g], a[g].x), _mm256_mul_ps(wb[g], b[g].x));
        __m256 ry = _mm256_add_ps(_mm256_mul_ps(wa[g], a[g].y), _mm256_mul_ps(wb[g], b[g].y));
        __m256 rz = _mm256_add_ps(_mm256_mul_ps(wa[g], a[g].z), _mm256_mul_ps(wb[g], b[g].z));
        __m256 rw = _mm256_add_ps(_mm256_mul_ps(wa[g], a[g].w), _mm256_mul_ps(wb[g], b[g].w));
        const __m256 len2 =
            _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(rx, rx), _mm256_mul_ps(ry, ry)), _mm256_mul_ps(rz, rz)), _mm256_mul_ps(rw, rw));
        // 1 / sqrt(len2), and 0 where len2 is 0 (as normalized() does).
        const __m256 inv = _mm256_and_ps(_mm256_div_ps(one, _mm256_sqrt_ps(len2)), _mm256_cmp_ps(len2, zero, _CMP_GT_OQ));
        const __m256 same =
            _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(a[g].x, b[g].x, _CMP_EQ_OQ), _mm256_cmp_ps(a[g].y, b[g].y, _CMP_EQ_OQ)),
                          _mm256_and_ps(_mm256_cmp_ps(a[g].z, b[g].z, _CMP_EQ_OQ), _mm256_cmp_ps(a[g].w, b[g].w, _CMP_EQ_OQ)));
        r[g].x = _mm256_blendv_ps(_mm256_mul_ps(rx, inv), a[g].x, same);
        r[g].y = _mm256_blendv_ps(_mm256_mul_ps(ry, inv), a[g].y, same);
        r[g].z = _mm256_blendv_ps(_mm256_mul_ps(rz, inv), a[g].z, same);
        r[g].w = _mm256_blendv_ps(_mm256_mul_ps(rw, inv), a[g].w, same);
    }
}

// Columns x, y, z, w of eight rotations to one quaternion (x, y, z, w) a register, in lane order.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void transposeQuat8(const Quat8& q, __m128 out[8]) {
    out[0] = _mm256_castps256_ps128(q.x);
    out[1] = _mm256_castps256_ps128(q.y);
    out[2] = _mm256_castps256_ps128(q.z);
    out[3] = _mm256_castps256_ps128(q.w);
    out[4] = _mm256_extractf128_ps(q.x, 1);
    out[5] = _mm256_extractf128_ps(q.y, 1);
    out[6] = _mm256_extractf128_ps(q.z, 1);
    out[7] = _mm256_extractf128_ps(q.w, 1);
    _MM_TRANSPOSE4_PS(out[0], out[1], out[2], out[3]);
    _MM_TRANSPOSE4_PS(out[4], out[5], out[6], out[7]);
}

// Queued rotations first .. first + count - 1 (count <= 8) as one group: lanes past count
// repeat the group's first lane.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void loadQueued8(const RotationBatch& all, int first, int count, Quat8& a, Quat8& b, __m256& alpha) {
    auto lane = [&](int j) { return j < count ? first + j : first; };
    for (int side = 0; side < 2; ++side) {
        const float* const* src = side ? all.b : all.a;
        __m128 q[8];
        for (int j = 0; j < 8; ++j) q[j] = _mm_loadu_ps(src[lane(j)]);
        _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);  // lanes 0..3: x, y, z, w
        _MM_TRANSPOSE4_PS(q[4], q[5], q[6], q[7]);  // lanes 4..7
        Quat8& dst = side ? b : a;
        dst.x = _mm256_set_m128(q[4], q[0]);
        dst.y = _mm256_set_m128(q[5], q[1]);
        dst.z = _mm256_set_m128(q[6], q[2]);
        dst.w = _mm256_set_m128(q[7], q[3]);
    }
    alpha = _mm256_setr_ps(all.alpha[lane(0)], all.alpha[lane(1)], all.alpha[lane(2)], all.alpha[lane(3)], all.alpha[lane(4)],
                           all.alpha[lane(5)], all.alpha[lane(6)], all.alpha[lane(7)]);
}

// A group's results r, lanes 0 .. count - 1, to out(j) (a glm::quat*), one quaternion each;
// lanes in `wide` take slerp(j) instead (slerpInline() of their keys).
template <class Out, class Slerp>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void storeRotations8(const Quat8& r, int count, int wide, Out out, Slerp slerp) {
    __m128 q[8];
    transposeQuat8(r, q);  // back to one quaternion (x, y, z, w) per register
    for (int j = 0; j < count; ++j) {
        if (wide & (1 << j)) {
            *out(j) = slerp(j);
        } else {
            _mm_storeu_ps(&out(j)->x, q[j]);
        }
    }
}

// The results r of that group to their queued places.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void storeQueued8(const RotationBatch& all, int first, int count, const Quat8& r, int wide) {
    storeRotations8(
        r, count, wide, [&](int j) { return all.out[first + j]; },
        [&](int j) { return slerpInline(asQuat(all.a[first + j]), asQuat(all.b[first + j]), all.alpha[first + j]); });
}

// The queued rotations 0 .. n-1 of the batch, G groups of eight at once (8 (G - 1) < n <= 8 G;
// blendGroups).
template <int G>
RIG_TARGET_AVX2 inline void interpolateGroups(RotationBatch& all, RotationBlend blend) {
    const int n = all.n;
    Quat8 a[G], b[G], r[G];
    __m256 alpha[G];
    for (int g = 0; g < G; ++g) loadQueued8(all, 8 * g, n - 8 * g < 8 ? n - 8 * g : 8, a[g], b[g], alpha[g]);
    int wide[G];
    blendGroups<G>(a, b, alpha, blend, r, wide);
    for (int g = 0; g < G; ++g) storeQueued8(all, 8 * g, n - 8 * g < 8 ? n - 8 * g : 8, r[g], wide[g]);
}

// flushRotations for the AVX2 samplers: the whole batch at once, eight rotations per register.
// A function of its own (not inlined into the baseline form, which cannot run it).
RIG_TARGET_AVX2 inline void flushRotationsWide(RotationBatch& batch, RotationBlend blend) {
    static_assert(RotationBatch::kCapacity == 32, "four groups of eight");
    if (batch.n <= 2) {
        // One or two: the scalar code (the same bits) is quicker than a register's chain.
        interpolateScalar(batch, blend);
    } else if (batch.n > 24) {
        interpolateGroups<4>(batch, blend);
    } else if (batch.n > 16) {
        interpolateGroups<3>(batch, blend);
    } else if (batch.n > 8) {
        interpolateGroups<2>(batch, blend);
    } else if (batch.n > 0) {
        interpolateGroups<1>(batch, blend);
    }
    batch.n = 0;
}

#endif

// The flush of a sampler compiled for AVX2 (kWide) or for the baseline.
template <bool kWide>
RIG_ALWAYS_INLINE void flush(RotationBatch& batch, RotationBlend blend) {
#if RIG_HAVE_AVX2_PATH
    if constexpr (kWide) {
        flushRotationsWide(batch, blend);
        return;
    }
#endif
    flushRotations(batch, blend);
}

#else

inline void flushRotations(RotationBatch& batch, RotationBlend blend) {
    interpolateScalar(batch, blend);
    batch.n = 0;
}

template <bool kWide>
inline void flush(RotationBatch& batch, RotationBlend blend) {
    flushRotations(batch, blend);
}

#endif

// Queue one rotation (keys a and b as x, y, z, w; result to `out`). `queued` is the batch's
// count, kept in a register by the sampler (batch.n is set only to flush: the batch's address
// escapes to the flush, so a count kept in it would be stored and reloaded for every rotation).
// A full batch is flushed.
template <bool kWide>
RIG_ALWAYS_INLINE void queue(RotationBatch& batch, int& queued, const float* a, const float* b, float alpha, glm::quat& out,
                             RotationBlend blend) {
    batch.a[queued] = a;
    batch.b[queued] = b;
    batch.alpha[queued] = alpha;
    batch.out[queued] = &out;
    if (++queued == RotationBatch::kCapacity) {
        batch.n = queued;
        flush<kWide>(batch, blend);
        queued = 0;
    }
}

// The rest of the queue, at the end of a sampler's pass.
template <bool kWide>
RIG_ALWAYS_INLINE void flushQueued(RotationBatch& batch, int queued, RotationBlend blend) {
    batch.n = queued;
    flush<kWide>(batch, blend);
}

}  // namespace rig::detail
