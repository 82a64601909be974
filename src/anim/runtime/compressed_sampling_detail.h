// Internals of compressed sampling shared by its files (compressed_sampler.cpp, the AVX2 lanes
// in compressed_lanes_avx2.cpp, compressed_clip.cpp's key reads): key-time runs and searches,
// delta-coded reading, the frames' column layout and the full channels' scalar blends. Not
// for use outside anim/runtime/compressed_*.
#pragma once

#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/compressed_clip.h"
#include "anim/runtime/compressed_sampling_cache.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/rotation_batch.h"
#include "anim/runtime/transform.h"

namespace rig::compressed_detail {

// A channel's run of time indices, bit-packed: frames[k] is the index of key k.
// A dense run: entry k is first + k.
struct FrameRun {
    const uint8_t* bits;
    uint64_t start;  // bit of entry 0
    uint32_t width;
    uint32_t first;
    bool dense;
    uint32_t operator[](uint32_t k) const {
        return dense ? first + k : readBits(bits, start + uint64_t(k) * width, width);
    }
};

inline FrameRun frameRun(const CompressedClip& c, const KeyedChannel& ch) {
    return {c.frameBits.data(), uint64_t(ch.frames) * c.frameWidth, c.frameWidth, ch.frames, ch.dense()};
}

// Key k such that time(k) <= t < time(k+1), clamped to [0, count-2], where time(k) =
// table.time(frames[k]): findKey over the channel's own times, with the same cursor rules.
inline uint32_t findFrameKey(const FrameRun& frames, const CompressedClip& table, uint32_t count, float t, uint32_t& cursor) {
    const uint32_t last = count - 2;
    uint32_t k = cursor < last ? cursor : last;
    if (table.time(frames[k]) <= t) {
        if (k == last || t < table.time(frames[k + 1])) return cursor = k;
        if (k + 1 == last || t < table.time(frames[k + 2])) return cursor = k + 1;
        if (k + 2 == last || t < table.time(frames[k + 3])) return cursor = k + 2;  // dense keys, slower ticks
    } else if (k > 0 && table.time(frames[k - 1]) <= t) {
        return cursor = k - 1;
    } else if (k == 0) {
        return cursor = 0;
    }
    // Random access: first key strictly later than t, minus one.
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (table.time(frames[mid]) <= t) lo = mid + 1;
        else hi = mid;
    }
    k = lo == 0 ? 0 : lo - 1;
    return cursor = k < last ? k : last;
}

// segmentAlpha of clip.cpp: the factor within the segment, clamped to [0, 1].
inline float frameAlpha(float t0, float t1, float t) {
    const float span = t1 - t0;
    if (!(span > 0.0f)) return t >= t1 ? 1.0f : 0.0f;
    const float a = (t - t0) / span;
    return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
}

// Delta-coded channels (compressed_clip.h, DeltaLayout): reading through a DeltaCursor.

// Put `c` at the first key of block b (out of line: a block change is rare).
void deltaSeekBlock(const uint8_t* stream, const KeyedChannel& ch, uint32_t indexBits, uint32_t b, DeltaCursor& c);

// The codes of the key after `from` (as 32-bit sums), from its record `w`: each difference
// is biased by the block's dmin. The index, where the block stores one, is (w >> shift[2]) & 3.
struct RecordCodes {
    int32_t q[3];
};
RIG_ALWAYS_INLINE RecordCodes applyRecord(const DeltaCursor& c, uint64_t w, int32_t f0, int32_t f1, int32_t f2) {
    return {{f0 + c.dmin[0] + int32_t(uint32_t(w) & c.mask[0]), f1 + c.dmin[1] + int32_t(uint32_t(w >> c.shift[0]) & c.mask[1]),
             f2 + c.dmin[2] + int32_t(uint32_t(w >> c.shift[1]) & c.mask[2])}};
}

// On to the next key of the block: one record (at most 3 x 17 + 2 bits, one 64-bit read).
RIG_ALWAYS_INLINE void deltaStep(const uint8_t* stream, DeltaCursor& c) {
    const uint64_t w = readBits64(stream, c.next);
    c.next += c.stride;
    ++c.key;
    const RecordCodes r = applyRecord(c, w, c.codes[0], c.codes[1], c.codes[2]);
    for (int i = 0; i < 3; ++i) c.codes[i] = static_cast<uint16_t>(r.q[i]);
    if (c.indexBits) c.largest = static_cast<uint8_t>((w >> c.shift[2]) & 3u);
}

// Two steps at once (keys key + 1 and key + 2 of the block): key + 1's codes and index into
// qa and largestA, the cursor on to key + 2. Both records are read before either is added.
RIG_ALWAYS_INLINE void deltaStep2(const uint8_t* stream, DeltaCursor& c, uint16_t qa[3], uint8_t& largestA) {
    const uint64_t w0 = readBits64(stream, c.next), w1 = readBits64(stream, c.next + c.stride);
    c.next += 2u * c.stride;
    c.key += 2;
    const RecordCodes a = applyRecord(c, w0, c.codes[0], c.codes[1], c.codes[2]);
    const RecordCodes b = applyRecord(c, w1, a.q[0], a.q[1], a.q[2]);
    for (int i = 0; i < 3; ++i) {
        qa[i] = static_cast<uint16_t>(a.q[i]);
        c.codes[i] = static_cast<uint16_t>(b.q[i]);
    }
    largestA = c.largest;
    if (c.indexBits) {
        largestA = static_cast<uint8_t>((w0 >> c.shift[2]) & 3u);
        c.largest = static_cast<uint8_t>((w1 >> c.shift[2]) & 3u);
    }
}

// Move `c` to key k: reading on from where it is when k is ahead in the same block, else from
// the first key of k's block (a new cursor, key UINT32_MAX, is past every k).
RIG_ALWAYS_INLINE void deltaMoveTo(const uint8_t* stream, const KeyedChannel& ch, uint32_t indexBits, uint32_t k, DeltaCursor& c) {
    if (k < c.key || k >= c.end) deltaSeekBlock(stream, ch, indexBits, k / kDeltaBlock, c);
    while (c.key < k) deltaStep(stream, c);
}

template <class T>
RIG_ALWAYS_INLINE T& at(void* base, uint32_t offset) {
    return *reinterpret_cast<T*>(static_cast<char*>(base) + offset);
}
template <class T>
RIG_ALWAYS_INLINE const T& at(const void* base, uint32_t offset) {
    return *reinterpret_cast<const T*>(static_cast<const char*>(base) + offset);
}

// Rotation j of a frame kept as columns (CompressedSamplingCache::frameQuat).
RIG_ALWAYS_INLINE void setColumns(float* f, size_t column, uint32_t j, const glm::quat& q) {
    f[j] = q.x;
    f[column + j] = q.y;
    f[2 * column + j] = q.z;
    f[3 * column + j] = q.w;
}
RIG_ALWAYS_INLINE glm::quat fromColumns(const float* f, size_t column, uint32_t j) {
    return glm::quat(f[3 * column + j], f[j], f[column + j], f[2 * column + j]);
}
RIG_ALWAYS_INLINE void setColumns(float* f, size_t column, uint32_t j, const glm::vec3& v) {
    f[j] = v.x;
    f[column + j] = v.y;
    f[2 * column + j] = v.z;
}
RIG_ALWAYS_INLINE glm::vec3 vec3FromColumns(const float* f, size_t column, uint32_t j) {
    return glm::vec3(f[j], f[column + j], f[2 * column + j]);
}
// Key k of a delta-coded full translation or scale (its cursor `d` moved there in `stream`,
// the clip's vec3Bits) into lane j of a frame's columns.
RIG_ALWAYS_INLINE void deltaVec3ToColumns(const uint8_t* stream, const Vec3Channel& ch, DeltaCursor& d, uint32_t k, uint32_t j, float* f,
                                          size_t column) {
    deltaMoveTo(stream, ch.key, 0, k, d);
    setColumns(f, column, j, decodeVec3Codes(ch, d.codes));
}

// Every full translation and scale at factor alpha from the segment's two frames a and b
// (columns): lerpPair of the plain sampler, each written to its dst.
RIG_ALWAYS_INLINE void blendFullVec3(const CompressedSamplingCache& cache, const float* a, const float* b, float alpha, Transform* local) {
    const size_t column = cache.vec3Column;
    const CompressedSamplingCache::Full* F = cache.fullVec3.data();
    for (uint32_t j = 0; j < cache.fullVec3Count; ++j) {
        glm::vec3& out = at<glm::vec3>(local, F[j].dst);
        out = detail::lerpPair(vec3FromColumns(a, column, j), vec3FromColumns(b, column, j), F[j].interpolation, alpha);
    }
}

// Every full rotation at factor alpha from the segment's two frames a and b (columns): what
// the plain sampler gives (queuePair: a step channel or alpha at an end takes a key as it is,
// equal keys give that key, the others slerpInline / nlerpShortest), each written to its dst.
// `bindLocal` (the AVX2 form): the whole rotations' nodes get their bind translation and scale
// too (Full::whole); null: the rotations alone.
RIG_ALWAYS_INLINE void blendFullQuats(const CompressedSamplingCache& cache, const float* a, const float* b, float alpha,
                                      Transform* local, RotationBlend blend, const Transform* bindLocal = nullptr) {
    const size_t column = cache.quatColumn;
    const CompressedSamplingCache::Full* Q = cache.fullQuat.data();
    for (uint32_t j = 0; j < cache.fullQuatCount; ++j) {
        const glm::quat q = detail::blendPair(fromColumns(a, column, j), fromColumns(b, column, j), Q[j].interpolation, alpha, blend);
        if (bindLocal && Q[j].whole) {
            const uint32_t node = Q[j].dst - static_cast<uint32_t>(offsetof(Transform, rotation));
            Transform& out = at<Transform>(local, node);
            const Transform& bind = at<Transform>(bindLocal, node);
            out.translation = bind.translation;
            out.scale = bind.scale;
        }
        at<glm::quat>(local, Q[j].dst) = q;
    }
}

// A constant channel's value (kind Constant or CodedConstant; the counters advance).
struct ConstWalk {
    uint32_t vec3 = 0, quat = 0, coded = 0;
    glm::vec3 vec3Value(const CompressedClip& c) { return c.constVec3[vec3++]; }
    glm::quat quatValue(const CompressedClip& c, ChannelKind k) {
        return k == ChannelKind::CodedConstant ? decodeConstQuat(c, coded++) : c.constQuat[quat++];
    }
};

#if RIG_HAVE_AVX2_PATH
// The AVX2 lanes (compressed_lanes_avx2.cpp). Frame k of every full channel into the columns
// v3 and q4, eight lanes at a time; frames k and k + 1 together into their buffers (both in one
// window of the delta-coded lanes: k % kWindow < kWindow - 1).
RIG_TARGET_AVX2 void decodeFullLanes1(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k, float* v3, float* q4);
RIG_TARGET_AVX2 void decodeFullLanes2(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k);
// blendFullVec3, eight channels at a time.
RIG_TARGET_AVX2 void blendFullVec3Wide(const CompressedSamplingCache& cache, const float* a, const float* b, float alpha,
                                       Transform* local);
// Every rotation of the tick still to blend: the full ones (a, b null: none this tick) and the
// walked tracks' queue, 32 a pass. Empties the queue.
RIG_TARGET_AVX2 void blendRotationsWide(const CompressedSamplingCache& cache, const float* a, const float* b, float alpha,
                                        const Transform* bindLocal, Transform* local, detail::RotationBatch& batch, int queued,
                                        RotationBlend blend);
#endif

}  // namespace rig::compressed_detail
