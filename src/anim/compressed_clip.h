// CompressedClip: a clip's node tracks after key reduction and quantization (anim/offline/
// compress.h makes them), sampled directly by CompressedSamplingJob: only the two keys around
// the sample time are dequantized, per channel. Shared and immutable, like Clip.
//
// Layout. Every distinct key time of the clip is stored once (`frameTimes`, ascending, at most
// 65536); a key names its time by an index into that table of `frameWidth` bits (the fewest
// that count the table), bit-packed in runs (`frameBits`) that the channels of a track whose
// keys fall at the same times share (so one key search serves them all, as in Clip). Per
// channel a run of keys, bit-packed at the channel's own width (`bits`, 3..16, chosen by the
// compressor from the error it causes), at bit `offset` of the channel's stream:
//  - translation / scale: 3 x bits per key, each component min + code * scale over the
//    channel's own range (Vec3Range; scale = extent / (2^bits - 1));
//  - rotation: the "smallest three" encoding. The quaternion's sign is chosen so that its
//    largest-magnitude component is positive; that component is dropped (rebuilt as
//    sqrt(1 - a^2 - b^2 - c^2)) and the other three, each within [-1/sqrt2, 1/sqrt2], are kept
//    as codes of `bits` bits over the channel's per-component range (QuatRange), plus the
//    dropped component's index in 2 bits (`quatLargest`, four keys per byte), as ozz-animation
//    keeps it beside its 48 bits.
// Bit streams are read 64 bits at a time (little-endian, LSB first) and end with 8 zero bytes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/clip.h"

namespace rig {

inline constexpr float kQuatSmallestMax = 0.70710678f;  // |component| bound of the smallest three

inline constexpr uint32_t kMinKeyBits = 3, kMaxKeyBits = 16;

// Per channel, per component: value = min + code * scale (scale = extent / (2^bits - 1)); the
// channel's keys start at bit `offset` of vec3Bits, 3 x bits each.
struct Vec3Range {
    glm::vec3 min{0.0f};
    glm::vec3 scale{0.0f};
    uint32_t offset = 0;
    uint32_t bits = 16;
};
// The same for the four quaternion components (x, y, z, w); only the three kept of each key
// use it.
struct QuatRange {
    glm::vec4 min{0.0f};
    glm::vec4 scale{0.0f};
    uint32_t offset = 0;  // bit offset of the channel's first key in quatBits
    uint32_t bits = 16;   // bits per kept component
};

// count == 0: absent (the node keeps its bind value). count == 1: a constant, kept as full
// floats (constVec3 / constQuat[range]; nothing in the key arrays), or for a rotation with
// `dense` set, as 16-bit smallest three over the full range (constQuatCodes[4 * range ..]:
// three codes and the dropped component's index) where that rounding fits the joint's share. Otherwise `first`: the
// channel's first key among the keys of its kind; `frames`: its run of time indices in
// frameBits (in entries of frameWidth bits), or for a dense channel the table index of its
// first key; `range`: its entry in vec3Ranges / quatRanges.
struct CompressedChannel {
    uint32_t first = 0;
    uint32_t frames = 0;
    uint32_t count = 0;
    uint32_t range : 30 = 0;
    uint32_t step : 1 = 0;   // 1: Interpolation::Step (16 bytes a channel, as Clip's Channel)
    uint32_t dense : 1 = 0;  // 1: the keys sit at consecutive times of the table from index `frames` on (nothing stored)
    Interpolation interpolation() const { return step ? Interpolation::Step : Interpolation::Linear; }
};

struct CompressedTrack {
    int32_t node = -1;
    CompressedChannel translation, rotation, scale;
};

struct CompressedClip {
    std::string name;
    float duration = 0.0f, startTime = 0.0f, sampleRate = 30.0f;
    std::vector<float> frameTimes;          // distinct key times (s), ascending
    std::vector<CompressedTrack> tracks;    // sorted by node
    uint32_t frameWidth = 1;                // bits per index into frameTimes
    uint32_t frameEntries = 0;              // indices in frameBits
    uint32_t vec3Keys = 0, quatKeys = 0;    // quantized keys of each kind
    std::vector<uint8_t> frameBits;         // runs of indices into frameTimes (see CompressedChannel)
    std::vector<uint8_t> vec3Bits;          // per vec3 key: 3 codes of its channel's width
    std::vector<Vec3Range> vec3Ranges;      // per vec3 channel
    std::vector<uint8_t> quatBits;          // per rotation key: 3 codes (the smallest three)
    std::vector<uint8_t> quatLargest;       // per rotation key: 2 bits, key k at bits 2*(k%4) of byte k/4
    std::vector<QuatRange> quatRanges;      // per rotation channel
    std::vector<glm::vec3> constVec3;       // per constant translation / scale channel
    std::vector<glm::quat> constQuat;       // per constant rotation channel kept as floats
    std::vector<uint16_t> constQuatCodes;   // per coded constant rotation: 3 codes, largest index

    // Bytes of key data and headers: what this clip costs in memory.
    size_t byteSize() const;
    // Keys kept: quantized ones plus one per constant channel.
    size_t keyCount() const {
        return vec3Keys + quatKeys + constVec3.size() + constQuat.size() + constQuatCodes.size() / 4;
    }
    // The time-table index of key k of a channel of two keys or more.
    uint32_t frame(const CompressedChannel& ch, uint32_t k) const;
};

// The value of a quantized component.
inline float dequantize(uint16_t code, float min, float scale) { return min + static_cast<float>(code) * scale; }

// The 64 bits of `data` from bit `pos` on (LSB first; the stream has 8 bytes of padding).
inline uint64_t readBits64(const uint8_t* data, uint64_t pos) {
    uint64_t w;
    std::memcpy(&w, data + (pos >> 3), sizeof(w));
    return w >> (pos & 7);
}
inline uint32_t readBits(const uint8_t* data, uint64_t pos, uint32_t width) {
    return static_cast<uint32_t>(readBits64(data, pos) & ((uint64_t(1) << width) - 1));
}

inline uint32_t CompressedClip::frame(const CompressedChannel& ch, uint32_t k) const {
    if (ch.dense) return ch.frames + k;
    return readBits(frameBits.data(), uint64_t(ch.frames + k) * frameWidth, frameWidth);
}

// The three codes of key k of a channel of `bits` bits per code starting at bit `offset`.
inline void readCodes(const uint8_t* data, uint32_t offset, uint32_t bits, uint32_t k, uint16_t out[3]) {
    const uint64_t w = readBits64(data, offset + uint64_t(k) * 3 * bits);
    const uint64_t mask = (uint64_t(1) << bits) - 1;
    out[0] = static_cast<uint16_t>(w & mask);
    out[1] = static_cast<uint16_t>((w >> bits) & mask);
    out[2] = static_cast<uint16_t>((w >> (2 * bits)) & mask);
}

// Key k of a vec3 channel of two keys or more.
inline glm::vec3 decodeVec3Key(const CompressedClip& c, const CompressedChannel& ch, uint32_t k) {
    const Vec3Range& r = c.vec3Ranges[ch.range];
    uint16_t q[3];
    readCodes(c.vec3Bits.data(), r.offset, r.bits, k, q);
    return {dequantize(q[0], r.min.x, r.scale.x), dequantize(q[1], r.min.y, r.scale.y),
            dequantize(q[2], r.min.z, r.scale.z)};
}

inline uint32_t largestIndex(const uint8_t* bits, size_t key) { return (bits[key >> 2] >> (2 * (key & 3))) & 3u; }

// A quaternion from its smallest three (codes over `r`) and the dropped component's index.
inline glm::quat decodeSmallestThree(const uint16_t* q, uint32_t largest, const QuatRange& r) {
    // The components the three codes hold, for each dropped one (x, y, z, w = 0..3).
    static constexpr uint8_t kKept[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    const uint8_t* kept = kKept[largest & 3];
    const float a = dequantize(q[0], r.min[kept[0]], r.scale[kept[0]]);
    const float b = dequantize(q[1], r.min[kept[1]], r.scale[kept[1]]);
    const float c = dequantize(q[2], r.min[kept[2]], r.scale[kept[2]]);
    const float sum = a * a + b * b + c * c;
    const float l = std::sqrt(sum < 1.0f ? 1.0f - sum : 0.0f);
    switch (largest & 3) {  // glm::quat(w, x, y, z)
        case 0: return glm::quat(c, l, a, b);
        case 1: return glm::quat(c, a, l, b);
        case 2: return glm::quat(c, a, b, l);
        default: return glm::quat(l, a, b, c);
    }
}

// Key k of a rotation channel of two keys or more.
inline glm::quat decodeQuatKey(const CompressedClip& c, const CompressedChannel& ch, uint32_t k) {
    const size_t key = ch.first + k;
    const QuatRange& r = c.quatRanges[ch.range];
    uint16_t q[3];
    readCodes(c.quatBits.data(), r.offset, r.bits, k, q);
    return decodeSmallestThree(q, largestIndex(c.quatLargest.data(), key), r);
}

// The full range of the smallest three at 16 bits: coded constant rotations use it.
inline QuatRange fullQuatRange() {
    QuatRange r;
    r.min = glm::vec4(-kQuatSmallestMax);
    r.scale = glm::vec4(2.0f * kQuatSmallestMax / 65535.0f);
    return r;
}

// Coded constant rotation i.
inline glm::quat decodeConstQuat(const CompressedClip& c, uint32_t i) {
    const uint16_t* q = c.constQuatCodes.data() + 4 * static_cast<size_t>(i);
    return decodeSmallestThree(q, q[3], fullQuatRange());
}

// Key k of any channel with keys (a constant's one value for k == 0).
inline glm::vec3 decodeVec3(const CompressedClip& c, const CompressedChannel& ch, uint32_t k) {
    return ch.count == 1 ? c.constVec3[ch.range] : decodeVec3Key(c, ch, k);
}
inline glm::quat decodeQuat(const CompressedClip& c, const CompressedChannel& ch, uint32_t k) {
    if (ch.count == 1) return ch.dense ? decodeConstQuat(c, ch.range) : c.constQuat[ch.range];
    return decodeQuatKey(c, ch, k);
}

// The encoder's half: the component index with the largest magnitude (first of ties) and the
// quaternion's sign chosen so that it is positive; codes of the other three over `r`
// (rounded to nearest, clamped to [0, 2^bits - 1], r.bits wide).
uint32_t encodeSmallestThree(const glm::quat& q, const QuatRange& r, uint16_t out[3]);
// Code of `v` over [min, min + maxCode * scale] (0 when scale is 0), maxCode = 2^bits - 1.
uint16_t quantize(float v, float min, float scale, uint32_t maxCode = 65535);

// Append `width` bits of `value` to a bit stream of `used` bits (LSB first); without the padding.
void appendBits(std::vector<uint8_t>& stream, uint64_t& used, uint32_t value, uint32_t width);

// Times of the channel's keys and their decoded values, as a plain Clip: what the
// compressed clip samples, so that sampleClip on it gives the same numbers as
// CompressedSamplingJob (used by tests and to write the clip out).
Clip decodeClip(const CompressedClip& c, size_t skeletonSize);

// One channel's current key segment, decoded: the per-instance context of
// CompressedSamplingJob (ozz-animation's sampling context does the same). Sequential playback
// decodes a channel's two keys only when it moves to the next segment, so a tick costs what
// sampling plain keys costs. Holds two keys per channel, never the clip's keys.
struct CompressedKeyCache {
    float t0 = 1.0f, t1 = 0.0f;  // the segment's key times [t0, t1); empty: nothing cached
    uint32_t k = UINT32_MAX;     // the segment (key index), UINT32_MAX: none
    glm::vec4 a{0.0f}, b{0.0f};  // keys k and k+1 decoded (vec3 in xyz; quaternion as x, y, z, w)
};

// The cache of one instance for one compressed clip at a time: sized once (reserve), it
// forgets its entries when the job hands it another clip.
struct CompressedSamplingCache {
    const CompressedClip* clip = nullptr;
    std::vector<CompressedKeyCache> entries;  // 3 per track (T, R, S)

    // Room for a clip of `tracks` tracks (allocates; call at load, not per tick).
    void reserve(size_t tracks) { entries.resize(3 * tracks); }
    // Bind to `c` (forgetting every entry when it is another clip). Allocates nothing; false if
    // the entries are too few for `c`.
    bool bind(const CompressedClip& c);
};

// Sample every track at clip time t (the rules of sampleClip: before the first key the first
// value, after the last the last). `cursors`: 3 per track plus one for the time table.
void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          uint32_t* cursors, RotationBlend blend);
// The same values through a cache bound to `clip` (CompressedSamplingCache::bind): bit for bit
// what sampleCompressedClip gives.
void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          CompressedKeyCache* cache, RotationBlend blend);

}  // namespace rig
