// Playing compressed clips. A CompressedClipSet is a model's clips compressed once, at load
// (anim/offline/compress.h compressClips builds it), shared and immutable like the Model: every
// instance that plays compressed reads the same set. A CompressedSampler is one instance's
// state for it (decoded segments, kept in a few CompressedSamplingCaches), sized once; its
// sample() writes the same local pose that sampling the plain clip writes (every node of the
// skeleton that the clip animates, the others left alone), within the compression tolerance.
// Morph weights are not compressed: they keep playing from the plain clip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "anim/runtime/clip.h"
#include "anim/runtime/compressed_clip.h"
#include "anim/runtime/compressed_sampling_cache.h"
#include "anim/runtime/transform.h"

namespace rig {

// What compressing one clip gave (model units for the error, bytes as byteSize() counts them).
struct CompressedClipStats {
    size_t plainBytes = 0, compressedBytes = 0;
    double maxError = 0.0;        // the compressor's measured maximum (joints and skinned vertices)
    bool withinTolerance = true;
};

struct CompressedClipSet {
    float tolerance = 0.0f;              // model units (metres after import)
    std::vector<CompressedClip> clips;   // one per model clip
    std::vector<uint8_t> present;        // per model clip: 1 where clips[i] plays (else: plain)
    std::vector<CompressedClipStats> stats;
    // Per model clip, the skeleton nodes its tracks animate but its compressed tracks do not
    // write (channels all at their bind value): sampling sets them to the bind pose.
    // restNodes[k] for k in [restOffset[c], restOffset[c + 1]).
    std::vector<uint32_t> restOffset, restNodes;
    size_t maxTracks = 0;                // of the present clips
    size_t skeletonSize = 0;             // the poses it samples into

    // Compressed clip i, or null when clip i plays plain (absent, or out of range).
    const CompressedClip* clip(int32_t i) const {
        return i >= 0 && static_cast<size_t>(i) < present.size() && present[i] ? &clips[i] : nullptr;
    }
    // Fill restOffset, restNodes, maxTracks and skeletonSize from `clips`, `present` and the
    // plain clips (call once, after the clips are set); a clip with a track outside the
    // skeleton is marked absent.
    void index(const std::vector<Clip>& plain, size_t skeletonSize);
    // Bytes of every present compressed clip / of the same clips plain: the shared memory.
    size_t byteSize() const;
    size_t plainByteSize() const;
    // The largest measured error of the present clips (model units).
    double maxError() const;
};

class CompressedSampler {
public:
    // Room to play `set` (null: nothing; sample() then returns false) with `slots` clips kept
    // decoded at once (a cross-fade or an additive layer samples two clips a tick, a blend space
    // a few; a clip beyond them takes the least recently used slot, correct but rebound).
    // Allocates: call at load or configuration time, not per tick.
    void reset(const CompressedClipSet* set, size_t slots = 2);
    // Clip `clip` at clip time t into `local` (one Transform per skeleton node): what the plain
    // clip's sampling writes, from the compressed keys. False, writing nothing, when the set
    // has no compressed form of `clip` or the sizes do not match. Allocates nothing.
    bool sample(int32_t clip, float t, std::span<const Transform> bindLocal, std::span<Transform> local,
                RotationBlend blend);
    const CompressedClipSet* set() const { return set_; }
    // Bytes this instance holds for compressed playback (its caches).
    size_t byteSize() const;

private:
    const CompressedClipSet* set_ = nullptr;
    std::vector<CompressedSamplingCache> caches_;
    std::vector<int32_t> clipOf_;    // per slot: the clip it holds, -1 none
    std::vector<uint64_t> lastUse_;  // per slot
    uint64_t uses_ = 0;
};

// Clip `clip` of `set` at time t with plain key cursors instead of a cache (the cursor form of
// the compressed sampler: two keys decoded per channel and tick, no per-instance state beyond
// `cursors`, 3 per track, as plain sampling keeps): for crowds, where a cache per character
// would cost more memory than the clips. The same values as CompressedSampler::sample, bit for
// bit. False, writing nothing, when `set` has no compressed form of `clip`.
bool sampleCompressedWithCursors(const CompressedClipSet& set, int32_t clip, float t, std::span<const Transform> bindLocal,
                                 std::span<Transform> local, std::span<uint32_t> cursors, RotationBlend blend);

}  // namespace rig
