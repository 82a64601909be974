#include "render/offscreen.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cstring>

#include "util/output_file.h"

namespace rig {

Result<std::unique_ptr<OffscreenTarget>> OffscreenTarget::create(int width, int height, int samples) {
    GLint maxSize = 0, maxSamples = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
    if (width < 1 || height < 1 || width > maxSize || height > maxSize) {
        return Error{"image size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
                     std::to_string(maxSize)};
    }
    std::unique_ptr<OffscreenTarget> t(new OffscreenTarget());
    t->width_ = width;
    t->height_ = height;
    t->samples_ = std::clamp(samples, 0, static_cast<int>(maxSamples));
    auto makeFbo = [&](GLuint& fbo, GLuint& color, GLuint& depth, int s) {
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glGenRenderbuffers(1, &color);
        glBindRenderbuffer(GL_RENDERBUFFER, color);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_RGBA8, width, height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
        glGenRenderbuffers(1, &depth);
        glBindRenderbuffer(GL_RENDERBUFFER, depth);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_DEPTH24_STENCIL8, width, height);  // stencil: outlines
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
        return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    };
    if (!makeFbo(t->fbo_, t->color_, t->depth_, 0)) return Error{"offscreen framebuffer is incomplete"};
    if (t->samples_ > 1 && !makeFbo(t->msFbo_, t->msColor_, t->msDepth_, t->samples_)) {
        return Error{"multisampled offscreen framebuffer is incomplete"};
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return t;
}

OffscreenTarget::~OffscreenTarget() {
    const GLuint fbos[] = {msFbo_, fbo_};
    const GLuint rbs[] = {msColor_, msDepth_, color_, depth_};
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(4, rbs);
}

void OffscreenTarget::bind() { glBindFramebuffer(GL_FRAMEBUFFER, samples_ > 1 ? msFbo_ : fbo_); }

std::vector<uint8_t> OffscreenTarget::readPixels() {
    if (samples_ > 1) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, msFbo_);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
        glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    std::vector<uint8_t> px(static_cast<size_t>(width_) * height_ * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    // GL's rows start at the bottom; images start at the top.
    const size_t row = static_cast<size_t>(width_) * 4;
    std::vector<uint8_t> tmp(row);
    for (int y = 0; y < height_ / 2; ++y) {
        uint8_t* a = px.data() + static_cast<size_t>(y) * row;
        uint8_t* b = px.data() + static_cast<size_t>(height_ - 1 - y) * row;
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
    return px;
}

void OffscreenTarget::resolveTo(GLuint drawFbo) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, samples_ > 1 ? msFbo_ : fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, drawFbo);
    const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);  // a blit is clipped by the scissor
    glDisable(GL_SCISSOR_TEST);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    if (scissor) glEnable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, drawFbo);
}

bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, std::string* error) {
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    std::string why;
    if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4)) {
        why = path + ": cannot write the output file (PNG encoding failed)";
    } else if (writeOutputFile(path, png, why)) {
        return true;
    }
    if (error) *error = why;
    return false;
}

}  // namespace rig
