// Reading an equirectangular Radiance .hdr (RGBE) the way three.js r187's HDRLoader gives it to
// the PMREM generator: linear radiance = mantissa * 2^(exponent - 128) / 255 (three's scale;
// not the / 256 of the format's reference code), clamped to 65504 and rounded toward zero to
// half floats (three's DataUtils.toHalfFloat), the file's first row at the top (flipY).
// The file is untrusted: read as a regular file within limits and decoded here, in one pass that
// checks every header line and every run (no line is read past 64 KiB, no run is empty or
// longer than its row, the pixel data is whole): one parser, so no check and decoder can
// disagree about where the header ends. Environment maps are decoded in the sandboxed worker
// process (platform/import_worker decodeEnvironmentIsolated).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/result.h"

namespace rig {

constexpr int kMaxHdrWidth = 8192, kMaxHdrHeight = 4096;
constexpr size_t kMaxHdrHeaderBytes = 64 * 1024;
// The largest pixel data (flat RGBE of the largest image, plus run-length overhead) and header.
constexpr size_t kMaxHdrFileBytes = size_t(kMaxHdrWidth) * kMaxHdrHeight * 4 * 17 / 16 + kMaxHdrHeaderBytes;

struct HdrImage {
    int width = 0, height = 0;
    // RGBA half floats (alpha 1), width * height * 4, row 0 = the image's BOTTOM row (GL order:
    // the file's first row is uploaded last, so it is v = 1, three's flipY).
    std::vector<uint16_t> rgbaHalf;
};

// The whole file: errors are one line starting with `path` ("studio.hdr: not a Radiance .hdr
// image", "...: 40000x20000 pixels, more than 8192x4096", "...: truncated (pixel data ends in row
// 12 of 256)", "...: not a regular file (a named pipe)").
Result<HdrImage> readHdrImage(const std::string& path);
// The same from bytes already read (`what` names them in messages).
Result<HdrImage> decodeHdrImage(const uint8_t* data, size_t size, const std::string& what);

// `image` at half its size each way (odd sides round up), each pixel the mean of the 2x2 block
// it covers (fewer at the right and top edges), in float, written back as halfTowardZero does.
HdrImage halveHdrImage(const HdrImage& image);

// A float as three's toHalfFloat writes it: rounded toward zero, |v| clamped to 65504.
uint16_t halfTowardZero(float v);
float halfToFloat(uint16_t h);

}  // namespace rig
