#include "import/images/hdr_image.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "util/input_file.h"

namespace rig {

namespace {

// At most 40 characters of a header line for a message, control and non-ASCII bytes as '?'.
std::string quoted(const std::string& line) {
    std::string out = line.substr(0, 40);
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    }
    return "\"" + out + "\"";
}

// The header: "#?RADIANCE" (or "#?RGBE"), lines up to an empty one (FORMAT=32-bit_rle_rgbe
// among them), then "-Y H +X W". Sets the dimensions and the offset of the pixel data, or
// returns why not (without the file's name).
std::string parseHeader(const uint8_t* data, size_t size, int& width, int& height, size_t& dataStart) {
    size_t pos = 0;
    auto nextLine = [&](std::string& line) {
        const void* nl = std::memchr(data + pos, '\n', size - pos);
        if (!nl) return false;
        const size_t end = static_cast<size_t>(static_cast<const uint8_t*>(nl) - data);
        line.assign(reinterpret_cast<const char*>(data + pos), end - pos);
        pos = end + 1;
        return true;
    };
    const size_t limit = size < kMaxHdrHeaderBytes ? size : kMaxHdrHeaderBytes;
    const size_t fullSize = size;
    size = limit;  // no header line is looked for past the limit
    std::string line;
    if (!nextLine(line) || (line != "#?RADIANCE" && line != "#?RGBE")) {
        return fullSize >= 2 && std::memcmp(data, "#?", 2) == 0 && fullSize > limit
                   ? "header longer than " + std::to_string(kMaxHdrHeaderBytes >> 10) + " KiB"
                   : "not a Radiance .hdr image";
    }
    bool rgbe = false;
    std::string format;
    for (;;) {
        if (!nextLine(line)) {
            return fullSize > limit ? "header longer than " + std::to_string(kMaxHdrHeaderBytes >> 10) + " KiB"
                                    : "truncated header";
        }
        if (line.empty()) break;
        // Header lines are text: a NUL in one is damage, never an empty line.
        if (line.find('\0') != std::string::npos) return "a header line holds a NUL byte";
        if (line.rfind("FORMAT=", 0) == 0) {
            format = line.substr(7);
            if (format == "32-bit_rle_rgbe") rgbe = true;
        }
    }
    if (!rgbe) {
        return format.empty() ? "not a Radiance .hdr image (no FORMAT=32-bit_rle_rgbe line)"
                              : "pixel format " + quoted(format) + " is not read (only 32-bit_rle_rgbe)";
    }
    if (!nextLine(line)) return fullSize > limit ? "header longer than " + std::to_string(kMaxHdrHeaderBytes >> 10) + " KiB" : "truncated header";
    long long h = -1, w = -1;
    char tail = 0;
    char yAxis[3] = {}, xAxis[3] = {};
    if (std::sscanf(line.c_str(), "%2s %lld %2s %lld%c", yAxis, &h, xAxis, &w, &tail) != 4 || h <= 0 || w <= 0) {
        return "bad resolution line " + quoted(line);
    }
    if (std::strcmp(yAxis, "-Y") != 0 || std::strcmp(xAxis, "+X") != 0) {
        return "image orientation " + quoted(line) + " is not read (only -Y H +X W)";
    }
    if (w > kMaxHdrWidth || h > kMaxHdrHeight) {
        return std::to_string(w) + "x" + std::to_string(h) + " pixels, more than " + std::to_string(kMaxHdrWidth) + "x" +
               std::to_string(kMaxHdrHeight);
    }
    width = static_cast<int>(w);
    height = static_cast<int>(h);
    dataStart = pos;
    return {};
}

// Decodes the pixel data: flat RGBE, or run-length encoded scanlines ("2 2 hi lo" then four
// channels of runs and dumps; a run's count is over 128, a dump's 1 to 128, neither longer than
// what is left of the row), each row converted as it is decoded (`convertRow`, the row's RGBE
// bytes). Returns why the data is not a whole, clean image, having converted nothing more.
template <typename ConvertRow>
std::string decodePixelData(const uint8_t* data, size_t size, int width, int height, ConvertRow convertRow) {
    const size_t rowBytes = static_cast<size_t>(width) * 4;
    auto truncatedAt = [&](size_t row) {
        return "truncated (pixel data ends in row " + std::to_string(row + 1) + " of " + std::to_string(height) + ")";
    };
    // Flat: narrow images and data whose first row has no run-length marker.
    if (width < 8 || size < 4 || data[0] != 2 || data[1] != 2 || (data[2] & 0x80)) {
        if (size / rowBytes < static_cast<size_t>(height)) return truncatedAt(size / rowBytes);
        for (int row = 0; row < height; ++row) convertRow(row, data + static_cast<size_t>(row) * rowBytes);
        return {};
    }
    std::vector<uint8_t> line(rowBytes);
    size_t pos = 0;
    for (int row = 0; row < height; ++row) {
        if (size - pos < 4) return truncatedAt(row);
        if (data[pos] != 2 || data[pos + 1] != 2 || (data[pos + 2] & 0x80)) {
            return "row " + std::to_string(row + 1) + " is not run-length encoded like the rows before it";
        }
        if (((data[pos + 2] << 8) | data[pos + 3]) != width) {
            return "row " + std::to_string(row + 1) + " has a scanline length other than the width";
        }
        pos += 4;
        for (int channel = 0; channel < 4; ++channel) {
            int x = 0;
            while (x < width) {
                if (pos >= size) return truncatedAt(row);
                int count = data[pos++];
                const bool run = count > 128;
                if (run) count -= 128;
                // A zero-length run or dump would never end the row.
                if (count == 0 || count > width - x) return "bad run-length data in row " + std::to_string(row + 1);
                const size_t need = run ? 1 : static_cast<size_t>(count);
                if (size - pos < need) return truncatedAt(row);
                for (int k = 0; k < count; ++k) line[static_cast<size_t>(x + k) * 4 + channel] = data[pos + (run ? 0 : k)];
                pos += need;
                x += count;
            }
        }
        convertRow(row, line.data());
    }
    return {};
}

}  // namespace

uint16_t halfTowardZero(float v) {
    if (!(v == v)) return 0x7e00;
    uint32_t bits;
    const float clamped = v > 65504.0f ? 65504.0f : (v < -65504.0f ? -65504.0f : v);
    std::memcpy(&bits, &clamped, 4);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    const int e = static_cast<int>((bits >> 23) & 0xff) - 127;
    const uint32_t mantissa = bits & 0x7fffff;
    if (e < -24) return sign;  // below half the smallest subnormal's step: zero
    if (e < -14) {             // subnormal: the implicit 1 shifted in, the rest cut off
        return static_cast<uint16_t>(sign | ((mantissa | 0x800000) >> (-e - 1)));
    }
    return static_cast<uint16_t>(sign | ((e + 15) << 10) | (mantissa >> 13));
}

float halfToFloat(uint16_t h) {
    const int e = (h >> 10) & 0x1f;
    const int m = h & 0x3ff;
    float v;
    if (e == 0) {
        v = std::ldexp(static_cast<float>(m), -24);
    } else if (e == 31) {
        v = m ? NAN : INFINITY;
    } else {
        v = std::ldexp(static_cast<float>(m + 1024), e - 25);
    }
    return (h & 0x8000) ? -v : v;
}

Result<HdrImage> decodeHdrImage(const uint8_t* data, size_t size, const std::string& what) {
    int width = 0, height = 0;
    size_t start = 0;
    std::string why = parseHeader(data, size, width, height, start);
    if (!why.empty()) return Error{what + ": " + why};
    HdrImage image;
    image.width = width;
    image.height = height;
    image.rgbaHalf.resize(static_cast<size_t>(width) * height * 4);
    // A channel is mantissa * 2^(exponent - 136) (the format's reference decoder, / 256, in float),
    // then * 256 / 255 (three's HDRLoader: 2^(exponent - 128) / 255); exponent 0 is black.
    const double toThree = 256.0 / 255.0;
    why = decodePixelData(data + start, size - start, width, height, [&](int row, const uint8_t* rgbe) {
        uint16_t* dst = image.rgbaHalf.data() + static_cast<size_t>(height - 1 - row) * width * 4;
        for (int x = 0; x < width; ++x) {
            const uint8_t* p = rgbe + static_cast<size_t>(x) * 4;
            const float scale = p[3] ? std::ldexp(1.0f, p[3] - 136) : 0.0f;
            for (int c = 0; c < 3; ++c) dst[x * 4 + c] = halfTowardZero(static_cast<float>((p[c] * scale) * toThree));
            dst[x * 4 + 3] = 0x3c00;
        }
    });
    if (!why.empty()) return Error{what + ": " + why};
    return image;
}

HdrImage halveHdrImage(const HdrImage& image) {
    HdrImage out;
    out.width = (image.width + 1) / 2;
    out.height = (image.height + 1) / 2;
    out.rgbaHalf.resize(static_cast<size_t>(out.width) * out.height * 4);
    for (int y = 0; y < out.height; ++y) {
        for (int x = 0; x < out.width; ++x) {
            float sum[4] = {0, 0, 0, 0};
            int n = 0;
            for (int sy = 2 * y; sy < std::min(image.height, 2 * y + 2); ++sy) {
                for (int sx = 2 * x; sx < std::min(image.width, 2 * x + 2); ++sx) {
                    const uint16_t* p = &image.rgbaHalf[(static_cast<size_t>(sy) * image.width + sx) * 4];
                    for (int c = 0; c < 4; ++c) sum[c] += halfToFloat(p[c]);
                    ++n;
                }
            }
            uint16_t* q = &out.rgbaHalf[(static_cast<size_t>(y) * out.width + x) * 4];
            for (int c = 0; c < 4; ++c) q[c] = halfTowardZero(sum[c] / static_cast<float>(n));
        }
    }
    return out;
}

Result<HdrImage> readHdrImage(const std::string& path) {
    std::string bytes, why;
    switch (readInputFile(path, kMaxHdrFileBytes, bytes, why)) {
    case InputFileStatus::Read:
        return decodeHdrImage(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
    case InputFileStatus::Missing:
        return Error{path + ": no such file"};
    case InputFileStatus::Refused:
        break;
    }
    return Error{path + ": " + why};
}

}  // namespace rig
