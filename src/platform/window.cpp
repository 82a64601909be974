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

void countEvent(GLFWwindow* w) {
    if (auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w))) ++self->events_;
}

void onDrop(GLFWwindow* w, int count, const char** paths) {
    auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
    if (!self) return;
    ++self->events_;
    for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
}

namespace {
// Installed before ImGui's backend, which keeps the scroll, text, focus and cursor-enter ones
// as its "previous" callbacks and calls them first.
void onRefresh(GLFWwindow* w) { countEvent(w); }
void onSize(GLFWwindow* w, int, int) { countEvent(w); }
void onFlag(GLFWwindow* w, int) { countEvent(w); }
void onScroll(GLFWwindow* w, double, double) { countEvent(w); }
void onChar(GLFWwindow* w, unsigned int) { countEvent(w); }
}  // namespace

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
    glfwSetWindowRefreshCallback(w->window_, onRefresh);
    glfwSetWindowSizeCallback(w->window_, onSize);
    glfwSetFramebufferSizeCallback(w->window_, onSize);
    glfwSetWindowFocusCallback(w->window_, onFlag);
    glfwSetWindowIconifyCallback(w->window_, onFlag);
    glfwSetWindowMaximizeCallback(w->window_, onFlag);
    glfwSetCursorEnterCallback(w->window_, onFlag);
    glfwSetScrollCallback(w->window_, onScroll);
    glfwSetCharCallback(w->window_, onChar);
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
void Window::waitEvents(double seconds) {
    if (seconds > 0.0) glfwWaitEventsTimeout(seconds);
    else glfwPollEvents();
}
void Window::wake() { glfwPostEmptyEvent(); }

double Window::refreshRate() const {
    GLFWmonitor* monitor = glfwGetWindowMonitor(window_);
    if (!monitor) monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    return mode && mode->refreshRate > 0 ? mode->refreshRate : 60.0;
}
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
