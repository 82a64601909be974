#include "anim/runtime/compressed_clip.h"

#include <cstring>

#include "anim/runtime/compressed_sampling_detail.h"

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

namespace compressed_detail {

void deltaSeekBlock(const uint8_t* stream, const KeyedChannel& ch, uint32_t indexBits, uint32_t b, DeltaCursor& c) {
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

}  // namespace compressed_detail

void deltaKeyCodes(const uint8_t* stream, const KeyedChannel& ch, uint32_t k, uint16_t q[3], uint32_t* largest) {
    DeltaCursor c;
    using compressed_detail::deltaMoveTo;
    deltaMoveTo(stream, ch, largest ? 2u : 0u, k, c);
    std::memcpy(q, c.codes, sizeof c.codes);
    if (largest) *largest = c.largest;
}

}  // namespace rig
