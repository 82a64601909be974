// Window: a GLFW window with an OpenGL 3.3 core context (4.1 core forward-compatible where
// the platform needs it, as on macOS), loaded with glad. Files dropped on it are queued.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/result.h"

struct GLFWwindow;

namespace rig {

// Whether a GL_RENDERER string names a software rasterizer: Mesa's llvmpipe, softpipe and
// swrast, Google's SwiftShader, Microsoft's GDI "Generic" renderer.
bool isSoftwareRenderer(const std::string& glRenderer);

class Window {
public:
    // Fails with a clear message when there is no display (no X server / Wayland).
    static Result<std::unique_ptr<Window>> create(const std::string& title, int width, int height, int samples);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool shouldClose() const;
    void requestClose();
    void setTitle(const std::string& title);
    void pollEvents();
    // Sleep until an event arrives or `seconds` pass (events are then handled as pollEvents does).
    void waitEvents(double seconds);
    // Wake a waitEvents() from another thread (a finished import).
    static void wake();
    // Window events seen by this window's own callbacks (resize, expose, focus, iconify, scroll,
    // text input, drops, the cursor entering or leaving); keys, buttons and cursor moves are
    // the InputQueue's. A change means something may look different: draw a frame.
    unsigned long long eventCount() const { return events_; }
    // The refresh rate of the monitor the window is on (or the primary one), in Hz; 60 when
    // none says.
    double refreshRate() const;
    void swapBuffers();
    void framebufferSize(int& w, int& h) const;
    // Paths dropped on the window since the last call.
    std::vector<std::string> takeDroppedPaths();
    std::string glDescription() const;
    // The context's renderer rasterizes on the CPU (isSoftwareRenderer).
    bool softwareRenderer() const;

private:
    Window() = default;
    GLFWwindow* window_ = nullptr;
    std::vector<std::string> dropped_;
    unsigned long long events_ = 0;
    friend void onDrop(GLFWwindow*, int, const char**);
    friend void countEvent(GLFWwindow*);
};

}  // namespace rig
