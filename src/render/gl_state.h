// Small pieces of GL set-up shared by the renderers and the transform-feedback captures.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "platform/gl.h"
#include "render/camera.h"
#include "render/view_options.h"

namespace rig {

// A 1x1 RGBA8 framebuffer: transform-feedback captures bind it because a draw needs a
// complete framebuffer, even headless with rasterization discarded. Owns its GL objects.
class CaptureTarget {
public:
    CaptureTarget();
    ~CaptureTarget();
    CaptureTarget(const CaptureTarget&) = delete;
    CaptureTarget& operator=(const CaptureTarget&) = delete;
    void bind() const { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }

private:
    GLuint fbo_ = 0, rb_ = 0;
};

// The state every scene draw starts from: depth test (less or equal), no face culling (files
// disagree on winding), alpha blending.
inline void setSceneState() {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

// The shaded program's lighting, the same for one model and for a crowd: the eye, a key light
// from above the ground plane, headlight, ambient and lighting on/off. `u` holds the uniform
// locations (eye, keyLight, headlight, ambient, lighting); the program must be in use.
template <class Uniforms>
void setLightUniforms(const Uniforms& u, const OrbitCamera& cam, const ViewOptions& o) {
    const glm::vec3 eye = cam.eye();
    glUniform3fv(u.eye, 1, glm::value_ptr(eye));
    const glm::vec3 key = cam.zUp ? glm::vec3(0.4f, -0.5f, 0.8f) : glm::vec3(0.4f, 0.8f, 0.5f);
    glUniform3fv(u.keyLight, 1, glm::value_ptr(key));
    glUniform1i(u.headlight, o.headlight ? 1 : 0);
    glUniform1f(u.ambient, o.ambient);
    glUniform1i(u.lighting, o.lighting ? 1 : 0);
}

}  // namespace rig
