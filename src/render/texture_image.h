// How a texture that is not drawn is reported. The textures themselves are decoded by the import
// (import/images/model_images.h: in the import worker, within the limits of
// import/texture_limits.h) and drawn from Model::images; one that was not decoded is drawn as a
// magenta checker (GpuModel::missingTextures, one warning line saying why: "texture skin.png
// missing", "texture skin.png not read: larger than 256 MiB", "embedded texture *0 is
// 16384x16384 pixels, more than 8192x8192", "texture skin.png is not a PNG or JPEG image (it is
// a PNM/PGM/PPM image)").
#pragma once

#include "import/images/model_images.h"

namespace rig {

// What follows that phrase in the warning line of `render` and the viewer.
inline constexpr const char* kUntexturedNote = "drawn as a magenta checker";

}  // namespace rig
