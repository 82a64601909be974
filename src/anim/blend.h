// Pose blending (seed 001, Game Engine Architecture ch. 11): local poses as plain arrays of
// SQT transforms, LERP/SLERP blends, partial-skeleton masks, additive blending with
// difference poses, ease curves, 1D and 2D blend spaces; and the offline clip tools that go
// with them (retargeting by joint name, trimming, resampling).
//
// Everything here is a function over caller-owned spans or a small immutable object built
// at configuration time: nothing allocates per call except the clip tools and the
// constructors, which are meant for load or edit time.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/clip.h"
#include "anim/skeleton.h"
#include "anim/transform.h"

namespace rig {

// A local pose: one Transform per skeleton node (node order), in each node's parent space.
using Pose = std::vector<Transform>;

// ---------------------------------------------------------------------------------------
// Poses

// Sample `clip` at clip time t into `out` (skeleton-sized): nodes the clip animates take
// their sampled values, every other node (and every absent channel) its bind value.
// `cursors` as for sampleClip (3 per track of this clip, per instance).
void samplePose(const Clip& clip, float t, const Skeleton& skeleton, uint32_t* cursors,
                std::span<Transform> out, RotationBlend blend = RotationBlend::Slerp);

// Per joint: translation and scale LERP, rotation shortest-path SLERP. w = 0 gives a, w = 1
// gives b (w is clamped to [0, 1]). All spans the same length; `out` may be `a` or `b`.
Transform blendTransforms(const Transform& a, const Transform& b, float w);
void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float w,
                std::span<Transform> out);
// The same with one weight per joint (times `scale`): partial-skeleton blending.
void blendPosesMasked(std::span<const Transform> a, std::span<const Transform> b,
                      std::span<const float> weights, std::span<Transform> out,
                      float scale = 1.0f);

// Additive blending. The difference D = S x R^-1, per joint and per component: rotation
// qS * inverse(qR), translation S.t - R.t, scale S.s / R.s (a zero reference scale gives 1).
// Adding D back with weight w: rotation slerp(identity, qD, w) * qBase, translation
// base.t + w * D.t, scale base.s * lerp(1, D.s, w). Adding difference(S, R) to R with w = 1
// gives S; adding difference(P, P) leaves any base unchanged. w is clamped to [0, 1] (the
// over-rotation pitfall of GEA 11.6.5 is the caller's to avoid with smaller weights).
Transform differenceTransform(const Transform& source, const Transform& reference);
Transform addTransform(const Transform& base, const Transform& difference, float w);
void makeDifference(std::span<const Transform> source, std::span<const Transform> reference,
                    std::span<Transform> out);
Pose makeDifference(const Pose& source, const Pose& reference);
void applyAdditive(std::span<const Transform> base, std::span<const Transform> difference,
                   float weight, std::span<Transform> out);
void applyAdditiveMasked(std::span<const Transform> base, std::span<const Transform> difference,
                         std::span<const float> weights, std::span<Transform> out,
                         float scale = 1.0f);

// ---------------------------------------------------------------------------------------
// Joint masks: a weight in [0, 1] per skeleton node.

struct JointMask {
    std::vector<float> weights;
};

JointMask uniformMask(const Skeleton& skeleton, float weight);
// `weight` on rootNode and every node below it, 0 elsewhere ("upper body" = the spine's
// subtree). An invalid rootNode gives an all-zero mask.
JointMask maskFromSubtree(const Skeleton& skeleton, int32_t rootNode, float weight = 1.0f);
// 1 - w per node ("lower body" = the inverse of the upper body).
JointMask invertMask(const JointMask& mask);
enum class MaskCombine : uint8_t { Max, Min, Multiply, Add };  // Add clamps at 1
// Node by node; the result has the longer mask's size (missing entries count as 0).
JointMask combineMasks(const JointMask& a, const JointMask& b, MaskCombine op);

// ---------------------------------------------------------------------------------------
// Ease curves: map a fade's linear progress x in [0, 1] to a blend weight, f(0) = 0,
// f(1) = 1 (x is clamped).

enum class EaseCurve : uint8_t {
    Linear,
    SmoothStep,  // 3x^2 - 2x^3
    CubicIn,     // x^3
    CubicOut,    // 1 - (1 - x)^3
    CubicInOut,  // 4x^3 below 0.5, mirrored above
    Bezier,      // CSS-style cubic Bezier through (0,0), p1, p2, (1,1)
};

struct Ease {
    EaseCurve curve = EaseCurve::Linear;
    glm::vec2 p1{0.42f, 0.0f}, p2{0.58f, 1.0f};  // Bezier control points (x in [0, 1])
    static Ease bezier(float x1, float y1, float x2, float y2) {
        return Ease{EaseCurve::Bezier, {x1, y1}, {x2, y2}};
    }
};

float applyEase(const Ease& ease, float x);
// y of the cubic Bezier (0,0) (x1,y1) (x2,y2) (1,1) at abscissa x (Newton, then bisection).
float cubicBezierEase(float x1, float y1, float x2, float y2, float x);

// ---------------------------------------------------------------------------------------
// Blend spaces: clips placed at points of a parameter line or plane; weights() gives one
// weight per point (in the order the points were given), summing to 1, without allocating.

class BlendSpace1D {
public:
    struct Point {
        int32_t clip = -1;
        float position = 0.0f;
    };
    BlendSpace1D() = default;
    explicit BlendSpace1D(std::vector<Point> points);
    // A two-clip blend: a at 0, b at 1; the parameter is b's weight.
    static BlendSpace1D twoClip(int32_t a, int32_t b) { return BlendSpace1D({{a, 0.0f}, {b, 1.0f}}); }

    const std::vector<Point>& points() const { return points_; }
    size_t size() const { return points_.size(); }
    // Linear between the two neighbouring points; clamped to the end points outside.
    // `out` must hold size() weights. Points at equal positions: the first one wins.
    void weights(float x, std::span<float> out) const;

private:
    std::vector<Point> points_;
    std::vector<uint32_t> order_;  // indices of points_ sorted by position
};

class BlendSpace2D {
public:
    struct Point {
        int32_t clip = -1;
        glm::vec2 position{0.0f};
    };
    BlendSpace2D() = default;
    // Triangulates the points (Delaunay, Bowyer-Watson). Points repeating an earlier
    // position never get weight. All points on one line: the space acts as a 1D space along
    // that line.
    explicit BlendSpace2D(std::vector<Point> points);

    const std::vector<Point>& points() const { return points_; }
    size_t size() const { return points_.size(); }
    const std::vector<std::array<uint32_t, 3>>& triangles() const { return triangles_; }
    // Barycentric weights of the triangle holding p. Outside the triangulation p is first
    // clamped to the nearest point of its boundary (the weights of that edge's two ends).
    void weights(glm::vec2 p, std::span<float> out) const;

private:
    std::vector<Point> points_;
    std::vector<std::array<uint32_t, 3>> triangles_;      // counter-clockwise
    std::vector<std::array<uint32_t, 2>> boundary_;       // edges used by one triangle only
    std::vector<uint32_t> lineOrder_;                     // collinear case: sorted along dir_
    glm::vec2 lineOrigin_{0.0f}, lineDir_{0.0f};
};

// ---------------------------------------------------------------------------------------
// Clip tools (load or edit time; they allocate).

// Node correspondence by name, built once: toNode[fromNode] is the node of `to` with the
// same name (the first one if `to` repeats it) or -1.
struct RetargetMap {
    std::vector<int32_t> toNode;
    std::vector<std::string> missingInTarget;  // `from` nodes with no namesake in `to`
    std::vector<std::string> missingInSource;  // `to` nodes with no namesake in `from`
};
RetargetMap buildRetargetMap(const Skeleton& from, const Skeleton& to);

// A copy of `clip` whose tracks drive the `to` skeleton's nodes. Rotation and scale keys are
// copied as they are (the skeletons share structure and joint axes); translation keys keep
// their offset from the source bind pose and are moved onto the target's bind translation
// (t' = t - fromBind.t + toBind.t), so the target keeps its own bone lengths. Tracks whose
// node has no namesake in `to` (or that map to a node already taken) are dropped and their
// node names appended to `skipped`; target nodes with no source track keep their bind pose.
Clip retargetClip(const Clip& clip, const RetargetMap& map, const Skeleton& fromSkeleton,
                  const Skeleton& toSkeleton, std::vector<std::string>* skipped);
Clip retargetClip(const Clip& clip, const Skeleton& fromSkeleton, const Skeleton& toSkeleton,
                  std::vector<std::string>* skipped);

// The part of `clip` between start and end (seconds on the clip's timeline, clamped to
// [0, duration]) as a NEW clip whose timeline starts at 0: a key at time `start` becomes a
// key at 0 and the result's duration is end - start (startTime 0). Each animated channel
// gets exact keys at both cut points (sampled) plus the original keys between them, so the
// trimmed clip at time u poses exactly as the original at start + u. Constant (one-key)
// channels stay constant. end <= start gives a one-pose clip (duration 0).
Clip trimClip(const Clip& clip, float start, float end);

// The clip with every animated channel re-keyed on a regular grid of `fps` keys per second
// from the clip's startTime, plus a key at its duration when the grid misses it. Keys keep
// the clip's timeline (startTime and duration unchanged); sampleRate becomes fps; channel
// interpolation modes are kept. Rotations are sampled with SLERP. fps <= 0: a plain copy.
Clip resampleClip(const Clip& clip, float fps);

}  // namespace rig
