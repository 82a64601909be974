#include "support/skin_capture.h"

#include <glm/gtc/type_ptr.hpp>

#include "render/layout.h"
#include "render/renderer.h"

namespace rig {

Result<std::unique_ptr<SkinCapture>> SkinCapture::create() {
    std::unique_ptr<SkinCapture> c(new SkinCapture());
    auto p = Program::build({"skinned.vert"}, {"v_worldPos"});
    if (!p) return p.error();
    c->program_ = std::move(p.value());
    c->uPalette_ = c->program_.uniform("u_palette");
    c->uDualQuats_ = c->program_.uniform("u_dualQuats");
    c->uOffset_ = c->program_.uniform("u_paletteOffset");
    c->uSkinned_ = c->program_.uniform("u_skinned");
    c->uInfluences8_ = c->program_.uniform("u_influences8");
    c->uModel_ = c->program_.uniform("u_model");
    c->uViewProj_ = c->program_.uniform("u_viewProj");
    c->uMorphDeltas_ = c->program_.uniform("u_morphDeltas");
    c->uMorphWeights_ = c->program_.uniform("u_morphWeights");
    c->uMorphBase_ = c->program_.uniform("u_morphBase");
    c->uMorphCount_ = c->program_.uniform("u_morphCount");
    c->uMorphWeightOffset_ = c->program_.uniform("u_morphWeightOffset");
    glGenBuffers(1, &c->buffer_);
    return c;
}

SkinCapture::~SkinCapture() {
    glDeleteBuffers(1, &buffer_);
}

std::vector<glm::vec3> SkinCapture::capture(GpuModel& gpu, const Animator& anim, size_t mesh, SkinningMethod method,
                                            int influences) {
    const Mesh& m = gpu.model().meshes[mesh];
    const size_t n = m.vertexCount();
    std::vector<glm::vec3> out(n);
    if (n == 0) return out;
    gpu.uploadPalette(anim, method == SkinningMethod::DualQuat);
    glUseProgram(program_.id());
    glUniform1i(uPalette_, gl_layout::kUnitPalette);
    glUniform1i(uOffset_, static_cast<GLint>(anim.paletteOffset(mesh)));
    glUniform1i(uSkinned_, m.skinned ? shaderSkinMode(method) : 0);
    glUniform1i(uInfluences8_, m.skinned && gpu.meshes()[mesh].secondInfluenceSet && blendsSecondSet(m, influences) ? 1 : 0);
    glUniform1i(uDualQuats_, gl_layout::kUnitDualQuats);
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitDualQuats);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.dualQuatTexture());
    glUniformMatrix4fv(uModel_, 1, GL_FALSE, glm::value_ptr(anim.skinToModel(mesh)));
    const glm::mat4 identity(1.0f);
    glUniformMatrix4fv(uViewProj_, 1, GL_FALSE, glm::value_ptr(identity));
    glUniform1i(uMorphDeltas_, gl_layout::kUnitMorphDeltas);
    glUniform1i(uMorphWeights_, gl_layout::kUnitMorphWeights);
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitMorphDeltas);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.morphDeltaTexture());
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitMorphWeights);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.morphWeightTexture());
    gpu.setMorphUniforms(mesh, anim, true, uMorphBase_, uMorphCount_, uMorphWeightOffset_);
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitPalette);
    glBindTexture(GL_TEXTURE_BUFFER, gpu.paletteTexture());
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffer_);
    if (n > capacity_) {
        capacity_ = n;
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(n * sizeof(glm::vec3)), nullptr, GL_STREAM_READ);
    }
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer_);
    GLint previousFbo = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFbo);
    target_.bind();
    glEnable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(gpu.meshes()[mesh].vao);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(n));
    glEndTransformFeedback();
    glBindVertexArray(0);
    glDisable(GL_RASTERIZER_DISCARD);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previousFbo));
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(glm::vec3)), out.data());
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glUseProgram(0);
    return out;
}

}  // namespace rig
