// The runtime jobs (anim/jobs): each against an independent reference (glm's own matrix
// functions), and each refusing invalid input through validate() / run() == false without
// writing its output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/control/crowd.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/local_to_model_job.h"
#include "anim/runtime/sampling_job.h"
#include "anim/runtime/skinning_matrix_job.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "support/rigs.h"

using namespace rig;

namespace {

// glm's T * R * S, built from glm's own functions (not toMatrix).
glm::mat4 reference(const Transform& t) {
    return glm::translate(glm::mat4(1.0f), t.translation) * glm::mat4_cast(t.rotation) * glm::scale(glm::mat4(1.0f), t.scale);
}

std::vector<Transform> someLocalPose(const Skeleton& sk) {
    std::vector<Transform> local(sk.size());
    for (size_t i = 0; i < local.size(); ++i) {
        const float f = static_cast<float>(i);
        local[i].translation = glm::vec3(0.1f * f, 1.0f + 0.05f * std::sin(f), -0.2f * std::cos(f));
        local[i].rotation = glm::normalize(glm::quat(std::cos(0.3f * f), 0.2f * std::sin(f), -0.4f, 0.1f * f));
        local[i].scale = glm::vec3(1.0f + 0.01f * f, 0.9f, 1.1f - 0.02f * std::sin(f));
    }
    return local;
}

// someLocalPose's model-space matrices.
std::vector<glm::mat4> someModelPose(const Skeleton& sk) {
    const std::vector<Transform> local = someLocalPose(sk);
    std::vector<glm::mat4> model(sk.size());
    LocalToModelJob ltm;
    ltm.parent = sk.parent;
    ltm.local = local;
    ltm.model = model;
    EXPECT_TRUE(ltm.run());
    return model;
}

void expectNear(const glm::mat4& a, const glm::mat4& b, float tol) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], tol) << "column " << c << " row " << r;
}

// Equal element by element (+0 == -0): the same rounding as the scalar code.
bool sameBits(const glm::mat4& a, const glm::mat4& b) { return a == b; }

}  // namespace

TEST(LocalToModelJob, MatchesGlmProductsInEveryForm) {
    const Model m = rig::testing::makeWideTree(37, 0);
    const Skeleton& sk = m.skeleton;
    const std::vector<Transform> local = someLocalPose(sk);
    std::vector<uint8_t> use(sk.size());
    for (size_t i = 0; i < use.size(); ++i) use[i] = i % 3 != 1;
    // Independent reference: glm's full 4x4 products.
    std::vector<glm::mat4> refLocal(sk.size()), refMasked(sk.size()), refBind(sk.size());
    for (size_t i = 0; i < sk.size(); ++i) {
        const int32_t p = sk.parent[i];
        const glm::mat4 l = reference(local[i]);
        const glm::mat4 lm = use[i] ? l : sk.bindLocal[i];
        refLocal[i] = p < 0 ? l : refLocal[p] * l;
        refMasked[i] = p < 0 ? lm : refMasked[p] * lm;
        refBind[i] = p < 0 ? sk.bindLocal[i] : refBind[p] * sk.bindLocal[i];
    }
    // One output 16-byte aligned, one not (the job takes either); the baseline form and, where
    // the CPU has it, the AVX2 + FMA form (anim/runtime/isa.h).
    std::vector<glm::mat4> storage(sk.size() + 1);
    const isa::Level chosen = isa::level();
    for (int form = 0; form < 2 * isa::levelsHere(); ++form) {
        const size_t shift = (form & 1) ? 4 : 0;
        const bool fma = form >= 2;  // the AVX2 form (and AVX-512, which runs local-to-model as AVX2)
        isa::force(static_cast<isa::Level>(form / 2));
        std::span<glm::mat4> out(reinterpret_cast<glm::mat4*>(reinterpret_cast<char*>(storage.data()) + shift), sk.size());
        LocalToModelJob job;
        job.parent = sk.parent;
        job.local = local;
        job.model = out;
        ASSERT_TRUE(job.validate());
        ASSERT_TRUE(job.run());
        for (size_t i = 0; i < sk.size(); ++i) {
            expectNear(out[i], refLocal[i], 2e-5f);
            // Bit-identical to the scalar toMatrix + mulAffine loop it replaces; with FMA, each
            // product rounds once instead of twice: within a few float steps of it.
            const int32_t p = sk.parent[i];
            glm::mat4 scalar = toMatrix(local[i]);
            if (p >= 0) scalar = mulAffine(out[p], scalar);
            if (fma) expectNear(out[i], scalar, 2e-6f);
            else EXPECT_TRUE(sameBits(out[i], scalar)) << "joint " << i << " shift " << shift;
        }
        job.bindLocal = sk.bindLocal;
        job.useLocal = use;
        ASSERT_TRUE(job.run());
        for (size_t i = 0; i < sk.size(); ++i) expectNear(out[i], refMasked[i], 2e-5f);
        job.local = {};
        job.useLocal = {};
        ASSERT_TRUE(job.run());
        for (size_t i = 0; i < sk.size(); ++i) expectNear(out[i], refBind[i], 2e-5f);
        for (size_t i = 0; i < sk.size(); ++i) {
            if (fma) expectNear(out[i], sk.bindModel[i], 2e-6f);
            else EXPECT_TRUE(sameBits(out[i], sk.bindModel[i]));
        }
    }
    isa::force(chosen);
}

TEST(LocalToModelJob, PrefixCountStopsAtThatJoint) {
    const Model m = rig::testing::makeChain(8, 0);
    const std::vector<Transform> local = someLocalPose(m.skeleton);
    std::vector<glm::mat4> out(3, glm::mat4(0.0f));
    LocalToModelJob job;
    job.parent = m.skeleton.parent;
    job.local = local;
    job.count = 3;
    job.model = out;
    ASSERT_TRUE(job.run());
    expectNear(out[2], reference(local[0]) * reference(local[1]) * reference(local[2]), 2e-5f);
}

TEST(LocalToModelJob, InvalidInputIsRefusedAndNothingWritten) {
    const Model m = rig::testing::makeChain(6, 0);
    const Skeleton& sk = m.skeleton;
    const std::vector<Transform> local = someLocalPose(sk);
    std::vector<uint8_t> use(sk.size(), 1);
    std::vector<glm::mat4> out(sk.size(), glm::mat4(7.0f));
    auto good = [&] {
        LocalToModelJob j;
        j.parent = sk.parent;
        j.local = local;
        j.model = out;
        return j;
    };
    ASSERT_TRUE(good().validate());
    std::vector<LocalToModelJob> bad;
    {
        LocalToModelJob j = good();
        j.local = j.local.first(5);  // short local pose
        bad.push_back(j);
    }
    {
        LocalToModelJob j = good();
        j.model = j.model.first(5);  // short output
        bad.push_back(j);
    }
    {
        LocalToModelJob j = good();
        j.count = sk.size() + 1;  // more joints than parents
        bad.push_back(j);
    }
    {
        LocalToModelJob j = good();
        j.useLocal = use;  // a mask without matrices
        bad.push_back(j);
    }
    {
        LocalToModelJob j = good();
        j.bindLocal = sk.bindLocal;  // matrices and poses but no mask: ambiguous
        bad.push_back(j);
    }
    {
        LocalToModelJob j = good();
        j.bindLocal = std::span<const glm::mat4>(sk.bindLocal).first(4);
        j.useLocal = use;  // short matrices
        bad.push_back(j);
    }
    {
        LocalToModelJob j = good();
        j.local = {};  // nothing to read
        bad.push_back(j);
    }
    std::vector<int32_t> notParentsFirst = sk.parent;
    notParentsFirst[2] = 4;
    {
        LocalToModelJob j = good();
        j.parent = notParentsFirst;
        bad.push_back(j);
    }
    for (size_t k = 0; k < bad.size(); ++k) {
        EXPECT_FALSE(bad[k].validate()) << "case " << k;
        EXPECT_FALSE(bad[k].run()) << "case " << k;
        for (const glm::mat4& o : out) EXPECT_EQ(o, glm::mat4(7.0f)) << "case " << k;
    }
}

TEST(JointOrder, LevelsKeepParentsFirstAndIndexOrderWithinALevel) {
    // A hand-made forest: 0 -> {1, 4}, 1 -> {2}, 2 -> {3}, 4 -> {5, 6}; 7 a second root -> {8}.
    const std::vector<int32_t> parent = {-1, 0, 1, 2, 0, 4, 4, -1, 7};
    const JointOrder order(parent);
    ASSERT_FALSE(order.empty());
    const std::vector<int32_t> expected = {0, 7, 1, 4, 8, 2, 5, 6, 3};
    EXPECT_EQ(std::vector<int32_t>(order.joints().begin(), order.joints().end()), expected);
    EXPECT_TRUE(order.builtFor(parent));
    const std::vector<int32_t> copy = parent;  // equal values, other storage
    EXPECT_FALSE(order.builtFor(copy));
    EXPECT_FALSE(order.builtFor(std::span<const int32_t>(parent).first(8)));
    // Not parents-first, or nothing: no order.
    EXPECT_TRUE(JointOrder(std::vector<int32_t>{-1, 2, 0}).empty());
    EXPECT_TRUE(JointOrder(std::vector<int32_t>{0}).empty());
    EXPECT_TRUE(JointOrder(std::vector<int32_t>{-1, -2}).empty());
    EXPECT_TRUE(JointOrder(std::vector<int32_t>{}).empty());
}

TEST(JointOrder, APartialOrderComputesItsJointsOnlyWithTheSameBits) {
    // 0 -> {1, 4}, 1 -> {2}, 2 -> {3}, 4 -> {5, 6}; 7 -> {8}: keep the subtree of 1 and joint 8.
    const std::vector<int32_t> parent = {-1, 0, 1, 2, 0, 4, 4, -1, 7};
    const JointOrder full(parent);
    const std::vector<uint8_t> keep = {0, 1, 1, 1, 0, 0, 0, 0, 1};
    JointOrder part;
    part.assignPartial(full, keep.data());
    EXPECT_EQ(std::vector<int32_t>(part.joints().begin(), part.joints().end()), (std::vector<int32_t>{1, 8, 2, 3}));
    EXPECT_TRUE(part.builtFor(parent));
    const std::vector<uint8_t> none(parent.size(), 0);
    JointOrder empty;
    empty.assignPartial(full, none.data());
    EXPECT_TRUE(empty.empty());
    EXPECT_FALSE(empty.builtFor(parent));

    Skeleton sk;
    sk.parent = parent;
    sk.bindLocal.assign(parent.size(), glm::mat4(1.0f));
    const std::vector<Transform> local = someLocalPose(sk);
    const isa::Level chosen = isa::level();
    for (int level = 0; level < isa::levelsHere(); ++level) {
        isa::force(static_cast<isa::Level>(level));
        std::vector<glm::mat4> all(parent.size());
        LocalToModelJob job;
        job.parent = parent;
        job.local = local;
        job.model = all;
        ASSERT_TRUE(job.run());
        // The joints left out hold what the caller keeps there (here: the full result, or 7s).
        std::vector<glm::mat4> some = all, sentinel(parent.size(), glm::mat4(7.0f));
        for (int32_t j : part.joints()) some[j] = glm::mat4(7.0f);
        job.order = &part;
        job.model = some;
        ASSERT_TRUE(job.run());
        for (size_t i = 0; i < parent.size(); ++i) EXPECT_TRUE(sameBits(some[i], all[i])) << "level " << level << " joint " << i;
        job.model = sentinel;
        ASSERT_TRUE(job.run());
        for (size_t i = 0; i < parent.size(); ++i) {
            if (!keep[i]) EXPECT_EQ(sentinel[i], glm::mat4(7.0f)) << "joint " << i;
        }
    }
    isa::force(chosen);
}

TEST(LocalToModelJob, LevelOrderGivesTheSameBitsInEveryForm) {
    for (const Model& m : {rig::testing::makeWideTree(37, 0), rig::testing::makeChain(11, 0)}) {
        const Skeleton& sk = m.skeleton;
        const std::vector<Transform> local = someLocalPose(sk);
        std::vector<uint8_t> use(sk.size());
        for (size_t i = 0; i < use.size(); ++i) use[i] = i % 3 != 1;
        const JointOrder order(sk.parent);
        ASSERT_FALSE(order.empty());
        const isa::Level chosen = isa::level();
        for (int level = 0; level < isa::levelsHere(); ++level) {
            isa::force(static_cast<isa::Level>(level));
            for (int mode = 0; mode < 3; ++mode) {
                std::vector<glm::mat4> byIndex(sk.size()), byLevels(sk.size(), glm::mat4(7.0f));
                LocalToModelJob job;
                job.parent = sk.parent;
                if (mode != 1) job.local = local;
                if (mode != 0) job.bindLocal = sk.bindLocal;
                if (mode == 2) job.useLocal = use;
                job.model = byIndex;
                ASSERT_TRUE(job.run());
                job.order = &order;
                job.model = byLevels;
                ASSERT_TRUE(job.run()) << "mode " << mode;
                for (size_t i = 0; i < sk.size(); ++i) EXPECT_TRUE(sameBits(byIndex[i], byLevels[i])) << "mode " << mode << " joint " << i;
            }
        }
        isa::force(chosen);
        // An order is for whole skeletons, and for the parents it was built from.
        std::vector<glm::mat4> out(sk.size(), glm::mat4(7.0f));
        LocalToModelJob job;
        job.parent = sk.parent;
        job.local = local;
        job.model = out;
        job.order = &order;
        job.count = 3;
        EXPECT_FALSE(job.run());
        job.count = 0;
        const std::vector<int32_t> copy = sk.parent;
        job.parent = copy;
        EXPECT_FALSE(job.run());
        for (const glm::mat4& o : out) EXPECT_EQ(o, glm::mat4(7.0f));
    }
}

TEST(SkinningMatrixJob, ModelTimesInverseBindWithTheMeshCorrection) {
    const Model m = rig::testing::makeWideTree(20, 0);
    const std::vector<glm::mat4> model = someModelPose(m.skeleton);
    const std::vector<int32_t> joints = {5, 0, 19, 7};
    std::vector<glm::mat4> ib;
    for (int32_t j : joints) ib.push_back(glm::inverse(m.skeleton.bindModel[j]) * glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, 0, 0)));
    const glm::mat4 correction = glm::inverse(model[3]);
    std::vector<glm::mat4> palette(joints.size() + 1, glm::mat4(1.0f));
    SkinningMatrixJob job;
    job.model = model;
    job.joints = joints;
    job.inverseBind = ib;
    job.palette = palette;
    ASSERT_TRUE(job.run());
    for (size_t j = 0; j < joints.size(); ++j) expectNear(palette[j], model[joints[j]] * ib[j], 1e-5f);
    EXPECT_EQ(palette.back(), glm::mat4(1.0f));  // one past the joints: untouched
    job.correction = &correction;
    ASSERT_TRUE(job.run());
    for (size_t j = 0; j < joints.size(); ++j) expectNear(palette[j], correction * model[joints[j]] * ib[j], 1e-4f);
}

// The rows output holds the same numbers as the matrices, transposed, in both kernel forms,
// and needs three rows per joint.
TEST(SkinningMatrixJob, RowsAreTheMatricesRowByRow) {
    const Model m = rig::testing::makeWideTree(20, 0);
    const std::vector<glm::mat4> model = someModelPose(m.skeleton);
    const std::vector<int32_t> joints = {5, 0, 19, 7, 2};
    std::vector<glm::mat4> ib;
    for (int32_t j : joints) ib.push_back(glm::inverse(m.skeleton.bindModel[j]));
    const glm::mat4 correction = glm::inverse(model[3]);
    const isa::Level chosen = isa::level();
    for (int level = 0; level < isa::levelsHere(); ++level) {
        isa::force(static_cast<isa::Level>(level));
        for (const glm::mat4* c : {static_cast<const glm::mat4*>(nullptr), &correction}) {
            std::vector<glm::mat4> palette(joints.size());
            std::vector<glm::vec4> rows(3 * joints.size() + 1, glm::vec4(7.0f));
            const SkinningMatrixJob job{.model = model, .joints = joints, .inverseBind = ib, .correction = c, .palette = palette};
            ASSERT_TRUE(job.run());
            SkinningMatrixJob asRows = job;
            asRows.palette = {};
            asRows.rows = {rows.data(), rows.size() - 1};
            SkinningMatrixJob shortRows = asRows;
            shortRows.rows = shortRows.rows.first(3 * joints.size() - 1);
            EXPECT_FALSE(shortRows.run());
            ASSERT_TRUE(asRows.run());
            for (size_t j = 0; j < joints.size(); ++j) {
                for (int r = 0; r < 3; ++r) {
                    for (int col = 0; col < 4; ++col) EXPECT_EQ(rows[3 * j + r][col], palette[j][col][r]) << j << " " << r << " " << col;
                }
                EXPECT_EQ(affineFromRows(&rows[3 * j]), palette[j]);
            }
            EXPECT_EQ(rows.back(), glm::vec4(7.0f));  // one past the joints: untouched
        }
    }
    isa::force(chosen);
}

TEST(SkinningMatrixJob, InvalidInputIsRefusedAndNothingWritten) {
    const Model m = rig::testing::makeChain(4, 0);
    const std::vector<glm::mat4>& model = m.skeleton.bindModel;
    std::vector<int32_t> joints = {0, 1, 2};
    const std::vector<glm::mat4> ib(3, glm::mat4(1.0f));
    std::vector<glm::mat4> palette(3, glm::mat4(7.0f));
    SkinningMatrixJob job;
    job.model = model;
    job.joints = joints;
    job.inverseBind = ib;
    job.palette = palette;
    ASSERT_TRUE(job.validate());
    SkinningMatrixJob shortPalette = job;
    shortPalette.palette = shortPalette.palette.first(2);
    SkinningMatrixJob fewInverseBinds = job;
    fewInverseBinds.inverseBind = fewInverseBinds.inverseBind.first(2);
    std::vector<int32_t> outOfRange = {0, 4, 1};
    SkinningMatrixJob badJoint = job;
    badJoint.joints = outOfRange;
    std::vector<int32_t> negative = {0, -1, 1};
    SkinningMatrixJob negativeJoint = job;
    negativeJoint.joints = negative;
    for (const SkinningMatrixJob& b : {shortPalette, fewInverseBinds, badJoint, negativeJoint}) {
        EXPECT_FALSE(b.validate());
        EXPECT_FALSE(b.run());
    }
    for (const glm::mat4& p : palette) EXPECT_EQ(p, glm::mat4(7.0f));
}

TEST(SkinningMatrixJob, JointRangeCoversItsArrayAndItsPartsOnly) {
    const Model m = rig::testing::makeChain(4, 0);
    const std::vector<glm::mat4>& model = m.skeleton.bindModel;
    const std::vector<int32_t> joints = {0, 1, 2, 3};
    const JointRange range(joints);
    const std::span<const int32_t> all(joints);
    EXPECT_TRUE(range.covers(all));
    EXPECT_TRUE(range.covers(all.subspan(1, 2)));
    EXPECT_TRUE(range.covers(all.subspan(3, 1)));
    EXPECT_TRUE(range.covers(all.subspan(4, 0)));
    const std::vector<int32_t> copy = joints;
    EXPECT_FALSE(range.covers(copy));
    EXPECT_FALSE(range.covers(std::span<const int32_t>(joints.data() + 1, 4)));  // one past its end
    // A part of the array, validated by the range: the same entries as the whole job's.
    const std::vector<glm::mat4> ib(4, glm::scale(glm::mat4(1.0f), glm::vec3(2.0f)));
    std::vector<glm::mat4> whole(4), part(2, glm::mat4(7.0f));
    SkinningMatrixJob job{.model = model, .joints = joints, .inverseBind = ib, .palette = whole};
    job.range = &range;
    ASSERT_TRUE(job.run());
    SkinningMatrixJob sub = job;
    sub.joints = all.subspan(2, 2);
    sub.inverseBind = std::span<const glm::mat4>(ib).subspan(2, 2);
    sub.palette = part;
    ASSERT_TRUE(sub.run());
    EXPECT_EQ(part[0], whole[2]);
    EXPECT_EQ(part[1], whole[3]);
    // A range found for other joints does not vouch for these.
    const std::vector<int32_t> outOfRange = {0, 9};
    SkinningMatrixJob bad = job;
    bad.joints = outOfRange;
    bad.inverseBind = std::span<const glm::mat4>(ib).first(2);
    EXPECT_FALSE(bad.validate());
}

TEST(SamplingJob, SamplesTheClipLikeSampleClip) {
    const Model m = rig::testing::makeChain(10, 40);
    const Clip& clip = m.clips[0];
    std::vector<Transform> local = m.skeleton.bindLocalSqt, expected = m.skeleton.bindLocalSqt;
    std::vector<uint32_t> cursors(3 * clip.tracks.size(), 0), cursors2 = cursors;
    SamplingJob job;
    job.clip = &clip;
    job.time = 0.77f;
    job.bindLocal = m.skeleton.bindLocalSqt;
    job.cursors = cursors;
    job.local = local;
    ASSERT_TRUE(job.run());
    sampleClip(clip, 0.77f, m.skeleton.bindLocalSqt.data(), expected.data(), cursors2.data(), RotationBlend::Slerp);
    for (size_t i = 0; i < local.size(); ++i) {
        EXPECT_EQ(local[i].translation, expected[i].translation);
        EXPECT_EQ(local[i].rotation, expected[i].rotation);
        EXPECT_EQ(local[i].scale, expected[i].scale);
    }
    EXPECT_EQ(cursors, cursors2);  // the per-instance context moved the same way
}

TEST(SamplingJob, InvalidInputIsRefusedAndNothingWritten) {
    Model m = rig::testing::makeChain(5, 10);
    std::vector<Transform> local(m.skeleton.size());
    for (Transform& t : local) t.translation = glm::vec3(9.0f);
    std::vector<uint32_t> cursors(3 * m.clips[0].tracks.size(), 0);
    SamplingJob job;
    job.clip = &m.clips[0];
    job.time = 0.1f;
    job.bindLocal = m.skeleton.bindLocalSqt;
    job.cursors = cursors;
    job.local = local;
    ASSERT_TRUE(job.validate());
    SamplingJob noClip = job;
    noClip.clip = nullptr;
    SamplingJob shortCursors = job;
    shortCursors.cursors = shortCursors.cursors.first(cursors.size() - 1);
    SamplingJob shortLocal = job;
    shortLocal.local = shortLocal.local.first(local.size() - 1);
    Clip badNode = m.clips[0];
    badNode.tracks[2].node = static_cast<int32_t>(m.skeleton.size());
    SamplingJob trackOutside = job;
    trackOutside.clip = &badNode;
    // With a plan: one built for another clip, one whose nodes pass the pose, too few cursors
    // for its runs.
    const SamplingPlan plan = buildSamplingPlan(m.clips[0]), badPlan = buildSamplingPlan(badNode);
    SamplingJob planned = job;
    planned.plan = &plan;
    ASSERT_TRUE(planned.validate());
    SamplingJob otherClipsPlan = planned;
    otherClipsPlan.plan = &badPlan;
    SamplingJob planOutside = planned;
    planOutside.clip = &badNode;
    planOutside.plan = &badPlan;
    SamplingJob planNoCursors = planned;
    planNoCursors.cursors = planNoCursors.cursors.first(plan.runs.size() - 1);
    for (const SamplingJob& b : {noClip, shortCursors, shortLocal, trackOutside, otherClipsPlan, planOutside, planNoCursors}) {
        EXPECT_FALSE(b.validate());
        EXPECT_FALSE(b.run());
    }
    for (const Transform& t : local) EXPECT_EQ(t.translation, glm::vec3(9.0f));
}

TEST(Animator, MeshesSharingASkinShareOnePalette) {
    Model m = rig::testing::makeChain(6, 20);
    Mesh copy = m.meshes[0];
    copy.name = "copy";
    m.meshes.push_back(copy);           // same node, joints and inverse binds: shared
    Mesh other = m.meshes[0];
    other.skin.inverseBind[1] = glm::translate(other.skin.inverseBind[1], glm::vec3(0.0f, 0.25f, 0.0f));
    m.meshes.push_back(other);          // different inverse binds: its own palette
    Animator a(m);
    EXPECT_EQ(a.paletteOffset(1), a.paletteOffset(0));
    EXPECT_NE(a.paletteOffset(2), a.paletteOffset(0));
    EXPECT_EQ(a.palette().size(), 2 * m.meshes[0].skin.paletteSize());
    a.evaluate(0, 0.4f);
    // Each mesh's palette is its own skin's: taken to model space (skinToModel), entry j is
    // model * inverseBind and the rigid slot is the mesh node's world matrix.
    for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
        const Skin& skin = m.meshes[mi].skin;
        const glm::mat4* pal = a.palette().data() + a.paletteOffset(mi);
        const glm::mat4& toModel = a.skinToModel(mi);
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            SCOPED_TRACE("mesh " + std::to_string(mi) + " joint " + std::to_string(j));
            expectNear(toModel * pal[j], a.world()[skin.joints[j]] * skin.inverseBind[j], 1e-4f);
        }
        expectNear(toModel * pal[skin.joints.size()], a.world()[m.meshes[mi].node], 1e-6f);
    }
}

TEST(Crowd, EachInstanceIsPosedLikeALoneAnimatorAtItsPhase) {
    const Model m = rig::testing::makeChain(12, 30);
    const Clip& clip = m.clips[0];
    const double length = clip.duration - clip.startTime;
    for (unsigned threads : {1u, 3u}) {
        Crowd crowd(m, 7, 0, threads);
        EXPECT_EQ(crowd.size(), 7u);
        EXPECT_EQ(crowd.threads(), threads);
        for (double t : {0.1, 0.55, 2.3}) {
            crowd.update(t);
            for (size_t i = 0; i < crowd.size(); ++i) {
                EXPECT_NEAR(crowd.phase(i), length * static_cast<double>(i) / 7.0, 1e-12);
                Animator lone(m);
                lone.evaluate(0, static_cast<float>(clip.startTime + std::fmod(crowd.phase(i) + t, length)));
                ASSERT_EQ(lone.paletteInUse(), crowd.paletteSize());
                for (size_t j = 0; j < lone.paletteInUse(); ++j) {
                    EXPECT_EQ(lone.palette()[j], crowd.paletteEntry(i, j)) << "instance " << i << " entry " << j;
                }
                for (size_t mesh = 0; mesh < m.meshes.size(); ++mesh) {
                    EXPECT_EQ(lone.skinToModel(mesh), crowd.skinToModel(i, mesh)) << "instance " << i << " mesh " << mesh;
                }
            }
        }
    }
}
