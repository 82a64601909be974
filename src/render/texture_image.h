// A model's base-colour texture as pixels, read and decoded within limits: the texture is
// untrusted input like the model. An image file is read only when it is a regular file of at
// most kMaxTextureBytes (import/texture_limits.h, util/input_file); an embedded image is
// refused over the same size (the import worker keeps none of its bytes); the dimensions are read from the image's header and an image larger than kMaxTextureSide
// on a side is refused before any pixel is decoded. A refused texture is drawn as a
// magenta checker (GpuModel::missingTextures, one warning line saying why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"
#include "import/texture_limits.h"

namespace rig {

struct TextureImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // rows bottom first (GL's UV origin, which Assimp's UVs follow)
};

// How a texture refused by the model-folder rule ends its phrase; the import's own warning
// (app/command_util warnRefusedPaths) already names such a file.
inline constexpr std::string_view kTextureOutsideFolder = " not read (outside the model's folder)";

// The image of texture reference `ref` of `model` (a material's baseColorTexture): an embedded
// texture ("*N" or the name of one) or a file (util/paths.h resolveResourceFile). Else why not,
// as a phrase naming the texture: "texture skin.png missing", "texture skin.png not read
// (outside the model's folder)", "texture skin.png not read: larger than 256 MiB", "embedded
// texture *0 is 16384x16384 pixels, more than 8192x8192", "texture skin.png is not a readable
// image".
Result<TextureImage> loadTextureImage(const Model& model, const std::string& ref);

// What follows that phrase in the warning line of `render` and the viewer.
inline constexpr const char* kUntexturedNote = "drawn as a magenta checker";

}  // namespace rig
