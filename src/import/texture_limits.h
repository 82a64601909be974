// Limits on the images a model brings (textures are untrusted input like the model): the
// import worker keeps no embedded image over them, and the renderer decodes none
// (render/texture_image.h).
#pragma once

#include <cstddef>

namespace rig {

inline constexpr size_t kMaxTextureBytes = size_t(256) << 20;  // an encoded image, file or embedded
inline constexpr int kMaxTextureSide = 8192;                   // pixels; 8192x8192 RGBA is 256 MiB

}  // namespace rig
