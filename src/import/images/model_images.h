// A model's textures decoded as part of its import, so that they are decoded where the model
// is (in the sandboxed import worker, platform/import_worker) and the process that draws
// receives only pixels of a checked size (Model::images; platform/model_io checks them again).
//
// Each distinct texture path the materials name is decoded once, however many slots and
// samplers share it: an embedded image ("*N" or its name), or a file resolved by the
// model-folder rule (util/paths.h) and read only when it is a regular file of at most
// kMaxTextureBytes. A glTF file's textures must be PNG or JPEG, other formats' may also be TGA
// or BMP, judged by magic number before any decoder (images/image_format.h). The header's size
// is checked first (at most kMaxTextureSide a side); larger than kMaxTextureDisplaySide, the
// image is halved until it fits; and all of a model's images together take at most
// modelImageBudget() (import/texture_limits.h: 1 GiB, RIGVIEW_MAX_IMAGE_MB), judged from their headers before decoding:
// the first image past it, and each after it that does not fit, is left out with a phrase
// saying so. A texture left out is drawn as a magenta checker with one warning line.
#pragma once

#include <string_view>

#include "anim/runtime/model.h"

namespace rig {

// How the phrase of a texture refused by the model-folder rule ends; the import's own warning
// (app/command_util warnRefusedPaths) already names such a file.
inline constexpr std::string_view kTextureOutsideFolder = " not read (outside the model's folder)";

void decodeModelImages(Model& model);

}  // namespace rig
