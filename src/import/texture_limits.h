// Limits on the images a model brings (textures are untrusted input like the model): the
// import keeps no embedded image over them, and decodes none (import/images/model_images.h).
#pragma once

#include <cstddef>
#include <cstdlib>

namespace rig {

inline constexpr size_t kMaxTextureBytes = size_t(256) << 20;  // an encoded image, file or embedded
inline constexpr int kMaxTextureSide = 8192;                   // pixels; 8192x8192 RGBA is 256 MiB
// A decoded texture larger than this on a side is halved (box filter) until it is not: 4096x4096
// RGBA is 64 MiB, more detail than a viewport shows.
inline constexpr int kMaxTextureDisplaySide = 4096;
// All the decoded textures of one model together (RGBA, at their display size): 1 GiB, sixteen
// 4096x4096 images or sixty-four 2048x2048 ones, unless RIGVIEW_MAX_IMAGE_MB says otherwise
// (1 to 65536; the worker has it too). An image past it is left out (a magenta checker, one
// warning naming it).
inline constexpr size_t kDefaultModelImageBytes = size_t(1) << 30;
inline size_t modelImageBudget() {
    if (const char* env = std::getenv("RIGVIEW_MAX_IMAGE_MB"); env && *env) {
        char* end = nullptr;
        const unsigned long long mb = std::strtoull(env, &end, 10);
        if (end && *end == '\0' && mb >= 1 && mb <= 65536) return size_t(mb) << 20;
    }
    return kDefaultModelImageBytes;
}

}  // namespace rig
