// Crowds on the GPU, headless through EGL (llvmpipe in CI): instanced skinning against the
// CPU reference (transform feedback, instance by instance), per-instance frustum culling
// (what is drawn, counted by the GL itself), and `rigview render --instances`.
#include <gtest/gtest.h>

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "anim/control/crowd.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "platform/headless.h"
#include "support/gl_environment.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "support/run.h"

namespace rig {
namespace {

// The GL context: support/gl_environment.h.

const std::string kDemo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";
const std::string kEpileptic = "/usr/share/assimp/models/X/BCN_Epileptic.X";

// Instance i's palettes as matrices (Animator::palette()'s layout).
std::vector<glm::mat4> paletteOf(const Crowd& crowd, size_t i) {
    std::vector<glm::mat4> p(crowd.paletteSize());
    for (size_t e = 0; e < p.size(); ++e) p[e] = crowd.paletteEntry(i, e);
    return p;
}

Model load(const std::string& f) {
    Result<Model> r = importModel(f);
    EXPECT_TRUE(r.ok()) << f;
    return r.ok() ? std::move(r.value()) : Model{};
}

// Every instance's palette, mesh matrices and grid offset reach the vertex shader through
// gl_InstanceID: the captured positions of each instance equal the CPU skinning of that
// instance's own palette, moved by its mesh node's matrix and its offset. Instances play
// different clips at different phases and rates, and are captured out of order, so a wrong
// index or stride shows up as a pose of the wrong instance.
TEST(Crowd, InstancedSkinningMatchesTheCpuInstanceByInstance) {
    auto renderer = CrowdRenderer::create();
    ASSERT_TRUE(renderer.ok()) << renderer.error().message;
    for (const std::string& f : {kDemo, kEpileptic}) {
        const Model model = load(f);
        ASSERT_FALSE(model.meshes.empty()) << f;
        auto gpu = GpuModel::create(model);
        ASSERT_TRUE(gpu.ok());
        constexpr size_t kN = 7;
        Crowd crowd(model, kN, 0, 2);
        const int32_t clips = static_cast<int32_t>(model.clips.size());
        ASSERT_GE(clips, 1) << f;
        for (size_t i = 0; i < kN; ++i) {
            crowd.setInstance(i, static_cast<int32_t>(i) % clips, 0.173 * static_cast<double>(i), 0.5 + 0.25 * static_cast<double>(i % 3));
        }
        crowd.setInstance(4, kBindPose, 0.0);
        crowd.update(0.61);
        const float spacing = 1.5f * std::max(animatedBounds(model, 0, 4).diagonal(), 1e-3f);
        const std::vector<glm::vec3> offsets = crowdGrid(kN, spacing, false);
        const std::vector<uint32_t> order = {6, 0, 3, 4, 1, 5, 2};
        float scale = 0.0f;
        for (const glm::vec3& o : offsets) scale = std::max(scale, glm::length(o));
        scale = std::max(scale, animatedBounds(model, 0, 4).diagonal());
        const float tolerance = 1e-5f * scale;
        size_t compared = 0;
        float worst = 0.0f, otherInstance = 1e30f;
        std::vector<glm::vec3> cpu;
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            const Mesh& mesh = model.meshes[m];
            const size_t n = mesh.vertexCount();
            const std::vector<glm::vec3> g = (*renderer)->capture(**gpu, crowd, offsets, order, m);
            ASSERT_EQ(g.size(), n * order.size());
            cpu.resize(n);
            for (size_t k = 0; k < order.size(); ++k) {
                const size_t a = order[k];
                skinMesh(mesh, paletteOf(crowd, a).data() + crowd.paletteOffset(m), cpu.data(), nullptr);
                const glm::mat4 w = crowd.skinToModel(a, m);
                // The neighbour in capture order, as if the index were off by one.
                const size_t b = order[(k + 1) % order.size()];
                for (size_t v = 0; v < n; ++v) {
                    const glm::vec3 c = glm::vec3(w * glm::vec4(cpu[v], 1.0f)) + offsets[order[k]];
                    if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) continue;
                    worst = std::max(worst, glm::length(c - g[k * n + v]));
                    ++compared;
                }
                if (mesh.skinned && n > 0) {
                    std::vector<glm::vec3> other(n);
                    skinMesh(mesh, paletteOf(crowd, b).data() + crowd.paletteOffset(m), other.data(), nullptr);
                    float d = 0.0f;
                    for (size_t v = 0; v < n; ++v) {
                        d = std::max(d, glm::length(glm::vec3(crowd.skinToModel(b, m) * glm::vec4(other[v], 1.0f)) +
                                                    offsets[order[k]] - g[k * n + v]));
                    }
                    otherInstance = std::min(otherInstance, d);
                }
            }
        }
        EXPECT_GT(compared, 1000u) << f;
        EXPECT_LE(worst, tolerance) << f;
        // The poses differ enough that another instance's palette would fail the comparison.
        EXPECT_GT(otherInstance, 100.0f * tolerance) << f;
    }
}

// Dual quaternions are not instanced: the crowd falls back to linear blend and says so.
TEST(Crowd, DualQuaternionRequestFallsBackToLinearBlend) {
    auto renderer = CrowdRenderer::create();
    ASSERT_TRUE(renderer.ok());
    const Model model = load(kDemo);
    auto gpu = GpuModel::create(model);
    ASSERT_TRUE(gpu.ok());
    Crowd crowd(model, 2, 0, 1);
    crowd.update(0.2);
    auto target = OffscreenTarget::create(64, 48, 0);
    ASSERT_TRUE(target.ok());
    (*target)->bind();
    OrbitCamera cam;
    const std::vector<glm::vec3> offsets = crowdGrid(2, 2.0f, false);
    const Bounds one = animatedBounds(model, 0, 4);
    cam.frame(crowdBounds(one, offsets), 64.0f / 48.0f);
    ViewOptions o;
    o.method = SkinningMethod::DualQuat;
    (*renderer)->draw(**gpu, crowd, offsets, one, cam, o, 64, 48);
    EXPECT_EQ((*renderer)->usedMethod(), SkinningMethod::Linear);
    o.method = SkinningMethod::Stitch;
    (*renderer)->draw(**gpu, crowd, offsets, one, cam, o, 64, 48);
    EXPECT_EQ((*renderer)->usedMethod(), SkinningMethod::Stitch);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Culling on the CPU: instances in front of the camera are kept, instances behind it, far
// to the side or past the far plane are not, whatever their order.
TEST(Crowd, CullingKeepsWhatIsInViewAndDropsTheRest) {
    Bounds one;
    one.add(glm::vec3(-0.5f, 0.0f, -0.5f));
    one.add(glm::vec3(0.5f, 2.0f, 0.5f));
    OrbitCamera cam;
    cam.target = glm::vec3(0.0f, 1.0f, 0.0f);
    cam.azimuthDeg = 0.0f;  // looking along -Z from +Z
    cam.elevationDeg = 0.0f;
    cam.distance = 10.0f;
    cam.nearPlane = 0.1f;
    cam.farPlane = 100.0f;
    const glm::mat4 vp = cam.projection(1.0f) * cam.view();
    const std::vector<glm::vec3> offsets = {
        {0, 0, 0},        // at the target: in
        {0, 0, 30},       // behind the camera (eye at z = 10): out
        {2, 0, -5},       // a little to the side, further away: in
        {300, 0, 0},      // far to the right: out
        {0, 0, -500},     // beyond the far plane: out
        {-4.0f, 0, 0},    // near the left edge (half-width at the target ~3.6 m), overlapping: in
        {0, -40, 0},      // far below: out
    };
    std::vector<uint32_t> visible(offsets.size());
    const size_t n = cullInstances(vp, one, offsets.data(), offsets.size(), visible.data());
    visible.resize(n);
    EXPECT_EQ(visible, (std::vector<uint32_t>{0, 2, 5}));
}

// Culling in the draw: the GL's own count of primitives equals the visible instances times
// the model's triangles, the drawn and culled counts add up, and the pixels show only
// the instances in view.
TEST(Crowd, DrawDrawsOnlyTheVisibleInstances) {
    auto renderer = CrowdRenderer::create();
    ASSERT_TRUE(renderer.ok());
    const Model model = load(kDemo);
    auto gpu = GpuModel::create(model);
    ASSERT_TRUE(gpu.ok());
    size_t triangles = 0;
    for (const Mesh& m : model.meshes) triangles += m.triangleCount();
    constexpr size_t kN = 100;
    Crowd crowd(model, kN, 0, 2);
    crowd.update(0.4);
    const Bounds one = animatedBounds(model, 0, 8);
    const float spacing = 2.0f * one.diagonal();
    const std::vector<glm::vec3> offsets = crowdGrid(kN, spacing, false);
    constexpr int kW = 160, kH = 120;
    auto target = OffscreenTarget::create(kW, kH, 0);
    ASSERT_TRUE(target.ok());
    (*target)->bind();
    GLuint query = 0;
    glGenQueries(1, &query);
    auto drawCounting = [&](const OrbitCamera& cam, size_t& primitives) {
        glBeginQuery(GL_PRIMITIVES_GENERATED, query);
        const CrowdRenderer::Stats st = (*renderer)->draw(**gpu, crowd, offsets, one, cam, ViewOptions{}, kW, kH);
        glEndQuery(GL_PRIMITIVES_GENERATED);
        GLuint count = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &count);
        primitives = count;
        return st;
    };
    // The whole grid framed: nothing culled.
    OrbitCamera all;
    all.elevationDeg = 35.0f;
    all.frame(crowdBounds(one, offsets), static_cast<float>(kW) / kH);
    size_t prims = 0;
    CrowdRenderer::Stats st = drawCounting(all, prims);
    EXPECT_EQ(st.drawn, kN);
    EXPECT_EQ(st.culled, 0u);
    EXPECT_EQ(prims, kN * triangles);
    // Close up on one corner instance: most are culled, the primitives follow the count.
    OrbitCamera close = all;
    Bounds first;
    first.add(one.min + offsets[0]);
    first.add(one.max + offsets[0]);
    const float aspect = static_cast<float>(kW) / kH;
    close.frame(first, aspect);
    st = drawCounting(close, prims);
    EXPECT_GE(st.drawn, 1u);
    EXPECT_LT(st.drawn, kN / 4);
    EXPECT_EQ(st.drawn + st.culled, kN);
    EXPECT_EQ(prims, st.drawn * triangles);
    // The same set by the reference test, instance by instance.
    std::vector<uint32_t> visible(kN);
    const size_t n = cullInstances(close.projection(aspect) * close.view(), one, offsets.data(), kN, visible.data());
    EXPECT_EQ(n, st.drawn);
    EXPECT_TRUE(std::find(visible.begin(), visible.begin() + static_cast<long>(n), 0u) != visible.begin() + static_cast<long>(n));
    // Looking away from the grid: nothing drawn, not a single primitive.
    OrbitCamera away = all;
    away.target = all.target + glm::vec3(0.0f, 50.0f * one.diagonal() * 10.0f, 0.0f);
    away.elevationDeg = -60.0f;  // looking up into the empty sky above
    st = drawCounting(away, prims);
    EXPECT_EQ(st.drawn, 0u);
    EXPECT_EQ(prims, 0u);
    glDeleteQueries(1, &query);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Grid cells: in a render of a 3 x 3 crowd, each instance's projected box holds drawn
// pixels; with one instance only the middle one does.
TEST(Crowd, EveryGridCellShowsItsInstance) {
    auto renderer = CrowdRenderer::create();
    ASSERT_TRUE(renderer.ok());
    const Model model = load(kEpileptic);
    auto gpu = GpuModel::create(model);
    ASSERT_TRUE(gpu.ok());
    const Bounds one = animatedBounds(model, 0, 8);
    const float spacing = 1.6f * std::max(one.max.x - one.min.x, one.max.z - one.min.z);
    const std::vector<glm::vec3> offsets = crowdGrid(9, spacing, false);
    constexpr int kW = 240, kH = 180;
    auto target = OffscreenTarget::create(kW, kH, 0);
    ASSERT_TRUE(target.ok());
    OrbitCamera cam;
    cam.azimuthDeg = 0.0f;
    cam.elevationDeg = 60.0f;
    cam.frame(crowdBounds(one, offsets), static_cast<float>(kW) / kH);
    const glm::mat4 vp = cam.projection(static_cast<float>(kW) / kH) * cam.view();
    const ViewOptions view;
    auto covered = [&](const std::vector<uint8_t>& px, const glm::vec3& offset) {
        glm::vec2 lo(1e9f), hi(-1e9f);
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 p((c & 1) ? one.max.x : one.min.x, (c & 2) ? one.max.y : one.min.y, (c & 4) ? one.max.z : one.min.z);
            glm::vec2 s;
            if (!projectToScreen(vp, p + offset, kW, kH, s)) continue;
            lo = glm::min(lo, s);
            hi = glm::max(hi, s);
        }
        size_t n = 0;
        for (int y = std::max(0, static_cast<int>(lo.y)); y < std::min(kH, static_cast<int>(hi.y)); ++y) {
            for (int x = std::max(0, static_cast<int>(lo.x)); x < std::min(kW, static_cast<int>(hi.x)); ++x) {
                const uint8_t* p = &px[(static_cast<size_t>(y) * kW + x) * 4];
                int d = 0;
                for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(p[k] - static_cast<int>(std::lround(view.background[k] * 255))));
                n += d > 6 ? 1 : 0;
            }
        }
        return n;
    };
    for (size_t instances : {size_t{9}, size_t{1}}) {
        Crowd crowd(model, instances, 0, 1);
        crowd.update(0.3);
        // One instance sits in the middle cell (offset 0); nine fill the grid.
        const std::vector<glm::vec3> placed = instances == 9 ? offsets : std::vector<glm::vec3>{offsets[4]};
        (*target)->bind();
        (*renderer)->draw(**gpu, crowd, placed, one, cam, view, kW, kH);
        const std::vector<uint8_t> px = (*target)->readPixels();
        for (size_t i = 0; i < offsets.size(); ++i) {
            const size_t n = covered(px, offsets[i]);
            if (instances == 9 || i == 4) {
                EXPECT_GT(n, 20u) << "instance " << i << " of " << instances;
            } else {
                EXPECT_EQ(n, 0u) << "cell " << i << " should be empty with one instance";
            }
        }
    }
}

struct Png {
    int w = 0, h = 0;
    std::vector<uint8_t> px;
};

Png readPng(const std::string& path) {
    Png p;
    int n = 0;
    stbi_uc* data = stbi_load(path.c_str(), &p.w, &p.h, &n, 4);
    if (!data) return p;
    p.px.assign(data, data + static_cast<size_t>(p.w) * p.h * 4);
    stbi_image_free(data);
    return p;
}

// Share of pixels not of the background's colour (the top-left pixel).
double coverage(const Png& p) {
    if (p.px.empty()) return 0.0;
    size_t n = 0;
    for (size_t i = 0; i < p.px.size(); i += 4) {
        int d = 0;
        for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(p.px[i + k] - p.px[k]));
        n += d > 6 ? 1 : 0;
    }
    return static_cast<double>(n) / static_cast<double>(p.px.size() / 4);
}

// Runs of image columns (or rows) holding drawn pixels: seen from above, an N x N crowd
// spaced wide leaves N of each (the gaps between instances).
int drawnRuns(const Png& p, bool columns) {
    int runs = 0;
    bool in = false;
    const int outer = columns ? p.w : p.h, inner = columns ? p.h : p.w;
    for (int a = 0; a < outer; ++a) {
        bool any = false;
        for (int b = 0; b < inner && !any; ++b) {
            const int x = columns ? a : b, y = columns ? b : a;
            const uint8_t* q = &p.px[(static_cast<size_t>(y) * p.w + x) * 4];
            int d = 0;
            for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(q[k] - p.px[k]));
            any = d > 6;
        }
        if (any && !in) ++runs;
        in = any;
    }
    return runs;
}

TEST(Crowd, RenderInstancesWritesTheGrid) {
    using testing::run;
    const std::string exe = RIGVIEW_EXE;
    const std::string dir = testing::tempDir();
    double previous = 0.0;
    for (int n : {1, 4, 16}) {
        const std::string out = dir + "/crowd" + std::to_string(n) + ".png";
        // Seen from above, spaced wide: one run of drawn columns per grid column, of rows per row
        // (antialiased, as the coverage bounds below were set: the default has no MSAA on llvmpipe).
        const testing::RunResult r = run(exe, {"render", kDemo, "-o", out, "--size", "320x240", "--instances", std::to_string(n),
                                               "--azimuth", "0", "--elevation", "89", "--spacing", "3", "--msaa", "4"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const Png p = readPng(out);
        ASSERT_EQ(p.w, 320) << out;
        const int columns = static_cast<int>(std::lround(std::sqrt(n)));
        EXPECT_EQ(drawnRuns(p, true), columns) << out;
        EXPECT_EQ(drawnRuns(p, false), columns) << out;
        const double c = coverage(p);
        EXPECT_GT(c, 0.01) << out;
        if (n > 1) EXPECT_NE(c, previous) << out;
        previous = c;
    }
    // Top-down on 100 instances of the Epileptic rig, framed whole: a plausible share drawn.
    const testing::RunResult big = run(exe, {"render", kEpileptic, "-o", dir + "/big.png", "--size", "200x200",
                                             "--instances", "100", "--elevation", "80"});
    ASSERT_EQ(big.exitCode, 0) << big.err;
    const double c = coverage(readPng(dir + "/big.png"));
    EXPECT_GT(c, 0.05) << c;
    EXPECT_LT(c, 0.9) << c;
    for (const std::string bad : {"0", "-3", "100001", "many"}) {
        const testing::RunResult r = run(exe, {"render", kDemo, "-o", dir + "/bad.png", "--instances", bad});
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("rigview"), std::string::npos) << r.err;
    }
    EXPECT_EQ(run(exe, {"render", kDemo, "-o", dir + "/bad.png", "--instances", "4", "--spacing", "-1"}).exitCode, 2);
    EXPECT_EQ(run(exe, {"render", kDemo, "-o", dir + "/bad.png", "--instances", "4", "--spacing", "nan"}).exitCode, 2);
    EXPECT_EQ(run(exe, {"render", kDemo, "-o", dir + "/bad.png", "--spacing", "2"}).exitCode, 2);
    EXPECT_EQ(run(exe, {"render", kDemo, "-o", dir + "/bad.png", "--instances", "4", "--skinning", "cpu"}).exitCode, 2);
}

}  // namespace
}  // namespace rig
