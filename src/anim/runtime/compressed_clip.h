// CompressedClip: a clip's node tracks after key reduction and quantization (anim/offline/
// compress.h makes them), sampled directly by CompressedSamplingJob (compressed_sampling_cache.h): only the two keys around
// the sample time are dequantized, per channel. Shared and immutable, like Clip.
//
// Layout (every byte of it is counted by byteSize()). A track is 4 bytes: its node and, per
// channel (translation, rotation, scale), what the channel is (ChannelKind):
//  - absent: the node keeps its bind value (also what the compressor makes of a channel that
//    holds its bind value throughout, within the joint's share of the tolerance);
//  - a constant: full floats (constVec3 / constQuat), or for a rotation whose 16-bit smallest
//    three fit the joint's share, those 48 bits and the dropped component's index (constQuatCodes);
//  - keyed (two keys or more): the next entry of vec3Channels / quatChannels, in track order.
// The runtime walks the tracks in order, so a channel's entry is found by counting, and no
// offset or index is stored per channel beyond that entry.
//
// Key times: every distinct key time of the clip is stored once (`frameTimes`, ascending, at
// most 65536); a keyed channel either holds keys at consecutive times of that table ("dense":
// only its first index is stored), or names each key's time by an index of `frameWidth` bits
// (the fewest that count the table) in `frameBits`, a run that the channels of a track with
// the same key times share (flags kFramesOfT / kFramesOfR: one key search serves them all,
// as in Clip).
//
// Keys: bit-packed, three codes a key, each code at its own width (1..16 bits, in
// KeyedChannel::widths, chosen by the compressor from the error it causes), key k at bit
// offset + k * stride:
//  - translation / scale: stride = the three widths, each component min + code * scale over
//    the channel's own range (floats, in Vec3Channel);
//  - rotation: the "smallest three". The quaternion's sign makes its largest-magnitude
//    component positive; that component is dropped (rebuilt as sqrt(1 - a^2 - b^2 - c^2)) and
//    the other three, each within [-1/sqrt2, 1/sqrt2], are codes over the channel's
//    per-component range (QuatChannel: its ends as 16-bit fixed point over [-1/sqrt2, 1/sqrt2],
//    the low end rounded down and the high one up), followed by the dropped component's index
//    in 2 bits, unless the channel drops the same component in every key (flag kFixedLargest,
//    the index in the flags; only then may the three widths differ).
// Where it takes fewer bits, a channel stores the same codes as differences from the key
// before instead (flag kChannelDelta), in blocks of kDeltaBlock keys each with its own
// difference widths: smooth motion sampled densely (mocap) moves a few codes a frame. See
// DeltaLayout below; a key is still found without decoding the channel from its start.
// Bit streams are read 64 bits at a time (little-endian, LSB first) and end with 8 zero bytes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/clip.h"

namespace rig {

// Key decoding is inlined into the samplers' loops (their AVX2 forms included) however large.
#define RIG_CODEC_INLINE __attribute__((always_inline)) inline

inline constexpr float kQuatSmallestMax = 0.70710678f;  // |component| bound of the smallest three

inline constexpr uint32_t kMinKeyBits = 1, kMaxKeyBits = 16;

// What a track holds for one of its channels (2 bits each in CompressedTrack::kinds).
enum class ChannelKind : uint8_t { Absent = 0, Constant = 1, CodedConstant = 2, Keyed = 3 };

struct CompressedTrack {
    uint16_t node = 0;  // index into the skeleton
    uint8_t kinds = 0;  // ChannelKind of translation (bits 0-1), rotation (2-3), scale (4-5)
    uint8_t unused = 0;
    ChannelKind kind(int channel) const { return static_cast<ChannelKind>((kinds >> (2 * channel)) & 3u); }
    void setKind(int channel, ChannelKind k) {
        kinds = static_cast<uint8_t>((kinds & ~(3u << (2 * channel))) | (static_cast<uint32_t>(k) << (2 * channel)));
    }
};

// Keyed channel flags.
inline constexpr uint8_t kChannelStep = 1;        // Interpolation::Step
inline constexpr uint8_t kChannelDense = 2;       // keys at consecutive times of the table from `frames` on
inline constexpr uint8_t kFramesOfT = 4;          // key times: those of this track's translation
inline constexpr uint8_t kFramesOfR = 8;          // key times: those of this track's rotation
inline constexpr uint8_t kFixedLargest = 16;      // rotation: every key drops component (flags >> 6)
inline constexpr uint8_t kChannelDelta = 32;      // keys as differences, in blocks (DeltaLayout below)

// A channel of two keys or more (12 bytes). Each of a key's three codes has its own width
// (1..16 bits, the fewest its component's range needs at the channel's precision; a rotation
// that drops different components in different keys uses one width for all three).
struct KeyedChannel {
    uint32_t offset = 0;      // bit of key 0 in its stream (vec3Bits / quatBits)
    uint32_t frames : 24 = 0; // dense: table index of key 0; else its first entry in frameBits
    uint32_t flags : 8 = 0;
    uint16_t count = 0;       // keys, 2..65535
    uint16_t widths = 0;      // code i: (width - 1) in bits 4i..4i+3
    Interpolation interpolation() const { return (flags & kChannelStep) ? Interpolation::Step : Interpolation::Linear; }
    bool dense() const { return (flags & kChannelDense) != 0; }
    uint32_t fixedLargest() const { return flags >> 6; }
    void setFixedLargest(uint32_t c) { flags = (flags & 0x3Fu) | kFixedLargest | (c << 6); }
    uint32_t width(int i) const { return ((widths >> (4 * i)) & 15u) + 1u; }
    void setWidths(const uint32_t w[3]) {
        widths = static_cast<uint16_t>((w[0] - 1) | ((w[1] - 1) << 4) | ((w[2] - 1) << 8));
    }
    uint32_t codeBits() const { return width(0) + width(1) + width(2); }
};

// Translation or scale: value = min + code * scale per component.
struct Vec3Channel {
    KeyedChannel key;
    glm::vec3 min{0.0f};
    glm::vec3 scale{0.0f};
};

// Fixed-point ends of a rotation channel's component ranges: value = -1/sqrt2 + code * kRangeStep.
inline constexpr float kRangeStep = 2.0f * kQuatSmallestMax / 65535.0f;

struct QuatChannel {
    KeyedChannel key;
    uint16_t lo[4] = {0, 0, 0, 0};  // x, y, z, w; only the components some key keeps matter
    uint16_t hi[4] = {0, 0, 0, 0};
};

// A rotation channel's range as floats (decoded from QuatChannel, or the encoder's own).
struct QuatRange {
    glm::vec4 min{0.0f};
    glm::vec4 scale{0.0f};
    uint32_t width[4] = {16, 16, 16, 16};  // bits of each component's code
};

struct CompressedClip {
    std::string name;
    float duration = 0.0f, startTime = 0.0f, sampleRate = 30.0f;
    // Distinct key times (s), ascending: `frameCount` of them, in `frameTimes`, or when that is
    // empty (and frameCount > 0) uniform: time(i) = float(frameStart + i * frameStep) exactly.
    std::vector<float> frameTimes;
    uint32_t frameCount = 0;
    float frameStart = 0.0f;
    double frameStep = 0.0;
    float time(uint32_t i) const {
        return frameTimes.empty() ? static_cast<float>(double(frameStart) + double(i) * frameStep) : frameTimes[i];
    }
    std::vector<CompressedTrack> tracks;    // sorted by node
    uint32_t frameWidth = 1;                // bits per index into frameTimes
    std::vector<uint8_t> frameBits;         // runs of indices into frameTimes
    std::vector<Vec3Channel> vec3Channels;  // keyed translations and scales, in track order
    std::vector<QuatChannel> quatChannels;  // keyed rotations, in track order
    std::vector<uint8_t> vec3Bits;          // their keys
    std::vector<uint8_t> quatBits;
    std::vector<glm::vec3> constVec3;       // constant translations and scales, in track order
    std::vector<glm::quat> constQuat;       // constant rotations kept as floats, in track order
    std::vector<uint16_t> constQuatCodes;   // coded constant rotations: 3 codes, largest index

    // Bytes of key data and headers: what this clip costs in memory.
    size_t byteSize() const;
    // Keys kept: quantized ones plus one per constant channel.
    size_t keyCount() const;
    // The time-table index of key k of a keyed channel; `run` is the channel whose key times
    // it uses (itself, or the track's T or R channel for kFramesOfT / kFramesOfR).
    uint32_t frame(const KeyedChannel& run, uint32_t k) const;
};

// Where each track's channels are (a walk over the tracks): for tools and tests, not per tick.
struct ChannelRef {
    ChannelKind kind = ChannelKind::Absent;
    uint32_t index = 0;  // into vec3Channels / quatChannels (Keyed), constVec3 / constQuat (Constant),
                         // constQuatCodes / 4 (CodedConstant)
};
std::vector<std::array<ChannelRef, 3>> channelIndex(const CompressedClip& c);

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

inline uint32_t CompressedClip::frame(const KeyedChannel& run, uint32_t k) const {
    if (run.dense()) return run.frames + k;
    return readBits(frameBits.data(), uint64_t(run.frames + k) * frameWidth, frameWidth);
}

// The three codes of a key at bit `pos`, of the channel's widths; the 2 bits after them in `rest`.
inline void readCodes(const uint8_t* data, uint64_t pos, const KeyedChannel& ch, uint16_t out[3], uint32_t* rest = nullptr) {
    const uint64_t w = readBits64(data, pos);
    const uint32_t w0 = ch.width(0), w1 = ch.width(1), w2 = ch.width(2);
    out[0] = static_cast<uint16_t>(w & ((uint64_t(1) << w0) - 1));
    out[1] = static_cast<uint16_t>((w >> w0) & ((uint64_t(1) << w1) - 1));
    out[2] = static_cast<uint16_t>((w >> (w0 + w1)) & ((uint64_t(1) << w2) - 1));
    if (rest) *rest = static_cast<uint32_t>((w >> (w0 + w1 + w2)) & 3u);
}

// Key k of a vec3 channel.
RIG_CODEC_INLINE glm::vec3 decodeVec3Codes(const Vec3Channel& ch, const uint16_t q[3]) {
    return {dequantize(q[0], ch.min.x, ch.scale.x), dequantize(q[1], ch.min.y, ch.scale.y),
            dequantize(q[2], ch.min.z, ch.scale.z)};
}

// The components the three codes hold, for each dropped one (x, y, z, w = 0..3).
inline constexpr uint8_t kKeptComponents[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};

// A rotation channel's range as floats: each component's width is that of the code position
// it takes when the channel drops one fixed component, else the one width of all three.
inline QuatRange quatRange(const QuatChannel& ch) {
    QuatRange r;
    for (int c = 0; c < 4; ++c) r.width[c] = ch.key.width(0);
    if (ch.key.flags & kFixedLargest) {
        for (int i = 0; i < 3; ++i) r.width[kKeptComponents[ch.key.fixedLargest()][i]] = ch.key.width(i);
    }
    // kRangeStep / (2^w - 1) for each width: no division at run time.
    static constexpr auto kStepOver = [] {
        std::array<float, 17> t{};
        for (uint32_t w = 1; w <= 16; ++w) t[w] = kRangeStep / static_cast<float>((1u << w) - 1u);
        return t;
    }();
    for (int c = 0; c < 4; ++c) {
        r.min[c] = -kQuatSmallestMax + static_cast<float>(ch.lo[c]) * kRangeStep;
        r.scale[c] = static_cast<float>(ch.hi[c] - ch.lo[c]) * kStepOver[r.width[c]];
    }
    return r;
}

// The quaternion whose kept components (in kKeptComponents order) are a, b, c and whose
// dropped one, `largest`, is rebuilt as sqrt(1 - a^2 - b^2 - c^2).
RIG_CODEC_INLINE glm::quat rebuildQuat(float a, float b, float c, uint32_t largest) {
    const float sum = a * a + b * b + c * c;
    const float l = std::sqrt(sum < 1.0f ? 1.0f - sum : 0.0f);
    switch (largest & 3) {  // glm::quat(w, x, y, z)
        case 0: return glm::quat(c, l, a, b);
        case 1: return glm::quat(c, a, l, b);
        case 2: return glm::quat(c, a, b, l);
        default: return glm::quat(l, a, b, c);
    }
}

// A quaternion from its smallest three (codes over `r`) and the dropped component's index.
RIG_CODEC_INLINE glm::quat decodeSmallestThree(const uint16_t* q, uint32_t largest, const QuatRange& r) {
    const uint8_t* kept = kKeptComponents[largest & 3];
    return rebuildQuat(dequantize(q[0], r.min[kept[0]], r.scale[kept[0]]), dequantize(q[1], r.min[kept[1]], r.scale[kept[1]]),
                       dequantize(q[2], r.min[kept[2]], r.scale[kept[2]]), largest);
}

// Bits of one key of a rotation channel.
inline uint32_t quatStride(const KeyedChannel& k) { return k.codeBits() + ((k.flags & kFixedLargest) ? 0u : 2u); }

// Delta-coded channels (kChannelDelta): the same codes as a plain channel, stored in blocks
// of kDeltaBlock keys, each key after a block's first as its difference from the key before,
// at the block's own widths (motion capture moves little from one frame to the next: a 14-bit
// code changes by 6 bits or so). From the channel's offset: every block's header (headerBits
// each), then the blocks' differences. A header holds where its differences start (offsetBits,
// from the end of the headers), its first key's three codes (the channel's widths) and, for a
// rotation whose dropped component varies, that key's index (2 bits), then the smallest
// difference of each code (width + 1 bits, biased by 2^width - 1) and the width of each code's
// differences above it (5 bits, 0..17). A key's record is its three differences and, where the
// dropped component varies, its index (2 bits; where it changes, the difference is simply
// that of the codes). Key j of a block is its first key plus the differences of keys 1..j: the
// sampler's cache keeps the codes it reached and reads one record per key as playback moves on.
inline constexpr uint32_t kDeltaBlock = 32;
inline constexpr uint32_t kDeltaWidthBits = 5;

// The fewest bits that count to n (0 for n = 0).
inline uint32_t bitsToCount(uint64_t n) { return static_cast<uint32_t>(std::bit_width(n)); }

// `indexBits`: 2 for a rotation whose dropped component varies, else 0. The header's fields
// start at these bits of it (the records' offset at 0): the first key's codes, its index, the
// smallest differences and the three difference widths (kDeltaWidthBits apart).
struct DeltaLayout {
    uint32_t blocks = 0, offsetBits = 0, headerBits = 0;
    uint32_t posCode[3] = {0, 0, 0}, posIndex = 0, posDmin[3] = {0, 0, 0}, posWidths = 0;
};
inline DeltaLayout deltaLayout(const KeyedChannel& ch, uint32_t indexBits) {
    DeltaLayout l;
    l.blocks = (ch.count + kDeltaBlock - 1) / kDeltaBlock;
    // Bound of the records' bits: each difference fits its code's width + 1.
    l.offsetBits = bitsToCount(uint64_t(ch.count) * (ch.codeBits() + 3 + indexBits));
    l.headerBits = l.offsetBits + 2 * ch.codeBits() + 3 + indexBits + 3 * kDeltaWidthBits;
    uint32_t pos = l.offsetBits;
    for (int i = 0; i < 3; ++i) {
        l.posCode[i] = pos;
        pos += ch.width(i);
    }
    l.posIndex = pos;
    pos += indexBits;
    for (int i = 0; i < 3; ++i) {
        l.posDmin[i] = pos;
        pos += ch.width(i) + 1;
    }
    l.posWidths = pos;
    return l;
}

// Where a reader stands in a delta-coded channel: the codes of key `key` and what reading the
// next records takes (its block's header, decoded, with each field's shift and mask).
struct DeltaCursor {
    uint32_t key = UINT32_MAX;  // the key whose codes are held; UINT32_MAX: none
    uint32_t end = 0;           // the first key of the next block
    uint64_t next = 0;          // bit of key + 1's record in the stream
    uint16_t codes[3] = {0, 0, 0};
    uint8_t largest = 0;        // key's dropped component (rotations whose records hold it)
    uint8_t stride = 0;         // bits of a record
    uint8_t shift[3] = {0, 0, 0};  // of the 2nd and 3rd difference and of the index
    uint8_t indexBits = 0;
    int32_t dmin[3] = {0, 0, 0};
    uint32_t mask[3] = {0, 0, 0};
};

// keyCodes of a delta-coded channel (out of line, so plain channels' reads stay small).
void deltaKeyCodes(const uint8_t* stream, const KeyedChannel& ch, uint32_t k, uint16_t q[3], uint32_t* largest);

// The codes of key k and, for a rotation whose dropped component varies (`largest` given), its
// index: the one read of a plain channel, or a delta-coded block's first key plus its
// differences up to k.
inline void keyCodes(const uint8_t* stream, const KeyedChannel& ch, uint32_t stride, uint32_t k, uint16_t q[3],
                     uint32_t* largest = nullptr) {
    if (ch.flags & kChannelDelta) {
        deltaKeyCodes(stream, ch, k, q, largest);
        return;
    }
    readCodes(stream, ch.offset + uint64_t(k) * stride, ch, q, largest);
}

// Key k of a vec3 channel.
inline glm::vec3 decodeVec3Key(const CompressedClip& c, const Vec3Channel& ch, uint32_t k) {
    uint16_t q[3];
    keyCodes(c.vec3Bits.data(), ch.key, ch.key.codeBits(), k, q);
    return decodeVec3Codes(ch, q);
}

// Key k of a rotation channel, over its range `r` (quatRange(ch)).
inline glm::quat decodeQuatKey(const CompressedClip& c, const QuatChannel& ch, const QuatRange& r, uint32_t k) {
    uint16_t q[3];
    uint32_t largest = 0;
    const bool fixed = (ch.key.flags & kFixedLargest) != 0;
    keyCodes(c.quatBits.data(), ch.key, quatStride(ch.key), k, q, fixed ? nullptr : &largest);
    return decodeSmallestThree(q, fixed ? ch.key.fixedLargest() : largest, r);
}

// A rotation channel's range arranged for decoding (CompressedSamplingCache keeps one per keyed
// rotation): for a channel that drops one fixed component, its three codes' ranges in code
// order, so a key decodes without looking up which component each code holds; the same values
// as decodeQuatKey's, bit for bit.
struct QuatDecoder {
    QuatRange range;
    glm::vec3 min{0.0f}, scale{0.0f};  // per code (channels with a fixed dropped component)
    int32_t fixed = -1;                // the dropped component, or -1: it varies
};

inline QuatDecoder quatDecoder(const QuatChannel& ch) {
    QuatDecoder d;
    d.range = quatRange(ch);
    if (ch.key.flags & kFixedLargest) {
        d.fixed = static_cast<int32_t>(ch.key.fixedLargest());
        for (int i = 0; i < 3; ++i) {
            d.min[i] = d.range.min[kKeptComponents[d.fixed][i]];
            d.scale[i] = d.range.scale[kKeptComponents[d.fixed][i]];
        }
    }
    return d;
}

// A key of a channel that drops one fixed component, from its codes.
RIG_CODEC_INLINE glm::quat decodeQuatCodes(const QuatDecoder& d, const uint16_t q[3]) {
    return rebuildQuat(dequantize(q[0], d.min.x, d.scale.x), dequantize(q[1], d.min.y, d.scale.y),
                       dequantize(q[2], d.min.z, d.scale.z), static_cast<uint32_t>(d.fixed));
}

// A key of any rotation channel from its codes and (where the dropped component varies) index.
RIG_CODEC_INLINE glm::quat decodeQuatCodes(const QuatDecoder& d, const uint16_t q[3], uint32_t largest) {
    return d.fixed < 0 ? decodeSmallestThree(q, largest, d.range) : decodeQuatCodes(d, q);
}

// Where a rotation key's record is read: bits of one key (plain codes) and whether it holds
// the dropped component's index.
inline uint32_t quatStride(const QuatDecoder& d, const KeyedChannel& k) { return d.fixed < 0 ? quatStride(k) : k.codeBits(); }

inline glm::quat decodeQuatKey(const CompressedClip& c, const QuatChannel& ch, const QuatDecoder& d, uint32_t k) {
    uint16_t q[3];
    uint32_t largest = 0;
    keyCodes(c.quatBits.data(), ch.key, quatStride(d, ch.key), k, q, d.fixed < 0 ? &largest : nullptr);
    return decodeQuatCodes(d, q, largest);
}

// The full range of the smallest three at 16 bits: coded constant rotations use it.
inline QuatRange fullQuatRange() {
    QuatRange r;
    r.min = glm::vec4(-kQuatSmallestMax);
    r.scale = glm::vec4(kRangeStep);
    return r;
}

// Coded constant rotation i.
inline glm::quat decodeConstQuat(const CompressedClip& c, uint32_t i) {
    const uint16_t* q = c.constQuatCodes.data() + 4 * static_cast<size_t>(i);
    return decodeSmallestThree(q, q[3], fullQuatRange());
}

}  // namespace rig
