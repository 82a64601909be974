#include "render/gl_state.h"

namespace rig {

CaptureTarget::CaptureTarget() {
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &rb_);
    glBindRenderbuffer(GL_RENDERBUFFER, rb_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb_);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

CaptureTarget::~CaptureTarget() {
    glDeleteFramebuffers(1, &fbo_);
    glDeleteRenderbuffers(1, &rb_);
}

}  // namespace rig
