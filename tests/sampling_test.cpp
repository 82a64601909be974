// Sampling: keys at, between, before and after; one key; step; slerp vs nlerp; cursors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/rotation_batch.h"
#include "support/rigs.h"

namespace rig {
namespace {

// A clip with one translation channel: keys (1,0,0)@1s, (3,0,0)@2s, (3,4,0)@4s.
Clip translationClip(Interpolation interp) {
    Clip c;
    c.times = {1.0f, 2.0f, 4.0f};
    c.vec3Keys = {{1, 0, 0}, {3, 0, 0}, {3, 4, 0}};
    Track t;
    t.node = 0;
    t.translation = {0, 0, 3, interp};
    c.tracks.push_back(t);
    c.trackOfNode = {0};
    c.duration = 4.0f;
    c.startTime = 1.0f;
    return c;
}

TEST(Sampling, AtBetweenBeforeAndAfterKeys) {
    Clip c = translationClip(Interpolation::Linear);
    const Channel& ch = c.tracks[0].translation;
    uint32_t cur = 0;
    EXPECT_EQ(sampleVec3(c, ch, 1.0f, cur), glm::vec3(1, 0, 0));   // at the first key
    EXPECT_EQ(sampleVec3(c, ch, 2.0f, cur), glm::vec3(3, 0, 0));   // at a middle key
    EXPECT_EQ(sampleVec3(c, ch, 4.0f, cur), glm::vec3(3, 4, 0));   // at the last key
    EXPECT_EQ(sampleVec3(c, ch, 1.5f, cur), glm::vec3(2, 0, 0));   // halfway
    EXPECT_EQ(sampleVec3(c, ch, 3.0f, cur), glm::vec3(3, 2, 0));   // halfway in the 2nd segment
    EXPECT_EQ(sampleVec3(c, ch, 0.0f, cur), glm::vec3(1, 0, 0));   // before the first key holds
    EXPECT_EQ(sampleVec3(c, ch, -7.0f, cur), glm::vec3(1, 0, 0));
    EXPECT_EQ(sampleVec3(c, ch, 9.0f, cur), glm::vec3(3, 4, 0));   // after the last key holds
}

TEST(Sampling, StepHoldsTheEarlierKey) {
    Clip c = translationClip(Interpolation::Step);
    const Channel& ch = c.tracks[0].translation;
    uint32_t cur = 0;
    EXPECT_EQ(sampleVec3(c, ch, 1.99f, cur), glm::vec3(1, 0, 0));
    EXPECT_EQ(sampleVec3(c, ch, 2.0f, cur), glm::vec3(3, 0, 0));
    EXPECT_EQ(sampleVec3(c, ch, 3.9f, cur), glm::vec3(3, 0, 0));
    EXPECT_EQ(sampleVec3(c, ch, 4.0f, cur), glm::vec3(3, 4, 0));
}

TEST(Sampling, SingleKeyIsConstant) {
    Clip c;
    c.times = {0.5f};
    c.vec3Keys = {{7, 8, 9}};
    Channel ch{0, 0, 1, Interpolation::Linear};
    uint32_t cur = 0;
    for (float t : {-1.0f, 0.0f, 0.5f, 3.0f}) EXPECT_EQ(sampleVec3(c, ch, t, cur), glm::vec3(7, 8, 9));
}

TEST(Sampling, CursorMatchesBinarySearchForwardBackwardAndRandom) {
    std::vector<float> times;
    for (int k = 0; k < 300; ++k) times.push_back(0.01f * static_cast<float>(k) + (k % 7 == 0 ? 0.002f : 0.0f));
    auto reference = [&](float t) {
        uint32_t k = 0;
        while (k + 2 < times.size() && times[k + 1] <= t) ++k;
        return k;
    };
    uint32_t cursor = 0;
    // Forward at 60 Hz, backward, then pseudo-random seeks.
    for (float t = -0.1f; t < 3.2f; t += 1.0f / 60.0f) ASSERT_EQ(findKey(times.data(), 300, t, cursor), reference(t)) << t;
    for (float t = 3.2f; t > -0.1f; t -= 1.0f / 60.0f) ASSERT_EQ(findKey(times.data(), 300, t, cursor), reference(t)) << t;
    uint32_t x = 12345;
    for (int i = 0; i < 1000; ++i) {
        x = x * 1664525u + 1013904223u;
        const float t = static_cast<float>(x % 3400) / 1000.0f - 0.1f;
        ASSERT_EQ(findKey(times.data(), 300, t, cursor), reference(t)) << t;
    }
}

// Ticks that skip many keys (dense keys, fast playback): the search gallops from the cursor,
// forwards or backwards, by any distance, and still finds what a whole search finds, also
// among repeated key times and outside the keys.
TEST(Sampling, CursorJumpsOfEveryLengthMatchTheWholeSearch) {
    std::vector<float> times;
    for (int k = 0; k < 500; ++k) times.push_back(0.01f * static_cast<float>(k - k % 3 / 2));  // pairs repeat
    const uint32_t n = static_cast<uint32_t>(times.size());
    auto reference = [&](float t) {
        uint32_t k = 0;
        while (k + 2 < n && times[k + 1] <= t) ++k;
        return k;
    };
    size_t checked = 0;
    for (uint32_t start = 0; start < n; start += 7) {
        for (int jump = -520; jump <= 520; jump += 3) {
            const int target = static_cast<int>(start) + jump;
            const float t = target < 0 ? -1.0f - 0.01f * static_cast<float>(-target)
                            : target >= static_cast<int>(n) ? 10.0f + static_cast<float>(target)
                                                            : times[static_cast<size_t>(target)] + (jump % 2 ? 0.004f : 0.0f);
            uint32_t cursor = start;
            ASSERT_EQ(findKey(times.data(), n, t, cursor), reference(t)) << "from " << start << " by " << jump;
            EXPECT_EQ(cursor, reference(t));
            ++checked;
        }
    }
    EXPECT_GT(checked, 20000u);
}

TEST(Sampling, SlerpTakesTheShortestPathAndKeepsConstantSpeed) {
    const glm::quat a = glm::angleAxis(0.0f, glm::vec3(0, 0, 1));
    const glm::quat b = glm::angleAxis(glm::radians(120.0f), glm::vec3(0, 0, 1));
    // A quarter of the way: 30 degrees exactly with slerp.
    const glm::quat q = slerpShortest(a, b, 0.25f);
    EXPECT_NEAR(glm::degrees(glm::angle(q)), 30.0f, 1e-3f);
    // NLERP is not constant speed: it lands short of 30 degrees at a quarter.
    const glm::quat n = nlerpShortest(a, b, 0.25f);
    EXPECT_LT(glm::degrees(glm::angle(n)), 29.0f);
    // -b is the same rotation; the shortest path must give the same result.
    const glm::quat q2 = slerpShortest(a, -b, 0.25f);
    EXPECT_NEAR(std::fabs(glm::dot(q, q2)), 1.0f, 1e-6f);
    EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
}

TEST(Sampling, BlendingEqualKeysGivesThatKeyExactly) {
    // Not unit length to the last bit, as a file's keys often are not: the formulas would
    // round it through a normalization; the key itself comes back.
    const glm::quat q(0.70710683f, 0.0f, 0.70710683f, 1e-8f);
    for (const float a : {0.001f, 0.3f, 0.5f, 0.999f}) {
        EXPECT_EQ(slerpShortest(q, q, a), q);
        EXPECT_EQ(nlerpShortest(q, q, a), q);
    }
}

TEST(Sampling, RotationBatchesGiveEqualKeysBackInEveryLane) {
    // The samplers take such a key themselves; the batch, given one anyway, agrees.
    std::vector<glm::quat> keys, out(20);
    for (int i = 0; i < 20; ++i) keys.push_back(glm::angleAxis(0.1f * i, glm::normalize(glm::vec3(1, i, 2))) * (1.0f + 1e-7f * i));
    const isa::Level chosen = isa::level();
    for (int form = 0; form < (isa::cpuHasAvx2() ? 2 : 1); ++form) {
        isa::force(form == 1);
        for (const RotationBlend blend : {RotationBlend::Slerp, RotationBlend::Nlerp}) {
            detail::RotationBatch batch;
            for (int i = 0; i < 20; ++i) {
                batch.a[i] = batch.b[i] = &keys[i].x;
                batch.alpha[i] = 0.05f * (i + 1) - 0.01f;
                batch.out[i] = &out[i];
            }
            batch.n = 20;
            if (isa::avx2()) {
                detail::flush<true>(batch, blend);
            } else {
                detail::flush<false>(batch, blend);
            }
            for (int i = 0; i < 20; ++i) EXPECT_EQ(out[i], keys[i]) << "lane " << i << ", form " << form;
        }
    }
    isa::force(chosen);
}

TEST(Sampling, PolynomialSlerpMatchesTrigonometricSlerp) {
    // Reference: slerp in double precision with acos/sin, over angles up to 180 degrees of
    // rotation (quaternion dot down to 0) and the whole [0,1] range of alpha.
    double worst = 0.0;
    for (int ai = 0; ai <= 180; ai += 3) {
        const double half = 0.5 * glm::radians(static_cast<double>(ai));
        const glm::quat a(1, 0, 0, 0);
        const glm::quat b(static_cast<float>(std::cos(half)), 0, 0, static_cast<float>(std::sin(half)));
        for (int k = 0; k <= 20; ++k) {
            const double t = k / 20.0;
            const double th = std::acos(std::min(1.0, static_cast<double>(b.w)));
            double wa = 1 - t, wb = t;
            if (th > 1e-9) {
                wa = std::sin((1 - t) * th) / std::sin(th);
                wb = std::sin(t * th) / std::sin(th);
            }
            const glm::quat q = slerpShortest(a, b, static_cast<float>(t));
            worst = std::max(worst, std::fabs(q.w - (wa * a.w + wb * b.w)));
            worst = std::max(worst, std::fabs(q.z - (wa * a.z + wb * b.z)));
        }
    }
    EXPECT_LT(worst, 5e-7);
}

// sampleClip interpolates rotations in batches, four lanes (SSE2) or eight (AVX2) at a time;
// every lane must give what the scalar sampleQuat gives, bit for bit: keys close together
// (four polynomial terms), farther apart (eight), past 120 degrees (trigonometry), on opposite
// hemispheres (the shortest path), and batches that end part-way through a group.
TEST(Sampling, RotationBatchesGiveTheScalarBitsInEveryForm) {
    for (const int tracks : {1, 5, 8, 13, 32, 33, 70}) {
        Clip c;
        const float times[] = {0.0f, 1.0f, 2.0f};
        const uint32_t run = c.addTimes(times, 3);
        for (int i = 0; i < tracks; ++i) {
            const glm::vec3 axis = glm::normalize(glm::vec3(std::sin(1.7f * i), std::cos(0.9f * i), 0.3f + 0.1f * (i % 5)));
            // Angles between neighbouring keys from 2 to 170 degrees, some keys negated.
            const float angle = glm::radians(2.0f + static_cast<float>((i * 37) % 169));
            const glm::quat k0 = glm::angleAxis(0.2f * i, glm::vec3(0, 1, 0));
            const glm::quat k1 = glm::angleAxis(angle, axis) * k0;
            // Every fourth track holds still over its second segment: keys 1 and 2 the same.
            const glm::quat k2 = i % 4 == 1 ? k1 : glm::angleAxis(0.5f * angle, glm::vec3(1, 0, 0)) * k1;
            Track t;
            t.node = i;
            t.rotation = {run, static_cast<uint32_t>(c.quatKeys.size()), 3, Interpolation::Linear};
            c.quatKeys.push_back(k0);
            c.quatKeys.push_back(i % 3 == 0 && i % 4 != 1 ? -k1 : k1);
            c.quatKeys.push_back(k2);
            c.tracks.push_back(t);
        }
        const std::vector<Transform> bind(static_cast<size_t>(tracks));
        const isa::Level chosen = isa::level();
        for (const RotationBlend blend : {RotationBlend::Slerp, RotationBlend::Nlerp}) {
            for (int form = 0; form < (isa::cpuHasAvx2() ? 2 : 1); ++form) {
                isa::force(form == 1);
                for (const float t : {0.0f, 0.1f, 0.5f, 0.999f, 1.0f, 1.37f, 2.0f, 2.5f}) {
                    std::vector<Transform> local = bind;
                    std::vector<uint32_t> cursors(3 * c.tracks.size(), 0);
                    sampleClip(c, t, bind.data(), local.data(), cursors.data(), blend);
                    for (int i = 0; i < tracks; ++i) {
                        uint32_t cursor = 0;
                        const glm::quat want = sampleQuat(c, c.tracks[i].rotation, t, cursor, blend);
                        const glm::quat got = local[i].rotation;
                        EXPECT_TRUE(got.x == want.x && got.y == want.y && got.z == want.z && got.w == want.w)
                            << tracks << " tracks, track " << i << ", t " << t << ", form " << form;
                        if (i % 4 == 1 && t > 1.0f && t < 2.0f) {  // between two equal keys: that key, exactly
                            EXPECT_EQ(got, c.quatKeys[c.tracks[i].rotation.values + 1]) << "track " << i << ", t " << t;
                        }
                    }
                }
            }
        }
        isa::force(chosen);
    }
}

// A plan regroups every kind of channel: keyed (linear and step, over two runs of times), one
// key, and none (the bind value); sampling by it writes what sampling by the tracks writes.
TEST(SamplingPlan, EveryKindOfChannelGivesTheTracksBits) {
    Clip c;
    const float ta[] = {0.0f, 0.5f, 1.0f, 2.0f};
    const float tb[] = {0.25f, 1.5f};
    const uint32_t ra = c.addTimes(ta, 4), rb = c.addTimes(tb, 2);
    std::vector<Transform> bind(6);
    for (int i = 0; i < 6; ++i) {
        bind[i].translation = glm::vec3(i, 2 * i, -i);
        bind[i].rotation = glm::angleAxis(0.3f * i, glm::vec3(0, 0, 1));
        bind[i].scale = glm::vec3(1.0f + 0.1f * i);
    }
    auto vec3Channel = [&](uint32_t run, uint32_t count, Interpolation interp, float seed) {
        Channel ch{run, static_cast<uint32_t>(c.vec3Keys.size()), count, interp};
        for (uint32_t k = 0; k < count; ++k) c.vec3Keys.push_back(glm::vec3(seed + k, seed * k, 1.0f - seed));
        return ch;
    };
    auto quatChannel = [&](uint32_t run, uint32_t count, Interpolation interp, float seed) {
        Channel ch{run, static_cast<uint32_t>(c.quatKeys.size()), count, interp};
        for (uint32_t k = 0; k < count; ++k) c.quatKeys.push_back(glm::angleAxis(seed + 0.7f * k, glm::normalize(glm::vec3(1, seed, 2))));
        return ch;
    };
    // Node 1: all keyed, run a; node 2: step rotation on run b, one-key translation, no scale;
    // node 4: no channel at all but a one-key scale; node 5: linear scale on run b. Node 3: no track.
    Track t1{1, vec3Channel(ra, 4, Interpolation::Linear, 0.1f), quatChannel(ra, 4, Interpolation::Linear, 0.2f),
             vec3Channel(ra, 4, Interpolation::Linear, 0.3f)};
    Track t2{2, vec3Channel(0, 1, Interpolation::Linear, 0.4f), quatChannel(rb, 2, Interpolation::Step, 0.5f), Channel{}};
    Track t4{4, Channel{}, Channel{}, vec3Channel(0, 1, Interpolation::Linear, 0.6f)};
    Track t5{5, vec3Channel(rb, 2, Interpolation::Step, 0.7f), Channel{}, vec3Channel(rb, 2, Interpolation::Linear, 0.8f)};
    // Node 0: a translation whose four keys are one vector (copied, not interpolated), and a
    // scale whose equal keys hold a -0 (interpolated: -0 + (-0 - -0) * a is +0).
    auto steadyChannel = [&](glm::vec3 v) {
        Channel ch{ra, static_cast<uint32_t>(c.vec3Keys.size()), 4, Interpolation::Linear};
        for (int k = 0; k < 4; ++k) c.vec3Keys.push_back(v);
        return ch;
    };
    Track t0{0, steadyChannel(glm::vec3(1.0f, 2.0f, 3.0f)), Channel{}, steadyChannel(glm::vec3(-0.0f, 1.0f, 1.0f))};
    c.tracks = {t0, t1, t2, t4, t5};
    c.trackOfNode = {0, 1, 2, -1, 3, 4};
    c.duration = 2.0f;
    const SamplingPlan plan = buildSamplingPlan(c);
    ASSERT_TRUE(plan.validFor(c));
    EXPECT_EQ(plan.runs.size(), 2u);
    EXPECT_EQ(plan.translations.size() + plan.oneKeyTranslations.size() + plan.bindTranslations.size(), 5u);
    EXPECT_EQ(plan.oneKeyTranslations.size(), 2u);  // node 2's one key and node 0's steady keys
    EXPECT_EQ(plan.scales.size(), 3u);              // nodes 1, 5 and node 0's -0 keys
    EXPECT_EQ(plan.bindRotations.size(), 3u);
    const isa::Level chosen = isa::level();
    for (int form = 0; form < (isa::cpuHasAvx2() ? 2 : 1); ++form) {
        isa::force(form == 1);
        std::vector<uint32_t> ca(3 * c.tracks.size(), 0), cb(3 * c.tracks.size(), 0), ck(3 * c.tracks.size(), 0);
        // Keyed only: into a pose that holds the still components from one full sample.
        std::vector<Transform> k(6);
        sampleClip(plan, 1.7f, bind.data(), k.data(), ck.data(), RotationBlend::Slerp);
        for (const float t : {-1.0f, 0.0f, 0.1f, 0.25f, 0.5f, 0.7f, 1.4f, 1.5f, 1.9f, 2.0f, 3.0f, 0.3f}) {
            std::vector<Transform> a(6), b(6);
            sampleClip(c, t, bind.data(), a.data(), ca.data(), RotationBlend::Slerp);
            sampleClip(plan, t, bind.data(), b.data(), cb.data(), RotationBlend::Slerp);
            sampleClipKeyed(plan, t, k.data(), ck.data(), RotationBlend::Slerp);
            for (int n : {0, 1, 2, 4, 5}) EXPECT_EQ(std::memcmp(&a[n], &b[n], sizeof(Transform)), 0) << "node " << n << " t " << t;
            for (int n : {0, 1, 2, 4, 5}) EXPECT_EQ(std::memcmp(&a[n], &k[n], sizeof(Transform)), 0) << "keyed, node " << n << " t " << t;
        }
        // What it leaves alone: node 3 (no track), node 2's translation (one key) and scale (no
        // channel), node 0's translation (steady keys), node 4 (one-key scale, nothing else).
        std::vector<Transform> marked(6);
        for (Transform& x : marked) x.translation = x.scale = glm::vec3(7.0f), x.rotation = glm::quat(7.0f, 7.0f, 7.0f, 7.0f);
        sampleClipKeyed(plan, 0.5f, marked.data(), ck.data(), RotationBlend::Slerp);
        EXPECT_EQ(marked[3].translation, glm::vec3(7.0f));
        EXPECT_EQ(marked[3].rotation, glm::quat(7.0f, 7.0f, 7.0f, 7.0f));
        EXPECT_EQ(marked[2].translation, glm::vec3(7.0f));
        EXPECT_EQ(marked[2].scale, glm::vec3(7.0f));
        EXPECT_EQ(marked[0].translation, glm::vec3(7.0f));
        EXPECT_EQ(marked[4].scale, glm::vec3(7.0f));
        EXPECT_NE(marked[1].rotation, glm::quat(7.0f, 7.0f, 7.0f, 7.0f));
        EXPECT_NE(marked[5].scale, glm::vec3(7.0f));
    }
    isa::force(chosen);
    // Two tracks for one node (the tracks' sampler lets the last win): no plan.
    Clip twice = c;
    twice.tracks[2].node = 1;
    EXPECT_FALSE(buildSamplingPlan(twice).validFor(twice));
    // A channel past the keys: no plan.
    Clip past = c;
    past.tracks[1].rotation.values = 1000;
    EXPECT_FALSE(buildSamplingPlan(past).validFor(past));
    // A node past the pose the plan is for: no plan.
    EXPECT_FALSE(buildSamplingPlan(c, 5).validFor(c));
    EXPECT_TRUE(buildSamplingPlan(c, 6).validFor(c));
    // A plan is for the clip it was built from.
    EXPECT_FALSE(plan.validFor(twice));
}

// A run of kFrameMajorKeys keys or more is read frame by frame from the plan's own copy: the
// same bits as the tracks, for linear and step translations, scales and rotations, equal
// neighbouring keys, a second long run and a short one, at 60 Hz forwards (25 keys a tick),
// backwards, jumps and outside the keys, in every form.
TEST(SamplingPlan, LongRunsReadFrameByFrameGiveTheTracksBits) {
    Clip c;
    const uint32_t n = 3 * SamplingPlan::kFrameMajorKeys + 7, m = SamplingPlan::kFrameMajorKeys + 1;
    std::vector<float> ta(n), tb(m);
    for (uint32_t k = 0; k < n; ++k) ta[k] = 2.0f * static_cast<float>(k) / static_cast<float>(n - 1);
    for (uint32_t k = 0; k < m; ++k) tb[k] = 0.3f + 0.013f * static_cast<float>(k * k % 7 + 10 * k);
    const float tc[] = {0.0f, 1.0f, 2.0f};
    const uint32_t ra = c.addTimes(ta.data(), n), rb = c.addTimes(tb.data(), m), rc = c.addTimes(tc, 3);
    auto vec3Channel = [&](uint32_t run, uint32_t count, Interpolation interp, float seed) {
        Channel ch{run, static_cast<uint32_t>(c.vec3Keys.size()), count, interp};
        for (uint32_t k = 0; k < count; ++k) c.vec3Keys.push_back(glm::vec3(std::sin(seed * k), seed + k, k % 5 == 0 ? 1.0f : seed * k));
        return ch;
    };
    auto quatChannel = [&](uint32_t run, uint32_t count, Interpolation interp, float seed) {
        Channel ch{run, static_cast<uint32_t>(c.quatKeys.size()), count, interp};
        for (uint32_t k = 0; k < count; ++k) {
            // Every fourth key repeats the one before (equal keys inside a long run).
            c.quatKeys.push_back(k % 4 == 3 ? c.quatKeys.back() : glm::angleAxis(seed * k, glm::normalize(glm::vec3(1, seed, 2))));
        }
        return ch;
    };
    std::vector<Transform> bind(8);
    for (int i = 0; i < 8; ++i) bind[i].translation = glm::vec3(i, 0, 0);
    c.tracks = {Track{0, vec3Channel(ra, n, Interpolation::Linear, 0.1f), quatChannel(ra, n, Interpolation::Linear, 0.2f),
                      vec3Channel(ra, n, Interpolation::Linear, 0.3f)},
                Track{2, vec3Channel(ra, n, Interpolation::Step, 0.4f), quatChannel(ra, n, Interpolation::Step, 0.5f), Channel{}},
                Track{3, Channel{}, quatChannel(rb, m, Interpolation::Linear, 0.6f), vec3Channel(rb, m, Interpolation::Step, 0.7f)},
                Track{5, vec3Channel(rc, 3, Interpolation::Linear, 0.8f), quatChannel(ra, n, Interpolation::Linear, 0.9f), Channel{}},
                Track{6, Channel{}, Channel{}, vec3Channel(ra, n, Interpolation::Linear, 1.1f)}};
    c.trackOfNode = {0, -1, 1, 2, -1, 3, 4, -1};
    c.duration = 2.0f;
    const SamplingPlan plan = buildSamplingPlan(c);
    ASSERT_TRUE(plan.validFor(c));
    size_t frameMajor = 0;
    for (const SamplingPlan::Run& r : plan.runs) frameMajor += r.frameVec3 != UINT32_MAX;
    EXPECT_EQ(frameMajor, 2u);  // runs a and b; c is short
    std::vector<float> times;
    for (int k = 0; k < 150; ++k) times.push_back(k / 60.0f);
    for (int k = 0; k < 30; ++k) times.push_back(1.9f - k * 0.05f);
    for (float t : {-0.5f, 0.0f, 2.0f, 2.5f, 1.0f, 0.31f, 1.7f, 0.01f}) times.push_back(t);
    const isa::Level chosen = isa::level();
    for (int level = 0; level < isa::levelsHere(); ++level) {
        isa::force(static_cast<isa::Level>(level));
        for (const RotationBlend blend : {RotationBlend::Slerp, RotationBlend::Nlerp}) {
            std::vector<uint32_t> ca(3 * c.tracks.size(), 0), cb(3 * c.tracks.size(), 0);
            std::vector<Transform> a(bind), b(bind);
            for (const float t : times) {
                sampleClip(c, t, bind.data(), a.data(), ca.data(), blend);
                sampleClip(plan, t, bind.data(), b.data(), cb.data(), blend);
                for (int node = 0; node < 8; ++node) {
                    ASSERT_EQ(std::memcmp(&a[node], &b[node], sizeof(Transform)), 0) << "node " << node << " t " << t << " level " << level;
                }
            }
        }
    }
    isa::force(chosen);
}

// A run of fewer keys whose keys take 16 KB or more (buildSamplingPlan; 64 joints of T, R and S,
// 61 keys: 156 KB) is read frame by frame too, with the tracks' bits; a small one (4 joints,
// 10 keys) is not.
TEST(SamplingPlan, ShortRunsOfManyComponentsReadFrameByFrameGiveTheTracksBits) {
    for (const auto& [joints, keys, want] : {std::tuple{64, 61, 1u}, std::tuple{4, 10, 0u}}) {
        const Model m = testing::makeChain(joints, keys);
        const Clip& c = m.clips[0];
        const SamplingPlan plan = buildSamplingPlan(c, m.skeleton.size());
        ASSERT_TRUE(plan.validFor(c));
        ASSERT_EQ(plan.runs.size(), 1u);
        ASSERT_LT(plan.runs[0].count, SamplingPlan::kFrameMajorKeys);
        EXPECT_EQ(plan.runs[0].frameVec3 != UINT32_MAX ? 1u : 0u, want) << joints << " joints";
        const std::vector<Transform>& bind = m.skeleton.bindLocalSqt;
        const isa::Level chosen = isa::level();
        for (int level = 0; level < isa::levelsHere(); ++level) {
            isa::force(static_cast<isa::Level>(level));
            std::vector<uint32_t> ca(3 * c.tracks.size(), 0), cb(3 * c.tracks.size(), 0);
            std::vector<Transform> a(bind), b(bind);
            for (int k = 0; k < 200; ++k) {
                const float t = k < 150 ? static_cast<float>(k) / 60.0f : c.duration * static_cast<float>(k - 150) / 37.0f;
                sampleClip(c, t, bind.data(), a.data(), ca.data(), RotationBlend::Slerp);
                sampleClip(plan, t, bind.data(), b.data(), cb.data(), RotationBlend::Slerp);
                ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0) << "t " << t << " level " << level;
            }
        }
        isa::force(chosen);
    }
}

TEST(Sampling, ChannelsWithEqualTimesShareOneRun) {
    Clip c;
    const float t1[] = {0.0f, 0.5f, 1.0f};
    const float t2[] = {0.0f, 0.25f, 1.0f};
    const uint32_t a = c.addTimes(t1, 3);
    EXPECT_EQ(c.addTimes(t1, 3), a);
    const uint32_t b = c.addTimes(t2, 3);
    EXPECT_NE(b, a);
    EXPECT_EQ(c.times.size(), 6u);
}

TEST(Sampling, SampleClipFillsBindValuesForMissingChannels) {
    Model m = testing::makeTwoBone();
    std::vector<Transform> local = m.skeleton.bindLocalSqt;
    std::vector<uint32_t> cursors(3 * m.clips[0].tracks.size(), 0);
    sampleClip(m.clips[0], 0.5f, m.skeleton.bindLocalSqt.data(), local.data(), cursors.data(), RotationBlend::Slerp);
    EXPECT_EQ(local[1].translation, glm::vec3(0, 1, 0));  // no translation channel: bind value
    EXPECT_NEAR(glm::degrees(glm::angle(local[1].rotation)), 45.0f, 1e-3f);
    EXPECT_EQ(local[1].scale, glm::vec3(1));
}

// Morph weights, two targets, keys at 1 s and 3 s (and 4 s): values worked out by hand.
Clip morphClip(WeightInterpolation interp) {
    Clip c;
    c.times = {1.0f, 3.0f, 4.0f};
    MorphTrack m;
    m.mesh = 0;
    m.targets = 2;
    m.count = 3;
    m.interpolation = interp;
    if (interp == WeightInterpolation::CubicSpline) {
        // Per key: in-tangents, values, out-tangents.
        c.morphKeys = {0, 0, 0.0f, 1.0f, 0.5f, -1.0f,
                       2.0f, 0, 1.0f, 0.0f, 0, 0,
                       0, 0, 0.5f, 0.5f, 0, 0};
    } else {
        c.morphKeys = {0.0f, 1.0f, 1.0f, 0.0f, 0.5f, 0.5f};
    }
    c.morphTracks = {m};
    return c;
}

TEST(MorphSampling, LinearStepAndHeldEnds) {
    float w[2];
    uint32_t cursor = 0;
    const Clip lin = morphClip(WeightInterpolation::Linear);
    sampleMorphTrack(lin, lin.morphTracks[0], 2.0f, cursor, w);  // halfway through 1..3
    EXPECT_FLOAT_EQ(w[0], 0.5f);
    EXPECT_FLOAT_EQ(w[1], 0.5f);
    sampleMorphTrack(lin, lin.morphTracks[0], 3.5f, cursor, w);  // halfway through 3..4
    EXPECT_FLOAT_EQ(w[0], 0.75f);
    EXPECT_FLOAT_EQ(w[1], 0.25f);
    sampleMorphTrack(lin, lin.morphTracks[0], 0.0f, cursor, w);  // before the first key
    EXPECT_FLOAT_EQ(w[0], 0.0f);
    EXPECT_FLOAT_EQ(w[1], 1.0f);
    sampleMorphTrack(lin, lin.morphTracks[0], 9.0f, cursor, w);  // after the last
    EXPECT_FLOAT_EQ(w[0], 0.5f);
    const Clip step = morphClip(WeightInterpolation::Step);
    sampleMorphTrack(step, step.morphTracks[0], 2.99f, cursor, w);
    EXPECT_FLOAT_EQ(w[0], 0.0f);
    sampleMorphTrack(step, step.morphTracks[0], 3.0f, cursor, w);  // at a key: that key
    EXPECT_FLOAT_EQ(w[0], 1.0f);
}

TEST(MorphSampling, CubicSplineIsGltfsHermite) {
    const Clip c = morphClip(WeightInterpolation::CubicSpline);
    float w[2];
    uint32_t cursor = 0;
    // t = 2 in 1..3: s = 0.5, segment 2 s long. h00 = h01 = 0.5, h10 = 0.125 * 2,
    // h11 = -0.125 * 2. Target 0: 0.5*0 + 0.25*0.5 + 0.5*1 - 0.25*2 = 0.125.
    // Target 1: 0.5*1 + 0.25*(-1) + 0.5*0 - 0.25*0 = 0.25.
    sampleMorphTrack(c, c.morphTracks[0], 2.0f, cursor, w);
    EXPECT_NEAR(w[0], 0.125f, 1e-6f);
    EXPECT_NEAR(w[1], 0.25f, 1e-6f);
    // At keys: the values, not the tangents.
    sampleMorphTrack(c, c.morphTracks[0], 3.0f, cursor, w);
    EXPECT_FLOAT_EQ(w[0], 1.0f);
    EXPECT_FLOAT_EQ(w[1], 0.0f);
    sampleMorphTrack(c, c.morphTracks[0], 1.0f, cursor, w);
    EXPECT_FLOAT_EQ(w[1], 1.0f);
}

TEST(MorphSampling, ClipRangeCoversMorphOnlyClips) {
    Clip c = morphClip(WeightInterpolation::Linear);
    extendClipRangeToMorphs(c);
    EXPECT_FLOAT_EQ(c.startTime, 1.0f);
    EXPECT_FLOAT_EQ(c.duration, 4.0f);
}

}  // namespace
}  // namespace rig
