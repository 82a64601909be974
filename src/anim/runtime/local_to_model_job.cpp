#include "anim/runtime/local_to_model_job.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "anim/runtime/isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rig {

static_assert(sizeof(glm::mat4) == 64, "glm::mat4 must be 16 packed floats");
static_assert(offsetof(Transform, rotation) == 12 && sizeof(glm::quat) == 16, "Transform layout");

JointOrder::JointOrder(std::span<const int32_t> parent) {
    const size_t n = parent.size();
    std::vector<int32_t> depth(n, 0);
    int32_t levels = 0;
    for (size_t i = 0; i < n; ++i) {
        const int32_t p = parent[i];
        if (p >= static_cast<int32_t>(i) || p < -1) return;
        depth[i] = p < 0 ? 0 : depth[p] + 1;
        levels = std::max(levels, depth[i] + 1);
    }
    // A counting sort by depth, stable, so a level keeps index order.
    std::vector<int32_t> start(static_cast<size_t>(levels) + 1, 0);
    for (size_t i = 0; i < n; ++i) ++start[depth[i] + 1];
    for (int32_t d = 0; d < levels; ++d) start[d + 1] += start[d];
    order_.resize(n);
    for (size_t i = 0; i < n; ++i) order_[start[depth[i]]++] = static_cast<int32_t>(i);
    parent_ = parent.data();
    nodes_ = n;
}

void JointOrder::assignPartial(const JointOrder& full, const uint8_t* keep) {
    order_.clear();
    for (const int32_t j : full.order_) {
        if (keep[j]) order_.push_back(j);
    }
    parent_ = order_.empty() ? nullptr : full.parent_;
    nodes_ = order_.empty() ? 0 : full.nodes_;
}

bool LocalToModelJob::validate() const {
    const size_t n = end();
    if (n > parent.size() || model.size() < n) return false;
    const bool byLocal = !local.empty(), byMatrix = !bindLocal.empty(), masked = !useLocal.empty();
    if (!byLocal && !byMatrix) return n == 0;
    if (masked && !(byLocal && byMatrix)) return false;
    if (!masked && byLocal && byMatrix) return false;
    if ((byLocal && local.size() < n) || (byMatrix && bindLocal.size() < n) || (masked && useLocal.size() < n)) return false;
    // An order was checked against these parents when it was built.
    if (order) return n == parent.size() && order->builtFor(parent);
    const int32_t* p = parent.data();
    for (size_t i = 0; i < n; ++i) {
        if (p[i] >= static_cast<int32_t>(i) || p[i] < -1) return false;
    }
    return true;
}

namespace {

constexpr int kByLocal = 0, kByMatrix = 1, kMasked = 2;

#if defined(__SSE2__)

struct Local {
    __m128 c0, c1, c2, c3;
};

template <int A, int B, int C, int D>
inline __m128 sh(__m128 v) {
    return _mm_shuffle_ps(v, v, _MM_SHUFFLE(D, C, B, A));
}

// The local matrices of four joints, T * R * S, in struct-of-arrays form: entry[3 * c + r]
// holds row r of column c (c = 3: the translation) for the four joints, one per lane. Each
// lane is computed with the same operations, in the same order, as toMatrix() (so the same
// bits). The loads stay inside each Transform: (t.x, t.y, t.z, q.x), (q.x .. q.w), (q.w, s.x,
// s.y, s.z); the product below reads the entries back one float at a time, as broadcasts
// from memory, so no matrix is transposed back (shuffles share one port; loads have several).
struct alignas(16) LocalBlock {
    float entry[12][4];
};

inline void trsToEntries(const Transform& t0, const Transform& t1, const Transform& t2, const Transform& t3, __m128 (&e)[12]) {
    static_assert(sizeof(Transform) == 40, "Transform layout");
    const float* f0 = &t0.translation.x;
    const float* f1 = &t1.translation.x;
    const float* f2 = &t2.translation.x;
    const float* f3 = &t3.translation.x;
    __m128 tx = _mm_loadu_ps(f0), ty = _mm_loadu_ps(f1), tz = _mm_loadu_ps(f2), tw = _mm_loadu_ps(f3);
    __m128 x = _mm_loadu_ps(f0 + 3), y = _mm_loadu_ps(f1 + 3), z = _mm_loadu_ps(f2 + 3), w = _mm_loadu_ps(f3 + 3);
    __m128 s0 = _mm_loadu_ps(f0 + 6), sx = _mm_loadu_ps(f1 + 6), sy = _mm_loadu_ps(f2 + 6), sz = _mm_loadu_ps(f3 + 6);
    _MM_TRANSPOSE4_PS(tx, ty, tz, tw);  // tx: the four t.x, ...; tw: q.x (unused)
    _MM_TRANSPOSE4_PS(x, y, z, w);
    _MM_TRANSPOSE4_PS(s0, sx, sy, sz);  // s0: q.w (unused)
    const __m128 one = _mm_set1_ps(1.0f), two = _mm_set1_ps(2.0f);
    const __m128 xx = _mm_mul_ps(x, x), yy = _mm_mul_ps(y, y), zz = _mm_mul_ps(z, z);
    const __m128 xy = _mm_mul_ps(x, y), xz = _mm_mul_ps(x, z), yz = _mm_mul_ps(y, z);
    const __m128 wx = _mm_mul_ps(w, x), wy = _mm_mul_ps(w, y), wz = _mm_mul_ps(w, z);
    e[0] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(yy, zz))), sx);
    e[1] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xy, wz)), sx);
    e[2] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xz, wy)), sx);
    e[3] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xy, wz)), sy);
    e[4] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, zz))), sy);
    e[5] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(yz, wx)), sy);
    e[6] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xz, wy)), sz);
    e[7] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(yz, wx)), sz);
    e[8] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, yy))), sz);
    e[9] = tx;
    e[10] = ty;
    e[11] = tz;
}

inline void trsToBlock(const Transform& t0, const Transform& t1, const Transform& t2, const Transform& t3, LocalBlock& out) {
    __m128 e[12];
    trsToEntries(t0, t1, t2, t3, e);
    for (int k = 0; k < 12; ++k) _mm_store_ps(out.entry[k], e[k]);
}

inline Local loadColumns(const glm::mat4& m) {
    return {_mm_loadu_ps(&m[0][0]), _mm_loadu_ps(&m[1][0]), _mm_loadu_ps(&m[2][0]), _mm_loadu_ps(&m[3][0])};
}

// p * l for affine matrices, as mulAffine() does it, with l's entries read as single floats:
// l(c, r) at f[c * kColumn + r * kRow] (a matrix: 4, 1; a LocalBlock lane: 12, 4).
template <int kColumn, int kRow>
inline __m128 column(const Local& p, const float* f) {
    __m128 v = _mm_mul_ps(p.c0, _mm_load1_ps(f));
    v = _mm_add_ps(v, _mm_mul_ps(p.c1, _mm_load1_ps(f + kRow)));
    v = _mm_add_ps(v, _mm_mul_ps(p.c2, _mm_load1_ps(f + 2 * kRow)));
    return v;
}

template <int kColumn, int kRow>
inline Local product(const Local& p, const float* f) {
    return {column<kColumn, kRow>(p, f), column<kColumn, kRow>(p, f + kColumn), column<kColumn, kRow>(p, f + 2 * kColumn),
            _mm_add_ps(column<kColumn, kRow>(p, f + 3 * kColumn), p.c3)};
}

// The four lanes of a LocalBlock as matrices (roots' model matrices: a job of roots, which
// only makes local matrices, takes every lane), by four 4x4 transposes: lane L's column c is
// (entry[3c][L], entry[3c + 1][L], entry[3c + 2][L], c == 3 ? 1 : 0).
inline void blockMatrices(const LocalBlock& b, Local out[4]) {
    const float(*e)[4] = b.entry;
    const __m128 zero = _mm_setzero_ps();
    for (int c = 0; c < 4; ++c) {
        __m128 r0 = _mm_load_ps(e[3 * c]), r1 = _mm_load_ps(e[3 * c + 1]), r2 = _mm_load_ps(e[3 * c + 2]);
        __m128 r3 = c == 3 ? _mm_set1_ps(1.0f) : zero;
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        (&out[0].c0)[c] = r0;
        (&out[1].c0)[c] = r1;
        (&out[2].c0)[c] = r2;
        (&out[3].c0)[c] = r3;
    }
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

#if RIG_HAVE_AVX2_PATH
#if defined(__clang__)
#define RIG_LTM_AVX512 __attribute__((target("avx512f,avx2,fma")))
#else
#define RIG_LTM_AVX512 __attribute__((target("avx512f,avx2,fma"), optimize("fp-contract=fast")))
#endif
// p * l (affine, l a matrix in memory) in one AVX-512 register: p's columns broadcast to the
// four 128-bit lanes (loads), l's columns in the lanes, l's row k entry c spread over lane c
// (in-lane shuffles): lane c = p.c0 * l(c,0) + p.c1 * l(c,1) + p.c2 * l(c,2) (+ p.c3 in lane
// 3), one multiply and two multiply-adds, as the AVX2 form's column() fuses them: the same
// bits. Not always_inline: it is inlined where the caller is compiled for AVX-512.
RIG_LTM_AVX512 inline __m512 lanesZmm(const float* column) {
    return _mm512_maskz_broadcast_f32x4(0xFFFF, _mm_load_ps(column));  // (maskz: no undefined source)
}
RIG_LTM_AVX512 inline void productZmm(const float* p, __m512 b, float* out) {
    __m512 c = _mm512_mul_ps(lanesZmm(p), _mm512_maskz_permute_ps(0xFFFF, b, 0x00));
    c = _mm512_fmadd_ps(lanesZmm(p + 4), _mm512_maskz_permute_ps(0xFFFF, b, 0x55), c);
    c = _mm512_fmadd_ps(lanesZmm(p + 8), _mm512_maskz_permute_ps(0xFFFF, b, 0xAA), c);
    _mm512_storeu_ps(out, _mm512_mask_add_ps(c, 0xF000, c, lanesZmm(p + 12)));
}
RIG_LTM_AVX512 inline void productZmm(const float* p, const float* l, float* out) {
    productZmm(p, _mm512_loadu_ps(l), out);
}
// Four joints' local matrix entries (trsToEntries) in three registers, kept there: z[c] holds
// entries 4c .. 4c + 3, entry k's four lanes at 4 (k - 4c) .. + 3.
struct BlockZmm {
    __m512 z[3];
};
RIG_LTM_AVX512 inline void clearZmm(BlockZmm& b) {
    for (__m512& z : b.z) z = _mm512_setzero_ps();
}
RIG_LTM_AVX512 inline void blockZmm(const __m128 (&e)[12], BlockZmm& b) {
    for (int c = 0; c < 3; ++c) {
        __m512 v = _mm512_insertf32x4(_mm512_setzero_ps(), e[4 * c], 0);
        v = _mm512_insertf32x4(v, e[4 * c + 1], 1);
        v = _mm512_insertf32x4(v, e[4 * c + 2], 2);
        b.z[c] = _mm512_insertf32x4(v, e[4 * c + 3], 3);
    }
}
// Lane `lane` of a BlockZmm as a matrix in one register (columns in the 128-bit lanes): the
// entries moved, not computed, so the same bits as the block's.
RIG_LTM_AVX512 inline __m512 laneZmm(const BlockZmm& b, size_t lane) {
    const __m512i l = _mm512_set1_epi32(static_cast<int>(lane));
    // Columns 0-2's entries 0-7 from z[0] and z[1] (entry k's lane at 4k + lane), entries 8-11
    // from z[2], then the last row (0, 0, 0, 1).
    const __m512i low = _mm512_add_epi32(_mm512_setr_epi32(0, 4, 8, 0, 12, 16, 20, 0, 24, 28, 0, 0, 0, 0, 0, 0), l);
    const __m512i high = _mm512_add_epi32(_mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 8, 12, 0), l);
    __m512 m = _mm512_permutex2var_ps(b.z[0], low, b.z[1]);
    m = _mm512_mask_permutexvar_ps(m, 0x7400, high, b.z[2]);  // positions 10, 12, 13, 14
    const __m512 lastRow = _mm512_setr_ps(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0f);
    return _mm512_mask_mov_ps(m, 0x8888, lastRow);
}
RIG_LTM_AVX512 inline void storeLaneZmm(const BlockZmm& b, size_t lane, float* out) { _mm512_storeu_ps(out, laneZmm(b, lane)); }
RIG_LTM_AVX512 inline void productZmm(const float* p, const BlockZmm& b, size_t lane, float* out) {
    productZmm(p, laneZmm(b, lane), out);
}
#endif

// Joints in index order, or (kOrdered) in the order `ord` gives; kZmm: every product is
// productZmm (the AVX-512 form, aligned model only), so a node's model matrix is the same
// bits whether its local matrix came as a matrix or from its pose.
template <bool kAligned, int kMode, bool kOrdered, bool kZmm = false>
RIG_ALWAYS_INLINE void forward(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                               const uint8_t* useLocal, const int32_t* ord, size_t n, glm::mat4* model) {
    static_assert(!kZmm || kAligned, "the AVX-512 form is for 16-byte aligned matrices");
    LocalBlock block;
#if RIG_HAVE_AVX2_PATH
    BlockZmm zmm;  // kZmm: the block in registers, not `block`
    if constexpr (kZmm) clearZmm(zmm);  // (a masked block no joint takes is never made or read)
#endif
    Local lanes[4];  // the block's lanes as matrices, made when first wanted
    bool lanesReady = false;
    auto laneMatrix = [&](size_t lane) -> const Local& {
        if (!lanesReady) {
            blockMatrices(block, lanes);
            lanesReady = true;
        }
        return lanes[lane];
    };
    auto at = [&](size_t k) { return kOrdered ? static_cast<size_t>(ord[k]) : k; };
    for (size_t k = 0; k < n; ++k) {
        const size_t i = at(k);
        const size_t lane = k & 3;
        const bool byMatrix = kMode == kByMatrix || (kMode == kMasked && !useLocal[i]);
        // Local matrices four joints at a time (the last block repeats its last joint); masked,
        // only for a block where some joint takes its pose.
        if (kMode != kByMatrix && lane == 0) {
            const size_t last = n - 1;
            const size_t i1 = at(k + 1 < n ? k + 1 : last), i2 = at(k + 2 < n ? k + 2 : last), i3 = at(k + 3 < n ? k + 3 : last);
            if (kMode == kByLocal || (useLocal[i] | useLocal[i1] | useLocal[i2] | useLocal[i3])) {
#if RIG_HAVE_AVX2_PATH
                if constexpr (kZmm) {
                    __m128 e[12];
                    trsToEntries(local[i], local[i1], local[i2], local[i3], e);
                    blockZmm(e, zmm);
                } else
#endif
                {
                    trsToBlock(local[i], local[i1], local[i2], local[i3], block);
                    lanesReady = false;
                }
            }
        }
        const int32_t p = parent[i];
#if RIG_HAVE_AVX2_PATH
        if constexpr (kZmm) {
            // Every product in this form (a local matrix from its block: the same entries).
            float* out = &model[i][0][0];
            if (p < 0) {
                if (byMatrix) {
                    store<kAligned>(model[i], loadColumns(bindLocal[i]));
                } else {
                    storeLaneZmm(zmm, lane, out);
                }
            } else if (byMatrix) {
                productZmm(&model[p][0][0], &bindLocal[i][0][0], out);
            } else {
                productZmm(&model[p][0][0], zmm, lane, out);
            }
            continue;
        }
#endif
        if (p < 0) {
            if (byMatrix) {
                store<kAligned>(model[i], loadColumns(bindLocal[i]));
                continue;
            }
            store<kAligned>(model[i], laneMatrix(lane));
            continue;
        }
        const Local pm = kAligned ? Local{_mm_load_ps(&model[p][0][0]), _mm_load_ps(&model[p][1][0]),
                                          _mm_load_ps(&model[p][2][0]), _mm_load_ps(&model[p][3][0])}
                                  : loadColumns(model[p]);
        store<kAligned>(model[i], byMatrix ? product<4, 1>(pm, &bindLocal[i][0][0]) : product<12, 4>(pm, &block.entry[0][lane]));
    }
}

#else

template <bool kAligned, int kMode, bool kOrdered>
RIG_ALWAYS_INLINE void forward(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                               const uint8_t* useLocal, const int32_t* ord, size_t n, glm::mat4* model) {
    for (size_t k = 0; k < n; ++k) {
        const size_t i = kOrdered ? static_cast<size_t>(ord[k]) : k;
        const glm::mat4 l = (kMode == kByLocal || (kMode == kMasked && useLocal[i])) ? toMatrix(local[i]) : bindLocal[i];
        model[i] = parent[i] < 0 ? l : mulAffine(model[parent[i]], l);
    }
}

#endif

// The loop's AVX2 + FMA form (anim/runtime/isa.h), and the choice between it and the baseline form.
#if RIG_HAVE_AVX2_PATH
template <bool kAligned, int kMode, bool kOrdered>
RIG_TARGET_AVX2_FMA void forwardAvx2(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                                     const uint8_t* useLocal, const int32_t* ord, size_t n, glm::mat4* model) {
    forward<kAligned, kMode, kOrdered>(parent, local, bindLocal, useLocal, ord, n, model);
}
#endif

#if RIG_HAVE_AVX2_PATH
template <bool kAligned, int kMode, bool kOrdered>
RIG_LTM_AVX512 void forwardAvx512(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal,
                                  const uint8_t* useLocal, const int32_t* ord, size_t n, glm::mat4* model) {
    forward<kAligned, kMode, kOrdered, true>(parent, local, bindLocal, useLocal, ord, n, model);
}
#endif

template <bool kAligned, int kMode, bool kOrdered>
void forwardBest(const int32_t* parent, const Transform* local, const glm::mat4* bindLocal, const uint8_t* useLocal,
                 const int32_t* ord, size_t n, glm::mat4* model) {
#if RIG_HAVE_AVX2_PATH
    if constexpr (kAligned && kMode != kByLocal) {
        if (isa::avx512()) return forwardAvx512<kAligned, kMode, kOrdered>(parent, local, bindLocal, useLocal, ord, n, model);
    }
    if (isa::avx2()) return forwardAvx2<kAligned, kMode, kOrdered>(parent, local, bindLocal, useLocal, ord, n, model);
#endif
    forward<kAligned, kMode, kOrdered>(parent, local, bindLocal, useLocal, ord, n, model);
}

template <bool kOrdered>
void forwardIn(bool aligned, int mode, const int32_t* p, const Transform* l, const glm::mat4* b, const uint8_t* u,
               const int32_t* o, size_t n, glm::mat4* m) {
    switch ((aligned ? 3 : 0) + mode) {
        case 0: forwardBest<false, kByLocal, kOrdered>(p, l, b, u, o, n, m); break;
        case 1: forwardBest<false, kByMatrix, kOrdered>(p, l, b, u, o, n, m); break;
        case 2: forwardBest<false, kMasked, kOrdered>(p, l, b, u, o, n, m); break;
        case 3: forwardBest<true, kByLocal, kOrdered>(p, l, b, u, o, n, m); break;
        case 4: forwardBest<true, kByMatrix, kOrdered>(p, l, b, u, o, n, m); break;
        default: forwardBest<true, kMasked, kOrdered>(p, l, b, u, o, n, m); break;
    }
}

}  // namespace

bool LocalToModelJob::run() const {
    if (!validate()) return false;
    const size_t n = end();
    const bool aligned = (reinterpret_cast<uintptr_t>(model.data()) & 15u) == 0;
    const int mode = !useLocal.empty() ? kMasked : !local.empty() ? kByLocal : kByMatrix;
    if (order) {
        forwardIn<true>(aligned, mode, parent.data(), local.data(), bindLocal.data(), useLocal.data(), order->joints().data(),
                        order->joints().size(), model.data());
    } else {
        forwardIn<false>(aligned, mode, parent.data(), local.data(), bindLocal.data(), useLocal.data(), nullptr, n, model.data());
    }
    return true;
}

}  // namespace rig
