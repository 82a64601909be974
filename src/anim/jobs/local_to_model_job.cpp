#include "anim/jobs/local_to_model_job.h"

#include <cstddef>
#include <cstdint>

#include "anim/isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig {

static_assert(sizeof(glm::mat4) == 64, "glm::mat4 must be 16 packed floats");
static_assert(offsetof(Transform, rotation) == 12 && sizeof(glm::quat) == 16, "Transform layout");

bool LocalToModelJob::validate() const {
    const size_t n = end();
    if (n > parent.size() || model.size() < n) return false;
    const bool byLocal = !local.empty(), byMatrix = !bindLocal.empty(), masked = !useLocal.empty();
    if (!byLocal && !byMatrix) return n == 0;
    if (masked && !(byLocal && byMatrix)) return false;
    if (!masked && byLocal && byMatrix) return false;
    if ((byLocal && local.size() < n) || (byMatrix && bindLocal.size() < n) || (masked && useLocal.size() < n)) return false;
    const int32_t* p = parent.data();
    for (size_t i = 0; i < n; ++i) {
        if (p[i] >= static_cast<int32_t>(i) || p[i] < -1) return false;
    }
    return true;
}

namespace {

constexpr int kByLocal = 0, kByMatrix = 1, kMasked = 2;

#if defined(__SSE2__)

// Column c of the matrix T * R * S for a unit quaternion q = (x, y, z, w) in lanes 0..3,
// computed with the same operations, in the same order, as toMatrix() (so the results are
// bit-identical): k + 2 * (a * b + c * d) where the lanes of a, b, c, d are chosen (and
// negated) so that each lane of the sum is one of toMatrix's terms; lane 3 sums w*w - w*w = 0.
template <int A, int B, int C, int D>
inline __m128 sh(__m128 v) {
    return _mm_shuffle_ps(v, v, _MM_SHUFFLE(D, C, B, A));
}

inline __m128 signs(bool s0, bool s1, bool s2, bool s3) {
    return _mm_castsi128_ps(_mm_set_epi32(s3 ? INT32_MIN : 0, s2 ? INT32_MIN : 0, s1 ? INT32_MIN : 0, s0 ? INT32_MIN : 0));
}

struct Local {
    __m128 c0, c1, c2, c3;
};

inline Local trsToColumns(const Transform& t) {
    const __m128 q = _mm_loadu_ps(&t.rotation.x);  // x, y, z, w
    const __m128 two = _mm_set1_ps(2.0f);
    // Column 0: (1 - 2(yy + zz), 2(xy + wz), 2(xz - wy), 0)
    const __m128 a0 = _mm_xor_ps(sh<1, 0, 0, 3>(q), signs(true, false, false, false));
    const __m128 b0 = sh<1, 1, 2, 3>(q);
    const __m128 c0 = _mm_xor_ps(sh<2, 3, 3, 3>(q), signs(true, false, true, true));
    const __m128 d0 = sh<2, 2, 1, 3>(q);
    // Column 1: (2(xy - wz), 1 - 2(xx + zz), 2(yz + wx), 0)
    const __m128 a1 = _mm_xor_ps(sh<0, 0, 1, 3>(q), signs(false, true, false, false));
    const __m128 b1 = sh<1, 0, 2, 3>(q);
    const __m128 c1 = _mm_xor_ps(sh<3, 2, 3, 3>(q), signs(true, true, false, true));
    const __m128 d1 = sh<2, 2, 0, 3>(q);
    // Column 2: (2(xz + wy), 2(yz - wx), 1 - 2(xx + yy), 0)
    const __m128 a2 = _mm_xor_ps(sh<0, 1, 0, 3>(q), signs(false, false, true, false));
    const __m128 b2 = sh<2, 2, 0, 3>(q);
    const __m128 c2 = _mm_xor_ps(sh<3, 3, 1, 3>(q), signs(false, true, true, true));
    const __m128 d2 = sh<1, 0, 1, 3>(q);
    const __m128 s = _mm_setr_ps(t.scale.x, t.scale.y, t.scale.z, 0.0f);
    Local l;
    l.c0 = _mm_mul_ps(_mm_add_ps(_mm_setr_ps(1, 0, 0, 0), _mm_mul_ps(two, _mm_add_ps(_mm_mul_ps(a0, b0), _mm_mul_ps(c0, d0)))), sh<0, 0, 0, 0>(s));
    l.c1 = _mm_mul_ps(_mm_add_ps(_mm_setr_ps(0, 1, 0, 0), _mm_mul_ps(two, _mm_add_ps(_mm_mul_ps(a1, b1), _mm_mul_ps(c1, d1)))), sh<1, 1, 1, 1>(s));
    l.c2 = _mm_mul_ps(_mm_add_ps(_mm_setr_ps(0, 0, 1, 0), _mm_mul_ps(two, _mm_add_ps(_mm_mul_ps(a2, b2), _mm_mul_ps(c2, d2)))), sh<2, 2, 2, 2>(s));
    l.c3 = _mm_setr_ps(t.translation.x, t.translation.y, t.translation.z, 1.0f);
    return l;
}

// Four joints' T * R * S at once, in struct-of-arrays form: the twelve matrix entries of four
// joints are computed lane by lane with the same operations as toMatrix() (so the results
// are bit-identical to trsToColumns()), then transposed back to one matrix per joint. The
// loads stay inside each Transform: (t.x, t.y, t.z, q.x), (q.x .. q.w), (q.w, s.x, s.y, s.z).
inline void trsToColumns4(const Transform* t, Local* out) {
    static_assert(sizeof(Transform) == 40, "Transform layout");
    const float* f0 = &t[0].translation.x;
    const float* f1 = &t[1].translation.x;
    const float* f2 = &t[2].translation.x;
    const float* f3 = &t[3].translation.x;
    __m128 tx = _mm_loadu_ps(f0), ty = _mm_loadu_ps(f1), tz = _mm_loadu_ps(f2), tw = _mm_loadu_ps(f3);
    __m128 x = _mm_loadu_ps(f0 + 3), y = _mm_loadu_ps(f1 + 3), z = _mm_loadu_ps(f2 + 3), w = _mm_loadu_ps(f3 + 3);
    __m128 s0 = _mm_loadu_ps(f0 + 6), sx = _mm_loadu_ps(f1 + 6), sy = _mm_loadu_ps(f2 + 6), sz = _mm_loadu_ps(f3 + 6);
    _MM_TRANSPOSE4_PS(tx, ty, tz, tw);  // tx: the four t.x, ...; tw: q.x (unused)
    _MM_TRANSPOSE4_PS(x, y, z, w);
    _MM_TRANSPOSE4_PS(s0, sx, sy, sz);  // s0: q.w (unused)
    const __m128 one = _mm_set1_ps(1.0f), two = _mm_set1_ps(2.0f), zero = _mm_setzero_ps();
    const __m128 xx = _mm_mul_ps(x, x), yy = _mm_mul_ps(y, y), zz = _mm_mul_ps(z, z);
    const __m128 xy = _mm_mul_ps(x, y), xz = _mm_mul_ps(x, z), yz = _mm_mul_ps(y, z);
    const __m128 wx = _mm_mul_ps(w, x), wy = _mm_mul_ps(w, y), wz = _mm_mul_ps(w, z);
    __m128 m00 = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(yy, zz))), sx);
    __m128 m01 = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xy, wz)), sx);
    __m128 m02 = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xz, wy)), sx);
    __m128 m10 = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xy, wz)), sy);
    __m128 m11 = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, zz))), sy);
    __m128 m12 = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(yz, wx)), sy);
    __m128 m20 = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xz, wy)), sz);
    __m128 m21 = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(yz, wx)), sz);
    __m128 m22 = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, yy))), sz);
    __m128 z0 = zero, z1 = zero, z2 = zero, w1 = one;
    _MM_TRANSPOSE4_PS(m00, m01, m02, z0);
    _MM_TRANSPOSE4_PS(m10, m11, m12, z1);
    _MM_TRANSPOSE4_PS(m20, m21, m22, z2);
    _MM_TRANSPOSE4_PS(tx, ty, tz, w1);
    out[0] = {m00, m10, m20, tx};
    out[1] = {m01, m11, m21, ty};
    out[2] = {m02, m12, m22, tz};
    out[3] = {z0, z1, z2, w1};
}

inline Local loadColumns(const glm::mat4& m) {
    return {_mm_loadu_ps(&m[0][0]), _mm_loadu_ps(&m[1][0]), _mm_loadu_ps(&m[2][0]), _mm_loadu_ps(&m[3][0])};
}

// p * l for affine matrices, as mulAffine() does it.
inline __m128 column(const Local& p, __m128 c) {
    __m128 v = _mm_mul_ps(p.c0, sh<0, 0, 0, 0>(c));
    v = _mm_add_ps(v, _mm_mul_ps(p.c1, sh<1, 1, 1, 1>(c)));
    v = _mm_add_ps(v, _mm_mul_ps(p.c2, sh<2, 2, 2, 2>(c)));
    return v;
}

template <bool kAligned>
inline void store(glm::mat4& out, const Local& l) {
    float* f = &out[0][0];
    if constexpr (kAligned) {
        _mm_store_ps(f, l.c0);
        _mm_store_ps(f + 4, l.c1);
        _mm_store_ps(f + 8, l.c2);
        _mm_store_ps(f + 12, l.c3);
    } else {
        _mm_storeu_ps(f, l.c0);
        _mm_storeu_ps(f + 4, l.c1);
        _mm_storeu_ps(f + 8, l.c2);
        _mm_storeu_ps(f + 12, l.c3);
    }
}

template <bool kAligned, int kMode>
RIG_ALWAYS_INLINE void forward(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                               const uint8_t* useLocal, size_t n, glm::mat4* model) {
    Local block[4];
    for (size_t i = 0; i < n; ++i) {
        Local l;
        if constexpr (kMode == kByMatrix) {
            l = loadColumns(bindLocal[i]);
        } else {
            // Local matrices four joints at a time; the hierarchy product below stays serial.
            const size_t lane = i & 3;
            if (lane == 0 && i + 4 <= n) trsToColumns4(local + i, block);
            if (kMode == kMasked && !useLocal[i]) {
                l = loadColumns(bindLocal[i]);
            } else {
                l = (i & ~size_t(3)) + 4 <= n ? block[lane] : trsToColumns(local[i]);
            }
        }
        const int32_t p = parent[i];
        if (p < 0) {
            store<kAligned>(model[i], l);
            continue;
        }
        const Local pm = kAligned ? Local{_mm_load_ps(&model[p][0][0]), _mm_load_ps(&model[p][1][0]),
                                          _mm_load_ps(&model[p][2][0]), _mm_load_ps(&model[p][3][0])}
                                  : loadColumns(model[p]);
        Local r;
        r.c0 = column(pm, l.c0);
        r.c1 = column(pm, l.c1);
        r.c2 = column(pm, l.c2);
        r.c3 = _mm_add_ps(column(pm, l.c3), pm.c3);
        store<kAligned>(model[i], r);
    }
}

#else

template <bool kAligned, int kMode>
RIG_ALWAYS_INLINE void forward(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                               const uint8_t* useLocal, size_t n, glm::mat4* model) {
    for (size_t i = 0; i < n; ++i) {
        const glm::mat4 l = (kMode == kByLocal || (kMode == kMasked && useLocal[i])) ? toMatrix(local[i]) : bindLocal[i];
        model[i] = parent[i] < 0 ? l : mulAffine(model[parent[i]], l);
    }
}

#endif

// The loop's AVX2 + FMA form (anim/isa.h), and the choice between it and the baseline form.
#if RIG_HAVE_AVX2_PATH
template <bool kAligned, int kMode>
RIG_TARGET_AVX2_FMA void forwardAvx2(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                                 const uint8_t* useLocal, size_t n, glm::mat4* model) {
    forward<kAligned, kMode>(parent, local, bindLocal, useLocal, n, model);
}
#endif

template <bool kAligned, int kMode>
void forwardBest(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal, const uint8_t* useLocal,
                 size_t n, glm::mat4* model) {
#if RIG_HAVE_AVX2_PATH
    if (isa::avx2()) return forwardAvx2<kAligned, kMode>(parent, local, bindLocal, useLocal, n, model);
#endif
    forward<kAligned, kMode>(parent, local, bindLocal, useLocal, n, model);
}

}  // namespace

bool LocalToModelJob::run() const {
    if (!validate()) return false;
    const size_t n = end();
    const bool aligned = (reinterpret_cast<uintptr_t>(model.data()) & 15u) == 0;
    const int mode = !useLocal.empty() ? kMasked : !local.empty() ? kByLocal : kByMatrix;
    const int32_t* p = parent.data();
    const Transform* l = local.data();
    const glm::mat4* b = bindLocal.data();
    const uint8_t* u = useLocal.data();
    glm::mat4* m = model.data();
    switch ((aligned ? 3 : 0) + mode) {
        case 0: forwardBest<false, kByLocal>(p, l, b, u, n, m); break;
        case 1: forwardBest<false, kByMatrix>(p, l, b, u, n, m); break;
        case 2: forwardBest<false, kMasked>(p, l, b, u, n, m); break;
        case 3: forwardBest<true, kByLocal>(p, l, b, u, n, m); break;
        case 4: forwardBest<true, kByMatrix>(p, l, b, u, n, m); break;
        default: forwardBest<true, kMasked>(p, l, b, u, n, m); break;
    }
    return true;
}

}  // namespace rig
