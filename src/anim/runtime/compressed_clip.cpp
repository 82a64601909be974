#include "anim/runtime/compressed_clip.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "anim/runtime/rotation_batch.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rig {

size_t CompressedClip::byteSize() const {
    // A uniform time table is its first time, step and count (16 bytes).
    return (frameTimes.empty() && frameCount ? 16 : frameTimes.size() * sizeof(float)) +
           tracks.size() * sizeof(CompressedTrack) + frameBits.size() + vec3Channels.size() * sizeof(Vec3Channel) +
           quatChannels.size() * sizeof(QuatChannel) + vec3Bits.size() + quatBits.size() +
           constVec3.size() * sizeof(glm::vec3) + constQuat.size() * sizeof(glm::quat) +
           constQuatCodes.size() * sizeof(uint16_t);
}

size_t CompressedClip::keyCount() const {
    size_t n = constVec3.size() + constQuat.size() + constQuatCodes.size() / 4;
    for (const Vec3Channel& c : vec3Channels) n += c.key.count;
    for (const QuatChannel& c : quatChannels) n += c.key.count;
    return n;
}

std::vector<std::array<ChannelRef, 3>> channelIndex(const CompressedClip& c) {
    std::vector<std::array<ChannelRef, 3>> out(c.tracks.size());
    uint32_t vec3 = 0, quat = 0, cv = 0, cq = 0, cc = 0;
    for (size_t i = 0; i < c.tracks.size(); ++i) {
        for (int ch = 0; ch < 3; ++ch) {
            ChannelRef& r = out[i][ch];
            r.kind = c.tracks[i].kind(ch);
            const bool rot = ch == 1;
            switch (r.kind) {
                case ChannelKind::Absent: break;
                case ChannelKind::Keyed: r.index = rot ? quat++ : vec3++; break;
                case ChannelKind::Constant: r.index = rot ? cq++ : cv++; break;
                case ChannelKind::CodedConstant: r.index = cc++; break;
            }
        }
    }
    return out;
}

uint16_t quantize(float v, float min, float scale, uint32_t maxCode) {
    if (!(scale > 0.0f)) return 0;
    const float q = std::round((v - min) / scale);
    const float top = static_cast<float>(maxCode);
    return static_cast<uint16_t>(q <= 0.0f ? 0.0f : q >= top ? top : q);
}

void appendBits(std::vector<uint8_t>& stream, uint64_t& used, uint32_t value, uint32_t width) {
    for (uint32_t i = 0; i < width; ++i, ++used) {
        if ((used >> 3) >= stream.size()) stream.push_back(0);
        if ((value >> i) & 1u) stream[used >> 3] |= static_cast<uint8_t>(1u << (used & 7));
    }
}

uint32_t encodeSmallestThree(const glm::quat& q, const QuatRange& r, uint16_t out[3]) {
    const float v[4] = {q.x, q.y, q.z, q.w};
    uint32_t largest = 0;
    for (uint32_t c = 1; c < 4; ++c) {
        if (std::fabs(v[c]) > std::fabs(v[largest])) largest = c;
    }
    const float sign = v[largest] < 0.0f ? -1.0f : 1.0f;
    for (uint32_t c = 0, i = 0; c < 4; ++c) {
        if (c != largest) out[i++] = quantize(sign * v[c], r.min[c], r.scale[c], (1u << r.width[c]) - 1u);
    }
    return largest;
}

namespace {

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

inline glm::vec3 sampleVec3Channel(const CompressedClip& c, const Vec3Channel& ch, float t, uint32_t& cursor) {
    const FrameRun frames = frameRun(c, ch.key);
    const uint32_t k = findFrameKey(frames, c, ch.key.count, t, cursor);
    const float alpha = frameAlpha(c.time(frames[k]), c.time(frames[k + 1]), t);
    if (ch.key.flags & kChannelStep) return decodeVec3Key(c, ch, alpha >= 1.0f ? k + 1 : k);
    const glm::vec3 a = decodeVec3Key(c, ch, k), b = decodeVec3Key(c, ch, k + 1);
    return a + (b - a) * alpha;
}

inline glm::quat sampleQuatChannel(const CompressedClip& c, const QuatChannel& ch, float t, uint32_t& cursor,
                                   RotationBlend blend) {
    const FrameRun frames = frameRun(c, ch.key);
    const QuatRange r = quatRange(ch);
    const uint32_t k = findFrameKey(frames, c, ch.key.count, t, cursor);
    const float alpha = frameAlpha(c.time(frames[k]), c.time(frames[k + 1]), t);
    if ((ch.key.flags & kChannelStep) || alpha >= 1.0f) return decodeQuatKey(c, ch, r, alpha >= 1.0f ? k + 1 : k);
    if (alpha <= 0.0f) return decodeQuatKey(c, ch, r, k);
    const glm::quat a = decodeQuatKey(c, ch, r, k), b = decodeQuatKey(c, ch, r, k + 1);
    return blend == RotationBlend::Slerp ? slerpShortest(a, b, alpha) : nlerpShortest(a, b, alpha);
}

// Delta-coded channels (compressed_clip.h, DeltaLayout): reading through a DeltaCursor.

// Put `c` at the first key of block b.
__attribute__((noinline)) void deltaSeekBlock(const uint8_t* stream, const KeyedChannel& ch, uint32_t indexBits, uint32_t b, DeltaCursor& c) {
    const DeltaLayout l = deltaLayout(ch, indexBits);
    const uint64_t head = ch.offset + uint64_t(b) * l.headerBits;
    c.key = b * kDeltaBlock;
    c.end = c.key + kDeltaBlock;
    c.next = ch.offset + uint64_t(l.blocks) * l.headerBits + readBits(stream, head, l.offsetBits);
    for (int i = 0; i < 3; ++i) c.codes[i] = static_cast<uint16_t>(readBits(stream, head + l.posCode[i], ch.width(i)));
    c.largest = static_cast<uint8_t>(readBits(stream, head + l.posIndex, indexBits));
    for (int i = 0; i < 3; ++i) {
        const uint32_t w = ch.width(i);
        c.dmin[i] = static_cast<int32_t>(readBits(stream, head + l.posDmin[i], w + 1)) - static_cast<int32_t>((1u << w) - 1u);
    }
    uint32_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const uint32_t w = readBits(stream, head + l.posWidths + i * kDeltaWidthBits, kDeltaWidthBits);
        c.mask[i] = static_cast<uint32_t>((uint64_t(1) << w) - 1);
        if (i > 0) c.shift[i - 1] = static_cast<uint8_t>(at);
        at += w;
    }
    c.shift[2] = static_cast<uint8_t>(at);
    c.indexBits = static_cast<uint8_t>(indexBits);
    c.stride = static_cast<uint8_t>(at + indexBits);
}

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

// The cached forms: the segment is looked up (and its keys decoded) only when t leaves it.

// Move `e` to the segment of t (a key search only when t left the cached one). Returns the
// key index it held before.
RIG_ALWAYS_INLINE uint32_t seek(const CompressedClip& c, const KeyedChannel& ch, float t, CompressedKeyCache& e) {
    const uint32_t old = e.k;
    if (!(e.t0 <= t && t < e.t1)) {
        const FrameRun frames = frameRun(c, ch);
        // Playing forward into the next segment: one key time to read (the old end is the new start).
        if (old != UINT32_MAX && old + 2u < ch.count && e.t1 <= t) {
            const float next = c.time(frames[old + 2]);
            if (t < next || old + 2u == ch.count - 1u) {
                e.k = old + 1;
                e.t0 = e.t1;
                e.t1 = next;
                return old;
            }
        }
        uint32_t cursor = e.k < ch.count ? e.k : 0;
        const uint32_t k = findFrameKey(frames, c, ch.count, t, cursor);
        e.k = k;
        e.t0 = c.time(frames[k]);
        e.t1 = c.time(frames[k + 1]);
    }
    return old;
}

// Take the segment of a channel with the same key times (already moved to t).
RIG_ALWAYS_INLINE uint32_t follow(const CompressedKeyCache& lead, CompressedKeyCache& e) {
    const uint32_t old = e.k;
    e.k = lead.k;
    e.t0 = lead.t0;
    e.t1 = lead.t1;
    return old;
}

// The time table's segment of t (moved only when t leaves it) and its factor: what every dense
// channel spanning that segment uses.
struct TableSegment {
    uint32_t frame = 0;
    float alpha = 0.0f;
};

RIG_ALWAYS_INLINE TableSegment tableSegment(const CompressedClip& c, float t, CompressedKeyCache& e) {
    if (c.frameCount < 2) return {};
    if (!(e.t0 <= t && t < e.t1)) {
        const FrameRun all{nullptr, 0, 0, 0, true};
        uint32_t cursor = e.k < c.frameCount ? e.k : 0;
        e.k = findFrameKey(all, c, c.frameCount, t, cursor);
        e.t0 = c.time(e.k);
        e.t1 = c.time(e.k + 1);
    }
    return {e.k, frameAlpha(e.t0, e.t1, t)};
}

// Move a keyed channel's entry e[self] to t and set its interpolation factor f[self]; returns
// the key index it held before. A dense channel's segment is the table's (clamped to its own
// keys: the same key seek() finds, and the same factor); the others go by their own key
// times, or by those of the track's translation (e[0], f[0]) or rotation (e[1], f[1]) when
// they share them.
RIG_ALWAYS_INLINE uint32_t moveTo(const CompressedClip& c, const KeyedChannel& ch, float t, const TableSegment& s,
                       CompressedKeyCache* e, float* f, int self) {
    const uint32_t old = e[self].k;
    float& alpha = f[self];
    if (ch.dense()) {
        const int64_t k = int64_t(s.frame) - int64_t(ch.frames), last = int64_t(ch.count) - 2;
        if (k >= 0 && k <= last) {
            e[self].k = static_cast<uint32_t>(k);
            alpha = s.alpha;
        } else {  // t before or after this channel's keys
            const uint32_t kk = k < 0 ? 0u : static_cast<uint32_t>(last);
            e[self].k = kk;
            alpha = frameAlpha(c.time(ch.frames + kk), c.time(ch.frames + kk + 1), t);
        }
        return old;
    }
    if (ch.flags & (kFramesOfT | kFramesOfR)) {
        const int lead = (ch.flags & kFramesOfT) ? 0 : 1;
        alpha = f[lead];
        return follow(e[lead], e[self]);
    }
    seek(c, ch, t, e[self]);
    alpha = frameAlpha(e[self].t0, e[self].t1, t);
    return old;
}

// The segment's codes of a delta-coded channel, through its cursor (left at key k + 1, from
// which playing on continues); `decode` turns the cursor's codes into the cached value.
// Playing on past one key (a take keyed faster than the ticks), the two records after the
// cursor's key are read together, neither read waiting on the other.
template <class Decode>
RIG_ALWAYS_INLINE void refreshDelta(const uint8_t* stream, const KeyedChannel& ch, uint32_t indexBits, CompressedKeyCache& e,
                         DeltaCursor& d, uint32_t old, Decode decode) {
    if (old != UINT32_MAX && e.k == old + 1) {
        e.a = e.b;
    } else if (d.key + 1 == e.k && e.k + 1 < d.end) {
        uint16_t qa[3];
        uint8_t largestA = 0;
        deltaStep2(stream, d, qa, largestA);
        e.a = decode(qa, largestA);
        e.b = decode(d.codes, d.largest);
        return;
    } else {
        deltaMoveTo(stream, ch, indexBits, e.k, d);
        e.a = decode(d.codes, d.largest);
    }
    deltaMoveTo(stream, ch, indexBits, e.k + 1, d);
    e.b = decode(d.codes, d.largest);
}

// Key k of a channel stored as plain codes (decodeVec3Key / decodeQuatKey without the test).
RIG_ALWAYS_INLINE glm::vec3 plainVec3Key(const CompressedClip& c, const Vec3Channel& ch, uint32_t k) {
    uint16_t q[3];
    readCodes(c.vec3Bits.data(), ch.key.offset + uint64_t(k) * ch.key.codeBits(), ch.key, q);
    return decodeVec3Codes(ch, q);
}

RIG_ALWAYS_INLINE glm::quat plainQuatKey(const CompressedClip& c, const QuatChannel& ch, const QuatDecoder& d, uint32_t k) {
    uint16_t q[3];
    uint32_t largest = 0;
    readCodes(c.quatBits.data(), ch.key.offset + uint64_t(k) * quatStride(d, ch.key), ch.key, q, d.fixed < 0 ? &largest : nullptr);
    return decodeQuatCodes(d, q, largest);
}

// Decode the segment's keys if it changed (playing forward, the old second key is the new first).
// Delta: the clip has delta-coded channels (else the test is left out of the loop).
// d: the channel's cursor if it is delta-coded, else null.
template <bool Delta>
RIG_ALWAYS_INLINE void refreshVec3(const CompressedClip& c, const Vec3Channel& ch, CompressedKeyCache& e, DeltaCursor* d,
                        uint32_t old) {
    if (e.k == old) return;
    if (Delta && d) {
        refreshDelta(c.vec3Bits.data(), ch.key, 0, e, *d, old,
                     [&](const uint16_t* q, uint32_t) __attribute__((always_inline)) { return glm::vec4(decodeVec3Codes(ch, q), 0.0f); });
        return;
    }
    e.a = old != UINT32_MAX && e.k == old + 1 ? e.b : glm::vec4(plainVec3Key(c, ch, e.k), 0.0f);
    e.b = glm::vec4(plainVec3Key(c, ch, e.k + 1), 0.0f);
}

template <bool Delta>
RIG_ALWAYS_INLINE void refreshQuat(const CompressedClip& c, const QuatChannel& ch, const QuatDecoder& r, CompressedKeyCache& e,
                        DeltaCursor* d, uint32_t old) {
    if (e.k == old) return;
    if (Delta && d) {
        refreshDelta(c.quatBits.data(), ch.key, r.fixed < 0 ? 2u : 0u, e, *d, old, [&](const uint16_t* q, uint32_t largest) __attribute__((always_inline)) {
            const glm::quat v = decodeQuatCodes(r, q, largest);
            return glm::vec4(v.x, v.y, v.z, v.w);
        });
        return;
    }
    if (old != UINT32_MAX && e.k == old + 1) {
        e.a = e.b;
    } else {
        const glm::quat a = plainQuatKey(c, ch, r, e.k);
        e.a = glm::vec4(a.x, a.y, a.z, a.w);
    }
    const glm::quat b = plainQuatKey(c, ch, r, e.k + 1);
    e.b = glm::vec4(b.x, b.y, b.z, b.w);
}

inline glm::vec3 blendVec3(const KeyedChannel& ch, const CompressedKeyCache& e, float alpha) {
    return detail::lerpPair(glm::vec3(e.a), glm::vec3(e.b), ch.interpolation(), alpha);
}

inline glm::quat asQuat(const glm::vec4& v) { return glm::quat(v.w, v.x, v.y, v.z); }

inline glm::quat blendQuat(const KeyedChannel& ch, const CompressedKeyCache& e, float alpha, RotationBlend blend) {
    return detail::blendPair(asQuat(e.a), asQuat(e.b), ch.interpolation(), alpha, blend);
}

// A constant channel's value (kind Constant or CodedConstant; the counters advance).
struct ConstWalk {
    uint32_t vec3 = 0, quat = 0, coded = 0;
    glm::vec3 vec3Value(const CompressedClip& c) { return c.constVec3[vec3++]; }
    glm::quat quatValue(const CompressedClip& c, ChannelKind k) {
        return k == ChannelKind::CodedConstant ? decodeConstQuat(c, coded++) : c.constQuat[quat++];
    }
};

}  // namespace

void deltaKeyCodes(const uint8_t* stream, const KeyedChannel& ch, uint32_t k, uint16_t q[3], uint32_t* largest) {
    DeltaCursor c;
    deltaMoveTo(stream, ch, largest ? 2u : 0u, k, c);
    std::memcpy(q, c.codes, sizeof c.codes);
    if (largest) *largest = c.largest;
}

bool CompressedSamplingCache::bind(const CompressedClip& c) {
    if (clip == &c) return true;  // bound, so its room was checked (reserve() unbinds)
    const size_t n = c.tracks.size();
    if (entries.size() < 3 * n || ranges.size() < c.quatChannels.size() || deltas.size() < 3 * n || fullVec3.size() < 2 * n ||
        fullQuat.size() < n || vec3Column < 2 * n + 8 || quatColumn < n + 8 || walked.size() < n ||
        constVec3.size() < 2 * n || constQuat.size() < n || bindNodes.size() < n) {
        return false;
    }
    std::fill(entries.begin(), entries.begin() + 3 * n, CompressedKeyCache{});
    std::fill(deltas.begin(), deltas.begin() + 3 * n, DeltaCursor{});
    frame = CompressedKeyCache{};
    heldFrame[0] = heldFrame[1] = UINT32_MAX;
    clip = &c;
    poseSize = 0;
    for (size_t j = 0; j < c.quatChannels.size(); ++j) ranges[j] = quatDecoder(c.quatChannels[j]);
    fullVec3Count = fullVec3Plain = fullQuatCount = fullQuatPlain = 0;
    walkedCount = constVec3Count = constQuatCount = bindNodeCount = bindNodeWide = 0;
    deltaCoded = false;

    // A keyed channel is full when it holds a key at every time of the table; a full channel
    // that another channel of its track takes its key times from (kFramesOfT / kFramesOfR)
    // stays with its track's walk, which moves the lead first.
    auto full = [&](const KeyedChannel& k) { return c.frameCount >= 2 && k.dense() && k.frames == 0 && k.count == c.frameCount; };
    constexpr uint32_t kOffset[3] = {offsetof(Transform, translation), offsetof(Transform, rotation), offsetof(Transform, scale)};
    // Full channels by group (plain-coded, then delta-coded): the groups' sizes first (a pass
    // over the channels), then each list written in place.
    uint32_t vec3Index = 0, quatIndex = 0;
    ConstWalk w;
    uint32_t vec3Groups[2] = {0, 0}, quatGroups[2] = {0, 0};
    // Within each group of rotations, those that drop w in every key come last, so that their
    // lanes decode without picking each code's component (storeQuatLanes8's kDropsW form) and
    // read no index (deltaRun8); last, so that the others share as few groups of eight as they
    // can fill (CMU 01_01: 5 + 3 of 22, then 8, 8 and 3: one group of the general form, not two).
    uint32_t quatDropsW[2] = {0, 0};
    auto dropsW = [&](uint32_t j) { return ranges[j].fixed == 3; };
    auto group = [](const KeyedChannel& k) { return (k.flags & kChannelDelta) ? 1 : 0; };
    // Which keyed channels are full (per track, bit c), decided once for both passes.
    auto fullBits = [&](const CompressedTrack& tr, uint32_t v, uint32_t q) {
        const KeyedChannel* key[3] = {nullptr, nullptr, nullptr};
        for (int ch = 0; ch < 3; ++ch) {
            if (tr.kind(ch) != ChannelKind::Keyed) continue;
            key[ch] = ch == 1 ? &c.quatChannels[q++].key : &c.vec3Channels[v++].key;
        }
        uint8_t bits = 0;
        for (int ch = 0; ch < 3; ++ch) bits |= static_cast<uint8_t>((key[ch] && full(*key[ch]) ? 1u : 0u) << ch);
        for (int ch = 0; ch < 3; ++ch) {
            if (!key[ch] || (bits >> ch) & 1u) continue;
            if (key[ch]->flags & kFramesOfT) bits &= static_cast<uint8_t>(~1u);
            if (key[ch]->flags & kFramesOfR) bits &= static_cast<uint8_t>(~2u);
        }
        return bits;
    };
    for (size_t i = 0; i < n; ++i) {
        const CompressedTrack& tr = c.tracks[i];
        const uint8_t bits = fullBits(tr, vec3Index, quatIndex);
        for (int ch = 0; ch < 3; ++ch) {
            if (tr.kind(ch) != ChannelKind::Keyed) continue;
            const uint32_t j = ch == 1 ? quatIndex++ : vec3Index++;
            if (!((bits >> ch) & 1u)) continue;
            if (ch == 1) {
                ++quatGroups[group(c.quatChannels[j].key)];
                if (dropsW(j)) ++quatDropsW[group(c.quatChannels[j].key)];
            }
            else ++vec3Groups[group(c.vec3Channels[j].key)];
        }
    }
    uint32_t vec3At[2] = {0, vec3Groups[0]};
    uint32_t quatAt[2] = {0, quatGroups[0]};
    uint32_t quatWAt[2] = {quatGroups[0] - quatDropsW[0], quatGroups[0] + quatGroups[1] - quatDropsW[1]};
    fullVec3Count = vec3Groups[0] + vec3Groups[1];
    fullVec3Plain = vec3Groups[0];
    fullQuatCount = quatGroups[0] + quatGroups[1];
    fullQuatPlain = quatGroups[0];
    quatDropsWFrom[0] = quatWAt[0];
    quatDropsWFrom[1] = quatWAt[1];
    // Delta cursors: the full channels' first (vec3 then quat, in list order), then the walk's.
    uint32_t walkCursor = vec3Groups[1] + quatGroups[1];
    // Bind nodes: those copied in every form from the front, those of whole rotations from
    // the back (moved after the others below).
    uint32_t wholeNodes = 0;
    vec3Index = quatIndex = 0;
    for (size_t i = 0; i < n; ++i) {
        const CompressedTrack& tr = c.tracks[i];
        const uint8_t bits = fullBits(tr, vec3Index, quatIndex);
        const bool whole = (bits & 2u) && tr.kind(0) == ChannelKind::Absent && tr.kind(2) == ChannelKind::Absent;
        Walked walk;
        walk.track = static_cast<uint32_t>(i);
        for (int ch = 0; ch < 3; ++ch) {
            const ChannelKind kind = tr.kind(ch);
            const uint32_t dst = static_cast<uint32_t>(tr.node * sizeof(Transform) + kOffset[ch]);
            if (kind == ChannelKind::Absent) {
                const uint32_t node = static_cast<uint32_t>(tr.node * sizeof(Transform));
                if (whole) {
                    if (ch == 0) bindNodes[n - ++wholeNodes] = node;
                } else if (!bindNodeWide || bindNodes[bindNodeWide - 1] != node) {
                    bindNodes[bindNodeWide++] = node;
                }
                continue;
            }
            if (kind != ChannelKind::Keyed) {  // a constant, decoded once, here
                const uint32_t entry = static_cast<uint32_t>(3 * i + ch);
                if (ch == 1) {
                    const glm::quat q = w.quatValue(c, kind);
                    entries[entry].a = glm::vec4(q.x, q.y, q.z, q.w);
                    constQuat[constQuatCount++] = {dst, entry};
                } else {
                    entries[entry].a = glm::vec4(w.vec3Value(c), 0.0f);
                    constVec3[constVec3Count++] = {dst, entry};
                }
                continue;
            }
            const uint32_t j = ch == 1 ? quatIndex++ : vec3Index++;
            const KeyedChannel& key = ch == 1 ? c.quatChannels[j].key : c.vec3Channels[j].key;
            const bool delta = (key.flags & kChannelDelta) != 0;
            if ((bits >> ch) & 1u) {
                Full f;
                f.channel = j;
                f.dst = dst;
                f.interpolation = key.interpolation();
                f.whole = ch == 1 && whole;
                const int g = group(key);
                if (ch == 1) {
                    uint32_t& at = dropsW(j) ? quatWAt[g] : quatAt[g];
                    if (g == 1) f.cursor = vec3Groups[1] + (at - fullQuatPlain);
                    fullQuatStep[at] = f.interpolation == Interpolation::Step ? ~0u : 0u;
                    fullQuat[at++] = f;
                } else {
                    if (g == 1) f.cursor = vec3At[1] - fullVec3Plain;
                    fullVec3Step[vec3At[g]] = f.interpolation == Interpolation::Step ? ~0u : 0u;
                    fullVec3[vec3At[g]++] = f;
                }
                continue;
            }
            walk.keyed |= static_cast<uint8_t>(1u << ch);
            walk.channel[ch] = j;
            if (delta) {
                walk.cursor[ch] = walkCursor++;
                deltaCoded = true;
            }
        }
        if (walk.keyed) walked[walkedCount++] = walk;
    }
    std::copy(bindNodes.begin() + static_cast<std::ptrdiff_t>(n - wholeNodes), bindNodes.begin() + static_cast<std::ptrdiff_t>(n),
              bindNodes.begin() + bindNodeWide);
    bindNodeCount = bindNodeWide + wholeNodes;
    std::fill_n(fullVec3Step.begin() + fullVec3Count, 8, 0u);
    std::fill_n(fullQuatStep.begin() + fullQuatCount, 8, 0u);
    // The full channels' lanes (decodeFullLanes), and eight lanes of zeros after each list.
    lanes = c.vec3Bits.size() < (size_t(1) << 28) && c.quatBits.size() < (size_t(1) << 28) &&
            vec3Lanes.capacity >= fullVec3Count + 8 && quatLanes.capacity >= fullQuatCount + 8;
    if (lanes) {
        vec3Lanes.deltaKey = quatLanes.deltaKey = vec3Lanes.windowKey = quatLanes.windowKey = UINT32_MAX;
        auto setCodes = [](Lanes& l, uint32_t j, const KeyedChannel& key, uint32_t stride, uint32_t indexBits) {
            const uint32_t w0 = key.width(0), w1 = key.width(1), w2 = key.width(2);
            if (key.flags & kChannelDelta) {  // the header's layout, as deltaSeekBlock reads it
                const DeltaLayout d = deltaLayout(key, indexBits);
                l.col(Lanes::HeadBase)[j] = key.offset;
                l.col(Lanes::HeadBits)[j] = d.headerBits;
                l.col(Lanes::RecordBase)[j] = key.offset + d.blocks * d.headerBits;
                l.col(Lanes::OffsetMask)[j] = (1u << d.offsetBits) - 1u;
                for (int i = 0; i < 3; ++i) {
                    l.col(Lanes::U(Lanes::PosCode0 + i))[j] = d.posCode[i];
                    l.col(Lanes::U(Lanes::CodeMask0 + i))[j] = (1u << key.width(i)) - 1u;
                    l.col(Lanes::U(Lanes::PosDmin0 + i))[j] = d.posDmin[i];
                    l.col(Lanes::U(Lanes::DminMask0 + i))[j] = (2u << key.width(i)) - 1u;
                }
                l.col(Lanes::PosIndex)[j] = d.posIndex;
                l.col(Lanes::PosWidths)[j] = d.posWidths;
            }
            l.col(Lanes::Offset)[j] = key.offset;
            l.col(Lanes::Stride)[j] = stride;
            l.col(Lanes::Shift1)[j] = w0;
            l.col(Lanes::Shift2)[j] = w0 + w1;
            l.col(Lanes::Shift3)[j] = w0 + w1 + w2;
            l.col(Lanes::Mask0)[j] = (1u << w0) - 1u;
            l.col(Lanes::Mask1)[j] = (1u << w1) - 1u;
            l.col(Lanes::Mask2)[j] = (1u << w2) - 1u;
        };
        auto clear = [](Lanes& l, uint32_t from) {
            for (int col = 0; col < Lanes::kU; ++col) std::fill_n(l.col(Lanes::U(col)) + from, 8, 0u);
            for (int col = 0; col < Lanes::kF; ++col) std::fill_n(l.col(Lanes::F(col)) + from, 8, 0.0f);
        };
        for (uint32_t j = 0; j < fullVec3Count; ++j) {
            const Vec3Channel& v = c.vec3Channels[fullVec3[j].channel];
            setCodes(vec3Lanes, j, v.key, v.key.codeBits(), 0u);
            vec3Lanes.col(Lanes::IndexMask)[j] = 0;
            vec3Lanes.col(Lanes::Largest)[j] = 0;
            for (int i = 0; i < 3; ++i) {
                vec3Lanes.col(Lanes::F(Lanes::Min0 + i))[j] = v.min[i];
                vec3Lanes.col(Lanes::F(Lanes::Scale0 + i))[j] = v.scale[i];
            }
        }
        clear(vec3Lanes, fullVec3Count);
        for (uint32_t j = 0; j < fullQuatCount; ++j) {
            const QuatChannel& q = c.quatChannels[fullQuat[j].channel];
            const QuatDecoder& d = ranges[fullQuat[j].channel];
            setCodes(quatLanes, j, q.key, quatStride(d, q.key), d.fixed < 0 ? 2u : 0u);
            quatLanes.col(Lanes::IndexMask)[j] = d.fixed < 0 ? 3u : 0u;
            quatLanes.col(Lanes::Largest)[j] = d.fixed < 0 ? 0u : static_cast<uint32_t>(d.fixed);
            for (int i = 0; i < 4; ++i) {  // per component: the lanes pick each code's by the dropped one
                quatLanes.col(Lanes::F(Lanes::Min0 + i))[j] = d.range.min[i];
                quatLanes.col(Lanes::F(Lanes::Scale0 + i))[j] = d.range.scale[i];
            }
        }
        clear(quatLanes, fullQuatCount);
    }
    return true;
}

namespace {

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

#if RIG_HAVE_AVX2_PATH
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
// scalar loads, not two gathers: measured 10 % faster on a window's reads here (AMD Zen 4).
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

// Frames k .. k + kFrames - 1 of every full channel (frame k + f into v3[f] and q4[f]), eight
// lanes at a time (the plain-coded groups read in place, the delta-coded ones from their
// window). With two frames, each group decodes both in one pass, so that the two rebuilds
// (a square root each) overlap; both must then lie in one window (k % kWindow < kWindow - 1).
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
}
RIG_TARGET_AVX2 void decodeFullLanes1(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k, float* v3, float* q4) {
    decodeFullLanes<1>(c, cache, k, &v3, &q4);
}
RIG_TARGET_AVX2 void decodeFullLanes2(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k) {
    float* v3[2] = {cache.frameVec3[k & 1].data(), cache.frameVec3[(k + 1) & 1].data()};
    float* q4[2] = {cache.frameQuat[k & 1].data(), cache.frameQuat[(k + 1) & 1].data()};
    decodeFullLanes<2>(c, cache, k, v3, q4);
}
#endif

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

#if RIG_HAVE_AVX2_PATH
RIG_TARGET_AVX2 RIG_ALWAYS_INLINE detail::Quat8 columns8(const float* f, size_t column, uint32_t j) {
    detail::Quat8 q;
    q.x = _mm256_loadu_ps(f + j);
    q.y = _mm256_loadu_ps(f + column + j);
    q.z = _mm256_loadu_ps(f + 2 * column + j);
    q.w = _mm256_loadu_ps(f + 3 * column + j);
    return q;
}

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
        // detail::storeRotations8's loop, storing through storeFullRotation (as a callback of
        // storeRotations8 it measured 2-3 % slower on the demo's tick).
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
#endif

// Decode frame k of every full channel into buffer k & 1 (one flat loop per group; with
// kWide, eight channels at a time).
template <bool kWide>
RIG_ALWAYS_INLINE void decodeFullFrame(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k) {
    float* v3 = cache.frameVec3[k & 1].data();
    const size_t column3 = cache.vec3Column;
    float* q4 = cache.frameQuat[k & 1].data();
    const size_t column = cache.quatColumn;
    const CompressedSamplingCache::Full* F = cache.fullVec3.data();
    const Vec3Channel* vec3 = c.vec3Channels.data();
    const QuatChannel* quat = c.quatChannels.data();
    const QuatDecoder* range = cache.ranges.data();
    DeltaCursor* deltas = cache.deltas.data();
    const CompressedSamplingCache::Full* Q = cache.fullQuat.data();
#if RIG_HAVE_AVX2_PATH
    if constexpr (kWide) {
        if (cache.lanes) {
            decodeFullLanes1(c, cache, k, v3, q4);
            cache.heldFrame[k & 1] = k;
            return;
        }
    }
#endif
    for (uint32_t j = 0; j < cache.fullVec3Plain; ++j) setColumns(v3, column3, j, plainVec3Key(c, vec3[F[j].channel], k));
    const uint8_t* vec3Bits = c.vec3Bits.data();
    for (uint32_t j = cache.fullVec3Plain; j < cache.fullVec3Count; ++j) {
        deltaVec3ToColumns(vec3Bits, vec3[F[j].channel], deltas[F[j].cursor], k, j, v3, column3);
    }
    for (uint32_t j = 0; j < cache.fullQuatPlain; ++j) setColumns(q4, column, j, plainQuatKey(c, quat[Q[j].channel], range[Q[j].channel], k));
    for (uint32_t j = cache.fullQuatPlain; j < cache.fullQuatCount; ++j) {
        const QuatChannel& ch = quat[Q[j].channel];
        const QuatDecoder& r = range[Q[j].channel];
        DeltaCursor& d = deltas[Q[j].cursor];
        deltaMoveTo(c.quatBits.data(), ch.key, r.fixed < 0 ? 2u : 0u, k, d);
        setColumns(q4, column, j, decodeQuatCodes(r, d.codes, d.largest));
    }
    cache.heldFrame[k & 1] = k;
}

// Frames k and k + 1 into their buffers, each unless held. When both are new (a take played
// at half its key rate or slower) and lie in one window, the AVX2 form decodes them together.
template <bool kWide>
RIG_ALWAYS_INLINE void decodeSegmentFrames(const CompressedClip& c, CompressedSamplingCache& cache, uint32_t k) {
    const bool needA = cache.heldFrame[k & 1] != k, needB = cache.heldFrame[(k + 1) & 1] != k + 1;
#if RIG_HAVE_AVX2_PATH
    constexpr uint32_t W = CompressedSamplingCache::Lanes::kWindow;
    if (kWide && needA && needB && cache.lanes && k % W + 1 < W) {
        decodeFullLanes2(c, cache, k);
        cache.heldFrame[k & 1] = k;
        cache.heldFrame[(k + 1) & 1] = k + 1;
        return;
    }
#endif
    if (needA) decodeFullFrame<kWide>(c, cache, k);
    if (needB) decodeFullFrame<kWide>(c, cache, k + 1);
}

template <bool Delta, bool kWide>
RIG_ALWAYS_INLINE void sampleCachedBody(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                                        CompressedSamplingCache& cache, RotationBlend blend) {
    // Bind values first: every other write of the tick lands over them (the AVX2 form writes
    // the whole rotations' nodes with their rotations).
    const uint32_t bindNodes = kWide ? cache.bindNodeWide : cache.bindNodeCount;
    for (uint32_t j = 0; j < bindNodes; ++j) at<Transform>(local, cache.bindNodes[j]) = at<Transform>(bindLocal, cache.bindNodes[j]);
    detail::RotationBatch batch;
    int queued = 0;
    const TableSegment segment = tableSegment(clip, t, cache.frame);
    // Full channels: the segment's two frames, decoded when the segment moves on. Their
    // rotations are blended last, with the walked tracks' queue (kWide).
    const float* aq = nullptr;
    const float* bq = nullptr;
    if (cache.fullVec3Count + cache.fullQuatCount) {
        const uint32_t k = segment.frame;
        decodeSegmentFrames<kWide>(clip, cache, k);
        const float* a3 = cache.frameVec3[k & 1].data();
        const float* b3 = cache.frameVec3[(k + 1) & 1].data();
        aq = cache.frameQuat[k & 1].data();
        bq = cache.frameQuat[(k + 1) & 1].data();
#if RIG_HAVE_AVX2_PATH
        if constexpr (kWide) {
            blendFullVec3Wide(cache, a3, b3, segment.alpha, local);
        } else {
            blendFullVec3(cache, a3, b3, segment.alpha, local);
            blendFullQuats(cache, aq, bq, segment.alpha, local, blend);
        }
#else
        blendFullVec3(cache, a3, b3, segment.alpha, local);
        blendFullQuats(cache, aq, bq, segment.alpha, local, blend);
#endif
    }
    // Tracks with other keyed channels, one by one.
    const Vec3Channel* vec3 = clip.vec3Channels.data();
    const QuatChannel* quat = clip.quatChannels.data();
    const QuatDecoder* range = cache.ranges.data();
    DeltaCursor* deltas = cache.deltas.data();
    for (uint32_t w = 0; w < cache.walkedCount; ++w) {
        const CompressedSamplingCache::Walked& walk = cache.walked[w];
        Transform& out = local[clip.tracks[walk.track].node];
        CompressedKeyCache* e = cache.entries.data() + 3 * walk.track;
        float f[3] = {0.0f, 0.0f, 0.0f};  // the factors of T's, R's and S's segments
        if (walk.keyed & 1u) {
            const Vec3Channel& T = vec3[walk.channel[0]];
            DeltaCursor* d = Delta && walk.cursor[0] != UINT32_MAX ? deltas + walk.cursor[0] : nullptr;
            refreshVec3<Delta>(clip, T, e[0], d, moveTo(clip, T.key, t, segment, e, f, 0));
            out.translation = blendVec3(T.key, e[0], f[0]);
        }
        if (walk.keyed & 2u) {
            const QuatChannel& R = quat[walk.channel[1]];
            DeltaCursor* d = Delta && walk.cursor[1] != UINT32_MAX ? deltas + walk.cursor[1] : nullptr;
            refreshQuat<Delta>(clip, R, range[walk.channel[1]], e[1], d, moveTo(clip, R.key, t, segment, e, f, 1));
            const float ar = f[1];
            if (!(R.key.flags & kChannelStep) && ar > 0.0f && ar < 1.0f && !detail::sameKeys(asQuat(e[1].a), asQuat(e[1].b))) {
                // Interpolated with others in the plain sampler's queue (same bits).
                detail::queue<kWide>(batch, queued, &e[1].a.x, &e[1].b.x, ar, out.rotation, blend);
            } else {
                out.rotation = blendQuat(R.key, e[1], ar, blend);
            }
        }
        if (walk.keyed & 4u) {
            const Vec3Channel& S = vec3[walk.channel[2]];
            DeltaCursor* d = Delta && walk.cursor[2] != UINT32_MAX ? deltas + walk.cursor[2] : nullptr;
            refreshVec3<Delta>(clip, S, e[2], d, moveTo(clip, S.key, t, segment, e, f, 2));
            out.scale = blendVec3(S.key, e[2], f[2]);
        }
    }
    // Constants (decoded at bind).
    const CompressedKeyCache* entries = cache.entries.data();
    for (uint32_t j = 0; j < cache.constVec3Count; ++j) {
        at<glm::vec3>(local, cache.constVec3[j].dst) = glm::vec3(entries[cache.constVec3[j].entry].a);
    }
    for (uint32_t j = 0; j < cache.constQuatCount; ++j) {
        at<glm::quat>(local, cache.constQuat[j].dst) = asQuat(entries[cache.constQuat[j].entry].a);
    }
#if RIG_HAVE_AVX2_PATH
    if constexpr (kWide) {
        blendRotationsWide(cache, aq, bq, segment.alpha, bindLocal, local, batch, queued, blend);
        return;
    }
#endif
    detail::flushQueued<kWide>(batch, queued, blend);
}

// The cached sampler's AVX2 form (anim/isa.h); sampleCompressedClip() itself is the baseline form.
#if RIG_HAVE_AVX2_PATH
RIG_TARGET_AVX2 void sampleCachedAvx2(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                                      CompressedSamplingCache& cache, RotationBlend blend) {
    if (cache.deltaCoded) return sampleCachedBody<true, true>(clip, t, bindLocal, local, cache, blend);
    sampleCachedBody<false, true>(clip, t, bindLocal, local, cache, blend);
}
#endif

}  // namespace

void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          CompressedSamplingCache& cache, RotationBlend blend) {
#if RIG_HAVE_AVX2_PATH
    if (isa::avx2()) return sampleCachedAvx2(clip, t, bindLocal, local, cache, blend);
#endif
    if (cache.deltaCoded) return sampleCachedBody<true, false>(clip, t, bindLocal, local, cache, blend);
    sampleCachedBody<false, false>(clip, t, bindLocal, local, cache, blend);
}

void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          uint32_t* cursors, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    const Vec3Channel* vec3 = clip.vec3Channels.data();
    const QuatChannel* quat = clip.quatChannels.data();
    ConstWalk w;
    for (size_t i = 0; i < n; ++i) {
        const CompressedTrack& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        uint32_t* c = cursors + 3 * i;
        auto vec3At = [&](int ch, const glm::vec3& bindValue) {
            const ChannelKind k = tr.kind(ch);
            if (k == ChannelKind::Keyed) return sampleVec3Channel(clip, *vec3++, t, c[ch]);
            return k == ChannelKind::Absent ? bindValue : w.vec3Value(clip);
        };
        out.translation = vec3At(0, bind.translation);
        const ChannelKind kr = tr.kind(1);
        if (kr == ChannelKind::Keyed) out.rotation = sampleQuatChannel(clip, *quat++, t, c[1], blend);
        else out.rotation = kr == ChannelKind::Absent ? bind.rotation : w.quatValue(clip, kr);
        out.scale = vec3At(2, bind.scale);
    }
}

Clip decodeClip(const CompressedClip& c, size_t skeletonSize) {
    Clip out;
    out.name = c.name;
    out.duration = c.duration;
    out.startTime = c.startTime;
    out.sampleRate = c.sampleRate;
    out.trackOfNode.assign(skeletonSize, -1);
    std::vector<float> times;
    const std::vector<std::array<ChannelRef, 3>> index = channelIndex(c);
    ConstWalk w;
    for (size_t i = 0; i < c.tracks.size(); ++i) {
        const CompressedTrack& ct = c.tracks[i];
        Track t;
        t.node = ct.node;
        Channel* outs[3] = {&t.translation, &t.rotation, &t.scale};
        for (int ch = 0; ch < 3; ++ch) {
            const ChannelRef& ref = index[i][ch];
            Channel& o = *outs[ch];
            if (ref.kind == ChannelKind::Absent) continue;
            if (ref.kind != ChannelKind::Keyed) {
                // A constant keeps no time: any time serves (one key holds for the whole clip).
                const float at = c.frameCount ? c.time(0) : c.startTime;
                o.count = 1;
                o.times = out.addTimes(&at, 1);
                if (ch == 1) {
                    o.values = static_cast<uint32_t>(out.quatKeys.size());
                    out.quatKeys.push_back(w.quatValue(c, ref.kind));
                } else {
                    o.values = static_cast<uint32_t>(out.vec3Keys.size());
                    out.vec3Keys.push_back(w.vec3Value(c));
                }
                continue;
            }
            const KeyedChannel& key = ch == 1 ? c.quatChannels[ref.index].key : c.vec3Channels[ref.index].key;
            o.count = key.count;
            o.interpolation = key.interpolation();
            times.resize(key.count);
            for (uint32_t k = 0; k < key.count; ++k) times[k] = c.time(c.frame(key, k));
            o.times = out.addTimes(times.data(), key.count);
            if (ch == 1) {
                const QuatChannel& q = c.quatChannels[ref.index];
                const QuatRange r = quatRange(q);
                o.values = static_cast<uint32_t>(out.quatKeys.size());
                for (uint32_t k = 0; k < key.count; ++k) out.quatKeys.push_back(decodeQuatKey(c, q, r, k));
            } else {
                o.values = static_cast<uint32_t>(out.vec3Keys.size());
                for (uint32_t k = 0; k < key.count; ++k) out.vec3Keys.push_back(decodeVec3Key(c, c.vec3Channels[ref.index], k));
            }
        }
        if (ct.node < skeletonSize) out.trackOfNode[ct.node] = static_cast<int32_t>(out.tracks.size());
        out.tracks.push_back(t);
    }
    return out;
}

}  // namespace rig
