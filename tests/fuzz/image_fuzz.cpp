// libFuzzer target for the image path as the import worker runs it: the magic-number check,
// then the decoder it chooses (import/images: libpng, libjpeg-turbo, stb_image for TGA and BMP,
// rigview's own Radiance HDR decoder), with the size checks around them. The first byte picks
// the path: 0 a glTF texture (PNG or JPEG), 1 another format's texture (also TGA, BMP), 2 an
// environment map. Beyond "no crash, hang, leak or huge allocation" it checks what the worker
// promises the parent: pixels of the size stated, within the display size.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "import/images/hdr_image.h"
#include "import/images/texture_decode.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "image_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const uint8_t mode = data[0] % 3;
    ++data;
    --size;
    if (mode == 2) {
        rig::Result<rig::HdrImage> hdr = rig::decodeHdrImage(data, size, "fuzz.hdr");
        if (hdr) {
            require(hdr->width > 0 && hdr->height > 0 && hdr->width <= rig::kMaxHdrWidth && hdr->height <= rig::kMaxHdrHeight,
                    "HDR size in range");
            require(hdr->rgbaHalf.size() == size_t(hdr->width) * hdr->height * 4, "HDR pixels match the size");
        } else {
            require(hdr.error().message.rfind("fuzz.hdr: ", 0) == 0, "HDR error names the file");
        }
        return 0;
    }
    const rig::TextureFormats formats = mode == 0 ? rig::TextureFormats::PngJpeg : rig::TextureFormats::PngJpegTgaBmp;
    rig::Result<rig::TexturePixels> px = rig::decodeTexture(data, size, "texture t.png", formats);
    if (px) {
        const rig::ImageFormat f = rig::sniffImage(data, size);
        require(rig::textureFormatAllowed(f, formats), "only an allowed format decodes");
        require(px->width > 0 && px->height > 0 && px->width <= uint32_t(rig::kMaxTextureDisplaySide) &&
                    px->height <= uint32_t(rig::kMaxTextureDisplaySide),
                "texture size in range");
        require(px->fileWidth <= uint32_t(rig::kMaxTextureSide) && px->fileHeight <= uint32_t(rig::kMaxTextureSide),
                "file size in range");
        require(px->rgba.size() == size_t(px->width) * px->height * 4, "texture pixels match the size");
    } else {
        require(px.error().message.rfind("texture t.png ", 0) == 0, "texture error names the texture");
    }
    return 0;
}
