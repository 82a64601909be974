#include "anim/jobs/skinning_matrix_job.h"

#include "anim/isa.h"
#include "anim/transform.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig {

bool SkinningMatrixJob::validate() const {
    const size_t nj = joints.size();
    if (inverseBind.size() != nj || palette.size() < nj) return false;
    const int32_t n = static_cast<int32_t>(model.size());
    for (size_t j = 0; j < nj; ++j) {
        if (joints[j] < 0 || joints[j] >= n) return false;
    }
    return true;
}

namespace {

#if defined(__SSE2__)

struct Columns {
    __m128 c0, c1, c2, c3;
};

inline Columns load(const glm::mat4& m) {
    const float* f = &m[0][0];
    return {_mm_loadu_ps(f), _mm_loadu_ps(f + 4), _mm_loadu_ps(f + 8), _mm_loadu_ps(f + 12)};
}

template <int I>
inline __m128 splat(__m128 v) {
    return _mm_shuffle_ps(v, v, _MM_SHUFFLE(I, I, I, I));
}

inline __m128 column(const Columns& a, __m128 b) {
    __m128 v = _mm_mul_ps(a.c0, splat<0>(b));
    v = _mm_add_ps(v, _mm_mul_ps(a.c1, splat<1>(b)));
    return _mm_add_ps(v, _mm_mul_ps(a.c2, splat<2>(b)));
}

// a * b for affine matrices, as mulAffine() computes it, in registers.
inline Columns mul(const Columns& a, const Columns& b) {
    return {column(a, b.c0), column(a, b.c1), column(a, b.c2), _mm_add_ps(column(a, b.c3), a.c3)};
}

inline void store(glm::mat4& m, const Columns& c) {
    float* f = &m[0][0];
    _mm_storeu_ps(f, c.c0);
    _mm_storeu_ps(f + 4, c.c1);
    _mm_storeu_ps(f + 8, c.c2);
    _mm_storeu_ps(f + 12, c.c3);
}

#endif

// The palette loop (with or without the mesh-node correction), compiled for the baseline and
// for AVX2 + FMA (anim/isa.h).
RIG_ALWAYS_INLINE void paletteLoop(const glm::mat4* m, const int32_t* jt, const glm::mat4* ib, const glm::mat4* correction,
                                   size_t nj, glm::mat4* out) {
#if defined(__SSE2__)
    if (!correction) {
        for (size_t j = 0; j < nj; ++j) store(out[j], mul(load(m[jt[j]]), load(ib[j])));
    } else {
        const Columns c = load(*correction);
        for (size_t j = 0; j < nj; ++j) store(out[j], mul(c, mul(load(m[jt[j]]), load(ib[j]))));
    }
#else
    if (!correction) {
        for (size_t j = 0; j < nj; ++j) out[j] = mulAffine(m[jt[j]], ib[j]);
    } else {
        const glm::mat4 c = *correction;
        for (size_t j = 0; j < nj; ++j) out[j] = mulAffine(c, mulAffine(m[jt[j]], ib[j]));
    }
#endif
}

#if RIG_HAVE_AVX2_PATH
RIG_TARGET_AVX2_FMA void paletteAvx2(const glm::mat4* m, const int32_t* jt, const glm::mat4* ib, const glm::mat4* correction,
                                 size_t nj, glm::mat4* out) {
    paletteLoop(m, jt, ib, correction, nj, out);
}
#endif

}  // namespace

bool SkinningMatrixJob::run() const {
    if (!validate()) return false;
#if RIG_HAVE_AVX2_PATH
    if (isa::avx2()) {
        paletteAvx2(model.data(), joints.data(), inverseBind.data(), correction, joints.size(), palette.data());
        return true;
    }
#endif
    paletteLoop(model.data(), joints.data(), inverseBind.data(), correction, joints.size(), palette.data());
    return true;
}

}  // namespace rig
