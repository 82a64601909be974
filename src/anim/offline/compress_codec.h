// The codec's offline half: what writes a CompressedClip's codes and bit streams (quantize,
// the smallest three, bit appending; anim/offline/compress.cpp builds whole clips with them),
// and what turns a CompressedClip back into a plain Clip (to write it out, and for tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/compressed_clip.h"

namespace rig {

// The component index with the largest magnitude (first of ties) and the quaternion's sign
// chosen so that it is positive; codes of the other three over `r` (rounded to nearest,
// clamped to [0, 2^bits - 1], r.bits wide).
uint32_t encodeSmallestThree(const glm::quat& q, const QuatRange& r, uint16_t out[3]);
// Code of `v` over [min, min + maxCode * scale] (0 when scale is 0), maxCode = 2^bits - 1.
uint16_t quantize(float v, float min, float scale, uint32_t maxCode = 65535);

// Append `width` bits of `value` to a bit stream of `used` bits (LSB first); without the padding.
void appendBits(std::vector<uint8_t>& stream, uint64_t& used, uint32_t value, uint32_t width);

// Times of the channel's keys and their decoded values, as a plain Clip: what the
// compressed clip samples, so that sampleClip on it gives the same numbers as
// CompressedSamplingJob (used by tests and to write the clip out).
Clip decodeClip(const CompressedClip& c, size_t skeletonSize);

// Every distinct key time of the clip's node tracks, ascending: a compressed clip's time table.
std::vector<float> keyTimeTable(const Clip& clip);

}  // namespace rig
