// GL tests, headless through EGL (Mesa llvmpipe in CI): the GPU skinning path against the
// CPU reference (transform feedback), shader error reports, and rendered images.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "anim/control/clock.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "platform/headless.h"
#include "support/gl_environment.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "support/skin_capture.h"
#include "import/images/model_images.h"
#include "import/texture_limits.h"
#include "anim/runtime/ik.h"
#include "support/gunzip.h"
#include "support/rigs.h"

namespace rig {
namespace {

// The GL context: support/gl_environment.h.

// Largest distance between the GPU's and the CPU's world-space skinned positions over all
// meshes of `model` posed at `t` of `clip`.
float posedDifference(const Animator& anim, GpuModel& gpu, SkinCapture& cap, SkinningMethod method,
                      int influences = kMaxInfluences);

float gpuCpuDifference(const Model& model, GpuModel& gpu, SkinCapture& cap, int32_t clip, float t,
                       SkinningMethod method = SkinningMethod::Linear, IkStage* ik = nullptr,
                       int influences = kMaxInfluences) {
    Animator anim(model);
    anim.setPostProcess(ik);
    anim.evaluate(clip, t);
    return posedDifference(anim, gpu, cap, method, influences);
}

// The same for a posed Animator.
float posedDifference(const Animator& anim, GpuModel& gpu, SkinCapture& cap, SkinningMethod method, int influences) {
    const Model& model = anim.model();
    float worst = 0.0f;
    std::vector<glm::vec3> cpu;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        if (!mesh.skinned) continue;
        cpu.resize(mesh.vertexCount());
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), cpu.data(), nullptr, method,
                 influences);
        const std::vector<glm::vec3> g = cap.capture(gpu, anim, m, method, influences);
        const glm::mat4& w = anim.skinToModel(m);
        for (size_t v = 0; v < cpu.size(); ++v) {
            const glm::vec3 c = glm::vec3(w * glm::vec4(cpu[v], 1.0f));
            if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) continue;
            worst = std::max(worst, glm::length(c - g[v]));
        }
    }
    return worst;
}

TEST(Gpu, TransformFeedbackMatchesCpuOnEverySkinnedPublicModel) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok()) << cap.error().message;
    int tested = 0;
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator("/usr/share/assimp/models")) {
        if (e.is_regular_file()) files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
        Result<Model> r = importModel(f);
        if (!r) continue;
        const Model& model = r.value();
        if (std::none_of(model.meshes.begin(), model.meshes.end(), [](const Mesh& m) { return m.skinned; })) continue;
        auto gpu = GpuModel::create(model);
        ASSERT_TRUE(gpu.ok()) << f;
        const float diag = std::max(animatedBounds(model, model.clips.empty() ? -1 : 0, 4).diagonal(), 1e-6f);
        const int32_t clip = model.clips.empty() ? -1 : 0;
        const float d = clip >= 0 ? model.clips[0].duration : 0.0f;
        for (float t : {0.0f, d / 3.0f, 2.0f * d / 3.0f}) {
            const float diff = gpuCpuDifference(model, **gpu, **cap, clip, t);
            EXPECT_LE(diff, 1e-5f * diag) << f << " at t=" << t << " (diagonal " << diag << ")";
        }
        ++tested;
    }
    std::printf("skinned public models compared: %d\n", tested);
    EXPECT_GE(tested, 10);
}

// IK on (both legs and both arms of the demo, found by name, pulled towards targets): the
// GPU skins from the IK'd palette exactly as the CPU does, and the IK did move the mesh.
TEST(Gpu, IkPoseMatchesTheCpu) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok());
    Result<Model> r = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    ASSERT_TRUE(r.ok());
    const Model& model = r.value();
    auto gpu = GpuModel::create(model);
    ASSERT_TRUE(gpu.ok());
    IkStage ik(model.skeleton);
    const std::vector<ChainGuess> chains = findLimbChains(model.skeleton);
    ASSERT_EQ(chains.size(), 4u);
    for (const ChainGuess& g : chains) {
        const int32_t c = ik.addTwoBone(g.start, g.mid, g.end);
        ASSERT_GE(c, 0);
        ik.twoBone()[c].target = glm::vec3(model.skeleton.bindModel[g.start][3]) + glm::vec3(0.1f, -0.3f, 0.45f);
    }
    const float diag = animatedBounds(model, 0, 4).diagonal();
    for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuat}) {
        for (float t : {0.0f, 0.4f}) {
            EXPECT_LE(gpuCpuDifference(model, **gpu, **cap, 0, t, method, &ik), 1e-5f * diag) << t;
        }
    }
    Animator plain(model), solved(model);
    solved.setPostProcess(&ik);
    plain.evaluate(0, 0.4f);
    solved.evaluate(0, 0.4f);
    const std::vector<glm::vec3> a = (*cap)->capture(**gpu, plain, 0), b = (*cap)->capture(**gpu, solved, 0);
    float moved = 0.0f;
    for (size_t v = 0; v < a.size(); ++v) moved = std::max(moved, glm::length(a[v] - b[v]));
    EXPECT_GT(moved, 0.05f * diag);
}

TEST(Gpu, MoreThan256JointsWork) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok());
    for (const Model& model : {testing::makeChain(320, 30), testing::makeWideTree(700, 10)}) {
        auto gpu = GpuModel::create(model);
        ASSERT_TRUE(gpu.ok());
        const float diag = std::max(animatedBounds(model, 0, 4).diagonal(), 1e-6f);
        for (float t : {0.0f, 0.21f, 0.5f}) {
            EXPECT_LE(gpuCpuDifference(model, **gpu, **cap, 0, t), 1e-5f * diag) << model.path << " t=" << t;
        }
    }
}

TEST(Gpu, StitchingAndDualQuaternionsMatchTheCpu) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok());
    for (const std::string& f : {std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf",
                                 std::string("/usr/share/assimp/models/X/BCN_Epileptic.X"),
                                 std::string("/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf")}) {
        Result<Model> r = importModel(f);
        ASSERT_TRUE(r.ok()) << f;
        auto gpu = GpuModel::create(r.value());
        ASSERT_TRUE(gpu.ok());
        const float diag = animatedBounds(r.value(), 0, 4).diagonal();
        for (SkinningMethod method : {SkinningMethod::Stitch, SkinningMethod::DualQuat}) {
            for (float t : {0.0f, 0.4f, 0.9f}) {
                EXPECT_LE(gpuCpuDifference(r.value(), **gpu, **cap, 0, t, method), 1e-5f * diag)
                    << f << " method " << static_cast<int>(method) << " t=" << t;
            }
        }
    }
}

// Six influences per vertex (Blender's FBX, tests/data/blender/six_influences.fbx.gz): with 8
// the shader blends its second joint/weight attribute pair as anim/skinning.cpp blends both
// sets, with 4 it drops them as the CPU does, every method; and 8 moves the mesh differently.
TEST(Gpu, EightInfluencesMatchTheCpu) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok()) << cap.error().message;
    Result<Model> r = importModel(testing::gunzip(std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/blender/six_influences.fbx.gz"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& model = r.value();
    ASSERT_TRUE(model.meshes[0].hasSecondInfluenceSet());
    auto gpu = GpuModel::create(model);
    ASSERT_TRUE(gpu.ok());
    ASSERT_TRUE((*gpu)->meshes()[0].secondInfluenceSet);
    const float diag = animatedBounds(model, 0, 4).diagonal();
    const float d = model.clips[0].duration;
    for (int influences : {kMaxInfluences, kMostInfluences}) {
        for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuat, SkinningMethod::Stitch}) {
            for (float t : {0.1f * d, 0.45f * d, 0.8f * d}) {
                EXPECT_LE(gpuCpuDifference(model, **gpu, **cap, 0, t, method, nullptr, influences), 1e-5f * diag)
                    << influences << " influences, method " << static_cast<int>(method) << " t=" << t;
            }
        }
    }
    Animator anim(model);
    anim.evaluate(0, 0.45f * d);
    const std::vector<glm::vec3> four = (*cap)->capture(**gpu, anim, 0, SkinningMethod::Linear, kMaxInfluences);
    const std::vector<glm::vec3> eight = (*cap)->capture(**gpu, anim, 0, SkinningMethod::Linear, kMostInfluences);
    float apart = 0.0f;
    for (size_t v = 0; v < four.size(); ++v) apart = std::max(apart, glm::length(four[v] - eight[v]));
    EXPECT_GT(apart, 1e-3f * diag);
}

// Three meshes on three nodes bound to one skin (BCN_Epileptic's skins merged, as in its
// glTF): the GPU reads the one shared palette the CPU uses (55 entries uploaded), and each
// node's own palette the tick a node is scaled; every skinning method.
TEST(Gpu, MeshesSharingOneSkinMatchTheCpu) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok());
    Result<Model> r = importModel("/usr/share/assimp/models/X/BCN_Epileptic.X");
    ASSERT_TRUE(r.ok());
    const Model m = testing::mergeSkins(std::move(r.value()));
    auto gpu = GpuModel::create(m);
    ASSERT_TRUE(gpu.ok());
    const float diag = animatedBounds(m, 0, 4).diagonal();
    Animator anim(m);
    std::vector<Transform> scaled = m.skeleton.bindLocalSqt;
    scaled[m.meshes[1].node].scale *= glm::vec3(1.5f, 0.8f, 1.0f);
    for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::Stitch, SkinningMethod::DualQuat}) {
        for (float t : {0.0f, 0.4f, 0.9f}) {
            anim.evaluate(0, t);
            ASSERT_EQ(anim.paletteInUse(), 55u);
            EXPECT_LE(posedDifference(anim, **gpu, **cap, method), 1e-5f * diag) << "method " << static_cast<int>(method) << " t=" << t;
        }
        anim.evaluatePose(scaled);
        ASSERT_EQ(anim.paletteInUse(), 3u * 55u);
        EXPECT_LE(posedDifference(anim, **gpu, **cap, method), 1e-5f * diag) << "method " << static_cast<int>(method) << " scaled";
    }
}

// Morph targets and skinning together: the shader's morph-then-skin (deltas and weights in
// texture buffers) against anim/skinning.cpp, every mesh (unskinned morphing ones too).
TEST(Gpu, MorphTargetsWithSkinningMatchTheCpu) {
    auto cap = SkinCapture::create();
    ASSERT_TRUE(cap.ok()) << cap.error().message;
    const std::string files[] = {
        std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/morph_skin.gltf",
        "/usr/share/assimp/models/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf"};
    for (const std::string& f : files) {
        Result<Model> r = importModel(f);
        ASSERT_TRUE(r.ok()) << f;
        const Model& model = r.value();
        auto gpu = GpuModel::create(model);
        ASSERT_TRUE(gpu.ok());
        for (int32_t clip = 0; clip < static_cast<int32_t>(model.clips.size()); ++clip) {
            const float diag = std::max(animatedBounds(model, clip, 8).diagonal(), 1e-6f);
            const float d = model.clips[clip].duration;
            for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuat}) {
                for (float t : {0.0f, 0.37f * d, 0.5f * d, 0.81f * d}) {
                    Animator anim(model);
                    if (t > 0.4f * d && t < 0.6f * d) anim.setMorphOverride(0, 1, 0.8f);  // a slider too
                    anim.evaluate(clip, t);
                    bool morphed = false;
                    for (float w : anim.morphWeights()) morphed = morphed || w != 0.0f;
                    float worst = 0.0f;
                    std::vector<glm::vec3> cpu;
                    for (size_t m = 0; m < model.meshes.size(); ++m) {
                        const Mesh& mesh = model.meshes[m];
                        cpu.resize(mesh.vertexCount());
                        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), cpu.data(),
                                 nullptr, method);
                        const std::vector<glm::vec3> g = (*cap)->capture(**gpu, anim, m, method);
                        for (size_t v = 0; v < cpu.size(); ++v) {
                            const glm::vec3 c = glm::vec3(anim.skinToModel(m) * glm::vec4(cpu[v], 1.0f));
                            worst = std::max(worst, glm::length(c - g[v]));
                        }
                    }
                    EXPECT_LE(worst, 1e-5f * diag) << f << " clip " << clip << " t=" << t << " method "
                                                   << static_cast<int>(method);
                    if (t > 0.0f) EXPECT_TRUE(morphed) << f << " t=" << t;
                }
            }
        }
    }
}

TEST(Gpu, ShaderErrorsNameTheFileAndLine) {
    auto p = Program::buildFromSources({{"broken.vert", "#version 330 core\nvoid main() {\n  gl_Position = nope;\n}\n"}});
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error().message.find("broken.vert:3"), std::string::npos) << p.error().message;
}

struct Image {
    int w = 0, h = 0;
    std::vector<uint8_t> px;
};

Image renderModel(const Model& model, int32_t clip, float t, SkinningMode mode, int w = 320, int h = 240,
                  void (*prepare)(Animator&) = nullptr, size_t morphTexelLimit = 0) {
    auto renderer = Renderer::create();
    EXPECT_TRUE(renderer.ok()) << (renderer.ok() ? "" : renderer.error().message);
    auto gpu = GpuModel::create(model, morphTexelLimit);
    if (morphTexelLimit) EXPECT_FALSE((*gpu)->morphsOnGpu());
    auto target = OffscreenTarget::create(w, h, 4);
    EXPECT_TRUE(target.ok());
    Animator anim(model);
    if (prepare) prepare(anim);
    anim.evaluate(clip, t);
    const Bounds b = animatedBounds(model, clip);
    OrbitCamera cam;
    cam.frame(b, static_cast<float>(w) / static_cast<float>(h));
    ViewOptions o;
    o.grid = false;
    o.skinning = mode;
    (*target)->bind();
    (*renderer)->draw(**gpu, anim, cam, o, w, h, &b);
    Image img{w, h, (*target)->readPixels()};
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    return img;
}

// Share of pixels that differ from the background colour.
double coverage(const Image& img) {
    const ViewOptions o;
    const int bg[3] = {static_cast<int>(std::lround(o.background.r * 255)), static_cast<int>(std::lround(o.background.g * 255)),
                       static_cast<int>(std::lround(o.background.b * 255))};
    size_t covered = 0;
    for (size_t i = 0; i < img.px.size(); i += 4) {
        int d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(img.px[i + c] - bg[c]));
        covered += d > 6 ? 1 : 0;
    }
    return static_cast<double>(covered) / (img.px.size() / 4);
}

double meanAbsDiff(const Image& a, const Image& b) {
    double sum = 0.0;
    for (size_t i = 0; i < a.px.size(); ++i) sum += std::abs(a.px[i] - b.px[i]);
    return sum / a.px.size();
}

Model demo() {
    Result<Model> r = importModel(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf");
    EXPECT_TRUE(r.ok());
    return r.ok() ? std::move(r.value()) : Model{};
}

TEST(Render, DemoCoversAPlausibleShareOfTheImage) {
    const Model m = demo();
    const Image img = renderModel(m, m.findClip("walk"), 0.3f, SkinningMode::Gpu);
    const double c = coverage(img);
    EXPECT_GT(c, 0.04) << c;
    EXPECT_LT(c, 0.6) << c;
}

// The viewer's scene target: resolving the multisampled picture into another framebuffer (the
// window's, in the viewer) gives the picture readPixels gives, edges antialiased.
TEST(Render, ResolvingIntoAnotherFramebufferGivesTheSamePicture) {
    const Model m = demo();
    const int w = 160, h = 120;
    auto renderer = Renderer::create();
    ASSERT_TRUE(renderer.ok());
    auto gpu = GpuModel::create(m);
    ASSERT_TRUE(gpu.ok());
    auto target = OffscreenTarget::create(w, h, 4);
    ASSERT_TRUE(target.ok());
    Animator anim(m);
    anim.evaluate(m.findClip("walk"), 0.3f);
    const Bounds b = animatedBounds(m, m.findClip("walk"));
    OrbitCamera cam;
    cam.frame(b, static_cast<float>(w) / static_cast<float>(h));
    ViewOptions o;
    (*target)->bind();
    (*renderer)->draw(**gpu, anim, cam, o, w, h, &b);
    GLuint fbo = 0, rb = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
    glEnable(GL_SCISSOR_TEST);  // left on by a UI: the resolve still covers the whole picture
    glScissor(0, 0, 1, 1);
    (*target)->resolveTo(fbo);
    EXPECT_TRUE(glIsEnabled(GL_SCISSOR_TEST));
    glDisable(GL_SCISSOR_TEST);
    GLint bound = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
    EXPECT_EQ(static_cast<GLuint>(bound), fbo);
    std::vector<uint8_t> resolved(static_cast<size_t>(w) * h * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, resolved.data());
    const std::vector<uint8_t> read = (*target)->readPixels();  // top row first
    size_t differing = 0;
    for (int y = 0; y < h; ++y) {
        for (size_t x = 0; x < static_cast<size_t>(w) * 4; ++x) {
            differing += resolved[static_cast<size_t>(y) * w * 4 + x] != read[static_cast<size_t>(h - 1 - y) * w * 4 + x];
        }
    }
    EXPECT_EQ(differing, 0u);
    EXPECT_GT(coverage(Image{w, h, read}), 0.04);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(1, &rb);
    glDeleteFramebuffers(1, &fbo);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(Render, GpuAndCpuSkinningImagesAreNearlyIdentical) {
    const Model m = demo();
    const int32_t wave = m.findClip("wave");
    const Image gpu = renderModel(m, wave, 0.8f, SkinningMode::Gpu);
    const Image cpu = renderModel(m, wave, 0.8f, SkinningMode::Cpu);
    EXPECT_LT(meanAbsDiff(gpu, cpu), 0.1);
}

TEST(Render, DifferentTimesGiveDifferentImages) {
    const Model m = demo();
    const int32_t walk = m.findClip("walk");
    const Image a = renderModel(m, walk, 0.0f, SkinningMode::Gpu);
    const Image b = renderModel(m, walk, 0.5f, SkinningMode::Gpu);
    EXPECT_GT(meanAbsDiff(a, b), 1.0);
}

// The renderer's morph path: GPU (texture buffers, skinned and unskinned meshes) and CPU
// (morphed vertices uploaded) draw the same picture, and a held weight changes it.
TEST(Render, MorphTargetsDrawTheSameOnGpuAndCpuAndFollowTheirWeights) {
    for (const std::string& f : {std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/morph_skin.gltf",
                                 std::string("/usr/share/assimp/models/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/"
                                             "AnimatedMorphCube.gltf")}) {
        Result<Model> r = importModel(f);
        ASSERT_TRUE(r.ok()) << f;
        const Model& m = r.value();
        const float t = 0.4f * m.clips[0].duration;
        const Image gpu = renderModel(m, 0, t, SkinningMode::Gpu);
        const Image cpu = renderModel(m, 0, t, SkinningMode::Cpu);
        EXPECT_LT(meanAbsDiff(gpu, cpu), 0.1) << f;
        auto hold = [](Animator& a) {
            a.setMorphOverride(0, 0, 1.0f);
            a.setMorphOverride(0, 1, 1.0f);
        };
        const Image held = renderModel(m, 0, t, SkinningMode::Gpu, 320, 240, hold);
        const Image heldCpu = renderModel(m, 0, t, SkinningMode::Cpu, 320, 240, hold);
        EXPECT_GT(meanAbsDiff(gpu, held), 0.5) << f;
        EXPECT_LT(meanAbsDiff(held, heldCpu), 0.1) << f;
        // Deltas too many for the texture buffer: GPU mode morphs those meshes on the CPU.
        const Image fallback = renderModel(m, 0, t, SkinningMode::Gpu, 320, 240, hold, 1);
        EXPECT_LT(meanAbsDiff(held, fallback), 0.1) << f;
    }
}

TEST(Render, SameInputsGiveTheSameImage) {
    const Model m = demo();
    const Image a = renderModel(m, 0, 1.0f, SkinningMode::Gpu);
    const Image b = renderModel(m, 0, 1.0f, SkinningMode::Gpu);
    EXPECT_EQ(a.px, b.px);
}

}  // namespace
}  // namespace rig

namespace rig {
namespace {

// Embedded images over the limits (import/texture_limits.h) are refused by their stated size,
// as the import worker leaves them (size kept, no bytes); a missing texture says so.
TEST(TextureLimits, OversizedEmbeddedImagesAreRefusedBySize) {
    Model m;
    m.path = "/nowhere/m.gltf";
    EmbeddedTexture big;  // compressed, over 256 MiB
    big.width = static_cast<uint32_t>(kMaxTextureBytes + 1);
    EmbeddedTexture wide;  // raw pixels, over 8192 a side
    wide.width = 16384;
    wide.height = 2;
    m.textures = {big, wide};
    m.materials.resize(3);
    m.materials[0].baseColorTexture.path = "*0";
    m.materials[1].baseColorTexture.path = "*1";
    m.materials[2].normalTexture.path = "skin.png";
    decodeModelImages(m);
    ASSERT_EQ(m.images.size(), 3u);
    EXPECT_EQ(m.findImage("*0")->problem, "embedded texture *0 not read: larger than 256 MiB");
    EXPECT_EQ(m.findImage("*1")->problem, "embedded texture *1 is 16384x2 pixels, more than 8192x8192");
    EXPECT_EQ(m.findImage("skin.png")->problem, "texture skin.png missing");
    for (const ModelImage& image : m.images) EXPECT_TRUE(image.rgba.empty());
}

}  // namespace
}  // namespace rig
