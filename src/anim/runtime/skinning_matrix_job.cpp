#include "anim/runtime/skinning_matrix_job.h"

#include <algorithm>

#include "anim/runtime/isa.h"
#include "anim/runtime/transform.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rig {

JointRange::JointRange(std::span<const int32_t> joints) : data_(joints.data()), size_(joints.size()) {
    for (const int32_t j : joints) {
        min_ = std::min(min_, j);
        max_ = std::max(max_, j);
    }
}

bool SkinningMatrixJob::validate() const {
    const size_t nj = joints.size();
    if (inverseBind.size() != nj || (rows.empty() ? palette.size() < nj : rows.size() < 3 * nj)) return false;
    if (range) return range->covers(joints) && range->within(model.size());
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

// The same product with b read from memory one float at a time, as broadcasts: the same
// operations (so the same bits), with b's entries taken by the load ports instead of shuffles.
inline __m128 column(const Columns& a, const float* b) {
    __m128 v = _mm_mul_ps(a.c0, _mm_load1_ps(b));
    v = _mm_add_ps(v, _mm_mul_ps(a.c1, _mm_load1_ps(b + 1)));
    return _mm_add_ps(v, _mm_mul_ps(a.c2, _mm_load1_ps(b + 2)));
}

inline Columns mul(const Columns& a, const glm::mat4& b) {
    const float* f = &b[0][0];
    return {column(a, f), column(a, f + 4), column(a, f + 8), _mm_add_ps(column(a, f + 12), a.c3)};
}

inline void store(glm::mat4& m, const Columns& c) {
    float* f = &m[0][0];
    _mm_storeu_ps(f, c.c0);
    _mm_storeu_ps(f + 4, c.c1);
    _mm_storeu_ps(f + 8, c.c2);
    _mm_storeu_ps(f + 12, c.c3);
}

// The first three rows of the matrix (its columns transposed): one RGBA texel each.
inline void storeRows(glm::vec4* r, const Columns& c) {
    __m128 c0 = c.c0, c1 = c.c1, c2 = c.c2, c3 = c.c3;
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
    _mm_storeu_ps(&r[0][0], c0);
    _mm_storeu_ps(&r[1][0], c1);
    _mm_storeu_ps(&r[2][0], c2);
}

#endif

// The palette loop (with or without the mesh-node correction; as matrices or as rows),
// compiled for the baseline and for AVX2 + FMA (anim/runtime/isa.h).
template <bool kRows>
RIG_ALWAYS_INLINE void paletteLoop(const glm::mat4* m, const int32_t* jt, const glm::mat4* ib, const glm::mat4* correction,
                                   size_t nj, void* dst) {
    glm::mat4* out = static_cast<glm::mat4*>(dst);
    glm::vec4* rows = static_cast<glm::vec4*>(dst);
#if defined(__SSE2__)
    auto put = [&](size_t j, const Columns& v) {
        if constexpr (kRows) {
            storeRows(rows + 3 * j, v);
        } else {
            store(out[j], v);
        }
    };
    if (!correction) {
        for (size_t j = 0; j < nj; ++j) put(j, mul(load(m[jt[j]]), ib[j]));
    } else {
        const Columns c = load(*correction);
        for (size_t j = 0; j < nj; ++j) put(j, mul(c, mul(load(m[jt[j]]), ib[j])));
    }
#else
    auto put = [&](size_t j, const glm::mat4& v) {
        if constexpr (kRows) {
            storeAffineRows(v, rows + 3 * j);
        } else {
            out[j] = v;
        }
    };
    if (!correction) {
        for (size_t j = 0; j < nj; ++j) put(j, mulAffine(m[jt[j]], ib[j]));
    } else {
        const glm::mat4 c = *correction;
        for (size_t j = 0; j < nj; ++j) put(j, mulAffine(c, mulAffine(m[jt[j]], ib[j])));
    }
#endif
}

#if RIG_HAVE_AVX2_PATH
template <bool kRows>
RIG_TARGET_AVX2_FMA void paletteAvx2(const glm::mat4* m, const int32_t* jt, const glm::mat4* ib, const glm::mat4* correction,
                                     size_t nj, void* out) {
    paletteLoop<kRows>(m, jt, ib, correction, nj, out);
}
#endif

#if RIG_HAVE_AVX2_PATH
// The AVX-512 form: a matrix in one register (its columns in the 128-bit lanes), a product
// a * b as three multiply-adds: (a's column k in every lane) * (b's row k, entry c broadcast
// in lane c), k < 3, plus a's column 3 in lane 3 (b affine): a's columns are broadcast loads,
// b's rows in-lane shuffles. The same sums as the other forms, each product fused.
RIG_TARGET_AVX512 RIG_ALWAYS_INLINE __m512 productAvx512(__m512 a0, __m512 a1, __m512 a2, __m512 a3, __m512 b) {
    __m512 c = _mm512_mul_ps(a0, _mm512_permute_ps(b, 0x00));
    c = _mm512_fmadd_ps(a1, _mm512_permute_ps(b, 0x55), c);
    c = _mm512_fmadd_ps(a2, _mm512_permute_ps(b, 0xAA), c);
    return _mm512_mask_add_ps(c, 0xF000, c, a3);
}

RIG_TARGET_AVX512 RIG_ALWAYS_INLINE __m512 columnAvx512(const float* m, int c) {
    return _mm512_broadcast_f32x4(_mm_loadu_ps(m + 4 * c));
}

template <bool kRows, bool kCorrected>
RIG_TARGET_AVX512 void paletteAvx512(const glm::mat4* m, const int32_t* jt, const glm::mat4* ib, const glm::mat4* correction,
                                     size_t nj, void* dst) {
    __m512 k0 = _mm512_setzero_ps(), k1 = k0, k2 = k0, k3 = k0;
    if constexpr (kCorrected) {
        const float* c = &(*correction)[0][0];
        k0 = columnAvx512(c, 0);
        k1 = columnAvx512(c, 1);
        k2 = columnAvx512(c, 2);
        k3 = columnAvx512(c, 3);
    }
    // Rows: the matrix transposed (entry 4c + r to 4r + c), its first three rows stored.
    const __m512i transpose = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    for (size_t j = 0; j < nj; ++j) {
        const float* w = &m[jt[j]][0][0];
        __m512 e = productAvx512(columnAvx512(w, 0), columnAvx512(w, 1), columnAvx512(w, 2), columnAvx512(w, 3),
                                 _mm512_loadu_ps(&ib[j][0][0]));
        if constexpr (kCorrected) e = productAvx512(k0, k1, k2, k3, e);
        if constexpr (kRows) {
            _mm512_mask_storeu_ps(&static_cast<glm::vec4*>(dst)[3 * j][0], 0x0FFF, _mm512_permutexvar_ps(transpose, e));
        } else {
            _mm512_storeu_ps(&static_cast<glm::mat4*>(dst)[j][0][0], e);
        }
    }
}
#endif

template <bool kRows>
void runPalette(const SkinningMatrixJob& job, void* out) {
#if RIG_HAVE_AVX2_PATH
    if (isa::avx512()) {
        if (job.correction) {
            paletteAvx512<kRows, true>(job.model.data(), job.joints.data(), job.inverseBind.data(), job.correction, job.joints.size(), out);
        } else {
            paletteAvx512<kRows, false>(job.model.data(), job.joints.data(), job.inverseBind.data(), nullptr, job.joints.size(), out);
        }
        return;
    }
    if (isa::avx2()) {
        paletteAvx2<kRows>(job.model.data(), job.joints.data(), job.inverseBind.data(), job.correction, job.joints.size(), out);
        return;
    }
#endif
    paletteLoop<kRows>(job.model.data(), job.joints.data(), job.inverseBind.data(), job.correction, job.joints.size(), out);
}

}  // namespace

void storeAffineRows(const glm::mat4& m, glm::vec4* rows) {
    for (int r = 0; r < 3; ++r) rows[r] = glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]);
}

glm::mat4 affineFromRows(const glm::vec4* rows) {
    glm::mat4 m(1.0f);
    for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 3; ++r) m[c][r] = rows[r][c];
    }
    return m;
}

bool SkinningMatrixJob::run() const {
    if (!validate()) return false;
    if (rows.empty()) {
        runPalette<false>(*this, palette.data());
    } else {
        runPalette<true>(*this, rows.data());
    }
    return true;
}

}  // namespace rig
