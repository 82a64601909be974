#include "anim/runtime/compressed_sampling_cache.h"

#include <algorithm>
#include <cstddef>

#include "anim/runtime/compressed_sampling_detail.h"

namespace rig {

using namespace compressed_detail;

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
size_t bytesOf(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

}  // namespace

size_t CompressedSamplingCache::byteSize() const {
    size_t n = sizeof(*this) + bytesOf(entries) + bytesOf(deltas) + bytesOf(ranges) + bytesOf(fullVec3) + bytesOf(fullQuat) +
               bytesOf(fullVec3Step) + bytesOf(fullQuatStep) + bytesOf(walked) + bytesOf(constVec3) + bytesOf(constQuat) +
               bytesOf(bindNodes);
    for (int b = 0; b < 2; ++b) n += bytesOf(frameVec3[b]) + bytesOf(frameQuat[b]);
    for (const Lanes* l : {&vec3Lanes, &quatLanes}) n += bytesOf(l->u) + bytesOf(l->f) + bytesOf(l->window);
    return n;
}

}  // namespace rig
