// Images under the same guard as the model: textures are judged by their magic number, decoded
// in the import worker by libpng / libjpeg-turbo (stb_image only for TGA and BMP), halved to
// their display size, and all of a model's together held to a budget; environment maps are
// decoded by rigview's own Radiance reader in the same sandbox. The attacks of issue 43 as
// small files (and a generator for the large one), through the decoders and the command line.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "import/images/hdr_image.h"
#include "import/images/image_format.h"
#include "import/images/texture_decode.h"
#include "import/import.h"
#include "platform/import_worker.h"
#include "support/gltf_writer.h"
#include "support/run.h"

namespace rig {
namespace {

namespace g = testing::gltf;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;

void put32(std::vector<uint8_t>& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}

void chunk(std::vector<uint8_t>& png, const char* type, const std::vector<uint8_t>& data) {
    put32(png, static_cast<uint32_t>(data.size()));
    const size_t start = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), data.begin(), data.end());
    put32(png, static_cast<uint32_t>(crc32(0, png.data() + start, static_cast<uInt>(png.size() - start))));
}

// A PNG of w x h pixels, `depth` bits per channel, `colourType` (0 grey, 2 RGB, 6 RGBA),
// whose row y is `row(y)` (the raw channel bytes, big-endian for 16 bits), streamed through
// deflate so that large images cost little memory here.
template <typename Row>
std::vector<uint8_t> makePng(uint32_t w, uint32_t h, uint8_t depth, uint8_t colourType, Row row) {
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> ihdr;
    put32(ihdr, w);
    put32(ihdr, h);
    ihdr.insert(ihdr.end(), {depth, colourType, 0, 0, 0});
    chunk(png, "IHDR", ihdr);
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 1, Z_DEFLATED, 15, 9, Z_RLE), Z_OK);
    std::vector<uint8_t> idat, buf(1 << 16), line;
    for (uint32_t y = 0; y <= h; ++y) {
        line.clear();
        if (y < h) {
            line.push_back(0);  // filter: none
            const std::vector<uint8_t> r = row(y);
            line.insert(line.end(), r.begin(), r.end());
        }
        z.next_in = line.data();
        z.avail_in = static_cast<uInt>(line.size());
        const int flush = y < h ? Z_NO_FLUSH : Z_FINISH;
        int status = Z_OK;
        do {
            z.next_out = buf.data();
            z.avail_out = static_cast<uInt>(buf.size());
            status = deflate(&z, flush);
            idat.insert(idat.end(), buf.data(), buf.data() + (buf.size() - z.avail_out));
        } while (flush == Z_FINISH ? status == Z_OK : z.avail_out == 0);
    }
    deflateEnd(&z);
    chunk(png, "IDAT", idat);
    chunk(png, "IEND", {});
    return png;
}

std::vector<uint8_t> greyPng(uint32_t w, uint32_t h, uint8_t value) {
    return makePng(w, h, 8, 6, [&](uint32_t) {
        std::vector<uint8_t> r(size_t(w) * 4, value);
        for (uint32_t x = 0; x < w; ++x) r[size_t(x) * 4 + 3] = 255;
        return r;
    });
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}
void writeBytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// One textured quad, its material's base-colour image at `uri`.
g::Document texturedQuad(const std::string& uri) {
    g::Document d;
    g::Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    m.indices = {0, 1, 2, 0, 2, 3};
    m.material = 0;
    d.meshes.push_back(m);
    g::Node n;
    n.name = "quad";
    n.mesh = 0;
    d.nodes.push_back(n);
    g::Material mat;
    mat.baseColor = {0.2f, 0.6f, 0.3f, 1.0f};
    mat.textureUri = uri;
    d.materials.push_back(mat);
    return d;
}

RunResult renderQuad(const std::string& model, const std::string& dir, const std::vector<std::string>& env = {},
                     const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"render", model, "-o", dir + "/out.png", "--size", "64x48"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(kExe, args, 120.0, env);
}

std::string checkerWarning(const std::string& model, const std::string& phrase) {
    return "rigview: " + model + ": warning: " + phrase + ": drawn as a magenta checker\n";
}

// A 16-bit binary PGM: stb_image's 16-to-8-bit conversion of one read past its buffer.
std::string pgm16(int w, int h) {
    return "P5\n" + std::to_string(w) + " " + std::to_string(h) + "\n65535\n" + std::string(size_t(w) * h * 2, '\x7f');
}

// The 8 x 1 Radiance image of environment_test, with a zero-length run in its first channel.
const std::string kHdrHead = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n";
const std::string kHdrRow = std::string("\x02\x02\x00\x08", 4) + "\x88\x40\x88\x40\x88\x40\x88\x81";
const std::string kHdrZeroRun = kHdrHead + std::string("\x02\x02\x00\x08\x00", 5) + kHdrRow.substr(5);

TEST(ImageFormat, TheMagicNumberPicksTheDecoder) {
    auto sniff = [](const std::string& s) { return sniffImage(reinterpret_cast<const uint8_t*>(s.data()), s.size()); };
    EXPECT_EQ(sniff(std::string("\x89PNG\r\n\x1a\n", 8) + "rest"), ImageFormat::Png);
    EXPECT_EQ(sniff("\xff\xd8\xff\xe0"), ImageFormat::Jpeg);
    EXPECT_EQ(sniff("#?RADIANCE\nFORMAT"), ImageFormat::RadianceHdr);
    EXPECT_EQ(sniff("#?RGBE\n"), ImageFormat::RadianceHdr);
    EXPECT_EQ(sniff(pgm16(2, 2)), ImageFormat::Unknown);
    EXPECT_EQ(sniff("GIF89a"), ImageFormat::Unknown);
    EXPECT_EQ(sniff(""), ImageFormat::Unknown);
    // TGA has no magic: its header's fields are the check (2x2 true-colour, 32 bits).
    const std::string tga = std::string("\x00\x00\x02", 3) + std::string(9, '\0') + std::string("\x02\x00\x02\x00\x20\x08", 6);
    EXPECT_EQ(sniff(tga), ImageFormat::Tga);
    EXPECT_EQ(sniff(tga.substr(0, 16) + std::string("\x07\x08", 2)), ImageFormat::Unknown);  // 7 bits a pixel
    EXPECT_EQ(sniff(std::string("\x00\x05\x02", 3) + tga.substr(3)), ImageFormat::Unknown);  // colour-map type 5
    // Only what the model's format allows reaches a decoder.
    EXPECT_FALSE(textureFormatAllowed(ImageFormat::Tga, TextureFormats::PngJpeg));
    EXPECT_TRUE(textureFormatAllowed(ImageFormat::Tga, TextureFormats::PngJpegTgaBmp));
    EXPECT_FALSE(textureFormatAllowed(ImageFormat::RadianceHdr, TextureFormats::PngJpegTgaBmp));
}

TEST(TextureDecode, PngOfEveryKindArrivesAsRgbaBottomRowFirst) {
    // 8-bit RGBA: two rows, red then green.
    const std::vector<uint8_t> rgba = makePng(2, 2, 8, 6, [](uint32_t y) {
        return y == 0 ? std::vector<uint8_t>{255, 0, 0, 255, 255, 0, 0, 255} : std::vector<uint8_t>{0, 255, 0, 128, 0, 255, 0, 128};
    });
    Result<TexturePixels> a = decodeTexture(rgba.data(), rgba.size(), "texture a.png", TextureFormats::PngJpeg);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->width, 2u);
    EXPECT_EQ(a->height, 2u);
    EXPECT_EQ(a->rgba, (std::vector<uint8_t>{0, 255, 0, 128, 0, 255, 0, 128, 255, 0, 0, 255, 255, 0, 0, 255}));
    // 16-bit grey: the high byte of each sample, no gamma conversion.
    const std::vector<uint8_t> grey16 = makePng(1, 1, 16, 0, [](uint32_t) { return std::vector<uint8_t>{0x80, 0x7f}; });
    Result<TexturePixels> b = decodeTexture(grey16.data(), grey16.size(), "texture b.png", TextureFormats::PngJpeg);
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(b->rgba, (std::vector<uint8_t>{0x80, 0x80, 0x80, 255}));
    // A cut file: one line naming the texture and libpng's reason.
    Result<TexturePixels> cut = decodeTexture(rgba.data(), rgba.size() - 20, "texture c.png", TextureFormats::PngJpeg);
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.error().message.rfind("texture c.png is not a readable PNG image (", 0), 0u) << cut.error().message;
}

TEST(TextureDecode, JpegIsReadByLibjpegTurbo) {
    std::ifstream in("/usr/share/assimp/models/3DS/IMAGE1.jpg", std::ios::binary);
    const std::string jpeg((std::istreambuf_iterator<char>(in)), {});
    ASSERT_GT(jpeg.size(), 100u);
    const auto* data = reinterpret_cast<const uint8_t*>(jpeg.data());
    uint32_t w = 0, h = 0;
    ASSERT_TRUE(textureHeader(data, jpeg.size(), "texture i.jpg", TextureFormats::PngJpeg, w, h).ok());
    Result<TexturePixels> px = decodeTexture(data, jpeg.size(), "texture i.jpg", TextureFormats::PngJpeg);
    ASSERT_TRUE(px.ok()) << px.error().message;
    EXPECT_EQ(px->width, w);
    EXPECT_EQ(px->height, h);
    EXPECT_EQ(px->rgba.size(), size_t(w) * h * 4);
    Result<TexturePixels> cut = decodeTexture(data, 40, "texture i.jpg", TextureFormats::PngJpeg);
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.error().message.rfind("texture i.jpg is not a readable JPEG image", 0), 0u) << cut.error().message;
}

// Wider than 4096: halved for display, each pixel the mean of the 2x2 block it covers.
TEST(TextureDecode, AnImageWiderThanTheDisplaySizeIsHalved) {
    const std::vector<uint8_t> png = makePng(4098, 3, 8, 0, [](uint32_t y) {
        std::vector<uint8_t> r(4098);
        for (uint32_t x = 0; x < 4098; ++x) r[x] = static_cast<uint8_t>((x % 2) * 100 + y * 10);
        return r;
    });
    Result<TexturePixels> px = decodeTexture(png.data(), png.size(), "texture w.png", TextureFormats::PngJpeg);
    ASSERT_TRUE(px.ok()) << px.error().message;
    EXPECT_EQ(px->fileWidth, 4098u);
    EXPECT_EQ(px->width, 2049u);
    EXPECT_EQ(px->height, 2u);  // rows 0-1 and row 2 alone (blocks counted from the top)
    // Bottom row first: the file's row 2 (values 20 and 120: mean 70), then rows 0 and 1 (0, 100,
    // 10, 110: mean 55).
    EXPECT_EQ(px->rgba[0], 70);
    EXPECT_EQ(px->rgba[size_t(2049) * 4], 55);
    EXPECT_EQ(px->rgba[3], 255);
}

TEST(TextureDecode, OnlyTheFormatsTheModelAllowsReachADecoder) {
    const std::string pgm = pgm16(64, 64);
    Result<TexturePixels> r = decodeTexture(reinterpret_cast<const uint8_t*>(pgm.data()), pgm.size(), "texture skin.png",
                                            TextureFormats::PngJpegTgaBmp);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "texture skin.png is not a PNG, JPEG, TGA or BMP image (it is a PNM/PGM/PPM image)");
    Result<TexturePixels> h = decodeTexture(reinterpret_cast<const uint8_t*>(kHdrZeroRun.data()), kHdrZeroRun.size(),
                                            "texture skin.png", TextureFormats::PngJpeg);
    ASSERT_FALSE(h.ok());
    EXPECT_EQ(h.error().message, "texture skin.png is not a PNG or JPEG image (it is a Radiance HDR image)");
}

TEST(HdrDecode, ZeroLengthRunsAndNulHeaderLinesAreRefused) {
    auto decode = [](const std::string& s) { return decodeHdrImage(reinterpret_cast<const uint8_t*>(s.data()), s.size(), "e.hdr"); };
    ASSERT_TRUE(decode(kHdrHead + kHdrRow).ok());
    Result<HdrImage> zero = decode(kHdrZeroRun);
    ASSERT_FALSE(zero.ok());
    EXPECT_EQ(zero.error().message, "e.hdr: bad run-length data in row 1");
    Result<HdrImage> nul = decode(std::string("#?RADIANCE\n\0\n-Y 16384 +X 32768\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n", 65) + kHdrRow);
    ASSERT_FALSE(nul.ok());
    EXPECT_EQ(nul.error().message, "e.hdr: a header line holds a NUL byte");
}

// The attack's files through `render`: each texture is left out with one warning naming it
// and the render succeeds, in seconds.
TEST(ImageGuard, RenderLeavesOutTexturesThatAreNotPngOrJpeg) {
    const std::string dir = testing::tempDir();
    struct Case {
        const char* file;
        std::string bytes, phrase;
    } cases[] = {
        {"pgm16.png", pgm16(256, 256), "texture pgm16.png is not a PNG or JPEG image (it is a PNM/PGM/PPM image)"},
        {"zero_run.png", kHdrZeroRun, "texture zero_run.png is not a PNG or JPEG image (it is a Radiance HDR image)"},
    };
    for (const Case& c : cases) {
        writeBytes(dir + "/" + c.file, c.bytes);
        const std::string model = dir + "/" + c.file + ".gltf";
        ASSERT_TRUE(g::write(texturedQuad(c.file), model));
        const RunResult r = renderQuad(model, dir);
        ASSERT_FALSE(r.timedOut) << c.file;
        EXPECT_FALSE(r.signaled) << c.file;
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.err, checkerWarning(model, c.phrase));
    }
}

// An environment map with a NUL header line, or a zero-length run: one line, exit 3, at once.
TEST(ImageGuard, RenderRefusesADamagedEnvironmentMapInOneLine) {
    const std::string dir = testing::tempDir();
    const std::string model = dir + "/plain.gltf";
    ASSERT_TRUE(g::write(texturedQuad(""), model));
    const std::string nul = dir + "/nul.hdr", zero = dir + "/zero.hdr";
    writeBytes(nul, std::string("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\0\n-Y 32768 +X 32768\n\n-Y 1 +X 8\n", 65) + kHdrRow);
    writeBytes(zero, kHdrZeroRun);
    for (const auto& [file, why] : {std::pair{nul, "a header line holds a NUL byte"}, std::pair{zero, "bad run-length data in row 1"}}) {
        const RunResult r = renderQuad(model, dir, {}, {"--env", file});
        ASSERT_FALSE(r.timedOut) << file;
        EXPECT_EQ(r.exitCode, 3) << r.err;
        EXPECT_EQ(r.err, "rigview: " + file + ": " + why + "\n");
    }
}

// One PNG larger than the display size (4608x4608, a few kilobytes of file) behind 216
// samplers: decoded once, in the worker, halved to 2304x2304, uploaded for at most four
// samplers; the render succeeds with no warning. (An 8192x8192 one behind 216 samplers took 8 GB
// and four minutes when each sampler decoded its own copy.)
TEST(ImageGuard, OneHugePngSharedByManySamplersIsDecodedOnce) {
    const std::string dir = testing::tempDir();
    writeBytes(dir + "/huge.png", greyPng(4608, 4608, 90));
    const std::string model = dir + "/shared.gltf";
    ASSERT_TRUE(g::write(texturedQuad("huge.png"), model));
    nlohmann::json doc;
    {
        std::ifstream in(model);
        in >> doc;
    }
    const int wraps[] = {33071, 33648, 10497}, mags[] = {9728, 9729};
    const int mins[] = {9728, 9729, 9984, 9985, 9986, 9987};
    doc["samplers"] = nlohmann::json::array();
    doc["textures"] = nlohmann::json::array();
    nlohmann::json material = doc["materials"][0];
    doc["materials"] = nlohmann::json::array();
    for (int i = 0; i < 216; ++i) {
        doc["samplers"].push_back({{"wrapS", wraps[i % 3]}, {"wrapT", wraps[(i / 3) % 3]}, {"magFilter", mags[(i / 9) % 2]},
                                   {"minFilter", mins[(i / 18) % 6]}});
        doc["textures"].push_back({{"sampler", i}, {"source", 0}});
        material["pbrMetallicRoughness"]["baseColorTexture"] = {{"index", i}};
        doc["materials"].push_back(material);
    }
    writeBytes(model, doc.dump());
    const auto start = std::chrono::steady_clock::now();
    const RunResult r = renderQuad(model, dir);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::printf("render of one 4608x4608 PNG behind 216 samplers: %.1f s\n", seconds);
}

// Two 512x512 textures under a budget of 1 MiB (RIGVIEW_MAX_IMAGE_MB): the first is drawn,
// the second left out with one warning naming it and the budget.
TEST(ImageGuard, TexturesPastTheModelsBudgetAreLeftOutNamingTheFirst) {
    const std::string dir = testing::tempDir();
    writeBytes(dir + "/a.png", greyPng(512, 512, 40));
    writeBytes(dir + "/b.png", greyPng(512, 512, 200));
    g::Document d = texturedQuad("a.png");
    g::Material second = d.materials[0];
    second.textureUri = "b.png";
    d.materials.push_back(second);
    g::Mesh other = d.meshes[0];
    other.material = 1;
    d.meshes.push_back(other);
    g::Node n;
    n.name = "second";
    n.mesh = 1;
    d.nodes.push_back(n);
    const std::string model = dir + "/two.gltf";
    ASSERT_TRUE(g::write(d, model));
    const RunResult r = renderQuad(model, dir, {"RIGVIEW_MAX_IMAGE_MB=1"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, checkerWarning(model, "texture b.png not decoded: the model's textures together would take more than 1 MiB "
                                           "(512x512 pixels here, 1 MiB before it)"));
    const RunResult whole = renderQuad(model, dir);
    EXPECT_EQ(whole.exitCode, 0) << whole.err;
    EXPECT_EQ(whole.err, "");
}

// The environment map's worker answers with pixels of the size it states, or the answer is
// refused: a forged frame from a worker taken over is one line, never a read past its end.
TEST(ImageGuard, AForgedEnvironmentAnswerIsRefused) {
    const std::string dir = testing::tempDir();
    const std::string hdr = dir + "/e.hdr";
    writeBytes(hdr, kHdrHead + kHdrRow);
    IsolationConfig config;
    config.enabled = true;
    config.timeoutSeconds = 30;
    config.workerExe = kExe;
    Result<HdrImage> ok = decodeEnvironmentIsolated(hdr, config);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_EQ(ok->width, 8);
    EXPECT_EQ(ok->rgbaHalf.size(), 8u * 4u);
    const std::string forged = dir + "/forged.sh";
    // The magic, 8192 x 4096, then 8 bytes of "pixels".
    writeBytes(forged, "#!/bin/sh\nprintf 'RIGVHDR\\000\\000\\040\\000\\000\\000\\020\\000\\000ABCDEFGH' >&3\n");
    ASSERT_EQ(::chmod(forged.c_str(), 0755), 0);
    config.workerExe = forged;
    Result<HdrImage> bad = decodeEnvironmentIsolated(hdr, config);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, hdr + ": the image decoder sent back a broken image (a size that does not match its pixels)");
}

}  // namespace
}  // namespace rig
