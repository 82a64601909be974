#include "anim/offline/compress.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include "anim/offline/compress_codec.h"
#include "anim/offline/compress_error.h"
#include "anim/runtime/compressed_sampling_cache.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"

namespace rig {

namespace {

// What a local error of joint j costs in model space (see compress.h).
struct JointMetric {
    float distance = 0.0f;     // farthest point j carries, at least tipDistance
    float parentScale = 1.0f;  // largest axis scale of the parent's bind-pose to-root matrix
    float chain = 1.0f;        // animated joints on the deepest chain through j
};

float maxAxisScale(const glm::mat4& m) {
    const float s = std::max({glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2]))});
    return std::isfinite(s) && s > 0.0f ? s : 1.0f;
}

std::vector<JointMetric> jointMetrics(const Model& model, const Clip& clip, float tipDistance) {
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    const std::vector<glm::mat4>& bm = sk.bindPoseModel();
    std::vector<JointMetric> m(n);
    std::vector<glm::vec3> origin(n);
    for (size_t i = 0; i < n; ++i) origin[i] = glm::vec3(bm[i][3]);
    auto reach = [&](int32_t node, const glm::vec3& p) {
        for (int32_t a = node; a >= 0; a = sk.parent[a]) {
            const float d = glm::length(p - origin[a]);
            if (std::isfinite(d)) m[a].distance = std::max(m[a].distance, d);
        }
    };
    for (size_t i = 0; i < n; ++i) reach(static_cast<int32_t>(i), origin[i]);
    for (const Mesh& mesh : model.meshes) {
        if (mesh.node < 0 || static_cast<size_t>(mesh.node) >= n) continue;
        const glm::mat4& w = bm[mesh.node];
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            const glm::vec3 p(w * glm::vec4(mesh.positions[v], 1.0f));
            if (!mesh.skinned || v >= mesh.weights.size()) {
                reach(mesh.node, p);
                continue;
            }
            bool any = false;
            for (int k = 0; k < kMaxInfluences; ++k) {
                if (!(mesh.weights[v][k] > 0.0f) || mesh.joints[v][k] >= mesh.skin.joints.size()) continue;
                reach(mesh.skin.joints[mesh.joints[v][k]], p);
                any = true;
            }
            if (!any) reach(mesh.node, p);
        }
    }
    std::vector<uint8_t> tracked(n, 0);  // the clip's tracks (their nodes checked by the callers)
    for (const Track& t : clip.tracks) tracked[t.node] = 1;
    std::vector<float> depth(n, 0.0f);
    for (size_t i = 0; i < n; ++i) {
        const bool animated = tracked[i] != 0;
        depth[i] = (sk.parent[i] >= 0 ? depth[sk.parent[i]] : 0.0f) + (animated ? 1.0f : 0.0f);
        m[i].chain = std::max(depth[i], 1.0f);
        m[i].distance = std::max(m[i].distance, tipDistance);
        m[i].parentScale = sk.parent[i] >= 0 ? maxAxisScale(bm[sk.parent[i]]) : 1.0f;
    }
    for (size_t i = n; i-- > 0;) {
        if (sk.parent[i] >= 0) m[sk.parent[i]].chain = std::max(m[sk.parent[i]].chain, m[i].chain);
    }
    return m;
}

uint32_t largestComponent(const glm::quat& q) {
    const float v[4] = {q.x, q.y, q.z, q.w};
    uint32_t largest = 0;
    for (uint32_t c = 1; c < 4; ++c) {
        if (std::fabs(v[c]) > std::fabs(v[largest])) largest = c;
    }
    return largest;
}

enum class Kind { Translation, Rotation, Scale };

// One channel's keys: original values, what the runtime will see (dequantized), the codes.
struct ChannelKeys {
    Kind kind = Kind::Translation;
    int32_t node = -1;
    Interpolation interpolation = Interpolation::Linear;
    uint32_t timesRun = 0;            // the channel's run in Clip::times (shared within a track)
    std::vector<float> times;
    std::vector<glm::vec4> original;  // vec3 in xyz, or quaternion (x, y, z, w)
    std::vector<glm::vec4> decoded;
    std::vector<uint16_t> codes;      // 3 per key
    std::vector<uint8_t> largest;     // rotations: per key
    uint32_t bits = kMaxKeyBits;      // the precision level: the widest code's width
    uint32_t widths[3] = {kMaxKeyBits, kMaxKeyBits, kMaxKeyBits};  // per code position
    int32_t fixedLargest = -1;        // rotations: the component every key drops, or -1
    glm::vec3 vmin{0.0f}, vscale{0.0f};  // translation / scale range
    QuatChannel qchannel;             // rotation: the range's 16-bit ends (and bits)
    QuatRange qrange;                 // rotation: the range as the runtime decodes it
    glm::vec4 lo{0.0f}, hi{0.0f};     // per component extents the ranges span
};

glm::quat asQuat(const glm::vec4& v) { return glm::quat(v.w, v.x, v.y, v.z); }
glm::vec4 asVec4(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

// Quantize the channel's keys at precision level `bits`: the component with the widest range
// gets `bits` bits, each other one the fewest at which its step is no coarser (a rotation that
// drops different components in different keys: `bits` for all three). At the finest level
// every code takes 16 bits over its own range (the fallback that keeps every key uses it).
// `coarser`: half-bit steps coarser than that (the measured refinement's lever).
void quantizeChannel(ChannelKeys& k, uint32_t bits, uint32_t coarser = 0) {
    const size_t n = k.original.size();
    k.codes.resize(3 * n);
    k.decoded.resize(n);
    k.bits = bits;
    const bool rot = k.kind == Kind::Rotation;
    float extent[3];
    for (int i = 0; i < 3; ++i) {
        const int c = rot ? (k.fixedLargest >= 0 ? kKeptComponents[k.fixedLargest][i] : -1) : i;
        extent[i] = c < 0 ? 0.0f
                    : rot ? static_cast<float>(k.qchannel.hi[c] - k.qchannel.lo[c]) * kRangeStep
                          : k.hi[c] - k.lo[c];
    }
    const float widest = std::max({extent[0], extent[1], extent[2]});
    const float step = widest / static_cast<float>((1u << bits) - 1u) * std::exp2(0.5f * static_cast<float>(coarser));
    for (int i = 0; i < 3; ++i) {
        uint32_t w = 1;
        while (w < bits && static_cast<float>((1u << w) - 1u) * step < extent[i]) ++w;
        k.widths[i] = w;
    }
    if (bits == kMaxKeyBits && coarser == 0) {  // the finest: every code at full width
        k.widths[0] = k.widths[1] = k.widths[2] = kMaxKeyBits;
    } else if (rot && k.fixedLargest < 0) {  // one width for all three, a bit less per two half-bit steps
        const uint32_t w = bits > coarser / 2 + 1 ? bits - coarser / 2 : 1u;
        k.widths[0] = k.widths[1] = k.widths[2] = w;
    }
    if (rot) {
        k.qchannel.key.setWidths(k.widths);
        k.qchannel.key.flags = 0;
        if (k.fixedLargest >= 0) k.qchannel.key.setFixedLargest(static_cast<uint32_t>(k.fixedLargest));
        k.qrange = quatRange(k.qchannel);
        for (size_t i = 0; i < n; ++i) {
            k.largest[i] = static_cast<uint8_t>(encodeSmallestThree(asQuat(k.original[i]), k.qrange, &k.codes[3 * i]));
            k.decoded[i] = asVec4(decodeSmallestThree(&k.codes[3 * i], k.largest[i], k.qrange));
        }
    } else {
        for (int c = 0; c < 3; ++c) k.vscale[c] = (k.hi[c] - k.lo[c]) / static_cast<float>((1u << k.widths[c]) - 1u);
        for (size_t i = 0; i < n; ++i) {
            for (int c = 0; c < 3; ++c) {
                k.codes[3 * i + c] = quantize(k.original[i][c], k.vmin[c], k.vscale[c], (1u << k.widths[c]) - 1u);
                k.decoded[i][c] = dequantize(k.codes[3 * i + c], k.vmin[c], k.vscale[c]);
            }
        }
    }
}

ChannelKeys gatherChannel(const Clip& clip, const Channel& ch, Kind kind, int32_t node, bool quantizeValues) {
    ChannelKeys k;
    k.kind = kind;
    k.node = node;
    k.interpolation = ch.interpolation;
    k.timesRun = ch.times;
    k.times.assign(clip.times.begin() + ch.times, clip.times.begin() + ch.times + ch.count);
    k.original.resize(ch.count);
    for (uint32_t i = 0; i < ch.count; ++i) {
        k.original[i] = kind == Kind::Rotation ? asVec4(clip.quatKeys[ch.values + i]) : glm::vec4(clip.vec3Keys[ch.values + i], 0.0f);
    }
    if (!quantizeValues) {
        k.decoded = k.original;
        return k;
    }
    if (kind == Kind::Rotation) {
        glm::vec4 lo(1.0f), hi(-1.0f);
        k.largest.resize(ch.count);
        for (uint32_t i = 0; i < ch.count; ++i) {
            const glm::quat q = asQuat(k.original[i]);
            const uint32_t l = largestComponent(q);
            const glm::vec4 raw = asVec4(q);
            const glm::vec4 v = raw * (raw[l] < 0.0f ? -1.0f : 1.0f);
            for (uint32_t c = 0; c < 4; ++c) {
                if (c == l) continue;
                lo[c] = std::min(lo[c], std::max(v[c], -kQuatSmallestMax));
                hi[c] = std::max(hi[c], std::min(v[c], kQuatSmallestMax));
            }
        }
        // The ends as 16-bit fixed point, widened outwards (the runtime decodes the range from them).
        for (uint32_t c = 0; c < 4; ++c) {
            if (hi[c] < lo[c]) lo[c] = hi[c] = 0.0f;  // never stored
            const float a = std::floor((lo[c] + kQuatSmallestMax) / kRangeStep);
            const float b = std::ceil((hi[c] + kQuatSmallestMax) / kRangeStep);
            k.qchannel.lo[c] = static_cast<uint16_t>(std::clamp(a, 0.0f, 65535.0f));
            k.qchannel.hi[c] = static_cast<uint16_t>(std::clamp(b, static_cast<float>(k.qchannel.lo[c]), 65535.0f));
        }
        k.lo = lo;
        k.hi = hi;
        k.fixedLargest = static_cast<int32_t>(largestComponent(asQuat(k.original[0])));
        for (uint32_t i = 1; i < ch.count && k.fixedLargest >= 0; ++i) {
            if (largestComponent(asQuat(k.original[i])) != static_cast<uint32_t>(k.fixedLargest)) k.fixedLargest = -1;
        }
    } else {
        glm::vec3 lo(k.original[0]), hi(k.original[0]);
        for (const glm::vec4& v : k.original) {
            lo = glm::min(lo, glm::vec3(v));
            hi = glm::max(hi, glm::vec3(v));
        }
        k.vmin = lo;
        k.lo = glm::vec4(lo, 0.0f);
        k.hi = glm::vec4(hi, 0.0f);
    }
    quantizeChannel(k, kMaxKeyBits);
    return k;
}

// Model-space displacement of replacing `want` by `got` on this channel's joint.
float displacement(const ChannelKeys& k, const JointMetric& m, const glm::vec4& got, const glm::vec4& want) {
    switch (k.kind) {
        case Kind::Translation: return glm::length(glm::vec3(got - want)) * m.parentScale;
        case Kind::Scale: {
            const glm::vec3 w = glm::abs(glm::vec3(want));
            const float s = std::max(std::min({w.x, w.y, w.z}), 1e-6f);
            return glm::length(glm::vec3(got - want)) / s * m.distance * m.parentScale;
        }
        case Kind::Rotation: {
            const float d = glm::dot(got, want);
            const glm::vec4 diff = d < 0.0f ? got + want : got - want;
            return 2.0f * glm::length(diff) * m.distance * m.parentScale;
        }
    }
    return 0.0f;
}

glm::vec4 interpolate(const ChannelKeys& k, size_t a, size_t b, float t) {
    const float span = k.times[b] - k.times[a];
    float alpha = span > 0.0f ? (t - k.times[a]) / span : 0.0f;
    alpha = alpha < 0.0f ? 0.0f : alpha > 1.0f ? 1.0f : alpha;
    if (k.kind == Kind::Rotation) return asVec4(slerpShortest(asQuat(k.decoded[a]), asQuat(k.decoded[b]), alpha));
    return k.decoded[a] + (k.decoded[b] - k.decoded[a]) * alpha;
}

bool sameCodes(const ChannelKeys& k, size_t a, size_t b) {
    if (k.codes.empty()) return k.original[a] == k.original[b];
    if (!k.largest.empty() && k.largest[a] != k.largest[b]) return false;
    return std::equal(k.codes.begin() + 3 * a, k.codes.begin() + 3 * a + 3, k.codes.begin() + 3 * b);
}

// The fewest bits per component (kMinKeyBits..kMaxKeyBits) at which quantizing every key of
// the channel moves no point its joint carries by more than `budget`; the channel is left
// quantized at that width. A budget of 0: the widest.
uint32_t chooseBits(ChannelKeys& k, const JointMetric& m, float budget) {
    if (budget > 0.0f) {
        for (uint32_t bits = kMinKeyBits; bits < kMaxKeyBits; ++bits) {
            quantizeChannel(k, bits);
            float worst = 0.0f;
            for (size_t i = 0; i < k.original.size() && worst <= budget; ++i) {
                worst = std::max(worst, displacement(k, m, k.decoded[i], k.original[i]));
            }
            if (worst <= budget) return bits;
        }
    }
    quantizeChannel(k, kMaxKeyBits);
    return kMaxKeyBits;
}

// The longest run of keys key reduction searches at once (see reduceChannel).
constexpr size_t kReduceSpan = 1024;

// Which keys stay, for a budget `tol` (model units) on this channel.
std::vector<uint8_t> reduceChannel(const ChannelKeys& k, const JointMetric& m, float tol) {
    const size_t n = k.times.size();
    std::vector<uint8_t> keep(n, 1);
    if (n <= 1) return keep;
    // A channel holding one value: one key.
    bool constant = true;
    for (size_t i = 1; i < n && constant; ++i) {
        constant = tol > 0.0f ? displacement(k, m, k.decoded[0], k.original[i]) <= tol : sameCodes(k, 0, i);
    }
    if (constant) {
        std::fill(keep.begin() + 1, keep.end(), 0);
        return keep;
    }
    if (tol <= 0.0f || k.interpolation == Interpolation::Step) {
        // Lossless: drop keys inside runs of equal values (what they hold, their neighbours hold).
        for (size_t i = 1; i + 1 < n; ++i) keep[i] = !(sameCodes(k, i - 1, i) && sameCodes(k, i, i + 1));
        return keep;
    }
    std::fill(keep.begin(), keep.end(), 0);
    keep[0] = keep[n - 1] = 1;
    // Keys at a repeated time make a jump: both stay.
    for (size_t i = 1; i < n; ++i) {
        if (!(k.times[i] > k.times[i - 1])) keep[i - 1] = keep[i] = 1;
    }
    // Ramer-Douglas-Peucker over the keys, with an explicit stack. A split can peel one period
    // off a periodic channel at a time (a long mocap take), which makes RDP quadratic: the
    // channel is cut into spans of at most kReduceSpan keys first, each span's ends kept, so
    // the work stays bounded (n * kReduceSpan displacements at worst) whatever the motion.
    for (size_t i = kReduceSpan; i < n; i += kReduceSpan) keep[i] = 1;
    std::vector<std::pair<size_t, size_t>> stack;
    size_t prev = 0;
    for (size_t i = 1; i < n; ++i) {
        if (keep[i]) {
            stack.emplace_back(prev, i);
            prev = i;
        }
    }
    while (!stack.empty()) {
        const auto [a, b] = stack.back();
        stack.pop_back();
        if (b - a < 2) continue;
        float worst = -1.0f;
        size_t at = a;
        for (size_t i = a + 1; i < b; ++i) {
            const float e = displacement(k, m, interpolate(k, a, b, k.times[i]), k.original[i]);
            if (e > worst) {
                worst = e;
                at = i;
            }
        }
        if (worst > tol) {
            keep[at] = 1;
            stack.emplace_back(a, at);
            stack.emplace_back(at, b);
        }
    }
    return keep;
}

struct ClipKeys {
    std::vector<ChannelKeys> channels;  // per track: T, R, S where present
    std::vector<std::array<int32_t, 3>> channelOf;  // per track: index into channels or -1
};

ClipKeys gatherClip(const Clip& clip, bool quantizeValues) {
    ClipKeys ck;
    for (const Track& tr : clip.tracks) {
        std::array<int32_t, 3> idx{-1, -1, -1};
        const Channel* chs[3] = {&tr.translation, &tr.rotation, &tr.scale};
        const Kind kinds[3] = {Kind::Translation, Kind::Rotation, Kind::Scale};
        for (int c = 0; c < 3; ++c) {
            if (!chs[c]->count) continue;
            idx[c] = static_cast<int32_t>(ck.channels.size());
            ck.channels.push_back(gatherChannel(clip, *chs[c], kinds[c], tr.node, quantizeValues));
        }
        ck.channelOf.push_back(idx);
    }
    return ck;
}

// The bits of the time-table index (the fewest that count `entries` times, at least 1).
uint32_t frameWidthFor(size_t entries) {
    uint32_t w = 1;
    while (w < 16 && entries > (size_t(1) << w)) ++w;
    return w;
}

// Append a channel's kept codes (3 a key) as delta blocks (compressed_clip.h, DeltaLayout) and
// mark `key` delta-coded, if that takes fewer bits than plain codes; else append nothing.
bool appendDeltaBlocks(std::vector<uint8_t>& stream, uint64_t& used, KeyedChannel& key, const std::vector<uint16_t>& codes,
                       const std::vector<uint8_t>* largest) {
    const uint32_t n = key.count, indexBits = largest ? 2u : 0u;
    const DeltaLayout l = deltaLayout(key, indexBits);
    struct Block {
        int32_t dmin[3] = {0, 0, 0};
        uint32_t width[3] = {0, 0, 0};
        uint64_t offset = 0;  // of its differences, from the end of the headers
    };
    std::vector<Block> blocks(l.blocks);
    uint64_t dataBits = 0;
    auto delta = [&](uint32_t j, int i) { return int32_t(codes[3 * j + i]) - int32_t(codes[3 * (j - 1) + i]); };
    for (uint32_t b = 0; b < l.blocks; ++b) {
        Block& blk = blocks[b];
        const uint32_t first = b * kDeltaBlock, end = std::min(n, first + kDeltaBlock);
        for (int i = 0; i < 3; ++i) {
            if (end - first < 2) continue;
            int32_t lo = delta(first + 1, i), hi = lo;
            for (uint32_t j = first + 2; j < end; ++j) {
                lo = std::min(lo, delta(j, i));
                hi = std::max(hi, delta(j, i));
            }
            blk.dmin[i] = lo;
            blk.width[i] = bitsToCount(static_cast<uint64_t>(hi - lo));
        }
        blk.offset = dataBits;
        dataBits += uint64_t(end - first - 1) * (blk.width[0] + blk.width[1] + blk.width[2] + indexBits);
    }
    if (uint64_t(l.blocks) * l.headerBits + dataBits >= uint64_t(n) * (key.codeBits() + indexBits)) return false;
    key.flags |= kChannelDelta;
    for (uint32_t b = 0; b < l.blocks; ++b) {
        const Block& blk = blocks[b];
        appendBits(stream, used, static_cast<uint32_t>(blk.offset), l.offsetBits);
        for (int i = 0; i < 3; ++i) appendBits(stream, used, codes[3 * b * kDeltaBlock + i], key.width(i));
        if (largest) appendBits(stream, used, (*largest)[b * kDeltaBlock], 2);
        for (int i = 0; i < 3; ++i) {
            const uint32_t w = key.width(i);
            appendBits(stream, used, static_cast<uint32_t>(blk.dmin[i] + static_cast<int32_t>((1u << w) - 1u)), w + 1);
        }
        for (int i = 0; i < 3; ++i) appendBits(stream, used, blk.width[i], kDeltaWidthBits);
    }
    for (uint32_t b = 0; b < l.blocks; ++b) {
        const Block& blk = blocks[b];
        const uint32_t first = b * kDeltaBlock, end = std::min(n, first + kDeltaBlock);
        for (uint32_t j = first + 1; j < end; ++j) {
            for (int i = 0; i < 3; ++i) appendBits(stream, used, static_cast<uint32_t>(delta(j, i) - blk.dmin[i]), blk.width[i]);
            if (largest) appendBits(stream, used, (*largest)[j], 2);
        }
    }
    return true;
}

// shares: per channel, the budget a constant rotation's 16-bit rounding may use (0: floats).
// absent: per channel, 1 where it holds its bind value throughout (stored as absent).
// deltaCoding: try delta blocks for every keyed channel (else plain codes only).
CompressedClip assemble(const Clip& clip, const ClipKeys& ck, const std::vector<float>& table,
                        const std::vector<std::vector<uint8_t>>& keep, const std::vector<float>& shares,
                        const std::vector<JointMetric>& metrics, const std::vector<uint8_t>& absent,
                        bool deltaCoding) {
    CompressedClip out;
    out.name = clip.name;
    out.duration = clip.duration;
    out.startTime = clip.startTime;
    out.sampleRate = clip.sampleRate;
    out.frameTimes = table;
    out.frameWidth = frameWidthFor(table.size());
    std::vector<uint16_t> keyFrames;
    uint64_t vec3Used = 0, quatUsed = 0;
    auto frameOf = [&](float t) {
        return static_cast<uint16_t>(std::lower_bound(table.begin(), table.end(), t) - table.begin());
    };
    std::array<std::vector<uint16_t>, 3> runs;
    std::vector<uint16_t> keptCodes;
    std::vector<uint8_t> keptLargest;
    for (size_t ti = 0; ti < clip.tracks.size(); ++ti) {
        CompressedTrack ct;
        ct.node = static_cast<uint16_t>(clip.tracks[ti].node);
        KeyedChannel keyed[3];  // this track's keyed channels, for sharing their key times
        for (int c = 0; c < 3; ++c) {
            runs[c].clear();
            const int32_t ci = ck.channelOf[ti][c];
            if (ci < 0 || absent[ci]) continue;  // absent: the bind value
            const ChannelKeys& k = ck.channels[ci];
            const bool rot = k.kind == Kind::Rotation;
            size_t kept = 0;
            for (uint8_t x : keep[ci]) kept += x;
            if (kept == 1) {
                if (rot) {
                    // 16-bit smallest three where that rounding fits the channel's share
                    // (against every original key), else full floats.
                    uint16_t codes[3];
                    const QuatRange full = fullQuatRange();
                    const uint32_t largest = encodeSmallestThree(asQuat(k.original[0]), full, codes);
                    const glm::vec4 coded = asVec4(decodeSmallestThree(codes, largest, full));
                    bool fits = shares[ci] > 0.0f;
                    for (size_t i = 0; i < k.original.size() && fits; ++i) {
                        fits = displacement(k, metrics[k.node], coded, k.original[i]) <= shares[ci];
                    }
                    if (fits) {
                        ct.setKind(c, ChannelKind::CodedConstant);
                        out.constQuatCodes.insert(out.constQuatCodes.end(), {codes[0], codes[1], codes[2], static_cast<uint16_t>(largest)});
                    } else {
                        ct.setKind(c, ChannelKind::Constant);
                        out.constQuat.push_back(asQuat(k.original[0]));
                    }
                } else {
                    ct.setKind(c, ChannelKind::Constant);
                    out.constVec3.push_back(glm::vec3(k.original[0]));
                }
                continue;
            }
            ct.setKind(c, ChannelKind::Keyed);
            KeyedChannel& key = keyed[c];
            key.count = static_cast<uint16_t>(kept);
            key.setWidths(k.widths);
            key.flags = k.interpolation == Interpolation::Step ? kChannelStep : 0;
            key.offset = static_cast<uint32_t>(rot ? quatUsed : vec3Used);
            bool fixed = true;  // a rotation whose every key drops the same component; always for a vec3
            int32_t largest = -1;
            for (size_t i = 0; i < k.times.size() && fixed && rot; ++i) {
                if (!keep[ci][i]) continue;
                if (largest < 0) largest = k.largest[i];
                fixed = k.largest[i] == largest;
            }
            if (rot && fixed) key.setFixedLargest(static_cast<uint32_t>(largest));
            std::vector<uint8_t>& stream = rot ? out.quatBits : out.vec3Bits;
            uint64_t& used = rot ? quatUsed : vec3Used;
            std::vector<uint16_t>& run = runs[c];
            keptCodes.clear();
            keptLargest.clear();
            for (size_t i = 0; i < k.times.size(); ++i) {
                if (!keep[ci][i]) continue;
                run.push_back(frameOf(k.times[i]));
                keptCodes.insert(keptCodes.end(), {k.codes[3 * i], k.codes[3 * i + 1], k.codes[3 * i + 2]});
                if (rot && !fixed) keptLargest.push_back(k.largest[i]);
            }
            // Differences in blocks where that is smaller.
            if (!deltaCoding || !appendDeltaBlocks(stream, used, key, keptCodes, rot && !fixed ? &keptLargest : nullptr)) {
                size_t j = 0;
                for (size_t i = 0; i < k.times.size(); ++i) {
                    if (!keep[ci][i]) continue;
                    for (int x = 0; x < 3; ++x) appendBits(stream, used, keptCodes[3 * j + x], k.widths[x]);
                    if (rot && !fixed) appendBits(stream, used, k.largest[i], 2);
                    ++j;
                }
            }
            // Key times: those of the track's translation or rotation when the same (one key
            // search at run time), else consecutive times of the table (only the first
            // stored), else a run of indices.
            bool dense = true;
            for (size_t i = 1; i < run.size() && dense; ++i) dense = run[i] == run[0] + i;
            for (int p = 0; p < c; ++p) {
                if (ct.kind(p) == ChannelKind::Keyed && runs[p] == run) {
                    key.flags |= (p == 0 ? kFramesOfT : kFramesOfR) | (keyed[p].flags & kChannelDense);
                    key.frames = keyed[p].frames;
                    break;
                }
            }
            if (!(key.flags & (kFramesOfT | kFramesOfR))) {
                if (dense) {
                    key.flags |= kChannelDense;
                    key.frames = run[0];
                } else {
                    key.frames = static_cast<uint32_t>(keyFrames.size());
                    keyFrames.insert(keyFrames.end(), run.begin(), run.end());
                }
            }
            if (rot) {
                QuatChannel q = k.qchannel;
                q.key = key;
                out.quatChannels.push_back(q);
            } else {
                out.vec3Channels.push_back({key, k.vmin, k.vscale});
            }
        }
        // A track whose every channel holds its bind value is left out: sampling leaves its
        // node as the caller set it, the bind pose, as for any node the clip does not animate.
        if (ct.kinds) out.tracks.push_back(ct);
    }
    out.frameCount = static_cast<uint32_t>(table.size());
    if (out.vec3Channels.empty() && out.quatChannels.empty()) {  // no key names a time
        out.frameTimes.clear();
        out.frameCount = 0;
    } else if (table.size() > 2) {
        // Times at a steady rate (as most files sample their clips) as a first time and a step,
        // where that formula gives every time of the table exactly.
        out.frameStart = table[0];
        // Candidates: the clip's rate, the mean step, and the first step as the file gave it
        // (BVH: a float frame time, e.g. 0.01f, whose key times are multiples of it).
        for (double step : {clip.sampleRate > 0.0f ? 1.0 / double(clip.sampleRate) : 0.0,
                            (double(table.back()) - double(table[0])) / double(table.size() - 1),
                            double(table[1]) - double(table[0])}) {
            out.frameStep = step;
            bool uniform = step > 0.0;
            for (size_t i = 0; i < table.size() && uniform; ++i) {
                uniform = static_cast<float>(double(out.frameStart) + double(i) * step) == table[i];
            }
            if (uniform) {
                out.frameTimes.clear();
                break;
            }
        }
    }
    uint64_t frameUsed = 0;
    for (uint16_t f : keyFrames) appendBits(out.frameBits, frameUsed, f, out.frameWidth);
    // Padding: the runtime reads 64 bits at a time.
    for (std::vector<uint8_t>* stream : {&out.frameBits, &out.vec3Bits, &out.quatBits}) {
        if (!stream->empty()) stream->resize(stream->size() + 8, 0);
    }
    return out;
}


}  // namespace

size_t clipByteSize(const Clip& clip) {
    return clip.times.size() * sizeof(float) + clip.vec3Keys.size() * sizeof(glm::vec3) +
           clip.quatKeys.size() * sizeof(glm::quat) + clip.tracks.size() * sizeof(Track);
}

size_t clipKeyCount(const Clip& clip) {
    size_t n = 0;
    for (const Track& t : clip.tracks) n += t.translation.count + t.rotation.count + t.scale.count;
    return n;
}

Result<CompressionResult> compressClip(const Model& model, const Clip& clip, const CompressSettings& settings) {
    if (!(settings.tolerance >= 0.0f) || !std::isfinite(settings.tolerance)) {
        return Error{"tolerance must be a finite number >= 0"};
    }
    const size_t n = model.skeleton.size();
    for (const Track& t : clip.tracks) {
        if (t.node < 0 || static_cast<size_t>(t.node) >= n) {
            return Error{"clip '" + clip.name + "': a track names no node of the skeleton"};
        }
    }
    // Tracks name their node in 16 bits and count their keys in 16 bits.
    if (n > 65536) return Error{"the skeleton has " + std::to_string(n) + " nodes; compression stores at most 65536"};
    for (const Track& t : clip.tracks) {
        for (const Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
            if (ch->count > 65535) {
                return Error{"clip '" + clip.name + "': a channel has " + std::to_string(ch->count) +
                             " keys; compression stores at most 65535 a channel"};
            }
        }
    }
    const std::vector<float> table = keyTimeTable(clip);
    if (table.size() > 65536) {
        return Error{"clip '" + clip.name + "' has " + std::to_string(table.size()) +
                     " distinct key times; compression stores at most 65536"};
    }
    // Bit offsets into the key streams are 32-bit: at most 50 bits a key.
    if (clipKeyCount(clip) > UINT32_MAX / 50) {
        return Error{"clip '" + clip.name + "' has " + std::to_string(clipKeyCount(clip)) +
                     " keys; compression stores at most " + std::to_string(UINT32_MAX / 50)};
    }
    const std::vector<JointMetric> metrics = jointMetrics(model, clip, settings.tipDistance);
    const ClipKeys ck = gatherClip(clip, true);
    const ErrorReference reference = makeErrorReference(model, clip, settings);

    CompressionResult r;
    r.originalBytes = clipByteSize(clip);
    r.originalKeys = clipKeyCount(clip);
    const float tol = settings.tolerance;
    // The shares are a guess (see compress.h): widened while the measured error stays within
    // the tolerance (doubling up to 16x, then two bisection steps), narrowed while it does not
    // (down to 1/64x), then every key. Then the measured refinement below (the shares are a
    // bound; the errors of different joints seldom add up to it).
    const std::vector<Transform>& bindLocal = model.skeleton.bindLocalSqt;
    const uint32_t frameWidth = frameWidthFor(table.size());
    struct Try {
        CompressionResult result;
        float factor = 1.0f, qshare = 0.5f;
        std::vector<uint8_t> lower;  // per channel: half-bit steps coarser than its share gives
        std::vector<uint8_t> bits;   // per channel: its width, 0 where it is not keyed
        bool fits = false;
    };
    auto attempt = [&](float factor, float qshare, bool keepAll, const std::vector<uint8_t>& lower) {
        Try t;
        t.factor = factor;
        t.qshare = qshare;
        t.lower = lower;
        const size_t nc = ck.channels.size();
        std::vector<std::vector<uint8_t>> keep(nc);
        std::vector<float> shares(nc, 0.0f);
        std::vector<uint8_t> absent(nc, 0);
        ClipKeys q = ck;  // quantized at the widths this attempt picks
        for (size_t c = 0; c < nc; ++c) {
            ChannelKeys& k = q.channels[c];
            const JointMetric& m = metrics[k.node];
            const float share = tol > 0.0f ? tol * factor / std::sqrt(m.chain) : 0.0f;
            // A channel that holds its bind value throughout (within its share; exactly at
            // tolerance 0) is left out: the sampler gives the bind value.
            const Transform& bind = bindLocal[k.node];
            const glm::vec4 bindValue = k.kind == Kind::Rotation      ? asVec4(bind.rotation)
                                        : k.kind == Kind::Translation ? glm::vec4(bind.translation, 0.0f)
                                                                      : glm::vec4(bind.scale, 0.0f);
            bool atBind = true;
            for (size_t i = 0; i < k.original.size() && atBind; ++i) {
                atBind = displacement(k, m, bindValue, k.original[i]) <= (keepAll ? 0.0f : share);
            }
            if (atBind) {
                absent[c] = 1;
                keep[c] = std::vector<uint8_t>(k.times.size(), 0);
                continue;
            }
            if (keepAll) {
                keep[c] = std::vector<uint8_t>(k.times.size(), 1);
                continue;
            }
            shares[c] = share;
            // Part of the share goes to quantization (the fewest bits that fit it), the rest
            // to key reduction, which compares against the dequantized keys (so it sees both).
            const uint32_t bits = chooseBits(k, m, qshare * share);
            if (!lower.empty() && lower[c]) quantizeChannel(k, bits, lower[c]);
            keep[c] = reduceChannel(k, m, share);
        }
        // Channels of a track that share their key times keep the union of their keys, so
        // they keep sharing one run of times (one key search at run time, one time index per
        // key in the file); constants stay constants. Then a run whose dropped keys save fewer
        // bits than its time indices cost keeps every key (a dense run stores no indices).
        for (const std::array<int32_t, 3>& idx : ck.channelOf) {
            auto keptOf = [&](int32_t c) { return static_cast<size_t>(std::count(keep[c].begin(), keep[c].end(), 1)); };
            auto sameTimes = [&](int32_t a, int32_t b) {
                return a >= 0 && b >= 0 && !absent[a] && !absent[b] && q.channels[a].timesRun == q.channels[b].timesRun &&
                       q.channels[a].times.size() == q.channels[b].times.size() && keptOf(a) > 1 && keptOf(b) > 1;
            };
            for (int x = 0; x < 3; ++x) {
                for (int y = x + 1; y < 3; ++y) {
                    const int32_t a = idx[x], b = idx[y];
                    if (!sameTimes(a, b)) continue;
                    for (size_t i = 0; i < keep[a].size(); ++i) keep[a][i] = keep[b][i] = keep[a][i] | keep[b][i];
                }
            }
            for (int x = 0; x < 3; ++x) {
                const int32_t a = idx[x];
                if (a < 0 || absent[a] || keptOf(a) <= 1) continue;
                bool lead = true;  // the group's first channel decides for it
                for (int y = 0; y < x && lead; ++y) lead = !sameTimes(idx[y], a);
                if (!lead) continue;
                size_t keyBits = 0;
                std::vector<int32_t> group;
                for (int y = x; y < 3; ++y) {
                    if (y != x && !sameTimes(a, idx[y])) continue;
                    const ChannelKeys& k = q.channels[idx[y]];
                    keyBits += k.widths[0] + k.widths[1] + k.widths[2] + (k.kind == Kind::Rotation && k.fixedLargest < 0 ? 2 : 0);
                    group.push_back(idx[y]);
                }
                const size_t n = keep[a].size(), kept = keptOf(a);
                if (kept < n && n * keyBits <= kept * (keyBits + frameWidth)) {
                    for (int32_t g : group) std::fill(keep[g].begin(), keep[g].end(), 1);
                }
            }
        }
        t.bits.assign(nc, 0);
        for (size_t c = 0; c < nc; ++c) {
            if (!absent[c] && std::count(keep[c].begin(), keep[c].end(), 1) > 1) t.bits[c] = static_cast<uint8_t>(q.channels[c].bits);
        }
        t.result.clip = assemble(clip, q, table, keep, shares, metrics, absent, settings.deltaCoding);
        // Over the tolerance (when there is one) ends the measurement: that attempt is out.
        t.result.error = measureAgainst(model, clip, reference, t.result.clip,
                                        tol > 0.0f && !keepAll ? double(tol) : std::numeric_limits<double>::infinity());
        t.fits = tol <= 0.0f || t.result.error.max() <= tol;
        ++r.passes;
        return t;
    };
    auto smaller = [](const Try& a, const Try& b) { return a.result.clip.byteSize() < b.result.clip.byteSize(); };
    const std::vector<uint8_t> none;
    // One search of the share factor for the quantization share `qshare`: the smallest clip
    // within the tolerance, or one that does not fit.
    auto search = [&](float qshare) {
        Try best = attempt(1.0f, qshare, false, none);
        if (best.fits && tol > 0.0f) {
            float passed = 1.0f, failed = 0.0f;
            for (float f = 2.0f; f <= 16.0f; f *= 2.0f) {
                Try a = attempt(f, qshare, false, none);
                if (!a.fits) {
                    failed = f;
                    break;
                }
                passed = f;
                if (smaller(a, best)) best = std::move(a);
            }
            // Two bisection steps between the last factor that fit and the first that did not.
            for (int step = 0; step < 2 && failed > 0.0f; ++step) {
                const float f = 0.5f * (passed + failed);
                Try a = attempt(f, qshare, false, none);
                if (!a.fits) {
                    failed = f;
                    continue;
                }
                passed = f;
                if (smaller(a, best)) best = std::move(a);
            }
        }
        for (float f = 0.5f; !best.fits && f >= 1.0f / 64.0f; f *= 0.5f) best = attempt(f, qshare, false, none);
        return best;
    };
    // The split between quantization and key reduction: the given one, or the smallest clip
    // of a few.
    std::vector<float> qshares{settings.quantizationShare};
    if (!(settings.quantizationShare > 0.0f)) qshares = {0.55f, 0.8f, 1.0f};
    if (tol <= 0.0f) qshares.resize(1);
    Try best;
    for (float qs : qshares) {
        Try a = search(qs > 0.0f ? qs : 0.5f);
        if (a.fits && (!best.fits || smaller(a, best))) best = std::move(a);
    }
    if (!best.fits) best = attempt(1.0f, 0.5f, true, none);
    // Measured refinement: per keyed channel, widest first, its step half a bit coarser (or a
    // whole bit, when half changes no width) while the whole clip stays within the tolerance
    // and gets smaller; a channel that could not go coarser is not tried again (at most
    // `settings.refinePasses` rounds).
    if (best.fits && tol > 0.0f && settings.refinePasses > 0) {
        std::vector<uint8_t> lower = best.lower.empty() ? std::vector<uint8_t>(ck.channels.size(), 0) : best.lower;
        std::vector<uint8_t> active(ck.channels.size(), 0);
        for (size_t c = 0; c < ck.channels.size(); ++c) active[c] = best.bits[c] > kMinKeyBits;
        for (int pass = 0; pass < settings.refinePasses; ++pass) {
            std::vector<size_t> order;
            for (size_t c = 0; c < ck.channels.size(); ++c) {
                if (active[c] && best.bits[c] > kMinKeyBits && lower[c] + 2u <= 2 * kMaxKeyBits) order.push_back(c);
            }
            std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return best.bits[a] > best.bits[b]; });
            if (order.empty()) break;
            for (size_t c : order) {
                active[c] = 0;
                for (uint8_t step = 1; step <= 2; ++step) {
                    lower[c] = static_cast<uint8_t>(lower[c] + 1);
                    Try a = attempt(best.factor, best.qshare, false, lower);
                    if (!a.fits) break;
                    if (smaller(a, best)) {
                        best = std::move(a);
                        active[c] = 1;
                        break;
                    }
                }
                if (!active[c]) lower[c] = best.lower.empty() ? 0 : best.lower[c];
            }
        }
    }
    r.clip = std::move(best.result.clip);
    r.error = best.result.error;
    r.withinTolerance = tol <= 0.0f || r.error.max() <= tol;
    r.compressedBytes = r.clip.byteSize();
    r.keptKeys = r.clip.keyCount();
    r.rawBytes = table.size() * clip.tracks.size() * (sizeof(glm::quat) + 2 * sizeof(glm::vec3));
    return r;
}

RedundancyStats findRedundantKeys(const Model& model, const Clip& clip, float tolerance, float tipDistance) {
    RedundancyStats s;
    const size_t n = model.skeleton.size();
    for (const Track& t : clip.tracks) {
        if (t.node < 0 || static_cast<size_t>(t.node) >= n) return s;
    }
    const std::vector<JointMetric> metrics = jointMetrics(model, clip, tipDistance);
    const ClipKeys ck = gatherClip(clip, false);
    size_t worst = 0;
    for (const ChannelKeys& k : ck.channels) {
        const JointMetric& m = metrics[k.node];
        const std::vector<uint8_t> keep = reduceChannel(k, m, tolerance / std::sqrt(m.chain));
        size_t kept = 0;
        for (uint8_t x : keep) kept += x;
        const size_t dropped = keep.size() - kept;
        s.keys += keep.size();
        s.redundant += dropped;
        if (keep.size() > 2 && kept == 1) ++s.constantChannels;
        if (dropped > worst) {
            worst = dropped;
            const char* what = k.kind == Kind::Translation ? ".translation" : k.kind == Kind::Rotation ? ".rotation" : ".scale";
            s.exampleChannel = model.skeleton.names[k.node] + what;
        }
    }
    return s;
}

}  // namespace rig

