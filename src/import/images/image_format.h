// What an image file is, judged by its first bytes (its magic number) before any decoder sees
// it: images are untrusted input like the model, and a decoder is handed only the formats the
// model's own format allows (glTF: PNG and JPEG; the formats Assimp reads: also TGA and BMP;
// environment maps: Radiance HDR).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rig {

enum class ImageFormat { Unknown, Png, Jpeg, Tga, Bmp, RadianceHdr };

// The formats a texture of a model may have.
enum class TextureFormats {
    PngJpeg,        // glTF 2.0 (core): image/png, image/jpeg
    PngJpegTgaBmp,  // FBX, COLLADA, OBJ and the other formats Assimp reads
};

// The format `data` starts as: PNG's 8-byte signature, JPEG's SOI marker and a third 0xFF,
// "BM" with a plausible BMP header, "#?RADIANCE\n" or "#?RGBE\n", or a TGA header whose fields
// are all ones the format defines (TGA has no magic number: its 18-byte header is the check).
ImageFormat sniffImage(const uint8_t* data, size_t size);

// Its name for messages: "PNG", "JPEG", "TGA", "BMP", "Radiance HDR", "not an image format rigview reads".
const char* imageFormatName(ImageFormat f);

// Whether `f` is one of `allowed`.
bool textureFormatAllowed(ImageFormat f, TextureFormats allowed);

// "PNG or JPEG" / "PNG, JPEG, TGA or BMP", for messages.
const char* textureFormatsText(TextureFormats allowed);

// What a file's first bytes look like when it is not an allowed format, for a message that
// helps ("a 16-bit PGM", "a Radiance HDR image", "a GIF image"), else "".
std::string describeOtherImage(const uint8_t* data, size_t size);

}  // namespace rig
