// The compressed samplers (compressed_sampling_cache.h): the cursor form, which decodes the two
// keys around the time per channel, and the cached form, whose body is compiled twice (the
// build's baseline and, with the AVX2 lanes of compressed_lanes_avx2.cpp, AVX2).
#include "anim/runtime/compressed_sampling_cache.h"

#include <cstddef>
#include <cstring>

#include "anim/runtime/compressed_sampling_detail.h"

namespace rig {

namespace {

using namespace compressed_detail;

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

// The cached sampler's AVX2 form (anim/runtime/isa.h); sampleCompressedClip() itself is the baseline form.
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

}  // namespace rig
