#include "anim/offline/compress_codec.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rig {

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

Clip decodeClip(const CompressedClip& c, size_t skeletonSize) {
    Clip out;
    out.name = c.name;
    out.duration = c.duration;
    out.startTime = c.startTime;
    out.sampleRate = c.sampleRate;
    out.trackOfNode.assign(skeletonSize, -1);
    std::vector<float> times;
    const std::vector<std::array<ChannelRef, 3>> index = channelIndex(c);
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
                    out.quatKeys.push_back(ref.kind == ChannelKind::CodedConstant ? decodeConstQuat(c, ref.index) : c.constQuat[ref.index]);
                } else {
                    o.values = static_cast<uint32_t>(out.vec3Keys.size());
                    out.vec3Keys.push_back(c.constVec3[ref.index]);
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

// Every distinct key time of the clip's node tracks, ascending.
std::vector<float> keyTimeTable(const Clip& clip) {
    std::vector<float> table;
    for (const Track& t : clip.tracks) {
        for (const Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
            table.insert(table.end(), clip.times.begin() + ch->times, clip.times.begin() + ch->times + ch->count);
        }
    }
    std::sort(table.begin(), table.end());
    table.erase(std::unique(table.begin(), table.end()), table.end());
    return table;
}

}  // namespace rig
