// HeadlessContext: an OpenGL 3.3+ core context with no window and no X server, through
// EGL (Mesa's surfaceless platform, or the device platform: NVIDIA, or Mesa on a render
// node). Draw into framebuffer objects (render/offscreen.h).
#pragma once

#include <memory>
#include <string>

#include "anim/runtime/result.h"

namespace rig {

class HeadlessContext {
public:
    // Create a context and make it current on the calling thread; loads GL with glad.
    static Result<std::unique_ptr<HeadlessContext>> create();
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    // "EGL surfaceless (Mesa)" or "EGL device", plus GL_RENDERER and GL_VERSION.
    const std::string& description() const { return description_; }

private:
    HeadlessContext() = default;
    void* display_ = nullptr;
    void* context_ = nullptr;
    std::string description_;
};

}  // namespace rig
