#include "anim/runtime/clip.h"

#include "anim/runtime/rotation_batch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <vector>


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
    // Farther: gallop from the cursor (steps 4, 8, 16, ...) to bracket t, then search the
    // bracket, so a tick that skips many keys (dense keys, fast playback) costs the log of
    // the distance moved, not of the clip's length. The answer is the same as a search of
    // the whole channel: the last key at or before t (the first key strictly later, minus one).
    uint32_t lo = 0, hi = count;  // the first key later than t lies in (lo, hi]
    if (times[k] <= t) {
        lo = k;
        for (uint32_t step = 4;; step *= 2) {
            const uint32_t probe = k + step;
            if (probe >= count || t < times[probe]) {
                hi = probe < count ? probe : count;
                break;
            }
            lo = probe;
        }
    } else {
        hi = k;
        for (uint32_t step = 4;; step *= 2) {
            if (step >= k || times[k - step] <= t) {
                lo = step < k ? k - step : 0;
                break;
            }
            hi = k - step;
        }
    }
    const float* it = std::upper_bound(times + lo, times + hi, t);
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

// findKey(), with its commonest answer inline: t still inside the cursor's segment (most ticks;
// the last segment holds every t from its first key on, as findKey() answers).
inline uint32_t findKeyInline(const float* times, uint32_t count, float t, uint32_t& cursor) {
    const uint32_t c = cursor;
    return c + 1 < count && times[c] <= t && (c + 2 == count || t < times[c + 1]) ? c : findKey(times, count, t, cursor);
}

inline KeyPos locate(const Clip& clip, const Channel& ch, float t, uint32_t& cursor) {
    const float* times = clip.times.data() + ch.times;
    const uint32_t k = findKeyInline(times, ch.count, t, cursor);
    return {k, segmentAlpha(times, k, t)};
}

// The last key search of a sampleClip call: channels with the same run of key times (the
// same Clip::times offset and count; tracks usually share one) take its answer, which does not
// depend on the cursor it started from.
struct SearchMemo {
    uint32_t times = UINT32_MAX, count = 0;
    KeyPos pos{0, 0.0f};
};

inline KeyPos locate(const Clip& clip, const Channel& ch, float t, uint32_t& cursor, SearchMemo& memo) {
    if (ch.times == memo.times && ch.count == memo.count) {
        cursor = memo.pos.k;
        return memo.pos;
    }
    memo.times = ch.times;
    memo.count = ch.count;
    return memo.pos = locate(clip, ch, t, cursor);
}

using detail::lerpPair;

inline glm::vec3 lerpKeys(const glm::vec3* v, Interpolation interpolation, KeyPos p) {
    return lerpPair(v[p.k], v[p.k + 1], interpolation, p.alpha);
}

inline glm::vec3 lerpKeys(const glm::vec3* v, const Channel& ch, KeyPos p) { return lerpKeys(v, ch.interpolation, p); }

using detail::slerpInline;

using detail::blendPair;

inline glm::quat blendKeys(const glm::quat* v, Interpolation interpolation, KeyPos p, RotationBlend blend) {
    return blendPair(v[p.k], v[p.k + 1], interpolation, p.alpha, blend);
}

inline glm::quat blendKeys(const glm::quat* v, const Channel& ch, KeyPos p, RotationBlend blend) {
    return blendKeys(v, ch.interpolation, p, blend);
}

// A rotation between two different keys goes to the batch (interpolated with others, same
// bits); the rest (a step, the segment's ends, equal keys) is taken at once.
template <bool kWide>
RIG_ALWAYS_INLINE void queuePair(detail::RotationBatch& batch, int& queued, const glm::quat& a, const glm::quat& b,
                                 Interpolation interpolation, float alpha, glm::quat& out, RotationBlend blend) {
    if (interpolation == Interpolation::Linear && alpha > 0.0f && alpha < 1.0f && !detail::sameKeys(a, b)) {
        detail::queue<kWide>(batch, queued, &a.x, &b.x, alpha, out, blend);
    } else {
        out = blendPair(a, b, interpolation, alpha, blend);
    }
}

template <bool kWide>
RIG_ALWAYS_INLINE void queueRotation(detail::RotationBatch& batch, int& queued, const glm::quat* v, Interpolation interpolation,
                                     KeyPos p, glm::quat& out, RotationBlend blend) {
    queuePair<kWide>(batch, queued, v[p.k], v[p.k + 1], interpolation, p.alpha, out, blend);
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

void shareTimeRuns(Clip& clip) {
    const float* times = clip.times.data();
    const size_t size = clip.times.size();
    // Runs seen so far, by a hash of their count and bits.
    std::unordered_map<uint64_t, std::vector<uint32_t>> seen;
    auto canonical = [&](uint32_t first, uint32_t count) {
        if (count < 2 || first + static_cast<size_t>(count) > size) return first;
        uint64_t h = 1469598103934665603ull ^ count;
        for (uint32_t k = 0; k < count; ++k) {
            uint32_t bits;
            std::memcpy(&bits, times + first + k, sizeof bits);
            h = (h ^ bits) * 1099511628211ull;
        }
        std::vector<uint32_t>& runs = seen[h];
        for (const uint32_t r : runs) {
            if (r == first || (size >= r + static_cast<size_t>(count) &&
                               std::memcmp(times + r, times + first, count * sizeof(float)) == 0)) {
                return r;
            }
        }
        runs.push_back(first);
        return first;
    };
    // (Two runs that share a hash are compared over the channel's own count: equal floats there
    // are all a channel reads, so sharing is right even across a collision.)
    for (Track& tr : clip.tracks) {
        for (Channel* ch : {&tr.translation, &tr.rotation, &tr.scale}) ch->times = canonical(ch->times, ch->count);
    }
    for (MorphTrack& m : clip.morphTracks) m.times = canonical(m.times, m.count);
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
    using detail::normalized;
    if (detail::sameKeys(a, b)) return a;
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


}  // namespace

namespace {

template <bool kWide>
RIG_ALWAYS_INLINE void sampleClipBody(const Clip& clip, float t, const Transform* bindLocal, Transform* local,
                                      uint32_t* cursors, RotationBlend blend) {
    const size_t n = clip.tracks.size();
    const glm::vec3* v3 = clip.vec3Keys.data();
    const glm::quat* q4 = clip.quatKeys.data();
    detail::RotationBatch batch;
    int queued = 0;
    SearchMemo memo;
    for (size_t i = 0; i < n; ++i) {
        const Track& tr = clip.tracks[i];
        const Transform& bind = bindLocal[tr.node];
        Transform& out = local[tr.node];
        uint32_t* c = cursors + 3 * i;
        // One key search per run of times: a channel with the times of the last search (in
        // this track or an earlier one) takes its answer.
        KeyPos pt{0, 0.0f}, pr{0, 0.0f}, ps{0, 0.0f};
        const Channel& T = tr.translation;
        const Channel& R = tr.rotation;
        const Channel& S = tr.scale;
        if (T.count > 1) pt = locate(clip, T, t, c[0], memo);
        if (R.count > 1) pr = locate(clip, R, t, c[1], memo);
        if (S.count > 1) ps = locate(clip, S, t, c[2], memo);
        out.translation = T.count > 1 ? lerpKeys(v3 + T.values, T, pt) : T.count ? v3[T.values] : bind.translation;
        out.scale = S.count > 1 ? lerpKeys(v3 + S.values, S, ps) : S.count ? v3[S.values] : bind.scale;
        if (R.count > 1) {
            queueRotation<kWide>(batch, queued, q4 + R.values, R.interpolation, pr, out.rotation, blend);
        } else {
            out.rotation = R.count ? q4[R.values] : bind.rotation;
        }
    }
    detail::flushQueued<kWide>(batch, queued, blend);
}

// The sampler's AVX2 form (anim/runtime/isa.h); sampleClip() itself is the baseline form.
#if RIG_HAVE_AVX2_PATH
RIG_TARGET_AVX2 void sampleClipAvx2(const Clip& clip, float t, const Transform* bindLocal, Transform* local,
                                    uint32_t* cursors, RotationBlend blend) {
    sampleClipBody<true>(clip, t, bindLocal, local, cursors, blend);
}
#endif

}  // namespace

void sampleClip(const Clip& clip, float t, const Transform* bindLocal, Transform* local,
                uint32_t* cursors, RotationBlend blend) {
#if RIG_HAVE_AVX2_PATH
    if (isa::avx2()) return sampleClipAvx2(clip, t, bindLocal, local, cursors, blend);
#endif
    sampleClipBody<false>(clip, t, bindLocal, local, cursors, blend);
}

namespace {

// Keys that all hold the first key's bits, every component finite and none -0: interpolating
// them at any finite time gives those bits (a + (a - a) * alpha = a + 0 = a), so a plan copies
// the first key (animation_with_skeleton.fbx keys T and S on every bone; 27 of its 30 such
// channels stand still).
bool steadyVec3(const glm::vec3* v, uint32_t count) {
    for (int i = 0; i < 3; ++i) {
        if (!std::isfinite(v[0][i]) || (v[0][i] == 0.0f && std::signbit(v[0][i]))) return false;
    }
    for (uint32_t k = 1; k < count; ++k) {
        if (std::memcmp(&v[k], &v[0], sizeof(glm::vec3)) != 0) return false;
    }
    return true;
}

// Rotation keys that all hold the first key's bits, every component finite: blending them
// gives those bits at any time (the first or last key outside (0, 1), and equal keys are taken
// as they are inside: detail::sameKeys, in every form), so a plan copies the first key (14 of
// animation_with_skeleton.fbx's 15 rotation channels hold still).
bool steadyQuat(const glm::quat* q, uint32_t count) {
    for (int i = 0; i < 4; ++i) {
        if (!std::isfinite(q[0][i])) return false;
    }
    for (uint32_t k = 1; k < count; ++k) {
        if (std::memcmp(&q[k], &q[0], sizeof(glm::quat)) != 0) return false;
    }
    return true;
}

}  // namespace

// So is a run of fewer keys than SamplingPlan::kFrameMajorKeys whose keys take this much or
// more (1020 joints, 61 keys: 2.5 MB; 64 joints, 61 keys: 156 KB): read where the clip keeps
// them, a tick touches a cache line per component, spread over the whole run.
constexpr size_t kFrameMajorSpread = size_t(16) << 10;

SamplingPlan buildSamplingPlan(const Clip& clip, size_t nodeCount) {
    SamplingPlan plan;
    // Every node in the pose, and no two tracks for one node (the tracks' sampler lets the last
    // win; keep to that path).
    std::vector<int32_t> nodes;
    nodes.reserve(clip.tracks.size());
    for (const Track& tr : clip.tracks) nodes.push_back(tr.node);
    std::sort(nodes.begin(), nodes.end());
    if (!nodes.empty() && (nodes.front() < 0 || static_cast<size_t>(nodes.back()) >= nodeCount)) return {};
    if (std::adjacent_find(nodes.begin(), nodes.end()) != nodes.end()) return {};
    const int32_t maxNode = nodes.empty() ? -1 : nodes.back();
    std::vector<std::vector<SamplingPlan::Keyed>> byRun[3];  // per run: its T, R and S components
    std::unordered_map<uint64_t, size_t> runIndex;  // (times, count) -> run
    auto runOf = [&](const Channel& ch) {
        const auto [it, added] = runIndex.try_emplace((static_cast<uint64_t>(ch.times) << 32) | ch.count, plan.runs.size());
        if (added) {
            plan.runs.push_back({ch.times, ch.count});
            for (auto& lists : byRun) lists.emplace_back();
        }
        return it->second;
    };
    for (const Track& tr : clip.tracks) {
        const uint32_t node = static_cast<uint32_t>(tr.node);
        const Channel* channels[3] = {&tr.translation, &tr.rotation, &tr.scale};
        std::vector<SamplingPlan::Fixed>* oneKey[3] = {&plan.oneKeyTranslations, &plan.oneKeyRotations, &plan.oneKeyScales};
        std::vector<uint32_t>* fromBind[3] = {&plan.bindTranslations, &plan.bindRotations, &plan.bindScales};
        for (int c = 0; c < 3; ++c) {
            const Channel& ch = *channels[c];
            const size_t keys = c == 1 ? clip.quatKeys.size() : clip.vec3Keys.size();
            if (ch.count == 0) {
                fromBind[c]->push_back(node);
            } else if (ch.values + static_cast<size_t>(ch.count) > keys ||
                       (ch.count > 1 && ch.times + static_cast<size_t>(ch.count) > clip.times.size())) {
                return {};
            } else if (ch.count == 1 || (c != 1 ? steadyVec3(clip.vec3Keys.data() + ch.values, ch.count)
                                                 : steadyQuat(clip.quatKeys.data() + ch.values, ch.count))) {
                oneKey[c]->push_back({node, ch.values});
            } else {
                byRun[c][runOf(ch)].push_back({node, ch.values, ch.interpolation});
            }
        }
    }
    std::vector<SamplingPlan::Keyed>* keyed[3] = {&plan.translations, &plan.rotations, &plan.scales};
    for (size_t r = 0; r < plan.runs.size(); ++r) {
        uint32_t* ends[3][2] = {{&plan.runs[r].t0, &plan.runs[r].t1}, {&plan.runs[r].r0, &plan.runs[r].r1}, {&plan.runs[r].s0, &plan.runs[r].s1}};
        for (int c = 0; c < 3; ++c) {
            *ends[c][0] = static_cast<uint32_t>(keyed[c]->size());
            keyed[c]->insert(keyed[c]->end(), byRun[c][r].begin(), byRun[c][r].end());
            *ends[c][1] = static_cast<uint32_t>(keyed[c]->size());
        }
    }
    // Long runs: their keys again, frame by frame (see SamplingPlan::Run::frameVec3).
    size_t copied = 0;
    for (SamplingPlan::Run& run : plan.runs) {
        const size_t bytes = size_t(run.count) * ((run.t1 - run.t0 + run.s1 - run.s0) * sizeof(glm::vec3) + (run.r1 - run.r0) * sizeof(glm::quat));
        if (run.count < SamplingPlan::kFrameMajorKeys && bytes < kFrameMajorSpread) continue;
        if (copied + bytes > SamplingPlan::kFrameMajorBytes) continue;
        copied += bytes;
        run.frameVec3 = static_cast<uint32_t>(plan.frameVec3.size());
        run.frameQuat = static_cast<uint32_t>(plan.frameQuat.size());
        for (uint32_t k = 0; k < run.count; ++k) {
            for (uint32_t j = run.t0; j < run.t1; ++j) plan.frameVec3.push_back(clip.vec3Keys[plan.translations[j].values + k]);
            for (uint32_t j = run.s0; j < run.s1; ++j) plan.frameVec3.push_back(clip.vec3Keys[plan.scales[j].values + k]);
            for (uint32_t j = run.r0; j < run.r1; ++j) plan.frameQuat.push_back(clip.quatKeys[plan.rotations[j].values + k]);
        }
    }
    plan.clip = &clip;
    plan.trackCount = clip.tracks.size();
    plan.maxNode = maxNode;
    return plan;
}

namespace {

// Ask for every cache line of [p, p + bytes).
RIG_ALWAYS_INLINE void prefetchRange(const void* p, size_t bytes) {
    const char* c = static_cast<const char*>(p);
    for (size_t o = 0; o < bytes; o += 64) __builtin_prefetch(c + o);
}

// The plan's sampler: per run of key times one search, then every keyed component of that
// run; then (kFixed) the components that do not change. The same helpers as sampleClipBody, so
// the same bits.
template <bool kWide, bool kFixed>
RIG_ALWAYS_INLINE void samplePlanBody(const SamplingPlan& plan, float t, const Transform* bindLocal, Transform* local,
                                      uint32_t* cursors, RotationBlend blend) {
    const Clip& clip = *plan.clip;
    const glm::vec3* v3 = clip.vec3Keys.data();
    const glm::quat* q4 = clip.quatKeys.data();
    const SamplingPlan::Keyed* T = plan.translations.data();
    const SamplingPlan::Keyed* R = plan.rotations.data();
    const SamplingPlan::Keyed* S = plan.scales.data();
    detail::RotationBatch batch;
    int queued = 0;
    for (size_t r = 0; r < plan.runs.size(); ++r) {
        const SamplingPlan::Run& run = plan.runs[r];
        const float* times = clip.times.data() + run.times;
        const uint32_t c = cursors[r];
        const uint32_t k = findKeyInline(times, run.count, t, cursors[r]);
        const KeyPos pos{k, segmentAlpha(times, k, t)};
        // Keys several segments on from the last tick's (dense keys, fast playback): the next
        // tick will likely move as far again, to keys no tick has touched yet; fetch them now.
        const uint32_t ahead = k > c && k - c > 1 && k + 2 * (k - c) + 1 < run.count ? k + (k - c) : 0;
        if (run.frameVec3 != UINT32_MAX) {
            // Frame by frame: the segment's two frames lie side by side.
            const uint32_t nt = run.t1 - run.t0, ns = run.s1 - run.s0, nv = nt + ns, nq = run.r1 - run.r0;
            const glm::vec3* a3 = plan.frameVec3.data() + run.frameVec3 + size_t(k) * nv;
            const glm::vec3* b3 = a3 + nv;
            const glm::quat* aq = plan.frameQuat.data() + run.frameQuat + size_t(k) * nq;
            const glm::quat* bq = aq + nq;
            if (ahead) {
                prefetchRange(plan.frameVec3.data() + run.frameVec3 + size_t(ahead) * nv, 2 * nv * sizeof(glm::vec3));
                prefetchRange(plan.frameQuat.data() + run.frameQuat + size_t(ahead) * nq, 2 * nq * sizeof(glm::quat));
            }
            for (uint32_t j = 0; j < nt; ++j) {
                local[T[run.t0 + j].node].translation = lerpPair(a3[j], b3[j], T[run.t0 + j].interpolation, pos.alpha);
            }
            for (uint32_t j = 0; j < ns; ++j) {  // after the translations in each frame
                local[S[run.s0 + j].node].scale = lerpPair(a3[nt + j], b3[nt + j], S[run.s0 + j].interpolation, pos.alpha);
            }
            for (uint32_t j = 0; j < nq; ++j) {
                queuePair<kWide>(batch, queued, aq[j], bq[j], R[run.r0 + j].interpolation, pos.alpha, local[R[run.r0 + j].node].rotation,
                                 blend);
            }
            continue;
        }
        for (uint32_t j = run.t0; j < run.t1; ++j) {
            if (ahead) __builtin_prefetch(v3 + T[j].values + ahead);
            local[T[j].node].translation = lerpKeys(v3 + T[j].values, T[j].interpolation, pos);
        }
        for (uint32_t j = run.s0; j < run.s1; ++j) {
            if (ahead) __builtin_prefetch(v3 + S[j].values + ahead);
            local[S[j].node].scale = lerpKeys(v3 + S[j].values, S[j].interpolation, pos);
        }
        for (uint32_t j = run.r0; j < run.r1; ++j) {
            if (ahead) __builtin_prefetch(q4 + R[j].values + ahead);
            queueRotation<kWide>(batch, queued, q4 + R[j].values, R[j].interpolation, pos, local[R[j].node].rotation, blend);
        }
    }
    if constexpr (kFixed) {
        for (const SamplingPlan::Fixed& f : plan.oneKeyTranslations) local[f.node].translation = v3[f.value];
        for (const SamplingPlan::Fixed& f : plan.oneKeyScales) local[f.node].scale = v3[f.value];
        for (const SamplingPlan::Fixed& f : plan.oneKeyRotations) local[f.node].rotation = q4[f.value];
        for (const uint32_t n : plan.bindTranslations) local[n].translation = bindLocal[n].translation;
        for (const uint32_t n : plan.bindScales) local[n].scale = bindLocal[n].scale;
        for (const uint32_t n : plan.bindRotations) local[n].rotation = bindLocal[n].rotation;
    }
    detail::flushQueued<kWide>(batch, queued, blend);
}

#if RIG_HAVE_AVX2_PATH
template <bool kFixed>
RIG_TARGET_AVX2 void samplePlanAvx2(const SamplingPlan& plan, float t, const Transform* bindLocal, Transform* local,
                                    uint32_t* cursors, RotationBlend blend) {
    samplePlanBody<true, kFixed>(plan, t, bindLocal, local, cursors, blend);
}
#endif

}  // namespace

void sampleClip(const SamplingPlan& plan, float t, const Transform* bindLocal, Transform* local, uint32_t* cursors,
                RotationBlend blend) {
    if (!plan.clip) return;
#if RIG_HAVE_AVX2_PATH
    if (isa::avx2()) return samplePlanAvx2<true>(plan, t, bindLocal, local, cursors, blend);
#endif
    samplePlanBody<false, true>(plan, t, bindLocal, local, cursors, blend);
}

void sampleClipKeyed(const SamplingPlan& plan, float t, Transform* local, uint32_t* cursors, RotationBlend blend) {
    if (!plan.clip) return;
#if RIG_HAVE_AVX2_PATH
    if (isa::avx2()) return samplePlanAvx2<false>(plan, t, nullptr, local, cursors, blend);
#endif
    samplePlanBody<false, false>(plan, t, nullptr, local, cursors, blend);
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
