// Pose blending (seed 001, Game Engine Architecture ch. 11): local poses as plain arrays of
// SQT transforms, LERP/SLERP blends, partial-skeleton blends by joint mask, additive blending
// with difference poses. Joint masks, ease curves and blend spaces are the Controller's
// (anim/control/); the offline clip tools live in anim/offline/.
//
// Everything here is a function over caller-owned spans: nothing allocates per call except
// makeDifference(Pose, Pose), which is meant for load or edit time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anim/runtime/clip.h"
#include "anim/runtime/skeleton.h"
#include "anim/runtime/transform.h"

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

}  // namespace rig
