// Animation compression (anim/offline/compress, anim/compressed_clip, CompressedSamplingJob):
// the bit streams and the quantization at every width 3..16 (rotations against a hand-computed
// bound) and their edge cases; the widths the compressor picks; compressed
// sampling against sampling the decoded keys (bit for bit); tolerance 0; constant channels; and
// on real files the error measured independently (Animator on the decoded clip, CPU skinning)
// within the tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "anim/offline/compress_codec.h"
#include "anim/runtime/compressed_clip.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/compressed_sampling_job.h"
#include "anim/runtime/sampling_job.h"
#include "anim/offline/compress.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "support/rigs.h"
#include "support/run.h"

#include <nlohmann/json.hpp>

using namespace rig;

namespace {

const std::string kModels = "/usr/share/assimp/models/";

// The default range of the smallest three: [-1/sqrt2, 1/sqrt2] in 65535 steps.
QuatRange fullRange() {
    QuatRange r;
    r.min = glm::vec4(-kQuatSmallestMax);
    r.scale = glm::vec4(2.0f * kQuatSmallestMax / 65535.0f);
    return r;
}

glm::quat roundTrip(const glm::quat& q, const QuatRange& r) {
    uint16_t codes[3];
    const uint32_t largest = encodeSmallestThree(q, r, codes);
    return decodeSmallestThree(codes, largest, r);
}

// Distance between two rotations as quaternions (q and -q are one rotation).
float quatDistance(const glm::quat& a, const glm::quat& b) {
    const glm::vec4 va(a.x, a.y, a.z, a.w), vb(b.x, b.y, b.z, b.w);
    return std::min(glm::length(va - vb), glm::length(va + vb));
}

// A chain with a clip whose channels are given per test: joint 1 gets the channels.
Model chainWithClip(const std::vector<float>& times, const std::vector<glm::vec3>& translations,
                    const std::vector<glm::quat>& rotations) {
    Model m = rig::testing::makeChain(3, 0);
    Clip c;
    c.name = "test";
    c.startTime = times.front();
    c.duration = times.back();
    Track t;
    t.node = 1;
    const uint32_t ti = c.addTimes(times.data(), static_cast<uint32_t>(times.size()));
    if (!translations.empty()) {
        t.translation = {ti, static_cast<uint32_t>(c.vec3Keys.size()), static_cast<uint32_t>(translations.size())};
        c.vec3Keys.insert(c.vec3Keys.end(), translations.begin(), translations.end());
    }
    if (!rotations.empty()) {
        t.rotation = {ti, static_cast<uint32_t>(c.quatKeys.size()), static_cast<uint32_t>(rotations.size())};
        c.quatKeys.insert(c.quatKeys.end(), rotations.begin(), rotations.end());
    }
    c.tracks.push_back(t);
    c.trackOfNode.assign(m.skeleton.size(), -1);
    c.trackOfNode[1] = 0;
    m.clips.push_back(c);
    return m;
}

bool sameTransform(const Transform& a, const Transform& b) {
    return std::memcmp(&a, &b, sizeof(Transform)) == 0;
}

// expectSamplingMatchesDecoded in the current kernel form.
void expectSamplingMatchesDecodedHere(const Model& model, const CompressedClip& cc) {
    const Clip decoded = decodeClip(cc, model.skeleton.size());
    const size_t n = model.skeleton.size();
    std::vector<Transform> a(model.skeleton.bindLocalSqt), b(model.skeleton.bindLocalSqt);
    std::vector<uint32_t> ca(3 * decoded.tracks.size(), 0), cc3(3 * cc.tracks.size(), 0);
    CompressedSamplingCache cache;
    cache.reserve(cc.tracks.size());
    std::vector<Transform> c3(model.skeleton.bindLocalSqt);
    std::vector<float> times;
    // Every time of the table (stored or uniform), and a point between each two.
    for (uint32_t i = 0; i < cc.frameCount; ++i) {
        times.push_back(cc.time(i));
        if (i + 1 < cc.frameCount) times.push_back(0.3f * cc.time(i) + 0.7f * cc.time(i + 1));
    }
    times.push_back(cc.startTime - 1.0f);
    times.push_back(cc.duration + 1.0f);
    const size_t forward = times.size();
    for (size_t i = forward; i-- > 0;) times.push_back(times[i]);
    // Playing on at half and a third of the key rate (a 120 fps take at 60 Hz skips a key a tick).
    for (uint32_t stride : {2u, 3u}) {
        for (uint32_t i = 0; i + 1 < cc.frameCount; i += stride) times.push_back(0.6f * cc.time(i) + 0.4f * cc.time(i + 1));
    }
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(cc.startTime - 0.5f, cc.duration + 0.5f);
    for (int i = 0; i < 200; ++i) times.push_back(u(rng));
    // Before each sample every tracked node of the three poses is poisoned (all bits set, a
    // NaN), so each sampler must write all of a tracked node's transform, bind values included.
    auto poison = [&](std::vector<Transform>& pose) {
        for (const CompressedTrack& tr : cc.tracks) std::memset(static_cast<void*>(&pose[tr.node]), 0xFF, sizeof(Transform));
    };
    for (RotationBlend blend : {RotationBlend::Slerp, RotationBlend::Nlerp}) {
        for (float t : times) {
            poison(a);
            poison(b);
            poison(c3);
            SamplingJob sa;
            sa.clip = &decoded;
            sa.time = t;
            sa.blend = blend;
            sa.bindLocal = model.skeleton.bindLocalSqt;
            sa.cursors = ca;
            sa.local = a;
            ASSERT_TRUE(sa.run());
            CompressedSamplingJob sb;
            sb.clip = &cc;
            sb.time = t;
            sb.blend = blend;
            sb.bindLocal = model.skeleton.bindLocalSqt;
            sb.cache = &cache;
            sb.local = b;
            ASSERT_TRUE(sb.run());
            // The uncached form (random access into the bit streams) too.
            sampleCompressedClip(cc, t, model.skeleton.bindLocalSqt.data(), c3.data(), cc3.data(), blend);
            for (size_t j = 0; j < n; ++j) {
                ASSERT_TRUE(sameTransform(a[j], b[j])) << "node " << j << " at t=" << t;
                ASSERT_TRUE(sameTransform(a[j], c3[j])) << "node " << j << " at t=" << t;
            }
        }
    }
}


// Sampling the compressed clip directly and sampling its decoded keys give the same bits,
// at every key time, between keys, outside the clip, forwards, backwards and at random, in
// every form of the kernels this CPU runs (the AVX2 form decodes full channels eight at a time).
void expectSamplingMatchesDecoded(const Model& model, const CompressedClip& cc) {
    const isa::Level chosen = isa::level();
    for (int level = 0; level < isa::levelsHere(); ++level) {
        SCOPED_TRACE(::testing::Message() << "isa level " << level);
        isa::force(static_cast<isa::Level>(level));
        expectSamplingMatchesDecodedHere(model, cc);
    }
    isa::force(chosen);
}

// Independent measure of the error: Animator::evaluate on the original clip and on the
// decoded compressed clip (the file-pose path rigview draws with), joints' origins and CPU-
// skinned vertices in model space, at every key time and halfway between.
struct Measured {
    double joint = 0.0, vertex = 0.0;
};
Measured measureIndependently(const Model& model, size_t clipIndex, const CompressedClip& cc) {
    Model both = model;
    both.clips.push_back(decodeClip(cc, model.skeleton.size()));
    const int32_t orig = static_cast<int32_t>(clipIndex), comp = static_cast<int32_t>(both.clips.size() - 1);
    Animator a(both), b(both);
    Measured m;
    std::vector<glm::vec3> pa, pb;
    std::vector<float> times;
    for (size_t i = 0; i < cc.frameTimes.size(); ++i) {
        times.push_back(cc.frameTimes[i]);
        if (i + 1 < cc.frameTimes.size()) times.push_back(0.5f * (cc.frameTimes[i] + cc.frameTimes[i + 1]));
    }
    size_t vertices = 0;
    for (const Mesh& mesh : both.meshes) vertices += mesh.positions.size();
    const size_t stride = std::max<size_t>(1, vertices * times.size() / 20'000'000 + 1);
    for (size_t s = 0; s < times.size(); ++s) {
        a.evaluate(orig, times[s]);
        b.evaluate(comp, times[s]);
        for (size_t j = 0; j < both.skeleton.size(); ++j) {
            m.joint = std::max<double>(m.joint, glm::length(glm::vec3(a.world()[j][3]) - glm::vec3(b.world()[j][3])));
        }
        if (s % stride) continue;
        for (size_t mi = 0; mi < both.meshes.size(); ++mi) {
            const Mesh& mesh = both.meshes[mi];
            if (mesh.node < 0) continue;
            pa.resize(mesh.positions.size());
            pb.resize(mesh.positions.size());
            skinMesh(mesh, mesh.skinned ? a.palette().data() + a.paletteOffset(mi) : nullptr, pa.data(), nullptr);
            skinMesh(mesh, mesh.skinned ? b.palette().data() + b.paletteOffset(mi) : nullptr, pb.data(), nullptr);
            for (size_t v = 0; v < pa.size(); ++v) {
                const glm::vec3 wa(a.skinToModel(mi) * glm::vec4(pa[v], 1.0f));
                const glm::vec3 wb(b.skinToModel(mi) * glm::vec4(pb[v], 1.0f));
                m.vertex = std::max<double>(m.vertex, glm::length(wa - wb));
            }
        }
    }
    return m;
}

// The bind pose's joints' largest extent along one axis (a standing human's height).
float humanHeight(const Model& m) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::mat4& w : m.skeleton.bindPoseModel()) {
        lo = glm::min(lo, glm::vec3(w[3]));
        hi = glm::max(hi, glm::vec3(w[3]));
    }
    const glm::vec3 e = hi - lo;
    return std::max({e.x, e.y, e.z});
}

}  // namespace

// Smallest three over [-1/sqrt2, 1/sqrt2] at 16 bits: each kept component is off by at most
// h = (2/sqrt2) / 65535 / 2 = 1.0790e-5. The rebuilt largest one, w = sqrt(1 - sum a^2), moves
// by |sum a da| / w <= h * sum|a| / w <= h * sqrt(3 (1 - w^2)) / w <= 3h (w >= 1/2 as the
// largest of four). So |q' - q| <= sqrt(3 h^2 + 9 h^2) = sqrt(12) h = 3.738e-5, a rotation of at
// most 2 asin(3.738e-5) = 7.48e-5 rad; float rounding adds a few 1e-7.
TEST(CompressRotation, RoundTripWithinTheHandComputedBound) {
    const double h = (2.0 * 0.70710678) / 65535.0 / 2.0;
    const double bound = std::sqrt(12.0) * h + 3e-7;
    std::mt19937 rng(42);
    std::normal_distribution<float> g(0.0f, 1.0f);
    const QuatRange r = fullRange();
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        const glm::quat q = glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
        const glm::quat d = roundTrip(q, r);
        EXPECT_NEAR(glm::length(glm::vec4(d.x, d.y, d.z, d.w)), 1.0f, 1e-6f);
        worst = std::max<double>(worst, quatDistance(q, d));
    }
    EXPECT_LE(worst, bound);
    EXPECT_GT(worst, 0.25 * bound);  // the bound is not loose by orders of magnitude
}

TEST(CompressRotation, EdgeCases) {
    const QuatRange r = fullRange();
    uint16_t codes[3];
    // Identity: w is the largest; x, y, z code 0 exactly (the middle of the range).
    EXPECT_EQ(encodeSmallestThree(glm::quat(1, 0, 0, 0), r, codes), 3u);
    EXPECT_LT(quatDistance(roundTrip(glm::quat(1, 0, 0, 0), r), glm::quat(1, 0, 0, 0)), 2e-5f);
    EXPECT_EQ(roundTrip(glm::quat(1, 0, 0, 0), r).w, roundTrip(glm::quat(-1, 0, 0, 0), r).w);
    // w negative and largest: the stored sign makes it positive, the same rotation comes back.
    const glm::quat negW = glm::normalize(glm::quat(-0.9f, 0.3f, -0.2f, 0.1f));
    const glm::quat d = roundTrip(negW, r);
    EXPECT_GT(d.w, 0.0f);
    EXPECT_LT(quatDistance(d, negW), 4e-5f);
    // A negative largest component that is not w.
    const glm::quat negY = glm::normalize(glm::quat(0.1f, 0.2f, -0.95f, 0.05f));
    EXPECT_EQ(encodeSmallestThree(negY, r, codes), 1u);
    EXPECT_GT(roundTrip(negY, r).y, 0.0f);
    EXPECT_LT(quatDistance(roundTrip(negY, r), negY), 4e-5f);
    // Ties: the first of equal magnitudes is dropped, and either way the rotation survives.
    const glm::quat tie4(0.5f, 0.5f, 0.5f, 0.5f);  // w, x, y, z
    EXPECT_EQ(encodeSmallestThree(tie4, r, codes), 0u);
    EXPECT_LT(quatDistance(roundTrip(tie4, r), tie4), 4e-5f);
    const glm::quat tie2(0.0f, 0.70710678f, -0.70710678f, 0.0f);  // 180 degrees about (1,-1,0)
    EXPECT_EQ(encodeSmallestThree(tie2, r, codes), 0u);
    EXPECT_LT(quatDistance(roundTrip(tie2, r), tie2), 4e-5f);
    // A range narrowed to the data is finer: a small rotation comes back 100x closer.
    const glm::quat small = glm::normalize(glm::quat(1.0f, 0.01f, 0.002f, -0.003f));
    QuatRange narrow;
    narrow.min = glm::vec4(0.0f, 0.0f, -0.01f, 0.0f);
    narrow.scale = glm::vec4(0.02f / 65535.0f);
    EXPECT_LT(quatDistance(roundTrip(small, narrow), small), 4e-7f);
}

// Bit streams: values of every width 1..16, interleaved, read back exactly (also the three
// codes of a key, at any bit alignment), and the stream's bytes are what the widths sum to.
TEST(CompressBits, StreamRoundTripAtEveryWidth) {
    std::mt19937 rng(3);
    std::vector<uint8_t> stream;
    uint64_t used = 0;
    std::vector<std::pair<uint32_t, uint32_t>> written;  // (value, width)
    uint64_t total = 0;
    for (int i = 0; i < 2000; ++i) {
        const uint32_t width = 1 + i % 16;
        const uint32_t top = (1u << width) - 1u;
        const uint32_t value = i % 7 == 0 ? top : i % 11 == 0 ? 0u : static_cast<uint32_t>(rng()) & top;
        appendBits(stream, used, value, width);
        written.emplace_back(value, width);
        total += width;
    }
    EXPECT_EQ(used, total);
    EXPECT_EQ(stream.size(), (total + 7) / 8);
    stream.resize(stream.size() + 8, 0);  // the padding the readers expect
    uint64_t pos = 0;
    for (const auto& [value, width] : written) {
        ASSERT_EQ(readBits(stream.data(), pos, width), value) << "width " << width << " at bit " << pos;
        pos += width;
    }
    // Keys of three codes at every width 1..16 alike, and at three widths (each code its own),
    // each followed by 2 bits (a rotation's dropped component), starting at an odd bit offset.
    std::vector<std::array<uint32_t, 3>> widths{{16, 1, 9}, {3, 16, 16}, {7, 2, 13}};
    for (uint32_t bits = kMinKeyBits; bits <= kMaxKeyBits; ++bits) widths.push_back({bits, bits, bits});
    for (const std::array<uint32_t, 3>& w : widths) {
        KeyedChannel ch;
        ch.setWidths(w.data());
        ASSERT_EQ(ch.width(0), w[0]);
        ASSERT_EQ(ch.width(1), w[1]);
        ASSERT_EQ(ch.width(2), w[2]);
        std::vector<uint8_t> s3;
        uint64_t u = 0;
        appendBits(s3, u, 5, 3);  // offset 3
        std::vector<uint32_t> values;
        for (int k = 0; k < 40; ++k) {
            for (int c = 0; c < 4; ++c) {
                const uint32_t width = c < 3 ? w[c] : 2u;
                const uint32_t top = (1u << width) - 1u;  // the first keys: all zeros, all ones
                values.push_back(k == 0 ? 0u : k == 1 ? top : rng() & top);
                appendBits(s3, u, values.back(), width);
            }
        }
        s3.resize(s3.size() + 8, 0);
        for (uint32_t k = 0; k < 40; ++k) {
            uint16_t got[3];
            uint32_t rest = 9;
            readCodes(s3.data(), 3 + uint64_t(k) * (ch.codeBits() + 2), ch, got, &rest);
            for (int c = 0; c < 3; ++c) ASSERT_EQ(got[c], values[4 * k + c]) << "key " << k;
            ASSERT_EQ(rest, values[4 * k + 3]) << "key " << k;
        }
    }
}

// Quantizing at b bits over [lo, hi]: the ends come back exactly as codes 0 and 2^b - 1, values
// outside clamp to them, and every value within is off by at most half a step,
// (hi - lo) / (2^b - 1) / 2.
TEST(CompressBits, Vec3QuantizationAtEveryWidth) {
    const float lo = -0.37f, hi = 1.91f;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(lo, hi);
    for (uint32_t bits = kMinKeyBits; bits <= kMaxKeyBits; ++bits) {
        const uint32_t maxCode = (1u << bits) - 1u;
        const float scale = (hi - lo) / static_cast<float>(maxCode);
        EXPECT_EQ(quantize(lo, lo, scale, maxCode), 0u);
        EXPECT_EQ(quantize(hi, lo, scale, maxCode), maxCode);
        EXPECT_EQ(quantize(lo - 5.0f, lo, scale, maxCode), 0u);
        EXPECT_EQ(quantize(hi + 5.0f, lo, scale, maxCode), maxCode);
        EXPECT_NEAR(dequantize(static_cast<uint16_t>(maxCode), lo, scale), hi, 1e-6f);
        float worst = 0.0f;
        for (int i = 0; i < 5000; ++i) {
            const float v = u(rng);
            worst = std::max(worst, std::fabs(dequantize(quantize(v, lo, scale, maxCode), lo, scale) - v));
        }
        EXPECT_LE(worst, 0.5f * scale + 1e-6f) << bits << " bits";
        EXPECT_GT(worst, 0.4f * scale) << bits << " bits";  // the bound is tight
    }
    // A zero-width range (a component that never changes): code 0, the value exactly.
    EXPECT_EQ(quantize(0.25f, 0.25f, 0.0f, 7), 0u);
    EXPECT_EQ(dequantize(0, 0.25f, 0.0f), 0.25f);
}

// The smallest three at b bits over the full range: the hand-computed bound of the 16-bit test
// with h = (2 / sqrt2) / (2^b - 1) / 2, |q - q'| <= sqrt(12) h.
TEST(CompressBits, RotationRoundTripAtEveryWidth) {
    std::mt19937 rng(11);
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (uint32_t bits = 3; bits <= kMaxKeyBits; ++bits) {  // below 3 bits the rebuilt component clamps (1 - a^2 - b^2 - c^2 < 0) past the bound
        QuatRange r;
        for (uint32_t& w : r.width) w = bits;
        r.min = glm::vec4(-kQuatSmallestMax);
        r.scale = glm::vec4(2.0f * kQuatSmallestMax / static_cast<float>((1u << bits) - 1u));
        const double h = (2.0 * 0.70710678) / double((1u << bits) - 1u) / 2.0;
        double worst = 0.0;
        for (int i = 0; i < 20000; ++i) {
            const glm::quat q = glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
            uint16_t codes[3];
            const uint32_t largest = encodeSmallestThree(q, r, codes);
            for (uint16_t c : codes) ASSERT_LE(c, (1u << bits) - 1u);
            worst = std::max<double>(worst, quatDistance(q, decodeSmallestThree(codes, largest, r)));
        }
        EXPECT_LE(worst, std::sqrt(12.0) * h + 3e-7) << bits << " bits";
        EXPECT_GT(worst, 0.25 * std::sqrt(12.0) * h) << bits << " bits";
    }
}

// The compressor picks widths from the error: at tolerance 0 every channel's widest code keeps
// 16 bits and every key (dense runs: no time indices stored); at a tolerance some channel takes
// fewer, the clip gets smaller, and it stays within the tolerance.
TEST(CompressBits, WidthsFollowTheTolerance) {
    const Model m = rig::testing::makeChain(8, 60);
    CompressSettings s;
    s.tolerance = 0.0f;
    Result<CompressionResult> exact = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(exact);
    auto widest = [](const KeyedChannel& k) { return std::max({k.width(0), k.width(1), k.width(2)}); };
    size_t dense = 0, keyed = 0;
    std::vector<KeyedChannel> all;
    for (const QuatChannel& q : exact->clip.quatChannels) all.push_back(q.key);
    for (const Vec3Channel& v : exact->clip.vec3Channels) all.push_back(v.key);
    for (const KeyedChannel& k : all) {
        EXPECT_EQ(widest(k), 16u);
        ++keyed;
        dense += k.dense();
    }
    EXPECT_GT(keyed, 0u);
    EXPECT_EQ(dense, keyed);  // every key kept, at consecutive times
    EXPECT_TRUE(exact->clip.frameBits.empty());
    s.tolerance = 1e-3f;
    Result<CompressionResult> r = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(r);
    uint32_t narrowest = 16;
    for (const QuatChannel& q : r->clip.quatChannels) narrowest = std::min(narrowest, widest(q.key));
    EXPECT_LT(narrowest, 16u);
    EXPECT_LT(r->compressedBytes, exact->compressedBytes);
    EXPECT_TRUE(r->withinTolerance);
    const Measured mm = measureIndependently(m, 0, r->clip);
    EXPECT_LE(mm.joint, s.tolerance);
    EXPECT_LE(mm.vertex, s.tolerance);
    expectSamplingMatchesDecoded(m, r->clip);
    // Each split between quantization and key reduction stays within the tolerance too.
    for (float share : {0.3f, 1.0f}) {
        s.quantizationShare = share;
        Result<CompressionResult> q = compressClip(m, m.clips[0], s);
        ASSERT_TRUE(q);
        EXPECT_TRUE(q->withinTolerance) << share;
        EXPECT_LE(measureIndependently(m, 0, q->clip).joint, s.tolerance) << share;
    }
}

// A channel that holds its bind value throughout is left out (the sampler gives the bind value),
// and a track left with nothing is dropped; what stays samples as before.
TEST(CompressLayout, ChannelsAtTheirBindValueAreLeftOut) {
    std::vector<float> times;
    std::vector<glm::vec3> tr;
    std::vector<glm::quat> rot;
    Model m = chainWithClip({0.0f}, {}, {});  // for joint 1's bind values
    const Transform bind = m.skeleton.bindLocalSqt[1];
    for (int i = 0; i < 30; ++i) {
        times.push_back(i / 30.0f);
        tr.push_back(bind.translation);                            // at bind throughout
        rot.push_back(glm::angleAxis(0.3f * std::sin(0.4f * i), glm::vec3(0, 0, 1)));  // moves
    }
    m = chainWithClip(times, tr, rot);
    // A second track (node 2) that holds its bind rotation: left out entirely.
    Clip& c = m.clips[0];
    Track t2;
    t2.node = 2;
    const glm::quat still = m.skeleton.bindLocalSqt[2].rotation;
    t2.rotation = {0, static_cast<uint32_t>(c.quatKeys.size()), 30};
    for (int i = 0; i < 30; ++i) c.quatKeys.push_back(still);
    c.tracks.push_back(t2);
    c.trackOfNode[2] = 1;
    for (float tol : {0.0f, 1e-4f}) {
        CompressSettings s;
        s.tolerance = tol;
        Result<CompressionResult> r = compressClip(m, c, s);
        ASSERT_TRUE(r);
        ASSERT_EQ(r->clip.tracks.size(), 1u) << "tolerance " << tol;  // node 2's track is gone
        EXPECT_EQ(r->clip.tracks[0].node, 1u);
        EXPECT_EQ(r->clip.tracks[0].kind(0), ChannelKind::Absent) << "tolerance " << tol;
        EXPECT_EQ(r->clip.tracks[0].kind(1), ChannelKind::Keyed);
        EXPECT_TRUE(r->clip.constVec3.empty());
        EXPECT_TRUE(r->withinTolerance);
        // Sampled: the bind translation exactly, the rotation within the tolerance.
        CompressedSamplingCache cache;
        cache.reserve(r->clip.tracks.size());
        std::vector<Transform> local(m.skeleton.bindLocalSqt);
        CompressedSamplingJob job;
        job.clip = &r->clip;
        job.bindLocal = m.skeleton.bindLocalSqt;
        job.cache = &cache;
        job.local = local;
        job.time = 0.5f;
        ASSERT_TRUE(job.run());
        EXPECT_EQ(local[1].translation, bind.translation);
        EXPECT_EQ(local[2].rotation, still);
        const Measured mm = measureIndependently(m, 0, r->clip);
        EXPECT_LE(mm.joint, tol + 1e-7f) << "tolerance " << tol;
        expectSamplingMatchesDecoded(m, r->clip);
    }
}

// The eight-wide forms of the full channels' interpolation take, lane by lane, what the plain
// sampler takes: a step channel's key (translations and rotations), equal keys as they are,
// SLERP's trigonometry for keys more than 120 degrees apart; and a clip whose tracks are partly
// walked blends the walked rotations in the same pass. 20 joints keyed at every frame: three
// groups of eight rotations, five of eight vec3 (with the walked one and the queue: four).
TEST(CompressedSampling, FullChannelsStepWideAndEqualKeysInEveryKernelForm) {
    Model m = rig::testing::makeChain(20, 48);
    Clip& c = m.clips[0];
    ASSERT_EQ(c.tracks.size(), 20u);
    for (size_t i = 0; i < c.tracks.size(); ++i) {
        Track& t = c.tracks[i];
        glm::quat* q = c.quatKeys.data() + t.rotation.values;
        if (i % 3 == 1) {  // stepping translation and rotation
            t.translation.interpolation = Interpolation::Step;
            t.rotation.interpolation = Interpolation::Step;
        }
        if (i % 4 == 2) {  // swings of about 150 degrees every key
            for (uint32_t k = 0; k < t.rotation.count; ++k) {
                q[k] = glm::angleAxis((k % 2 ? 2.6f : 0.0f) + 0.01f * float(k), glm::normalize(glm::vec3(0.3f, 1.0f, 0.2f)));
            }
        }
        if (i == 7) {  // held for pairs of keys: equal neighbours
            for (uint32_t k = 0; k < t.rotation.count; ++k) q[k] = glm::angleAxis(0.2f * float(k / 2), glm::vec3(0, 0, 1));
        }
        if (i == 11) {  // keys over the first 12 frames only: not full, so the track is walked
            t.rotation.count = 12;
        }
    }
    CompressSettings s;
    s.tolerance = 1e-4f;
    Result<CompressionResult> r = compressClip(m, c, s);
    ASSERT_TRUE(r);
    CompressedSamplingCache cache;
    cache.reserve(r->clip.tracks.size());
    ASSERT_TRUE(cache.bind(r->clip));
    EXPECT_GE(cache.fullQuatCount, 17u);
    EXPECT_GE(cache.fullVec3Count, 33u);
    EXPECT_GE(cache.walkedCount, 1u);
    uint32_t stepping = 0;
    for (uint32_t j = 0; j < cache.fullQuatCount; ++j) stepping += cache.fullQuatStep[j] != 0;
    for (uint32_t j = 0; j < cache.fullVec3Count; ++j) stepping += cache.fullVec3Step[j] != 0;
    EXPECT_GE(stepping, 10u);
    expectSamplingMatchesDecoded(m, r->clip);
    s.deltaCoding = false;
    Result<CompressionResult> plainCodes = compressClip(m, c, s);
    ASSERT_TRUE(plainCodes);
    expectSamplingMatchesDecoded(m, plainCodes->clip);
}

// Key times at a steady rate are kept as a first time and a step that give every time exactly;
// a rotation that drops one component in every key stores no index for it; a component with a
// narrow range gets fewer bits than the widest one.
TEST(CompressLayout, SteadyTimesFixedComponentAndNarrowCodes) {
    std::vector<float> times;
    std::vector<glm::quat> rot;
    for (int i = 0; i < 90; ++i) {
        times.push_back(static_cast<float>(i / 30.0));
        // Mostly about Z (wide range), a little about X (narrow): w stays the largest.
        rot.push_back(glm::normalize(glm::angleAxis(1.2f * std::sin(0.21f * i), glm::vec3(0, 0, 1)) *
                                     glm::angleAxis(0.02f * std::cos(0.5f * i), glm::vec3(1, 0, 0))));
    }
    const Model m = chainWithClip(times, {}, rot);
    CompressSettings s;
    s.tolerance = 1e-3f;
    Result<CompressionResult> r = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(r);
    const CompressedClip& cc = r->clip;
    EXPECT_TRUE(cc.frameTimes.empty());  // uniform: no table
    ASSERT_EQ(cc.frameCount, 90u);
    for (uint32_t i = 0; i < 90; ++i) EXPECT_EQ(cc.time(i), times[i]) << i;
    ASSERT_EQ(cc.quatChannels.size(), 1u);
    const KeyedChannel& k = cc.quatChannels[0].key;
    ASSERT_TRUE(k.flags & kFixedLargest);
    EXPECT_EQ(k.fixedLargest(), 3u);     // w
    EXPECT_EQ(quatStride(k), k.codeBits());  // no 2-bit index per key
    // Codes hold x, y, z: z (the wide one) gets the most bits, x fewer, y (zero) the fewest.
    EXPECT_GT(k.width(2), k.width(0));
    EXPECT_GE(k.width(0), k.width(1));
    EXPECT_TRUE(r->withinTolerance);
    EXPECT_LE(measureIndependently(m, 0, cc).joint, s.tolerance);
    expectSamplingMatchesDecoded(m, cc);
    // Irregular times keep the table.
    std::vector<float> uneven = times;
    uneven[10] += 0.004f;
    const Model m2 = chainWithClip(uneven, {}, rot);
    Result<CompressionResult> r2 = compressClip(m2, m2.clips[0], s);
    ASSERT_TRUE(r2);
    EXPECT_EQ(r2->clip.frameTimes.size(), 90u);
    EXPECT_EQ(r2->clip.time(10), uneven[10]);
    expectSamplingMatchesDecoded(m2, r2->clip);
}

// Delta blocks store the same codes as plain ones: with the same key selection (no
// refinement, one quantization share) the decoded keys are bit-identical, in fewer bytes, for a
// translation and for a rotation whose dropped component changes within the clip (its 2-bit
// index delta-coded too); sampling reads keys inside blocks at random and backwards.
TEST(CompressLayout, DeltaBlocksDecodeToThePlainCodes) {
    std::vector<float> times;
    std::vector<glm::vec3> tr;
    std::vector<glm::quat> rot;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> jitter(-0.004f, 0.004f);
    for (int i = 0; i < 200; ++i) {
        times.push_back(static_cast<float>(i / 30.0));
        // A sweep about Z from 0 to 2.4 rad: w is the largest component, then z (past pi/2).
        const float a = 2.4f * static_cast<float>(i) / 199.0f + jitter(rng);
        rot.push_back(glm::normalize(glm::angleAxis(a, glm::vec3(0, 0, 1)) * glm::angleAxis(jitter(rng), glm::vec3(1, 0, 0))));
        tr.push_back(glm::vec3(0.3f * std::sin(0.05f * i) + 0.1f * jitter(rng), 1.0f + 0.1f * jitter(rng), 0.02f * i));
    }
    const Model m = chainWithClip(times, tr, rot);
    CompressSettings s;
    s.tolerance = 1e-4f;
    s.quantizationShare = 0.8f;
    s.refinePasses = 0;
    Result<CompressionResult> withDelta = compressClip(m, m.clips[0], s);
    s.deltaCoding = false;
    Result<CompressionResult> plain = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(withDelta && plain);
    ASSERT_EQ(withDelta->clip.quatChannels.size(), 1u);
    ASSERT_EQ(withDelta->clip.vec3Channels.size(), 1u);
    const KeyedChannel& q = withDelta->clip.quatChannels[0].key;
    const KeyedChannel& v = withDelta->clip.vec3Channels[0].key;
    EXPECT_TRUE(q.flags & kChannelDelta);
    EXPECT_FALSE(q.flags & kFixedLargest);  // the dropped component varies
    EXPECT_TRUE(v.flags & kChannelDelta);
    EXPECT_GT(q.count, 2 * kDeltaBlock);    // several blocks
    EXPECT_FALSE(plain->clip.quatChannels[0].key.flags & kChannelDelta);
    EXPECT_EQ(plain->clip.quatChannels[0].key.count, q.count);
    EXPECT_LT(withDelta->compressedBytes, plain->compressedBytes);
    EXPECT_EQ(withDelta->keptKeys, plain->keptKeys);
    const Clip a = decodeClip(withDelta->clip, m.skeleton.size());
    const Clip b = decodeClip(plain->clip, m.skeleton.size());
    ASSERT_EQ(a.times.size(), b.times.size());
    ASSERT_EQ(a.vec3Keys.size(), b.vec3Keys.size());
    ASSERT_EQ(a.quatKeys.size(), b.quatKeys.size());
    EXPECT_EQ(std::memcmp(a.times.data(), b.times.data(), a.times.size() * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(a.vec3Keys.data(), b.vec3Keys.data(), a.vec3Keys.size() * sizeof(glm::vec3)), 0);
    EXPECT_EQ(std::memcmp(a.quatKeys.data(), b.quatKeys.data(), a.quatKeys.size() * sizeof(glm::quat)), 0);
    EXPECT_EQ(withDelta->error.maxJoint, plain->error.maxJoint);
    EXPECT_TRUE(withDelta->withinTolerance);
    expectSamplingMatchesDecoded(m, withDelta->clip);
}

TEST(Compress, ConstantChannelCollapsesToOneKey) {
    std::vector<float> times;
    std::vector<glm::vec3> tr;
    std::vector<glm::quat> rot;
    for (int i = 0; i < 30; ++i) {
        times.push_back(i / 30.0f);
        tr.push_back(glm::vec3(0.0f, 1.0f, 0.25f));
        rot.push_back(glm::angleAxis(0.02f * i, glm::vec3(0, 0, 1)));  // turns steadily
    }
    const Model m = chainWithClip(times, tr, rot);
    for (float tol : {0.0f, 1e-4f}) {
        CompressSettings s;
        s.tolerance = tol;
        Result<CompressionResult> r = compressClip(m, m.clips[0], s);
        ASSERT_TRUE(r);
        ASSERT_EQ(r->clip.tracks.size(), 1u);
        ASSERT_EQ(r->clip.tracks[0].kind(0), ChannelKind::Constant) << "tolerance " << tol;
        ASSERT_EQ(r->clip.constVec3.size(), 1u);
        EXPECT_EQ(r->clip.constVec3[0], glm::vec3(0.0f, 1.0f, 0.25f));  // exact
        EXPECT_TRUE(r->clip.vec3Channels.empty());  // a constant takes no bits in the key stream
        EXPECT_TRUE(r->clip.vec3Bits.empty());
        // A steady turn about one axis is one slerp: two keys at a tolerance, all at 0.
        ASSERT_EQ(r->clip.tracks[0].kind(1), ChannelKind::Keyed);
        EXPECT_EQ(r->clip.quatChannels.at(0).key.count, tol > 0.0f ? 2u : 30u) << "tolerance " << tol;
        EXPECT_TRUE(r->withinTolerance);
    }
}

// A constant rotation: at a tolerance the 16-bit smallest three over the full range (8 bytes,
// within the hand-computed 3.74e-5 of the value), at tolerance 0 the float value exactly; both
// sampled as their decoded keys are.
TEST(Compress, ConstantRotationCodedWithinItsShare) {
    std::vector<float> times;
    std::vector<glm::vec3> tr;
    std::vector<glm::quat> rot;
    const glm::quat still = glm::normalize(glm::quat(0.8f, -0.3f, 0.4f, 0.2f));
    for (int i = 0; i < 20; ++i) {
        times.push_back(i / 30.0f);
        tr.push_back(glm::vec3(0.1f * std::sin(0.5f * i), 1.0f, 0.0f));  // moves
        rot.push_back(still);
    }
    const Model m = chainWithClip(times, tr, rot);
    CompressSettings s;
    s.tolerance = 1e-4f;
    Result<CompressionResult> r = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->clip.tracks.size(), 1u);
    ASSERT_EQ(r->clip.tracks[0].kind(1), ChannelKind::CodedConstant);
    EXPECT_EQ(r->clip.constQuatCodes.size(), 4u);
    EXPECT_TRUE(r->clip.constQuat.empty());
    EXPECT_LE(quatDistance(decodeConstQuat(r->clip, 0), still), std::sqrt(12.0) * (2.0 * 0.70710678) / 65535.0 / 2.0 + 3e-7);
    EXPECT_TRUE(r->withinTolerance);
    expectSamplingMatchesDecoded(m, r->clip);
    s.tolerance = 0.0f;
    Result<CompressionResult> exact = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(exact);
    ASSERT_EQ(exact->clip.tracks.size(), 1u);
    ASSERT_EQ(exact->clip.tracks[0].kind(1), ChannelKind::Constant);
    ASSERT_EQ(exact->clip.constQuat.size(), 1u);
    EXPECT_EQ(exact->clip.constQuat[0], still);
    expectSamplingMatchesDecoded(m, exact->clip);
}

// Tolerance 0: the compressed curve is the quantized curve of every key; the only keys dropped
// are inside runs of equal quantized values, which their neighbours reproduce.
TEST(Compress, ToleranceZeroKeepsEveryKeysEffect) {
    const Model m = rig::testing::makeChain(6, 40);
    CompressSettings s;
    s.tolerance = 0.0f;
    Result<CompressionResult> r = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(r);
    const Clip& c = m.clips[0];
    const CompressedClip& cc = r->clip;
    const Clip decoded = decodeClip(cc, m.skeleton.size());
    ASSERT_EQ(cc.tracks.size(), c.tracks.size());
    const std::vector<std::array<ChannelRef, 3>> index = channelIndex(cc);
    for (size_t ti = 0; ti < c.tracks.size(); ++ti) {
        const Track& t = c.tracks[ti];
        ASSERT_EQ(cc.tracks[ti].node, t.node);
        for (uint32_t k = 0; k < t.translation.count; ++k) {
            const float time = c.times[t.translation.times + k];
            const glm::vec3 orig = c.vec3Keys[t.translation.values + k];
            ASSERT_EQ(index[ti][0].kind, ChannelKind::Keyed);
            const Vec3Channel& vr = cc.vec3Channels[index[ti][0].index];
            glm::vec3 expected;
            for (int i = 0; i < 3; ++i) expected[i] = dequantize(quantize(orig[i], vr.min[i], vr.scale[i]), vr.min[i], vr.scale[i]);
            uint32_t cursor = 0;
            EXPECT_EQ(sampleVec3(decoded, decoded.tracks[ti].translation, time, cursor), expected);
            EXPECT_LE(glm::length(expected - orig), glm::length(vr.scale) * 0.5f + 1e-6f);
        }
        for (uint32_t k = 0; k < t.rotation.count; ++k) {
            const float time = c.times[t.rotation.times + k];
            ASSERT_EQ(index[ti][1].kind, ChannelKind::Keyed);
            const glm::quat expected = roundTrip(c.quatKeys[t.rotation.values + k], quatRange(cc.quatChannels[index[ti][1].index]));
            uint32_t cursor = 0;
            EXPECT_LT(quatDistance(sampleQuat(decoded, decoded.tracks[ti].rotation, time, cursor, RotationBlend::Slerp), expected),
                      1e-6f);
        }
    }
    expectSamplingMatchesDecoded(m, cc);
}

TEST(Compress, SyntheticChainWithinToleranceAndSmaller) {
    const Model m = rig::testing::makeChain(20, 120);
    CompressSettings s;
    s.tolerance = 1e-3f;
    Result<CompressionResult> r = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->withinTolerance);
    EXPECT_LE(r->error.max(), s.tolerance);
    EXPECT_LT(r->compressedBytes, r->originalBytes);
    const Measured mm = measureIndependently(m, 0, r->clip);
    EXPECT_LE(mm.joint, s.tolerance);
    EXPECT_LE(mm.vertex, s.tolerance);
    expectSamplingMatchesDecoded(m, r->clip);
}

// Dense channels take their keys and factor from the time table's one segment per tick; a
// channel whose keys cover only part of the table (starting late, ending early) must still give
// what its own key search gives: its first value before, its last after, bit for bit.
TEST(CompressedSamplingJob, ChannelsOverPartsOfTheTableMatchTheirOwnKeys) {
    Model m = rig::testing::makeChain(5, 0);
    Clip c;
    c.name = "parts";
    c.ticksPerSecond = 1.0;
    c.trackOfNode.assign(m.skeleton.size(), -1);
    auto addRotation = [&](int node, int first, int last, int every) {
        std::vector<float> times;
        Track tr;
        tr.node = node;
        const uint32_t values = static_cast<uint32_t>(c.quatKeys.size());
        for (int f = first; f <= last; f += every) {
            times.push_back(static_cast<float>(f) / 30.0f);
            const float a = 0.6f * std::sin(0.2f * static_cast<float>(f) + static_cast<float>(node));
            c.quatKeys.push_back(glm::angleAxis(a, glm::normalize(glm::vec3(0.3f, 1.0f, 0.2f * static_cast<float>(node)))));
        }
        const uint32_t ti = c.addTimes(times.data(), static_cast<uint32_t>(times.size()));
        tr.rotation = {ti, values, static_cast<uint32_t>(times.size())};
        c.trackOfNode[node] = static_cast<int32_t>(c.tracks.size());
        c.tracks.push_back(tr);
    };
    addRotation(1, 0, 60, 1);   // the whole table
    addRotation(2, 15, 30, 1);  // a part of it: starts late, ends early
    addRotation(3, 40, 60, 1);  // the end of it
    addRotation(4, 0, 60, 4);   // every fourth time (not dense)
    c.duration = 2.0f;
    m.clips.push_back(c);
    CompressSettings s;
    s.tolerance = 0.0f;
    Result<CompressionResult> r = compressClip(m, m.clips[0], s);
    ASSERT_TRUE(r);
    const CompressedClip& cc = r->clip;
    ASSERT_EQ(cc.quatChannels.size(), 4u);
    ASSERT_EQ(cc.frameCount, 61u);
    // What the test is about: dense channels over parts of the table, and one that is not dense.
    EXPECT_TRUE(cc.quatChannels[1].key.dense());
    EXPECT_EQ(cc.quatChannels[1].key.frames, 15u);
    EXPECT_EQ(cc.quatChannels[1].key.count, 16u);
    EXPECT_TRUE(cc.quatChannels[2].key.dense());
    EXPECT_EQ(cc.quatChannels[2].key.frames, 40u);
    EXPECT_FALSE(cc.quatChannels[3].key.dense());
    expectSamplingMatchesDecoded(m, cc);
}

TEST(CompressedSamplingJob, RefusesBadSpans) {
    const Model m = rig::testing::makeChain(4, 10);
    Result<CompressionResult> r = compressClip(m, m.clips[0], CompressSettings{});
    ASSERT_TRUE(r);
    std::vector<Transform> local(m.skeleton.size());
    CompressedSamplingCache small, cache;
    small.reserve(r->clip.tracks.size() - 1);
    cache.reserve(r->clip.tracks.size());
    CompressedSamplingJob job;
    job.bindLocal = m.skeleton.bindLocalSqt;
    job.cache = &cache;
    job.local = local;
    EXPECT_FALSE(job.validate());  // no clip
    job.clip = &r->clip;
    EXPECT_TRUE(job.validate());
    job.cache = &small;
    EXPECT_FALSE(job.run());
    job.cache = nullptr;
    EXPECT_FALSE(job.run());
    job.cache = &cache;
    job.local = std::span<Transform>(local.data(), local.size() - 1);
    EXPECT_FALSE(job.run());
    // A cache used for another clip forgets it: the second clip samples its own values.
    const Model other = rig::testing::makeChain(4, 7);
    Result<CompressionResult> r2 = compressClip(other, other.clips[0], CompressSettings{});
    ASSERT_TRUE(r2);
    std::vector<Transform> l1(other.skeleton.bindLocalSqt), l2(other.skeleton.bindLocalSqt);
    job.local = l1;
    job.time = 0.1f;
    ASSERT_TRUE(job.run());  // fills the cache from clip 1
    job.clip = &r2->clip;
    job.bindLocal = other.skeleton.bindLocalSqt;
    ASSERT_TRUE(job.run());
    std::vector<uint32_t> cursors(3 * r2->clip.tracks.size(), 0);
    sampleCompressedClip(r2->clip, 0.1f, other.skeleton.bindLocalSqt.data(), l2.data(), cursors.data(), RotationBlend::Slerp);
    for (size_t j = 0; j < l1.size(); ++j) EXPECT_TRUE(sameTransform(l1[j], l2[j])) << j;
}

TEST(Compress, RefusesNegativeTolerance) {
    const Model m = rig::testing::makeChain(3, 10);
    CompressSettings s;
    s.tolerance = -1.0f;
    EXPECT_FALSE(compressClip(m, m.clips[0], s));
    s.tolerance = NAN;
    EXPECT_FALSE(compressClip(m, m.clips[0], s));
}

// Real files: at 0.1 mm every clip stays within 0.1 mm at joints and skinned vertices, measured
// by the compressor and independently, and comes out smaller.
class CompressRealFile : public ::testing::TestWithParam<const char*> {};

TEST_P(CompressRealFile, WithinToleranceAtJointsAndVertices) {
    const std::string path = std::string(GetParam()).find('/') == 0 ? GetParam() : kModels + GetParam();
    Result<Model> model = importModel(path);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_FALSE(model->clips.empty());
    CompressSettings s;
    s.tolerance = 1e-4f;  // 0.1 mm: models are in metres after import
    if (path.size() > 4 && path.substr(path.size() - 4) == ".bvh") {
        // BVH gives no unit and CMU's files are not in metres (01_01 stands 26 units tall,
        // Boxing_Toes 173): 0.1 mm on a human of 1.75 m, in the file's units.
        const float height = humanHeight(*model);
        s.tolerance *= height / 1.75f;
        s.tipDistance *= height / 1.75f;
    }
    for (size_t ci = 0; ci < model->clips.size(); ++ci) {
        const Clip& clip = model->clips[ci];
        Result<CompressionResult> r = compressClip(*model, clip, s);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_TRUE(r->withinTolerance) << clip.name;
        EXPECT_LE(r->error.maxJoint, s.tolerance) << clip.name;
        EXPECT_LE(r->error.maxVertex, s.tolerance) << clip.name;
        EXPECT_LT(r->compressedBytes, r->originalBytes) << clip.name;
        const Measured mm = measureIndependently(*model, ci, r->clip);
        // The same quantity measured by another path (Animator::evaluate, file-pose matrices for
        // nodes without tracks): float rounding of the two paths apart, within the tolerance.
        EXPECT_LE(mm.joint, s.tolerance + 2e-6) << clip.name;
        EXPECT_LE(mm.vertex, s.tolerance + 2e-6) << clip.name;
        std::printf("%s '%s': %zu -> %zu bytes (%.2fx), keys %zu -> %zu, joint max %.4g, vertex max %.4g (tolerance %.4g model units)\n",
                    GetParam(), clip.name.c_str(), r->originalBytes, r->compressedBytes, r->ratio(), r->originalKeys,
                    r->keptKeys, r->error.maxJoint, r->error.maxVertex, s.tolerance);
        if (ci == 0) expectSamplingMatchesDecoded(*model, r->clip);
    }
}

INSTANTIATE_TEST_SUITE_P(Files, CompressRealFile,
                         ::testing::Values("X/BCN_Epileptic.X", "FBX/animation_with_skeleton.fbx", "BVH/01_01.bvh",
                                           "BVH/Boxing_Toes.bvh", RIGVIEW_SOURCE_DIR "/assets/demo/rigview_demo.gltf"));

// ---------------------------------------------------------------------------------------
// rigview compress, end to end.

namespace {

using rig::testing::run;
using rig::testing::RunResult;

int lineCount(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

const std::string kDemo = RIGVIEW_SOURCE_DIR "/assets/demo/rigview_demo.gltf";

}  // namespace

TEST(CompressCli, BadCommandLinesFailWithOneLine) {
    const std::string out = rig::testing::tempDir() + "/c.glb";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"compress", kDemo, "-o", out, "--tolerance", "-1"},
          std::vector<std::string>{"compress", kDemo, "-o", out, "--tolerance", "abc"},
          std::vector<std::string>{"compress", kDemo, "-o", out, "--tolerance", "nan"},
          std::vector<std::string>{"compress", kDemo, "-o", rig::testing::tempDir() + "/c.txt"},
          std::vector<std::string>{"compress", kDemo, "-o", kDemo}}) {
        RunResult r = run(RIGVIEW_EXE, args);
        EXPECT_EQ(r.exitCode, 2) << args[5] << ": " << r.err;
        EXPECT_EQ(lineCount(r.err), 1) << r.err;
        EXPECT_EQ(r.err.rfind("rigview: ", 0), 0u) << r.err;
    }
    // This one compresses the whole demo before failing to write: under the sanitizers that takes 30-60 s.
    constexpr double kCompressSeconds = 600.0;
    RunResult r = run(RIGVIEW_EXE, {"compress", kDemo, "-o", "/nonexistent-dir/c.glb"}, kCompressSeconds);
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    r = run(RIGVIEW_EXE, {"compress", "/nonexistent-file.gltf", "-o", out});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
}

// The demo at 0.1 mm: the table as JSON, and the written glTF (the kept keys' dequantized values
// as floats) read back poses the model like the original within the tolerance.
// --no-delta: plain codes only; the same tolerance holds, the default (delta blocks where
// smaller) is the smaller file.
TEST(CompressCli, NoDeltaIsLargerWithinTheSameTolerance) {
    const std::string bcn = kModels + "X/BCN_Epileptic.X", out = rig::testing::tempDir() + "/bcn_compressed.glb";
    RunResult a = run(RIGVIEW_EXE, {"compress", bcn, "-o", out, "--json"}, 600.0);
    RunResult b = run(RIGVIEW_EXE, {"compress", bcn, "-o", out, "--json", "--no-delta"}, 600.0);
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const nlohmann::json ja = nlohmann::json::parse(a.out)["clips"][0], jb = nlohmann::json::parse(b.out)["clips"][0];
    EXPECT_TRUE(ja["within_tolerance"].get<bool>());
    EXPECT_TRUE(jb["within_tolerance"].get<bool>());
    EXPECT_LE(jb["vertex_error_mm"]["max"].get<double>(), 0.1);
    EXPECT_LT(ja["compressed_bytes"].get<size_t>(), jb["compressed_bytes"].get<size_t>());
}

TEST(CompressCli, DemoJsonTableAndWrittenFile) {
    const std::string out = rig::testing::tempDir() + "/demo_compressed.glb";
    // A whole compression of the demo: under the sanitizers it takes 30-60 s.
    RunResult r = run(RIGVIEW_EXE, {"compress", kDemo, "-o", out, "--tolerance", "0.1", "--json"}, 600.0);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["clips"].size(), 3u);
    for (const auto& c : j["clips"]) {
        EXPECT_TRUE(c["within_tolerance"].get<bool>());
        EXPECT_LE(c["vertex_error_mm"]["max"].get<double>(), 0.1);
        EXPECT_LE(c["joint_error_mm"]["max"].get<double>(), 0.1);
        EXPECT_LE(c["vertex_error_mm"]["mean"].get<double>(), c["vertex_error_mm"]["max"].get<double>());
        EXPECT_GT(c["ratio"].get<double>(), 1.5);
        EXPECT_LT(c["kept_keys"].get<size_t>(), c["original_keys"].get<size_t>());
    }
    Result<Model> orig = importModel(kDemo);
    Result<Model> back = importModel(out);
    ASSERT_TRUE(orig && back);
    ASSERT_EQ(back->clips.size(), orig->clips.size());
    ASSERT_EQ(back->skeleton.size(), orig->skeleton.size());
    double worst = 0.0;
    for (size_t ci = 0; ci < orig->clips.size(); ++ci) {
        Animator a(*orig), b(*back);
        const Clip& c = orig->clips[ci];
        for (int s = 0; s <= 60; ++s) {
            const float t = c.startTime + (c.duration - c.startTime) * s / 60.0f;
            a.evaluate(static_cast<int32_t>(ci), t);
            b.evaluate(static_cast<int32_t>(ci), t);
            for (size_t mi = 0; mi < orig->meshes.size(); ++mi) {
                const Mesh& m = orig->meshes[mi];
                if (!m.skinned) continue;
                std::vector<glm::vec3> pa(m.positions.size()), pb(m.positions.size());
                skinMesh(m, a.palette().data() + a.paletteOffset(mi), pa.data(), nullptr);
                skinMesh(back->meshes[mi], b.palette().data() + b.paletteOffset(mi), pb.data(), nullptr);
                for (size_t v = 0; v < pa.size(); ++v) {
                    const glm::vec3 wa(a.skinToModel(mi) * glm::vec4(pa[v], 1.0f));
                    const glm::vec3 wb(b.skinToModel(mi) * glm::vec4(pb[v], 1.0f));
                    worst = std::max<double>(worst, glm::length(wa - wb));
                }
            }
        }
    }
    std::printf("demo written as glTF, read back: worst vertex error %.4f mm\n", worst * 1e3);
    EXPECT_LE(worst, 1e-4 + 2e-6);
}

// Testwuson's Wuson_Bind holds the bind pose: every channel is left out, the compressed clip is
// empty (0 bytes, no ratio), and the written file still has the clip (glTF has no empty
// animation: one key at the bind value), posing as the bind pose does.
TEST(CompressCli, AClipAtTheBindPoseKeepsItsPlaceInTheFile) {
    const std::string model = kModels + "X/Testwuson.X";
    const std::string out = rig::testing::tempDir() + "/wuson_compressed.gltf";
    RunResult r = run(RIGVIEW_EXE, {"compress", model, "-o", out, "--json"}, 600.0);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    bool found = false;
    for (const auto& c : j["clips"]) {
        if (c["name"] != "Wuson_Bind") continue;
        found = true;
        EXPECT_EQ(c["compressed_bytes"].get<size_t>(), 0u);
        EXPECT_TRUE(c["ratio"].is_null());
        EXPECT_TRUE(c["within_tolerance"].get<bool>());
    }
    ASSERT_TRUE(found);
    Result<Model> orig = importModel(model);
    Result<Model> back = importModel(out);
    ASSERT_TRUE(orig && back) << (back ? "" : back.error().message);
    ASSERT_EQ(back->clips.size(), orig->clips.size());
    int32_t bindClip = -1;
    for (size_t i = 0; i < back->clips.size(); ++i) {
        if (back->clips[i].name == "Wuson_Bind") bindClip = static_cast<int32_t>(i);
    }
    ASSERT_GE(bindClip, 0);
    EXPECT_GE(back->clips[bindClip].tracks.size(), 1u);
    Animator a(*back), b(*back);
    a.evaluate(bindClip, 0.0f);
    b.evaluatePose(back->skeleton.bindLocalSqt);
    for (size_t n = 0; n < back->skeleton.size(); ++n) {
        EXPECT_LE(glm::length(glm::vec3(a.world()[n][3]) - glm::vec3(b.world()[n][3])), 1e-4f) << n;
    }
}
