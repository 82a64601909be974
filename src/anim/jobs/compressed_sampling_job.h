// CompressedSamplingJob: SamplingJob's contract for a CompressedClip. One compressed clip's
// tracks at one time into a local pose, dequantizing only the two keys around the time per
// channel (nothing is decompressed ahead). `cursors` (three per track: T, R, S) keep the last
// key segment of each channel, so sequential playback finds its keys in O(1); any values are
// valid. Sampling writes only animated joints (others keep what the caller put in `local`).
// Spans are caller-owned; validate() checks sizes and track nodes, run() returns false
// (writing nothing) when validate() does. Allocates nothing.
#pragma once

#include <cstdint>
#include <span>

#include "anim/compressed_clip.h"
#include "anim/transform.h"

namespace rig {

struct CompressedSamplingJob {
    const CompressedClip* clip = nullptr;
    float time = 0.0f;                        // clip-local seconds (no wrapping here)
    RotationBlend blend = RotationBlend::Slerp;
    std::span<const Transform> bindLocal;     // one per skeleton node
    std::span<uint32_t> cursors;              // at least 3 * clip->tracks.size()
    std::span<Transform> local;               // output: one per skeleton node

    bool validate() const;
    bool run() const;
};

}  // namespace rig
