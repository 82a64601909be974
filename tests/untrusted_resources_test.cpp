// Files a model brings with it, end to end through the command line: textures (embedded in a
// data: URI, or a file beside the model), state machine files and a model with many clips.
// Each is refused, or handled, within limits: one line naming the file, in a few seconds,
// never a read of the whole of a huge file or a decode of a huge image. The large inputs are
// made here, in the test's temporary folder (a sparse file costs no disk).
#include <gtest/gtest.h>
#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "support/gltf_writer.h"
#include "support/run.h"

namespace rig {
namespace {

namespace g = testing::gltf;
using testing::run;
using testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kSimpleSkin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";

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

// A valid black RGBA PNG of w x h pixels. Its rows deflate to about a thousandth of their
// size, so 8193x8193 (256 MiB of pixels) is about a quarter of a megabyte of file.
std::vector<uint8_t> blackPng(uint32_t w, uint32_t h) {
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> ihdr;
    put32(ihdr, w);
    put32(ihdr, h);
    ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, no filter, no interlace
    chunk(png, "IHDR", ihdr);
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 15, 9, Z_RLE), Z_OK);
    const std::vector<uint8_t> row(1 + size_t(w) * 4, 0);  // filter byte 0, then the pixels
    std::vector<uint8_t> idat, buf(1 << 16);
    for (uint32_t y = 0; y <= h; ++y) {
        z.next_in = const_cast<uint8_t*>(row.data());
        z.avail_in = y < h ? static_cast<uInt>(row.size()) : 0;
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

std::string writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A glTF whose PNG (in a data: URI) is one pixel over the cap each way, 8193x8193: its 256 MiB
// of pixels are never decoded; the quad is drawn in the material's colour, with one warning
// line, and the command succeeds. (16384x16384, 1 MB of glTF, took minutes and 3.5 GB.)
TEST(UntrustedResources, RenderRefusesAHugeEmbeddedImageFromItsHeader) {
    const std::string dir = testing::tempDir();
    const std::vector<uint8_t> png = blackPng(8193, 8193);
    ASSERT_LT(png.size(), size_t(1) << 20);
    const std::string model = dir + "/huge_data_uri.gltf";
    ASSERT_TRUE(g::write(texturedQuad("data:image/png;base64," + g::base64(png)), model));
    const RunResult r = run(kExe, {"render", model, "-o", dir + "/a.png", "--size", "64x48"}, 60.0);
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "rigview: " + model +
                         ": warning: embedded texture *0 is 8193x8193 pixels, more than 8192x8192: drawn as a magenta "
                         "checker\n");
    // A small image the same way is drawn, with no warning.
    const std::string small = dir + "/small_data_uri.gltf";
    ASSERT_TRUE(g::write(texturedQuad("data:image/png;base64," + g::base64(blackPng(64, 64))), small));
    const RunResult ok = run(kExe, {"render", small, "-o", dir + "/b.png", "--size", "64x48"}, 60.0);
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_EQ(ok.err, "");
}

// A 16 GiB (sparse) texture file beside the model is refused by its size, unread.
TEST(UntrustedResources, RenderRefusesAHugeTextureFileUnread) {
    const std::string dir = testing::tempDir();
    const int fd = ::open((dir + "/huge.png").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t(16) << 30), 0);
    ::close(fd);
    const std::string model = dir + "/huge_file.gltf";
    ASSERT_TRUE(g::write(texturedQuad("huge.png"), model));
    const RunResult r = run(kExe, {"render", model, "-o", dir + "/a.png", "--size", "64x48"}, 60.0);
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "rigview: " + model +
                         ": warning: texture huge.png not read: larger than 256 MiB: drawn as a magenta checker\n");
}

// A state machine file nested 100,000 deep (200 KB): refused at the 65th level, with its line
// and column, at once.
TEST(UntrustedResources, DeeplyNestedMachineFileIsRefusedAtTheDepthCap) {
    const std::string dir = testing::tempDir();
    const std::string machine = writeText(dir + "/deep.machine.json", "{\"states\":\n" + std::string(100000, '[') + std::string(100000, ']') + "}");
    const RunResult r = run(kExe, {"pose", kSimpleSkin, "--machine", machine, "-o", dir + "/p.json"}, 60.0);
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.err, "rigview: " + machine + ":2:64: nested more than 64 deep\n");
}

// A machine file with a long key over many values: its parse stays linear in the file (the
// line of every value is kept without copying the key for each), and the key is refused.
TEST(UntrustedResources, LongKeyOverManyValuesParsesInLinearTime) {
    const std::string dir = testing::tempDir();
    std::string text = "{\n\"" + std::string(400000, 'k') + "\": [";
    for (int i = 0; i < 200000; ++i) text += i ? ",0" : "0";
    text += "]}";
    const std::string machine = writeText(dir + "/wide.machine.json", text);
    const RunResult r = run(kExe, {"pose", kSimpleSkin, "--machine", machine, "-o", dir + "/p.json"}, 60.0);
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.err.rfind("rigview: " + machine + ":2: unknown field 'kkkk", 0), 0u) << r.err;
}

// 5,000 two-key animations: compress takes time in proportion to the clips (it was their
// square: one Animator, with a sampling plan for every clip, per attempt of each clip).
TEST(UntrustedResources, CompressIsLinearInTheClips) {
    const std::string dir = testing::tempDir();
    g::Document d = texturedQuad("");
    d.materials[0].textureUri.clear();
    for (int a = 0; a < 5000; ++a) {
        g::Animation anim;
        anim.name = "clip" + std::to_string(a);
        g::Channel c;
        c.node = 0;
        c.path = "translation";
        c.times = {0.0f, 1.0f};
        g::appendVec3(c.values, {0, 0, 0});
        g::appendVec3(c.values, {0, 0.001f * float(a), 0});
        anim.channels.push_back(c);
        d.animations.push_back(anim);
    }
    const std::string model = dir + "/many_clips.gltf";
    ASSERT_TRUE(g::write(d, model));
    // The time limit guards against the quadratic cost (minutes here); it measures nothing.
    const RunResult r = run(kExe, {"compress", model, "-o", dir + "/c.glb"}, 100.0);
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::ifstream out(dir + "/c.glb", std::ios::binary | std::ios::ate);
    EXPECT_GT(static_cast<long long>(out.tellg()), 0);
}

}  // namespace
}  // namespace rig
