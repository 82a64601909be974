// The AVX2 form of the cached compressed sampler's full channels (compressed_sampling_cache.h):
// eight channels' keys read, decoded and blended at once, bit for bit what the scalar form
// (compressed_sampler.cpp) computes.
#include "anim/runtime/compressed_sampling_detail.h"

#if RIG_HAVE_AVX2_PATH
#include <immintrin.h>

namespace rig::compressed_detail {

namespace {

using Lanes = CompressedSamplingCache::Lanes;

// A Lanes' columns as plain pointers, held in registers by the kernels below: reached through
// the vectors, every vector store (which may alias anything) would make the compiler load
// their data pointers again.
struct LaneCols {
    uint32_t* u;
    float* f;
    size_t capacity;
    explicit LaneCols(Lanes& l) : u(l.u.data()), f(l.f.data()), capacity(l.capacity) {}
};
// Window slot s of a Lanes as columns 0-3 (codes 0-2, index) of a LaneCols.
inline LaneCols windowCols(Lanes& l, uint32_t s) {
    LaneCols w(l);
    w.u = l.window.data() + 4 * s * l.capacity;
    return w;
}
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i laneU(const LaneCols& l, Lanes::U c, uint32_t j) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(l.u + c * l.capacity + j));
}
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void storeU(const LaneCols& l, Lanes::U c, uint32_t j, __m256i v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(l.u + c * l.capacity + j), v);
}
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256 laneF(const LaneCols& l, Lanes::F c, uint32_t j) {
    return _mm256_loadu_ps(l.f + c * l.capacity + j);
}
// Lanes 0-3 / 4-7 of eight 32-bit values, widened to 64 bits.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i wideLo(__m256i x) { return _mm256_cvtepu32_epi64(_mm256_castsi256_si128(x)); }
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i wideHi(__m256i x) { return _mm256_cvtepu32_epi64(_mm256_extracti128_si256(x, 1)); }
// The low 32 bits of each 64-bit lane of a (lanes 0-3) and b (4-7), in lane order.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i packLow(__m256i a, __m256i b) {
    const __m256 s = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), _MM_SHUFFLE(3, 1, 2, 0));
}

// The 64 bits from bit `pos` of each lane (readBits64), as two halves of four; `limit`: the
// last bit a 64-bit read may start at (lanes past a group's end read there, harmlessly). Eight
// scalar loads, not two gathers (gathers are slower at reading eight unrelated words).
struct Words8 {
    __m256i lo, hi;
};
// kHalf: lanes 0-3 alone (lanes 4-7 read as 0), for a group's last lanes.
template <bool kHalf = false>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE Words8 readWords8(const uint8_t* stream, __m256i pos, __m256i limit) {
    pos = _mm256_min_epu32(pos, limit);
    alignas(32) uint32_t byte[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(byte), _mm256_srli_epi32(pos, 3));
    const __m256i bit = _mm256_and_si256(pos, _mm256_set1_epi32(7));
    long long w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < (kHalf ? 4 : 8); ++i) std::memcpy(&w[i], stream + byte[i], sizeof(w[i]));
    const __m256i lo = _mm256_srlv_epi64(_mm256_setr_epi64x(w[0], w[1], w[2], w[3]), wideLo(bit));
    if constexpr (kHalf) return {lo, _mm256_setzero_si256()};
    return {lo, _mm256_srlv_epi64(_mm256_setr_epi64x(w[4], w[5], w[6], w[7]), wideHi(bit))};
}

// (w >> shift) & mask per lane; fieldWide takes the shifts already widened (wideLo, wideHi).
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i fieldWide(const Words8& w, __m256i shiftLo, __m256i shiftHi, __m256i mask) {
    return _mm256_and_si256(packLow(_mm256_srlv_epi64(w.lo, shiftLo), _mm256_srlv_epi64(w.hi, shiftHi)), mask);
}
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i field(const Words8& w, __m256i shift, __m256i mask) {
    return fieldWide(w, wideLo(shift), wideHi(shift), mask);
}
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256 dequantize8(__m256 min, __m256i code, __m256 scale) {
    return _mm256_add_ps(min, _mm256_mul_ps(_mm256_cvtepi32_ps(code), scale));
}
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE __m256i streamLimit(const std::vector<uint8_t>& s) {
    return _mm256_set1_epi32(static_cast<int>(s.size() < 8 ? 0 : (s.size() - 8) * 8));
}

// Eight vec3 keys from their codes (decodeVec3Codes), into columns.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void storeVec3Lanes8(const LaneCols& l, uint32_t j, __m256i q0, __m256i q1, __m256i q2, float* out,
                                                       size_t column) {
    _mm256_storeu_ps(out + j, dequantize8(laneF(l, Lanes::Min0, j), q0, laneF(l, Lanes::Scale0, j)));
    _mm256_storeu_ps(out + column + j, dequantize8(laneF(l, Lanes::Min1, j), q1, laneF(l, Lanes::Scale1, j)));
    _mm256_storeu_ps(out + 2 * column + j, dequantize8(laneF(l, Lanes::Min2, j), q2, laneF(l, Lanes::Scale2, j)));
}

// A group's ranges per component (x, y, z, w), loaded once for the frames it decodes (the
// frames' stores may alias the lanes' columns, so the compiler would load them again).
struct Ranges8 {
    __m256 min[4], scale[4];
};
template <bool kDropsW>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE Ranges8 ranges8(const LaneCols& l, uint32_t j) {
    Ranges8 r;
    for (int c = 0; c < (kDropsW ? 3 : 4); ++c) {
        r.min[c] = laneF(l, Lanes::F(Lanes::Min0 + c), j);
        r.scale[c] = laneF(l, Lanes::F(Lanes::Scale0 + c), j);
    }
    if constexpr (kDropsW) r.min[3] = r.scale[3] = _mm256_setzero_ps();
    return r;
}

// Eight rotations from their codes and dropped components, into columns (decodeSmallestThree: code i over
// the range of component kKeptComponents[largest][i]; rebuildQuat's operations in its order,
// so the same bits).
// kDropsW: every lane drops w (codes x, y, z in order): no component to pick.
template <bool kDropsW>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void storeQuatLanes8(const Ranges8& r, uint32_t j, __m256i q0, __m256i q1, __m256i q2, __m256i largest,
                                                       float* out, size_t column) {
    if constexpr (kDropsW) {
        const __m256 a = dequantize8(r.min[0], q0, r.scale[0]);
        const __m256 b = dequantize8(r.min[1], q1, r.scale[1]);
        const __m256 c = dequantize8(r.min[2], q2, r.scale[2]);
        const __m256 one = _mm256_set1_ps(1.0f);
        const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, a), _mm256_mul_ps(b, b)), _mm256_mul_ps(c, c));
        _mm256_storeu_ps(out + j, a);
        _mm256_storeu_ps(out + column + j, b);
        _mm256_storeu_ps(out + 2 * column + j, c);
        _mm256_storeu_ps(out + 3 * column + j, _mm256_sqrt_ps(_mm256_and_ps(_mm256_cmp_ps(sum, one, _CMP_LT_OQ), _mm256_sub_ps(one, sum))));
        return;
    }
    const __m256 eq0 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(largest, _mm256_setzero_si256()));
    const __m256 eq1 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(largest, _mm256_set1_epi32(1)));
    const __m256 eq2 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(largest, _mm256_set1_epi32(2)));
    const __m256 eq3 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(largest, _mm256_set1_epi32(3)));
    const __m256 le1 = _mm256_or_ps(eq0, eq1);
    const __m256 a = dequantize8(_mm256_blendv_ps(r.min[0], r.min[1], eq0), q0, _mm256_blendv_ps(r.scale[0], r.scale[1], eq0));
    const __m256 b = dequantize8(_mm256_blendv_ps(r.min[1], r.min[2], le1), q1, _mm256_blendv_ps(r.scale[1], r.scale[2], le1));
    const __m256 c = dequantize8(_mm256_blendv_ps(r.min[3], r.min[2], eq3), q2, _mm256_blendv_ps(r.scale[3], r.scale[2], eq3));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, a), _mm256_mul_ps(b, b)), _mm256_mul_ps(c, c));
    const __m256 big = _mm256_sqrt_ps(_mm256_and_ps(_mm256_cmp_ps(sum, one, _CMP_LT_OQ), _mm256_sub_ps(one, sum)));
    const __m256 x = _mm256_blendv_ps(a, big, eq0);
    const __m256 y = _mm256_blendv_ps(_mm256_blendv_ps(b, big, eq1), a, eq0);
    const __m256 z = _mm256_blendv_ps(_mm256_blendv_ps(c, big, eq2), b, le1);
    const __m256 w = _mm256_blendv_ps(c, big, eq3);
    _mm256_storeu_ps(out + j, x);
    _mm256_storeu_ps(out + column + j, y);
    _mm256_storeu_ps(out + 2 * column + j, z);
    _mm256_storeu_ps(out + 3 * column + j, w);
}

// Key k's codes of eight plain-coded lanes; `largest`: the rotations' dropped components.
struct Codes8 {
    __m256i q[3], largest;
};
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE Codes8 plainCodes8(const uint8_t* stream, __m256i limit, const LaneCols& l, uint32_t j, uint32_t k) {
    const __m256i pos = _mm256_add_epi32(laneU(l, Lanes::Offset, j),
                                         _mm256_mullo_epi32(laneU(l, Lanes::Stride, j), _mm256_set1_epi32(static_cast<int>(k))));
    const Words8 w = readWords8(stream, pos, limit);
    Codes8 c;
    c.q[0] = _mm256_and_si256(packLow(w.lo, w.hi), laneU(l, Lanes::Mask0, j));
    c.q[1] = field(w, laneU(l, Lanes::Shift1, j), laneU(l, Lanes::Mask1, j));
    c.q[2] = field(w, laneU(l, Lanes::Shift2, j), laneU(l, Lanes::Mask2, j));
    c.largest = _mm256_or_si256(laneU(l, Lanes::Largest, j), field(w, laneU(l, Lanes::Shift3, j), laneU(l, Lanes::IndexMask, j)));
    return c;
}

// Eight delta-coded lanes' cursors at the first key of block b: deltaSeekBlock's fields, each
// of the eight headers at once (a field's place in a header is the lane's, from bind()), read
// as three 64-bit words a lane, each holding at most 57 bits of fields (readWords8): the
// records' offset (at most 22 bits) and the first two codes; the third code, the index and the
// first two smallest differences (at most 16 + 2 + 17 + 17); the third and the difference
// widths (17 + 15). Lanes past the list have zero columns: they read the stream's first bits,
// harmlessly.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void deltaSeek8(const uint8_t* stream, __m256i limit, const LaneCols& l, uint32_t j, uint32_t b) {
    const __m256i head = _mm256_add_epi32(laneU(l, Lanes::HeadBase, j),
                                          _mm256_mullo_epi32(laneU(l, Lanes::HeadBits, j), _mm256_set1_epi32(static_cast<int>(b))));
    const __m256i at1 = laneU(l, Lanes::PosCode2, j), at2 = laneU(l, Lanes::PosDmin2, j);
    const Words8 h0 = readWords8(stream, head, limit);
    const Words8 h1 = readWords8(stream, _mm256_add_epi32(head, at1), limit);
    const Words8 h2 = readWords8(stream, _mm256_add_epi32(head, at2), limit);
    const __m256i codeMask[3] = {laneU(l, Lanes::CodeMask0, j), laneU(l, Lanes::CodeMask1, j), laneU(l, Lanes::CodeMask2, j)};
    const __m256i offset = _mm256_and_si256(packLow(h0.lo, h0.hi), laneU(l, Lanes::OffsetMask, j));
    storeU(l, Lanes::Next, j, _mm256_add_epi32(laneU(l, Lanes::RecordBase, j), offset));
    storeU(l, Lanes::Code0, j, field(h0, laneU(l, Lanes::PosCode0, j), codeMask[0]));
    storeU(l, Lanes::Code1, j, field(h0, laneU(l, Lanes::PosCode1, j), codeMask[1]));
    storeU(l, Lanes::Code2, j, _mm256_and_si256(packLow(h1.lo, h1.hi), codeMask[2]));
    const __m256i indexMask = laneU(l, Lanes::IndexMask, j);
    storeU(l, Lanes::Index, j, field(h1, _mm256_sub_epi32(laneU(l, Lanes::PosIndex, j), at1), indexMask));
    for (int i = 0; i < 2; ++i) {
        const __m256i at = _mm256_sub_epi32(laneU(l, Lanes::U(Lanes::PosDmin0 + i), j), at1);
        const __m256i dmin = field(h1, at, laneU(l, Lanes::U(Lanes::DminMask0 + i), j));
        storeU(l, Lanes::U(Lanes::Dmin0 + i), j, _mm256_sub_epi32(dmin, codeMask[i]));
    }
    storeU(l, Lanes::Dmin2, j, _mm256_sub_epi32(_mm256_and_si256(packLow(h2.lo, h2.hi), laneU(l, Lanes::DminMask2, j)), codeMask[2]));
    const __m256i five = _mm256_set1_epi32(static_cast<int>(kDeltaWidthBits)), widthMask = _mm256_set1_epi32((1 << kDeltaWidthBits) - 1);
    const __m256i widths = _mm256_sub_epi32(laneU(l, Lanes::PosWidths, j), at2);
    const __m256i w0 = field(h2, widths, widthMask);
    const __m256i w1 = field(h2, _mm256_add_epi32(widths, five), widthMask);
    const __m256i w2 = field(h2, _mm256_add_epi32(widths, _mm256_add_epi32(five, five)), widthMask);
    const __m256i one = _mm256_set1_epi32(1);
    storeU(l, Lanes::Mask0, j, _mm256_sub_epi32(_mm256_sllv_epi32(one, w0), one));
    storeU(l, Lanes::Mask1, j, _mm256_sub_epi32(_mm256_sllv_epi32(one, w1), one));
    storeU(l, Lanes::Mask2, j, _mm256_sub_epi32(_mm256_sllv_epi32(one, w2), one));
    const __m256i s2 = _mm256_add_epi32(w0, w1), s3 = _mm256_add_epi32(s2, w2);
    storeU(l, Lanes::Shift1, j, w0);
    storeU(l, Lanes::Shift2, j, s2);
    storeU(l, Lanes::Shift3, j, s3);
    // The record's index bits: 2 where the index varies (IndexMask 3), else none.
    storeU(l, Lanes::Stride, j, _mm256_add_epi32(s3, _mm256_and_si256(indexMask, _mm256_set1_epi32(2))));
}

// Eight delta-coded lanes read on through `steps` records from their cursors (key `key`), the
// codes of each key after the first `skip` stored in the window from slot 0 on (deltaStep's
// operations for eight lanes, with the cursor kept in registers between records).
// kHalf: only the first four lanes are live (the upper four are not read). kIndex: some lane's
// records hold the dropped component's index (else none is read or stored).
template <bool kHalf, bool kIndex>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void deltaRun8(const uint8_t* stream, __m256i limit, const LaneCols& l, uint32_t* window,
                                                 uint32_t j, uint32_t skip, uint32_t steps) {
    __m256i next = laneU(l, Lanes::Next, j);
    __m256i code[3] = {laneU(l, Lanes::Code0, j), laneU(l, Lanes::Code1, j), laneU(l, Lanes::Code2, j)};
    __m256i index = laneU(l, Lanes::Index, j);
    const __m256i stride = laneU(l, Lanes::Stride, j), mask0 = laneU(l, Lanes::Mask0, j);
    const __m256i dmin[3] = {laneU(l, Lanes::Dmin0, j), laneU(l, Lanes::Dmin1, j), laneU(l, Lanes::Dmin2, j)};
    const __m256i shift1 = laneU(l, Lanes::Shift1, j), shift2 = laneU(l, Lanes::Shift2, j), shift3 = laneU(l, Lanes::Shift3, j);
    const __m256i s1lo = wideLo(shift1), s1hi = wideHi(shift1), s2lo = wideLo(shift2), s2hi = wideHi(shift2);
    const __m256i s3lo = wideLo(shift3), s3hi = wideHi(shift3);
    const __m256i mask1 = laneU(l, Lanes::Mask1, j), mask2 = laneU(l, Lanes::Mask2, j), indexMask = laneU(l, Lanes::IndexMask, j);
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    const size_t cap = l.capacity;
    for (uint32_t s = 0; s < steps; ++s) {
        const Words8 w = readWords8<kHalf>(stream, next, limit);
        next = _mm256_add_epi32(next, stride);
        const __m256i d[3] = {_mm256_and_si256(packLow(w.lo, w.hi), mask0), fieldWide(w, s1lo, s1hi, mask1),
                              fieldWide(w, s2lo, s2hi, mask2)};
        for (int i = 0; i < 3; ++i) code[i] = _mm256_and_si256(_mm256_add_epi32(_mm256_add_epi32(code[i], dmin[i]), d[i]), low16);
        // Lanes whose records hold no index have IndexMask 0 and Index 0 (deltaSeekBlock reads 0 bits).
        if constexpr (kIndex) index = fieldWide(w, s3lo, s3hi, indexMask);
        if (s >= skip) {
            uint32_t* slot = window + 4 * (s - skip) * cap + j;
            for (int i = 0; i < 3; ++i) _mm256_storeu_si256(reinterpret_cast<__m256i*>(slot + i * cap), code[i]);
            if constexpr (kIndex) _mm256_storeu_si256(reinterpret_cast<__m256i*>(slot + 3 * cap), index);
        }
    }
    storeU(l, Lanes::Next, j, next);
    for (int i = 0; i < 3; ++i) storeU(l, Lanes::U(Lanes::Code0 + i), j, code[i]);
    if constexpr (kIndex) storeU(l, Lanes::Index, j, index);
}

// The window slot holding key k's codes of every delta-coded lane [from, to) (Lanes::window),
// filled when k is outside it; the groups from `indexEnd` on hold no dropped component's index
// (their window's index slots are left as they are; `from`: none holds one). The lanes'
// cursors hold the same key (full channels share their key times, so their blocks start
// together): a window is read on from there when it lies ahead in the same block, else from
// its block's first key.
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE uint32_t deltaLanesTo(const uint8_t* stream, __m256i limit, Lanes& l, uint32_t from, uint32_t to,
                                                        uint32_t indexEnd, uint32_t k) {
    constexpr uint32_t W = Lanes::kWindow;
    const uint32_t start = k / W * W;
    if (l.windowKey == start) return k - start;
    const LaneCols cols(l);
    uint32_t key = l.deltaKey;
    if (key == UINT32_MAX || start <= key || k / kDeltaBlock != key / kDeltaBlock) {
        for (uint32_t j = from; j < to; j += 8) deltaSeek8(stream, limit, cols, j, k / kDeltaBlock);
        key = k / kDeltaBlock * kDeltaBlock;
    }
    // The window's first key is the cursor's own (a block's first) or lies ahead of it.
    uint32_t* window = l.window.data();
    const size_t cap = l.capacity;
    const uint32_t skip = start > key ? start - key - 1 : 0;
    if (start == key) {  // slot 0: the codes the cursor holds
        for (uint32_t j = from; j < to; j += 8) {
            for (int i = 0; i < 3; ++i) {
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(window + i * cap + j), laneU(cols, Lanes::U(Lanes::Code0 + i), j));
            }
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(window + 3 * cap + j), laneU(cols, Lanes::Index, j));
        }
    }
    uint32_t* first = start == key ? window + 4 * cap : window;
    const uint32_t steps = start + W - 1 - key;
    uint32_t j = from;
    for (; j < to && to - j > 4; j += 8) {
        if (j < indexEnd) deltaRun8<false, true>(stream, limit, cols, first, j, skip, steps);
        else deltaRun8<false, false>(stream, limit, cols, first, j, skip, steps);
    }
    if (j < to) {
        if (j < indexEnd) deltaRun8<true, true>(stream, limit, cols, first, j, skip, steps);
        else deltaRun8<true, false>(stream, limit, cols, first, j, skip, steps);
    }
    l.deltaKey = start + W - 1;
    l.windowKey = start;
    return k - start;
}

// Up to this many delta-coded full translations and scales are read one by one, each through
// its own cursor (DeltaCursor), not as a group of eight lanes: a group's window and header
// reads cost the same for one live lane as for eight.
constexpr uint32_t kScalarDeltaLanes = 2;

template <int kFrames>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void decodeFullLanes(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k,
                                                       float* const* v3, float* const* q4) {
    Lanes& lanesV = cache.vec3Lanes;
    Lanes& lanesQ = cache.quatLanes;
    const LaneCols lv(lanesV), lq(lanesQ);
    if (cache.fullVec3Count) {
        const uint8_t* stream = c.vec3Bits.data();
        const __m256i limit = streamLimit(c.vec3Bits);
        for (uint32_t j = 0; j < cache.fullVec3Plain; j += 8) {
            for (int f = 0; f < kFrames; ++f) {
                const Codes8 q = plainCodes8(stream, limit, lv, j, k + f);
                storeVec3Lanes8(lv, j, q.q[0], q.q[1], q.q[2], v3[f], cache.vec3Column);
            }
        }
        if (cache.fullVec3Count - cache.fullVec3Plain <= kScalarDeltaLanes) {
            // A few delta-coded lanes (a root's translation): each through its own cursor.
            const CompressedSamplingCache::Full* F = cache.fullVec3.data();
            for (uint32_t j = cache.fullVec3Plain; j < cache.fullVec3Count; ++j) {
                const Vec3Channel& ch = c.vec3Channels[F[j].channel];
                DeltaCursor& d = cache.deltas[F[j].cursor];
                for (int f = 0; f < kFrames; ++f) deltaVec3ToColumns(stream, ch, d, k + f, j, v3[f], cache.vec3Column);
            }
        } else {
            const uint32_t slot = deltaLanesTo(stream, limit, lanesV, cache.fullVec3Plain, cache.fullVec3Count, cache.fullVec3Plain, k);
            for (uint32_t j = cache.fullVec3Plain; j < cache.fullVec3Count; j += 8) {
                for (int f = 0; f < kFrames; ++f) {
                    const LaneCols w = windowCols(lanesV, slot + f);
                    storeVec3Lanes8(lv, j, laneU(w, Lanes::U(0), j), laneU(w, Lanes::U(1), j), laneU(w, Lanes::U(2), j), v3[f],
                                    cache.vec3Column);
                }
            }
        }
    }
    if (cache.fullQuatCount) {
        const uint8_t* stream = c.quatBits.data();
        const __m256i limit = streamLimit(c.quatBits);
        for (uint32_t j = 0; j < cache.fullQuatPlain; j += 8) {
            const bool dropsW = j >= cache.quatDropsWFrom[0];
            const Ranges8 r = dropsW ? ranges8<true>(lq, j) : ranges8<false>(lq, j);
            for (int f = 0; f < kFrames; ++f) {
                const Codes8 q = plainCodes8(stream, limit, lq, j, k + f);
                if (dropsW) storeQuatLanes8<true>(r, j, q.q[0], q.q[1], q.q[2], q.largest, q4[f], cache.quatColumn);
                else storeQuatLanes8<false>(r, j, q.q[0], q.q[1], q.q[2], q.largest, q4[f], cache.quatColumn);
            }
        }
        if (cache.fullQuatCount > cache.fullQuatPlain) {
            const uint32_t slot = deltaLanesTo(stream, limit, lanesQ, cache.fullQuatPlain, cache.fullQuatCount, cache.quatDropsWFrom[1], k);
            for (uint32_t j = cache.fullQuatPlain; j < cache.fullQuatCount; j += 8) {
                const bool dropsW = j >= cache.quatDropsWFrom[1];
                const Ranges8 r = dropsW ? ranges8<true>(lq, j) : ranges8<false>(lq, j);
                for (int f = 0; f < kFrames; ++f) {
                    const LaneCols w = windowCols(lanesQ, slot + f);
                    const __m256i q0 = laneU(w, Lanes::U(0), j), q1 = laneU(w, Lanes::U(1), j), q2 = laneU(w, Lanes::U(2), j);
                    if (dropsW) {
                        storeQuatLanes8<true>(r, j, q0, q1, q2, _mm256_setzero_si256(), q4[f], cache.quatColumn);
                    } else {
                        storeQuatLanes8<false>(r, j, q0, q1, q2, _mm256_or_si256(laneU(lq, Lanes::Largest, j), laneU(w, Lanes::U(3), j)),
                                               q4[f], cache.quatColumn);
                    }
                }
            }
        }
    }

}  // namespace

}
RIG_TARGET_AVX2 void decodeFullLanes1(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k, float* v3, float* q4) {
    decodeFullLanes<1>(c, cache, k, &v3, &q4);
}
RIG_TARGET_AVX2 void decodeFullLanes2(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k) {
    float* v3[2] = {cache.frameVec3[k & 1].data(), cache.frameVec3[(k + 1) & 1].data()};
    float* q4[2] = {cache.frameQuat[k & 1].data(), cache.frameQuat[(k + 1) & 1].data()};
    decodeFullLanes<2>(c, cache, k, v3, q4);
}

namespace {

RIG_TARGET_AVX2 RIG_ALWAYS_INLINE detail::Quat8 columns8(const float* f, size_t column, uint32_t j) {
    detail::Quat8 q;
    q.x = _mm256_loadu_ps(f + j);
    q.y = _mm256_loadu_ps(f + column + j);
    q.z = _mm256_loadu_ps(f + 2 * column + j);
    q.w = _mm256_loadu_ps(f + 3 * column + j);
    return q;
}


// A full rotation q (x, y, z, w) to its place: a whole one (Full::whole) with its node's bind
// translation and scale, as one 32-byte and one 8-byte store (the bind transform's first 32
// bytes with the rotation, bytes 12-27, blended in; then its last 8).
static_assert(offsetof(Transform, rotation) == 12 && sizeof(Transform) == 40, "Transform: T (12 bytes), R (x, y, z, w), S");
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void storeFullRotation(const CompressedSamplingCache::Full& f, __m128 q, const Transform* bindLocal,
                                                         Transform* local) {
    if (!f.whole) {
        _mm_storeu_ps(&at<glm::quat>(local, f.dst).x, q);
        return;
    }
    const uint32_t node = f.dst - static_cast<uint32_t>(offsetof(Transform, rotation));
    const auto* src = reinterpret_cast<const uint8_t*>(bindLocal) + node;
    auto* dst = reinterpret_cast<uint8_t*>(local) + node;
    const __m256 placed = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(q), _mm256_setr_epi32(0, 0, 0, 0, 1, 2, 3, 0));
    _mm256_storeu_ps(reinterpret_cast<float*>(dst), _mm256_blend_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(src)), placed, 0x78));
    std::memcpy(dst + 32, src + 32, 8);
}

// G groups of eight rotations blended together (blendGroups): first the full rotations from
// lane j on (`nFull` of them live, at `alpha`, strictly between 0 and 1), straight from the
// frames' columns, a step channel's lane taking key a; then the groups of the queue
// (`queued` rotations: the walked tracks', each at its own factor). G = the full lanes' groups
// plus the queue's.
template <int G>
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE void blendMixedGroups(const CompressedSamplingCache& cache, const float* a, const float* b, uint32_t j,
                                                        int nFull, __m256 alpha, const detail::RotationBatch& batch, int queued,
                                                        const Transform* bindLocal, Transform* local, RotationBlend blend) {
    const size_t column = cache.quatColumn;
    const int fullGroups = (nFull + 7) / 8;
    detail::Quat8 qa[G], qb[G], r[G];
    __m256 al[G];
    for (int g = 0; g < G; ++g) {
        if (g < fullGroups) {
            qa[g] = columns8(a, column, j + 8 * g);
            qb[g] = columns8(b, column, j + 8 * g);
            al[g] = alpha;
        } else {
            const int first = 8 * (g - fullGroups);
            detail::loadQueued8(batch, first, queued - first < 8 ? queued - first : 8, qa[g], qb[g], al[g]);
        }
    }
    int wide[G];
    detail::blendGroups<G>(qa, qb, al, blend, r, wide);
    const CompressedSamplingCache::Full* Q = cache.fullQuat.data() + j;
    for (int g = 0; g < G; ++g) {
        if (g >= fullGroups) {
            const int first = 8 * (g - fullGroups);
            detail::storeQueued8(batch, first, queued - first < 8 ? queued - first : 8, r[g], wide[g]);
            continue;
        }
        const __m256 step = _mm256_loadu_ps(reinterpret_cast<const float*>(cache.fullQuatStep.data() + j + 8 * g));
        r[g].x = _mm256_blendv_ps(r[g].x, qa[g].x, step);
        r[g].y = _mm256_blendv_ps(r[g].y, qa[g].y, step);
        r[g].z = _mm256_blendv_ps(r[g].z, qa[g].z, step);
        r[g].w = _mm256_blendv_ps(r[g].w, qa[g].w, step);
        const uint32_t lane0 = static_cast<uint32_t>(8 * g);
        const float t = _mm256_cvtss_f32(alpha);
        // detail::storeRotations8's loop, storing through storeFullRotation (inlined, not as a callback).
        const int count = nFull - 8 * g < 8 ? nFull - 8 * g : 8, slerped = wide[g] & ~_mm256_movemask_ps(step);
        __m128 q[8];
        detail::transposeQuat8(r[g], q);  // one quaternion (x, y, z, w) per register
        for (int i = 0; i < count; ++i) {
            const CompressedSamplingCache::Full& f = Q[lane0 + static_cast<uint32_t>(i)];
            if (slerped & (1 << i)) {  // storeRotations8's rule: these lanes take slerpInline
                const uint32_t lane = j + lane0 + static_cast<uint32_t>(i);
                const glm::quat s = detail::slerpInline(fromColumns(a, column, lane), fromColumns(b, column, lane), t);
                q[i] = _mm_setr_ps(s.x, s.y, s.z, s.w);
            }
            storeFullRotation(f, q[i], bindLocal, local);
        }
    }
}

}  // namespace

// blendFullVec3, eight channels at a time (AVX2): a + (b - a) alpha in each lane, the same
// operations as glm's, so the same bits; a step channel's lane takes a or b.
RIG_TARGET_AVX2 void blendFullVec3Wide(const CompressedSamplingCache& cache, const float* a, const float* b, float alpha,
                                       Transform* local) {
    const size_t column = cache.vec3Column;
    const uint32_t n = cache.fullVec3Count;
    const CompressedSamplingCache::Full* F = cache.fullVec3.data();
    const __m256 al = _mm256_set1_ps(alpha);
    const float* pick = alpha >= 1.0f ? b : a;  // what a step channel takes
    for (uint32_t j = 0; j < n; j += 8) {
        const __m256 step = _mm256_loadu_ps(reinterpret_cast<const float*>(cache.fullVec3Step.data() + j));
        __m256 r[3];
        for (int c = 0; c < 3; ++c) {
            const __m256 va = _mm256_loadu_ps(a + c * column + j), vb = _mm256_loadu_ps(b + c * column + j);
            const __m256 lerp = _mm256_add_ps(va, _mm256_mul_ps(_mm256_sub_ps(vb, va), al));
            r[c] = _mm256_blendv_ps(lerp, _mm256_loadu_ps(pick + c * column + j), step);
        }
        __m128 v[8] = {_mm256_castps256_ps128(r[0]),   _mm256_castps256_ps128(r[1]),   _mm256_castps256_ps128(r[2]),
                       _mm_setzero_ps(),               _mm256_extractf128_ps(r[0], 1), _mm256_extractf128_ps(r[1], 1),
                       _mm256_extractf128_ps(r[2], 1), _mm_setzero_ps()};
        _MM_TRANSPOSE4_PS(v[0], v[1], v[2], v[3]);
        _MM_TRANSPOSE4_PS(v[4], v[5], v[6], v[7]);
        const uint32_t count = n - j < 8 ? n - j : 8;
        for (uint32_t i = 0; i < count; ++i) {  // 12 bytes each: x and y, then z
            float* out = &at<glm::vec3>(local, F[j + i].dst).x;
            _mm_storel_pi(reinterpret_cast<__m64*>(out), v[i]);
            _mm_store_ss(out + 2, _mm_movehl_ps(v[i], v[i]));
        }
    }
}


// Every rotation of the tick still to blend, 32 a pass (AVX2): the full ones (blendFullQuats;
// a, b null: none this tick) and the queue, in as few passes as hold them, so that a clip with
// a few of each fills one pass's groups instead of running two short chains. Empties the queue.
RIG_TARGET_AVX2 void blendRotationsWide(const CompressedSamplingCache& cache, const float* a, const float* b, float alpha,
                                        const Transform* bindLocal, Transform* local, detail::RotationBatch& batch, int queued,
                                        RotationBlend blend) {
    int full = a ? static_cast<int>(cache.fullQuatCount) : 0;
    if (full && !(alpha > 0.0f && alpha < 1.0f)) {  // every full rotation takes a key as it is
        blendFullQuats(cache, a, b, alpha, local, blend, bindLocal);
        full = 0;
    }
    const __m256 al = _mm256_set1_ps(alpha);
    const int queueGroups = (queued + 7) / 8;
    uint32_t j = 0;
    // Passes of full rotations alone while the rest and the queue exceed one pass.
    while ((full - static_cast<int>(j) + 7) / 8 + queueGroups > 4) {
        const int m = full - static_cast<int>(j) < 32 ? full - static_cast<int>(j) : 32;
        if (m > 24) blendMixedGroups<4>(cache, a, b, j, m, al, batch, 0, bindLocal, local, blend);
        else if (m > 16) blendMixedGroups<3>(cache, a, b, j, m, al, batch, 0, bindLocal, local, blend);
        else if (m > 8) blendMixedGroups<2>(cache, a, b, j, m, al, batch, 0, bindLocal, local, blend);
        else blendMixedGroups<1>(cache, a, b, j, m, al, batch, 0, bindLocal, local, blend);
        j += static_cast<uint32_t>(m);
    }
    const int rest = full - static_cast<int>(j);
    switch ((rest + 7) / 8 + queueGroups) {
        case 4: blendMixedGroups<4>(cache, a, b, j, rest, al, batch, queued, bindLocal, local, blend); break;
        case 3: blendMixedGroups<3>(cache, a, b, j, rest, al, batch, queued, bindLocal, local, blend); break;
        case 2: blendMixedGroups<2>(cache, a, b, j, rest, al, batch, queued, bindLocal, local, blend); break;
        case 1: blendMixedGroups<1>(cache, a, b, j, rest, al, batch, queued, bindLocal, local, blend); break;
        default: break;
    }
}

}  // namespace rig::compressed_detail

#endif
