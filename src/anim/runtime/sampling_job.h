// SamplingJob: one clip's tracks at one time into a local pose. The per-instance context is
// `cursors` (three per track: T, R, S): the last key segment found, so sequential playback
// finds its keys in O(1); any values are valid (a bad guess costs a binary search). Joints
// without a track, and components without a channel, keep `bindLocal`'s value only where
// the caller initialized `local` with it: sampling writes only animated joints. Spans are
// caller-owned; validate() checks sizes and track nodes, run() returns false (writing
// nothing) when validate() does. Allocates nothing.
#pragma once

#include <cstdint>
#include <span>

#include "anim/runtime/clip.h"
#include "anim/runtime/transform.h"

namespace rig {

struct SamplingJob {
    const Clip* clip = nullptr;
    float time = 0.0f;                        // clip-local seconds (no wrapping here)
    RotationBlend blend = RotationBlend::Slerp;
    std::span<const Transform> bindLocal;     // one per skeleton node
    std::span<uint32_t> cursors;              // at least 3 * clip->tracks.size()
    std::span<Transform> local;               // output: one per skeleton node
    // Optional: the clip's plan (buildSamplingPlan), checked when it was built: then
    // validate() walks no tracks, and cursors need only one per run.
    const SamplingPlan* plan = nullptr;

    bool validate() const;
    bool run() const;
};

}  // namespace rig
