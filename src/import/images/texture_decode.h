// Decoding one texture: encoded bytes (PNG, JPEG and, for the formats Assimp reads, TGA and BMP)
// to RGBA8 pixels of a checked size. The format is judged by its magic number first
// (image_format.h) and only a format the model's format allows reaches a decoder: PNG through
// Debian's libpng (its simplified API: any bit depth, palette, grey or interlaced image to
// RGBA8), JPEG through libjpeg-turbo, TGA and BMP (whose headers image_format checks) through
// stb_image. The header's size is checked before any pixel is decoded. Runs in the import
// worker (import/images/model_images.h), never on the main process's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/result.h"
#include "import/images/image_format.h"
#include "import/texture_limits.h"

namespace rig {

struct TexturePixels {
    uint32_t width = 0, height = 0;              // as decoded (at most kMaxTextureDisplaySide a side)
    uint32_t fileWidth = 0, fileHeight = 0;      // the image's own size
    std::vector<uint8_t> rgba;                   // rows bottom first (GL's UV origin)
};

// The size an image of w x h is shown at: halved until no side exceeds kMaxTextureDisplaySide.
void displaySize(uint32_t w, uint32_t h, uint32_t& outW, uint32_t& outH, uint32_t& factor);

// Its width and height from the header, or why not ("is not a PNG or JPEG image (it is a
// 16-bit PNM/PGM/PPM image)", "is 16384x16384 pixels, more than 8192x8192"), the phrase
// following `what`.
Result<bool> textureHeader(const uint8_t* data, size_t size, const std::string& what, TextureFormats allowed,
                           uint32_t& width, uint32_t& height);

// The whole image, downscaled to displaySize. Errors are a phrase starting with `what`
// ("texture skin.png is not a readable PNG image (IDAT: invalid distance too far back)").
Result<TexturePixels> decodeTexture(const uint8_t* data, size_t size, const std::string& what, TextureFormats allowed);

}  // namespace rig
