#include "anim/offline/clip_tools.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace rig {

// ---------------------------------------------------------------------------------------
// Clip tools

Clip clipHeader(const Clip& clip) {
    Clip c;
    c.name = clip.name;
    c.duration = clip.duration;
    c.startTime = clip.startTime;
    c.sampleRate = clip.sampleRate;
    c.ticksPerSecond = clip.ticksPerSecond;
    c.ticksPerSecondFromFile = clip.ticksPerSecondFromFile;
    c.markers = clip.markers;
    return c;
}

float keySampleRate(const Clip& clip) {
    std::vector<float> deltas;
    auto collect = [&](const Channel& ch) {
        for (uint32_t k = 1; k < ch.count && deltas.size() < 8192; ++k) {
            const float d = clip.times[ch.times + k] - clip.times[ch.times + k - 1];
            if (d > 1e-6f) deltas.push_back(d);
        }
    };
    for (const Track& t : clip.tracks) {
        collect(t.translation);
        collect(t.rotation);
        collect(t.scale);
    }
    if (deltas.empty()) return 30.0f;
    std::nth_element(deltas.begin(), deltas.begin() + deltas.size() / 2, deltas.end());
    float rate = 1.0f / deltas[deltas.size() / 2];
    const float rounded = std::round(rate);
    if (std::fabs(rate - rounded) < 0.01f * rounded) rate = rounded;
    return rate < 10.0f ? 30.0f : std::min(rate, 1000.0f);
}

namespace {

Channel addVec3Channel(Clip& dst, const std::vector<float>& times, const std::vector<glm::vec3>& values,
                       Interpolation interpolation) {
    Channel ch;
    if (times.empty()) return ch;
    ch.times = dst.addTimes(times.data(), static_cast<uint32_t>(times.size()));
    ch.values = static_cast<uint32_t>(dst.vec3Keys.size());
    ch.count = static_cast<uint32_t>(times.size());
    ch.interpolation = interpolation;
    dst.vec3Keys.insert(dst.vec3Keys.end(), values.begin(), values.end());
    return ch;
}

Channel addQuatChannel(Clip& dst, const std::vector<float>& times, const std::vector<glm::quat>& values,
                       Interpolation interpolation) {
    Channel ch;
    if (times.empty()) return ch;
    ch.times = dst.addTimes(times.data(), static_cast<uint32_t>(times.size()));
    ch.values = static_cast<uint32_t>(dst.quatKeys.size());
    ch.count = static_cast<uint32_t>(times.size());
    ch.interpolation = interpolation;
    dst.quatKeys.insert(dst.quatKeys.end(), values.begin(), values.end());
    return ch;
}

// Copies of one channel's keys (times and values), read from `src`.
void readVec3(const Clip& src, const Channel& ch, std::vector<float>& times, std::vector<glm::vec3>& values) {
    times.assign(src.times.begin() + ch.times, src.times.begin() + ch.times + ch.count);
    values.assign(src.vec3Keys.begin() + ch.values, src.vec3Keys.begin() + ch.values + ch.count);
}

void readQuat(const Clip& src, const Channel& ch, std::vector<float>& times, std::vector<glm::quat>& values) {
    times.assign(src.times.begin() + ch.times, src.times.begin() + ch.times + ch.count);
    values.assign(src.quatKeys.begin() + ch.values, src.quatKeys.begin() + ch.values + ch.count);
}

// Build a clip from `src` track by track: `edit` turns each source channel into the keys of
// the new one (times and values vectors, emptied first).
template <class EditVec3, class EditQuat>
void rebuildTracks(const Clip& src, Clip& dst, EditVec3&& editVec3, EditQuat&& editQuat) {
    std::vector<float> times;
    std::vector<glm::vec3> v3;
    std::vector<glm::quat> q4;
    dst.trackOfNode = src.trackOfNode;
    for (const Track& tr : src.tracks) {
        Track out;
        out.node = tr.node;
        if (tr.translation.count) {
            editVec3(tr.translation, times, v3);
            out.translation = addVec3Channel(dst, times, v3, tr.translation.interpolation);
        }
        if (tr.rotation.count) {
            editQuat(tr.rotation, times, q4);
            out.rotation = addQuatChannel(dst, times, q4, tr.rotation.interpolation);
        }
        if (tr.scale.count) {
            editVec3(tr.scale, times, v3);
            out.scale = addVec3Channel(dst, times, v3, tr.scale.interpolation);
        }
        dst.tracks.push_back(out);
    }
}

}  // namespace

RetargetMap buildRetargetMap(const Skeleton& from, const Skeleton& to) {
    RetargetMap map;
    std::unordered_map<std::string, int32_t> byName;
    for (size_t i = 0; i < to.names.size(); ++i) byName.emplace(to.names[i], static_cast<int32_t>(i));
    std::unordered_set<std::string> fromNames(from.names.begin(), from.names.end());
    map.toNode.assign(from.names.size(), -1);
    for (size_t i = 0; i < from.names.size(); ++i) {
        const auto it = byName.find(from.names[i]);
        if (it != byName.end()) map.toNode[i] = it->second;
        else map.missingInTarget.push_back(from.names[i]);
    }
    for (const std::string& name : to.names) {
        if (!fromNames.count(name)) map.missingInSource.push_back(name);
    }
    return map;
}

Clip retargetClip(const Clip& clip, const RetargetMap& map, const Skeleton& fromSkeleton,
                  const Skeleton& toSkeleton, std::vector<std::string>* skipped) {
    Clip dst = clipHeader(clip);
    dst.curveStats = clip.curveStats;
    const size_t nTo = toSkeleton.size();
    dst.trackOfNode.assign(nTo, -1);
    std::vector<std::pair<int32_t, size_t>> mapped;  // (target node, source track)
    std::vector<uint8_t> taken(nTo, 0);
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
        const int32_t node = clip.tracks[i].node;
        const bool known = node >= 0 && static_cast<size_t>(node) < map.toNode.size();
        const int32_t target = known ? map.toNode[node] : -1;
        if (target < 0 || static_cast<size_t>(target) >= nTo || taken[target]) {
            if (skipped) {
                skipped->push_back(known && static_cast<size_t>(node) < fromSkeleton.names.size()
                                       ? fromSkeleton.names[node]
                                       : "node " + std::to_string(node));
            }
            continue;
        }
        taken[target] = 1;
        mapped.emplace_back(target, i);
    }
    std::sort(mapped.begin(), mapped.end());

    std::vector<float> times;
    std::vector<glm::vec3> v3;
    std::vector<glm::quat> q4;
    for (const auto& [target, srcIndex] : mapped) {
        const Track& tr = clip.tracks[srcIndex];
        Track out;
        out.node = target;
        if (tr.translation.count) {
            readVec3(clip, tr.translation, times, v3);
            const bool haveBinds = static_cast<size_t>(tr.node) < fromSkeleton.bindLocalSqt.size() &&
                                   static_cast<size_t>(target) < toSkeleton.bindLocalSqt.size();
            if (haveBinds) {
                const glm::vec3 shift = toSkeleton.bindLocalSqt[target].translation -
                                        fromSkeleton.bindLocalSqt[tr.node].translation;
                for (glm::vec3& v : v3) v += shift;
            }
            out.translation = addVec3Channel(dst, times, v3, tr.translation.interpolation);
        }
        if (tr.rotation.count) {
            readQuat(clip, tr.rotation, times, q4);
            out.rotation = addQuatChannel(dst, times, q4, tr.rotation.interpolation);
        }
        if (tr.scale.count) {
            readVec3(clip, tr.scale, times, v3);
            out.scale = addVec3Channel(dst, times, v3, tr.scale.interpolation);
        }
        dst.trackOfNode[target] = static_cast<int32_t>(dst.tracks.size());
        dst.tracks.push_back(out);
    }
    return dst;
}

Clip retargetClip(const Clip& clip, const Skeleton& fromSkeleton, const Skeleton& toSkeleton,
                  std::vector<std::string>* skipped) {
    return retargetClip(clip, buildRetargetMap(fromSkeleton, toSkeleton), fromSkeleton, toSkeleton, skipped);
}

Clip trimClip(const Clip& clip, float start, float end) {
    const float d = std::max(clip.duration, 0.0f);
    start = std::isfinite(start) ? std::clamp(start, 0.0f, d) : 0.0f;
    end = std::isfinite(end) ? std::clamp(end, 0.0f, d) : d;
    if (!(end > start)) end = start;
    const float eps = 1e-6f * std::max(1.0f, end);

    Clip dst = clipHeader(clip);
    dst.startTime = 0.0f;
    dst.duration = end - start;
    // The markers inside the cut, on its timeline.
    dst.markers.clear();
    for (const Marker& m : clip.markers) {
        if (m.time >= start - eps && m.time <= end + eps) dst.markers.push_back({m.name, std::max(0.0f, m.time - start)});
    }
    auto cutTimes = [&](const Clip& src, const Channel& ch, std::vector<float>& times) {
        // Key times of the new channel: 0, the old keys strictly inside, end - start.
        times.clear();
        times.push_back(0.0f);
        for (uint32_t k = 0; k < ch.count; ++k) {
            const float t = src.times[ch.times + k];
            if (t > start + eps && t < end - eps) times.push_back(t - start);
        }
        if (end > start) times.push_back(end - start);
    };
    rebuildTracks(
        clip, dst,
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::vec3>& values) {
            values.clear();
            if (ch.count == 1) {
                times.assign(1, 0.0f);
                values.push_back(clip.vec3Keys[ch.values]);
                return;
            }
            cutTimes(clip, ch, times);
            uint32_t cursor = 0;
            values.push_back(sampleVec3(clip, ch, start, cursor));
            for (uint32_t k = 0; k < ch.count; ++k) {
                const float t = clip.times[ch.times + k];
                if (t > start + eps && t < end - eps) values.push_back(clip.vec3Keys[ch.values + k]);
            }
            if (end > start) values.push_back(sampleVec3(clip, ch, end, cursor));
        },
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::quat>& values) {
            values.clear();
            if (ch.count == 1) {
                times.assign(1, 0.0f);
                values.push_back(clip.quatKeys[ch.values]);
                return;
            }
            cutTimes(clip, ch, times);
            uint32_t cursor = 0;
            values.push_back(sampleQuat(clip, ch, start, cursor, RotationBlend::Slerp));
            for (uint32_t k = 0; k < ch.count; ++k) {
                const float t = clip.times[ch.times + k];
                if (t > start + eps && t < end - eps) values.push_back(clip.quatKeys[ch.values + k]);
            }
            if (end > start) values.push_back(sampleQuat(clip, ch, end, cursor, RotationBlend::Slerp));
        });
    return dst;
}

Clip resampleClip(const Clip& clip, float fps) {
    if (!(fps > 0.0f) || !std::isfinite(fps)) return clip;
    const double t0 = clip.startTime;
    const double t1 = std::max(static_cast<double>(clip.duration), t0);
    // At most a million keys per channel.
    const double span = t1 - t0;
    double rate = fps;
    if (span * rate > 1e6) rate = 1e6 / span;
    std::vector<float> grid;
    const long n = static_cast<long>(std::floor(span * rate + 1e-4));
    for (long k = 0; k <= n; ++k) grid.push_back(static_cast<float>(t0 + static_cast<double>(k) / rate));
    if (grid.back() > t1) grid.back() = static_cast<float>(t1);
    if (grid.back() < static_cast<float>(t1) - 1e-6f * std::max(1.0f, static_cast<float>(t1))) {
        grid.push_back(static_cast<float>(t1));
    }

    Clip dst = clipHeader(clip);
    dst.sampleRate = static_cast<float>(rate);
    rebuildTracks(
        clip, dst,
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::vec3>& values) {
            if (ch.count == 1) {
                readVec3(clip, ch, times, values);
                return;
            }
            times = grid;
            values.clear();
            uint32_t cursor = 0;
            for (float t : grid) values.push_back(sampleVec3(clip, ch, t, cursor));
        },
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::quat>& values) {
            if (ch.count == 1) {
                readQuat(clip, ch, times, values);
                return;
            }
            times = grid;
            values.clear();
            uint32_t cursor = 0;
            for (float t : grid) values.push_back(sampleQuat(clip, ch, t, cursor, RotationBlend::Slerp));
        });
    return dst;
}

}  // namespace rig
