#include "anim/compressed_clip.h"

#include <algorithm>
#include <cmath>

#include "anim/rotation_batch.h"

namespace rig {

size_t CompressedClip::byteSize() const {
    return frameTimes.size() * sizeof(float) + tracks.size() * sizeof(CompressedTrack) +
           frameBits.size() + vec3Bits.size() + quatBits.size() + quatLargest.size() + vec3Ranges.size() * sizeof(Vec3Range) + quatRanges.size() * sizeof(QuatRange) +
           constVec3.size() * sizeof(glm::vec3) + constQuat.size() * sizeof(glm::quat) +
           constQuatCodes.size() * sizeof(uint16_t);
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
    const uint32_t maxCode = (1u << r.bits) - 1u;
    for (uint32_t c = 0, i = 0; c < 4; ++c) {
        if (c != largest) out[i++] = quantize(sign * v[c], r.min[c], r.scale[c], maxCode);
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

inline FrameRun frameRun(const CompressedClip& c, const CompressedChannel& ch) {
    return {c.frameBits.data(), uint64_t(ch.frames) * c.frameWidth, c.frameWidth, ch.frames, ch.dense != 0};
}

// Key k such that time(k) <= t < time(k+1), clamped to [0, count-2], where time(k) =
// table[frames[k]]: findKey over the channel's own times, with the same cursor rules.
inline uint32_t findFrameKey(const FrameRun& frames, const float* table, uint32_t count, float t, uint32_t& cursor) {
    const uint32_t last = count - 2;
    uint32_t k = cursor < last ? cursor : last;
    if (table[frames[k]] <= t) {
        if (k == last || t < table[frames[k + 1]]) return cursor = k;
        if (k + 1 == last || t < table[frames[k + 2]]) return cursor = k + 1;
        if (k + 2 == last || t < table[frames[k + 3]]) return cursor = k + 2;  // dense keys, slower ticks
    } else if (k > 0 && table[frames[k - 1]] <= t) {
        return cursor = k - 1;
    } else if (k == 0) {
        return cursor = 0;
    }
    // Random access: first key strictly later than t, minus one.
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (table[frames[mid]] <= t) lo = mid + 1;
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

inline glm::vec3 sampleVec3Channel(const CompressedClip& c, const CompressedChannel& ch, float t, uint32_t& cursor) {
    if (ch.count == 1) return c.constVec3[ch.range];
    const FrameRun frames = frameRun(c, ch);
    const float* table = c.frameTimes.data();
    const uint32_t k = findFrameKey(frames, table, ch.count, t, cursor);
    const float alpha = frameAlpha(table[frames[k]], table[frames[k + 1]], t);
    if (ch.step) return decodeVec3Key(c, ch, alpha >= 1.0f ? k + 1 : k);
    const glm::vec3 a = decodeVec3Key(c, ch, k), b = decodeVec3Key(c, ch, k + 1);
    return a + (b - a) * alpha;
}

inline glm::quat sampleQuatChannel(const CompressedClip& c, const CompressedChannel& ch, float t, uint32_t& cursor,
                                   RotationBlend blend) {
    if (ch.count == 1) return decodeQuat(c, ch, 0);
    const FrameRun frames = frameRun(c, ch);
    const float* table = c.frameTimes.data();
    const uint32_t k = findFrameKey(frames, table, ch.count, t, cursor);
    const float alpha = frameAlpha(table[frames[k]], table[frames[k + 1]], t);
    if (ch.step || alpha >= 1.0f) return decodeQuatKey(c, ch, alpha >= 1.0f ? k + 1 : k);
    if (alpha <= 0.0f) return decodeQuatKey(c, ch, k);
    const glm::quat a = decodeQuatKey(c, ch, k), b = decodeQuatKey(c, ch, k + 1);
    return blend == RotationBlend::Slerp ? slerpShortest(a, b, alpha) : nlerpShortest(a, b, alpha);
}

// The cached forms: the segment is looked up (and its keys decoded) only when t leaves it.

// Move `e` to the segment of t (a key search only when t left the cached one). Returns the
// key index it held before.
inline uint32_t seek(const CompressedClip& c, const CompressedChannel& ch, float t, CompressedKeyCache& e) {
    const uint32_t old = e.k;
    if (!(e.t0 <= t && t < e.t1)) {
        const FrameRun frames = frameRun(c, ch);
        const float* table = c.frameTimes.data();
        uint32_t cursor = e.k < ch.count ? e.k : 0;
        const uint32_t k = findFrameKey(frames, table, ch.count, t, cursor);
        e.k = k;
        e.t0 = table[frames[k]];
        e.t1 = table[frames[k + 1]];
    }
    return old;
}

// Take the segment of a channel with the same key times (already moved to t).
inline uint32_t follow(const CompressedKeyCache& lead, CompressedKeyCache& e) {
    const uint32_t old = e.k;
    e.k = lead.k;
    e.t0 = lead.t0;
    e.t1 = lead.t1;
    return old;
}

inline bool sameRun(const CompressedChannel& a, const CompressedChannel& b) {
    return a.count > 1 && a.frames == b.frames && a.count == b.count && a.dense == b.dense;
}

// Decode the segment's keys if it changed (playing forward, the old second key is the new first).
inline void refreshVec3(const CompressedClip& c, const CompressedChannel& ch, CompressedKeyCache& e, uint32_t old) {
    if (e.k == old) return;
    e.a = old != UINT32_MAX && e.k == old + 1 ? e.b : glm::vec4(decodeVec3Key(c, ch, e.k), 0.0f);
    e.b = glm::vec4(decodeVec3Key(c, ch, e.k + 1), 0.0f);
}

inline void refreshQuat(const CompressedClip& c, const CompressedChannel& ch, CompressedKeyCache& e, uint32_t old) {
    if (e.k == old) return;
    if (old != UINT32_MAX && e.k == old + 1) {
        e.a = e.b;
    } else {
        const glm::quat a = decodeQuatKey(c, ch, e.k);
        e.a = glm::vec4(a.x, a.y, a.z, a.w);
    }
    const glm::quat b = decodeQuatKey(c, ch, e.k + 1);
    e.b = glm::vec4(b.x, b.y, b.z, b.w);
}

inline glm::vec3 blendVec3(const CompressedChannel& ch, const CompressedKeyCache& e, float alpha) {
    const glm::vec3 a(e.a), b(e.b);
    if (ch.step) return alpha >= 1.0f ? b : a;
    return a + (b - a) * alpha;
}

inline glm::quat asQuat(const glm::vec4& v) { return glm::quat(v.w, v.x, v.y, v.z); }

inline glm::quat blendQuat(const CompressedChannel& ch, const CompressedKeyCache& e, float alpha, RotationBlend blend) {
    if (ch.step || alpha >= 1.0f) return asQuat(alpha >= 1.0f ? e.b : e.a);
    if (alpha <= 0.0f) return asQuat(e.a);
    return blend == RotationBlend::Slerp ? slerpShortest(asQuat(e.a), asQuat(e.b), alpha)
                                         : nlerpShortest(asQuat(e.a), asQuat(e.b), alpha);
}

}  // namespace

bool CompressedSamplingCache::bind(const CompressedClip& c) {
    if (entries.size() < 3 * c.tracks.size()) return false;
    if (clip != &c) {
        std::fill(entries.begin(), entries.end(), CompressedKeyCache{});
        clip = &c;
        // Constant rotations, decoded once: the sampler reads them from here.
        for (size_t i = 0; i < c.tracks.size(); ++i) {
            const CompressedChannel& r = c.tracks[i].rotation;
            if (r.count != 1) continue;
            const glm::quat q = decodeQuat(c, r, 0);
            entries[3 * i + 1].a = glm::vec4(q.x, q.y, q.z, q.w);
        }
    }
    return true;
}

void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          CompressedKeyCache* cache, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    detail::RotationBatch batch;
    for (size_t i = 0; i < n; ++i) {
        const CompressedTrack& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        CompressedKeyCache* e = cache + 3 * i;
        const CompressedChannel& T = tr.translation;
        const CompressedChannel& R = tr.rotation;
        const CompressedChannel& S = tr.scale;
        // One segment search and one factor per run of key times, as sampleClip shares them.
        float at = 0.0f, ar = 0.0f, as = 0.0f;
        if (T.count > 1) {
            refreshVec3(clip, T, e[0], seek(clip, T, t, e[0]));
            at = frameAlpha(e[0].t0, e[0].t1, t);
            out.translation = blendVec3(T, e[0], at);
        } else {
            out.translation = T.count ? clip.constVec3[T.range] : bind.translation;
        }
        if (R.count > 1) {
            if (sameRun(T, R)) {
                refreshQuat(clip, R, e[1], follow(e[0], e[1]));
                ar = at;
            } else {
                refreshQuat(clip, R, e[1], seek(clip, R, t, e[1]));
                ar = frameAlpha(e[1].t0, e[1].t1, t);
            }
            if (!R.step && ar > 0.0f && ar < 1.0f) {
                // Interpolated four at a time with the plain sampler's queue (same bits).
                batch.a[batch.n] = &e[1].a.x;
                batch.b[batch.n] = &e[1].b.x;
                batch.alpha[batch.n] = ar;
                batch.out[batch.n] = &out.rotation;
                if (++batch.n == detail::RotationBatch::kCapacity) detail::flushRotations(batch, blend);
            } else {
                out.rotation = blendQuat(R, e[1], ar, blend);
            }
        } else {
            out.rotation = R.count ? asQuat(e[1].a) : bind.rotation;  // decoded at bind
        }
        if (S.count > 1) {
            if (sameRun(T, S)) {
                refreshVec3(clip, S, e[2], follow(e[0], e[2]));
                as = at;
            } else if (sameRun(R, S)) {
                refreshVec3(clip, S, e[2], follow(e[1], e[2]));
                as = ar;
            } else {
                refreshVec3(clip, S, e[2], seek(clip, S, t, e[2]));
                as = frameAlpha(e[2].t0, e[2].t1, t);
            }
            out.scale = blendVec3(S, e[2], as);
        } else {
            out.scale = S.count ? clip.constVec3[S.range] : bind.scale;
        }
    }
    detail::flushRotations(batch, blend);
}

void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          uint32_t* cursors, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    for (size_t i = 0; i < n; ++i) {
        const CompressedTrack& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        uint32_t* c = cursors + 3 * i;
        out.translation = tr.translation.count ? sampleVec3Channel(clip, tr.translation, t, c[0]) : bind.translation;
        out.rotation = tr.rotation.count ? sampleQuatChannel(clip, tr.rotation, t, c[1], blend) : bind.rotation;
        out.scale = tr.scale.count ? sampleVec3Channel(clip, tr.scale, t, c[2]) : bind.scale;
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
    auto channel = [&](const CompressedChannel& ch, bool rotation) {
        Channel o;
        o.count = ch.count;
        o.interpolation = ch.interpolation();
        if (!ch.count) return o;
        times.resize(ch.count);
        // A constant keeps no time: any time serves (one key holds for the whole clip).
        if (ch.count == 1) times[0] = c.frameTimes.empty() ? c.startTime : c.frameTimes[0];
        else for (uint32_t k = 0; k < ch.count; ++k) times[k] = c.frameTimes[c.frame(ch, k)];
        o.times = out.addTimes(times.data(), ch.count);
        if (rotation) {
            o.values = static_cast<uint32_t>(out.quatKeys.size());
            for (uint32_t k = 0; k < ch.count; ++k) out.quatKeys.push_back(decodeQuat(c, ch, k));
        } else {
            o.values = static_cast<uint32_t>(out.vec3Keys.size());
            for (uint32_t k = 0; k < ch.count; ++k) out.vec3Keys.push_back(decodeVec3(c, ch, k));
        }
        return o;
    };
    for (const CompressedTrack& ct : c.tracks) {
        Track t;
        t.node = ct.node;
        t.translation = channel(ct.translation, false);
        t.rotation = channel(ct.rotation, true);
        t.scale = channel(ct.scale, false);
        if (ct.node >= 0 && static_cast<size_t>(ct.node) < skeletonSize) {
            out.trackOfNode[ct.node] = static_cast<int32_t>(out.tracks.size());
        }
        out.tracks.push_back(t);
    }
    return out;
}

}  // namespace rig
