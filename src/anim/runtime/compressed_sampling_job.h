// CompressedSamplingJob: SamplingJob's contract for a CompressedClip. One compressed clip's
// tracks at one time into a local pose, sampled from the compressed keys: per channel only the
// two keys around the time are decoded, and kept in the instance's `cache` (its per-instance
// context, as ozz-animation's sampling job keeps one) until the time leaves their segment, so
// sequential playback costs one comparison per channel between key changes and finds the
// next keys in O(1). Nothing is decompressed ahead. Sampling writes only animated joints
// (others keep what the caller put in `local`). validate() checks sizes and track nodes, run()
// returns false (writing nothing) when validate() does. Allocates nothing (the cache is sized
// by the caller, once: CompressedSamplingCache::reserve).
#pragma once

#include <cstdint>
#include <span>

#include "anim/runtime/compressed_sampling_cache.h"
#include "anim/runtime/transform.h"

namespace rig {

struct CompressedSamplingJob {
    const CompressedClip* clip = nullptr;
    float time = 0.0f;                        // clip-local seconds (no wrapping here)
    RotationBlend blend = RotationBlend::Slerp;
    std::span<const Transform> bindLocal;     // one per skeleton node
    CompressedSamplingCache* cache = nullptr; // reserved for at least clip->tracks.size() tracks
    std::span<Transform> local;               // output: one per skeleton node

    bool validate() const;
    bool run() const;
};

}  // namespace rig
