// Physically based drawing (shaders/pbr.frag through Renderer), headless: alpha modes and
// their order, double-sided culling, the texture transform, sRGB decoding of base colour
// textures, the tone curves against their formulas, the missing-texture checker. Each scene is
// built in code: quads facing the camera, unlit or emissive materials so every expected pixel
// follows from the formula alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/pose.h"
#include "import/images/model_images.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "support/gl_environment.h"
#include "support/rigs.h"

namespace rig {
namespace {

constexpr int kW = 64, kH = 64;

// A model of one node and no meshes yet.
Model emptyModel() {
    Model m;
    m.path = "/nonexistent-folder/pbr-test.gltf";
    m.skeleton.names = {"root"};
    m.skeleton.parent = {-1};
    m.skeleton.bindLocalSqt.push_back(Transform{});
    m.skeleton.bindLocal.push_back(glm::mat4(1.0f));
    m.skeleton.computeBindModel();
    return m;
}

// A square quad of half-size `half` at depth z, centred at (cx, 0), facing +Z (or -Z when
// `facingAway`), UVs (0,0) bottom left to (1,1) top right, with material `material`.
void addQuad(Model& m, float z, uint32_t material, float half = 1.0f, bool facingAway = false, float cx = 0.0f) {
    Mesh mesh;
    mesh.name = "quad" + std::to_string(m.meshes.size());
    mesh.node = 0;
    mesh.material = material;
    mesh.positions = {{cx - half, -half, z}, {cx + half, -half, z}, {cx + half, half, z}, {cx - half, half, z}};
    const glm::vec3 n = facingAway ? glm::vec3(0, 0, -1) : glm::vec3(0, 0, 1);
    mesh.normals.assign(4, n);
    mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    mesh.indices = facingAway ? std::vector<uint32_t>{0, 2, 1, 0, 3, 2} : std::vector<uint32_t>{0, 1, 2, 0, 2, 3};
    m.meshes.push_back(std::move(mesh));
}

Material unlit(const glm::vec4& c) {
    Material mat;
    mat.baseColor = c;
    mat.unlit = true;
    return mat;
}

struct Pixels {
    std::vector<uint8_t> px;  // RGBA, top row first
    glm::ivec3 at(int x, int y) const {
        const size_t i = (static_cast<size_t>(y) * kW + x) * 4;
        return {px[i], px[i + 1], px[i + 2]};
    }
    glm::ivec3 centre() const { return at(kW / 2, kH / 2); }
};

ViewOptions baseOptions() {
    ViewOptions o;
    o.grid = false;
    o.groundShadow = false;
    o.background = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
    o.toneMapping = ToneMapping::None;
    return o;
}

// One renderer for the tests lit by the studio environment (loaded once: the GGX levels take
// seconds on llvmpipe); a test that needs no environment makes its own.
Renderer& sharedRenderer() {
    static std::unique_ptr<Renderer> r = [] {
        auto c = Renderer::create();
        EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
        return std::move(c.value());
    }();
    return *r;
}

// Drawn from +Z looking at the origin (the quads at z = 0 fill the middle of the frame).
Pixels draw(const Model& m, const ViewOptions& o, std::vector<std::string>* missing = nullptr, Renderer* own = nullptr) {
    Renderer* renderer = own ? own : &sharedRenderer();
    Model decoded = m;  // its textures decoded, as an import leaves them (import/images/model_images.h)
    decodeModelImages(decoded);
    auto gpu = GpuModel::create(decoded);
    EXPECT_TRUE(gpu.ok());
    if (missing) *missing = (*gpu)->missingTextures();
    auto target = OffscreenTarget::create(kW, kH, 0);
    EXPECT_TRUE(target.ok());
    Animator anim(m);
    anim.evaluate(kBindPose, 0.0f);
    OrbitCamera cam;
    cam.target = glm::vec3(0.0f);
    cam.distance = 4.0f;
    cam.azimuthDeg = 0.0f;
    cam.elevationDeg = 0.0f;
    cam.fovYDeg = 40.0f;
    cam.nearPlane = 0.1f;
    cam.farPlane = 20.0f;
    (*target)->bind();
    renderer->draw(**gpu, anim, cam, o, kW, kH);
    Pixels p{(*target)->readPixels()};
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    return p;
}

void expectNear(const glm::ivec3& got, const glm::ivec3& want, int tol, const std::string& what) {
    for (int c = 0; c < 3; ++c) {
        EXPECT_LE(std::abs(got[c] - want[c]), tol) << what << ": got (" << got.r << "," << got.g << "," << got.b
                                                   << ") want (" << want.r << "," << want.g << "," << want.b << ")";
    }
}

// The sRGB encoding and the tone curves, written from their definitions (IEC 61966-2-1;
// Khronos PBR Neutral; Hill's ACES fit as three.js r187 applies it).
double srgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }
int byte(double c) { return static_cast<int>(std::lround(std::clamp(c, 0.0, 1.0) * 255.0)); }

glm::dvec3 neutral(glm::dvec3 c) {
    const double start = 0.76, desat = 0.15;
    const double x = std::min({c.r, c.g, c.b});
    const double offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    c -= offset;
    const double peak = std::max({c.r, c.g, c.b});
    if (peak < start) return c;
    const double d = 1.0 - start;
    const double newPeak = 1.0 - d * d / (peak + d - start);
    c *= newPeak / peak;
    const double g = 1.0 - 1.0 / (desat * (peak - newPeak) + 1.0);
    return c * (1.0 - g) + glm::dvec3(newPeak) * g;
}

glm::dvec3 aces(glm::dvec3 c) {
    const glm::dmat3 in(glm::dvec3(0.59719, 0.07600, 0.02840), glm::dvec3(0.35458, 0.90834, 0.13383),
                        glm::dvec3(0.04823, 0.01566, 0.83777));
    const glm::dmat3 out(glm::dvec3(1.60475, -0.10208, -0.00327), glm::dvec3(-0.53108, 1.10813, -0.07276),
                         glm::dvec3(-0.07367, -0.00605, 1.07602));
    c = in * (c / 0.6);
    const glm::dvec3 a = c * (c + 0.0245786) - 0.000090537;
    const glm::dvec3 b = c * (0.983729 * c + 0.4329510) + 0.238081;
    return glm::clamp(out * (a / b), 0.0, 1.0);
}

TEST(Pbr, AFlatEmissiveQuadIsTheToneCurveOfItsEmission) {
    Model m = emptyModel();
    Material mat;
    mat.baseColor = glm::vec4(0, 0, 0, 1);
    mat.metallic = 1.0f;  // black metal: no diffuse, and no specular from a black sky
    mat.emissive = glm::vec3(1.0f, 0.45f, 0.1f);
    mat.emissiveStrength = 0.9f;
    m.materials.push_back(mat);
    addQuad(m, 0.0f, 0);
    ViewOptions o = baseOptions();
    o.environment = "/nonexistent-folder/none.hdr";  // no environment: the grey sky of radiance o.ambient
    o.ambient = 0.0f;
    auto renderer = Renderer::create();
    ASSERT_TRUE(renderer.ok());
    const glm::dvec3 e = glm::dvec3(1.0, 0.45, 0.1) * 0.9;
    for (double exposure : {1.0, 2.0}) {
        o.exposure = static_cast<float>(exposure);
        const glm::dvec3 x = e * exposure;
        struct Case {
            ToneMapping mode;
            glm::dvec3 mapped;
        } cases[] = {{ToneMapping::None, glm::clamp(x, 0.0, 1.0)}, {ToneMapping::Neutral, neutral(x)}, {ToneMapping::Aces, aces(x)}};
        for (const Case& c : cases) {
            o.toneMapping = c.mode;
            const glm::ivec3 want(byte(srgb(c.mapped.r)), byte(srgb(c.mapped.g)), byte(srgb(c.mapped.b)));
            expectNear(draw(m, o, nullptr, renderer->get()).centre(), want, 1, "tone mapping " + std::to_string(static_cast<int>(c.mode)) +
                                                        " exposure " + std::to_string(exposure));
        }
    }
}

// A base colour texture is sRGB: texel 128 decodes to linear 0.216 and, unlit and not tone
// mapped, is encoded back to 128 (an RGBA8 texture would give 188).
TEST(Pbr, BaseColourTexturesAreDecodedFromSrgb) {
    Model m = emptyModel();
    EmbeddedTexture t;
    t.width = 2;
    t.height = 2;
    t.data.assign(16, 128);
    for (int i = 3; i < 16; i += 4) t.data[i] = 255;
    m.textures.push_back(t);
    Material mat = unlit(glm::vec4(1.0f));
    mat.baseColorTexture.path = "*0";
    m.materials.push_back(mat);
    addQuad(m, 0.0f, 0);
    expectNear(draw(m, baseOptions()).centre(), glm::ivec3(128), 1, "sRGB texel 128");
}

// A texture that does not load is drawn as the magenta/black checker, and named once.
TEST(Pbr, AMissingTextureIsDrawnAsAMagentaChecker) {
    Model m = emptyModel();
    Material mat = unlit(glm::vec4(1.0f));
    mat.baseColorTexture.path = "no-such-image.png";
    m.materials.push_back(mat);
    addQuad(m, 0.0f, 0);
    std::vector<std::string> missing;
    const Pixels p = draw(m, baseOptions(), &missing);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_NE(missing[0].find("no-such-image.png"), std::string::npos) << missing[0];
    int magenta = 0, black = 0;
    for (int y = kH / 2 - 8; y < kH / 2 + 8; ++y) {
        for (int x = kW / 2 - 8; x < kW / 2 + 8; ++x) {
            const glm::ivec3 c = p.at(x, y);
            magenta += c == glm::ivec3(255, 0, 255) ? 1 : 0;
            black += c == glm::ivec3(0, 0, 0) ? 1 : 0;
        }
    }
    EXPECT_GT(magenta, 60);
    EXPECT_GT(black, 60);
    EXPECT_EQ(magenta + black, 256);
}

// OPAQUE ignores alpha, MASK discards below the cutoff, BLEND mixes the tone-mapped sRGB
// values after the opaque meshes, whatever the file order.
TEST(Pbr, AlphaModesOpaqueMaskAndBlend) {
    for (AlphaMode mode : {AlphaMode::Opaque, AlphaMode::Mask, AlphaMode::Blend}) {
        Model m = emptyModel();
        Material front = unlit(glm::vec4(1.0f, 0.0f, 0.0f, 0.4f));
        front.alphaMode = mode;
        front.alphaCutoff = 0.5f;
        m.materials.push_back(front);
        m.materials.push_back(unlit(glm::vec4(0.0f, 0.0f, 1.0f, 1.0f)));
        addQuad(m, 0.5f, 0);  // the front quad first in the file
        addQuad(m, 0.0f, 1, 1.5f);
        const glm::ivec3 c = draw(m, baseOptions()).centre();
        const std::string what = "alpha mode " + std::to_string(static_cast<int>(mode));
        if (mode == AlphaMode::Opaque) expectNear(c, {255, 0, 0}, 0, what);
        if (mode == AlphaMode::Mask) expectNear(c, {0, 0, 255}, 0, what);
        if (mode == AlphaMode::Blend) expectNear(c, {byte(0.4), 0, byte(0.6)}, 1, what);
    }
}

// Two BLEND quads are drawn back to front by their centres' depth, not in file order.
TEST(Pbr, BlendedMeshesAreSortedBackToFront) {
    Model m = emptyModel();
    Material red = unlit(glm::vec4(1, 0, 0, 0.5f)), green = unlit(glm::vec4(0, 1, 0, 0.5f));
    red.alphaMode = green.alphaMode = AlphaMode::Blend;
    m.materials = {red, green};
    addQuad(m, 0.5f, 0);  // red in front, first in the file
    addQuad(m, 0.0f, 1);
    // Green over black, then red over that: (0.5, 0.25, 0).
    expectNear(draw(m, baseOptions()).centre(), {byte(0.5), byte(0.25), 0}, 1, "sorted blending");
}

// A quad turned away from the camera: culled when single-sided, drawn when double-sided.
TEST(Pbr, SingleSidedBackFacesAreCulledDoubleSidedDrawn) {
    for (bool doubleSided : {false, true}) {
        Model m = emptyModel();
        Material mat = unlit(glm::vec4(0, 1, 0, 1));
        mat.doubleSided = doubleSided;
        m.materials.push_back(mat);
        addQuad(m, 0.0f, 0, 1.0f, true);
        expectNear(draw(m, baseOptions()).centre(), doubleSided ? glm::ivec3(0, 255, 0) : glm::ivec3(0), 0,
                   doubleSided ? "double-sided" : "single-sided");
    }
}

// KHR_texture_transform: a 2x1 texture (left black, right white), nearest filtering; an offset
// of half the width swaps what the left and right of the quad show.
TEST(Pbr, TextureTransformMovesTheTexture) {
    for (bool shifted : {false, true}) {
        Model m = emptyModel();
        EmbeddedTexture t;
        t.width = 2;
        t.height = 1;
        t.data = {0, 0, 0, 255, 255, 255, 255, 255};
        m.textures.push_back(t);
        Material mat = unlit(glm::vec4(1.0f));
        mat.baseColorTexture.path = "*0";
        mat.baseColorTexture.magFilter = 9728;  // NEAREST
        mat.baseColorTexture.minFilter = 9728;
        if (shifted) mat.baseColorTexture.offset = glm::vec2(0.5f, 0.0f);
        m.materials.push_back(mat);
        addQuad(m, 0.0f, 0);
        const Pixels p = draw(m, baseOptions());
        const glm::ivec3 left = p.at(kW / 2 - 8, kH / 2), right = p.at(kW / 2 + 8, kH / 2);
        expectNear(left, shifted ? glm::ivec3(255) : glm::ivec3(0), 0, shifted ? "shifted left" : "left");
        expectNear(right, shifted ? glm::ivec3(0) : glm::ivec3(255), 0, shifted ? "shifted right" : "right");
    }
}

// The environment lights a dielectric: a rough white quad under the studio environment is
// neither black nor clipped, and a missing .hdr is reported and falls back to the grey sky.
TEST(Pbr, EnvironmentLightsAndAMissingOneIsReported) {
    Model m = emptyModel();
    Material mat;
    mat.baseColor = glm::vec4(0.8f, 0.8f, 0.8f, 1.0f);
    mat.roughness = 0.8f;
    m.materials.push_back(mat);
    addQuad(m, 0.0f, 0);
    ViewOptions o = baseOptions();
    o.toneMapping = ToneMapping::Neutral;
    const glm::ivec3 lit = draw(m, o).centre();
    EXPECT_GT(lit.r, 40);
    EXPECT_LT(lit.r, 250);
    EXPECT_EQ(lit.r, lit.g);  // the studio is neutral grey
    auto renderer = Renderer::create();
    ASSERT_TRUE(renderer.ok());
    o.environment = "/nonexistent-folder/missing.hdr";
    EXPECT_EQ((*renderer)->prepareEnvironment(o), nullptr);
    EXPECT_NE((*renderer)->environmentError().find("missing.hdr"), std::string::npos) << (*renderer)->environmentError();
}

// A debug channel shows one input alone: the UVs as red/green, metallic and roughness as grey.
TEST(Pbr, DebugChannelsShowOneInput) {
    Model m = emptyModel();
    Material mat;
    mat.metallic = 0.25f;
    mat.roughness = 0.75f;
    m.materials.push_back(mat);
    addQuad(m, 0.0f, 0);
    ViewOptions o = baseOptions();
    o.debugChannel = DebugChannel::Metallic;
    expectNear(draw(m, o).centre(), glm::ivec3(byte(0.25)), 1, "metallic");
    o.debugChannel = DebugChannel::Roughness;
    expectNear(draw(m, o).centre(), glm::ivec3(byte(0.75)), 1, "roughness");
    // glTF's UV (v down) at pixel (40, 24): the quad spans x, y in [-1, 1], seen from 4 away
    // with a 40 degree field of view.
    o.debugChannel = DebugChannel::Uv0;
    const double half = 4.0 * std::tan(glm::radians(20.0));
    const double x = ((40 + 0.5) / kW * 2.0 - 1.0) * half, y = (1.0 - (24 + 0.5) / kH * 2.0) * half;
    expectNear(draw(m, o).at(40, 24), glm::ivec3(byte(0.5 * (x + 1.0)), byte(1.0 - 0.5 * (y + 1.0)), 0), 1, "uv0");
}

// Tangents turn with the skin on every path: a normal-mapped strip bent by its bones draws the
// same with GPU and CPU skinning, linear and dual quaternion (the normal map tilts the normal
// towards the tangent, so an unskinned tangent would light the bent half differently).
TEST(Pbr, SkinnedTangentsMatchBetweenGpuAndCpuSkinning) {
    Model m = testing::makeTwoBone();
    Mesh& mesh = m.meshes[0];
    mesh.normals.assign(mesh.vertexCount(), glm::vec3(0, 0, 1));
    mesh.tangents.assign(mesh.vertexCount(), glm::vec4(1, 0, 0, 1));
    mesh.uvs = {{0, 0}, {0, 1}, {1, 0.5f}, {1, 0}};
    mesh.indices = {0, 2, 1, 0, 3, 2};  // counter-clockwise seen from +Z
    EmbeddedTexture t;  // a normal map tilted 45 degrees towards +tangent
    t.width = 1;
    t.height = 1;
    t.data = {218, 128, 218, 255};
    m.textures = {t};
    Material mat;
    mat.baseColor = glm::vec4(0.9f, 0.9f, 0.9f, 1.0f);
    mat.roughness = 0.3f;
    mat.doubleSided = true;
    mat.normalTexture.path = "*0";
    m.materials = {mat};
    const int32_t clip = m.findClip("bend");
    auto render = [&](SkinningMode mode, SkinningMethod method, bool skinned) {
        Model copy = m;
        if (!skinned) copy.meshes[0].tangents.assign(copy.meshes[0].vertexCount(), glm::vec4(0, 1, 0, 1));
        decodeModelImages(copy);
        auto gpu = GpuModel::create(copy);
        auto target = OffscreenTarget::create(kW, kH, 0);
        Animator anim(copy);
        anim.evaluate(clip, 1.0f);
        OrbitCamera cam;
        cam.target = glm::vec3(0.5f, 1.0f, 0.0f);
        cam.distance = 6.0f;
        cam.azimuthDeg = 0.0f;
        cam.elevationDeg = 0.0f;
        cam.nearPlane = 0.1f;
        cam.farPlane = 20.0f;
        ViewOptions o = baseOptions();
        o.skinning = mode;
        o.method = method;
        (*target)->bind();
        sharedRenderer().draw(**gpu, anim, cam, o, kW, kH);
        return (*target)->readPixels();
    };
    auto mad = [](const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
        double sum = 0.0;
        for (size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
        return sum / static_cast<double>(a.size());
    };
    for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuat}) {
        const auto gpuImage = render(SkinningMode::Gpu, method, true);
        const auto cpuImage = render(SkinningMode::Cpu, method, true);
        const double same = mad(gpuImage, cpuImage);
        EXPECT_LT(same, 0.12) << static_cast<int>(method);
        // The tangents matter here: other tangents draw a different picture.
        EXPECT_GT(mad(gpuImage, render(SkinningMode::Gpu, method, false)), 0.25) << static_cast<int>(method);
    }
}

// The programs specialized per material and view options (PbrShading::variantKey) draw what the
// generic program draws: a textured, coated, normal-mapped quad beside an unlit one, with and
// without the key light, in the debug channels and the rig views.
TEST(Pbr, SpecializedProgramsDrawAsTheGenericOne) {
    Model m = emptyModel();
    auto texel = [&](std::vector<uint8_t> rgba) {
        EmbeddedTexture t;
        t.width = 2;
        t.height = 1;
        t.data = std::move(rgba);
        m.textures.push_back(t);
        return "*" + std::to_string(m.textures.size() - 1);
    };
    Material mat;
    mat.baseColor = glm::vec4(0.9f, 0.7f, 0.5f, 1.0f);
    mat.baseColorTexture.path = texel({255, 200, 120, 255, 90, 160, 230, 255});
    mat.metallicRoughnessTexture.path = texel({0, 150, 60, 255, 0, 90, 200, 255});
    mat.normalTexture.path = texel({170, 128, 230, 255, 100, 150, 220, 255});
    mat.occlusionTexture.path = texel({200, 0, 0, 255, 120, 0, 0, 255});
    mat.emissive = glm::vec3(0.2f, 0.1f, 0.0f);
    mat.emissiveTexture.path = texel({255, 255, 255, 255, 60, 60, 60, 255});
    mat.clearcoat = 0.6f;
    mat.clearcoatRoughness = 0.2f;
    m.materials.push_back(mat);
    m.materials.push_back(unlit(glm::vec4(0.3f, 0.6f, 0.9f, 1.0f)));
    addQuad(m, 0.0f, 0, 0.6f, false, -0.6f);
    addQuad(m, 0.0f, 1, 0.6f, false, 0.7f);
    auto renderer = Renderer::create();
    ASSERT_TRUE(renderer.ok());
    Renderer& r = **renderer;
    auto both = [&](const ViewOptions& o, Renderer::ColorSource source, const std::string& what) {
        r.setColorSource(source);
        r.setSpecializedPrograms(false);
        const Pixels generic = draw(m, o, nullptr, &r);
        r.setSpecializedPrograms(true);
        const Pixels specialized = draw(m, o, nullptr, &r);
        int worst = 0;
        size_t differing = 0;
        for (size_t i = 0; i < generic.px.size(); ++i) {
            const int d = std::abs(generic.px[i] - specialized.px[i]);
            worst = std::max(worst, d);
            differing += d > 0 ? 1 : 0;
        }
        EXPECT_LE(worst, 1) << what << ": " << differing << " bytes differ";
        // The picture is not empty: the textured quad is lit.
        EXPECT_NE(specialized.at(kW / 2 - 12, kH / 2), glm::ivec3(0)) << what;
    };
    ViewOptions o = baseOptions();
    o.toneMapping = ToneMapping::Neutral;
    both(o, Renderer::ColorSource::Material, "environment");
    o.keyLight = true;
    both(o, Renderer::ColorSource::Material, "key light");
    o.textures = false;
    both(o, Renderer::ColorSource::Material, "no textures");
    o.textures = true;
    for (DebugChannel c : {DebugChannel::BaseColor, DebugChannel::Normal, DebugChannel::Occlusion, DebugChannel::Uv0}) {
        o.debugChannel = c;
        both(o, Renderer::ColorSource::Material, "debug channel " + std::to_string(static_cast<int>(c)));
    }
    o.debugChannel = DebugChannel::None;
    o.lighting = false;
    both(o, Renderer::ColorSource::Material, "lighting off");
    o.lighting = true;
    both(o, Renderer::ColorSource::VertexOnly, "vertex colours");
    both(o, Renderer::ColorSource::TintOnly, "tint only");
}

}  // namespace
}  // namespace rig
