// CompressedClip: a clip's node tracks after key reduction and quantization (anim/offline/
// compress.h makes them), sampled directly by CompressedSamplingJob: only the two keys around
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
//
// Binding a clip also regroups its channels, as SamplingPlan does a plain clip's (no
// allocation: into the room reserve() made). Channels keyed at every time of the table
// ("full": dense from its first time to its last, the usual case of a resampled or motion-
// captured clip) share one segment and one factor, so they are kept as two decoded frames,
// side by side (frame k in buffer k & 1, each the full channels' keys in list order), and a
// tick that moves to the next segment decodes one frame in a flat loop over them; then every
// full channel interpolates from the two frames, as the plain sampler does its frame-by-frame
// runs. In the AVX2 form the delta-coded full channels' codes are read eight keys ahead into
// a small window (Lanes::window: 8 keys of each such channel, 128 bytes a channel, not the
// clip's keys), so that reading the differences runs in one tight pass per eight keys.
// Constants and channels left at their bind value are copied from flat lists. Tracks
// with other keyed channels (keys over part of the table, or at their own times) are walked
// one by one, with each channel's own two keys cached (`entries`).
struct CompressedSamplingCache {
    const CompressedClip* clip = nullptr;
    // The time table's segment of the last sample time: frame i with time(i) <= t < time(i+1)
    // (clamped to the table), shared by every dense channel (their keys are consecutive times
    // of the table), so one search and one factor serve them all, as ACL samples all its
    // tracks at one pair of frames.
    CompressedKeyCache frame;
    std::vector<CompressedKeyCache> entries;  // 3 per track (T, R, S)
    // One per delta-coded channel: full channels first (in list order), then the walked
    // tracks' in the order the walk meets them (a track's T, R, S): where its reading stands
    // (key k + 1's codes). Packed, so a tick touches only these.
    std::vector<DeltaCursor> deltas;
    std::vector<QuatDecoder> ranges;          // per keyed rotation: its range, decoded at bind
    size_t poseSize = 0;                      // the pose size CompressedSamplingJob validated it for
    bool deltaCoded = false;                  // the walked tracks have delta-coded channels

    // A full channel: `channel` indexes vec3Channels / quatChannels; `dst` is the byte offset
    // of its value in the pose (node * sizeof(Transform) + the member's offset); `cursor`
    // indexes `deltas` (delta-coded channels only).
    // `whole` (rotations): the track's translation and scale are at their bind values, so the
    // AVX2 form writes the node's whole transform with the rotation (bind translation,
    // rotation, bind scale: two stores, not a bind copy of three and the rotation's fourth).
    struct Full {
        uint32_t channel = 0, dst = 0, cursor = 0;
        Interpolation interpolation = Interpolation::Linear;
        bool whole = false;
    };
    // Translations and scales, and rotations: plain-coded ones first, then delta-coded ones.
    std::vector<Full> fullVec3, fullQuat;
    uint32_t fullVec3Count = 0, fullVec3Plain = 0;
    uint32_t fullQuatCount = 0, fullQuatPlain = 0;
    // The full channels' keys of frame k in [k & 1], as columns: x of channel j at [j], y at
    // [column + j], z at [2 column + j] (and a rotation's w at [3 column + j]), so that eight
    // channels' components are one load, to decode and to interpolate them eight at a time.
    std::vector<float> frameVec3[2], frameQuat[2];
    size_t vec3Column = 0, quatColumn = 0;
    std::vector<uint32_t> fullVec3Step, fullQuatStep;  // per full channel: all ones if it steps, else 0
    // The full channels' decoding constants, one column per field and one lane per channel (in
    // list order), so that eight channels' keys are read and decoded at once (AVX2): for a
    // plain-coded channel where key k's codes are (offset + k * stride), for a delta-coded one
    // its cursor (the codes of key `deltaKey`, and its block's widths and differences' bias).
    // A rotation's ranges are per component (x, y, z, w), its dropped component `Largest` or,
    // where it varies, the 2 bits after the codes (IndexMask 3). Lanes past a group's end hold
    // the next group's channels or zeros; their reads stay inside the stream and their results
    // are overwritten or unused (8 lanes of room past the last channel).
    struct Lanes {
        // The delta-coded lanes' blocks (DeltaLayout), so that a block's eight headers are read
        // at once (deltaSeek8): where the headers start (HeadBase), each one's bits (HeadBits),
        // where the records start (RecordBase), and each field's place in a header (Pos*) and
        // mask (OffsetMask, CodeMask* for the codes, the bias of the smallest differences and
        // DminMask* for those).
        enum U {
            Offset, Stride, Shift1, Shift2, Shift3, Mask0, Mask1, Mask2, IndexMask, Largest,
            Next, Dmin0, Dmin1, Dmin2, Code0, Code1, Code2, Index,
            HeadBase, HeadBits, RecordBase, OffsetMask, PosCode0, PosCode1, PosCode2, PosIndex,
            PosDmin0, PosDmin1, PosDmin2, PosWidths, CodeMask0, CodeMask1, CodeMask2,
            DminMask0, DminMask1, DminMask2, kU
        };
        enum F { Min0, Min1, Min2, Min3, Scale0, Scale1, Scale2, Scale3, kF };
        size_t capacity = 0;
        std::vector<uint32_t> u;  // column c at u[c * capacity]
        std::vector<float> f;
        uint32_t deltaKey = UINT32_MAX;  // the key the delta-coded lanes' cursors hold
        // The delta-coded lanes' codes of kWindow keys in a row (from windowKey, a multiple
        // of kWindow, so a window lies inside one block), read in one pass per group with the
        // cursors in registers: code i of key windowKey + s at window[(4 s + i) * capacity]
        // (i = 3: the dropped component's index). The cursors then hold the window's last key.
        static constexpr uint32_t kWindow = 8;
        std::vector<uint32_t> window;
        uint32_t windowKey = UINT32_MAX;
        void reserve(size_t n) {
            capacity = n + 8;
            u.assign(kU * capacity, 0u);
            f.assign(kF * capacity, 0.0f);
            window.assign(4 * kWindow * capacity, 0u);
        }
        uint32_t* col(U c) { return u.data() + c * capacity; }
        float* col(F c) { return f.data() + c * capacity; }
        const uint32_t* col(U c) const { return u.data() + c * capacity; }
        const float* col(F c) const { return f.data() + c * capacity; }
    };
    Lanes vec3Lanes, quatLanes;  // fullVec3 and fullQuat, lane for lane
    // The full rotations that drop w in every key close each group (plain-coded, delta-coded):
    // lanes [quatDropsWFrom[0], fullQuatPlain) and [quatDropsWFrom[1], fullQuatCount).
    uint32_t quatDropsWFrom[2] = {0, 0};
    bool lanes = false;          // the streams are short enough for 32-bit bit positions
    uint32_t heldFrame[2] = {UINT32_MAX, UINT32_MAX};  // the frame each buffer holds
    // A walked track: its index, and per channel its keyed channel's index and delta cursor.
    struct Walked {
        uint32_t track = 0;
        uint32_t channel[3] = {0, 0, 0};
        uint32_t cursor[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
        uint8_t keyed = 0;  // bit c: channel c is keyed and sampled by the walk
    };
    std::vector<Walked> walked;
    uint32_t walkedCount = 0;
    // Constants (dst and the entry holding the decoded value).
    struct Copy {
        uint32_t dst = 0, entry = 0;
    };
    std::vector<Copy> constVec3, constQuat;
    uint32_t constVec3Count = 0, constQuatCount = 0;
    // The nodes of tracks with a channel at its bind value (byte offsets of their Transforms,
    // in the pose and in the bind pose): a tick first copies each one's whole bind transform
    // (one 40-byte copy, not one per channel), then writes the track's other channels over it.
    // The AVX2 form copies the first bindNodeWide alone: the rest are the nodes of the full
    // rotations written whole (Full::whole).
    std::vector<uint32_t> bindNodes;
    uint32_t bindNodeCount = 0, bindNodeWide = 0;

    // Room for a clip of `tracks` tracks (allocates; call at load, not per tick). Unbinds: the
    // next bind() checks the room again and starts afresh.
    void reserve(size_t tracks) {
        clip = nullptr;
        entries.resize(3 * tracks);
        deltas.resize(3 * tracks);
        ranges.resize(tracks);
        fullVec3.resize(2 * tracks);
        fullQuat.resize(tracks);
        vec3Column = 2 * tracks + 8;  // room for eight lanes past the last
        quatColumn = tracks + 8;
        for (int b = 0; b < 2; ++b) {
            frameVec3[b].assign(3 * vec3Column, 0.0f);
            frameQuat[b].assign(4 * quatColumn, 0.0f);
        }
        fullVec3Step.assign(vec3Column, 0u);
        fullQuatStep.assign(quatColumn, 0u);
        vec3Lanes.reserve(2 * tracks);
        quatLanes.reserve(tracks);
        walked.resize(tracks);
        constVec3.resize(2 * tracks);
        constQuat.resize(tracks);
        bindNodes.resize(tracks);
    }
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
                          CompressedSamplingCache& cache, RotationBlend blend);

}  // namespace rig
