// Animation controller and pose blending: known answers on small rigs, computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/blend.h"
#include "anim/offline/clip_tools.h"
#include "anim/control/clock.h"
#include "anim/control/controller.h"
#include "anim/runtime/pose.h"
#include "support/rigs.h"

namespace rig {
namespace {

// ---------------------------------------------------------------------------------------
// Helpers

glm::quat rotX(float deg) { return glm::angleAxis(glm::radians(deg), glm::vec3(1, 0, 0)); }
glm::quat rotZ(float deg) { return glm::angleAxis(glm::radians(deg), glm::vec3(0, 0, 1)); }

// Signed angle (degrees) of a rotation about +Z.
float angleZ(const glm::quat& q) {
    float a = glm::degrees(2.0f * std::atan2(q.z, q.w));
    if (a > 180.0f) a -= 360.0f;
    if (a < -180.0f) a += 360.0f;
    return a;
}

// Angle (radians) between two rotations, whatever the quaternions' signs: from the chord
// |a - b| = 2 sin(angle / 4), which keeps its precision for small angles (acos does not).
double rotationGap(const glm::quat& a, const glm::quat& b) {
    const glm::dvec4 da(a.x, a.y, a.z, a.w), db(b.x, b.y, b.z, b.w);
    const double chord = std::min(glm::length(da - db), glm::length(da + db));
    return 4.0 * std::asin(std::min(1.0, chord / 2.0));
}

#define EXPECT_VEC3_NEAR(a, b, eps)                 \
    do {                                            \
        const glm::vec3 va_ = (a), vb_ = (b);       \
        EXPECT_NEAR(va_.x, vb_.x, eps) << #a;       \
        EXPECT_NEAR(va_.y, vb_.y, eps) << #a;       \
        EXPECT_NEAR(va_.z, vb_.z, eps) << #a;       \
    } while (0)

void addNode(Skeleton& sk, const std::string& name, int32_t parent, const glm::vec3& offset,
             const glm::quat& rotation = glm::quat(1, 0, 0, 0)) {
    sk.names.push_back(name);
    sk.parent.push_back(parent);
    Transform t;
    t.translation = offset;
    t.rotation = rotation;
    sk.bindLocalSqt.push_back(t);
    sk.bindLocal.push_back(toMatrix(t));
}

// Builds a clip channel by channel; duration and startTime from the keys.
class ClipBuilder {
public:
    ClipBuilder(std::string name, size_t nodes) {
        clip_.name = std::move(name);
        clip_.ticksPerSecond = 1.0;
        clip_.trackOfNode.assign(nodes, -1);
    }
    ClipBuilder& translation(int32_t node, const std::vector<float>& t, const std::vector<glm::vec3>& v) {
        track(node).translation = vec3Channel(t, v);
        return *this;
    }
    ClipBuilder& scale(int32_t node, const std::vector<float>& t, const std::vector<glm::vec3>& v) {
        track(node).scale = vec3Channel(t, v);
        return *this;
    }
    ClipBuilder& rotation(int32_t node, const std::vector<float>& t, const std::vector<glm::quat>& v) {
        Channel ch;
        ch.times = clip_.addTimes(t.data(), static_cast<uint32_t>(t.size()));
        ch.values = static_cast<uint32_t>(clip_.quatKeys.size());
        ch.count = static_cast<uint32_t>(t.size());
        clip_.quatKeys.insert(clip_.quatKeys.end(), v.begin(), v.end());
        span(t);
        track(node).rotation = ch;
        return *this;
    }
    Clip build() {
        std::sort(clip_.tracks.begin(), clip_.tracks.end(), [](const Track& a, const Track& b) { return a.node < b.node; });
        for (size_t i = 0; i < clip_.tracks.size(); ++i) clip_.trackOfNode[clip_.tracks[i].node] = static_cast<int32_t>(i);
        clip_.startTime = first_;
        clip_.duration = last_;
        return clip_;
    }

private:
    Track& track(int32_t node) {
        for (Track& tr : clip_.tracks) {
            if (tr.node == node) return tr;
        }
        clip_.tracks.emplace_back();
        clip_.tracks.back().node = node;
        return clip_.tracks.back();
    }
    Channel vec3Channel(const std::vector<float>& t, const std::vector<glm::vec3>& v) {
        Channel ch;
        ch.times = clip_.addTimes(t.data(), static_cast<uint32_t>(t.size()));
        ch.values = static_cast<uint32_t>(clip_.vec3Keys.size());
        ch.count = static_cast<uint32_t>(t.size());
        clip_.vec3Keys.insert(clip_.vec3Keys.end(), v.begin(), v.end());
        span(t);
        return ch;
    }
    void span(const std::vector<float>& t) {
        for (float x : t) {
            first_ = std::min(first_, x);
            last_ = std::max(last_, x);
        }
    }
    Clip clip_;
    float first_ = INFINITY, last_ = 0.0f;
};

// hips(0) -> spine(1) -> arm(2); hips(0) -> leg(3): "upper body" is spine's subtree.
Model makeBody() {
    Model m;
    m.path = "body";
    addNode(m.skeleton, "hips", -1, {0, 1, 0});
    addNode(m.skeleton, "spine", 0, {0, 0.5f, 0});
    addNode(m.skeleton, "arm", 1, {0.5f, 0.3f, 0});
    addNode(m.skeleton, "leg", 0, {0.2f, -0.5f, 0});
    m.skeleton.computeBindModel();
    return m;
}

// Every node rotated `deg` about Z, constant over 1 s.
Clip constantRotationClip(const std::string& name, size_t nodes, float deg) {
    ClipBuilder b(name, nodes);
    for (size_t i = 0; i < nodes; ++i) b.rotation(static_cast<int32_t>(i), {0.0f, 1.0f}, {rotZ(deg), rotZ(deg)});
    return b.build();
}

// The two-bone rig with a second clip "unbend": tip from 0 to -90 degrees about Z over 1 s.
Model makeTwoBoneTwoClips() {
    Model m = testing::makeTwoBone();
    m.clips.push_back(ClipBuilder("unbend", 2).rotation(1, {0.0f, 1.0f}, {rotZ(0.0f), rotZ(-90.0f)}).build());
    return m;
}

std::vector<AnimEvent> eventsOf(const Controller& c) {
    std::vector<AnimEvent> out(c.eventCount());
    out.resize(c.events(out));
    return out;
}

std::vector<std::string> namesOf(const std::vector<AnimEvent>& events) {
    std::vector<std::string> out;
    for (const AnimEvent& e : events) out.emplace_back(e.name);
    return out;
}

using Names = std::vector<std::string>;

// ---------------------------------------------------------------------------------------
// Ease curves

TEST(Ease, CurvesAtZeroHalfOne) {
    const EaseCurve curves[] = {EaseCurve::Linear, EaseCurve::SmoothStep, EaseCurve::CubicIn,
                                EaseCurve::CubicOut, EaseCurve::CubicInOut, EaseCurve::Bezier};
    const float half[] = {0.5f, 0.5f, 0.125f, 0.875f, 0.5f, 0.5f};  // Bezier: CSS ease-in-out
    for (int i = 0; i < 6; ++i) {
        Ease e;
        e.curve = curves[i];
        EXPECT_NEAR(applyEase(e, 0.0f), 0.0f, 1e-6f) << i;
        EXPECT_NEAR(applyEase(e, 0.5f), half[i], 1e-5f) << i;
        EXPECT_NEAR(applyEase(e, 1.0f), 1.0f, 1e-6f) << i;
        EXPECT_NEAR(applyEase(e, -3.0f), 0.0f, 1e-6f) << i;  // clamped
        EXPECT_NEAR(applyEase(e, 7.0f), 1.0f, 1e-6f) << i;
    }
    Ease smooth{EaseCurve::SmoothStep};
    EXPECT_NEAR(applyEase(smooth, 0.25f), 0.15625f, 1e-6f);  // 3/16 - 2/64
    Ease cubicInOut{EaseCurve::CubicInOut};
    EXPECT_NEAR(applyEase(cubicInOut, 0.25f), 0.0625f, 1e-6f);
    EXPECT_NEAR(applyEase(cubicInOut, 0.75f), 0.9375f, 1e-6f);
    // Bezier with control points on the diagonal is the identity.
    EXPECT_NEAR(cubicBezierEase(0.25f, 0.25f, 0.75f, 0.75f, 0.3f), 0.3f, 1e-5f);
    // CSS "ease" (0.25, 0.1, 0.25, 1): y(0.5) = 0.8024 (browser tables).
    EXPECT_NEAR(applyEase(Ease::bezier(0.25f, 0.1f, 0.25f, 1.0f), 0.5f), 0.8024f, 1e-3f);
}

// ---------------------------------------------------------------------------------------
// Pose primitives

TEST(Blend, TransformLerpsTranslationAndScaleAndSlerpsRotation) {
    Transform a, b;
    a.translation = {0, 0, 0};
    b.translation = {2, 0, 0};
    a.scale = glm::vec3(1);
    b.scale = glm::vec3(3);
    a.rotation = rotZ(0);
    b.rotation = rotZ(90);
    const Transform r = blendTransforms(a, b, 0.25f);
    EXPECT_VEC3_NEAR(r.translation, glm::vec3(0.5f, 0, 0), 1e-6f);
    EXPECT_VEC3_NEAR(r.scale, glm::vec3(1.5f), 1e-6f);
    EXPECT_NEAR(angleZ(r.rotation), 22.5f, 1e-4f);
    // Shortest path: -q is the same rotation.
    b.rotation = -b.rotation;
    EXPECT_NEAR(angleZ(blendTransforms(a, b, 0.5f).rotation), 45.0f, 1e-4f);
    // Weights outside [0, 1] clamp.
    EXPECT_VEC3_NEAR(blendTransforms(a, b, 2.0f).translation, glm::vec3(2, 0, 0), 1e-6f);
}

TEST(Blend, MaskedBlendUpperBodyFromOneClipLowerFromAnother) {
    const Model m = makeBody();
    const Skeleton& sk = m.skeleton;
    const JointMask upper = maskFromSubtree(sk, sk.find("spine"));
    EXPECT_EQ(upper.weights, (std::vector<float>{0, 1, 1, 0}));
    const JointMask lower = invertMask(upper);
    EXPECT_EQ(lower.weights, (std::vector<float>{1, 0, 0, 1}));
    EXPECT_EQ(combineMasks(upper, maskFromSubtree(sk, sk.find("leg"), 0.5f), MaskCombine::Max).weights,
              (std::vector<float>{0, 1, 1, 0.5f}));
    EXPECT_EQ(combineMasks(upper, lower, MaskCombine::Min).weights, (std::vector<float>{0, 0, 0, 0}));
    EXPECT_EQ(combineMasks(upper, lower, MaskCombine::Add).weights, (std::vector<float>{1, 1, 1, 1}));
    EXPECT_EQ(maskFromSubtree(sk, 99).weights, (std::vector<float>{0, 0, 0, 0}));

    Pose walk(4), wave(4), out(4);
    for (int i = 0; i < 4; ++i) {
        walk[i].rotation = rotZ(10);
        wave[i].rotation = rotZ(50);
    }
    blendPosesMasked(walk, wave, upper.weights, out);
    EXPECT_NEAR(angleZ(out[0].rotation), 10.0f, 1e-4f);  // hips: walk
    EXPECT_NEAR(angleZ(out[1].rotation), 50.0f, 1e-4f);  // spine: wave
    EXPECT_NEAR(angleZ(out[2].rotation), 50.0f, 1e-4f);  // arm: wave
    EXPECT_NEAR(angleZ(out[3].rotation), 10.0f, 1e-4f);  // leg: walk
    blendPosesMasked(walk, wave, upper.weights, out, 0.5f);
    EXPECT_NEAR(angleZ(out[1].rotation), 30.0f, 1e-4f);
    EXPECT_NEAR(angleZ(out[3].rotation), 10.0f, 1e-4f);
}

TEST(Additive, DifferenceOfAPoseWithItselfLeavesTheBaseUnchanged) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Pose p(5), base(5), out(5);
    for (int i = 0; i < 5; ++i) {
        p[i].translation = {u(rng), u(rng), u(rng)};
        p[i].rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
        p[i].scale = glm::vec3(1.5f + u(rng));
        base[i].translation = {u(rng), u(rng), u(rng)};
        base[i].rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
        base[i].scale = glm::vec3(1.5f + u(rng), 1.2f, 0.8f);
    }
    const Pose d = makeDifference(p, p);
    for (float w : {1.0f, 0.5f}) {
        applyAdditive(base, d, w, out);
        for (int i = 0; i < 5; ++i) {
            EXPECT_VEC3_NEAR(out[i].translation, base[i].translation, 1e-6f);
            EXPECT_VEC3_NEAR(out[i].scale, base[i].scale, 1e-6f);
            EXPECT_LT(rotationGap(out[i].rotation, base[i].rotation), 1e-3);
        }
    }
}

TEST(Additive, AddsAKnownRotationTranslationAndScale) {
    Transform ref, src, base;
    ref.rotation = rotZ(10);
    ref.translation = {0, 1, 0};
    ref.scale = glm::vec3(1);
    src = ref;
    src.rotation = rotX(30) * ref.rotation;  // 30 degrees about X on top of the reference
    src.translation = ref.translation + glm::vec3(1, 0, 0);
    src.scale = glm::vec3(2, 1, 1);
    base.rotation = rotZ(45);
    base.translation = {0, 1, 0};
    base.scale = glm::vec3(1, 1, 3);
    const Transform d = differenceTransform(src, ref);
    EXPECT_LT(rotationGap(d.rotation, rotX(30)), 1e-4);

    const Transform full = addTransform(base, d, 1.0f);
    EXPECT_LT(rotationGap(full.rotation, rotX(30) * rotZ(45)), 1e-4);
    EXPECT_VEC3_NEAR(full.translation, glm::vec3(1, 1, 0), 1e-6f);
    EXPECT_VEC3_NEAR(full.scale, glm::vec3(2, 1, 3), 1e-6f);

    const Transform half = addTransform(base, d, 0.5f);
    EXPECT_LT(rotationGap(half.rotation, rotX(15) * rotZ(45)), 1e-4);
    EXPECT_VEC3_NEAR(half.translation, glm::vec3(0.5f, 1, 0), 1e-6f);
    EXPECT_VEC3_NEAR(half.scale, glm::vec3(1.5f, 1, 3), 1e-6f);

    // Adding difference(S, R) to R gives S.
    const Transform back = addTransform(ref, d, 1.0f);
    EXPECT_LT(rotationGap(back.rotation, src.rotation), 1e-4);
    EXPECT_VEC3_NEAR(back.translation, src.translation, 1e-6f);
    EXPECT_VEC3_NEAR(back.scale, src.scale, 1e-6f);
}

// ---------------------------------------------------------------------------------------
// Blend spaces

TEST(BlendSpace1D, WeightsAtAndBetweenPoints) {
    // Given out of order: weights come back in the order given.
    const BlendSpace1D s({{/*run*/ 1, 3.0f}, {/*walk*/ 0, 1.0f}});
    float w[2];
    auto at = [&](float x) {
        s.weights(x, w);
        return std::vector<float>{w[0], w[1]};
    };
    EXPECT_EQ(at(1.0f), (std::vector<float>{0.0f, 1.0f}));   // on walk
    EXPECT_EQ(at(3.0f), (std::vector<float>{1.0f, 0.0f}));   // on run
    EXPECT_EQ(at(2.0f), (std::vector<float>{0.5f, 0.5f}));
    EXPECT_EQ(at(2.5f), (std::vector<float>{0.75f, 0.25f}));
    EXPECT_EQ(at(0.0f), (std::vector<float>{0.0f, 1.0f}));   // clamped below
    EXPECT_EQ(at(9.0f), (std::vector<float>{1.0f, 0.0f}));   // clamped above

    const BlendSpace1D three({{0, 0.0f}, {1, 1.0f}, {2, 3.0f}});  // idle, walk, run
    float w3[3];
    three.weights(0.25f, w3);
    EXPECT_FLOAT_EQ(w3[0], 0.75f);
    EXPECT_FLOAT_EQ(w3[1], 0.25f);
    EXPECT_FLOAT_EQ(w3[2], 0.0f);
    three.weights(1.5f, w3);
    EXPECT_FLOAT_EQ(w3[0], 0.0f);
    EXPECT_FLOAT_EQ(w3[1], 0.75f);
    EXPECT_FLOAT_EQ(w3[2], 0.25f);
}

TEST(BlendSpace2D, BarycentricInsideATriangleAndClampedOutside) {
    const BlendSpace2D s({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}});
    ASSERT_EQ(s.triangles().size(), 1u);
    float w[3];
    s.weights({0.25f, 0.25f}, w);
    EXPECT_NEAR(w[0], 0.5f, 1e-6f);
    EXPECT_NEAR(w[1], 0.25f, 1e-6f);
    EXPECT_NEAR(w[2], 0.25f, 1e-6f);
    s.weights({1.0f, 0.0f}, w);  // on a corner
    EXPECT_NEAR(w[1], 1.0f, 1e-6f);
    // Outside: clamped to the nearest boundary point.
    s.weights({1.0f, 1.0f}, w);  // nearest: (0.5, 0.5) on the hypotenuse
    EXPECT_NEAR(w[0], 0.0f, 1e-6f);
    EXPECT_NEAR(w[1], 0.5f, 1e-6f);
    EXPECT_NEAR(w[2], 0.5f, 1e-6f);
    s.weights({0.25f, -2.0f}, w);  // below the bottom edge: (0.25, 0)
    EXPECT_NEAR(w[0], 0.75f, 1e-6f);
    EXPECT_NEAR(w[1], 0.25f, 1e-6f);
    EXPECT_NEAR(w[2], 0.0f, 1e-6f);
    s.weights({-1.0f, -0.5f}, w);  // nearest: the corner (0, 0)
    EXPECT_NEAR(w[0], 1.0f, 1e-6f);
}

TEST(BlendSpace2D, DelaunayOverArbitraryPoints) {
    // A 3 x 3 grid (many cocircular quadruples) plus two off-grid points.
    std::vector<BlendSpace2D::Point> pts;
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x) pts.push_back({static_cast<int32_t>(pts.size()), glm::vec2(x, y)});
    }
    pts.push_back({9, {0.5f, 1.7f}});
    pts.push_back({10, {1.6f, 0.4f}});
    const BlendSpace2D s(pts);
    // n points, h on the hull: 2n - 2 - h triangles (n = 11, h = 8).
    EXPECT_EQ(s.triangles().size(), 12u);
    // Delaunay: no point strictly inside a triangle's circumcircle.
    for (const auto& t : s.triangles()) {
        const glm::dvec2 a = pts[t[0]].position, b = pts[t[1]].position, c = pts[t[2]].position;
        const double d = 2.0 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
        const double cx = ((a.x * a.x + a.y * a.y) * (b.y - c.y) + (b.x * b.x + b.y * b.y) * (c.y - a.y) +
                           (c.x * c.x + c.y * c.y) * (a.y - b.y)) / d;
        const double cy = ((a.x * a.x + a.y * a.y) * (c.x - b.x) + (b.x * b.x + b.y * b.y) * (a.x - c.x) +
                           (c.x * c.x + c.y * c.y) * (b.x - a.x)) / d;
        const double r2 = (a.x - cx) * (a.x - cx) + (a.y - cy) * (a.y - cy);
        for (const auto& p : pts) {
            const double dx = p.position.x - cx, dy = p.position.y - cy;
            EXPECT_GE(dx * dx + dy * dy, r2 * (1.0 - 1e-9));
        }
    }
    // Inside the hull the weights sum to 1 and reproduce the parameter (linear precision).
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.0f, 2.0f);
    std::vector<float> w(pts.size());
    for (int k = 0; k < 200; ++k) {
        const glm::vec2 p(u(rng), u(rng));
        s.weights(p, w);
        glm::vec2 q(0.0f);
        float sum = 0.0f;
        for (size_t i = 0; i < pts.size(); ++i) {
            EXPECT_GE(w[i], 0.0f);
            q += w[i] * pts[i].position;
            sum += w[i];
        }
        EXPECT_NEAR(sum, 1.0f, 1e-5f);
        EXPECT_NEAR(q.x, p.x, 1e-5f);
        EXPECT_NEAR(q.y, p.y, 1e-5f);
    }
    // Four directions on a square (cocircular corners): two triangles, linear precision.
    const BlendSpace2D square({{0, {-1, -1}}, {1, {1, -1}}, {2, {1, 1}}, {3, {-1, 1}}});
    EXPECT_EQ(square.triangles().size(), 2u);
    float sw[4];
    square.weights({0.5f, -0.25f}, sw);
    EXPECT_NEAR(sw[0] * -1 + sw[1] + sw[2] + sw[3] * -1, 0.5f, 1e-6f);
    EXPECT_NEAR(sw[0] * -1 + sw[1] * -1 + sw[2] + sw[3], -0.25f, 1e-6f);
    // Collinear points act as a 1D space along their line.
    const BlendSpace2D line({{0, {0, 0}}, {1, {2, 2}}, {2, {1, 1}}});
    EXPECT_TRUE(line.triangles().empty());
    float lw[3];
    line.weights({0.5f, 0.5f}, lw);
    EXPECT_NEAR(lw[0], 0.5f, 1e-6f);
    EXPECT_NEAR(lw[2], 0.5f, 1e-6f);
    EXPECT_NEAR(lw[1], 0.0f, 1e-6f);
}

// ---------------------------------------------------------------------------------------
// Controller: cross-fades

// Clip 0 bends the tip 0 -> 90 degrees over 1 s, clip 1 unbends it 0 -> -90. Play 0, at
// 0.2 s fade to 1 over 0.4 s; the fade's midpoint is at 0.4 s.
float tipAngleAtFadeMidpoint(FadeMode mode, Ease ease) {
    const Model m = makeTwoBoneTwoClips();
    Controller c(m);
    c.play(MotionSource::clip(0));
    c.update(0.2);
    c.crossFadeTo(MotionSource::clip(1), 0.4f, mode, ease);
    c.update(0.2);
    EXPECT_TRUE(c.fading());
    c.computePose();
    return angleZ(c.pose()[1].rotation);
}

TEST(Controller, CrossFadeMidpointSmoothAndFrozen) {
    // Smooth: clip 0 at 0.4 s (36 deg), clip 1 at 0.2 s (-18 deg), half and half: 9 deg.
    EXPECT_NEAR(tipAngleAtFadeMidpoint(FadeMode::Smooth, Ease{}), 9.0f, 1e-3f);
    // Frozen: clip 0 stays at 0.2 s (18 deg): 0 deg.
    EXPECT_NEAR(tipAngleAtFadeMidpoint(FadeMode::Frozen, Ease{}), 0.0f, 1e-3f);
    // Ease: cubic-in gives the new clip 0.125 at the midpoint: 36 + (-18 - 36) / 8 = 29.25.
    EXPECT_NEAR(tipAngleAtFadeMidpoint(FadeMode::Smooth, Ease{EaseCurve::CubicIn}), 29.25f, 1e-3f);
    EXPECT_NEAR(tipAngleAtFadeMidpoint(FadeMode::Smooth, Ease{EaseCurve::SmoothStep}), 9.0f, 1e-3f);
}

TEST(Controller, CrossFadeEndsOnTheNewClipAndDrivesTheAnimator) {
    const Model m = makeTwoBoneTwoClips();
    Controller c(m);
    Animator anim(m);
    c.play(MotionSource::clip(0));
    c.update(0.2);
    c.crossFadeTo(MotionSource::clip(1), 0.4f);
    c.update(0.2);
    ASSERT_TRUE(c.evaluate(anim));
    // The tip's vertex (0, 2, 0) turns by 9 degrees about the tip joint (0, 1, 0).
    const glm::vec4 v = anim.palette()[1] * glm::vec4(0, 2, 0, 1);
    const float a = glm::radians(9.0f);
    EXPECT_NEAR(v.x, -std::sin(a), 1e-5f);
    EXPECT_NEAR(v.y, 1.0f + std::cos(a), 1e-5f);
    c.update(0.2);  // fade over: only clip 1, at 0.4 s
    EXPECT_FALSE(c.fading());
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), -36.0f, 1e-3f);
}

TEST(Controller, InterruptedCrossFadeStartsFromThePoseItReached) {
    const Model m = makeTwoBoneTwoClips();
    Controller c(m);
    c.play(MotionSource::clip(0));
    c.update(0.2);
    c.crossFadeTo(MotionSource::clip(1), 0.4f);
    c.update(0.2);
    c.computePose();
    const float before = angleZ(c.pose()[1].rotation);
    c.crossFadeTo(MotionSource::clip(0), 0.4f);
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), before, 1e-4f);  // no pop
}

// Morph weights go through the controller like the pose: a clip's own weights, a cross-fade
// lerps them by the fade weight, an interrupted fade starts from the weights it reached, a
// blend space weights its clips' weights. References: the clips' weights sampled alone by
// Animator::evaluate (tested against hand values and three.js in morph_tests).
std::vector<float> morphsOfClip(const Model& m, int32_t clip, float t) {
    Animator a(m);
    a.evaluate(clip, t);
    return a.morphWeights();
}

TEST(Controller, MorphWeightsFollowClipsFadesAndBlendSpaces) {
    Model m = makeTwoBoneTwoClips();
    testing::addMorphs(m, 7);
    Controller c(m);
    Animator anim(m);
    c.play(MotionSource::clip(0));
    c.update(0.2);
    ASSERT_TRUE(c.evaluate(anim));
    EXPECT_EQ(anim.morphWeights(), morphsOfClip(m, 0, 0.2f));
    // Fade to clip 1 over 0.4 s; at the midpoint clip 0 is at 0.4 s, clip 1 at 0.2 s.
    c.crossFadeTo(MotionSource::clip(1), 0.4f);
    c.update(0.2);
    ASSERT_TRUE(c.evaluate(anim));
    const std::vector<float> a = morphsOfClip(m, 0, 0.4f), b = morphsOfClip(m, 1, 0.2f);
    ASSERT_EQ(anim.morphWeights().size(), 2u);
    for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(anim.morphWeights()[i], 0.5f * (a[i] + b[i]), 1e-6f) << i;
    EXPECT_GT(std::fabs(a[0] - b[0]), 0.01f);  // the two clips really differ
    // Interrupted: no pop in the weights either.
    const std::vector<float> reached = anim.morphWeights();
    c.crossFadeTo(MotionSource::clip(0), 0.4f);
    ASSERT_TRUE(c.evaluate(anim));
    for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(anim.morphWeights()[i], reached[i], 1e-6f) << i;
    // A slider still wins.
    anim.setMorphOverride(0, 1, 0.9f);
    ASSERT_TRUE(c.evaluate(anim));
    EXPECT_FLOAT_EQ(anim.morphWeights()[1], 0.9f);
    anim.clearMorphOverrides();

    // Blend space: 1D between the clips at 0.25 of the way: weights 0.75 and 0.25, both
    // clips at the same phase (clip 0 lasts 1 s, clip 1 2 s: phase 0.3 is 0.3 s and 0.6 s).
    const int32_t space = c.addBlendSpace(BlendSpace1D({{0, 0.0f}, {1, 1.0f}}));
    c.setBlendParameter(space, 0.25f);
    c.play(MotionSource::blendSpace(space));
    c.seekPhase(0.3f);
    ASSERT_TRUE(c.evaluate(anim));
    const std::vector<float> p0 = morphsOfClip(m, 0, 0.3f * m.clips[0].duration);
    const std::vector<float> p1 = morphsOfClip(m, 1, 0.3f * m.clips[1].duration);
    for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(anim.morphWeights()[i], 0.75f * p0[i] + 0.25f * p1[i], 1e-6f) << i;
}

TEST(Controller, SingleClipMatchesAnimatorEvaluate) {
    const Model m = testing::makeChain(8, 30);
    Controller c(m);
    Animator a(m), b(m);
    c.play(MotionSource::clip(0));
    for (int i = 0; i < 5; ++i) c.update(0.0737);
    ASSERT_TRUE(c.evaluate(a));
    b.evaluate(0, static_cast<float>(5 * 0.0737));
    for (size_t j = 0; j < a.palette().size(); ++j) {
        for (int col = 0; col < 4; ++col) {
            for (int row = 0; row < 4; ++row) EXPECT_NEAR(a.palette()[j][col][row], b.palette()[j][col][row], 1e-5f);
        }
    }
    // Another model's animator is refused.
    const Model other = testing::makeTwoBone();
    Animator wrong(other);
    EXPECT_FALSE(c.evaluate(wrong));
}

// A clip playing alone keeps its still components (untracked nodes, one-key channels) in
// the pose from tick to tick and samples only its keyed ones; whatever played before, the
// pose is the clip's full sample, bit for bit: after another clip with other still
// components, a cross-fade, a layer, root motion in place.
TEST(Controller, SingleClipPoseIsTheFullSampleAfterAnythingElse) {
    Model m = makeBody();
    const size_t n = m.skeleton.size();
    // "a": spine turns; hips scaled (one key), spine moved (one key); arm and leg untracked.
    m.clips.push_back(ClipBuilder("a", n)
                          .rotation(1, {0.0f, 1.0f}, {rotZ(0.0f), rotZ(40.0f)})
                          .translation(1, {0.0f}, {{0.1f, 0.6f, 0.0f}})
                          .scale(0, {0.0f}, {{2.0f, 2.0f, 2.0f}})
                          .translation(0, {0.0f, 1.0f}, {{0, 1, 0}, {1, 1, 0}})
                          .build());
    // "b": arm turns and moves (one key); leg scaled (one key); hips and spine untracked.
    m.clips.push_back(ClipBuilder("b", n)
                          .rotation(2, {0.0f, 2.0f}, {rotZ(-10.0f), rotZ(60.0f)})
                          .translation(2, {0.0f}, {{0.7f, 0.1f, 0.0f}})
                          .scale(3, {0.0f}, {{0.5f, 0.5f, 0.5f}})
                          .build());
    Controller c(m);
    auto expectFullSample = [&](int32_t clip, const char* when) {
        c.computePose();
        ASSERT_EQ(c.plainClip(), clip) << when;
        std::vector<Transform> want = m.skeleton.bindLocalSqt;
        std::vector<uint32_t> cursors(3 * m.clips[clip].tracks.size(), 0);
        sampleClip(m.clips[clip], c.clipTime(clip), m.skeleton.bindLocalSqt.data(), want.data(), cursors.data(), RotationBlend::Slerp);
        for (size_t i = 0; i < n; ++i) EXPECT_EQ(std::memcmp(&c.pose()[i], &want[i], sizeof(Transform)), 0) << when << ", node " << i;
    };
    c.play(MotionSource::clip(0));
    for (int i = 0; i < 3; ++i) {
        c.update(0.1);
        expectFullSample(0, "a alone");
    }
    c.play(MotionSource::clip(1));
    c.update(0.1);
    expectFullSample(1, "b after a");
    c.update(0.1);
    expectFullSample(1, "b again");
    c.play(MotionSource::clip(0));
    c.update(0.1);
    expectFullSample(0, "a after b");
    c.crossFadeTo(MotionSource::clip(1), 0.15f);
    c.update(0.1);
    c.computePose();
    c.update(0.1);
    expectFullSample(1, "b after the fade");
    const int32_t layer = c.addLayer(LayerBlend::Override, maskFromSubtree(m.skeleton, m.skeleton.find("arm")));
    ASSERT_TRUE(c.playLayer(layer, MotionSource::clip(0)));
    c.update(0.1);
    c.computePose();
    ASSERT_TRUE(c.stopLayer(layer));
    c.update(0.1);
    expectFullSample(1, "b after a layer");
    c.play(MotionSource::clip(0));
    c.update(0.1);
    expectFullSample(0, "a before root motion in place");
    c.setRootMotion(RootMotion::InPlace);
    c.update(0.1);
    c.computePose();
    c.update(0.1);
    c.computePose();
    c.setRootMotion(RootMotion::Travel);
    c.update(0.1);
    expectFullSample(0, "a after root motion in place");
}

// ---------------------------------------------------------------------------------------
// Controller: blend spaces and phase sync

// One node; clip 0 (1 s) moves it along x 0 -> 1, clip 1 (2 s) along y 0 -> 1.
Model makeSlider() {
    Model m;
    m.path = "slider";
    addNode(m.skeleton, "root", -1, {0, 0, 0});
    m.skeleton.computeBindModel();
    m.clips.push_back(ClipBuilder("short", 1).translation(0, {0.0f, 1.0f}, {{0, 0, 0}, {1, 0, 0}}).build());
    m.clips.push_back(ClipBuilder("long", 1).translation(0, {0.0f, 2.0f}, {{0, 0, 0}, {0, 1, 0}}).build());
    return m;
}

TEST(Controller, PhaseSyncClipsOfDifferentLengths) {
    const Model m = makeSlider();
    Controller c(m);
    const int32_t space = c.addBlendSpace(BlendSpace1D::twoClip(0, 1));
    ASSERT_EQ(space, 0);
    c.setBlendParameter(space, 0.5f);
    c.play(MotionSource::blendSpace(space));
    // Blended length 0.5 x 1 + 0.5 x 2 = 1.5 s: after 0.375 s the phase is 0.25.
    c.update(0.375);
    EXPECT_NEAR(c.phase(), 0.25f, 1e-6f);
    EXPECT_NEAR(c.clipTime(0), 0.25f, 1e-6f);  // 25% into the 1 s clip
    EXPECT_NEAR(c.clipTime(1), 0.5f, 1e-6f);   // 25% into the 2 s clip
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[0].translation, glm::vec3(0.125f, 0.125f, 0), 1e-6f);
    // On one clip the phase runs at that clip's own speed.
    c.setBlendParameter(space, 1.0f);
    c.update(0.5);
    EXPECT_NEAR(c.phase(), 0.5f, 1e-6f);
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[0].translation, glm::vec3(0, 0.5f, 0), 1e-6f);
}

TEST(Controller, CrossFadeCanStartInStep) {
    const Model m = makeSlider();
    Controller c(m);
    c.play(MotionSource::clip(0));
    c.update(0.25);
    ClipTiming sync;
    sync.syncPhase = true;
    c.crossFadeTo(MotionSource::clip(1), 0.5f, FadeMode::Smooth, Ease{}, sync);
    EXPECT_NEAR(c.clipTime(1), 0.5f, 1e-6f);  // phase 0.25 of the 2 s clip
}

TEST(Controller, Blend2DSpaceWeightsThePoses) {
    Model m;
    addNode(m.skeleton, "root", -1, {0, 0, 0});
    m.skeleton.computeBindModel();
    const glm::vec3 at[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; ++i) {
        m.clips.push_back(ClipBuilder("c" + std::to_string(i), 1).translation(0, {0.0f, 1.0f}, {at[i], at[i]}).build());
    }
    Controller c(m);
    const int32_t s = c.addBlendSpace(BlendSpace2D({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}}));
    c.setBlendParameter(s, 0.25f, 0.25f);
    c.play(MotionSource::blendSpace(s));
    c.update(0.1);
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[0].translation, glm::vec3(0.5f, 0.25f, 0.25f), 1e-6f);
    c.setBlendParameter(s, 3.0f, 3.0f);  // outside: clamped to the edge's midpoint
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[0].translation, glm::vec3(0, 0.5f, 0.5f), 1e-6f);
    EXPECT_EQ(c.addBlendSpace(BlendSpace2D({{0, {0, 0}}, {7, {1, 0}}})), -1);  // no clip 7
}

// ---------------------------------------------------------------------------------------
// Controller: layers

TEST(Controller, PartialLayerUpperBodyWavesLowerBodyWalks) {
    Model m = makeBody();
    m.clips.push_back(constantRotationClip("walk", 4, 10.0f));
    m.clips.push_back(constantRotationClip("wave", 4, 50.0f));
    Controller c(m);
    c.play(MotionSource::clip(0));
    const int32_t layer = c.addLayer(LayerBlend::Override, maskFromSubtree(m.skeleton, m.skeleton.find("spine")));
    ASSERT_TRUE(c.playLayer(layer, MotionSource::clip(1)));
    c.update(0.1);
    c.computePose();
    const float expected[4] = {10, 50, 50, 10};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(angleZ(c.pose()[i].rotation), expected[i], 1e-3f) << i;
    c.setLayerWeight(layer, 0.5f);
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), 30.0f, 1e-3f);
    c.setLayerWeight(layer, 0.0f, 1.0f);  // fade out over 1 s
    c.update(0.5);
    EXPECT_NEAR(c.layerWeight(layer), 0.25f, 1e-6f);
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), 20.0f, 1e-3f);
    EXPECT_NEAR(angleZ(c.pose()[3].rotation), 10.0f, 1e-3f);
}

// A layer cross-fades between two motions inside its mask: the incoming share follows the
// ease curve (smoothstep: 3x^2 - 2x^3), the joints outside the mask stay on the base motion.
TEST(Controller, OverrideLayerCrossFadesBetweenTwoMotions) {
    Model m = makeBody();
    m.clips.push_back(constantRotationClip("walk", 4, 10.0f));
    m.clips.push_back(constantRotationClip("wave", 4, 50.0f));
    m.clips.push_back(constantRotationClip("point", 4, 90.0f));
    Controller c(m);
    c.play(MotionSource::clip(0));
    const int32_t layer = c.addLayer(LayerBlend::Override, maskFromSubtree(m.skeleton, m.skeleton.find("spine")));
    ASSERT_TRUE(c.crossFadeLayer(layer, MotionSource::clip(1), 1.0f));  // nothing playing yet: at once
    EXPECT_EQ(c.layerFadeWeight(layer), 1.0f);
    c.update(0.1);
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), 50.0f, 1e-3f);
    ASSERT_TRUE(c.crossFadeLayer(layer, MotionSource::clip(2), 1.0f, Ease{EaseCurve::SmoothStep}));
    c.update(0.25);
    const float w = 3 * 0.25f * 0.25f - 2 * 0.25f * 0.25f * 0.25f;  // 0.15625
    EXPECT_NEAR(c.layerFadeWeight(layer), w, 1e-6f);
    c.computePose();
    // Constant rotations about one axis: the slerp of 50 and 90 degrees by w is 50 + 40 w.
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), 50.0f + 40.0f * w, 1e-3f);
    EXPECT_NEAR(angleZ(c.pose()[2].rotation), 50.0f + 40.0f * w, 1e-3f);
    EXPECT_NEAR(angleZ(c.pose()[3].rotation), 10.0f, 1e-3f);  // the leg: base only
    c.setLayerWeight(layer, 0.5f);  // the layer's own weight still scales the result
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), 10.0f + 0.5f * (40.0f + 40.0f * w), 1e-3f);
    c.setLayerWeight(layer, 1.0f);
    c.update(0.8);  // past the fade's end
    EXPECT_EQ(c.layerFadeWeight(layer), 1.0f);
    c.computePose();
    EXPECT_NEAR(angleZ(c.pose()[1].rotation), 90.0f, 1e-3f);
}

TEST(Controller, AdditiveLayerAddsTheDifferenceClip) {
    Model m = testing::makeTwoBone();  // clip 0: tip 0 -> 90 about Z over 1 s
    m.clips.push_back(ClipBuilder("lean", 2).rotation(1, {0.0f, 1.0f}, {rotX(30), rotX(30)}).build());     // 1
    m.clips.push_back(ClipBuilder("neutral", 2).rotation(1, {0.0f, 1.0f}, {rotX(0), rotX(0)}).build());    // 2
    Controller c(m);
    c.play(MotionSource::clip(0));
    const int32_t layer = c.addLayer(LayerBlend::Additive);
    ASSERT_TRUE(c.playAdditive(layer, 1, 2));
    c.update(0.5);  // base: 45 degrees about Z
    c.computePose();
    EXPECT_LT(rotationGap(c.pose()[1].rotation, rotX(30) * rotZ(45)), 1e-4);
    c.setLayerWeight(layer, 0.5f);
    c.computePose();
    EXPECT_LT(rotationGap(c.pose()[1].rotation, rotX(15) * rotZ(45)), 1e-4);
    // Source = reference: the base is untouched.
    ASSERT_TRUE(c.playAdditive(layer, 1, 1));
    c.setLayerWeight(layer, 1.0f);
    c.computePose();
    EXPECT_LT(rotationGap(c.pose()[1].rotation, rotZ(45)), 1e-4);
    EXPECT_FALSE(c.playLayer(layer, MotionSource::clip(0)));  // an additive layer takes playAdditive
}

// An additive layer cross-fades between two differences: with A = lift - liftRef and B =
// twist - twistRef on the tip, it adds (1 - w) A + w B (w linear here), on top of a base that
// holds the tip at 45 degrees about Z. Expected values from the clips' keys, by hand: the
// lift turns the tip 0 -> 60 degrees about X and moves it 0 -> 0.4 along X over 1 s, so A at
// clip time t is 60 t degrees about X and (0.4 t, 0, 0); B is 50 - 10 = 40 degrees about X
// and (0, 1.3, 0.2) - (0, 1.1, 0) = (0, 0.2, 0.2).
struct AdditiveFadeRig {
    static constexpr float kLiftDeg = 60.0f, kLiftX = 0.4f;  // lift's last key (first: 0, 0)
    static constexpr float kTwistDeg = 50.0f, kTwistRefDeg = 10.0f;
    static inline const glm::vec3 kTwistT{0.0f, 1.3f, 0.2f}, kTwistRefT{0.0f, 1.1f, 0.0f};
    static inline const glm::vec3 kBind{0.0f, 1.0f, 0.0f};  // the tip's bind translation

    Model m = testing::makeTwoBone();
    int32_t hold, lift, liftRef, twist, twistRef;

    AdditiveFadeRig() {
        auto add = [&](Clip c) {
            m.clips.push_back(std::move(c));
            return static_cast<int32_t>(m.clips.size() - 1);
        };
        hold = add(ClipBuilder("hold", 2).rotation(1, {0.0f, 1.0f}, {rotZ(45), rotZ(45)}).build());
        lift = add(ClipBuilder("lift", 2)
                       .rotation(1, {0.0f, 1.0f}, {rotX(0), rotX(kLiftDeg)})
                       .translation(1, {0.0f, 1.0f}, {kBind, kBind + glm::vec3(kLiftX, 0, 0)})
                       .build());
        liftRef = add(ClipBuilder("liftRef", 2)
                          .rotation(1, {0.0f, 1.0f}, {rotX(0), rotX(0)})
                          .translation(1, {0.0f, 1.0f}, {kBind, kBind})
                          .build());
        twist = add(ClipBuilder("twist", 2)
                        .rotation(1, {0.0f, 1.0f}, {rotX(kTwistDeg), rotX(kTwistDeg)})
                        .translation(1, {0.0f, 1.0f}, {kTwistT, kTwistT})
                        .build());
        twistRef = add(ClipBuilder("twistRef", 2)
                           .rotation(1, {0.0f, 1.0f}, {rotX(kTwistRefDeg), rotX(kTwistRefDeg)})
                           .translation(1, {0.0f, 1.0f}, {kTwistRefT, kTwistRefT})
                           .build());
    }
    // The tip's pose for an added difference `deg` about X and `t`, on the base.
    static void expectTip(const Controller& c, float deg, glm::vec3 t, const char* what) {
        const Transform& tip = c.pose()[1];
        // The rotation the layer added: pose x base^-1, compared with deg about X.
        const glm::quat added = tip.rotation * glm::inverse(rotZ(45));
        EXPECT_LT(rotationGap(added, rotX(deg)), 1e-4) << what << ": " << deg;
        EXPECT_VEC3_NEAR(tip.translation - kBind, t, 1e-5f);
        EXPECT_LT(rotationGap(c.pose()[0].rotation, glm::quat(1, 0, 0, 0)), 1e-6) << what;  // root: untouched
    }
};

TEST(Controller, AdditiveLayerCrossFadesBetweenTwoDifferences) {
    using R = AdditiveFadeRig;
    for (FadeMode mode : {FadeMode::Smooth, FadeMode::Frozen}) {
        SCOPED_TRACE(mode == FadeMode::Smooth ? "smooth" : "frozen");
        R rig;
        Controller c(rig.m);
        c.play(MotionSource::clip(rig.hold));
        const int32_t layer = c.addLayer(LayerBlend::Additive);
        ASSERT_TRUE(c.playAdditive(layer, rig.lift, rig.liftRef));
        c.update(0.25);
        c.computePose();
        R::expectTip(c, R::kLiftDeg * 0.25f, {R::kLiftX * 0.25f, 0, 0}, "A before");
        ASSERT_TRUE(c.crossFadeAdditive(layer, rig.twist, rig.twistRef, 1.0f, mode));
        EXPECT_EQ(c.layerFadeWeight(layer), 0.0f);
        c.computePose();  // the transition's start: A's result
        R::expectTip(c, R::kLiftDeg * 0.25f, {R::kLiftX * 0.25f, 0, 0}, "start");

        c.update(0.5);  // the midpoint: w = 0.5
        EXPECT_FLOAT_EQ(c.layerFadeWeight(layer), 0.5f);
        EXPECT_NEAR(c.layerClock(layer)->time(), 0.5, 1e-9);  // B's clock runs
        // A's clip time: 0.75 when its clock runs on, 0.25 when the fade froze it.
        const float ta = mode == FadeMode::Smooth ? 0.75f : 0.25f;
        const float aDeg = R::kLiftDeg * ta, bDeg = R::kTwistDeg - R::kTwistRefDeg;
        const glm::vec3 aT(R::kLiftX * ta, 0, 0), bT = R::kTwistT - R::kTwistRefT;
        c.computePose();
        R::expectTip(c, 0.5f * aDeg + 0.5f * bDeg, 0.5f * aT + 0.5f * bT, "midpoint");

        // A weight-0 layer adds nothing, fading or not: the base alone.
        c.setLayerWeight(layer, 0.0f);
        c.computePose();
        R::expectTip(c, 0.0f, glm::vec3(0.0f), "weight 0");
        // Half weight: half of the mixed difference.
        c.setLayerWeight(layer, 0.5f);
        c.computePose();
        R::expectTip(c, 0.25f * (aDeg + bDeg), 0.25f * (aT + bT), "weight 0.5");
        c.setLayerWeight(layer, 1.0f);

        c.update(0.5);  // the end: B's result, the outgoing difference gone
        EXPECT_EQ(c.layerFadeWeight(layer), 1.0f);
        c.computePose();
        R::expectTip(c, bDeg, bT, "end");
    }
}

// Frozen inside an override layer too: the outgoing motion holds where the fade began.
TEST(Controller, OverrideLayerFrozenCrossFadeHoldsTheOutgoingMotion) {
    Model m = testing::makeTwoBone();  // clip 0: tip 0 -> 90 about Z over 1 s
    m.clips.push_back(ClipBuilder("still", 2).rotation(1, {0.0f, 1.0f}, {rotZ(-30), rotZ(-30)}).build());
    for (FadeMode mode : {FadeMode::Smooth, FadeMode::Frozen}) {
        Controller c(m);
        const int32_t layer = c.addLayer(LayerBlend::Override);
        ASSERT_TRUE(c.playLayer(layer, MotionSource::clip(0)));
        c.update(0.25);
        ASSERT_TRUE(c.crossFadeLayer(layer, MotionSource::clip(1), 1.0f, mode));
        c.update(0.5);
        c.computePose();
        // Outgoing at 22.5 (frozen) or 67.5 degrees (smooth), incoming at -30: the half-way slerp.
        const float out = mode == FadeMode::Smooth ? 67.5f : 22.5f;
        EXPECT_NEAR(angleZ(c.pose()[1].rotation), 0.5f * (out - 30.0f), 1e-3f) << (mode == FadeMode::Smooth ? "smooth" : "frozen");
    }
}

// ---------------------------------------------------------------------------------------
// Controller: clocks

TEST(Controller, GlobalStartTimeDelaysTheClock) {
    const Model m = makeSlider();
    Controller c(m);
    ClipTiming t;
    t.startAt = 0.5;
    c.play(MotionSource::clip(0), t);
    c.update(0.3);
    EXPECT_NEAR(c.clipTime(0), 0.0f, 1e-6f);  // holds its start
    c.update(0.4);                             // controller time 0.7
    EXPECT_NEAR(c.clipTime(0), 0.2f, 1e-6f);
    // A start in the past: as if it had been playing since then.
    ClipTiming past;
    past.startAt = 0.4;
    c.play(MotionSource::clip(0), past);
    EXPECT_NEAR(c.clipTime(0), 0.3f, 1e-6f);
}

TEST(Controller, LoopCountStopsAtTheEndOfTheLastPass) {
    const Model m = makeSlider();
    Controller c(m);
    ClipTiming t;
    t.loopCount = 2;
    c.play(MotionSource::clip(0), t);
    c.update(0.75);
    c.update(0.75);
    EXPECT_FALSE(c.finished());
    EXPECT_NEAR(c.clipTime(0), 0.5f, 1e-6f);
    c.update(0.75);
    EXPECT_TRUE(c.finished());
    EXPECT_NEAR(c.clipTime(0), 1.0f, 1e-6f);
    EXPECT_EQ(c.clock().passes(), 2u);
}

// ---------------------------------------------------------------------------------------
// Controller: the timeline (what the viewer's Timeline panel drives)

TEST(Timeline, SeekStepRateAndLoopModeOnTheBaseMotion) {
    const Model m = makeSlider();  // clip 0: 1 s, clip 1: 2 s, both at the default sample rate
    Controller c(m);
    c.play(MotionSource::clip(1));
    const float fps = m.clips[1].sampleRate;
    Controller::TimelineInfo info = c.timeline();
    EXPECT_DOUBLE_EQ(info.start, 0.0);
    EXPECT_DOUBLE_EQ(info.end, 2.0);
    EXPECT_EQ(info.lastFrame, static_cast<int>(std::floor(2.0 * fps + 1e-4)));
    c.seek(1.5);
    EXPECT_DOUBLE_EQ(c.timeline().time, 1.5);
    EXPECT_NEAR(c.clipTime(1), 1.5f, 1e-6f);
    EXPECT_EQ(c.timeline().frame, static_cast<int>(std::lround(1.5 * fps)));
    // Rate 2: half a second of wall time is a second of clip time; Loop wraps 1.5 + 1 -> 0.5.
    c.setRate(2.0f);
    c.update(0.5);
    EXPECT_NEAR(c.timeline().time, 0.5, 1e-9);
    // Stepping pauses and moves on the frame grid; Loop wraps before frame 0 to the last.
    c.seek(0.0);
    c.stepFrames(-1);
    EXPECT_FALSE(c.playing());
    EXPECT_EQ(c.timeline().frame, c.timeline().lastFrame);
    c.stepFrames(1);
    EXPECT_EQ(c.timeline().frame, 0);
    c.stepFrames(3);
    EXPECT_NEAR(c.timeline().time, 3.0 / fps, 1e-9);
    // Once: stepping stops at the ends.
    c.setLoopMode(LoopMode::Once);
    EXPECT_EQ(c.loopMode(), LoopMode::Once);
    c.stepFrames(-10);
    EXPECT_EQ(c.timeline().frame, 0);
    // Ping-pong: past the end it comes back (a seek reflects).
    c.setLoopMode(LoopMode::PingPong);
    c.seek(2.5);
    EXPECT_NEAR(c.timeline().time, 1.5, 1e-9);
}

TEST(Timeline, OncePlayAtTheEndRestartsFromTheStart) {
    const Model m = makeSlider();
    Controller c(m);
    ClipTiming t;
    t.mode = LoopMode::Once;
    c.play(MotionSource::clip(0), t);
    c.update(1.5);
    EXPECT_TRUE(c.finished());
    EXPECT_DOUBLE_EQ(c.timeline().time, 1.0);
    c.resume();  // Play at the end: from the start again
    EXPECT_TRUE(c.playing());
    EXPECT_DOUBLE_EQ(c.timeline().time, 0.0);
    c.update(0.25);
    EXPECT_NEAR(c.timeline().time, 0.25, 1e-9);
    // Paused in the middle, Play goes on from there.
    c.pause();
    c.resume();
    EXPECT_NEAR(c.timeline().time, 0.25, 1e-9);
    // Backwards at the start: from the end.
    c.setRate(-1.0f);
    c.update(1.0);
    EXPECT_DOUBLE_EQ(c.timeline().time, 0.0);
    c.resume();
    EXPECT_DOUBLE_EQ(c.timeline().time, 1.0);
}

TEST(Timeline, PreviewRangeLoopsBouncesAndStopsWithinItself) {
    const Model m = makeSlider();
    Controller c(m);
    c.setMarkers(1, {{"in", 0.75f}, {"out", 1.75f}});
    c.play(MotionSource::clip(1));  // 2 s
    c.setPreviewRange(1.25, 0.5);   // either order
    Controller::TimelineInfo info = c.timeline();
    EXPECT_TRUE(info.hasRange);
    EXPECT_DOUBLE_EQ(info.rangeStart, 0.5);
    EXPECT_DOUBLE_EQ(info.rangeEnd, 1.25);
    // Playing from 0 (outside the range) starts at the range's start.
    c.update(0.25);
    EXPECT_NEAR(c.timeline().time, 0.75, 1e-9);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"in"}));
    c.update(0.75);  // 0.75 + 0.75 = 1.5: wraps at 1.25 to 0.5 + 0.25
    EXPECT_NEAR(c.timeline().time, 0.75, 1e-9);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"in"}));  // "out" at 1.75 is outside the range
    c.setLoopMode(LoopMode::PingPong);
    c.update(0.75);  // 0.75 -> 1.25 (bounce) -> 1.0
    EXPECT_NEAR(c.timeline().time, 1.0, 1e-9);
    c.setLoopMode(LoopMode::Once);
    c.update(1.0);
    EXPECT_DOUBLE_EQ(c.timeline().time, 1.25);
    EXPECT_TRUE(c.finished());
    c.resume();  // restarts at the range's start
    EXPECT_DOUBLE_EQ(c.timeline().time, 0.5);
    // Loop steps wrap within the range's frames.
    c.setLoopMode(LoopMode::Loop);
    c.seek(0.5);
    c.stepFrames(-1);
    EXPECT_EQ(c.timeline().frame, static_cast<int>(std::floor(1.25 * m.clips[1].sampleRate + 1e-4)));
    c.clearPreviewRange();
    EXPECT_FALSE(c.timeline().hasRange);
    EXPECT_DOUBLE_EQ(c.timeline().rangeEnd, 2.0);
}

TEST(Timeline, BlendSpaceTimeIsItsPhaseTimesTheBlendedLength) {
    const Model m = makeSlider();
    Controller c(m);
    const int32_t space = c.addBlendSpace(BlendSpace1D::twoClip(0, 1));
    c.setBlendParameter(space, 0.5f);  // 0.5 x 1 s + 0.5 x 2 s = 1.5 s
    c.play(MotionSource::blendSpace(space));
    EXPECT_NEAR(c.timeline().end, 1.5, 1e-6);
    c.update(0.75);
    EXPECT_NEAR(c.phase(), 0.5f, 1e-6f);
    EXPECT_NEAR(c.timeline().time, 0.75, 1e-6);
    c.seek(0.3);
    EXPECT_NEAR(c.phase(), 0.2f, 1e-6f);
}

// ---------------------------------------------------------------------------------------
// Controller: root motion

TEST(RootMotion, InPlaceRemovesHorizontalTravelAndKeepsVertical) {
    Model m;
    addNode(m.skeleton, "root", -1, {0, 0, 0});
    addNode(m.skeleton, "hips", 0, {1, 0.5f, 0});
    m.skeleton.computeBindModel();
    // The root has a rotation track only, so the root-motion node is "hips".
    m.clips.push_back(ClipBuilder("walk", 2)
                          .rotation(0, {0.0f, 1.0f}, {rotZ(0), rotZ(0)})
                          .translation(1, {0.0f, 1.0f}, {{1, 0.5f, 0}, {3, 1.5f, 4}})
                          .build());
    EXPECT_EQ(rootMotionNode(m.clips[0]), 1);
    Controller c(m);
    EXPECT_EQ(c.rootNode(0), 1);
    c.play(MotionSource::clip(0));
    c.update(0.5);
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[1].translation, glm::vec3(2, 1, 2), 1e-6f);  // travelling
    c.setRootMotion(RootMotion::InPlace);
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[1].translation, glm::vec3(1, 1, 0), 1e-6f);  // x, z of frame 0; y kept

    const std::vector<glm::vec3> path = rootMotionPath(m, 0, 3);
    ASSERT_EQ(path.size(), 3u);
    EXPECT_VEC3_NEAR(path[0], glm::vec3(1, 0.5f, 0), 1e-6f);
    EXPECT_VEC3_NEAR(path[1], glm::vec3(2, 1, 2), 1e-6f);
    EXPECT_VEC3_NEAR(path[2], glm::vec3(3, 1.5f, 4), 1e-6f);
}

TEST(RootMotion, GroundPlaneIsTheModelsEvenUnderAZUpParent) {
    Model m;
    // A Z-up file under a -90 degree X correction node: local z is model-space up.
    addNode(m.skeleton, "zup", -1, {0, 0, 0}, rotX(-90));
    addNode(m.skeleton, "hips", 0, {0, 0, 1});
    m.skeleton.computeBindModel();
    m.clips.push_back(ClipBuilder("walk", 2).translation(1, {0.0f, 1.0f}, {{0, 0, 1}, {2, 3, 1.5f}}).build());
    Controller c(m);
    c.setRootMotion(RootMotion::InPlace);
    c.play(MotionSource::clip(0), ClipTiming{1.0f, LoopMode::Once});
    c.update(1.0);
    c.computePose();
    EXPECT_VEC3_NEAR(c.pose()[1].translation, glm::vec3(0, 0, 1.5f), 1e-5f);
    const std::vector<glm::vec3> path = rootMotionPath(m, 0, 2);
    EXPECT_VEC3_NEAR(path[1], glm::vec3(2, 1.5f, -3), 1e-5f);  // (x, z, -y) in model space
}

// ---------------------------------------------------------------------------------------
// Controller: events

Model makeEventRig() {
    Model m = makeSlider();  // clip 0: 1 s, clip 1: 2 s
    return m;
}

std::vector<Marker> quarterMarkers() {
    return {{"c", 0.75f}, {"a", 0.25f}, {"b", 0.5f}};  // sorted by the controller
}

TEST(Events, ForwardAndExactlyOnAMarker) {
    const Model m = makeEventRig();
    Controller c(m);
    c.setMarkers(0, quarterMarkers());
    c.play(MotionSource::clip(0));
    c.update(0.3);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"a"}));
    c.update(0.3);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"b"}));
    c.update(0.3);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"c"}));
    const std::vector<AnimEvent> e = eventsOf(c);
    EXPECT_EQ(e[0].clip, 0);
    EXPECT_EQ(e[0].marker, 2u);
    EXPECT_FLOAT_EQ(e[0].time, 0.75f);
    EXPECT_EQ(e[0].direction, 1);
    EXPECT_FLOAT_EQ(e[0].weight, 1.0f);
    EXPECT_EQ(e[0].layer, -1);

    // Landing exactly on markers: each reported once.
    Controller x(m);
    x.setMarkers(0, quarterMarkers());
    x.play(MotionSource::clip(0));
    const Names expected[] = {{"a"}, {"b"}, {"c"}, {}, {"a"}, {"b"}};
    for (const Names& want : expected) {
        x.update(0.25);
        EXPECT_EQ(namesOf(eventsOf(x)), want) << x.time();
    }
}

TEST(Events, MarkersAtTheLoopPointFireOncePerLoop) {
    const Model m = makeEventRig();
    Controller c(m);
    c.setMarkers(0, {{"start", 0.0f}, {"a", 0.25f}});
    c.play(MotionSource::clip(0));
    const Names expected[] = {{"start", "a"}, {}, {}, {"start"}, {"a"}, {}, {}, {"start"}};
    for (const Names& want : expected) {
        c.update(0.25);
        EXPECT_EQ(namesOf(eventsOf(c)), want) << c.time();
    }
}

TEST(Events, BackwardWithANegativeRate) {
    const Model m = makeEventRig();
    Controller c(m);
    std::vector<Marker> markers = quarterMarkers();
    markers.push_back({"start", 0.0f});
    markers.push_back({"end", 1.0f});
    c.setMarkers(0, markers);
    ClipTiming t;
    t.rate = -1.0f;  // starts at the end
    c.play(MotionSource::clip(0), t);
    c.update(0.3);  // 1.0 -> 0.7
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"end", "c"}));
    EXPECT_EQ(eventsOf(c)[1].direction, -1);
    c.update(0.3);  // -> 0.4
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"b"}));
    c.update(0.3);  // -> 0.1
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"a"}));
    c.update(0.3);  // -> -0.2, wraps to 0.8
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"start", "end"}));
    EXPECT_NEAR(c.clipTime(0), 0.8f, 1e-6f);
}

TEST(Events, AcrossTheLoopWrap) {
    const Model m = makeEventRig();
    Controller c(m);
    c.setMarkers(0, {{"start", 0.0f}, {"a", 0.25f}, {"late", 0.95f}});
    ClipTiming t;
    t.startPhase = 0.9f;
    c.play(MotionSource::clip(0), t);
    c.update(0.4);  // 0.9 -> 1.3 = 0.3 of the next loop
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"late", "start", "a"}));
    c.update(2.0);  // two whole loops from 0.3: every marker twice, in order
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"late", "start", "a", "late", "start", "a"}));
}

TEST(Events, PingPongBounces) {
    const Model m = makeEventRig();
    Controller c(m);
    c.setMarkers(0, {{"a", 0.25f}, {"c", 0.75f}, {"end", 1.0f}});
    ClipTiming t;
    t.mode = LoopMode::PingPong;
    t.startPhase = 0.5f;
    c.play(MotionSource::clip(0), t);
    c.update(0.75);  // 0.5 -> 1 (bounce) -> 0.75
    std::vector<AnimEvent> e = eventsOf(c);
    ASSERT_EQ(namesOf(e), (Names{"c", "end", "c"}));
    EXPECT_EQ(e[0].direction, 1);
    EXPECT_EQ(e[1].direction, 1);
    EXPECT_EQ(e[2].direction, -1);
    c.update(0.5);  // 0.75 -> 0.25, landing on "a"
    e = eventsOf(c);
    ASSERT_EQ(namesOf(e), (Names{"a"}));
    EXPECT_EQ(e[0].direction, -1);
    c.update(0.5);  // 0.25 -> 0 (bounce) -> 0.25: "a" is not reported again on the way down
    e = eventsOf(c);
    ASSERT_EQ(namesOf(e), (Names{"a"}));
    EXPECT_EQ(e[0].direction, 1);
    c.update(0.75);  // 0.25 -> 1: lands on the end exactly
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"c", "end"}));
    c.update(0.25);  // bounces off the end: "end" is not reported twice
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"c"}));
}

TEST(Events, OnceStopsAfterTheLastMarker) {
    const Model m = makeEventRig();
    Controller c(m);
    c.setMarkers(0, {{"c", 0.75f}, {"end", 1.0f}});
    ClipTiming t;
    t.mode = LoopMode::Once;
    c.play(MotionSource::clip(0), t);
    c.update(5.0);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"c", "end"}));
    EXPECT_TRUE(c.finished());
    c.update(1.0);
    EXPECT_EQ(c.eventCount(), 0u);
}

TEST(Events, BlendSpaceClipsReportAtTheirOwnPhaseWithTheirWeights) {
    const Model m = makeEventRig();
    Controller c(m);
    c.setMarkers(0, {{"step", 0.5f}});  // half-way through the 1 s clip
    c.setMarkers(1, {{"step", 1.0f}});  // half-way through the 2 s clip
    const int32_t s = c.addBlendSpace(BlendSpace1D::twoClip(0, 1));
    c.setBlendParameter(s, 0.25f);
    c.play(MotionSource::blendSpace(s));
    c.update(0.6);  // blended length 1.25 s: phase 0.48
    EXPECT_EQ(c.eventCount(), 0u);
    c.update(0.1);  // phase 0.56
    const std::vector<AnimEvent> e = eventsOf(c);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].clip, 0);
    EXPECT_FLOAT_EQ(e[0].weight, 0.75f);
    EXPECT_EQ(e[1].clip, 1);
    EXPECT_FLOAT_EQ(e[1].weight, 0.25f);
}

TEST(Events, TheCallersBufferAndTheCapacityBound) {
    const Model m = makeEventRig();
    ControllerOptions o;
    o.eventCapacity = 2;
    Controller c(m, o);
    c.setMarkers(0, quarterMarkers());
    c.play(MotionSource::clip(0));
    c.update(0.9);
    EXPECT_EQ(c.eventCount(), 2u);
    EXPECT_EQ(c.droppedEvents(), 1u);
    AnimEvent one[1];
    EXPECT_EQ(c.events(one), 1u);
    EXPECT_EQ(one[0].name, "a");
}

TEST(Controller, RejectsBadRequestsAndSurvivesOddInput) {
    const Model m = makeEventRig();
    Controller c(m);
    EXPECT_FALSE(c.play(MotionSource::clip(5)));
    EXPECT_FALSE(c.play(MotionSource::blendSpace(0)));  // no space yet
    EXPECT_FALSE(c.crossFadeTo(MotionSource::clip(-1), 0.2f));
    EXPECT_FALSE(c.setMarkers(9, {}));
    EXPECT_FALSE(c.setBlendParameter(3, 1.0f));
    EXPECT_FALSE(c.playLayer(0, MotionSource::clip(0)));  // no layer
    EXPECT_FALSE(c.setLayerWeight(2, 1.0f));
    EXPECT_EQ(c.currentMotion().kind, MotionSource::Kind::None);
    c.computePose();  // bind pose
    EXPECT_VEC3_NEAR(c.pose()[0].translation, glm::vec3(0), 0.0f);

    c.setMarkers(0, {{"nan", NAN}, {"a", 0.25f}});  // a non-finite marker is dropped
    c.play(MotionSource::clip(0));
    c.update(-1.0);  // ignored
    c.update(NAN);
    EXPECT_EQ(c.time(), 0.0);
    c.update(1e9);  // a huge step: bounded work, events capped
    EXPECT_LE(c.eventCount(), ControllerOptions{}.eventCapacity);
    EXPECT_GE(c.clipTime(0), 0.0f);
    EXPECT_LE(c.clipTime(0), 1.0f);

    // A model without clips plays the bind pose.
    Model empty;
    addNode(empty.skeleton, "only", -1, {1, 2, 3});
    empty.skeleton.computeBindModel();
    Controller e(empty);
    e.update(0.1);
    e.computePose();
    EXPECT_VEC3_NEAR(e.pose()[0].translation, glm::vec3(1, 2, 3), 0.0f);
    EXPECT_TRUE(rootMotionPath(empty, 0, 4).empty());
}

// ---------------------------------------------------------------------------------------
// Retargeting

TEST(Retarget, ByNameSkippingMissingJoints) {
    Skeleton from;
    addNode(from, "root", -1, {0, 0, 0});
    addNode(from, "spine", 0, {0, 1, 0});
    addNode(from, "arm", 1, {1, 0, 0});
    addNode(from, "tail", 0, {0, 0, -1});
    from.computeBindModel();
    Skeleton to;  // other order, a leg instead of the tail, longer spine, higher root
    addNode(to, "root", -1, {0, 0.5f, 0});
    addNode(to, "leg", 0, {0, -1, 0});
    addNode(to, "spine", 0, {0, 2, 0});
    addNode(to, "arm", 2, {1, 0, 0});
    to.computeBindModel();

    const Clip clip = ClipBuilder("move", 4)
                          .translation(0, {0.0f, 1.0f}, {{0, 0, 0}, {0, 0, 1}})
                          .rotation(1, {0.0f, 1.0f}, {rotZ(0), rotZ(90)})
                          .scale(2, {0.0f, 1.0f}, {glm::vec3(1), glm::vec3(2)})
                          .rotation(3, {0.0f, 1.0f}, {rotX(0), rotX(45)})
                          .build();
    const RetargetMap map = buildRetargetMap(from, to);
    EXPECT_EQ(map.toNode, (std::vector<int32_t>{0, 2, 3, -1}));
    EXPECT_EQ(map.missingInTarget, (Names{"tail"}));
    EXPECT_EQ(map.missingInSource, (Names{"leg"}));

    std::vector<std::string> skipped;
    const Clip out = retargetClip(clip, from, to, &skipped);
    EXPECT_EQ(skipped, (Names{"tail"}));
    ASSERT_EQ(out.tracks.size(), 3u);
    EXPECT_EQ(out.tracks[0].node, 0);
    EXPECT_EQ(out.tracks[1].node, 2);
    EXPECT_EQ(out.tracks[2].node, 3);
    EXPECT_EQ(out.trackOfNode, (std::vector<int32_t>{0, -1, 1, 2}));
    EXPECT_FLOAT_EQ(out.duration, 1.0f);

    Pose pose(4);
    std::vector<uint32_t> cursors(3 * out.tracks.size(), 0);
    samplePose(out, 0.5f, to, cursors.data(), pose);
    EXPECT_VEC3_NEAR(pose[0].translation, glm::vec3(0, 0.5f, 0.5f), 1e-6f);  // moved onto the target's bind
    EXPECT_NEAR(angleZ(pose[2].rotation), 45.0f, 1e-3f);                      // spine
    EXPECT_VEC3_NEAR(pose[2].translation, glm::vec3(0, 2, 0), 1e-6f);         // target's own length
    EXPECT_VEC3_NEAR(pose[3].scale, glm::vec3(1.5f), 1e-6f);                   // arm
    EXPECT_LT(rotationGap(pose[1].rotation, glm::quat(1, 0, 0, 0)), 1e-6);    // leg: bind
}

// ---------------------------------------------------------------------------------------
// Clip editing

void expectSamePose(const Clip& a, float ta, const Clip& b, float tb, const Skeleton& sk, float eps,
                    double rotEps) {
    Pose pa(sk.size()), pb(sk.size());
    std::vector<uint32_t> ca(3 * a.tracks.size(), 0), cb(3 * b.tracks.size(), 0);
    samplePose(a, ta, sk, ca.data(), pa);
    samplePose(b, tb, sk, cb.data(), pb);
    for (size_t i = 0; i < sk.size(); ++i) {
        EXPECT_VEC3_NEAR(pa[i].translation, pb[i].translation, eps);
        EXPECT_VEC3_NEAR(pa[i].scale, pb[i].scale, eps);
        EXPECT_LT(rotationGap(pa[i].rotation, pb[i].rotation), rotEps) << "node " << i << " at " << ta;
    }
}

TEST(ClipEdit, TrimmedClipStartsAtZeroAndMatchesTheOriginal) {
    const Model m = testing::makeChain(3, 31);  // 1 s, keys at 30 per second
    const Clip& clip = m.clips[0];
    const Clip cut = trimClip(clip, 0.2f, 0.7f);
    EXPECT_FLOAT_EQ(cut.startTime, 0.0f);
    EXPECT_NEAR(cut.duration, 0.5f, 1e-6f);
    // Keys: the two cut points plus the 14 keys strictly between (7/30 .. 20/30).
    EXPECT_EQ(cut.tracks[0].rotation.count, 16u);
    for (float u = 0.0f; u <= 0.5f; u += 0.0125f) expectSamePose(cut, u, clip, 0.2f + u, m.skeleton, 1e-5f, 1e-3);
    // An empty range: one pose.
    const Clip still = trimClip(clip, 0.4f, 0.4f);
    EXPECT_FLOAT_EQ(still.duration, 0.0f);
    expectSamePose(still, 0.0f, clip, 0.4f, m.skeleton, 1e-5f, 1e-3);
    // Clamped to the clip.
    EXPECT_NEAR(trimClip(clip, -1.0f, 9.0f).duration, 1.0f, 1e-6f);
}

// Markers inside the cut move with it; the others are dropped. Resampling keeps them.
TEST(ClipEdit, TrimKeepsTheMarkersInsideTheCutOnItsTimeline) {
    Model m = testing::makeChain(3, 31);
    m.clips[0].markers = {{"before", 0.1f}, {"in", 0.3f}, {"end", 0.7f}, {"after", 0.9f}};
    const Clip cut = trimClip(m.clips[0], 0.2f, 0.7f);
    ASSERT_EQ(cut.markers.size(), 2u);
    EXPECT_EQ(cut.markers[0].name, "in");
    EXPECT_NEAR(cut.markers[0].time, 0.1f, 1e-6f);
    EXPECT_EQ(cut.markers[1].name, "end");
    EXPECT_NEAR(cut.markers[1].time, 0.5f, 1e-6f);
    const Clip up = resampleClip(m.clips[0], 60.0f);
    ASSERT_EQ(up.markers.size(), 4u);
    EXPECT_FLOAT_EQ(up.markers[2].time, 0.7f);
    // A Controller starts with the clip's markers: crossing one is an event.
    Controller c(m);
    c.play(MotionSource::clip(0));
    ASSERT_EQ(c.markers(0).size(), 4u);
    c.update(0.15);
    EXPECT_EQ(namesOf(eventsOf(c)), (Names{"before"}));
}

TEST(ClipEdit, ResampledClipStaysWithinTolerance) {
    // Up-sampling a linear clip changes nothing.
    const Model chain = testing::makeChain(3, 31);
    const Clip up = resampleClip(chain.clips[0], 60.0f);
    EXPECT_FLOAT_EQ(up.sampleRate, 60.0f);
    EXPECT_EQ(up.tracks[0].translation.count, 61u);
    EXPECT_FLOAT_EQ(up.duration, chain.clips[0].duration);
    for (float t = 0.0f; t <= 1.0f; t += 0.01f) expectSamePose(up, t, chain.clips[0], t, chain.skeleton, 1e-5f, 1e-3);

    // Dense mocap-like curves at 120 keys per second down to 30: linear interpolation's error
    // bound h^2/8 max|f''| (x = sin(pi t): 1.4e-3; angle 0.5 sin(pi t): 6.9e-4 rad).
    Model m;
    addNode(m.skeleton, "root", -1, {0, 0, 0});
    m.skeleton.computeBindModel();
    std::vector<float> times;
    std::vector<glm::vec3> pos;
    std::vector<glm::quat> rot;
    const float pi = 3.14159265f;
    for (int k = 0; k <= 240; ++k) {
        const float t = static_cast<float>(k) / 120.0f;
        times.push_back(t);
        pos.push_back({std::sin(pi * t), 0.0f, 0.0f});
        rot.push_back(rotZ(glm::degrees(0.5f * std::sin(pi * t))));
    }
    const Clip dense = ClipBuilder("mocap", 1).translation(0, times, pos).rotation(0, times, rot).build();
    const Clip coarse = resampleClip(dense, 30.0f);
    EXPECT_EQ(coarse.tracks[0].translation.count, 61u);
    Pose a(1), b(1);
    uint32_t ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0};
    for (int k = 0; k <= 480; ++k) {
        const float t = static_cast<float>(k) / 240.0f;
        samplePose(dense, t, m.skeleton, ca, a);
        samplePose(coarse, t, m.skeleton, cb, b);
        EXPECT_NEAR(a[0].translation.x, b[0].translation.x, 1.5e-3f) << t;
        EXPECT_LT(rotationGap(a[0].rotation, b[0].rotation), 1e-3) << t;
    }
}

}  // namespace
}  // namespace rig
