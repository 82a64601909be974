// Inverse kinematics (anim/jobs/ik_*_job, anim/ik): two-bone and aim jobs against hand-computed
// answers and geometric facts (reach, full extension, pole plane, weights, soft limit), the
// degenerate cases, the IK stage inside Animator (the palette sees the IK'd pose), foot
// locking on a synthetic walking leg, and limb chains found by joint names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/ik.h"
#include "anim/runtime/ik_aim_job.h"
#include "anim/runtime/ik_two_bone_job.h"
#include "anim/runtime/local_to_model_job.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "support/rigs.h"

using namespace rig;

namespace {

constexpr float kPi = 3.14159265358979f;

float angleOf(const glm::quat& q) {
    return 2.0f * std::atan2(std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z), std::fabs(q.w));
}

bool finiteQuat(const glm::quat& q) {
    return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

// A three-joint chain as local poses (parent 0 <- 1 <- 2) plus a child of the end joint.
struct Chain {
    std::vector<int32_t> parent{-1, 0, 1, 2};
    std::vector<Transform> local = std::vector<Transform>(4);
    std::vector<glm::mat4> model = std::vector<glm::mat4>(4);
    glm::mat4 root{1.0f};  // a parent frame above joint 0 (e.g. a mirror)

    void toModel() {
        LocalToModelJob job;
        job.parent = parent;
        job.local = local;
        job.model = model;
        ASSERT_TRUE(job.run());
        for (glm::mat4& m : model) m = root * m;
    }
    glm::vec3 pos(int i) const { return glm::vec3(model[i][3]); }
};

// The straight 1 + 1 chain along +X from the origin (identity rotations).
Chain straightChain() {
    Chain c;
    c.local[1].translation = glm::vec3(1, 0, 0);
    c.local[2].translation = glm::vec3(1, 0, 0);
    c.local[3].translation = glm::vec3(0.2f, 0, 0);
    c.toModel();
    return c;
}

// A random bent chain: random rotations, bone lengths in [0.5, 1.5], a random root position.
Chain randomChain(std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), len(0.5f, 1.5f);
    Chain c;
    c.local[0].translation = glm::vec3(u(rng), u(rng), u(rng));
    for (int i = 0; i < 4; ++i) {
        c.local[i].rotation = glm::normalize(glm::quat(u(rng) + 1.5f, u(rng), u(rng), u(rng)));
        if (i > 0) c.local[i].translation = glm::vec3(i == 3 ? 0.3f : len(rng), 0, 0);
    }
    c.toModel();
    return c;
}

struct TwoBoneOut {
    glm::quat startCorr, midCorr, startRot, midRot;
    bool reached = false;
};

TwoBoneOut solve(const Chain& c, glm::vec3 target, glm::vec3 pole, glm::vec3 midAxis, float weight = 1.0f,
                 float soft = 1.0f, float twist = 0.0f) {
    TwoBoneOut o;
    IKTwoBoneJob job;
    job.startJoint = &c.model[0];
    job.midJoint = &c.model[1];
    job.endJoint = &c.model[2];
    job.target = target;
    job.pole = pole;
    job.midAxis = midAxis;
    job.weight = weight;
    job.soft = soft;
    job.twist = twist;
    job.startCorrection = &o.startCorr;
    job.midCorrection = &o.midCorr;
    job.startRotation = &o.startRot;
    job.midRotation = &o.midRot;
    job.reached = &o.reached;
    EXPECT_TRUE(job.run());
    return o;
}

// The corrections applied both ways: to the local pose (then local->model again), and to the
// model-space matrices directly (rotateSubtree). Both must agree; returns the first.
Chain apply(const Chain& c, const TwoBoneOut& o, bool checkLocal = true) {
    Chain byLocal = c;
    byLocal.local[0].rotation = byLocal.local[0].rotation * o.startCorr;
    byLocal.local[1].rotation = byLocal.local[1].rotation * o.midCorr;
    byLocal.toModel();
    Chain byModel = c;
    const std::vector<int32_t> start{0, 1, 2, 3}, mid{1, 2, 3};
    rotateSubtree(mid, c.pos(1), o.midRot, byModel.model);
    rotateSubtree(start, c.pos(0), o.startRot, byModel.model);
    if (!checkLocal) return byModel;
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 4; ++k) {
            for (int r = 0; r < 3; ++r) EXPECT_NEAR(byLocal.model[i][k][r], byModel.model[i][k][r], 2e-5f) << i << " " << k << " " << r;
        }
    }
    return byLocal;
}

// The mid joint's hinge for a chain: its bend in the mid joint's space (Z when straight).
glm::vec3 hingeOf(const Chain& c) {
    const glm::vec3 bend = glm::cross(c.pos(0) - c.pos(1), c.pos(2) - c.pos(1));
    if (glm::length(bend) < 1e-6f) return glm::vec3(0, 0, 1);
    return glm::normalize(glm::inverse(glm::mat3(c.model[1])) * bend);
}

TEST(IkTwoBone, HandComputedRightAngle) {
    // A 1 + 1 chain reaching (1, 1, 0): sqrt(2) away, so the mid joint bends by 90 degrees
    // and sits at (0, 1, 0) (pole towards -X+Y) or at (1, 0, 0) (pole towards +X-Y).
    const Chain c = straightChain();
    const TwoBoneOut o = solve(c, {1, 1, 0}, {-1, 1, 0}, {0, 0, 1});
    EXPECT_TRUE(o.reached);
    EXPECT_NEAR(angleOf(o.midCorr), kPi / 2.0f, 1e-5f);
    const Chain r = apply(c, o);
    EXPECT_NEAR(glm::length(r.pos(2) - glm::vec3(1, 1, 0)), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(r.pos(1) - glm::vec3(0, 1, 0)), 0.0f, 1e-5f);
    // The start joint turned by 90 degrees about +Z: its X axis is now +Y.
    EXPECT_NEAR(glm::length(glm::vec3(r.model[0][0]) - glm::vec3(0, 1, 0)), 0.0f, 1e-5f);

    const Chain r2 = apply(c, solve(c, {1, 1, 0}, {1, -1, 0}, {0, 0, 1}));
    EXPECT_NEAR(glm::length(r2.pos(2) - glm::vec3(1, 1, 0)), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(r2.pos(1) - glm::vec3(1, 0, 0)), 0.0f, 1e-5f);
}

TEST(IkTwoBone, HandComputedEquilateral) {
    // A 1 + 1 chain reaching (1, 0, 0): the triangle start-mid-end is equilateral, so the
    // mid joint sits at (0.5, sqrt(3)/2, 0) with the pole +Y, interior angle 60 degrees.
    const Chain c = straightChain();
    const TwoBoneOut o = solve(c, {1, 0, 0}, {0, 1, 0}, {0, 0, 1});
    EXPECT_NEAR(angleOf(o.midCorr), kPi - kPi / 3.0f, 1e-5f);
    const Chain r = apply(c, o);
    EXPECT_NEAR(glm::length(r.pos(1) - glm::vec3(0.5f, std::sqrt(3.0f) / 2.0f, 0)), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(r.pos(2) - glm::vec3(1, 0, 0)), 0.0f, 1e-5f);
}

TEST(IkTwoBone, ReachesEveryReachableTarget) {
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), f(0.0f, 1.0f);
    int reached = 0;
    for (int it = 0; it < 500; ++it) {
        const Chain c = randomChain(rng);
        const float a = glm::length(c.pos(1) - c.pos(0)), b = glm::length(c.pos(2) - c.pos(1));
        const glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const float lo = std::fabs(a - b) + 0.01f, hi = a + b - 0.01f;
        const glm::vec3 target = c.pos(0) + dir * (lo + (hi - lo) * f(rng));
        const TwoBoneOut o = solve(c, target, glm::vec3(u(rng), u(rng), u(rng)), hingeOf(c));
        const Chain r = apply(c, o);
        EXPECT_LT(glm::length(r.pos(2) - target), 1e-5f) << it;
        // Bone lengths kept.
        EXPECT_NEAR(glm::length(r.pos(1) - r.pos(0)), a, 1e-5f);
        EXPECT_NEAR(glm::length(r.pos(2) - r.pos(1)), b, 1e-5f);
        reached += o.reached;
    }
    EXPECT_EQ(reached, 500);
}

TEST(IkTwoBone, OutOfReachFullyExtendedTowardsTarget) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int it = 0; it < 200; ++it) {
        const Chain c = randomChain(rng);
        const float a = glm::length(c.pos(1) - c.pos(0)), b = glm::length(c.pos(2) - c.pos(1));
        const glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const glm::vec3 target = c.pos(0) + dir * (a + b) * (1.1f + 2.0f * std::fabs(u(rng)));
        const TwoBoneOut o = solve(c, target, {0, 1, 0}, hingeOf(c));
        EXPECT_FALSE(o.reached);
        const Chain r = apply(c, o);
        EXPECT_NEAR(glm::length(r.pos(2) - r.pos(0)), a + b, 1e-4f) << it;
        EXPECT_GT(glm::dot(glm::normalize(r.pos(2) - r.pos(0)), dir), 1.0f - 1e-6f) << it;
    }
}

TEST(IkTwoBone, TargetTooCloseFoldsAndPoints) {
    // 1 + 0.5 chain, target 0.2 away (nearer than |a - b| = 0.5): folded shut, pointing at it.
    Chain c = straightChain();
    c.local[2].translation = glm::vec3(0.5f, 0, 0);
    c.toModel();
    const glm::vec3 target(0, 0.2f, 0);
    const Chain r = apply(c, solve(c, target, {1, 0, 0}, {0, 0, 1}));
    EXPECT_NEAR(glm::length(r.pos(2) - r.pos(0)), 0.5f, 1e-5f);
    EXPECT_GT(glm::dot(glm::normalize(r.pos(2) - r.pos(0)), glm::vec3(0, 1, 0)), 1.0f - 1e-6f);
}

TEST(IkTwoBone, PoleRespected) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), f(0.1f, 0.9f);
    for (int it = 0; it < 300; ++it) {
        const Chain c = randomChain(rng);
        const float a = glm::length(c.pos(1) - c.pos(0)), b = glm::length(c.pos(2) - c.pos(1));
        const glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const glm::vec3 target = c.pos(0) + dir * (std::fabs(a - b) + (a + b - std::fabs(a - b)) * f(rng));
        const glm::vec3 pole = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        if (std::fabs(glm::dot(pole, dir)) > 0.95f) continue;
        const Chain r = apply(c, solve(c, target, pole, hingeOf(c)));
        // The mid joint in the plane of start, target and pole ...
        const glm::vec3 normal = glm::normalize(glm::cross(target - c.pos(0), pole));
        EXPECT_NEAR(glm::dot(r.pos(1) - c.pos(0), normal), 0.0f, 1e-5f) << it;
        // ... on the pole's side of the start-target line.
        const glm::vec3 polePerp = pole - dir * glm::dot(pole, dir);
        EXPECT_GT(glm::dot(r.pos(1) - c.pos(0), polePerp), 0.0f) << it;
    }
}

TEST(IkTwoBone, TwistTurnsAboutTheTargetLine) {
    const Chain c = straightChain();
    // Twist by 90 degrees about the start-target line (+X+Y): the mid joint leaves the XY plane.
    const Chain r = apply(c, solve(c, {1, 1, 0}, {-1, 1, 0}, {0, 0, 1}, 1.0f, 1.0f, kPi / 2.0f));
    EXPECT_NEAR(glm::length(r.pos(2) - glm::vec3(1, 1, 0)), 0.0f, 1e-5f);
    // (0,1,0) turned 90 degrees about (1,1,0)/sqrt2 about the point (0,0,0): the off-line part
    // (-0.5, 0.5, 0) becomes k x (-0.5, 0.5, 0) = (0, 0, sqrt(0.5)) (right-hand rule).
    EXPECT_NEAR(glm::length(r.pos(1) - glm::vec3(0.5f, 0.5f, std::sqrt(0.5f))), 0.0f, 1e-5f);
}

TEST(IkTwoBone, ScaledAndMirroredJoints) {
    // Scaled joints and a mirrored parent frame: the local corrections still equal the
    // model-space rotations (apply() checks both ways), and the end reaches. A mirror in a
    // corrected joint's own scale: the model-space rotations (what the IK stage applies) reach.
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), f(0.1f, 0.9f);
    for (int it = 0; it < 200; ++it) {
        Chain c = randomChain(rng);
        const bool ownMirror = it >= 100;
        c.root = glm::scale(glm::mat4(1.0f), glm::vec3(it % 2 ? -1.5f : 1.5f, 1.5f, 1.5f));
        c.local[0].scale = glm::vec3(ownMirror ? -1.2f : 1.2f, 1.2f, 1.2f);
        c.local[1].scale = glm::vec3(0.8f);
        c.local[2].scale = glm::vec3(1.0f, -1.0f, 1.0f);
        c.toModel();
        const float a = glm::length(c.pos(1) - c.pos(0)), b = glm::length(c.pos(2) - c.pos(1));
        const glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const glm::vec3 target = c.pos(0) + dir * (std::fabs(a - b) + (a + b - std::fabs(a - b)) * f(rng));
        const Chain r = apply(c, solve(c, target, {0, 1, 0}, hingeOf(c)), !ownMirror);
        EXPECT_LT(glm::length(r.pos(2) - target), 2e-5f * std::max(1.0f, a + b)) << it;
    }
}

TEST(IkTwoBone, WeightZeroLeavesThePoseBitForBit) {
    std::mt19937 rng(3);
    for (int it = 0; it < 20; ++it) {
        const Chain c = randomChain(rng);
        const TwoBoneOut o = solve(c, {3, 1, 2}, {0, 1, 0}, hingeOf(c), 0.0f);
        for (const glm::quat& q : {o.startCorr, o.midCorr, o.startRot, o.midRot}) {
            EXPECT_EQ(q, glm::quat(1, 0, 0, 0));
        }
        Chain m = c;
        rotateSubtree(std::vector<int32_t>{0, 1, 2, 3}, c.pos(0), o.startRot, m.model);
        EXPECT_EQ(std::memcmp(m.model.data(), c.model.data(), sizeof(glm::mat4) * 4), 0);
        EXPECT_FALSE(o.reached);
    }
}

TEST(IkTwoBone, HalfWeightIsHalfTheRotation) {
    std::mt19937 rng(9);
    for (int it = 0; it < 50; ++it) {
        const Chain c = randomChain(rng);
        const glm::vec3 target = c.pos(0) + glm::vec3(0.3f, 0.7f, -0.4f);
        const TwoBoneOut full = solve(c, target, {0, 0, 1}, hingeOf(c), 1.0f);
        const TwoBoneOut half = solve(c, target, {0, 0, 1}, hingeOf(c), 0.5f);
        EXPECT_NEAR(angleOf(half.startRot), 0.5f * angleOf(full.startRot), 1e-4f);
        EXPECT_NEAR(angleOf(half.midRot), 0.5f * angleOf(full.midRot), 1e-4f);
        // Same axis: half applied twice is the full rotation.
        const glm::quat twice = half.startRot * half.startRot;
        EXPECT_NEAR(std::fabs(glm::dot(twice, full.startRot)), 1.0f, 1e-5f);
    }
}

TEST(IkTwoBone, SoftLimitIsContinuousAndMonotonic) {
    const Chain c = straightChain();
    float last = 0.0f, lastStep = 0.0f;
    const float soft = 0.8f;
    for (int i = 0; i <= 400; ++i) {
        const float d = 1.0f + 2.0f * static_cast<float>(i) / 400.0f;  // 1 .. 3, chain length 2
        const Chain r = apply(c, solve(c, {0, d, 0}, {1, 0, 0}, {0, 0, 1}, 1.0f, soft));
        const float reach = glm::length(r.pos(2) - r.pos(0));
        if (d <= soft * 2.0f) EXPECT_NEAR(reach, d, 2e-5f) << d;  // exact below the soft zone
        EXPECT_LT(reach, 2.0f + 1e-5f);
        if (i > 0) {
            EXPECT_GE(reach, last - 1e-6f) << d;                  // monotonic
            const float step = reach - last;
            EXPECT_LT(step, 2.0f / 400.0f + 1e-5f) << d;         // no jump: slope <= 1
            if (i > 1 && d > soft * 2.0f + 0.02f) EXPECT_LE(step, lastStep + 1e-5f) << d;  // easing in
            lastStep = step;
        }
        last = reach;
    }
    // Without softening the chain snaps straight at the chain length; with it, it is short.
    const Chain hard = apply(c, solve(c, {0, 2, 0}, {1, 0, 0}, {0, 0, 1}, 1.0f, 1.0f));
    EXPECT_NEAR(glm::length(hard.pos(2)), 2.0f, 1e-5f);
    EXPECT_LT(last, 2.0f);
    EXPECT_GT(last, 1.9f);
}

TEST(IkTwoBone, DegenerateInputsGiveDefinedResults) {
    Chain c = straightChain();
    // Target at the start joint.
    TwoBoneOut o = solve(c, c.pos(0), {0, 1, 0}, {0, 0, 1});
    for (const glm::quat& q : {o.startCorr, o.midCorr, o.startRot, o.midRot}) EXPECT_TRUE(finiteQuat(q));
    // NaN and infinite targets and poles: no change at all.
    for (float bad : {NAN, INFINITY}) {
        o = solve(c, {bad, 0, 0}, {0, 1, 0}, {0, 0, 1});
        EXPECT_EQ(o.startRot, glm::quat(1, 0, 0, 0));
        EXPECT_EQ(o.midRot, glm::quat(1, 0, 0, 0));
        EXPECT_FALSE(o.reached);
        o = solve(c, {1, 1, 0}, {bad, 1, 0}, {bad, 0, 1}, bad, bad, bad);
        for (const glm::quat& q : {o.startCorr, o.midCorr, o.startRot, o.midRot}) EXPECT_TRUE(finiteQuat(q));
    }
    // A zero-length bone: nothing to bend; the chain still turns towards the target.
    c.local[1].translation = glm::vec3(0.0f);
    c.toModel();
    o = solve(c, {0, 3, 0}, {0, 1, 0}, {0, 0, 1});
    for (const glm::quat& q : {o.startCorr, o.midCorr, o.startRot, o.midRot}) EXPECT_TRUE(finiteQuat(q));
    const Chain r = apply(c, o);
    EXPECT_GT(glm::dot(glm::normalize(r.pos(2)), glm::vec3(0, 1, 0)), 1.0f - 1e-6f);
    // Zero pole, zero hinge, target on the straight chain's line.
    c = straightChain();
    o = solve(c, {1.5f, 0, 0}, {0, 0, 0}, {0, 0, 0});
    for (const glm::quat& q : {o.startCorr, o.midCorr, o.startRot, o.midRot}) EXPECT_TRUE(finiteQuat(q));
    // Missing joints: refused.
    IKTwoBoneJob job;
    EXPECT_FALSE(job.validate());
    EXPECT_FALSE(job.run());
    job.startJoint = &c.model[0];
    job.midJoint = &c.model[1];
    EXPECT_FALSE(job.run());
}

// --- Aim ------------------------------------------------------------------------------------

struct AimOut {
    glm::quat corr, rot;
    bool reached = false;
};

AimOut aim(const glm::mat4& joint, glm::vec3 target, glm::vec3 forward, glm::vec3 up, glm::vec3 pole,
           glm::vec3 offset = glm::vec3(0.0f), float weight = 1.0f, float limit = 0.0f) {
    AimOut o;
    IKAimJob job;
    job.joint = &joint;
    job.target = target;
    job.forward = forward;
    job.up = up;
    job.pole = pole;
    job.offset = offset;
    job.weight = weight;
    job.limit = limit;
    job.correction = &o.corr;
    job.rotation = &o.rot;
    job.reached = &o.reached;
    EXPECT_TRUE(job.run());
    return o;
}

TEST(IkAim, HandComputedQuarterTurn) {
    // Forward +X at the origin, target on +Y: a quarter turn about +Z (up +Z kept: pole +Z).
    const glm::mat4 m(1.0f);
    const AimOut o = aim(m, {0, 5, 0}, {1, 0, 0}, {0, 0, 1}, {0, 0, 1});
    EXPECT_TRUE(o.reached);
    const glm::quat expect = glm::angleAxis(kPi / 2.0f, glm::vec3(0, 0, 1));
    EXPECT_NEAR(std::fabs(glm::dot(o.corr, expect)), 1.0f, 1e-6f);
}

TEST(IkAim, PointsTheAxisAndKeepsUpTowardsThePole) {
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int it = 0; it < 300; ++it) {
        Transform t;
        t.translation = glm::vec3(u(rng), u(rng), u(rng));
        t.rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
        const glm::mat4 m = toMatrix(t);
        const glm::vec3 forward(0, 0, 1), up(0, 1, 0);
        const glm::vec3 target = t.translation + 3.0f * glm::vec3(u(rng), u(rng), u(rng));
        const glm::vec3 pole = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const glm::vec3 k = glm::normalize(target - t.translation);
        if (std::fabs(glm::dot(k, pole)) > 0.95f || glm::length(target - t.translation) < 0.1f) continue;
        const AimOut o = aim(m, target, forward, up, pole);
        // Through the local correction: rotation * correction.
        const glm::quat q = t.rotation * o.corr;
        EXPECT_GT(glm::dot(q * forward, k), 1.0f - 1e-5f) << it;
        const glm::vec3 upNow = q * up;
        // Up in the plane of the aim line and the pole, on the pole's side.
        EXPECT_NEAR(glm::dot(upNow, glm::normalize(glm::cross(k, pole))), 0.0f, 1e-5f) << it;
        EXPECT_GT(glm::dot(upNow, pole - k * glm::dot(pole, k)), 0.0f) << it;
        EXPECT_TRUE(o.reached);
    }
}

TEST(IkAim, OffsetRayGoesThroughTheTarget) {
    // Eyes 0.1 above and 0.2 in front of a head joint at (0, 1.6, 0), looking along +Z.
    const glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(0, 1.6f, 0));
    const glm::vec3 offset(0, 0.1f, 0.2f);
    for (const glm::vec3 target : {glm::vec3(2, 1, 3), glm::vec3(-1, 2.5f, 0.5f), glm::vec3(0, 0, -4)}) {
        const AimOut o = aim(m, target, {0, 0, 1}, {0, 1, 0}, {0, 1, 0}, offset);
        const glm::vec3 eye = glm::vec3(m[3]) + o.rot * offset;
        const glm::vec3 f = o.rot * glm::vec3(0, 0, 1);
        const glm::vec3 to = target - eye;
        EXPECT_GT(glm::dot(to, f), 0.0f);
        EXPECT_LT(glm::length(to - f * glm::dot(to, f)), 1e-5f);
        EXPECT_TRUE(o.reached);
    }
}

TEST(IkAim, WeightAndLimit) {
    const glm::mat4 m(1.0f);
    const AimOut zero = aim(m, {0, 5, 0}, {1, 0, 0}, {0, 0, 1}, {0, 0, 1}, glm::vec3(0.0f), 0.0f);
    EXPECT_EQ(zero.corr, glm::quat(1, 0, 0, 0));
    EXPECT_FALSE(zero.reached);
    const AimOut half = aim(m, {0, 5, 0}, {1, 0, 0}, {0, 0, 1}, {0, 0, 1}, glm::vec3(0.0f), 0.5f);
    EXPECT_NEAR(angleOf(half.corr), kPi / 4.0f, 1e-5f);
    const AimOut limited = aim(m, {0, 5, 0}, {1, 0, 0}, {0, 0, 1}, {0, 0, 1}, glm::vec3(0.0f), 1.0f, kPi / 6.0f);
    EXPECT_NEAR(angleOf(limited.corr), kPi / 6.0f, 1e-5f);
    EXPECT_FALSE(limited.reached);
    // The limited forward axis is turned towards the target, 30 degrees.
    const glm::vec3 f = limited.corr * glm::vec3(1, 0, 0);
    EXPECT_NEAR(f.y, 0.5f, 1e-5f);
}

TEST(IkAim, DegenerateInputs) {
    const glm::mat4 m(1.0f);
    for (const glm::vec3 target : {glm::vec3(0.0f), glm::vec3(NAN, 0, 0), glm::vec3(0, INFINITY, 0)}) {
        const AimOut o = aim(m, target, {1, 0, 0}, {0, 1, 0}, {0, 1, 0});
        EXPECT_EQ(o.corr, glm::quat(1, 0, 0, 0));
        EXPECT_FALSE(o.reached);
    }
    // Zero forward axis, NaN pole / up: finite.
    EXPECT_TRUE(finiteQuat(aim(m, {1, 2, 3}, {0, 0, 0}, {0, 1, 0}, {0, 1, 0}).corr));
    EXPECT_TRUE(finiteQuat(aim(m, {1, 2, 3}, {1, 0, 0}, {NAN, 1, 0}, {0, NAN, 0}).corr));
    // Target straight behind: half a turn, still pointing.
    const AimOut back = aim(m, {-3, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 0});
    EXPECT_GT(glm::dot(back.corr * glm::vec3(1, 0, 0), glm::vec3(-1, 0, 0)), 1.0f - 1e-5f);
    IKAimJob job;
    EXPECT_FALSE(job.run());
}


// --- The IK stage -----------------------------------------------------------------------------

TEST(IkStage, AnimatorPaletteSeesTheIkPose) {
    const Model m = rig::testing::makeChain(20, 30);
    Animator plain(m), withIk(m);
    plain.evaluate(0, 0.4f);
    IkStage stage(m.skeleton);
    const int32_t c = stage.addTwoBone(10, 11, 12);
    ASSERT_EQ(c, 0);
    const glm::vec3 s(plain.world()[10][3]);
    const glm::vec3 target = s + glm::vec3(0.5f, 1.2f, 0.3f);
    stage.twoBone()[c].target = target;
    stage.twoBone()[c].soft = 1.0f;
    withIk.setPostProcess(&stage);
    withIk.evaluate(0, 0.4f);
    EXPECT_LT(glm::length(glm::vec3(withIk.world()[12][3]) - target), 1e-4f);
    EXPECT_TRUE(stage.twoBone()[c].reached);
    // Joints above the chain untouched, joints below it carried rigidly.
    for (int i = 0; i <= 10; ++i) EXPECT_EQ(glm::vec3(withIk.world()[i][3]), glm::vec3(plain.world()[i][3])) << i;
    for (int i = 13; i < 20; ++i) {
        const glm::mat4 before = glm::inverse(plain.world()[12]) * plain.world()[i];
        const glm::mat4 after = glm::inverse(withIk.world()[12]) * withIk.world()[i];
        for (int k = 0; k < 4; ++k) EXPECT_LT(glm::length(before[k] - after[k]), 1e-4f) << i;
    }
    // The palette (what CPU and GPU skinning read) moves the vertex bound to joint 12 onto the
    // target (the mesh hangs at the root frame: mesh space is model space).
    std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(pos.size());
    skinMesh(m.meshes[0], withIk.palette().data(), pos.data(), nrm.data());
    EXPECT_LT(glm::length(glm::vec3(withIk.skinToModel(0) * glm::vec4(pos[12], 1.0f)) - target), 1e-4f);
    // Weight 0 and the stage off: bit for bit the pose without IK.
    stage.twoBone()[c].weight = 0.0f;
    withIk.evaluate(0, 0.4f);
    EXPECT_EQ(std::memcmp(withIk.world().data(), plain.world().data(), sizeof(glm::mat4) * 20), 0);
    EXPECT_EQ(std::memcmp(withIk.palette().data(), plain.palette().data(), sizeof(glm::mat4) * plain.palette().size()), 0);
    stage.twoBone()[c].weight = 1.0f;
    stage.enabled = false;
    withIk.evaluatePose(plain.local());
    plain.evaluatePose(plain.local());
    EXPECT_EQ(std::memcmp(withIk.world().data(), plain.world().data(), sizeof(glm::mat4) * 20), 0);
    stage.enabled = true;
    withIk.evaluatePose(plain.local());  // the controller's path runs the stage too
    EXPECT_LT(glm::length(glm::vec3(withIk.world()[12][3]) - target), 1e-4f);
}

TEST(IkStage, AimJointInTheStage) {
    const Model m = rig::testing::makeChain(8, 30);
    Animator anim(m);
    IkStage stage(m.skeleton);
    const int32_t a = stage.addAim(5);
    ASSERT_EQ(a, 0);
    stage.aim()[a].forward = glm::vec3(0, 1, 0);  // the chain's bones point along +Y
    stage.aim()[a].up = glm::vec3(1, 0, 0);
    stage.aim()[a].pole = glm::vec3(0, 0, 1);
    stage.aim()[a].target = glm::vec3(4, 2, -3);
    anim.setPostProcess(&stage);
    anim.evaluate(0, 0.7f);
    const glm::vec3 p(anim.world()[5][3]);
    const glm::vec3 forward = glm::normalize(glm::mat3(anim.world()[5]) * glm::vec3(0, 1, 0));
    EXPECT_GT(glm::dot(forward, glm::normalize(glm::vec3(4, 2, -3) - p)), 1.0f - 1e-5f);
    EXPECT_TRUE(stage.aim()[a].reached);
}

TEST(IkStage, RefusesBadChainsAndSpans) {
    const Model m = rig::testing::makeWideTree(20, 0);
    IkStage stage(m.skeleton);
    EXPECT_EQ(stage.addTwoBone(-1, 1, 2), -1);
    EXPECT_EQ(stage.addTwoBone(0, 1, 99), -1);
    // Siblings are no chain.
    int32_t a = -1, b = -1;
    for (size_t i = 1; i < m.skeleton.size() && b < 0; ++i) {
        if (m.skeleton.parent[i] == 0) (a < 0 ? a : b) = static_cast<int32_t>(i);
    }
    ASSERT_GE(b, 0);
    EXPECT_EQ(stage.addTwoBone(0, a, b), -1);
    EXPECT_EQ(stage.addAim(20), -1);
    EXPECT_TRUE(stage.twoBone().empty());
    std::vector<glm::mat4> shortModel(5);
    EXPECT_FALSE(stage.run(shortModel));
}

TEST(IkStage, FindsLimbChainsByName) {
    Skeleton sk;
    auto add = [&](const char* name, int32_t parent) {
        sk.names.push_back(name);
        sk.parent.push_back(parent);
        return static_cast<int32_t>(sk.names.size() - 1);
    };
    const int32_t hips = add("mixamorig:Hips", -1);
    const int32_t lUp = add("mixamorig:LeftUpLeg", hips), lLeg = add("mixamorig:LeftLeg", lUp);
    const int32_t lFoot = add("mixamorig:LeftFoot", lLeg);
    add("mixamorig:LeftToeBase", lFoot);
    const int32_t thigh = add("thigh.R", hips), shin = add("SHIN.R", thigh), foot = add("foot.R", shin);
    const int32_t spine = add("mixamorig:Spine", hips);
    const int32_t arm = add("upper_arm.L", spine), fore = add("forearm.L", arm);
    const int32_t twist = add("forearm_twist.L", fore), hand = add("hand.L", twist);
    add("hand.L.finger1", hand);
    add("Head", spine);
    const std::vector<ChainGuess> g = findLimbChains(sk);
    ASSERT_EQ(g.size(), 3u);
    EXPECT_EQ(g[0].start, lUp);
    EXPECT_EQ(g[0].mid, lLeg);
    EXPECT_EQ(g[0].end, lFoot);
    EXPECT_EQ(g[0].label, "leg: mixamorig:LeftFoot");
    EXPECT_EQ(g[1].start, thigh);
    EXPECT_EQ(g[1].mid, shin);
    EXPECT_EQ(g[1].end, foot);
    EXPECT_EQ(g[2].start, arm);
    EXPECT_EQ(g[2].mid, fore);  // the twist bone between forearm and hand is stepped over
    EXPECT_EQ(g[2].end, hand);
    EXPECT_TRUE(findLimbChains(rig::testing::makeChain(5, 0).skeleton).empty());
}

// --- Foot locking ---------------------------------------------------------------------------

// A synthetic walking leg (hip, knee, ankle; bones of length 1): the hip travels +X at 1
// unit/s, 1.9 above the ground; the foot's stance lasts half of each 1 s step, during which
// it slides forward by 0.3 unit/s (the foot skate foot locking removes), 0.02 above the
// ground; in the swing it lifts by up to 0.3 and moves to the next stance position.
struct WalkingLeg {
    static glm::vec3 foot(double t) {
        const double step = std::floor(t), ph = t - step;
        const double x0 = step + 0.25;  // stance start: a quarter unit ahead of the hip
        if (ph < 0.5) return glm::vec3(static_cast<float>(x0 + 0.3 * ph), 0.02f, 0.0f);
        const double x1 = x0 + 0.15, x2 = step + 1.25, s = (ph - 0.5) / 0.5;
        const double x = x1 + (x2 - x1) * (0.5 - 0.5 * std::cos(3.14159265358979 * s));
        return glm::vec3(static_cast<float>(x), static_cast<float>(0.02 + 0.3 * std::sin(3.14159265358979 * s)), 0.0f);
    }
    static glm::vec3 hip(double t) { return glm::vec3(static_cast<float>(t), 1.9f, 0.0f); }
    // Model matrices (identity rotations), the knee bent towards +X; positions shifted by -shift.
    static void pose(double t, glm::vec3 shift, std::vector<glm::mat4>& model) {
        const glm::vec3 h = hip(t), f = foot(t);
        const glm::vec3 d = f - h;
        const float len = glm::length(d);
        const glm::vec3 perp = glm::normalize(glm::vec3(-d.y, d.x, 0.0f)) * (d.y < 0 ? -1.0f : 1.0f);
        const glm::vec3 k = h + 0.5f * d + perp * std::sqrt(std::max(0.0f, 1.0f - 0.25f * len * len));
        model.assign(3, glm::mat4(1.0f));
        model[0][3] = glm::vec4(h - shift, 1.0f);
        model[1][3] = glm::vec4(k - shift, 1.0f);
        model[2][3] = glm::vec4(f - shift, 1.0f);
    }
    static Skeleton skeleton() {
        Skeleton sk;
        sk.names = {"hip", "knee", "ankle"};
        sk.parent = {-1, 0, 1};
        std::vector<glm::mat4> m;
        pose(0.25, glm::vec3(0.0f), m);
        sk.bindModel = m;
        return sk;
    }
};

// Returns the largest per-tick move of the foot, over that of the animation's foot.
float runWalk(bool inPlace, float blend = 0.1f) {
    const Skeleton sk = WalkingLeg::skeleton();
    IkStage stage(sk);
    EXPECT_EQ(stage.addTwoBone(0, 1, 2), 0);
    TwoBoneChain& c = stage.twoBone()[0];
    EXPECT_GT(glm::dot(c.midAxis, glm::vec3(0, 0, 1)) * glm::dot(c.midAxis, glm::vec3(0, 0, 1)), 0.99f);
    c.footLock.enabled = true;
    c.footLock.up = glm::vec3(0, 1, 0);
    c.footLock.height = 0.05f;
    c.footLock.speed = 0.5f;
    c.footLock.blend = blend;
    c.soft = 1.0f;
    const double dt = 1.0 / 120.0;
    std::vector<glm::mat4> model;
    glm::vec3 lastOut(NAN);
    float maxStep = 0.0f, maxAnimStep = 0.0f;
    int lockedTicks = 0, freeTicks = 0;
    glm::vec3 stanceAnchor(NAN);
    double anchorStep = -1.0;
    for (int i = 0; i <= 480; ++i) {
        const double t = i * dt;
        const glm::vec3 shift = inPlace ? glm::vec3(static_cast<float>(t), 0, 0) : glm::vec3(0.0f);
        WalkingLeg::pose(t, shift, model);
        stage.advance(static_cast<float>(dt), shift);
        EXPECT_TRUE(stage.run(model));
        const glm::vec3 out = glm::vec3(model[2][3]) + shift;  // world position of the foot
        const glm::vec3 anim = WalkingLeg::foot(t);
        // Bone lengths are kept.
        EXPECT_NEAR(glm::length(glm::vec3(model[1][3] - model[0][3])), 1.0f, 1e-4f);
        EXPECT_NEAR(glm::length(glm::vec3(model[2][3] - model[1][3])), 1.0f, 1e-4f);
        if (i > 0) {
            maxStep = std::max(maxStep, glm::length(out - lastOut));
            maxAnimStep = std::max(maxAnimStep, glm::length(anim - WalkingLeg::foot(t - dt)));
        }
        lastOut = out;
        const double ph = t - std::floor(t);
        if (ph > 0.15 && ph < 0.5) {
            // Deep in a stance: fully locked, the foot stays where the contact began although
            // the animation slides it forward.
            EXPECT_EQ(c.lockWeight, 1.0f) << t;
            if (std::floor(t) != anchorStep) {
                anchorStep = std::floor(t);
                stanceAnchor = out;
            }
            EXPECT_LT(glm::length(out - stanceAnchor), 1e-4f) << t;
            EXPECT_LT(out.y, 0.05f);
            ++lockedTicks;
        }
        if (ph > 0.75) {
            // Mid swing, after the release blend: the animation's foot exactly.
            EXPECT_EQ(c.lockWeight, 0.0f) << t;
            EXPECT_LT(glm::length(out - anim), 1e-4f) << t;
            ++freeTicks;
        }
    }
    EXPECT_GT(lockedTicks, 100);
    EXPECT_GT(freeTicks, 50);
    return maxStep / maxAnimStep;
}

TEST(IkFootLock, PinsTheFootDuringStanceAndReleasesSmoothly) {
    // No snap anywhere (lock and release are blended): the foot never moves much faster
    // than the animation's; released at once it would jump by the slide it had missed.
    const float blended = runWalk(false), snapped = runWalk(false, 0.0f);
    EXPECT_LT(blended, 2.5f);  // measured 1.93: the catch-up over 0.1 s on top of the swing
    EXPECT_GT(snapped, 2.0f * blended);  // measured 6.7
}

TEST(IkFootLock, InPlaceRootMotionThroughTheReferenceOffset) {
    EXPECT_LT(runWalk(true), 2.5f);
}

}  // namespace
