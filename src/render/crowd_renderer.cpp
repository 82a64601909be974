#include "render/crowd_renderer.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

#include "render/layout.h"
#include "render/renderer.h"

namespace rig {

namespace {

constexpr int kUnitCrowd = 5;      // samplerBuffer, RGBA32F: the Crowd's gpuRows()
constexpr int kUnitInstances = 6;  // samplerBuffer, RGBA32F: offset.xyz, crowd index

}  // namespace

std::vector<glm::vec3> crowdGrid(size_t n, float spacing, bool zUp) {
    std::vector<glm::vec3> out(n);
    const size_t cols = std::max<size_t>(1, static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(n)))));
    const size_t rows = (n + cols - 1) / cols;
    const glm::vec3 ax(1, 0, 0), az = zUp ? glm::vec3(0, -1, 0) : glm::vec3(0, 0, 1);
    for (size_t i = 0; i < n; ++i) {
        const float x = (static_cast<float>(i % cols) - 0.5f * static_cast<float>(cols - 1)) * spacing;
        const float z = (static_cast<float>(i / cols) - 0.5f * static_cast<float>(rows - 1)) * spacing;
        out[i] = ax * x + az * z;
    }
    return out;
}

Bounds crowdBounds(const Bounds& instance, const std::vector<glm::vec3>& offsets) {
    Bounds b;
    if (!instance.valid()) return b;
    for (const glm::vec3& o : offsets) {
        b.add(instance.min + o);
        b.add(instance.max + o);
    }
    return b;
}

size_t cullInstances(const glm::mat4& m, const Bounds& instance, const glm::vec3* offsets, size_t n,
                     uint32_t* visible) {
    // The six planes of the clip volume in world space (Gribb & Hartmann): row 3 +- row k.
    glm::vec4 planes[6];
    const glm::vec4 r0(m[0][0], m[1][0], m[2][0], m[3][0]), r1(m[0][1], m[1][1], m[2][1], m[3][1]),
        r2(m[0][2], m[1][2], m[2][2], m[3][2]), r3(m[0][3], m[1][3], m[2][3], m[3][3]);
    planes[0] = r3 + r0;
    planes[1] = r3 - r0;
    planes[2] = r3 + r1;
    planes[3] = r3 - r1;
    planes[4] = r3 + r2;
    planes[5] = r3 - r2;
    for (glm::vec4& p : planes) {
        const float len = glm::length(glm::vec3(p));
        if (len > 0.0f) p /= len;
    }
    const glm::vec3 c = instance.center();
    const float r = 0.5f * instance.diagonal();
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        const glm::vec3 p = c + offsets[i];
        bool inside = true;
        for (const glm::vec4& pl : planes) {
            if (glm::dot(glm::vec3(pl), p) + pl.w < -r) {
                inside = false;
                break;
            }
        }
        if (inside) visible[count++] = static_cast<uint32_t>(i);
    }
    return count;
}

void CrowdRenderer::Uniforms::lookUp(const Program& p) {
    instanced = p.uniform("u_instanced");
    crowd = p.uniform("u_crowd");
    instances = p.uniform("u_instances");
    stride = p.uniform("u_instanceStride");
    meshWorld = p.uniform("u_meshWorldTexel");
    paletteOffset = p.uniform("u_paletteOffset");
    skinned = p.uniform("u_skinned");
    influences8 = p.uniform("u_influences8");
    viewProj = p.uniform("u_viewProj");
    morphCount = p.uniform("u_morphCount");
}

Result<std::unique_ptr<CrowdRenderer>> CrowdRenderer::create() {
    std::unique_ptr<CrowdRenderer> r(new CrowdRenderer());
    auto shaded = Program::build(PbrShading::shaderFiles());
    if (!shaded) return shaded.error();
    auto capture = Program::build({"skinned.vert"}, {"v_worldPos"});
    if (!capture) return capture.error();
    r->shaded_ = std::move(shaded.value());
    r->capture_ = std::move(capture.value());
    r->su_.lookUp(r->shaded_);
    r->pbr_.lookUp(r->shaded_);
    r->cu_.lookUp(r->capture_);
    GLint most = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &most);
    r->maxTexels_ = static_cast<size_t>(std::max(most, 65536));
    glGenBuffers(1, &r->rowsBuffer_);
    glGenTextures(1, &r->rowsTex_);
    glGenBuffers(1, &r->instBuffer_);
    glGenTextures(1, &r->instTex_);
    glGenBuffers(1, &r->feedback_);
    glGenQueries(2, r->queries_);
    return r;
}

CrowdRenderer::~CrowdRenderer() {
    glDeleteTextures(1, &rowsTex_);
    glDeleteBuffers(1, &rowsBuffer_);
    glDeleteTextures(1, &instTex_);
    glDeleteBuffers(1, &instBuffer_);
    glDeleteBuffers(1, &feedback_);
    glDeleteQueries(2, queries_);
}

bool CrowdRenderer::fits(const Crowd& crowd) const {
    return crowd.size() * crowd.texelsPerInstance() <= maxTexels_ && crowd.size() <= maxTexels_;
}

void CrowdRenderer::uploadRows(const Crowd& crowd) {
    const std::vector<glm::vec4>& rows = crowd.gpuRows();
    const size_t bytes = rows.size() * sizeof(glm::vec4);
    glBindBuffer(GL_TEXTURE_BUFFER, rowsBuffer_);
    if (bytes > rowsCapacity_) {
        rowsCapacity_ = bytes;
        glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
        glBindTexture(GL_TEXTURE_BUFFER, rowsTex_);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, rowsBuffer_);
    }
    if (bytes) glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), rows.data());
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void CrowdRenderer::uploadInstances(const uint32_t* list, size_t count, const glm::vec3* offsets) {
    if (instRows_.size() < std::max<size_t>(count, 1) * 4) instRows_.resize(std::max<size_t>(count, 1) * 4);
    for (size_t k = 0; k < count; ++k) {
        const glm::vec3& o = offsets[list[k]];
        instRows_[k * 4 + 0] = o.x;
        instRows_[k * 4 + 1] = o.y;
        instRows_[k * 4 + 2] = o.z;
        instRows_[k * 4 + 3] = static_cast<float>(list[k]);
    }
    const size_t bytes = std::max<size_t>(count, 1) * 4 * sizeof(float);
    glBindBuffer(GL_TEXTURE_BUFFER, instBuffer_);
    if (bytes > instCapacity_) {
        instCapacity_ = bytes;
        glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
        glBindTexture(GL_TEXTURE_BUFFER, instTex_);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, instBuffer_);
    }
    glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(count * 4 * sizeof(float)), instRows_.data());
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void CrowdRenderer::bindCrowd(const Uniforms& u, const Crowd& crowd, const glm::mat4& viewProj) {
    glUniform1i(u.instanced, 1);
    glUniform1i(u.crowd, kUnitCrowd);
    glUniform1i(u.instances, kUnitInstances);
    glUniform1i(u.stride, static_cast<GLint>(crowd.texelsPerInstance()));
    glUniform1i(u.morphCount, 0);
    glUniformMatrix4fv(u.viewProj, 1, GL_FALSE, glm::value_ptr(viewProj));
    glActiveTexture(GL_TEXTURE0 + kUnitCrowd);
    glBindTexture(GL_TEXTURE_BUFFER, rowsTex_);
    glActiveTexture(GL_TEXTURE0 + kUnitInstances);
    glBindTexture(GL_TEXTURE_BUFFER, instTex_);
}

void CrowdRenderer::drawInstances(GpuModel& gpu, const Crowd& crowd, const uint32_t* list, size_t count,
                                  const glm::vec3* offsets, const ViewOptions& o) {
    if (count == 0) return;
    const Model& model = gpu.model();
    uploadInstances(list, count, offsets);
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        const Mesh& mesh = model.meshes[i];
        const GpuMesh& gm = gpu.meshes()[i];
        if (gm.indexCount == 0) continue;
        glUniform1i(su_.skinned, mesh.skinned ? shaderSkinMode(usedMethod_) : 0);
        glUniform1i(su_.influences8, mesh.skinned && gm.secondInfluenceSet && blendsSecondSet(mesh, o.influences) ? 1 : 0);
        glUniform1i(su_.paletteOffset, static_cast<GLint>(crowd.paletteOffset(i)));
        glUniform1i(su_.meshWorld, static_cast<GLint>(crowd.meshWorldTexel(i)));
        const size_t m = std::min<size_t>(mesh.material, model.materials.size() - 1);
        pbr_.setMaterial(model.materials[m], gpu.materials()[m], o.textures);
        // A crowd is drawn in one pass in file order: single-sided meshes cull their back faces.
        if (model.materials[m].doubleSided) {
            glDisable(GL_CULL_FACE);
        } else {
            glEnable(GL_CULL_FACE);
            glCullFace(GL_BACK);
        }
        glBindVertexArray(gm.vao);
        glDrawElementsInstanced(GL_TRIANGLES, gm.indexCount, GL_UNSIGNED_INT, nullptr, static_cast<GLsizei>(count));
    }
}

CrowdRenderer::Stats CrowdRenderer::draw(GpuModel& gpu, const Crowd& crowd, const std::vector<glm::vec3>& offsets,
                                         const Bounds& instance, const OrbitCamera& cam, const ViewOptions& o,
                                         int width, int height, bool clear, const Environment* env, GpuModel* lod,
                                         float lodDistance) {
    Stats st;
    glViewport(0, 0, width, height);
    if (clear) {
        glClearColor(o.background.r, o.background.g, o.background.b, o.background.a);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    const size_t n = std::min(crowd.size(), offsets.size());
    if (n == 0 || !fits(crowd)) return st;
    // The GPU time of an earlier frame, if its query has finished (never waits).
    for (int q = 0; q < 2; ++q) {
        if (!queryPending_[q]) continue;
        GLint available = 0;
        glGetQueryObjectiv(queries_[q], GL_QUERY_RESULT_AVAILABLE, &available);
        if (available) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(queries_[q], GL_QUERY_RESULT, &ns);
            gpuMs_ = static_cast<double>(ns) * 1e-6;
            queryPending_[q] = false;
        }
    }
    const int q = queryNext_;
    const bool timing = !queryPending_[q];
    if (timing) glBeginQuery(GL_TIME_ELAPSED, queries_[q]);

    setSceneState();
    const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
    const glm::mat4 viewProj = cam.projection(aspect) * cam.view();
    if (visible_.size() < n) visible_.resize(n);
    st.drawn = cullInstances(viewProj, instance, offsets.data(), n, visible_.data());
    st.culled = n - st.drawn;
    usedMethod_ = o.method == SkinningMethod::Stitch ? SkinningMethod::Stitch : SkinningMethod::Linear;
    if (st.drawn > 0) {
        uploadRows(crowd);
        glUseProgram(shaded_.id());
        bindCrowd(su_, crowd, viewProj);
        pbr_.setFrame(cam.eye(), cam.view(), cam.zUp, o, env);
        pbr_.setSource(0, glm::vec4(1.0f));
        if (o.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        // Far instances from the lighter model: the visible list split, the near ones first.
        size_t near = st.drawn;
        if (lod && lod->meshes().size() == gpu.meshes().size()) {
            const glm::vec3 eye = cam.eye(), centre = instance.valid() ? instance.center() : glm::vec3(0.0f);
            const float d2 = lodDistance * lodDistance;
            auto isNear = [&](uint32_t k) {
                const glm::vec3 d = offsets[k] + centre - eye;
                return glm::dot(d, d) <= d2;
            };
            near = static_cast<size_t>(std::partition(visible_.begin(), visible_.begin() + static_cast<std::ptrdiff_t>(st.drawn), isNear) -
                                       visible_.begin());
            st.lowDetail = st.drawn - near;
        }
        drawInstances(gpu, crowd, visible_.data(), near, offsets.data(), o);
        if (st.lowDetail > 0) drawInstances(*lod, crowd, visible_.data() + near, st.lowDetail, offsets.data(), o);
        glDisable(GL_CULL_FACE);
        glBindVertexArray(0);
        if (o.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        glUniform1i(su_.instanced, 0);
        glUseProgram(0);
    }
    if (timing) {
        glEndQuery(GL_TIME_ELAPSED);
        queryPending_[q] = true;
        queryNext_ = 1 - q;
    }
    return st;
}

std::vector<glm::vec3> CrowdRenderer::capture(GpuModel& gpu, const Crowd& crowd, const std::vector<glm::vec3>& offsets,
                                              const std::vector<uint32_t>& instances, size_t mesh) {
    const Mesh& m = gpu.model().meshes[mesh];
    const size_t n = m.vertexCount(), count = instances.size();
    std::vector<glm::vec3> out(n * count);
    if (out.empty() || !fits(crowd)) return out;
    uploadRows(crowd);
    uploadInstances(instances.data(), count, offsets.data());
    glUseProgram(capture_.id());
    bindCrowd(cu_, crowd, glm::mat4(1.0f));
    glUniform1i(cu_.skinned, m.skinned ? shaderSkinMode(SkinningMethod::Linear) : 0);
    glUniform1i(cu_.paletteOffset, static_cast<GLint>(crowd.paletteOffset(mesh)));
    glUniform1i(cu_.meshWorld, static_cast<GLint>(crowd.meshWorldTexel(mesh)));
    const size_t bytes = out.size() * sizeof(glm::vec3);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, feedback_);
    if (bytes > feedbackCapacity_) {
        feedbackCapacity_ = bytes;
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_READ);
    }
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, feedback_);
    GLint previousFbo = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFbo);
    target_.bind();
    glEnable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(gpu.meshes()[mesh].vao);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArraysInstanced(GL_POINTS, 0, static_cast<GLsizei>(n), static_cast<GLsizei>(count));
    glEndTransformFeedback();
    glBindVertexArray(0);
    glDisable(GL_RASTERIZER_DISCARD);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previousFbo));
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes), out.data());
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glUniform1i(cu_.instanced, 0);
    glUseProgram(0);
    return out;
}

}  // namespace rig
