// ASF/AMC import on small files the tests write themselves: joint positions worked out by
// hand, the six Euler orders, units, errors with line numbers, CMU file naming.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "anim/runtime/pose.h"
#include "import/asf_amc/asf_amc.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::temp_directory_path() /
                ("rigview_asf_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        const std::string p = (path_ / name).string();
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

glm::vec3 worldPos(const Animator& a, const Model& m, const char* node) {
    const int32_t i = m.skeleton.find(node);
    EXPECT_GE(i, 0) << node;
    return i < 0 ? glm::vec3(NAN) : glm::vec3(a.world()[i][3]);
}

glm::vec3 bindPos(const Model& m, const char* node) {
    const int32_t i = m.skeleton.find(node);
    EXPECT_GE(i, 0) << node;
    return i < 0 ? glm::vec3(NAN) : glm::vec3(m.skeleton.bindModel[i][3]);
}

#define EXPECT_VEC3_NEAR(got, ex, ey, ez, tol)   \
    do {                                          \
        const glm::vec3 g_ = (got);               \
        EXPECT_NEAR(g_.x, (ex), (tol)) << #got;   \
        EXPECT_NEAR(g_.y, (ey), (tol)) << #got;   \
        EXPECT_NEAR(g_.z, (ez), (tol)) << #got;   \
    } while (0)

// Root plus two bones:
//   upper: direction +Y, length 2, axis 0 0 90 XYZ -> C_u = Rz(90) (its local x is world +Y),
//          dof rx ry rz
//   lower: direction +X, length 3, axis 90 0 0 XYZ -> C_l = Rx(90) (its local z is world -Y),
//          dof rz
const char* kAsf3 = R"(# hand-written test skeleton
:version 1.10
:name test
:units
  mass 1.0
  length 1.0
  angle deg
:documentation
   free text, skipped
   begin end dof rq (not parsed)
:root
   order TX TY TZ RX RY RZ
   axis XYZ
   position 0 0 0
   orientation 0 0 0
:bonedata
  begin
     id 1
     name upper
     direction 0 1 0
     length 2
     axis 0 0 90  XYZ
    dof rx ry rz
    limits (-180.0 180.0)
           (-180.0 180.0)
           (-inf inf)
  end
  begin
     id 2
     name lower
     direction 1 0 0
     length 3
     axis 90 0 0 XYZ
     dof rz
     limits (-180 180)
  end
:hierarchy
  begin
    root upper
    upper lower
  end
)";

// Frames, and the joint positions worked out by hand (column vectors; Rz(90): x->y, y->-x;
// Rx(90): y->z, z->-y; Ry(90): x->-z, z->x). A bone's world change is
// parent's change * C M C^-1; its end = its start + change * direction * length.
//
// 1: root at (1,2,3), nothing rotated. upper starts at (1,2,3); lower starts at the end of
//    upper, (1,2,3)+(0,2,0) = (1,4,3); lower ends at (1,4,3)+(3,0,0) = (4,4,3).
// 2: root rotates rz=90 (C_root = I: change Rz(90)); upper and lower are not listed and keep
//    frame 1's zeros. upper end = Rz(90)(0,2,0) = (-2,0,0); lower end = (-2,0,0) +
//    Rz(90)(3,0,0) = (-2,3,0).
// 3: upper rx=90: a turn about upper's local x = world +Y, change Ry(90); (0,2,0) lies on
//    that axis: upper end (0,2,0). lower rz=45: about its local z = world -Y, change Ry(-45);
//    lower's total change Ry(90)Ry(-45) = Ry(45): end = (0,2,0) + (3cos45, 0, -3sin45)
//    = (2.12132, 2, -2.12132).
// 4: upper rx=90 rz=90, M = Rz(90)Rx(90) (rx applied first). Change C M C^-1 on y:
//    C^-1 y = x, Rx x = x, Rz x = y, C y = -x: upper end = (-2,0,0). On x: C^-1 x = -y,
//    Rx(-y) = -z, Rz(-z) = -z, C(-z) = -z: with lower rz=0, lower end = (-2,0,0) + (0,0,-3)
//    = (-2,0,-3). (Were rz applied first: y -> x -> z, upper end (0,0,2).)
// 5: only the root listed: upper and lower keep frame 4's values, same positions.
const char* kAmc3 = R"(# motion
:FULLY-SPECIFIED
:DEGREES
1
root 1 2 3 0 0 0
upper 0 0 0
lower 0
2
root 0 0 0 0 0 90
3
root 0 0 0 0 0 0
upper 90 0 0
lower 45
4
upper 90 0 90
lower 0
5
root 0 0 0 0 0 0
)";

TEST(AsfAmc, ThreeBoneSkeletonJointPositionsByHand) {
    TempDir dir;
    const std::string asf = dir.write("07.asf", kAsf3);
    const std::string amc = dir.write("07_02.amc", kAmc3);
    Result<Model> r = importAsfAmc(asf, {amc}, 10.0f);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = *r;
    // Nodes at joints (bone starts) plus an end site at the leaf bone's end.
    ASSERT_EQ(m.skeleton.size(), 4u);
    EXPECT_EQ(m.skeleton.names, (std::vector<std::string>{"root", "upper", "lower", "lower_end"}));
    EXPECT_EQ(m.skeleton.parent, (std::vector<int32_t>{-1, 0, 1, 2}));
    EXPECT_TRUE(m.meshes.empty());
    // Bind pose: joints where the directions put them.
    EXPECT_VEC3_NEAR(bindPos(m, "root"), 0, 0, 0, 1e-6f);
    EXPECT_VEC3_NEAR(bindPos(m, "upper"), 0, 0, 0, 1e-6f);
    EXPECT_VEC3_NEAR(bindPos(m, "lower"), 0, 2, 0, 1e-6f);
    EXPECT_VEC3_NEAR(bindPos(m, "lower_end"), 3, 2, 0, 1e-6f);
    // Node frames are the bones' axis frames: upper's local x is world +Y (C_u = Rz(90)),
    // lower's local y is world +Z (C_l = Rx(90)).
    EXPECT_VEC3_NEAR(glm::vec3(m.skeleton.bindModel[1][0]), 0, 1, 0, 1e-6f);
    EXPECT_VEC3_NEAR(glm::vec3(m.skeleton.bindModel[2][1]), 0, 0, 1, 1e-6f);
    // Local translation of lower = parent's offset (0,2,0) in upper's frame: Rz(-90)(0,2,0) = (2,0,0).
    EXPECT_VEC3_NEAR(m.skeleton.bindLocalSqt[2].translation, 2, 0, 0, 1e-6f);

    ASSERT_EQ(m.clips.size(), 1u);
    const Clip& c = m.clips[0];
    EXPECT_EQ(c.name, "07_02");
    EXPECT_FLOAT_EQ(c.startTime, 0.0f);
    EXPECT_NEAR(c.duration, 0.4f, 1e-6f);
    EXPECT_FLOAT_EQ(c.sampleRate, 10.0f);
    ASSERT_EQ(c.tracks.size(), 3u);  // root (T+R), upper (R), lower (R); the end site has none
    EXPECT_EQ(c.trackOfNode, (std::vector<int32_t>{0, 1, 2, -1}));
    EXPECT_EQ(c.tracks[0].translation.count, 5u);
    EXPECT_EQ(c.tracks[0].rotation.count, 5u);
    EXPECT_EQ(c.tracks[1].translation.count, 0u);
    EXPECT_EQ(c.tracks[2].rotation.count, 5u);
    EXPECT_EQ(c.times.size(), 5u);  // one shared run of key times

    struct Want { float x, y, z; };
    const Want root[5] = {{1, 2, 3}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const Want lower[5] = {{1, 4, 3}, {-2, 0, 0}, {0, 2, 0}, {-2, 0, 0}, {-2, 0, 0}};
    const float h = 2.1213203f;  // 3 / sqrt(2)
    const Want end[5] = {{4, 4, 3}, {-2, 3, 0}, {h, 2, -h}, {-2, 0, -3}, {-2, 0, -3}};
    Animator a(m);
    for (int f = 0; f < 5; ++f) {
        SCOPED_TRACE("frame " + std::to_string(f + 1));
        a.evaluate(0, static_cast<float>(f / 10.0));
        EXPECT_VEC3_NEAR(worldPos(a, m, "root"), root[f].x, root[f].y, root[f].z, 1e-5f);
        EXPECT_VEC3_NEAR(worldPos(a, m, "upper"), root[f].x, root[f].y, root[f].z, 1e-5f);
        EXPECT_VEC3_NEAR(worldPos(a, m, "lower"), lower[f].x, lower[f].y, lower[f].z, 1e-5f);
        EXPECT_VEC3_NEAR(worldPos(a, m, "lower_end"), end[f].x, end[f].y, end[f].z, 1e-5f);
    }
}

// The six Euler orders with 90 degrees about each axis, the first named axis applied first
// (fixed axes). Rx(90): y->z, z->-y; Ry(90): z->x, x->-z; Rz(90): x->y, y->-x.
//   XYZ: x -> x -> -z -> -z      y -> z -> x -> y        z -> -y -> -y -> x
//   XZY: x -> x -> y -> y        y -> z -> z -> x        z -> -y -> x -> -z
//   YXZ: x -> -z -> y -> -x      y -> y -> z -> z        z -> x -> x -> y
//   YZX: x -> -z -> -z -> y      y -> y -> -x -> -x      z -> x -> y -> z
//   ZXY: x -> y -> z -> x        y -> -x -> -x -> z      z -> z -> -y -> -y
//   ZYX: x -> y -> y -> z        y -> -x -> z -> -y      z -> z -> x -> x
struct OrderCase {
    const char* name;
    EulerOrder order;
    glm::vec3 x, y, z;  // images of the axes
};
const OrderCase kOrders[] = {
    {"XYZ", EulerOrder::XYZ, {0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
    {"XZY", EulerOrder::XZY, {0, 1, 0}, {1, 0, 0}, {0, 0, -1}},
    {"YXZ", EulerOrder::YXZ, {-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
    {"YZX", EulerOrder::YZX, {0, 1, 0}, {-1, 0, 0}, {0, 0, 1}},
    {"ZXY", EulerOrder::ZXY, {1, 0, 0}, {0, 0, 1}, {0, -1, 0}},
    {"ZYX", EulerOrder::ZYX, {0, 0, 1}, {0, -1, 0}, {1, 0, 0}},
};

TEST(AsfAmc, SixEulerOrders) {
    const double r = glm::radians(90.0);
    for (const OrderCase& oc : kOrders) {
        SCOPED_TRACE(oc.name);
        EulerOrder parsed;
        ASSERT_TRUE(parseEulerOrder(oc.name, parsed));
        EXPECT_EQ(parsed, oc.order);
        const glm::dquat q = eulerRotation(glm::dvec3(r), oc.order);
        EXPECT_VEC3_NEAR(glm::vec3(q * glm::dvec3(1, 0, 0)), oc.x.x, oc.x.y, oc.x.z, 1e-9f);
        EXPECT_VEC3_NEAR(glm::vec3(q * glm::dvec3(0, 1, 0)), oc.y.x, oc.y.y, oc.y.z, 1e-9f);
        EXPECT_VEC3_NEAR(glm::vec3(q * glm::dvec3(0, 0, 1)), oc.z.x, oc.z.y, oc.z.z, 1e-9f);
    }
    EulerOrder dummy;
    EXPECT_TRUE(parseEulerOrder("zyx", dummy));
    EXPECT_FALSE(parseEulerOrder("XXY", dummy));
    EXPECT_FALSE(parseEulerOrder("XY", dummy));
}

// The same through a file: `axis 90 90 90 <order>` is the bone's bind world rotation.
TEST(AsfAmc, AxisOrderInTheFileGivesTheBindFrame) {
    TempDir dir;
    for (const OrderCase& oc : kOrders) {
        SCOPED_TRACE(oc.name);
        const std::string text = std::string(":root\n order TX TY TZ RX RY RZ\n axis XYZ\n position 0 0 0\n orientation 0 0 0\n"
                                             ":bonedata\n begin\n id 1\n name b\n direction 0 1 0\n length 1\n axis 90 90 90 ") +
                                 oc.name + "\n end\n:hierarchy\n begin\n root b\n end\n";
        Result<Model> r = importAsf(dir.write(std::string(oc.name) + ".asf", text));
        ASSERT_TRUE(r.ok()) << r.error().message;
        const glm::mat4& w = r->skeleton.bindModel[1];
        EXPECT_VEC3_NEAR(glm::vec3(w[0]), oc.x.x, oc.x.y, oc.x.z, 1e-6f);
        EXPECT_VEC3_NEAR(glm::vec3(w[1]), oc.y.x, oc.y.y, oc.y.z, 1e-6f);
        EXPECT_VEC3_NEAR(glm::vec3(w[2]), oc.z.x, oc.z.y, oc.z.z, 1e-6f);
        // The bone's direction is global: its end is at (0,1,0) whatever its axis.
        EXPECT_VEC3_NEAR(bindPos(*r, "b_end"), 0, 1, 0, 1e-6f);
    }
}

// `dof` order is composition order: the first listed rotation is applied first. A bone with
// C = I, direction +Y, rx = 90 and rz = 90:
//   dof rx ry rz: M = Rz Rx: y -> z -> z, end at (0,0,1)
//   dof rz ry rx: M = Rx Rz: y -> -x -> -x, end at (-1,0,0)
TEST(AsfAmc, DofOrderIsCompositionOrder) {
    TempDir dir;
    for (const bool xFirst : {true, false}) {
        const std::string asf = dir.write(xFirst ? "x.asf" : "z.asf",
                                          std::string(":root\n order TX TY TZ\n:bonedata\n begin\n name b\n direction 0 1 0\n"
                                                      " length 1\n axis 0 0 0 XYZ\n dof ") +
                                              (xFirst ? "rx ry rz" : "rz ry rx") + "\n end\n:hierarchy\n begin\n root b\n end\n");
        const std::string amc = dir.write(xFirst ? "x_1.amc" : "z_1.amc", "1\nroot 0 0 0\nb 90 0 90\n");
        Result<Model> r = importAsfAmc(asf, {amc});
        ASSERT_TRUE(r.ok()) << r.error().message;
        Animator a(*r);
        a.evaluate(0, 0.0f);
        if (xFirst) {
            EXPECT_VEC3_NEAR(worldPos(a, *r, "b_end"), 0, 0, 1, 1e-6f);
        } else {
            EXPECT_VEC3_NEAR(worldPos(a, *r, "b_end"), -1, 0, 0, 1e-6f);
        }
    }
}

// `angle rad` and `length 0.5`: every length and translation is halved, root position
// included; angles are read as radians, in the ASF and in the AMC.
//   root position (2,0,0) -> bind (1,0,0); bone b: direction +Y, length 4 -> offset (0,2,0),
//   axis 0 0 pi/2 -> C = Rz(90), dof rx.
//   AMC frame 1: root 2 0 0 -> (2+2, 0, 0) * 0.5 = (2,0,0); b rx = pi/2: a turn of 90 degrees
//   about world +Y (C x); b's direction lies on the axis: end (2,2,0).
//   Frame 2: root 0 0 0 -> (1,0,0); b rx = pi: still on the axis, end (1,2,0).
TEST(AsfAmc, RadiansAndLengthMultiplier) {
    TempDir dir;
    const std::string asf = dir.write("r.asf", R"(:units
  mass 2.0
  length 0.5
  angle rad
:root
  order TX TY TZ
  axis XYZ
  position 2 0 0
  orientation 0 0 0
:bonedata
  begin
    name b
    direction 0 1 0
    length 4
    axis 0 0 1.5707963267948966 XYZ
    dof rx
    limits (-3.2 3.2)
  end
  begin
    name c
    direction 0 0 1
    length 2
    axis 0 0 0 XYZ
  end
:hierarchy
  begin
    root b
    b c
  end
)");
    // c: direction +Z, length 2 -> offset (0,0,1) from b's end; after b's turn about +Y by
    // 90 degrees, +Z goes to +X: c ends at (2,2,0) + (1,0,0) = (3,2,0) in frame 1; after pi,
    // +Z goes to -Z: (1,2,0) + (0,0,-1) = (1,2,-1) in frame 2.
    const std::string amc = dir.write("r_1.amc", "1\nroot 2 0 0\nb 1.5707963267948966\n2\nroot 0 0 0\nb 3.141592653589793\n");
    Result<Model> r = importAsfAmc(asf, {amc}, 1.0f);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_VEC3_NEAR(bindPos(*r, "root"), 1, 0, 0, 1e-6f);
    EXPECT_VEC3_NEAR(bindPos(*r, "c"), 1, 2, 0, 1e-6f);
    EXPECT_VEC3_NEAR(bindPos(*r, "c_end"), 1, 2, 1, 1e-6f);
    Animator a(*r);
    a.evaluate(0, 0.0f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "root"), 2, 0, 0, 1e-6f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "c"), 2, 2, 0, 1e-6f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "c_end"), 3, 2, 0, 1e-6f);
    a.evaluate(0, 1.0f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "root"), 1, 0, 0, 1e-6f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "c_end"), 1, 2, -1, 1e-5f);

    // An AMC's own :DEGREES line overrides the skeleton's radians.
    const std::string deg = dir.write("r_2.amc", ":DEGREES\n1\nroot 2 0 0\nb 90\n");
    Result<Model> d = importAsfAmc(asf, {deg}, 1.0f);
    ASSERT_TRUE(d.ok()) << d.error().message;
    Animator ad(*d);
    ad.evaluate(0, 0.0f);
    EXPECT_VEC3_NEAR(worldPos(ad, *d, "c_end"), 3, 2, 0, 1e-5f);
}

// Translation dofs of a bone are in its axis frame; `l` stretches it along its direction.
//   b: direction +X, length 1, axis 0 0 90 (C = Rz(90): local x = world +Y), dof tx l.
//   Frame 1: tx = 2 -> b's start moves by C(2,0,0) = (0,2,0); l = 3 -> b's length 1+3 = 4:
//   b_end = (0,2,0) + (4,0,0) = (4,2,0).
TEST(AsfAmc, TranslationAndLengthDofs) {
    TempDir dir;
    const std::string asf = dir.write("t.asf", ":root\n order TX TY TZ\n:bonedata\n begin\n name b\n direction 1 0 0\n"
                                               " length 1\n axis 0 0 90 XYZ\n dof tx l\n end\n:hierarchy\n begin\n root b\n end\n");
    const std::string amc = dir.write("t_1.amc", "1\nroot 0 0 0\nb 2 3\n");
    Result<Model> r = importAsfAmc(asf, {amc});
    ASSERT_TRUE(r.ok()) << r.error().message;
    Animator a(*r);
    a.evaluate(0, 0.0f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "b"), 0, 2, 0, 1e-6f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "b_end"), 4, 2, 0, 1e-6f);
}

// A full turn in 10 degree steps: neighbouring quaternions never flip sign, and each key is
// the rotation it should be.
TEST(AsfAmc, RotationKeysKeepSignContinuity) {
    TempDir dir;
    const std::string asf = dir.write("s.asf", ":root\n order RX\n axis XYZ\n");
    std::string text;
    for (int f = 0; f <= 72; ++f) text += std::to_string(f + 1) + "\nroot " + std::to_string(f * 10) + "\n";
    const std::string amc = dir.write("s_1.amc", text);
    Result<Model> r = importAsfAmc(asf, {amc});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Clip& c = r->clips[0];
    ASSERT_EQ(c.tracks.size(), 1u);
    ASSERT_EQ(c.tracks[0].rotation.count, 73u);
    for (uint32_t k = 0; k < 73; ++k) {
        const glm::quat q = c.quatKeys[c.tracks[0].rotation.values + k];
        const float half = glm::radians(5.0f * static_cast<float>(k));
        EXPECT_NEAR(std::fabs(q.w), std::fabs(std::cos(half)), 1e-5f);
        EXPECT_NEAR(std::fabs(q.x), std::fabs(std::sin(half)), 1e-5f);
        if (k > 0) {
            EXPECT_GE(glm::dot(q, c.quatKeys[c.tracks[0].rotation.values + k - 1]), 0.0f) << k;
        }
    }
    EXPECT_NEAR(c.duration, 72.0f / 120.0f, 1e-6f);
}

// The root's position, orientation and rotation: orientation 0 0 90 XYZ (C = Rz(90)) is the
// root node's bind rotation; the AMC's root translation adds to the position in the global
// frame; the AMC's root rotation ry = 90 turns about C's local y = world -X.
//   child b: direction +Y, length 1. Bind: b_end at position + (0,1,0) = (1,1,0).
//   Frame 1: root 1 0 0 0 90 0 -> root at (2,0,0); change = rotation by 90 about -X:
//   y -> -z, so b_end = (2,0,-1).
TEST(AsfAmc, RootPositionOrientationAndMotion) {
    TempDir dir;
    const std::string asf = dir.write("o.asf", ":root\n order TX TY TZ RX RY RZ\n axis XYZ\n position 1 0 0\n"
                                               " orientation 0 0 90\n:bonedata\n begin\n name b\n direction 0 1 0\n length 1\n"
                                               " axis 0 0 0 XYZ\n end\n:hierarchy\n begin\n root b\n end\n");
    const std::string amc = dir.write("o_1.amc", "1\nroot 1 0 0 0 90 0\n");
    Result<Model> r = importAsfAmc(asf, {amc});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_VEC3_NEAR(bindPos(*r, "b_end"), 1, 1, 0, 1e-6f);
    EXPECT_VEC3_NEAR(glm::vec3(r->skeleton.bindModel[0][0]), 0, 1, 0, 1e-6f);  // root x -> world +Y
    EXPECT_VEC3_NEAR(glm::vec3(r->skeleton.bindModel[1][0]), 1, 0, 0, 1e-6f);  // b's axis is global
    Animator a(*r);
    a.evaluate(0, 0.0f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "root"), 2, 0, 0, 1e-6f);
    EXPECT_VEC3_NEAR(worldPos(a, *r, "b_end"), 2, 0, -1, 1e-6f);
}

struct BadCase {
    const char* what;
    std::string text;
    int line;               // 0: the message names no line
    const char* contains;
};

void expectError(const std::string& path, const Error& e, int line, const char* contains) {
    const std::string prefix = line ? path + ":" + std::to_string(line) + ": " : path + ": ";
    EXPECT_EQ(e.message.rfind(prefix, 0), 0u) << e.message << "\n  wanted prefix " << prefix;
    EXPECT_NE(e.message.find(contains), std::string::npos) << e.message << "\n  wanted " << contains;
    EXPECT_EQ(e.message.find('\n'), std::string::npos) << e.message;
}

const std::string kRootOnly = ":root\n order TX TY TZ RX RY RZ\n axis XYZ\n position 0 0 0\n orientation 0 0 0\n";

TEST(AsfAmc, MalformedAsfGivesLineNumbers) {
    const std::string bone = ":bonedata\n begin\n name a\n direction 0 1 0\n length 1\n axis 0 0 0 XYZ\n";  // lines 6-11
    const std::vector<BadCase> cases = {
        {"unknown dof", kRootOnly + bone + " dof rx rq\n end\n", 12, "bonedata: 'dof' names an unknown channel 'rq'"},
        {"dof twice", kRootOnly + bone + " dof rx rx\n end\n", 12, "'dof' names 'rx' twice"},
        {"limits count", kRootOnly + bone + " dof rx ry\n limits (-1 1)\n end\n", 13, "has 2 dofs but 1 limits"},
        {"limits garbage", kRootOnly + bone + " dof rx\n limits (-1 x)\n end\n", 13, "limit 'x' is not a number"},
        {"limits unclosed", kRootOnly + bone + " dof rx\n limits (-1 1\n end\n", 13, "not closed"},
        {"missing end", kRootOnly + bone, 11, "the bone begun at line 7 has no 'end'"},
        {"begin in bone", kRootOnly + bone + " begin\n", 12, "missing 'end'"},
        {"nan length", kRootOnly + ":bonedata\n begin\n name a\n length nan\n end\n", 9, "'nan' is not a finite number"},
        {"huge number", kRootOnly + ":bonedata\n begin\n name a\n direction 1e999 0 0\n end\n", 9, "is out of range"},
        {"large number", kRootOnly + ":bonedata\n begin\n name a\n direction 1e10 0 0\n end\n", 9, "is out of range"},
        {"short direction", kRootOnly + ":bonedata\n begin\n name a\n direction 1 0\n end\n", 9, "'direction' needs 3 numbers"},
        {"bad axis order", kRootOnly + ":bonedata\n begin\n name a\n axis 0 0 0 XYQ\n end\n", 9, "is not an Euler order"},
        {"no name", kRootOnly + ":bonedata\n begin\n length 1\n end\n", 9, "has no 'name'"},
        {"numeric name", kRootOnly + ":bonedata\n begin\n name 12\n end\n", 8, "is a number"},
        {"unknown keyword", kRootOnly + ":bonedata\n begin\n name a\n colour red\n end\n", 9, "unknown keyword 'colour'"},
        {"duplicate bone", kRootOnly + ":bonedata\n begin\n name a\n end\n begin\n name a\n end\n", 10, "bone 'a' is defined twice (first at line 7)"},
        {"unknown in hierarchy", kRootOnly + ":hierarchy\n begin\n root ghost\n end\n", 8, "hierarchy: unknown bone 'ghost'"},
        {"listed twice", kRootOnly + ":bonedata\n begin\n name a\n end\n begin\n name b\n end\n:hierarchy\n begin\n root a b\n a b\n end\n",
         16, "bone 'b' is listed twice (first at line 15)"},
        {"root as child", kRootOnly + ":bonedata\n begin\n name a\n end\n:hierarchy\n begin\n a root\n end\n", 12, "'root' cannot be a child"},
        {"cycle", kRootOnly + ":bonedata\n begin\n name a\n end\n begin\n name b\n end\n:hierarchy\n begin\n a b\n b a\n end\n",
         16, "cycle through bone 'a'"},
        {"detached", kRootOnly + ":bonedata\n begin\n name a\n end\n begin\n name b\n end\n:hierarchy\n begin\n a b\n end\n",
         15, "hierarchy: bone 'a' is not connected to the root (no line names it as a child)"},
        {"not in hierarchy", kRootOnly + ":bonedata\n begin\n name a\n end\n", 7, "bone 'a' is missing from :hierarchy"},
        {"hierarchy no end", kRootOnly + ":hierarchy\n begin\n root\n", 8, "the hierarchy has no 'end'"},
        {"hierarchy no begin", kRootOnly + ":hierarchy\n root a\n", 7, "expected 'begin'"},
        {"unknown root key", ":root\n order TX\n axes XYZ\n", 3, "root: unknown keyword 'axes'"},
        {"root order L", ":root\n order TX L\n", 2, "'order' names an unknown channel 'L'"},
        {"bad angle unit", ":units\n angle grad\n", 2, "angle must be 'deg' or 'rad'"},
        {"zero multiplier", ":units\n length 0\n", 2, "must be positive"},
        {"two roots", kRootOnly + ":root\n", 6, "a second :root section"},
        {"text before sections", "hello\n:root\n", 1, "expected a section"},
        {"garbage", std::string("\x7f\x45\x4c\x46\x02\x01\x01\0\0\x03\x10\xff\xfe", 13), 1, "expected a section"},
        {"empty", "", 0, "no :root section"},
        {"comments only", "# nothing\n\n   # more\n", 0, "no :root section"},
    };
    for (const BadCase& bc : cases) {
        SCOPED_TRACE(bc.what);
        Result<AsfSkeleton> r = parseAsf(bc.text, "dir/bad.asf");
        ASSERT_FALSE(r.ok());
        expectError("dir/bad.asf", r.error(), bc.line, bc.contains);
    }
}

TEST(AsfAmc, MalformedAmcGivesLineNumbers) {
    Result<AsfSkeleton> asf = parseAsf(kAsf3, "t.asf");
    ASSERT_TRUE(asf.ok()) << asf.error().message;
    const std::vector<BadCase> cases = {
        {"unknown bone", ":DEGREES\n1\nroot 0 0 0 0 0 0\nelbow 1 2 3\n", 4, "frame 1: unknown bone 'elbow'"},
        {"too few values", "1\nroot 0 0 0 0 0 0\n2\nupper 1 2\n", 4, "frame 2: bone 'upper' needs 3 values, found 2"},
        {"too many values", "1\nlower 1 2\n", 2, "bone 'lower' needs 1 values, found 2"},
        {"not a number", "1\nupper 1 two 3\n", 2, "value 'two' is not a number"},
        {"nan", "1\nupper 1 nan 3\n", 2, "value 'nan' is not a finite number"},
        {"huge", "1\nupper 1 1e400 3\n", 2, "is out of range"},
        {"out of order", "1\n2\n3\n2\n", 4, "frame 2 follows frame 3"},
        {"repeated frame", "1\n1\n", 2, "frame 1 follows frame 1"},
        {"twice in a frame", "1\nlower 1\nlower 2\n", 3, "bone 'lower' appears twice"},
        {"before first frame", ":FULLY-SPECIFIED\nroot 0 0 0 0 0 0\n", 2, "bone data before the first frame number"},
        {"garbage line", "1\nlower 1\n\x01\x02\xff\n", 3, "unknown bone"},
        {"frame number with more", "1 2\n", 1, "unexpected '2' after frame number 1"},
        {"frame number overflow", "99999999999999999999999\n", 1, "is out of range"},
        {"late :DEGREES", "1\n:RADIANS\n", 2, "must come before the first frame"},
        {"empty", "", 0, "no frames"},
        {"header only", ":FULLY-SPECIFIED\n:DEGREES\n# nothing\n", 0, "no frames"},
    };
    for (const BadCase& bc : cases) {
        SCOPED_TRACE(bc.what);
        Result<Clip> r = parseAmc(bc.text, *asf, "dir/bad.amc");
        ASSERT_FALSE(r.ok());
        expectError("dir/bad.amc", r.error(), bc.line, bc.contains);
    }
    EXPECT_FALSE(parseAmc("1\n", *asf, "x.amc", 0.0f).ok());
    EXPECT_FALSE(parseAmc("1\n", *asf, "x.amc", NAN).ok());
}

// Every prefix of a valid pair, and every single-byte change to a few values, either parses
// or fails with a one-line message: never a crash (the fuzz target goes further).
TEST(AsfAmc, TruncatedAndCorruptedInputsNeverCrash) {
    const std::string asfText = kAsf3, amcText = kAmc3;
    Result<AsfSkeleton> full = parseAsf(asfText, "t.asf");
    ASSERT_TRUE(full.ok());
    for (size_t n = 0; n <= asfText.size(); ++n) {
        Result<AsfSkeleton> r = parseAsf(asfText.substr(0, n), "t.asf");
        if (!r) {
            EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
        }
    }
    for (size_t n = 0; n <= amcText.size(); ++n) {
        Result<Clip> r = parseAmc(amcText.substr(0, n), *full, "t.amc");
        if (!r) {
            EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
        }
    }
    const char bytes[] = {'\0', '\n', ' ', '(', ')', ':', '#', '9', '-', '.', 'e', '\xff'};
    for (size_t i = 0; i < asfText.size(); i += 3) {
        for (char b : bytes) {
            std::string t = asfText;
            t[i] = b;
            Result<AsfSkeleton> r = parseAsf(t, "t.asf");
            if (r) (void)parseAmc(amcText, *r, "t.amc");
        }
    }
}

// Counts that would make absurd allocations are refused with a message, not attempted.
TEST(AsfAmc, AbsurdCountsAreRefused) {
    // More bones than kMaxAsfBones.
    std::string many = kRootOnly + ":bonedata\n";
    for (size_t b = 0; b <= kMaxAsfBones; ++b) many += "begin\nname b" + std::to_string(b) + "\nend\n";
    Result<AsfSkeleton> tooMany = parseAsf(many, "many.asf");
    ASSERT_FALSE(tooMany.ok());
    EXPECT_NE(tooMany.error().message.find("more than 10000 bones"), std::string::npos) << tooMany.error().message;

    // 1000 bones with 3 dofs, and an AMC of bare frame numbers: every frame carries 3000
    // values over. 3000 frames of ~5 bytes would be ~15M values from 15 KB: refused.
    std::string asf = kRootOnly + ":bonedata\n";
    std::string hierarchy = ":hierarchy\n begin\n root";
    for (int b = 0; b < 1000; ++b) {
        asf += "begin\nname b" + std::to_string(b) + "\ndof rx ry rz\nend\n";
        hierarchy += " b" + std::to_string(b);
    }
    Result<AsfSkeleton> s = parseAsf(asf + hierarchy + "\n end\n", "wide.asf");
    ASSERT_TRUE(s.ok()) << s.error().message;
    std::string amc;
    for (int f = 1; f <= 3000; ++f) amc += std::to_string(f) + "\n";
    Result<Clip> c = parseAmc(amc, *s, "wide.amc");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("too many frames for this skeleton and file size"), std::string::npos) << c.error().message;
    // The same frames with every bone listed are a real (if large) motion: accepted.
    std::string full;
    for (int f = 1; f <= 100; ++f) {
        full += std::to_string(f) + "\n";
        for (int b = 0; b < 1000; ++b) full += "b" + std::to_string(b) + " 1 2 3\n";
    }
    Result<Clip> ok = parseAmc(full, *s, "wide.amc");
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_EQ(ok->tracks.size(), 1000u);
}

TEST(AsfAmc, FindAsfForAmc) {
    TempDir dir;
    dir.write("01.asf", kAsf3);
    dir.write("walk.asf", kAsf3);
    EXPECT_EQ(findAsfForAmc(dir.file("01_01.amc")), dir.file("01.asf"));
    EXPECT_EQ(findAsfForAmc(dir.file("01_14.amc")), dir.file("01.asf"));
    EXPECT_EQ(findAsfForAmc(dir.file("walk.amc")), dir.file("walk.asf"));
    EXPECT_EQ(findAsfForAmc(dir.file("02_01.amc")), "");
    EXPECT_EQ(findAsfForAmc(dir.file("nope.amc")), "");
    EXPECT_EQ(findAsfForAmc(""), "");
}

TEST(AsfAmc, ImportAsfThenAmc) {
    TempDir dir;
    const std::string asf = dir.write("01.asf", kAsf3);
    const std::string amc1 = dir.write("01_01.amc", kAmc3);
    const std::string amc2 = dir.write("01_02.amc", "1\nlower 10\n2\nlower 20\n");
    Result<Model> m = importAsf(asf);
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ(m->path, asf);
    EXPECT_TRUE(m->clips.empty());
    EXPECT_TRUE(m->meshes.empty());
    EXPECT_EQ(m->skeleton.size(), 4u);
    Result<Clip> c = importAmc(amc1, *m);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->name, "01_01");
    EXPECT_NEAR(c->duration, 4.0f / 120.0f, 1e-7f);  // 5 frames at the default 120 fps
    EXPECT_FLOAT_EQ(c->sampleRate, 120.0f);
    // Only the bone listed gets a track.
    Result<Clip> c2 = importAmc(amc2, *m, 60.0f);
    ASSERT_TRUE(c2.ok()) << c2.error().message;
    ASSERT_EQ(c2->tracks.size(), 1u);
    EXPECT_EQ(c2->tracks[0].node, m->skeleton.find("lower"));
    EXPECT_NEAR(c2->duration, 1.0f / 60.0f, 1e-7f);

    Result<Model> both = importAsfAmc(asf, {amc1, amc2});
    ASSERT_TRUE(both.ok()) << both.error().message;
    ASSERT_EQ(both->clips.size(), 2u);
    EXPECT_EQ(both->clips[1].name, "01_02");
    EXPECT_EQ(both->findClip("01_01"), 0);

    // Errors name the file.
    Result<Clip> missing = importAmc(dir.file("none.amc"), *m);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("none.amc: no such file"), std::string::npos) << missing.error().message;
    EXPECT_FALSE(importAsf(dir.file("none.asf")).ok());
    Result<Model> badAmc = importAsfAmc(asf, {amc1, dir.write("01_03.amc", "1\nknee 0\n")});
    ASSERT_FALSE(badAmc.ok());
    EXPECT_NE(badAmc.error().message.find("01_03.amc:2: frame 1: unknown bone 'knee'"), std::string::npos) << badAmc.error().message;
    // A Model that did not come from an ASF file, and one whose file has changed since.
    EXPECT_FALSE(importAmc(amc1, Model{}).ok());
    std::string changed = kAsf3;
    changed.replace(changed.find("length 3"), 8, "length 4");
    dir.write("01.asf", changed);
    Result<Clip> stale = importAmc(amc1, *m);
    ASSERT_FALSE(stale.ok());
    EXPECT_NE(stale.error().message.find("no longer matches"), std::string::npos) << stale.error().message;
}

// A CMU-sized skeleton (30 bones, 3 dofs each) and 6000 frames: parsed fast, keys dense.
TEST(AsfAmc, LargeMotionIsFast) {
    std::string asf = kRootOnly + ":bonedata\n";
    std::string hierarchy = ":hierarchy\n begin\n root b0\n";
    for (int b = 0; b < 30; ++b) {
        asf += " begin\n id " + std::to_string(b + 1) + "\n name b" + std::to_string(b) +
               "\n direction 0 1 0\n length 1\n axis 0 0 " + std::to_string(b * 7) + " XYZ\n dof rx ry rz\n"
               " limits (-160.0 20.0)\n (-70.0 70.0)\n (-60.0 70.0)\n end\n";
        if (b > 0) hierarchy += " b" + std::to_string(b - 1) + " b" + std::to_string(b) + "\n";
    }
    asf += hierarchy + " end\n";
    Result<AsfSkeleton> s = parseAsf(asf, "big.asf");
    ASSERT_TRUE(s.ok()) << s.error().message;
    std::string amc = ":FULLY-SPECIFIED\n:DEGREES\n";
    for (int f = 1; f <= 6000; ++f) {
        amc += std::to_string(f) + "\nroot 9.37216 17.8693 -17.3198 -2.01677 -7.59696 -3.23164\n";
        for (int b = 0; b < 30; ++b) amc += "b" + std::to_string(b) + " 2.30193 -0.395121 " + std::to_string(f % 360) + "\n";
    }
    const auto t0 = std::chrono::steady_clock::now();
    Result<Clip> c = parseAmc(amc, *s, "big.amc");
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->tracks.size(), 31u);
    EXPECT_EQ(c->quatKeys.size(), 31u * 6000u);
    EXPECT_EQ(c->vec3Keys.size(), 6000u);
    EXPECT_EQ(c->times.size(), 6000u);
    std::printf("[ info ] %.1f MB of AMC parsed in %.1f ms\n", amc.size() / 1e6, ms);
}

}  // namespace
}  // namespace rig
