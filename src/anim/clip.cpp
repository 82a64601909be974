#include "anim/clip.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig {

uint32_t findKey(const float* times, uint32_t count, float t, uint32_t& cursor) {
    const uint32_t last = count - 2;  // largest valid segment index
    uint32_t k = cursor < last ? cursor : last;
    if (times[k] <= t) {
        if (k == last || t < times[k + 1]) return cursor = k;
        if (k + 1 == last || t < times[k + 2]) return cursor = k + 1;
    } else if (k > 0 && times[k - 1] <= t) {
        return cursor = k - 1;
    } else if (k == 0) {
        return cursor = 0;
    }
    // Random access: first key strictly greater than t, minus one.
    const float* it = std::upper_bound(times, times + count, t);
    uint32_t idx = static_cast<uint32_t>(it - times);
    k = idx == 0 ? 0 : idx - 1;
    return cursor = k < last ? k : last;
}

namespace {

// Interpolation factor within segment k, clamped so that t outside the keys holds the
// first or last value.
inline float segmentAlpha(const float* times, uint32_t k, float t) {
    const float t0 = times[k], t1 = times[k + 1];
    const float span = t1 - t0;
    if (!(span > 0.0f)) return t >= t1 ? 1.0f : 0.0f;
    const float a = (t - t0) / span;
    return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
}

struct KeyPos {
    uint32_t k;
    float alpha;
};

inline KeyPos locate(const Clip& clip, const Channel& ch, float t, uint32_t& cursor) {
    const float* times = clip.times.data() + ch.times;
    const uint32_t k = findKey(times, ch.count, t, cursor);
    return {k, segmentAlpha(times, k, t)};
}

inline glm::vec3 lerpKeys(const glm::vec3* v, const Channel& ch, KeyPos p) {
    if (ch.interpolation == Interpolation::Step) return p.alpha >= 1.0f ? v[p.k + 1] : v[p.k];
    return v[p.k] + (v[p.k + 1] - v[p.k]) * p.alpha;
}

inline glm::quat slerpInline(const glm::quat& a, const glm::quat& b, float alpha);

inline glm::quat blendKeys(const glm::quat* v, const Channel& ch, KeyPos p, RotationBlend blend) {
    if (ch.interpolation == Interpolation::Step || p.alpha >= 1.0f) return p.alpha >= 1.0f ? v[p.k + 1] : v[p.k];
    if (p.alpha <= 0.0f) return v[p.k];
    return blend == RotationBlend::Slerp ? slerpInline(v[p.k], v[p.k + 1], p.alpha)
                                         : nlerpShortest(v[p.k], v[p.k + 1], p.alpha);
}

inline glm::quat normalized(float w, float x, float y, float z) {
    const float len2 = x * x + y * y + z * z + w * w;
    const float inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
    return glm::quat(w * inv, x * inv, y * inv, z * inv);
}

// sin(t*theta) / sin(theta) as a polynomial in x = cos(theta) (D. Eberly, "A Fast and
// Accurate Algorithm for Computing SLERP"): t * (1 + b1 (1 + b2 (1 + ... (1 + bN)))) with
// b_i = (t^2 - i^2) / (i (2i + 1)) * (x - 1). With N = 8 the last term is scaled by mu to
// cut the truncation error; keys close together (x - 1 > -0.01, under 16 degrees apart)
// need only N = 4 for the same accuracy, as each term shrinks by at least 200 times.
constexpr float kSlerpMu = 1.85298109240830f;
constexpr float kSlerpU[8] = {1.0f / (1 * 3), 1.0f / (2 * 5), 1.0f / (3 * 7), 1.0f / (4 * 9),
                              1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), kSlerpMu / (8 * 17)};
constexpr float kSlerpV[8] = {1.0f / 3, 2.0f / 5, 3.0f / 7, 4.0f / 9,
                              5.0f / 11, 6.0f / 13, 7.0f / 15, kSlerpMu * 8 / 17};

template <int N>
inline float slerpWeight(float t, float xm1) {
    const float t2 = t * t;
    float r = 1.0f;
    for (int i = N - 1; i >= 0; --i) r = 1.0f + (kSlerpU[i] * t2 - kSlerpV[i]) * xm1 * r;
    return t * r;
}

// Both weights at once, sin((1 - alpha) theta) / sin(theta) and sin(alpha theta) / sin(theta):
// the same operations as two slerpWeight calls, one per SSE lane (so the same results), in
// one dependency chain instead of two.
template <int N>
inline void slerpWeights(float alpha, float xm1, float& wa, float& wb) {
#if defined(__SSE2__)
    const __m128 t = _mm_setr_ps(1.0f - alpha, alpha, 0.0f, 0.0f);
    const __m128 t2 = _mm_mul_ps(t, t);
    const __m128 x = _mm_set1_ps(xm1), one = _mm_set1_ps(1.0f);
    __m128 r = one;
    for (int i = N - 1; i >= 0; --i) {
        const __m128 c = _mm_sub_ps(_mm_mul_ps(_mm_set1_ps(kSlerpU[i]), t2), _mm_set1_ps(kSlerpV[i]));
        r = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(c, x), r));
    }
    r = _mm_mul_ps(t, r);
    wa = _mm_cvtss_f32(r);
    wb = _mm_cvtss_f32(_mm_shuffle_ps(r, r, _MM_SHUFFLE(1, 1, 1, 1)));
#else
    wa = slerpWeight<N>(1.0f - alpha, xm1);
    wb = slerpWeight<N>(alpha, xm1);
#endif
}

inline glm::quat slerpInline(const glm::quat& a, const glm::quat& b, float alpha) {
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    float sign = 1.0f;
    if (d < 0.0f) {
        d = -d;
        sign = -1.0f;
    }
    if (d > 1.0f) d = 1.0f;
    float wa, wb;
    if (d >= 0.5f) {
        // Keys less than 120 degrees of rotation apart (nearly always): the polynomial.
        const float xm1 = d - 1.0f;
        if (xm1 > -0.01f) {
            slerpWeights<4>(alpha, xm1, wa, wb);
            wb *= sign;
        } else {
            slerpWeights<8>(alpha, xm1, wa, wb);
            wb *= sign;
        }
    } else {
        // Wide swings, where the polynomial loses digits: trigonometry.
        const float theta = std::acos(d);
        const float invSin = 1.0f / std::sqrt(1.0f - d * d);
        wa = std::sin((1.0f - alpha) * theta) * invSin;
        wb = sign * std::sin(alpha * theta) * invSin;
    }
    return normalized(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
}

}  // namespace

glm::vec3 sampleVec3(const Clip& clip, const Channel& ch, float t, uint32_t& cursor) {
    const glm::vec3* v = clip.vec3Keys.data() + ch.values;
    if (ch.count == 1) return v[0];
    return lerpKeys(v, ch, locate(clip, ch, t, cursor));
}

void sampleMorphTrack(const Clip& clip, const MorphTrack& track, float t, uint32_t& cursor, float* out) {
    const uint32_t nt = track.targets;
    if (nt == 0 || track.count == 0) return;
    const bool cubic = track.interpolation == WeightInterpolation::CubicSpline;
    const uint32_t stride = cubic ? 3 * nt : nt;  // floats per key
    const uint32_t valueAt = cubic ? nt : 0;      // the value's place inside a key
    const float* keys = clip.morphKeys.data() + track.values;
    if (track.count == 1) {
        for (uint32_t i = 0; i < nt; ++i) out[i] = keys[valueAt + i];
        return;
    }
    const float* times = clip.times.data() + track.times;
    const uint32_t k = findKey(times, track.count, t, cursor);
    const float s = segmentAlpha(times, k, t);
    const float* a = keys + static_cast<size_t>(k) * stride;
    const float* b = a + stride;
    if (track.interpolation == WeightInterpolation::Step || s <= 0.0f || s >= 1.0f) {
        const float* v = (s >= 1.0f ? b : a) + valueAt;
        for (uint32_t i = 0; i < nt; ++i) out[i] = v[i];
        return;
    }
    if (!cubic) {
        for (uint32_t i = 0; i < nt; ++i) out[i] = a[i] + (b[i] - a[i]) * s;
        return;
    }
    // glTF's cubic Hermite spline: value, out-tangent of key k; in-tangent, value of k+1;
    // tangents scaled by the segment's length in seconds.
    const float td = times[k + 1] - times[k];
    const float s2 = s * s, s3 = s2 * s;
    const float h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * td;
    const float h01 = -2 * s3 + 3 * s2, h11 = (s3 - s2) * td;
    for (uint32_t i = 0; i < nt; ++i) {
        out[i] = h00 * a[nt + i] + h10 * a[2 * nt + i] + h01 * b[nt + i] + h11 * b[i];
    }
}

void extendClipRangeToMorphs(Clip& clip) {
    bool nodeKeys = false;
    for (const Track& t : clip.tracks) nodeKeys = nodeKeys || t.translation.count || t.rotation.count || t.scale.count;
    bool any = false;
    float first = 0.0f, last = 0.0f;
    std::vector<float> deltas;
    for (const MorphTrack& m : clip.morphTracks) {
        if (!m.count) continue;
        const float* t = clip.times.data() + m.times;
        first = any ? std::min(first, t[0]) : t[0];
        last = any ? std::max(last, t[m.count - 1]) : t[m.count - 1];
        any = true;
        for (uint32_t k = 1; k < m.count; ++k) {
            if (t[k] - t[k - 1] > 1e-6f) deltas.push_back(t[k] - t[k - 1]);
        }
    }
    if (!any) return;
    if (nodeKeys) {
        clip.startTime = std::min(clip.startTime, first);
        clip.duration = std::max(clip.duration, last);
        return;
    }
    clip.startTime = first;
    clip.duration = std::max(last, 0.0f);
    if (!deltas.empty()) {
        std::nth_element(deltas.begin(), deltas.begin() + static_cast<std::ptrdiff_t>(deltas.size() / 2), deltas.end());
        float rate = 1.0f / deltas[deltas.size() / 2];
        const float rounded = std::round(rate);
        if (std::fabs(rate - rounded) < 0.01f * rounded) rate = rounded;
        clip.sampleRate = rate < 10.0f ? 30.0f : std::min(rate, 1000.0f);
    }
}

glm::quat nlerpShortest(const glm::quat& a, const glm::quat& b, float alpha) {
    const float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    const float s = d < 0.0f ? -alpha : alpha;
    const float r = 1.0f - alpha;
    return normalized(r * a.w + s * b.w, r * a.x + s * b.x, r * a.y + s * b.y, r * a.z + s * b.z);
}

glm::quat slerpShortest(const glm::quat& a, const glm::quat& b, float alpha) {
    return slerpInline(a, b, alpha);
}

glm::quat sampleQuat(const Clip& clip, const Channel& ch, float t, uint32_t& cursor,
                     RotationBlend blend) {
    const glm::quat* v = clip.quatKeys.data() + ch.values;
    if (ch.count == 1) return v[0];
    return blendKeys(v, ch, locate(clip, ch, t, cursor), blend);
}

namespace {

// Rotations waiting to be interpolated, four at a time: the key pairs and where each result
// goes. sampleClip() queues every interpolating rotation channel here instead of blending it
// at once, so SLERP/NLERP runs on four quaternions per SSE instruction.
struct RotationBatch {
    static constexpr int kCapacity = 16;  // four independent groups of four in flight
    const glm::quat* a[kCapacity];
    const glm::quat* b[kCapacity];
    float alpha[kCapacity];
    glm::quat* out[kCapacity];
    int n = 0;
};

#if defined(__SSE2__)

inline __m128 splat(float v) { return _mm_set1_ps(v); }

// The polynomial weight of slerpWeight<N>, four lanes at once (t and xm1 per lane).
template <int N>
inline __m128 slerpWeight4(__m128 t, __m128 xm1) {
    const __m128 t2 = _mm_mul_ps(t, t), one = splat(1.0f);
    __m128 r = one;
    for (int i = N - 1; i >= 0; --i) {
        const __m128 c = _mm_sub_ps(_mm_mul_ps(splat(kSlerpU[i]), t2), splat(kSlerpV[i]));
        r = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(c, xm1), r));
    }
    return _mm_mul_ps(t, r);
}

// Interpolate queued rotations first .. first + n - 1 (n <= 4; lanes past n repeat lane 0
// and are not stored).
void interpolateFour(RotationBatch& all, int first, int n, RotationBlend blend) {
    struct View {
        const glm::quat** a;
        const glm::quat** b;
        float* alpha;
        glm::quat** out;
    } batch{all.a + first, all.b + first, all.alpha + first, all.out + first};
    __m128 ax = _mm_loadu_ps(&batch.a[0]->x), ay, az, aw;
    __m128 bx = _mm_loadu_ps(&batch.b[0]->x), by, bz, bw;
    ay = n > 1 ? _mm_loadu_ps(&batch.a[1]->x) : ax;
    az = n > 2 ? _mm_loadu_ps(&batch.a[2]->x) : ax;
    aw = n > 3 ? _mm_loadu_ps(&batch.a[3]->x) : ax;
    by = n > 1 ? _mm_loadu_ps(&batch.b[1]->x) : bx;
    bz = n > 2 ? _mm_loadu_ps(&batch.b[2]->x) : bx;
    bw = n > 3 ? _mm_loadu_ps(&batch.b[3]->x) : bx;
    _MM_TRANSPOSE4_PS(ax, ay, az, aw);  // now ax = the four a.x, ay = the four a.y, ...
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    const __m128 alpha = _mm_setr_ps(batch.alpha[0], n > 1 ? batch.alpha[1] : batch.alpha[0],
                                     n > 2 ? batch.alpha[2] : batch.alpha[0], n > 3 ? batch.alpha[3] : batch.alpha[0]);
    // Every lane computes what slerpInline() / nlerpShortest() compute, operation for
    // operation and in the same order, so the results are the same bits.
    const __m128 signBit = splat(-0.0f);
    __m128 d = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz)), _mm_mul_ps(aw, bw));
    const __m128 negSign = _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), signBit);  // d < 0: b flips to a's side
    d = _mm_min_ps(_mm_xor_ps(d, negSign), splat(1.0f));
    const __m128 oneMinus = _mm_sub_ps(splat(1.0f), alpha);
    __m128 wa, wb;
    int wide = 0;  // lanes more than 120 degrees apart: trigonometry, below
    if (blend == RotationBlend::Nlerp) {
        wa = oneMinus;
        wb = alpha;
    } else {
        const __m128 xm1 = _mm_sub_ps(d, splat(1.0f));
        // Keys under 16 degrees apart take four terms, the others eight (as in slerpInline);
        // a group with both kinds computes both and picks per lane.
        const __m128 close = _mm_cmpgt_ps(xm1, splat(-0.01f));
        const int closeLanes = _mm_movemask_ps(close);
        if (closeLanes == 0xf) {
            wa = slerpWeight4<4>(oneMinus, xm1);
            wb = slerpWeight4<4>(alpha, xm1);
        } else {
            wa = slerpWeight4<8>(oneMinus, xm1);
            wb = slerpWeight4<8>(alpha, xm1);
            if (closeLanes != 0) {
                wa = _mm_or_ps(_mm_and_ps(close, slerpWeight4<4>(oneMinus, xm1)), _mm_andnot_ps(close, wa));
                wb = _mm_or_ps(_mm_and_ps(close, slerpWeight4<4>(alpha, xm1)), _mm_andnot_ps(close, wb));
            }
        }
        wide = _mm_movemask_ps(_mm_cmplt_ps(d, splat(0.5f))) & ((1 << n) - 1);
    }
    wb = _mm_xor_ps(wb, negSign);
    __m128 rx = _mm_add_ps(_mm_mul_ps(wa, ax), _mm_mul_ps(wb, bx));
    __m128 ry = _mm_add_ps(_mm_mul_ps(wa, ay), _mm_mul_ps(wb, by));
    __m128 rz = _mm_add_ps(_mm_mul_ps(wa, az), _mm_mul_ps(wb, bz));
    __m128 rw = _mm_add_ps(_mm_mul_ps(wa, aw), _mm_mul_ps(wb, bw));
    const __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), _mm_mul_ps(rz, rz)), _mm_mul_ps(rw, rw));
    // 1 / sqrt(len2), and 0 where len2 is 0 (as normalized() does).
    const __m128 inv = _mm_and_ps(_mm_div_ps(splat(1.0f), _mm_sqrt_ps(len2)), _mm_cmpgt_ps(len2, _mm_setzero_ps()));
    rx = _mm_mul_ps(rx, inv);
    ry = _mm_mul_ps(ry, inv);
    rz = _mm_mul_ps(rz, inv);
    rw = _mm_mul_ps(rw, inv);
    _MM_TRANSPOSE4_PS(rx, ry, rz, rw);  // back to one quaternion (x, y, z, w) per register
    const __m128 r[4] = {rx, ry, rz, rw};
    for (int j = 0; j < n; ++j) {
        if (wide & (1 << j)) {
            *batch.out[j] = slerpInline(*batch.a[j], *batch.b[j], batch.alpha[j]);
        } else {
            _mm_storeu_ps(&batch.out[j]->x, r[j]);
        }
    }
}

// Interpolate every queued rotation, four at a time: the groups are independent, so their
// long dependency chains (polynomial, square root, division) overlap.
void flushRotations(RotationBatch& batch, RotationBlend blend) {
    for (int first = 0; first < batch.n; first += 4) {
        interpolateFour(batch, first, batch.n - first < 4 ? batch.n - first : 4, blend);
    }
    batch.n = 0;
}

#else

void flushRotations(RotationBatch& batch, RotationBlend blend) {
    for (int j = 0; j < batch.n; ++j) {
        *batch.out[j] = blend == RotationBlend::Slerp ? slerpInline(*batch.a[j], *batch.b[j], batch.alpha[j])
                                                      : nlerpShortest(*batch.a[j], *batch.b[j], batch.alpha[j]);
    }
    batch.n = 0;
}

#endif

}  // namespace

void sampleClip(const Clip& clip, float t, const Transform* bindLocal, Transform* local,
                uint32_t* cursors, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    const glm::vec3* v3 = clip.vec3Keys.data();
    const glm::quat* q4 = clip.quatKeys.data();
    RotationBatch batch;
    for (size_t i = 0; i < n; ++i) {
        const Track& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        uint32_t* c = cursors + 3 * i;
        // One key search per distinct run of times: channels sharing times share the answer.
        KeyPos pt{0, 0.0f}, pr{0, 0.0f}, ps{0, 0.0f};
        const Channel& T = tr.translation;
        const Channel& R = tr.rotation;
        const Channel& S = tr.scale;
        if (T.count > 1) pt = locate(clip, T, t, c[0]);
        if (R.count > 1) pr = (R.times == T.times && T.count > 1) ? pt : locate(clip, R, t, c[1]);
        if (S.count > 1) {
            ps = (S.times == T.times && T.count > 1) ? pt
                 : (S.times == R.times && R.count > 1) ? pr
                                                        : locate(clip, S, t, c[2]);
        }
        out.translation = T.count > 1 ? lerpKeys(v3 + T.values, T, pt) : T.count ? v3[T.values] : bind.translation;
        out.scale = S.count > 1 ? lerpKeys(v3 + S.values, S, ps) : S.count ? v3[S.values] : bind.scale;
        if (R.count > 1 && R.interpolation == Interpolation::Linear && pr.alpha > 0.0f && pr.alpha < 1.0f) {
            const glm::quat* v = q4 + R.values + pr.k;
            batch.a[batch.n] = v;
            batch.b[batch.n] = v + 1;
            batch.alpha[batch.n] = pr.alpha;
            batch.out[batch.n] = &out.rotation;
            if (++batch.n == RotationBatch::kCapacity) flushRotations(batch, blend);
        } else {
            out.rotation = R.count > 1 ? blendKeys(q4 + R.values, R, pr, blend) : R.count ? q4[R.values] : bind.rotation;
        }
    }
    flushRotations(batch, blend);
}

uint32_t Clip::addTimes(const float* t, uint32_t count) {
    // Channels of one track usually share their key times: reuse the last run if equal.
    if (lastTimesCount_ == count && lastTimesFirst_ + count <= times.size() &&
        std::equal(t, t + count, times.begin() + lastTimesFirst_)) {
        return lastTimesFirst_;
    }
    lastTimesFirst_ = static_cast<uint32_t>(times.size());
    lastTimesCount_ = count;
    times.insert(times.end(), t, t + count);
    return lastTimesFirst_;
}

}  // namespace rig
