// Offline clip tools (load or edit time; they allocate): retargeting by joint name,
// trimming, resampling. They build new Clips; the runtime only ever reads clips.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/clip.h"
#include "anim/runtime/skeleton.h"

namespace rig {

// A clip with `clip`'s name, key range, rates and markers, and no tracks: the start of a clip
// that a tool fills with new keys.
Clip clipHeader(const Clip& clip);

// The frame rate a clip's keys were made at, for stepping through it: the median gap between
// neighbouring keys (at most 8192 looked at), rounded to a whole rate within 1%; 30 when keys are
// sparser than 10 per second (poses to interpolate, not frames) or there are none; at most 1000.
float keySampleRate(const Clip& clip);

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
// channels stay constant. end <= start gives a one-pose clip (duration 0). Markers inside
// the cut move with it; the others are dropped.
Clip trimClip(const Clip& clip, float start, float end);

// The clip with every animated channel re-keyed on a regular grid of `fps` keys per second
// from the clip's startTime, plus a key at its duration when the grid misses it. Keys keep
// the clip's timeline (startTime and duration unchanged); sampleRate becomes fps; channel
// interpolation modes are kept. Rotations are sampled with SLERP. fps <= 0: a plain copy.
Clip resampleClip(const Clip& clip, float fps);

}  // namespace rig
