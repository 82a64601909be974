#include "import/images/texture_decode.h"

#include <jpeglib.h>
#include <png.h>
#include <stb_image.h>

#include <algorithm>
#include <csetjmp>
#include <cstring>
#include <new>

namespace rig {

namespace {

std::string sizeText(uint64_t w, uint64_t h) { return std::to_string(w) + "x" + std::to_string(h); }

// "texture x.png is not a readable PNG image (why)".
Error unreadable(const std::string& what, ImageFormat f, const std::string& why) {
    return Error{what + " is not a readable " + imageFormatName(f) + " image" + (why.empty() ? "" : " (" + why + ")")};
}

// ---- JPEG (libjpeg-turbo): its errors leave through longjmp, back into jpegRead's frame ----

struct JpegError {
    jpeg_error_mgr mgr;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpegFail(j_common_ptr c) {
    auto* e = reinterpret_cast<JpegError*>(c->err);
    (*c->err->format_message)(c, e->message);
    std::longjmp(e->jump, 1);
}
void jpegQuiet(j_common_ptr) {}  // warnings (corrupt data the library gets past) stay off stderr

// Reads the header (width, height) and, unless `headerOnly`, the image at 1/`factor` of its size
// into `out` (rows bottom first), `row` as scratch. Every C++ object the function touches after
// setjmp lives in the caller's frame. Returns why not, else "".
std::string jpegRead(const uint8_t* data, size_t size, bool headerOnly, uint32_t factor, uint32_t& width, uint32_t& height,
                     std::vector<uint8_t>& out, std::vector<uint8_t>& row) {
    jpeg_decompress_struct cinfo;
    JpegError err;
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = jpegFail;
    err.mgr.output_message = jpegQuiet;
    err.message[0] = '\0';
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return err.message[0] ? err.message : "damaged";
    }
    jpeg_create_decompress(&cinfo);
    // Progressive images keep all their coefficients: bounded by the image's size (checked
    // below before any is decoded) and by this.
    cinfo.mem->max_memory_to_use = 1024L << 20;
    jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
    if (jpeg_read_header(&cinfo, TRUE) != JPEG_HEADER_OK) {
        jpeg_destroy_decompress(&cinfo);
        return "no image in it";
    }
    width = cinfo.image_width;
    height = cinfo.image_height;
    if (headerOnly || width == 0 || height == 0 || width > uint32_t(kMaxTextureSide) || height > uint32_t(kMaxTextureSide)) {
        jpeg_destroy_decompress(&cinfo);
        return {};
    }
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.scale_num = 1;
    cinfo.scale_denom = factor;
    jpeg_start_decompress(&cinfo);
    const uint32_t w = cinfo.output_width, h = cinfo.output_height;
    try {
        out.assign(size_t(w) * h * 4, 0);
        row.assign(size_t(w) * 4, 0);
    } catch (const std::bad_alloc&) {
        jpeg_destroy_decompress(&cinfo);
        return "out of memory";
    }
    while (cinfo.output_scanline < h) {
        JSAMPROW rows[1] = {row.data()};
        const uint32_t y = cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) break;
        std::memcpy(&out[size_t(h - 1 - y) * w * 4], row.data(), row.size());
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    width = w;
    height = h;
    return {};
}

// Halves `px` (w x h RGBA, rows top first) `factor` times at once: each output pixel the mean of
// the factor x factor block it covers (fewer at the right and bottom edges).
std::vector<uint8_t> boxDownscale(const std::vector<uint8_t>& px, uint32_t w, uint32_t h, uint32_t factor, uint32_t ow, uint32_t oh) {
    std::vector<uint8_t> out(size_t(ow) * oh * 4);
    std::vector<uint32_t> sum(size_t(ow) * 4);
    std::vector<uint32_t> count(ow);
    for (uint32_t oy = 0; oy < oh; ++oy) {
        std::fill(sum.begin(), sum.end(), 0u);
        std::fill(count.begin(), count.end(), 0u);
        for (uint32_t y = oy * factor; y < std::min(h, (oy + 1) * factor); ++y) {
            const uint8_t* src = &px[size_t(y) * w * 4];
            for (uint32_t x = 0; x < w; ++x) {
                uint32_t* s = &sum[size_t(x / factor) * 4];
                for (int c = 0; c < 4; ++c) s[c] += src[size_t(x) * 4 + c];
                ++count[x / factor];
            }
        }
        uint8_t* dst = &out[size_t(oy) * ow * 4];
        for (uint32_t x = 0; x < ow; ++x) {
            for (int c = 0; c < 4; ++c) dst[size_t(x) * 4 + c] = static_cast<uint8_t>((sum[size_t(x) * 4 + c] + count[x] / 2) / count[x]);
        }
    }
    return out;
}

}  // namespace

void displaySize(uint32_t w, uint32_t h, uint32_t& outW, uint32_t& outH, uint32_t& factor) {
    factor = 1;
    while ((w + factor - 1) / factor > uint32_t(kMaxTextureDisplaySide) || (h + factor - 1) / factor > uint32_t(kMaxTextureDisplaySide)) {
        factor *= 2;
    }
    outW = (w + factor - 1) / factor;
    outH = (h + factor - 1) / factor;
}

Result<bool> textureHeader(const uint8_t* data, size_t size, const std::string& what, TextureFormats allowed,
                           uint32_t& width, uint32_t& height) {
    if (size > kMaxTextureBytes) return Error{what + " not read: larger than " + std::to_string(kMaxTextureBytes >> 20) + " MiB"};
    const ImageFormat f = sniffImage(data, size);
    if (!textureFormatAllowed(f, allowed)) {
        const std::string other = describeOtherImage(data, size);
        return Error{what + " is not a " + textureFormatsText(allowed) + " image" + (other.empty() ? "" : " (it is " + other + ")")};
    }
    width = height = 0;
    if (f == ImageFormat::Png) {
        png_image img{};
        img.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_memory(&img, data, size)) return unreadable(what, f, img.message);
        width = img.width;
        height = img.height;
        png_image_free(&img);
    } else if (f == ImageFormat::Jpeg) {
        std::vector<uint8_t> none, scratch;
        const std::string why = jpegRead(data, size, true, 1, width, height, none, scratch);
        if (!why.empty()) return unreadable(what, f, why);
    } else {
        int w = 0, h = 0, n = 0;
        if (size > size_t(INT32_MAX) || !stbi_info_from_memory(data, static_cast<int>(size), &w, &h, &n) || w <= 0 || h <= 0) {
            return unreadable(what, f, "");
        }
        width = static_cast<uint32_t>(w);
        height = static_cast<uint32_t>(h);
    }
    if (width == 0 || height == 0) return unreadable(what, f, "no pixels");
    if (width > uint32_t(kMaxTextureSide) || height > uint32_t(kMaxTextureSide)) {
        return Error{what + " is " + sizeText(width, height) + " pixels, more than " + sizeText(kMaxTextureSide, kMaxTextureSide)};
    }
    return true;
}

Result<TexturePixels> decodeTexture(const uint8_t* data, size_t size, const std::string& what, TextureFormats allowed) {
    uint32_t fw = 0, fh = 0;
    if (Result<bool> header = textureHeader(data, size, what, allowed, fw, fh); !header) return header.error();
    const ImageFormat f = sniffImage(data, size);
    TexturePixels out;
    out.fileWidth = fw;
    out.fileHeight = fh;
    uint32_t factor = 1;
    displaySize(fw, fh, out.width, out.height, factor);
    std::vector<uint8_t> full;  // at the file's size, rows top first (blocks of the box filter
                                // counted from the top, as libjpeg's scaling counts them)
    if (f == ImageFormat::Jpeg) {
        // libjpeg-turbo scales while decoding (1/2, 1/4, 1/8).
        std::vector<uint8_t> row;
        uint32_t w = 0, h = 0;
        const std::string why = jpegRead(data, size, false, factor, w, h, out.rgba, row);
        if (!why.empty()) return unreadable(what, f, why);
        if (w != out.width || h != out.height) return unreadable(what, f, "decoded to " + sizeText(w, h));
        return out;
    }
    if (f == ImageFormat::Png) {
        png_image img{};
        img.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_memory(&img, data, size)) return unreadable(what, f, img.message);
        img.format = PNG_FORMAT_RGBA;
        // 16-bit channels are cut to their high byte as they are (no gamma conversion).
        img.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
        const size_t stride = size_t(fw) * 4;
        full.resize(stride * fh);
        if (!png_image_finish_read(&img, nullptr, full.data(), static_cast<png_int_32>(stride), nullptr)) {
            const std::string why = img.message;
            png_image_free(&img);
            return unreadable(what, f, why);
        }
    } else {
        int w = 0, h = 0, n = 0;
        stbi_uc* px = stbi_load_from_memory(data, static_cast<int>(size), &w, &h, &n, 4);
        if (!px) return unreadable(what, f, stbi_failure_reason() ? stbi_failure_reason() : "");
        if (uint32_t(w) != fw || uint32_t(h) != fh) {
            stbi_image_free(px);
            return unreadable(what, f, "decoded to " + sizeText(w, h));
        }
        full.assign(px, px + size_t(fw) * fh * 4);
        stbi_image_free(px);
    }
    out.rgba = factor == 1 ? std::move(full) : boxDownscale(full, fw, fh, factor, out.width, out.height);
    // Rows bottom first.
    const size_t stride = size_t(out.width) * 4;
    for (uint32_t y = 0; y < out.height / 2; ++y) {
        std::swap_ranges(out.rgba.begin() + static_cast<std::ptrdiff_t>(y * stride),
                         out.rgba.begin() + static_cast<std::ptrdiff_t>((y + 1) * stride),
                         out.rgba.begin() + static_cast<std::ptrdiff_t>((out.height - 1 - y) * stride));
    }
    return out;
}

}  // namespace rig
