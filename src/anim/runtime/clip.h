// Clip: one animation ("walk", "run"), shared and immutable after import. Per animated node
// a Track of up to three channels (translation, rotation, scale); keys are in seconds on the
// file's own timeline (nothing is shifted to the first key).
#pragma once

#include <cstddef>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/transform.h"

namespace rig {

enum class Interpolation : uint8_t { Linear, Step };
enum class RotationBlend : uint8_t { Slerp, Nlerp };

// A run of keys inside the clip's key arrays. count == 0: the channel is absent and the
// node keeps its bind value for that component. Channels of a track whose key times are
// equal share one run of times (same `times` index), so one key search serves them all.
struct Channel {
    uint32_t times = 0;   // index of the first key time in Clip::times
    uint32_t values = 0;  // index of the first value in Clip::vec3Keys or Clip::quatKeys
    uint32_t count = 0;
    Interpolation interpolation = Interpolation::Linear;
};

// A rotation key is not a unit quaternion when its length is off 1 by more than this: the
// Khronos glTF validator's bound (ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION
// and ROTATION_NON_UNIT), used for every format.
inline constexpr double kUnitRotationTolerance = 0.00769;
inline bool isNonUnitRotation(double x, double y, double z, double w) {
    const double len = std::sqrt(x * x + y * y + z * z + w * w);
    return std::isfinite(len) && std::fabs(len - 1.0) > kUnitRotationTolerance;
}

// What import saw in one clip's curves, kept for `check`.
struct CurveStats {
    // Keys whose length is off 1 by more than kUnitRotationTolerance, as the file gives them
    // (glTF: counted from the file's own accessors, quantized ones dequantized); normalized on
    // import.
    uint32_t nonUnitRotationKeys = 0;
    uint32_t duplicateKeyTimes = 0;     // neighbouring keys at the same time
    uint32_t unsortedChannels = 0;      // channels with keys out of order (sorted on import)
    uint32_t nonFiniteKeys = 0;         // dropped
    std::vector<std::string> examples;  // a few channel names ("node.rotation")
};

struct Track {
    int32_t node = -1;  // index into Skeleton
    Channel translation, rotation, scale;
};

// How a morph track's weights go from key to key: glTF's three modes (CUBICSPLINE keys
// carry an in-tangent, the value and an out-tangent per target, in that order).
enum class WeightInterpolation : uint8_t { Linear, Step, CubicSpline };

// The animated morph weights of one mesh: `count` keys at Clip::times[times..], each with
// `targets` weights (three times that for CubicSpline) at Clip::morphKeys[values..].
struct MorphTrack {
    int32_t mesh = -1;      // index into Model::meshes
    uint32_t targets = 0;   // the mesh's morph target count
    uint32_t times = 0;
    uint32_t values = 0;
    uint32_t count = 0;
    WeightInterpolation interpolation = WeightInterpolation::Linear;
};

// A named marker on a clip's timeline (seconds, the same timeline as the clip's keys): the
// clip's events. Read from a glTF animation's `extras.markers` and the model's markers file
// (import/clip_markers.h), written by `export`, edited on the viewer's Timeline.
struct Marker {
    std::string name;
    float time = 0.0f;
};

struct Clip {
    std::string name;
    float duration = 0.0f;         // seconds: the time of the last key of any channel
    float startTime = 0.0f;        // seconds: the time of the first key of any channel
    float sampleRate = 30.0f;      // frames per second used for stepping
    double ticksPerSecond = 0.0;   // the rate used to turn the file's ticks into seconds
    bool ticksPerSecondFromFile = true;
    std::vector<Track> tracks;     // sorted by node
    std::vector<float> times;      // key times (s); each channel's run ascends
    std::vector<glm::vec3> vec3Keys;  // translation and scale values
    std::vector<glm::quat> quatKeys;  // rotation values
    std::vector<int32_t> trackOfNode; // per skeleton node: track index or -1
    CurveStats curveStats;            // what import saw in the file's curves
    std::vector<MorphTrack> morphTracks;  // sorted by mesh; at most one per mesh
    std::vector<float> morphKeys;         // morph weight values of every morph track
    std::vector<Marker> markers;          // sorted by time

    // Append a run of key times, reusing the previous run when it is identical.
    uint32_t addTimes(const float* t, uint32_t count);

private:
    uint32_t lastTimesFirst_ = 0, lastTimesCount_ = 0;
};

// Key index k of a channel such that times[k] <= t < times[k+1], clamped to [0, count-2].
// `cursor` is the last answer: forward or backward by one key is O(1); anything else is a
// binary search. Requires count >= 2.
uint32_t findKey(const float* times, uint32_t count, float t, uint32_t& cursor);

glm::vec3 sampleVec3(const Clip& clip, const Channel& ch, float t, uint32_t& cursor);
glm::quat sampleQuat(const Clip& clip, const Channel& ch, float t, uint32_t& cursor,
                     RotationBlend blend);

// Shortest-path spherical interpolation (constant angular speed), computed with a
// polynomial (no trigonometry) for keys up to 120 degrees apart, trigonometry beyond;
// accurate to about 3e-7; result is unit length.
glm::quat slerpShortest(const glm::quat& a, const glm::quat& b, float alpha);
glm::quat nlerpShortest(const glm::quat& a, const glm::quat& b, float alpha);

// The `track.targets` weights of a morph track at clip time t, written to `out`. Before the
// first key: the first key's weights; after the last: the last's. Allocates nothing.
void sampleMorphTrack(const Clip& clip, const MorphTrack& track, float t, uint32_t& cursor, float* out);

// Point every channel (and morph track) whose key times equal, bit for bit, those of an earlier
// one at that earlier run, so the sampler's one key search per run of times serves them all
// (a file that stores each bone's times apart, as .X files do, gets one search per tick instead
// of one per channel). Clip::times itself is left as it is. Import calls it on every clip.
void shareTimeRuns(Clip& clip);

// Widen the clip's [startTime, duration] to cover its morph keys too (import: after the
// morph tracks are added). A clip with morph keys only takes their range, and its sample
// rate from their spacing.
void extendClipRangeToMorphs(Clip& clip);

// A clip's tracks regrouped for the per-tick sampler (built once per clip by whoever samples it
// every tick: Animator, Controller): the distinct runs of key times, each with the keyed
// components that use it, then the components that never change (one key, or no channel: the
// bind value, or keys that all hold the same vector), each kind in one flat list.
// sampleClip(plan, ...) writes what sampleClip(clip, ...) writes at any finite time, bit for
// bit, with one key search per run and no per-track branching. Its cursors are one per run
// (runs.size() <= 3 * tracks, so a cursor array sized for the clip fits). The clip must
// outlive the plan and not change after it is built.
struct SamplingPlan {
    struct Keyed {
        uint32_t node;
        uint32_t values;  // first key in Clip::vec3Keys or Clip::quatKeys
        Interpolation interpolation;
    };
    struct Run {
        uint32_t times = 0, count = 0;  // the run of key times (count >= 2)
        // This run's keyed components: translations[t0, t1), rotations[r0, r1), scales[s0, s1).
        uint32_t t0 = 0, t1 = 0, r0 = 0, r1 = 0, s0 = 0, s1 = 0;
        // A run of kFrameMajorKeys keys or more also holds its keys frame by frame: key k of
        // every component, side by side: frameVec3[frameVec3 + k * nv ...] its translations
        // then its scales (nv of them), frameQuat[frameQuat + k * nq ...] its rotations. A tick
        // then reads two neighbouring frames, not two keys in each component's own array (3000
        // keys a track and 25 keys a tick: ~80 cache lines a tick instead of ~270, in order).
        // UINT32_MAX: the keys are read where the clip keeps them.
        uint32_t frameVec3 = UINT32_MAX, frameQuat = UINT32_MAX;
    };
    static constexpr uint32_t kFrameMajorKeys = 64;
    // At most this much copied per plan (each sampler keeps its own plan): a longer take keeps
    // its later runs where the clip has them.
    static constexpr size_t kFrameMajorBytes = size_t(16) << 20;
    struct Fixed {
        uint32_t node;
        uint32_t value;  // the key's index in Clip::vec3Keys or Clip::quatKeys
    };
    const Clip* clip = nullptr;  // what it was built from; null: no plan (see validFor())
    size_t trackCount = 0;
    int32_t maxNode = -1;
    std::vector<Run> runs;
    std::vector<Keyed> translations, rotations, scales;
    std::vector<Fixed> oneKeyTranslations, oneKeyRotations, oneKeyScales;
    std::vector<uint32_t> bindTranslations, bindRotations, bindScales;  // nodes without that channel
    std::vector<glm::vec3> frameVec3;  // long runs' keys frame by frame (Run::frameVec3)
    std::vector<glm::quat> frameQuat;

    // Built from `clip`, and still matching it in size.
    bool validFor(const Clip& c) const { return clip == &c && trackCount == c.tracks.size(); }
};

// The plan of `clip` for a pose of `nodeCount` nodes; an empty plan (clip == nullptr) when its
// tracks cannot be regrouped (two tracks for one node, a node index below 0 or not below
// nodeCount, a channel past the key arrays).
SamplingPlan buildSamplingPlan(const Clip& clip, size_t nodeCount = SIZE_MAX);

// sampleClip() by a plan: the same values in `local`, bit for bit, at any finite t. `cursors`:
// one per run.
void sampleClip(const SamplingPlan& plan, float t, const Transform* bindLocal, Transform* local, uint32_t* cursors,
                RotationBlend blend);
// sampleClip(plan, ...) writing only the components that change with time (the plan's keyed
// ones), for a caller that samples one clip into the same pose tick after tick: every other
// component of `local` must still hold what the last sampleClip(plan, ...) wrote there. The
// same bits as sampleClip(plan, ...) then.
void sampleClipKeyed(const SamplingPlan& plan, float t, Transform* local, uint32_t* cursors, RotationBlend blend);

// Sample every track of `clip` at clip time t into `local` (one Transform per skeleton
// node). Components without a channel take `bindLocal`'s value. `cursors` holds three
// entries per track (T, R, S) and must be at least 3 * clip.tracks.size() long.
void sampleClip(const Clip& clip, float t, const Transform* bindLocal, Transform* local,
                uint32_t* cursors, RotationBlend blend);

}  // namespace rig
