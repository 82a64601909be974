#include "anim/compressed_clip.h"

#include <algorithm>
#include <cmath>

#include "anim/rotation_batch.h"

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
    uint64_t pos = ch.offset + uint64_t(b) * l.headerBits;
    c.key = b * kDeltaBlock;
    c.end = c.key + kDeltaBlock;
    c.next = ch.offset + uint64_t(l.blocks) * l.headerBits + readBits(stream, pos, l.offsetBits);
    pos += l.offsetBits;
    for (int i = 0; i < 3; ++i) {
        c.codes[i] = static_cast<uint16_t>(readBits(stream, pos, ch.width(i)));
        pos += ch.width(i);
    }
    c.largest = static_cast<uint8_t>(readBits(stream, pos, indexBits));
    pos += indexBits;
    for (int i = 0; i < 3; ++i) {
        const uint32_t w = ch.width(i);
        c.dmin[i] = static_cast<int32_t>(readBits(stream, pos, w + 1)) - static_cast<int32_t>((1u << w) - 1u);
        pos += w + 1;
    }
    uint32_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const uint32_t w = readBits(stream, pos, kDeltaWidthBits);
        pos += kDeltaWidthBits;
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

inline TableSegment tableSegment(const CompressedClip& c, float t, CompressedKeyCache& e) {
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
    const glm::vec3 a(e.a), b(e.b);
    if (ch.flags & kChannelStep) return alpha >= 1.0f ? b : a;
    return a + (b - a) * alpha;
}

inline glm::quat asQuat(const glm::vec4& v) { return glm::quat(v.w, v.x, v.y, v.z); }

inline glm::quat blendQuat(const KeyedChannel& ch, const CompressedKeyCache& e, float alpha, RotationBlend blend) {
    if ((ch.flags & kChannelStep) || alpha >= 1.0f) return asQuat(alpha >= 1.0f ? e.b : e.a);
    if (alpha <= 0.0f) return asQuat(e.a);
    return blend == RotationBlend::Slerp ? slerpShortest(asQuat(e.a), asQuat(e.b), alpha)
                                         : nlerpShortest(asQuat(e.a), asQuat(e.b), alpha);
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
    if (entries.size() < 3 * c.tracks.size() || ranges.size() < c.quatChannels.size()) return false;
    if (clip != &c) {
        size_t deltaChannels = 0;
        for (const Vec3Channel& v : c.vec3Channels) deltaChannels += (v.key.flags & kChannelDelta) != 0;
        for (const QuatChannel& q : c.quatChannels) deltaChannels += (q.key.flags & kChannelDelta) != 0;
        if (deltas.size() < deltaChannels) return false;
        std::fill(entries.begin(), entries.end(), CompressedKeyCache{});
        std::fill(deltas.begin(), deltas.end(), DeltaCursor{});
        frame = CompressedKeyCache{};
        clip = &c;
        poseSize = 0;
        for (size_t j = 0; j < c.quatChannels.size(); ++j) ranges[j] = quatDecoder(c.quatChannels[j]);
        deltaCoded = deltaChannels > 0;
        // Constants, decoded once: the sampler reads them from here.
        ConstWalk w;
        for (size_t i = 0; i < c.tracks.size(); ++i) {
            const CompressedTrack& tr = c.tracks[i];
            for (int ch = 0; ch < 3; ++ch) {
                const ChannelKind k = tr.kind(ch);
                if (k != ChannelKind::Constant && k != ChannelKind::CodedConstant) continue;
                if (ch == 1) {
                    const glm::quat q = w.quatValue(c, k);
                    entries[3 * i + 1].a = glm::vec4(q.x, q.y, q.z, q.w);
                } else {
                    entries[3 * i + ch].a = glm::vec4(w.vec3Value(c), 0.0f);
                }
            }
        }
    }
    return true;
}

namespace {

template <bool Delta, bool kWide>
RIG_ALWAYS_INLINE void sampleCachedBody(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                                        CompressedSamplingCache& samplingCache, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    const Vec3Channel* vec3 = clip.vec3Channels.data();
    const QuatChannel* quat = clip.quatChannels.data();
    const QuatDecoder* range = samplingCache.ranges.data();
    CompressedKeyCache* cache = samplingCache.entries.data();
    DeltaCursor* deltas = samplingCache.deltas.data();
    detail::RotationBatch batch;
    int queued = 0;
    const TableSegment segment = tableSegment(clip, t, samplingCache.frame);
    for (size_t i = 0; i < n; ++i) {
        const CompressedTrack& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        CompressedKeyCache* e = cache + 3 * i;
        // One segment search and one factor per run of key times, as sampleClip shares them.
        const ChannelKind kt = tr.kind(0), kr = tr.kind(1), ks = tr.kind(2);
        float f[3] = {0.0f, 0.0f, 0.0f};  // the factors of T's, R's and S's segments
        if (kt == ChannelKind::Keyed) {
            const Vec3Channel& T = *vec3++;
            DeltaCursor* d = Delta && (T.key.flags & kChannelDelta) ? deltas++ : nullptr;
            refreshVec3<Delta>(clip, T, e[0], d, moveTo(clip, T.key, t, segment, e, f, 0));
            out.translation = blendVec3(T.key, e[0], f[0]);
        } else {
            out.translation = kt == ChannelKind::Absent ? bind.translation : glm::vec3(e[0].a);
        }
        if (kr == ChannelKind::Keyed) {
            const QuatChannel& R = *quat++;
            DeltaCursor* d = Delta && (R.key.flags & kChannelDelta) ? deltas++ : nullptr;
            refreshQuat<Delta>(clip, R, *range++, e[1], d, moveTo(clip, R.key, t, segment, e, f, 1));
            const float ar = f[1];
            if (!(R.key.flags & kChannelStep) && ar > 0.0f && ar < 1.0f && !detail::sameKeys(asQuat(e[1].a), asQuat(e[1].b))) {
                // Interpolated with others in the plain sampler's queue (same bits).
                detail::queue<kWide>(batch, queued, &e[1].a.x, &e[1].b.x, ar, out.rotation, blend);
            } else {
                out.rotation = blendQuat(R.key, e[1], ar, blend);
            }
        } else {
            out.rotation = kr == ChannelKind::Absent ? bind.rotation : asQuat(e[1].a);  // decoded at bind
        }
        if (ks == ChannelKind::Keyed) {
            const Vec3Channel& S = *vec3++;
            DeltaCursor* d = Delta && (S.key.flags & kChannelDelta) ? deltas++ : nullptr;
            refreshVec3<Delta>(clip, S, e[2], d, moveTo(clip, S.key, t, segment, e, f, 2));
            out.scale = blendVec3(S.key, e[2], f[2]);
        } else {
            out.scale = ks == ChannelKind::Absent ? bind.scale : glm::vec3(e[2].a);
        }
    }
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
