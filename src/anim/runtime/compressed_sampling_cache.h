// The per-instance context of compressed sampling: CompressedSamplingCache (one compressed
// clip's decoded segments, regrouped channels and AVX2 lanes) and the samplers that read a
// CompressedClip (compressed_clip.h) at one time, with it or with plain key cursors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/compressed_clip.h"
#include "anim/runtime/transform.h"

namespace rig {

// One channel's current key segment, decoded: the per-instance context of
// CompressedSamplingJob (ozz-animation's sampling context does the same). Sequential playback
// decodes a channel's two keys only when it moves to the next segment, so a tick costs what
// sampling plain keys costs. Holds two keys per channel, never the clip's keys.
struct CompressedKeyCache {
    float t0 = 1.0f, t1 = 0.0f;  // the segment's key times [t0, t1); empty: nothing cached
    uint32_t k = UINT32_MAX;     // the segment (key index), UINT32_MAX: none
    glm::vec4 a{0.0f}, b{0.0f};  // keys k and k+1 decoded (vec3 in xyz; quaternion as x, y, z, w)
};

// The cache of one instance for one compressed clip at a time: sized once (reserve), it
// forgets its entries when the job hands it another clip.
//
// Binding a clip also regroups its channels, as SamplingPlan does a plain clip's (no
// allocation: into the room reserve() made). Channels keyed at every time of the table
// ("full": dense from its first time to its last, the usual case of a resampled or motion-
// captured clip) share one segment and one factor, so they are kept as two decoded frames,
// side by side (frame k in buffer k & 1, each the full channels' keys in list order), and a
// tick that moves to the next segment decodes one frame in a flat loop over them; then every
// full channel interpolates from the two frames, as the plain sampler does its frame-by-frame
// runs. In the AVX2 form the delta-coded full channels' codes are read eight keys ahead into
// a small window (Lanes::window: 8 keys of each such channel, 128 bytes a channel, not the
// clip's keys), so that reading the differences runs in one tight pass per eight keys.
// Constants and channels left at their bind value are copied from flat lists. Tracks
// with other keyed channels (keys over part of the table, or at their own times) are walked
// one by one, with each channel's own two keys cached (`entries`).
struct CompressedSamplingCache {
    const CompressedClip* clip = nullptr;
    // The time table's segment of the last sample time: frame i with time(i) <= t < time(i+1)
    // (clamped to the table), shared by every dense channel (their keys are consecutive times
    // of the table), so one search and one factor serve them all, as ACL samples all its
    // tracks at one pair of frames.
    CompressedKeyCache frame;
    std::vector<CompressedKeyCache> entries;  // 3 per track (T, R, S)
    // One per delta-coded channel: full channels first (in list order), then the walked
    // tracks' in the order the walk meets them (a track's T, R, S): where its reading stands
    // (key k + 1's codes). Packed, so a tick touches only these.
    std::vector<DeltaCursor> deltas;
    std::vector<QuatDecoder> ranges;          // per keyed rotation: its range, decoded at bind
    size_t poseSize = 0;                      // the pose size CompressedSamplingJob validated it for
    bool deltaCoded = false;                  // the walked tracks have delta-coded channels

    // A full channel: `channel` indexes vec3Channels / quatChannels; `dst` is the byte offset
    // of its value in the pose (node * sizeof(Transform) + the member's offset); `cursor`
    // indexes `deltas` (delta-coded channels only).
    // `whole` (rotations): the track's translation and scale are at their bind values, so the
    // AVX2 form writes the node's whole transform with the rotation (bind translation,
    // rotation, bind scale: two stores, not a bind copy of three and the rotation's fourth).
    struct Full {
        uint32_t channel = 0, dst = 0, cursor = 0;
        Interpolation interpolation = Interpolation::Linear;
        bool whole = false;
    };
    // Translations and scales, and rotations: plain-coded ones first, then delta-coded ones.
    std::vector<Full> fullVec3, fullQuat;
    uint32_t fullVec3Count = 0, fullVec3Plain = 0;
    uint32_t fullQuatCount = 0, fullQuatPlain = 0;
    // The full channels' keys of frame k in [k & 1], as columns: x of channel j at [j], y at
    // [column + j], z at [2 column + j] (and a rotation's w at [3 column + j]), so that eight
    // channels' components are one load, to decode and to interpolate them eight at a time.
    std::vector<float> frameVec3[2], frameQuat[2];
    size_t vec3Column = 0, quatColumn = 0;
    std::vector<uint32_t> fullVec3Step, fullQuatStep;  // per full channel: all ones if it steps, else 0
    // The full channels' decoding constants, one column per field and one lane per channel (in
    // list order), so that eight channels' keys are read and decoded at once (AVX2): for a
    // plain-coded channel where key k's codes are (offset + k * stride), for a delta-coded one
    // its cursor (the codes of key `deltaKey`, and its block's widths and differences' bias).
    // A rotation's ranges are per component (x, y, z, w), its dropped component `Largest` or,
    // where it varies, the 2 bits after the codes (IndexMask 3). Lanes past a group's end hold
    // the next group's channels or zeros; their reads stay inside the stream and their results
    // are overwritten or unused (8 lanes of room past the last channel).
    struct Lanes {
        // The delta-coded lanes' blocks (DeltaLayout), so that a block's eight headers are read
        // at once (deltaSeek8): where the headers start (HeadBase), each one's bits (HeadBits),
        // where the records start (RecordBase), and each field's place in a header (Pos*) and
        // mask (OffsetMask, CodeMask* for the codes, the bias of the smallest differences and
        // DminMask* for those).
        enum U {
            Offset, Stride, Shift1, Shift2, Shift3, Mask0, Mask1, Mask2, IndexMask, Largest,
            Next, Dmin0, Dmin1, Dmin2, Code0, Code1, Code2, Index,
            HeadBase, HeadBits, RecordBase, OffsetMask, PosCode0, PosCode1, PosCode2, PosIndex,
            PosDmin0, PosDmin1, PosDmin2, PosWidths, CodeMask0, CodeMask1, CodeMask2,
            DminMask0, DminMask1, DminMask2, kU
        };
        enum F { Min0, Min1, Min2, Min3, Scale0, Scale1, Scale2, Scale3, kF };
        size_t capacity = 0;
        std::vector<uint32_t> u;  // column c at u[c * capacity]
        std::vector<float> f;
        uint32_t deltaKey = UINT32_MAX;  // the key the delta-coded lanes' cursors hold
        // The delta-coded lanes' codes of kWindow keys in a row (from windowKey, a multiple
        // of kWindow, so a window lies inside one block), read in one pass per group with the
        // cursors in registers: code i of key windowKey + s at window[(4 s + i) * capacity]
        // (i = 3: the dropped component's index). The cursors then hold the window's last key.
        static constexpr uint32_t kWindow = 8;
        std::vector<uint32_t> window;
        uint32_t windowKey = UINT32_MAX;
        void reserve(size_t n) {
            capacity = n + 8;
            u.assign(kU * capacity, 0u);
            f.assign(kF * capacity, 0.0f);
            window.assign(4 * kWindow * capacity, 0u);
        }
        uint32_t* col(U c) { return u.data() + c * capacity; }
        float* col(F c) { return f.data() + c * capacity; }
        const uint32_t* col(U c) const { return u.data() + c * capacity; }
        const float* col(F c) const { return f.data() + c * capacity; }
    };
    Lanes vec3Lanes, quatLanes;  // fullVec3 and fullQuat, lane for lane
    // The full rotations that drop w in every key close each group (plain-coded, delta-coded):
    // lanes [quatDropsWFrom[0], fullQuatPlain) and [quatDropsWFrom[1], fullQuatCount).
    uint32_t quatDropsWFrom[2] = {0, 0};
    bool lanes = false;          // the streams are short enough for 32-bit bit positions
    uint32_t heldFrame[2] = {UINT32_MAX, UINT32_MAX};  // the frame each buffer holds
    // A walked track: its index, and per channel its keyed channel's index and delta cursor.
    struct Walked {
        uint32_t track = 0;
        uint32_t channel[3] = {0, 0, 0};
        uint32_t cursor[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
        uint8_t keyed = 0;  // bit c: channel c is keyed and sampled by the walk
    };
    std::vector<Walked> walked;
    uint32_t walkedCount = 0;
    // Constants (dst and the entry holding the decoded value).
    struct Copy {
        uint32_t dst = 0, entry = 0;
    };
    std::vector<Copy> constVec3, constQuat;
    uint32_t constVec3Count = 0, constQuatCount = 0;
    // The nodes of tracks with a channel at its bind value (byte offsets of their Transforms,
    // in the pose and in the bind pose): a tick first copies each one's whole bind transform
    // (one 40-byte copy, not one per channel), then writes the track's other channels over it.
    // The AVX2 form copies the first bindNodeWide alone: the rest are the nodes of the full
    // rotations written whole (Full::whole).
    std::vector<uint32_t> bindNodes;
    uint32_t bindNodeCount = 0, bindNodeWide = 0;

    // Room for a clip of `tracks` tracks (allocates; call at load, not per tick). Unbinds: the
    // next bind() checks the room again and starts afresh.
    void reserve(size_t tracks) {
        clip = nullptr;
        entries.resize(3 * tracks);
        deltas.resize(3 * tracks);
        ranges.resize(tracks);
        fullVec3.resize(2 * tracks);
        fullQuat.resize(tracks);
        vec3Column = 2 * tracks + 8;  // room for eight lanes past the last
        quatColumn = tracks + 8;
        for (int b = 0; b < 2; ++b) {
            frameVec3[b].assign(3 * vec3Column, 0.0f);
            frameQuat[b].assign(4 * quatColumn, 0.0f);
        }
        fullVec3Step.assign(vec3Column, 0u);
        fullQuatStep.assign(quatColumn, 0u);
        vec3Lanes.reserve(2 * tracks);
        quatLanes.reserve(tracks);
        walked.resize(tracks);
        constVec3.resize(2 * tracks);
        constQuat.resize(tracks);
        bindNodes.resize(tracks);
    }
    // Bind to `c` (forgetting every entry when it is another clip). Allocates nothing; false if
    // the entries are too few for `c`.
    bool bind(const CompressedClip& c);
    // Bytes it holds (itself and its buffers): what an instance pays to play compressed.
    size_t byteSize() const;
};

// Sample every track at clip time t (the rules of sampleClip: before the first key the first
// value, after the last the last). `cursors`: 3 per track plus one for the time table.
void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          uint32_t* cursors, RotationBlend blend);
// The same values through a cache bound to `clip` (CompressedSamplingCache::bind): bit for bit
// what sampleCompressedClip gives.
void sampleCompressedClip(const CompressedClip& clip, float t, const Transform* bindLocal, Transform* local,
                          CompressedSamplingCache& cache, RotationBlend blend);

}  // namespace rig

