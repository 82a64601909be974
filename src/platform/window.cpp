#include "platform/window.h"

#include <GLFW/glfw3.h>

#include <cstdio>

#include "platform/gl.h"
#include "platform/lsan_scope.h"

namespace rig {

namespace {
std::string gGlfwError;
void onGlfwError(int, const char* description) { gGlfwError = description ? description : "unknown GLFW error"; }
}  // namespace

void onDrop(GLFWwindow* w, int count, const char** paths) {
    auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
    if (!self) return;
    for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
}

Result<std::unique_ptr<Window>> Window::create(const std::string& title, int width, int height, int samples) {
    [[maybe_unused]] LsanIgnoreScope driverAllocations;
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit()) {
        return Error{"no display to open a window on (" + gGlfwError +
                     "); for pictures without a display use `rigview render MODEL -o OUT.png`"};
    }
    std::unique_ptr<Window> w(new Window());
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // required on macOS, harmless elsewhere
    glfwWindowHint(GLFW_SAMPLES, samples);
    w->window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!w->window_) {
        glfwTerminate();
        return Error{"cannot create an OpenGL 3.3 core window (" + gGlfwError + ")"};
    }
    glfwSetWindowUserPointer(w->window_, w.get());
    glfwSetDropCallback(w->window_, onDrop);
    glfwMakeContextCurrent(w->window_);
    glfwSwapInterval(1);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        return Error{"cannot load OpenGL functions"};
    }
    return w;
}

Window::~Window() {
    [[maybe_unused]] LsanIgnoreScope driverAllocations;
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window_); }
void Window::requestClose() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::setTitle(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }
void Window::pollEvents() { glfwPollEvents(); }
void Window::swapBuffers() { glfwSwapBuffers(window_); }
void Window::framebufferSize(int& w, int& h) const { glfwGetFramebufferSize(window_, &w, &h); }

std::vector<std::string> Window::takeDroppedPaths() {
    std::vector<std::string> out;
    out.swap(dropped_);
    return out;
}

bool isSoftwareRenderer(const std::string& glRenderer) {
    for (const char* name : {"llvmpipe", "softpipe", "swrast", "SwiftShader", "GDI Generic", "Software Rasterizer"}) {
        if (glRenderer.find(name) != std::string::npos) return true;
    }
    return false;
}

bool Window::softwareRenderer() const {
    const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return r && isSoftwareRenderer(r);
}

std::string Window::glDescription() const {
    return std::string(reinterpret_cast<const char*>(glGetString(GL_RENDERER))) + ", OpenGL " +
           reinterpret_cast<const char*>(glGetString(GL_VERSION));
}

}  // namespace rig
