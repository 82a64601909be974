#include "render/renderer.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "anim/runtime/skinning.h"
#include "render/environment.h"
#include "render/gl_state.h"
#include "render/layout.h"
#include "util/data_folder.h"

namespace rig {

int shaderSkinMode(SkinningMethod m) {
    switch (m) {
        case SkinningMethod::Linear: return 1;
        case SkinningMethod::Stitch: return 2;
        case SkinningMethod::DualQuat: return 3;
    }
    return 1;
}

Result<std::unique_ptr<Renderer>> Renderer::create() {
    std::unique_ptr<Renderer> r(new Renderer());
    auto shaded = buildMeshProgram({});
    if (!shaded) return shaded.error();
    auto lines = Program::build({"lines.vert", "lines.frag"});
    if (!lines) return lines.error();
    r->generic_ = std::move(shaded.value());
    r->lines_ = std::move(lines.value());
    r->uLinesViewProj_ = r->lines_.uniform("u_viewProj");
    r->uLinesPointSize_ = r->lines_.uniform("u_pointSize");
    glGenVertexArrays(1, &r->lineVao_);
    glGenBuffers(1, &r->lineVbo_);
    glBindVertexArray(r->lineVao_);
    glBindBuffer(GL_ARRAY_BUFFER, r->lineVbo_);
    glEnableVertexAttribArray(gl_layout::kPosition);
    glVertexAttribPointer(gl_layout::kPosition, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
    glEnableVertexAttribArray(gl_layout::kColor);
    glVertexAttribPointer(gl_layout::kColor, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<void*>(offsetof(LineVertex, color)));
    glBindVertexArray(0);
    r->lineScratch_.reserve(4096);
    return r;
}

Result<std::unique_ptr<Renderer::MeshProgram>> Renderer::buildMeshProgram(const std::string& defines) {
    auto built = Program::build(PbrShading::shaderFiles(), {}, defines);
    if (!built) return built.error();
    auto m = std::make_unique<MeshProgram>();
    m->program = std::move(built.value());
    const Program& p = m->program;
    m->u = {p.uniform("u_palette"),     p.uniform("u_paletteOffset"),     p.uniform("u_skinned"),
            p.uniform("u_model"),       p.uniform("u_viewProj"),          p.uniform("u_dualQuats"),
            p.uniform("u_morphDeltas"), p.uniform("u_morphWeights"),      p.uniform("u_morphBase"),
            p.uniform("u_morphCount"),  p.uniform("u_morphWeightOffset"), p.uniform("u_influences8")};
    m->pbr.lookUp(p);
    return m;
}

const Renderer::MeshProgram& Renderer::meshProgram(uint32_t key) {
    if (!specialize_) return *generic_;
    auto it = variants_.find(key);
    if (it == variants_.end()) {
        auto built = buildMeshProgram(PbrShading::variantDefines(key));
        it = variants_.emplace(key, built ? std::move(built.value()) : nullptr).first;
    }
    return it->second ? *it->second : *generic_;
}

Renderer::~Renderer() {
    glDeleteBuffers(1, &lineVbo_);
    glDeleteVertexArrays(1, &lineVao_);
}

void Renderer::drawLines(const glm::mat4& viewProj, GLenum mode, float pointSize) {
    if (lineScratch_.empty()) return;
    glUseProgram(lines_.id());
    glUniformMatrix4fv(uLinesViewProj_, 1, GL_FALSE, glm::value_ptr(viewProj));
    glUniform1f(uLinesPointSize_, pointSize);
    glBindVertexArray(lineVao_);
    glBindBuffer(GL_ARRAY_BUFFER, lineVbo_);
    if (lineScratch_.size() > lineCapacity_) {
        lineCapacity_ = std::max(lineScratch_.size(), lineCapacity_ * 2);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lineCapacity_ * sizeof(LineVertex)), nullptr, GL_STREAM_DRAW);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(lineScratch_.size() * sizeof(LineVertex)), lineScratch_.data());
    glDrawArrays(mode, 0, static_cast<GLsizei>(lineScratch_.size()));
    glBindVertexArray(0);
    lineScratch_.clear();
}

void Renderer::finishEnvironment() {
    if (!loading_) return;
    const double budget = environmentBudgetMs_;
    environmentBudgetMs_ = 0.0;
    ViewOptions o;
    o.environment = environmentAsked_;
    useEnvironment(o);
    environmentBudgetMs_ = budget;
}

void Renderer::useEnvironment(const ViewOptions& o) {
    const std::string path = o.environment.empty() ? defaultEnvironmentPath() : o.environment;
    if (path.empty()) {  // the studio, and no data folder to find it in
        environmentAsked_.clear();
        environmentError_ = "the studio environment: " + missingDataFolderMessage();
        return;
    }
    if (path != environmentAsked_) {
        environmentAsked_ = path;
        loading_.reset();
        if (environment_ && environment_->path() == path) {  // back to the one in use (after a map failed)
            environmentError_.clear();
            return;
        }
        loading_ = std::make_unique<EnvironmentLoad>(path);
    }
    if (!loading_) return;
    if (!loading_->advance(environmentBudgetMs_ > 0.0 ? environmentBudgetMs_ : std::numeric_limits<double>::infinity())) {
        return;
    }
    auto env = loading_->take();
    loading_.reset();
    if (env) {
        environment_ = std::move(env.value());
        environmentError_.clear();
    } else {
        environmentError_ = env.error().message;
    }
}

void Renderer::draw(GpuModel& gpu, const Animator& anim, const OrbitCamera& cam, const ViewOptions& o, int width,
                    int height, const Bounds* bounds) {
    const Model& model = gpu.model();
    // The environment lights the materials (and is the environment background): a rig view
    // (check sheets, colour views) of a model needs none, nor does a skeleton alone.
    if ((colorSource_ == ColorSource::Material && !model.meshes.empty()) || o.backgroundMode == BackgroundMode::Environment) {
        useEnvironment(o);
    }
    glViewport(0, 0, width, height);
    glClearColor(o.background.r, o.background.g, o.background.b, o.background.a);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    setSceneState();

    const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
    const glm::mat4 viewProj = cam.projection(aspect) * cam.view();
    if (o.backgroundMode == BackgroundMode::Environment && environment_) {
        environment_->drawBackground(glm::inverse(viewProj), o.environmentRotation, o.backgroundBlur,
                                     static_cast<int>(o.toneMapping), o.exposure);
        setSceneState();
    }
    if (o.groundShadow && bounds && bounds->valid() && colorSource_ == ColorSource::Material) {
        drawGroundShadow(cam, viewProj, *bounds);
    }
    uploadPose(gpu, anim, o);
    drawMeshes(gpu, anim, viewProj, cam, o, glm::vec4(1.0f), colorSource_);

    // Overlays.
    auto line = [&](const glm::vec3& a, const glm::vec3& b, const glm::vec4& c) {
        lineScratch_.push_back({a, c});
        lineScratch_.push_back({b, c});
    };
    const glm::vec3 up = cam.up();
    const float size = bounds && bounds->valid() ? std::max(bounds->diagonal(), 1e-3f) : std::max(cam.distance, 1e-3f);
    if (o.grid) {
        // A ground grid under the model, lines every power-of-ten step.
        const float step = std::pow(10.0f, std::floor(std::log10(size / 4.0f)));
        const int n = 10;
        const glm::vec3 c = bounds && bounds->valid() ? bounds->center() : cam.target;
        const glm::vec3 ax = cam.zUp ? glm::vec3(1, 0, 0) : glm::vec3(1, 0, 0);
        const glm::vec3 az = cam.zUp ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
        glm::vec3 origin = c - glm::dot(c, up) * up;
        origin = glm::round(origin / step) * step;
        if (bounds && bounds->valid()) origin += std::min(0.0f, glm::dot(bounds->min, up)) * up;
        for (int i = -n; i <= n; ++i) {
            const glm::vec4 col = i == 0 ? glm::vec4(0.5f, 0.5f, 0.5f, 0.8f) : glm::vec4(0.4f, 0.4f, 0.42f, 0.5f);
            line(origin + ax * (i * step) - az * (n * step), origin + ax * (i * step) + az * (n * step), col);
            line(origin + az * (i * step) - ax * (n * step), origin + az * (i * step) + ax * (n * step), col);
        }
    }
    if (o.axes) {
        const float l = size * 0.25f;
        line(glm::vec3(0), glm::vec3(l, 0, 0), {1, 0.2f, 0.2f, 1});
        line(glm::vec3(0), glm::vec3(0, l, 0), {0.2f, 1, 0.2f, 1});
        line(glm::vec3(0), glm::vec3(0, 0, l), {0.3f, 0.4f, 1, 1});
    }
    if (o.bounds && bounds && bounds->valid()) {
        const glm::vec3 a = bounds->min, b = bounds->max;
        const glm::vec4 col{1, 0.85f, 0.2f, 1};
        for (int e = 0; e < 4; ++e) {
            const float x0 = (e & 1) ? b.x : a.x, y0 = (e & 2) ? b.y : a.y;
            line({x0, y0, a.z}, {x0, y0, b.z}, col);
            const float y1 = (e & 1) ? b.y : a.y, z1 = (e & 2) ? b.z : a.z;
            line({a.x, y1, z1}, {b.x, y1, z1}, col);
            const float x2 = (e & 1) ? b.x : a.x, z2 = (e & 2) ? b.z : a.z;
            line({x2, a.y, z2}, {x2, b.y, z2}, col);
        }
    }
    glEnable(GL_DEPTH_TEST);
    drawLines(viewProj, GL_LINES, 1.0f);

    // Skeleton, on top of everything.
    jointPositions_.resize(model.skeleton.size());
    for (size_t i = 0; i < model.skeleton.size(); ++i) jointPositions_[i] = glm::vec3(anim.world()[i][3]);
    // Skeleton-only assets (BVH, ASF/AMC) show their bones whatever the option says.
    if (o.bones || model.meshes.empty()) {
        const std::vector<int32_t>& joints = gpu.joints();
        const std::vector<uint8_t>& isJoint = gpu.isJoint();
        glDisable(GL_DEPTH_TEST);
        for (int32_t j : joints) {
            const int32_t p = model.skeleton.parent[j];
            if (p < 0 || !isJoint[p]) continue;
            const bool hi = j == o.highlightJoint || p == o.highlightJoint;
            line(jointPositions_[p], jointPositions_[j], hi ? glm::vec4(1, 0.9f, 0.1f, 1) : glm::vec4(0.3f, 0.9f, 1.0f, 1));
        }
        drawLines(viewProj, GL_LINES, 1.0f);
        glEnable(GL_PROGRAM_POINT_SIZE);
        for (int32_t j : joints) {
            const glm::vec4 col = j == o.highlightJoint ? glm::vec4(1, 0.9f, 0.1f, 1) : glm::vec4(1, 1, 1, 1);
            lineScratch_.push_back({jointPositions_[j], col});
        }
        drawLines(viewProj, GL_POINTS, std::max(4.0f, static_cast<float>(height) / 120.0f));
        glEnable(GL_DEPTH_TEST);
    }
    glUseProgram(0);
}

void Renderer::drawGroundShadow(const OrbitCamera& cam, const glm::mat4& viewProj, const Bounds& b) {
    // A soft contact shadow: a disc on the ground plane under the model (the lowest point of its
    // bounds along the up axis), dark in the middle and fading to nothing at its rim, sized from
    // the footprint. Drawn before the meshes, without writing depth.
    const glm::vec3 up = cam.up();
    const glm::vec3 ax(1, 0, 0), az = cam.zUp ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
    const glm::vec3 c = b.center();
    const glm::vec3 centre = c - glm::dot(c, up) * up + glm::dot(b.min, up) * up;
    const glm::vec3 ext = b.max - b.min;
    const float radius = 0.6f * std::max(glm::length(ext - glm::dot(ext, up) * up), 1e-4f);
    constexpr int kSegments = 48;
    lineScratch_.push_back({centre, {0.0f, 0.0f, 0.0f, 0.45f}});
    for (int i = 0; i <= kSegments; ++i) {
        const float a = 6.2831853f * static_cast<float>(i) / kSegments;
        lineScratch_.push_back({centre + radius * (std::cos(a) * ax + std::sin(a) * az), {0.0f, 0.0f, 0.0f, 0.0f}});
    }
    glDepthMask(GL_FALSE);
    drawLines(viewProj, GL_TRIANGLE_FAN, 1.0f);
    glDepthMask(GL_TRUE);
}

void Renderer::drawMesh(const MeshProgram& p, GpuModel& gpu, const Animator& anim, size_t i, bool gpuSkin,
                        const ViewOptions& o) {
    const Mesh& mesh = gpu.model().meshes[i];
    const GpuMesh& gm = gpu.meshes()[i];
    const bool cpuVertices = gpu.drawsCpuVertices(i, gpuSkin);
    const bool skinOnGpu = mesh.skinned && !cpuVertices;
    glUniform1i(p.u.skinned, skinOnGpu ? shaderSkinMode(o.method) : 0);
    glUniform1i(p.u.influences8, skinOnGpu && gm.secondInfluenceSet && blendsSecondSet(mesh, o.influences) ? 1 : 0);
    glUniform1i(p.u.paletteOffset, static_cast<GLint>(anim.paletteOffset(i)));
    glUniformMatrix4fv(p.u.model, 1, GL_FALSE, glm::value_ptr(anim.skinToModel(i)));
    gpu.setMorphUniforms(i, anim, !cpuVertices, p.u.morphBase, p.u.morphCount, p.u.morphWeightOffset);
    glBindVertexArray(cpuVertices ? gm.cpuVao : gm.vao);
    glDrawElements(GL_TRIANGLES, gm.indexCount, GL_UNSIGNED_INT, nullptr);
}

void Renderer::drawMeshes(GpuModel& gpu, const Animator& anim, const glm::mat4& viewProj, const OrbitCamera& cam,
                          const ViewOptions& o, const glm::vec4& tint, ColorSource source, const std::vector<bool>* only) {
    const Model& model = gpu.model();
    const bool gpuSkin = o.skinning == SkinningMode::Gpu;
    // Each mesh is drawn by the program specialized for it (its material, the view options);
    // switching sets that program's per-frame uniforms.
    const MeshProgram* current = nullptr;
    auto use = [&](size_t i) -> const MeshProgram& {
        const size_t m = std::min<size_t>(model.meshes[i].material, model.materials.size() - 1);
        const MeshProgram& p = meshProgram(
            PbrShading::variantKey(model.materials[m], gpu.materials()[m], o, static_cast<int>(source)));
        if (&p == current) return p;
        current = &p;
        glUseProgram(p.program.id());
        glUniformMatrix4fv(p.u.viewProj, 1, GL_FALSE, glm::value_ptr(viewProj));
        p.pbr.setFrame(cam.eye(), cam.view(), cam.zUp, o, environment_.get());
        p.pbr.setSource(static_cast<int>(source), tint);
        glUniform1i(p.u.palette, gl_layout::kUnitPalette);
        glUniform1i(p.u.dualQuats, gl_layout::kUnitDualQuats);
        glUniform1i(p.u.morphDeltas, gl_layout::kUnitMorphDeltas);
        glUniform1i(p.u.morphWeights, gl_layout::kUnitMorphWeights);
        return p;
    };
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitDualQuats);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.dualQuatTexture());
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitMorphDeltas);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.morphDeltaTexture());
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitMorphWeights);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.morphWeightTexture());
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitPalette);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.paletteTexture());
    if (o.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    const bool materials = source == ColorSource::Material;
    auto materialOf = [&](size_t i) -> size_t { return std::min<size_t>(model.meshes[i].material, model.materials.size() - 1); };
    auto bind = [&](size_t i) -> const MeshProgram& {
        const MeshProgram& p = use(i);
        const size_t m = materialOf(i);
        p.pbr.setMaterial(model.materials[m], gpu.materials()[m], o.textures);
        return p;
    };
    // Opaque and MASK meshes first, in file order; single-sided ones with their back faces culled.
    std::vector<std::pair<float, size_t>> blended;
    const glm::mat4 view = cam.view();
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        if (gpu.meshes()[i].indexCount == 0 || (only && !(*only)[i])) continue;
        const Material& mat = model.materials[materialOf(i)];
        if (materials && mat.alphaMode == AlphaMode::Blend) {
            const glm::vec3 c = glm::vec3(anim.skinToModel(i) * glm::vec4(gpu.meshes()[i].center, 1.0f));
            blended.push_back({(view * glm::vec4(c, 1.0f)).z, i});
            continue;
        }
        const MeshProgram& p = bind(i);
        if (materials && !mat.doubleSided) {
            glEnable(GL_CULL_FACE);
            glCullFace(GL_BACK);
        } else {
            glDisable(GL_CULL_FACE);
        }
        drawMesh(p, gpu, anim, i, gpuSkin, o);
    }
    // BLEND meshes after, back to front (view-space z grows towards the eye), without writing
    // depth; a double-sided one in two passes, its back faces first (three.js's order).
    std::stable_sort(blended.begin(), blended.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!blended.empty()) glDepthMask(GL_FALSE);
    for (const auto& [depth, i] : blended) {
        const MeshProgram& p = bind(i);
        glEnable(GL_CULL_FACE);
        if (model.materials[materialOf(i)].doubleSided) {
            glCullFace(GL_FRONT);
            drawMesh(p, gpu, anim, i, gpuSkin, o);
        }
        glCullFace(GL_BACK);
        drawMesh(p, gpu, anim, i, gpuSkin, o);
    }
    if (!blended.empty()) glDepthMask(GL_TRUE);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(0);
    if (o.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

void Renderer::drawPath(const std::vector<glm::vec3>& points, const glm::vec4& color, const OrbitCamera& cam, int width,
                        int height) {
    const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
    for (const glm::vec3& p : points) lineScratch_.push_back({p, color});
    glDisable(GL_DEPTH_TEST);
    drawLines(cam.projection(aspect) * cam.view(), GL_LINE_STRIP, 1.0f);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(0);
}

void Renderer::drawPoints(const std::vector<glm::vec3>& points, const glm::vec4& color, const OrbitCamera& cam, int width,
                          int height, float pixelSize) {
    if (points.empty()) return;
    const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
    for (const glm::vec3& p : points) lineScratch_.push_back({p, color});
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_PROGRAM_POINT_SIZE);
    drawLines(cam.projection(aspect) * cam.view(), GL_POINTS, pixelSize);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(0);
}

void Renderer::uploadPose(GpuModel& gpu, const Animator& anim, const ViewOptions& o) {
    if (o.skinning == SkinningMode::Gpu) {
        gpu.uploadPalette(anim, o.method == SkinningMethod::DualQuat);
        if (!gpu.morphsOnGpu()) gpu.uploadCpuSkinning(anim, o.method, true, o.influences);
    } else {
        gpu.uploadCpuSkinning(anim, o.method, false, o.influences);
    }
}

void Renderer::drawOutline(GpuModel& gpu, const Animator& anim, const OrbitCamera& cam, const ViewOptions& o, int width,
                           int height, const std::vector<size_t>& meshes, const glm::vec4& color, float px) {
    std::vector<bool> only(gpu.model().meshes.size(), false);
    bool any = false;
    for (size_t i : meshes) {
        if (i < only.size()) only[i] = any = true;
    }
    if (!any || width < 1 || height < 1) return;
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    const glm::mat4 viewProj = cam.projection(aspect) * cam.view();
    uploadPose(gpu, anim, o);
    ViewOptions flat = o;  // the tint alone, unlit: one flat colour
    flat.wireframe = false;
    flat.lighting = false;
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_BLEND);
    glEnable(GL_STENCIL_TEST);
    glStencilMask(0xFF);
    glClearStencil(0);
    glClear(GL_STENCIL_BUFFER_BIT);
    // The silhouette, into the stencil only.
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glStencilFunc(GL_ALWAYS, 1, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    drawMeshes(gpu, anim, viewProj, cam, flat, glm::vec4(1.0f), ColorSource::TintOnly, &only);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    // Shifted `px` in clip space (x w: the same on screen at any depth), where it is not.
    glStencilFunc(GL_NOTEQUAL, 1, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    for (int k = 0; k < 8; ++k) {
        const float a = 0.7853982f * static_cast<float>(k);
        const glm::vec3 shift(std::cos(a) * px * 2.0f / static_cast<float>(width),
                              std::sin(a) * px * 2.0f / static_cast<float>(height), 0.0f);
        drawMeshes(gpu, anim, glm::translate(glm::mat4(1.0f), shift) * viewProj, cam, flat, color, ColorSource::TintOnly, &only);
    }
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glUseProgram(0);
}

void Renderer::drawGhost(GpuModel& gpu, const Animator& anim, const OrbitCamera& cam, const ViewOptions& o, int width,
                         int height, const glm::vec4& tint) {
    const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
    const glm::mat4 viewProj = cam.projection(aspect) * cam.view();
    uploadPose(gpu, anim, o);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    ViewOptions ghost = o;
    ghost.wireframe = false;
    drawMeshes(gpu, anim, viewProj, cam, ghost, tint, ColorSource::TintOnly);
    glDepthMask(GL_TRUE);
    glUseProgram(0);
}

namespace {

// Vertices skinned on the CPU for bounds and framing, at most, whatever the model's size: past
// it every k-th vertex of each mesh is posed (a 1M-vertex character skinned whole 25 times took
// half a second of `render`).
constexpr size_t kMaxBoundsVertices = 2000000;

// The vertices of mesh `m` as `anim` poses them, in model space: all of them (skinMesh, the
// reference), or every `stride`-th one posed alone (the same math, vertex by vertex).
void posedVertices(const Model& model, const Animator& anim, size_t m, size_t stride, std::vector<glm::vec3>& scratch,
                   const std::function<void(const glm::vec3&)>& add) {
    const Mesh& mesh = model.meshes[m];
    const glm::mat4* palette = anim.palette().data() + anim.paletteOffset(m);
    const float* weights = anim.meshMorphWeights(m);
    const glm::mat4& toModel = anim.skinToModel(m);
    if (stride <= 1) {
        scratch.resize(mesh.vertexCount());
        skinMesh(mesh, palette, weights, scratch.data(), nullptr);
        for (const glm::vec3& p : scratch) add(glm::vec3(toModel * glm::vec4(p, 1.0f)));
        return;
    }
    for (size_t v = 0; v < mesh.vertexCount(); v += stride) {
        glm::vec3 p = weights && !mesh.morphTargets.empty() ? morphedPosition(mesh, v, weights) : mesh.positions[v];
        if (mesh.skinned) p = glm::vec3(blendMatrix(mesh, v, palette) * glm::vec4(p, 1.0f));
        add(glm::vec3(toModel * glm::vec4(p, 1.0f)));
    }
}

size_t vertexCount(const Model& model) {
    size_t total = 0;
    for (const Mesh& mesh : model.meshes) total += mesh.vertexCount();
    return total;
}

}  // namespace

Bounds animatedBounds(const Model& model, int32_t clip, int samples) {
    Bounds b;
    Animator anim(model);
    std::vector<glm::vec3> scratch;
    const bool animated = clip >= 0 && static_cast<size_t>(clip) < model.clips.size();
    const int n = animated ? std::max(samples, 1) : 1;
    const size_t work = vertexCount(model) * static_cast<size_t>(n);
    const size_t stride = (work + kMaxBoundsVertices - 1) / kMaxBoundsVertices;
    const std::vector<int32_t> joints = model.meshes.empty() || stride > 1 ? model.jointNodes() : std::vector<int32_t>{};
    for (int s = 0; s < n; ++s) {
        const float t = animated ? model.clips[clip].duration * static_cast<float>(s) / static_cast<float>(std::max(n - 1, 1)) : 0.0f;
        anim.evaluate(clip, t);  // a still pose (bind or file) when not a clip
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            posedVertices(model, anim, m, stride, scratch, [&](const glm::vec3& p) { b.add(p); });
        }
        // The joints too where the mesh is sampled (or there is none).
        for (int32_t j : joints) b.add(glm::vec3(anim.world()[j][3]));
    }
    return b;
}

void posedPoints(const Model& model, const Animator& anim, std::vector<glm::vec3>& out, size_t maxPoints) {
    const size_t total = vertexCount(model);
    const size_t stride = std::max<size_t>(1, (total + maxPoints - 1) / std::max<size_t>(maxPoints, 1));
    std::vector<glm::vec3> scratch;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        posedVertices(model, anim, m, stride, scratch, [&](const glm::vec3& p) { out.push_back(p); });
    }
    if (model.meshes.empty()) {
        for (int32_t j : model.jointNodes()) out.push_back(glm::vec3(anim.world()[j][3]));
    }
}

}  // namespace rig
