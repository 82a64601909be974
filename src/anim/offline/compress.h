// Offline animation compression: key reduction with an error budget measured in model space,
// then quantization into a CompressedClip (anim/runtime/compressed_clip.h).
//
// Key reduction is hierarchical, as ozz-animation's optimizer and ACL do, not per channel in
// local space: a key of joint j may go when interpolating its neighbours moves no point that j
// carries by more than j's share of the tolerance. The points are j's descendants' origins, the
// vertices they (or j) skin, and a virtual point at `tipDistance` (ozz's and ACL's "skin
// distance"), all at their bind-pose distance from j; a local error turns into a model-space
// displacement through that distance (rotation: 2|q - q'| x distance, an upper bound of the
// chord; scale: relative change x distance; translation: the parent's scale). j's share is
// tolerance / sqrt(animated joints on the deepest chain through j). Each channel's values are
// quantized first, at the fewest bits (1..16; each component as few as its range allows at the
// widest one's precision) whose rounding stays within
// `quantizationShare` of that share, so what key reduction compares is the runtime's own
// (dequantized) interpolation against the original.
//
// The share is a guess: the result is then measured on the full pose (every joint and skinned
// vertex in model space, at every key time of the clip and halfway between); the shares are
// widened while it stays within the tolerance (up to 16x) and narrowed while it does not (down
// to 1/64x, then every key is kept), and then each keyed channel's step is made half a bit
// coarser at a time while the measured error stays within it (`refinePasses`). So the reported
// maximum is at most the tolerance at those sample times unless quantization alone exceeds it
// (`withinTolerance` says which). A channel that holds its bind value throughout (within its
// share) is left out of the compressed clip.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "anim/runtime/compressed_clip.h"
#include "anim/runtime/compressed_clip_set.h"
#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig {

struct CompressSettings {
    // Largest distance (model units) a joint or skinned vertex may move; 0: drop only keys whose
    // removal changes nothing after quantization (inside runs of equal quantized values).
    float tolerance = 1e-4f;
    // Part of each joint's share of the tolerance that quantization may use: each channel gets
    // the fewest bits (1..16, per component) whose rounding stays within it; key reduction has
    // the rest (and measures against the rounded keys, so it sees both). 0: the smallest result
    // of 0.55, 0.8 and 1.
    float quantizationShare = 0.0f;
    // The virtual point's distance from every joint (model units): ozz's default 10 cm.
    float tipDistance = 0.1f;
    // Measure the error at skinned vertices too (else joints only).
    bool measureVertices = true;
    // Vertex-samples (vertices x sample times) measured per pass; beyond it the sample times
    // used for the vertex error are spread evenly (joints are measured at every sample time).
    size_t maxVertexSamples = 40'000'000;
    // Rounds of measured refinement after the share search: each makes every keyed channel's
    // quantization step half a bit coarser (its codes as narrow as that step allows), widest
    // channel first, where the whole clip's measured error stays within the tolerance (one
    // compression and measurement per channel tried). 0: none.
    int refinePasses = 1;
    // Store a channel's keys as differences from the key before, in blocks of kDeltaBlock keys
    // each with its own bit widths (compressed_clip.h), where that takes fewer bits than plain
    // codes. The decoded values are the same either way.
    bool deltaCoding = true;
};

// Distance between the original and the compressed clip (model units), over the sample times:
// every distinct key time and the midpoint of each pair of neighbouring ones.
struct CompressionError {
    double maxJoint = 0.0, meanJoint = 0.0;    // every node's origin (joints, end sites, attachments)
    double maxVertex = 0.0, meanVertex = 0.0;  // every mesh's vertices (skinned, in model space)
    size_t samples = 0, vertexSamples = 0;     // sample times measured for joints / for vertices
    double max() const { return maxJoint > maxVertex ? maxJoint : maxVertex; }
};

struct CompressionResult {
    CompressedClip clip;
    size_t originalBytes = 0, compressedBytes = 0;
    size_t originalKeys = 0, keptKeys = 0;
    // ACL's baseline: every animated node sampled at every distinct key time as float rotation,
    // translation and scale (40 bytes per node per time).
    size_t rawBytes = 0;
    CompressionError error;
    bool withinTolerance = true;  // error.max() <= tolerance (always true for tolerance 0)
    int passes = 0;               // reductions run (1 when the first met the tolerance)
    double ratio() const { return compressedBytes ? double(originalBytes) / double(compressedBytes) : 0.0; }
    double rawRatio() const { return compressedBytes ? double(rawBytes) / double(compressedBytes) : 0.0; }
};

// Compress one clip of `model` (its tracks must bind to model's skeleton). Fails on a clip
// with more than 65536 distinct key times (the time table's 16-bit indices) or more than
// 2^32 / 50 keys (32-bit bit offsets). Morph tracks are
// not part of a CompressedClip.
Result<CompressionResult> compressClip(const Model& model, const Clip& clip, const CompressSettings& settings);

// Every clip of `model` compressed at `settings`, as the set instances play from
// (anim/runtime/compressed_clip_set.h): a clip that fails to compress (see compressClip) is
// left out of the set and plays plain. Progress: `cancel`, when given, is read between clips;
// set, the result is an error.
Result<CompressedClipSet> compressClips(const Model& model, const CompressSettings& settings,
                                        const std::atomic<bool>* cancel = nullptr);

// Bytes of a plain clip's node-track keys and headers (the same accounting as
// CompressedClip::byteSize: key times, values, track headers).
size_t clipByteSize(const Clip& clip);
size_t clipKeyCount(const Clip& clip);

// The error between `original` and `compressed` (both clips of `model`).
CompressionError measureCompressionError(const Model& model, const Clip& original, const CompressedClip& compressed,
                                         const CompressSettings& settings);

// Keys the reduction would drop at `tolerance` without quantization (`check`'s
// redundant-keys rule): `redundant` of `keys`, and channels keyed more than twice whose every
// key holds one value (within the tolerance).
struct RedundancyStats {
    size_t keys = 0, redundant = 0;
    size_t constantChannels = 0;
    std::string exampleChannel;  // a channel with most redundant keys ("node.rotation")
};
RedundancyStats findRedundantKeys(const Model& model, const Clip& clip, float tolerance, float tipDistance = 0.1f);

}  // namespace rig
