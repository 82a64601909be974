// Small pieces of GL set-up shared by the renderers and the transform-feedback captures.
#pragma once

#include <glm/glm.hpp>

#include "platform/gl.h"

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

// The state every scene draw starts from: depth test (less or equal), no face culling (the mesh
// draws cull per material: glTF's doubleSided), alpha blending.
inline void setSceneState() {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

}  // namespace rig
