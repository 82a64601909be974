// Image-based lighting (render/environment.h), headless through EGL (llvmpipe in CI): the
// bundled studio .hdr loaded and prefiltered like three.js r187's PMREMGenerator, checked against
// the environment's own description (tools/make_studio_env.py), against a CPU integration of the
// GGX lobe over the .hdr, and against three's DFG table; bad .hdr files refused with one line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "render/dfg_lut.h"
#include "render/environment.h"
#include "render/environment_cache.h"
#include "import/images/hdr_image.h"
#include "render/offscreen.h"
#include "support/gl_environment.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

const std::string kStudio = std::string(RIGVIEW_SOURCE_DIR) + "/assets/env/studio.hdr";

// The prefiltered-levels cache (render/environment_cache.h) of this process: a fresh folder,
// so the tests below check levels computed here, not ones an earlier run left.
const fs::path kCacheHome = [] {
    char tmpl[] = "/tmp/rigview-envcache-XXXXXX";
    const char* dir = ::mkdtemp(tmpl);
    const fs::path path = dir ? fs::path(dir) : fs::temp_directory_path();
    ::setenv("XDG_CACHE_HOME", path.c_str(), 1);
    ::unsetenv("RIGVIEW_NO_CACHE");
    std::atexit([] {
        std::error_code ec;
        if (const char* d = std::getenv("XDG_CACHE_HOME")) fs::remove_all(d, ec);
    });
    return path;
}();

// Every level of a cube, as half floats, and the DFG texture, read back.
std::vector<uint16_t> cubeTexels(const Environment& env) {
    std::vector<uint16_t> out;
    glBindTexture(GL_TEXTURE_CUBE_MAP, env.radianceCube());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    for (int level = 0; level <= env.maxLod(); ++level) {
        int size = 0;
        glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_POSITIVE_X, level, GL_TEXTURE_WIDTH, &size);
        for (int f = 0; f < 6; ++f) {
            std::vector<uint16_t> face(static_cast<size_t>(size) * size * 4);
            glGetTexImage(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, level, GL_RGBA, GL_HALF_FLOAT, face.data());
            out.insert(out.end(), face.begin(), face.end());
        }
    }
    glBindTexture(GL_TEXTURE_2D, env.dfgLut());
    std::vector<float> dfg(size_t(kDfgLutSize) * kDfgLutSize * 2);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RG, GL_FLOAT, dfg.data());
    for (float v : dfg) out.push_back(static_cast<uint16_t>(std::lround(v * 60000.0f)));
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    return out;
}

std::vector<fs::path> cacheEntries() {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(kCacheHome / "rigview" / "env", ec)) out.push_back(e.path());
    return out;
}

// The studio env's direction for an azimuth (atan2(z, x)) and elevation, in degrees.
glm::vec3 studioDir(float azimDeg, float elevDeg) {
    const float a = glm::radians(azimDeg), e = glm::radians(elevDeg);
    return {std::cos(e) * std::cos(a), std::sin(e), std::cos(e) * std::sin(a)};
}

// Texels of one cube level read back as RGBA floats, looked up like a GL cube map (nearest).
struct CubeLevel {
    int size = 0;
    std::vector<float> faces[6];

    CubeLevel(GLuint cube, int level) {
        glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
        glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_POSITIVE_X, level, GL_TEXTURE_WIDTH, &size);
        for (int f = 0; f < 6; ++f) {
            faces[f].resize(static_cast<size_t>(size) * size * 4);
            glGetTexImage(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, level, GL_RGBA, GL_FLOAT, faces[f].data());
        }
    }
    // The face and (s, t) in [-1, 1] of a direction (GL's table: major axis, sc, tc).
    static int locate(glm::vec3 d, float& s, float& t) {
        const glm::vec3 a = glm::abs(d);
        int face;
        float sc, tc, ma;
        if (a.x >= a.y && a.x >= a.z) {
            face = d.x > 0 ? 0 : 1, sc = d.x > 0 ? -d.z : d.z, tc = -d.y, ma = a.x;
        } else if (a.y >= a.z) {
            face = d.y > 0 ? 2 : 3, sc = d.x, tc = d.y > 0 ? d.z : -d.z, ma = a.y;
        } else {
            face = d.z > 0 ? 4 : 5, sc = d.z > 0 ? d.x : -d.x, tc = -d.y, ma = a.z;
        }
        s = sc / ma;
        t = tc / ma;
        return face;
    }
    glm::vec3 at(glm::vec3 d) const {
        float s, t;
        const int f = locate(d, s, t);
        const int x = std::clamp(static_cast<int>((s + 1.0f) * 0.5f * size), 0, size - 1);
        const int y = std::clamp(static_cast<int>((t + 1.0f) * 0.5f * size), 0, size - 1);
        const float* p = &faces[f][(static_cast<size_t>(y) * size + x) * 4];
        return {p[0], p[1], p[2]};
    }
    // The direction of texel (x, y) of face f (its centre).
    glm::vec3 texelDir(int f, int x, int y) const {
        const float s = (x + 0.5f) / size * 2.0f - 1.0f, t = (y + 0.5f) / size * 2.0f - 1.0f;
        static const glm::vec3 axis[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        static const glm::vec3 right[6] = {{0, 0, -1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {-1, 0, 0}};
        static const glm::vec3 up[6] = {{0, -1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {0, -1, 0}};
        return glm::normalize(axis[f] + s * right[f] + t * up[f]);
    }
};

std::unique_ptr<Environment> loadStudio() {
    auto env = Environment::load(kStudio);
    EXPECT_TRUE(env.ok()) << (env.ok() ? "" : env.error().message);
    return env.ok() ? std::move(env.value()) : nullptr;
}

// The studio environment loaded once for the tests that only read it (a load is seconds on
// llvmpipe), released before the GL context.
class Studio : public ::testing::Test {
protected:
    static void SetUpTestSuite() { env_ = loadStudio(); }
    static void TearDownTestSuite() { env_.reset(); }
    void SetUp() override { ASSERT_TRUE(env_); }
    static std::unique_ptr<Environment> env_;
};
std::unique_ptr<Environment> Studio::env_;

// The prefiltered radiance three's PMREM approximates, by brute force on the CPU: over every
// texel of the .hdr (as rigview decodes it), radiance weighted by the GGX D(H) with V = N = R,
// by N.L and by the texel's solid angle (cos(elevation)), normalized.
glm::dvec3 cpuPrefiltered(const HdrImage& hdr, glm::dvec3 n, double roughness) {
    const double a = roughness * roughness, a2 = a * a, pi = 3.14159265358979323846;
    glm::dvec3 sum(0.0);
    double weight = 0.0;
    for (int row = 0; row < hdr.height; ++row) {  // row 0 = the bottom (GL order)
        const double el = ((row + 0.5) / hdr.height - 0.5) * pi;
        const double ce = std::cos(el), se = std::sin(el);
        for (int x = 0; x < hdr.width; ++x) {
            const double az = ((x + 0.5) / hdr.width - 0.5) * 2.0 * pi;
            const glm::dvec3 l(ce * std::cos(az), se, ce * std::sin(az));
            const double nl = glm::dot(n, l);
            if (nl <= 0.0) continue;
            const double d = 1.0 + a2 + (a2 - 1.0) * nl;  // 2 (N.H^2 (a2 - 1) + 1)
            const double w = nl * ce / (d * d);
            const uint16_t* p = &hdr.rgbaHalf[(static_cast<size_t>(row) * hdr.width + x) * 4];
            sum += w * glm::dvec3(halfToFloat(p[0]), halfToFloat(p[1]), halfToFloat(p[2]));
            weight += w;
        }
    }
    return sum / weight;
}

TEST(Environment, StudioLoadsWithThreesLevels) {
    auto env = loadStudio();
    ASSERT_TRUE(env);
    std::printf("Environment::load(studio.hdr) took %.1f ms (%s)\n", env->loadMilliseconds(),
                testing::gGlContext->description().c_str());
    auto again = loadStudio();
    ASSERT_TRUE(again);
    std::printf("a second load (programs cached by the driver, DFG table computed): %.1f ms\n", again->loadMilliseconds());
    EXPECT_EQ(env->path(), kStudio);
    EXPECT_EQ(env->faceSize(), 256);  // max(256, floorPow2(512 / 4))
    EXPECT_EQ(env->maxLod(), 5);      // log2(256) - 3
    glBindTexture(GL_TEXTURE_CUBE_MAP, env->radianceCube());
    for (int level = 0; level <= env->maxLod(); ++level) {
        GLint w = 0, h = 0, format = 0;
        glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, level, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, level, GL_TEXTURE_HEIGHT, &h);
        glGetTexLevelParameteriv(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, level, GL_TEXTURE_INTERNAL_FORMAT, &format);
        EXPECT_EQ(w, 256 >> level);
        EXPECT_EQ(h, 256 >> level);
        EXPECT_EQ(format, GL_RGBA16F);
    }
    GLint maxLevel = 0;
    glGetTexParameteriv(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAX_LEVEL, &maxLevel);
    EXPECT_EQ(maxLevel, 5);
    EXPECT_FLOAT_EQ(env->roughnessToLod(1.0f), 5.0f);
    EXPECT_FLOAT_EQ(env->roughnessToLod(0.5f), 3.75f);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Level 0 holds the .hdr's radiance in the right directions (three's equirectUv and flipY):
// the numbers of tools/make_studio_env.py, times three's 256/255 RGBE scale.
TEST_F(Studio, MirrorLevelHoldsTheStudioWhereItBelongs) {
    Environment* env = env_.get();
    const CubeLevel level0(env->radianceCube(), 0);
    const float scale = 256.0f / 255.0f;
    const float skyAt30 = 0.45f + 0.35f * std::pow(0.5f, 0.6f);
    // Key light (azimuth 135, elevation 30): radiance 8 on the sky.
    const glm::vec3 key = level0.at(studioDir(135, 30));
    EXPECT_NEAR(key.g, (8.0f + skyAt30) * scale, 0.1f);
    EXPECT_FLOAT_EQ(key.r, key.g);  // neutral grey
    // Its mirror images (z, x and y flipped) are plain sky or ground.
    EXPECT_NEAR(level0.at(studioDir(-135, 30)).g, skyAt30 * scale, 0.02f);
    EXPECT_NEAR(level0.at(studioDir(45, 30)).g, skyAt30 * scale, 0.02f);
    EXPECT_LT(level0.at(studioDir(135, -30)).g, 0.2f);
    // Straight up 0.8, straight down 0.10 (the ground), fill light (15, 10) radiance 3.
    EXPECT_NEAR(level0.at({0, 1, 0}).g, 0.8f * scale, 0.012f);
    EXPECT_NEAR(level0.at({0, -1, 0}).g, 0.10f * scale, 0.002f);
    EXPECT_GT(level0.at(studioDir(15, 10)).g, 3.0f);
    // u = 0.25 is -Z, u = 0.75 is +Z: the fill light (azimuth 15) is near +X, on the +Z side.
    EXPECT_LT(level0.at(studioDir(-15, 10)).g, 1.0f);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// The prefiltered levels against the CPU integral of the same lobe over the .hdr.
TEST_F(Studio, PrefilteredLevelsMatchCpuIntegrationOfTheGgxLobe) {
    Environment* env = env_.get();
    auto hdr = readHdrImage(kStudio);
    ASSERT_TRUE(hdr.ok());
    // Relative tolerances over the measured worst cases (18 texel directions and the key light,
    // llvmpipe): level 5 0.3% (key 1.9%), level 4 0.3%, level 3 0.7%, level 2 8.4%, level 1 1.8%.
    // The integrated levels read the 16^2 source mip; the sampled ones (1, 2) use three's 256
    // samples of a mip chain chosen by each sample's solid angle, whose bias near the lights'
    // edges is three's own (rigview's level 2 is within 0.5% of three's: LevelsMatchThreesOwnPmrem).
    struct Case {
        int level;
        double tolerance;
    };
    for (const Case c : {Case{5, 0.03}, Case{4, 0.02}, Case{3, 0.03}, Case{2, 0.12}, Case{1, 0.05}}) {
        const CubeLevel lv(env->radianceCube(), c.level);
        const double roughness = 1.0 - std::sqrt(1.0 - c.level / 5.0);
        double worst = 0.0, sumErr = 0.0;
        int n = 0;
        for (int f = 0; f < 6; ++f) {
            for (int i = 0; i < 3; ++i) {
                const int x = (lv.size * (2 * i + 1)) / 6, y = (lv.size * (5 - 2 * i)) / 6;
                const glm::vec3 d = lv.texelDir(f, x, y);
                const glm::dvec3 cpu = cpuPrefiltered(hdr.value(), glm::dvec3(d), roughness);
                const glm::vec3 gpu = lv.at(d);
                const double err = std::abs(gpu.g - cpu.g) / cpu.g;
                worst = std::max(worst, err);
                sumErr += err;
                ++n;
            }
        }
        // Toward the key light: the brightest, sharpest part of each level.
        const glm::vec3 key = studioDir(135, 30);
        const double keyErr = std::abs(lv.at(key).g - cpuPrefiltered(hdr.value(), glm::dvec3(key), roughness).g) /
                              cpuPrefiltered(hdr.value(), glm::dvec3(key), roughness).g;
        std::printf("level %d (roughness %.4f): GPU vs CPU integral, %d directions: worst %.2f%%, mean %.2f%%, key %.2f%%\n",
                    c.level, roughness, n, 100 * worst, 100 * sumErr / n, 100 * keyErr);
        EXPECT_LT(worst, c.tolerance) << "level " << c.level;
        EXPECT_LT(keyErr, c.tolerance) << "level " << c.level;
    }
}

// three r187's DFG LUT (src/renderers/shaders/DFGLUTData.js, 16x16 RG16F), a few texels decoded
// from its half floats: reference values, not code. x = roughness column, y = N.V row.
struct DfgTexel {
    int x, y;
    float scale, bias;
};
const DfgTexel kThreeDfg[] = {
    {0, 15, 1.0f, 0.0f},                  // 0x3c00, 0x0000
    {15, 15, 0.3452148f, 7.051229e-05f},  // 0x3586, 0x049f
    {8, 8, 0.8217773f, 0.01651001f},      // 0x3a93, 0x243a
    {4, 10, 0.9814453f, 0.006332397f},    // 0x3bda, 0x1e7c
    {15, 4, 0.5839844f, 0.01041412f},     // 0x38ac, 0x2155
    {2, 12, 0.9980469f, 0.0005836487f},   // 0x3bfc, 0x10c8
    {12, 2, 0.7519531f, 0.0369873f},      // 0x3a04, 0x28bc
    {7, 5, 0.7958984f, 0.06069946f},      // 0x3a5e, 0x2bc5
    {0, 0, 0.1470947f, 0.8520508f},       // 0x30b5, 0x3ad1
};
// The grazing row (N.V = 1/32) at medium roughness, where three's scale is lower than the
// converged integral (by 0.014 at most; its bias agrees): {x, y, scale, bias}.
const DfgTexel kThreeDfgGrazing[] = {
    {5, 0, 0.6020508f, 0.326416f},  // 0x38d1, 0x3539
    {6, 0, 0.684082f, 0.2539062f},  // 0x3979, 0x3410
};

TEST_F(Studio, DfgLutMatchesThreesTable) {
    Environment* env = env_.get();
    std::vector<float> rg(kDfgLutSize * kDfgLutSize * 2);
    glBindTexture(GL_TEXTURE_2D, env->dfgLut());
    GLint w = 0, format = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    EXPECT_EQ(w, 16);
    EXPECT_EQ(format, GL_RG16F);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RG, GL_FLOAT, rg.data());
    for (const DfgTexel& t : kThreeDfg) {
        const size_t i = (static_cast<size_t>(t.y) * kDfgLutSize + t.x) * 2;
        EXPECT_NEAR(rg[i], t.scale, 1.5e-3) << "texel " << t.x << "," << t.y;
        EXPECT_NEAR(rg[i + 1], t.bias, 1e-3) << "texel " << t.x << "," << t.y;
    }
    for (const DfgTexel& t : kThreeDfgGrazing) {
        const size_t i = (static_cast<size_t>(t.y) * kDfgLutSize + t.x) * 2;
        EXPECT_NEAR(rg[i], t.scale, 0.016) << "texel " << t.x << "," << t.y;
        EXPECT_NEAR(rg[i + 1], t.bias, 1e-3) << "texel " << t.x << "," << t.y;
    }
    // The whole table, for the record.
    double worst = 0.0;
    for (const DfgTexel& t : kThreeDfg) {
        const size_t i = (static_cast<size_t>(t.y) * kDfgLutSize + t.x) * 2;
        worst = std::max({worst, std::abs(rg[i] - double(t.scale)), std::abs(rg[i + 1] - double(t.bias))});
    }
    std::printf("DFG LUT vs three's at %zu texels: worst %.5f\n", std::size(kThreeDfg), worst);
    // The table's cost inside load() (computed once per process): one more, timed.
    const auto start = std::chrono::steady_clock::now();
    double a = 0.0, b = 0.0, sum = 0.0;
    for (int y = 0; y < kDfgLutSize; ++y) {
        for (int x = 0; x < kDfgLutSize; ++x) {
            integrateDfg((x + 0.5) / kDfgLutSize, (y + 0.5) / kDfgLutSize, 4096, a, b);
            sum += a + b;
        }
    }
    std::printf("DFG table integration (256 texels x 4096 samples): %.1f ms\n",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    EXPECT_GT(sum, 0.0);
}

// drawBackground: the environment through a camera, rotated, blurred, tone mapped, sRGB-encoded.
// The centre pixel (R) of a 33x33 background looking along `dir`.
int backgroundCentre(Environment& env, glm::vec3 dir, float rotationDeg, float blur, int toneMap, float exposure) {
    auto t = OffscreenTarget::create(33, 33, 1);
    EXPECT_TRUE(t.ok());
    if (!t.ok()) return -1;
    t.value()->bind();
    glViewport(0, 0, 33, 33);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const glm::vec3 up = std::abs(dir.y) > 0.9f ? glm::vec3(0, 0, -1) : glm::vec3(0, 1, 0);
    const glm::mat4 view = glm::lookAt(glm::vec3(1.0f, 2.0f, 3.0f), glm::vec3(1.0f, 2.0f, 3.0f) + dir, up);
    const glm::mat4 proj = glm::perspective(glm::radians(30.0f), 1.0f, 0.1f, 100.0f);
    env.drawBackground(glm::inverse(proj * view), rotationDeg, blur, toneMap, exposure);
    const std::vector<uint8_t> px = t.value()->readPixels();
    return px[(16 * 33 + 16) * 4];
}

double srgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }

TEST_F(Studio, BackgroundShowsTheEnvironmentRotatedBlurredAndToneMapped) {
    Environment* env = env_.get();
    const glm::vec3 key = studioDir(135, 30);
    // Sharp, no tone curve: the key light saturates; the ground (0.10) is sRGB 0.349.
    EXPECT_EQ(backgroundCentre(*env, key, 0, 0, 0, 1.0f), 255);
    EXPECT_NEAR(backgroundCentre(*env, {0, -1, 0}, 0, 0, 0, 1.0f), 255 * srgb(0.1 * 256 / 255), 1.5);
    // Exposure scales before the curve.
    EXPECT_NEAR(backgroundCentre(*env, {0, -1, 0}, 0, 0, 0, 2.0f), 255 * srgb(0.2 * 256 / 255), 1.5);
    // Rotated 90 degrees about +Y, the key light has moved to R_y(90) * key.
    const glm::vec3 moved = glm::mat3(glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), glm::vec3(0, 1, 0))) * key;
    EXPECT_LT(backgroundCentre(*env, key, 90, 0, 0, 1.0f), 240);
    EXPECT_EQ(backgroundCentre(*env, moved, 90, 0, 0, 1.0f), 255);
    const glm::vec3 back = environmentLookupRotation(90) * moved;
    EXPECT_NEAR(back.x, key.x, 1e-5);
    EXPECT_NEAR(back.z, key.z, 1e-5);
    // Blur 1 reads the roughest level; at exposure 0.2 nothing clamps.
    const CubeLevel rough(env->radianceCube(), env->maxLod());
    const double expected = 255 * srgb(0.2 * rough.at(key).g);
    EXPECT_NEAR(backgroundCentre(*env, key, 0, 1.0f, 0, 0.2f), expected, 3.0);
    EXPECT_LT(backgroundCentre(*env, key, 0, 1.0f, 0, 0.2f), backgroundCentre(*env, key, 0, 0.0f, 0, 0.2f));
    // A tone curve other than none changes the pixel (tonemap.frag is linked and used).
    EXPECT_NE(backgroundCentre(*env, {0, 1, 0}, 0, 0, 1, 1.0f), backgroundCentre(*env, {0, 1, 0}, 0, 0, 0, 1.0f));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// three r187 itself (tools/three_render/pmrem_dump.mjs: its PMREMGenerator in Chromium on
// SwiftShader, every texel of every level read back) against rigview's levels.
TEST_F(Studio, LevelsMatchThreesOwnPmrem) {
    const fs::path out = fs::temp_directory_path() / ("rigview_three_pmrem_" + std::to_string(::getpid()) + ".bin");
    const std::string cmd = "node \"" + std::string(RIGVIEW_SOURCE_DIR) + "/tools/three_render/pmrem_dump.mjs\" \"" + kStudio +
                            "\" \"" + out.string() + "\"";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << " (tools/setup.sh installs Chromium and the npm packages)";
    std::vector<float> data(fs::file_size(out) / 4);
    std::ifstream(out, std::ios::binary).read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size() * 4));
    fs::remove(out);
    Environment* env = env_.get();
    // Measured (llvmpipe against SwiftShader): worst 0.8% (level 0, a light's edge; half-float
    // rounding of the 4-tap mean), mean 0.03-0.16% per level.
    size_t offset = 0;
    for (int level = 0; level <= env->maxLod(); ++level) {
        const CubeLevel lv(env->radianceCube(), level);
        const size_t n = static_cast<size_t>(lv.size) * lv.size;
        ASSERT_LE(offset + 6 * n * 3, data.size());
        double worst = 0.0, sum = 0.0, worstAbs = 0.0;
        std::vector<double> errs;
        for (int f = 0; f < 6; ++f) {
            for (size_t i = 0; i < n; ++i) {
                for (int c = 0; c < 3; ++c) {
                    const double t = data[offset + (f * n + i) * 3 + c], r = lv.faces[f][i * 4 + c];
                    const double e = std::abs(r - t) / std::max(t, 0.05);
                    worst = std::max(worst, e);
                    worstAbs = std::max(worstAbs, std::abs(r - t));
                    sum += e;
                    errs.push_back(e);
                }
            }
        }
        std::sort(errs.begin(), errs.end());
        std::printf("level %d vs three: worst %.3f%% (abs %.4f), p99 %.3f%%, mean %.4f%%\n", level, 100 * worst, worstAbs,
                    100 * errs[errs.size() * 99 / 100], 100 * sum / errs.size());
        EXPECT_LT(worst, 0.02) << "level " << level;
        EXPECT_LT(sum / errs.size(), 0.004) << "level " << level;
        offset += 6 * n * 3;
    }
    EXPECT_EQ(offset, data.size());
}

TEST(Environment, DefaultPathIsTheBundledStudio) {
    const std::string p = defaultEnvironmentPath();
    EXPECT_TRUE(fs::is_regular_file(p)) << p;
    EXPECT_EQ(fs::path(p).filename(), "studio.hdr");
    EXPECT_EQ(fs::path(p).parent_path().filename(), "env");
}

// A map of any size is prefiltered into a cube of at most 512 a face: wider than 2048 it is
// halved first (8192x4096, the largest read, took minutes at a 2048 cube), each texel the mean
// of its block.
TEST(EnvironmentBound, HugeMapsAreHalvedBeforePrefiltering) {
    EXPECT_EQ(Environment::cubeSizeFor(512), 256);  // the studio
    EXPECT_EQ(Environment::cubeSizeFor(2048), 512);
    EXPECT_EQ(Environment::cubeSizeFor(4096), 512);  // halved once
    EXPECT_EQ(Environment::cubeSizeFor(4100), 256);  // halved twice, to 1025
    EXPECT_EQ(Environment::cubeSizeFor(8192), 512);
    HdrImage big;
    big.width = 3;
    big.height = 3;
    for (int i = 0; i < 9; ++i) {
        const uint16_t v = halfTowardZero(static_cast<float>(i));
        big.rgbaHalf.insert(big.rgbaHalf.end(), {v, v, v, 0x3c00});
    }
    const HdrImage half = halveHdrImage(big);
    ASSERT_EQ(half.width, 2);
    ASSERT_EQ(half.height, 2);
    EXPECT_EQ(halfToFloat(half.rgbaHalf[0]), 2.0f);       // (0 + 1 + 3 + 4) / 4
    EXPECT_EQ(halfToFloat(half.rgbaHalf[4]), 3.5f);       // (2 + 5) / 2
    EXPECT_EQ(halfToFloat(half.rgbaHalf[8]), 6.5f);       // (6 + 7) / 2
    EXPECT_EQ(halfToFloat(half.rgbaHalf[12]), 8.0f);      // 8 alone
    EXPECT_EQ(halfToFloat(half.rgbaHalf[3]), 1.0f);       // alpha
}

// Bad .hdr files: one line naming the file, no crash, no hang, no GL object left bound.
class BadHdr : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("rigview_env_test_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        std::ifstream in(kStudio, std::ios::binary);
        studio_.assign(std::istreambuf_iterator<char>(in), {});
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string write(const std::string& name, const std::string& bytes) {
        const std::string p = (dir_ / name).string();
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }
    void expectRefused(const std::string& path, const std::string& why) {
        auto env = Environment::load(path);
        ASSERT_FALSE(env.ok()) << path;
        const std::string& m = env.error().message;
        EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
        EXPECT_NE(m.find(why), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    }
    fs::path dir_;
    std::string studio_;
};

TEST_F(BadHdr, EachGivesOneLineNamingTheFile) {
    ASSERT_GT(studio_.size(), 1000u);
    const size_t header = studio_.find("+X 512\n") + 7;
    expectRefused(write("truncated.hdr", studio_.substr(0, studio_.size() / 2)), "truncated (pixel data ends in row");
    expectRefused(write("header_only.hdr", studio_.substr(0, header)), "truncated (pixel data ends in row 1 of 256)");
    expectRefused(write("png.hdr", std::string("\x89PNG\r\n\x1a\n") + std::string(100, '\0')), "not a Radiance .hdr image");
    expectRefused(write("empty.hdr", ""), "not a Radiance .hdr image");
    expectRefused(write("text.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 2 +X 2\n"), "pixel format \"32-bit_rle_xyze\"");
    expectRefused(write("crlf.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\r\n"), "bad resolution line \"-Y 2 +X 2?\"");
    expectRefused(write("huge.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 20000 +X 40000\n"),
                  "40000x20000 pixels, more than 8192x4096");
    expectRefused(write("flipped.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+Y 2 +X 2\n"), "orientation");
    std::string longHeader = "#?RADIANCE\n";
    while (longHeader.size() < 200000) longHeader += "# a comment line that never ends the header\n";
    expectRefused(write("long_header.hdr", longHeader), "header longer than 64 KiB");
    expectRefused(write("no_newline.hdr", "#?RADIANCE" + std::string(300000, 'x')), "header longer than 64 KiB");
    // Run-length scanlines of an 8 x 1 image (2 2 0 8, then four channels of runs and dumps):
    // a zero count (stb_image would loop on it for good), a run past the scanline's end, a
    // scanline length other than the width.
    const std::string small = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n";
    const std::string goodRow = std::string("\x02\x02\x00\x08", 4) + "\x88\x40\x88\x40\x88\x40\x88\x81";
    auto ok = Environment::load(write("small.hdr", small + goodRow));
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    expectRefused(write("zero_run.hdr", small + std::string("\x02\x02\x00\x08\x00", 5) + goodRow.substr(5)),
                  "bad run-length data in row 1");
    expectRefused(write("long_run.hdr", small + std::string("\x02\x02\x00\x08\x89\x40", 6) + goodRow.substr(6)),
                  "bad run-length data in row 1");
    expectRefused(write("long_dump.hdr", small + std::string("\x02\x02\x00\x08\x09", 5) + std::string(9, '\x40')),
                  "bad run-length data in row 1");
    expectRefused(write("bad_length.hdr", small + std::string("\x02\x02\x00\x09", 4) + goodRow.substr(4)),
                  "scanline length other than the width");
    expectRefused(write("cut_row.hdr", small + goodRow.substr(0, 9)), "truncated (pixel data ends in row 1 of 1)");
    // A header line holding a NUL: a decoder reading lines as C strings takes it for the empty
    // line that ends the header and then reads the next line as the resolution (another reader
    // then disagrees about where the pixels start: 2 GiB of them from 68 bytes, or a loop).
    expectRefused(write("nul_line.hdr", std::string("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\0\n-Y 32768 +X 32768\n\n-Y 1 +X 8\n", 65) +
                                            goodRow),
                  "a header line holds a NUL byte");
    // Not regular files, or none.
    const std::string fifo = (dir_ / "pipe.hdr").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expectRefused(fifo, "named pipe");
    expectRefused(dir_.string(), "folder");
    expectRefused((dir_ / "missing.hdr").string(), "no such file");
    // Larger than any acceptable .hdr (sparse: no disk used).
    const std::string big = (dir_ / "big.hdr").string();
    { std::ofstream(big, std::ios::binary) << "#?RADIANCE\n"; }
    fs::resize_file(big, kMaxHdrFileBytes + 1);
    expectRefused(big, "larger than");
}

// The half-float conversion is three's: toward zero, clamped.
TEST(Environment, HalfFloatsRoundTowardZeroLikeThree) {
    EXPECT_EQ(halfTowardZero(1.0f), 0x3c00);
    EXPECT_EQ(halfTowardZero(8.0313725f), 0x4804);  // 8 * 256 / 255: 8.03125 (nearest would be too)
    EXPECT_EQ(halfTowardZero(1.0f + 1.9f / 1024), 0x3c01);  // nearest would be 0x3c02
    EXPECT_EQ(halfTowardZero(1e6f), 0x7bff);                // 65504
    EXPECT_EQ(halfTowardZero(3e-5f), 0x01f7);               // subnormal
    EXPECT_EQ(halfTowardZero(0.0f), 0x0000);
    EXPECT_FLOAT_EQ(halfToFloat(0x3586), 0.3452148f);
    EXPECT_FLOAT_EQ(halfToFloat(0x01f7), 2.9981136e-05f);
}

}  // namespace
}  // namespace rig

namespace rig {
namespace {

// The first load of an image computes its levels and keeps them; the next load reads them back
// bit for bit (the same radiance cube and DFG table), and a damaged or foreign entry is computed
// again and replaced, never an error. Load times are printed, not asserted.
TEST(EnvironmentCache, TheNextLoadReadsTheSameLevelsAndADamagedEntryIsComputedAgain) {
    // A small image of its own (flat RGBE scanlines, a gradient), so it has its own entry.
    const fs::path hdr = kCacheHome / "cache-test.hdr";
    {
        std::ofstream out(hdr, std::ios::binary);
        out << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 32 +X 64\n";
        for (int y = 0; y < 32; ++y) {
            for (int x = 0; x < 64; ++x) {
                out << static_cast<char>(100 + x) << static_cast<char>(60 + 4 * y) << static_cast<char>(90)
                    << static_cast<char>(129);
            }
        }
    }
    const std::vector<fs::path> earlier = cacheEntries();
    auto first = Environment::load(hdr.string());
    ASSERT_TRUE(first.ok()) << first.error().message;
    EXPECT_FALSE(first.value()->fromCache());
    const std::vector<fs::path> before = cacheEntries();
    fs::path entry;
    for (const fs::path& p : before) {
        if (std::find(earlier.begin(), earlier.end(), p) == earlier.end()) entry = p;
    }
    ASSERT_FALSE(entry.empty()) << "no cache entry written under " << kCacheHome;
    const std::vector<uint16_t> computed = cubeTexels(*first.value());

    auto second = Environment::load(hdr.string());
    ASSERT_TRUE(second.ok()) << second.error().message;
    EXPECT_TRUE(second.value()->fromCache());
    EXPECT_TRUE(cubeTexels(*second.value()) == computed);
    std::printf("computed %.1f ms, from the cache %.1f ms\n", first.value()->loadMilliseconds(),
                second.value()->loadMilliseconds());

    // Damaged: a byte of the header changed, then the file cut short. Each time computed again
    // (the same texels) and the entry rewritten whole.
    for (int damage = 0; damage < 2; ++damage) {
        if (damage == 0) {
            std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(3);
            f.put('X');
        } else {
            fs::resize_file(entry, fs::file_size(entry) / 2);
        }
        auto again = Environment::load(hdr.string());
        ASSERT_TRUE(again.ok()) << again.error().message;
        EXPECT_FALSE(again.value()->fromCache()) << "damage " << damage;
        EXPECT_TRUE(cubeTexels(*again.value()) == computed) << "damage " << damage;
        auto next = Environment::load(hdr.string());
        ASSERT_TRUE(next.ok());
        EXPECT_TRUE(next.value()->fromCache()) << "damage " << damage << ": the entry was not rewritten";
    }

    // RIGVIEW_NO_CACHE=1: neither read nor written.
    ::setenv("RIGVIEW_NO_CACHE", "1", 1);
    auto uncached = Environment::load(hdr.string());
    ::unsetenv("RIGVIEW_NO_CACHE");
    ASSERT_TRUE(uncached.ok());
    EXPECT_FALSE(uncached.value()->fromCache());
    EXPECT_EQ(cacheEntries().size(), before.size());
}

}  // namespace
}  // namespace rig
