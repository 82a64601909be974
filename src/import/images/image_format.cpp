#include "import/images/image_format.h"

#include <cstring>

namespace rig {

namespace {

bool startsWith(const uint8_t* data, size_t size, const char* magic, size_t n) {
    return size >= n && std::memcmp(data, magic, n) == 0;
}

uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t le32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// BMP: "BM", a file header of 14 bytes, then a DIB header whose size is one the format has
// (12: OS/2 1, 40, 52, 56, 64, 108, 124) and a bit depth it defines.
bool isBmp(const uint8_t* d, size_t size) {
    if (size < 30 || d[0] != 'B' || d[1] != 'M') return false;
    const uint32_t dib = le32(d + 14);
    if (dib != 12 && dib != 40 && dib != 52 && dib != 56 && dib != 64 && dib != 108 && dib != 124) return false;
    const uint16_t bpp = dib == 12 ? le16(d + 24) : le16(d + 28);
    return bpp == 1 || bpp == 4 || bpp == 8 || bpp == 16 || bpp == 24 || bpp == 32;
}

// TGA: colour-map type 0 or 1; image type 1, 2, 3 (colour-mapped, true-colour, grey) or their
// run-length forms 9, 10, 11; a colour map only with a colour-mapped type, of 15, 16, 24 or 32
// bits; pixel depth 8, 15, 16, 24 or 32 (8 for grey and colour-mapped images only); a size.
bool isTga(const uint8_t* d, size_t size) {
    if (size < 18) return false;
    const uint8_t mapType = d[1], type = d[2];
    const uint8_t base = type & 7;
    if (mapType > 1 || (type & ~8) < 1 || (type & ~8) > 3) return false;
    if ((base == 1) != (mapType == 1)) return false;
    if (mapType == 1) {
        const uint8_t mapBits = d[7];
        if (mapBits != 15 && mapBits != 16 && mapBits != 24 && mapBits != 32) return false;
        if (le16(d + 5) == 0) return false;  // a colour map of no entries
    }
    const uint8_t bpp = d[16];
    if (base == 1 && bpp != 8 && bpp != 16) return false;
    if (base == 2 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32) return false;
    if (base == 3 && bpp != 8 && bpp != 16) return false;
    if (d[17] & 0xc0) return false;  // interleaving: never used, not read
    return le16(d + 12) > 0 && le16(d + 14) > 0;
}

}  // namespace

ImageFormat sniffImage(const uint8_t* data, size_t size) {
    if (startsWith(data, size, "\x89PNG\r\n\x1a\n", 8)) return ImageFormat::Png;
    if (size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) return ImageFormat::Jpeg;
    if (startsWith(data, size, "#?RADIANCE\n", 11) || startsWith(data, size, "#?RGBE\n", 7)) return ImageFormat::RadianceHdr;
    if (isBmp(data, size)) return ImageFormat::Bmp;
    if (isTga(data, size)) return ImageFormat::Tga;
    return ImageFormat::Unknown;
}

const char* imageFormatName(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Tga: return "TGA";
        case ImageFormat::Bmp: return "BMP";
        case ImageFormat::RadianceHdr: return "Radiance HDR";
        case ImageFormat::Unknown: break;
    }
    return "not an image format rigview reads";
}

bool textureFormatAllowed(ImageFormat f, TextureFormats allowed) {
    if (f == ImageFormat::Png || f == ImageFormat::Jpeg) return true;
    return allowed == TextureFormats::PngJpegTgaBmp && (f == ImageFormat::Tga || f == ImageFormat::Bmp);
}

const char* textureFormatsText(TextureFormats allowed) {
    return allowed == TextureFormats::PngJpeg ? "PNG or JPEG" : "PNG, JPEG, TGA or BMP";
}

std::string describeOtherImage(const uint8_t* data, size_t size) {
    if (size >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '7') return "a PNM/PGM/PPM image";
    if (startsWith(data, size, "#?", 2)) return "a Radiance HDR image";
    if (startsWith(data, size, "GIF8", 4)) return "a GIF image";
    if (startsWith(data, size, "8BPS", 4)) return "a Photoshop image";
    if (startsWith(data, size, "RIFF", 4) && size >= 12 && std::memcmp(data + 8, "WEBP", 4) == 0) return "a WebP image";
    if (startsWith(data, size, "\xabKTX", 4)) return "a KTX image";
    if (startsWith(data, size, "DDS ", 4)) return "a DDS image";
    if (startsWith(data, size, "\x76\x2f\x31\x01", 4)) return "an OpenEXR image";
    const ImageFormat f = sniffImage(data, size);
    if (f != ImageFormat::Unknown) return std::string("a ") + imageFormatName(f) + " image";
    return "";
}

}  // namespace rig
