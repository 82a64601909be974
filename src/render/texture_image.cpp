#include "render/texture_image.h"

#include <stb_image.h>

#include <cstring>

#include "util/input_file.h"
#include "util/paths.h"

namespace rig {

namespace {

std::string sizeText(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string tooLarge(const std::string& what, long long w, long long h) {
    return what + " is " + std::to_string(w) + "x" + std::to_string(h) + " pixels, more than " +
           sizeText(kMaxTextureSide, kMaxTextureSide);
}

// Encoded image bytes (PNG, JPEG, TGA...): the header's dimensions checked first, then decoded
// with row 0 at the bottom. `what` names the texture in messages.
Result<TextureImage> decode(const uint8_t* data, size_t size, const std::string& what) {
    if (size > kMaxTextureBytes) return Error{what + " not read: larger than " + std::to_string(kMaxTextureBytes >> 20) + " MiB"};
    int w = 0, h = 0, n = 0;
    if (!stbi_info_from_memory(data, static_cast<int>(size), &w, &h, &n) || w <= 0 || h <= 0) {
        return Error{what + " is not a readable image"};
    }
    if (w > kMaxTextureSide || h > kMaxTextureSide) return Error{tooLarge(what, w, h)};
    stbi_uc* px = stbi_load_from_memory(data, static_cast<int>(size), &w, &h, &n, 4);
    if (!px) return Error{what + " is not a readable image"};
    TextureImage image;
    image.width = w;
    image.height = h;
    const size_t row = static_cast<size_t>(w) * 4;
    image.rgba.resize(row * static_cast<size_t>(h));
    for (int y = 0; y < h; ++y) std::memcpy(&image.rgba[static_cast<size_t>(y) * row], px + static_cast<size_t>(h - 1 - y) * row, row);
    stbi_image_free(px);
    return image;
}

}  // namespace

Result<TextureImage> loadTextureImage(const Model& model, const std::string& ref) {
    // Embedded: "*N" (Assimp's convention) or a name matching an embedded texture.
    int index = -1;
    if (!ref.empty() && ref[0] == '*') {
        try {
            index = std::stoi(ref.substr(1));
        } catch (...) {
            index = -1;
        }
    }
    for (size_t i = 0; index < 0 && i < model.textures.size(); ++i) {
        if (!model.textures[i].name.empty() && model.textures[i].name == ref) index = static_cast<int>(i);
    }
    if (index >= 0 && static_cast<size_t>(index) < model.textures.size()) {
        const std::string what = "embedded texture " + ref;
        const EmbeddedTexture& t = model.textures[index];
        // Compressed: `width` is its size in bytes (the import left out the bytes of one too large).
        if (t.height == 0) {
            if (t.width > kMaxTextureBytes) return Error{what + " not read: larger than " + std::to_string(kMaxTextureBytes >> 20) + " MiB"};
            return decode(t.data.data(), t.data.size(), what);
        }
        // Raw RGBA8 pixels, as Assimp gives a format's uncompressed images.
        if (t.width > static_cast<uint32_t>(kMaxTextureSide) || t.height > static_cast<uint32_t>(kMaxTextureSide)) {
            return Error{tooLarge(what, t.width, t.height)};
        }
        if (t.width == 0 || t.data.size() != static_cast<size_t>(t.width) * t.height * 4) return Error{what + " is not a readable image"};
        TextureImage image;
        image.width = static_cast<int>(t.width);
        image.height = static_cast<int>(t.height);
        image.rgba = t.data;
        return image;
    }
    const bool embedded = !ref.empty() && ref[0] == '*';
    if (embedded) return Error{"embedded texture " + ref + " is not a readable image"};
    // A file: as written (relative to the model's folder), or by its bare name beside it; only
    // inside the model's folder unless --allow-external-paths (util/paths.h).
    std::vector<std::string> refused;
    const std::string file = paths::resolveResourceFile(model.path, ref, &refused);
    const std::string what = "texture " + ref;
    if (file.empty()) return Error{what + (refused.empty() ? std::string(" missing") : std::string(kTextureOutsideFolder))};
    std::string bytes, why;
    switch (readInputFile(file, kMaxTextureBytes, bytes, why)) {
    case InputFileStatus::Read:
        return decode(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), what);
    case InputFileStatus::Missing:
        return Error{what + " missing"};
    case InputFileStatus::Refused:
        break;
    }
    return Error{what + " not read: " + why};
}

}  // namespace rig
