#include "support/viewer_driver.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <utility>

#include "render/offscreen.h"

namespace rig::testing {

void ViewerDriver::start(const ViewerConfig& cfg) {
    auto v = Viewer::create(cfg);
    ASSERT_TRUE(v.ok()) << v.error().message;
    viewer = std::move(v.value());
    viewer->enableProbe(true);
    setInputHookDefault();
    viewer->waitForLoad();
    ASSERT_TRUE(viewer->state().model) << viewer->state().error;
    frames(1);
    viewer->waitForEnvironment();
    frames(2);
}

void ViewerDriver::setInputHookDefault() {
    viewer->setInputHook([this](ImGuiIO& io) {
        io.MousePos = mouse;
        io.MouseDown[0] = mouseDown;
        io.MouseDown[1] = rightDown;
        io.MouseDown[2] = middleDown;
        io.KeyShift = shift;
        if (ctrl) io.KeyCtrl = true;
        if (wheel != 0.0f) {
            io.MouseWheel = wheel;
            wheel = 0.0f;
        }
        for (int k : {GLFW_KEY_SPACE, GLFW_KEY_RIGHT, GLFW_KEY_LEFT, GLFW_KEY_UP, GLFW_KEY_DOWN, GLFW_KEY_W, GLFW_KEY_B,
                      GLFW_KEY_G, GLFW_KEY_L, GLFW_KEY_HOME, GLFW_KEY_END}) {
            io.KeysDown[k] = k == key;
        }
    });
}

void ViewerDriver::frames(int n) {
    for (int i = 0; i < n; ++i) viewer->frame(1.0 / 60.0);
}

void ViewerDriver::lit() {
    frames(1);
    viewer->waitForEnvironment();
    frames(1);
}

bool ViewerDriver::has(const std::string& name) const { return viewer->probe().rects.count(name) > 0; }

ImVec4 ViewerDriver::rect(const std::string& name) {
    const auto& rects = viewer->probe().rects;
    auto it = rects.find(name);
    EXPECT_NE(it, rects.end()) << "no widget '" << name << "' on screen";
    return it == rects.end() ? ImVec4(-1, -1, -1, -1) : it->second;
}

ImVec2 ViewerDriver::at(const std::string& name, float fx) {
    const ImVec4 r = rect(name);
    return has(name) ? ImVec2(r.x + (r.z - r.x) * fx, 0.5f * (r.y + r.w)) : ImVec2(-1, -1);
}

std::string ViewerDriver::text(const std::string& name) {
    const auto& texts = viewer->probe().texts;
    auto it = texts.find(name);
    EXPECT_NE(it, texts.end()) << "no row '" << name << "'";
    return it == texts.end() ? std::string() : it->second;
}

void ViewerDriver::reveal(const std::string& name) {
    const UiProbe& p = viewer->probe();
    auto it = p.rects.find(name);
    auto w = p.windows.find(name);
    auto v = p.visible.find(name);
    if (it == p.rects.end() || w == p.windows.end() || v == p.visible.end()) return;
    const ImVec4 r = it->second, clip = v->second;
    ImGuiWindow* win = ImGui::FindWindowByName(w->second.c_str());
    if (!win || win->ScrollMax.y <= 0.0f || (r.w <= clip.w && r.y >= clip.y)) return;
    if (r.w > clip.w) ImGui::SetScrollY(win, std::min(win->ScrollMax.y, win->Scroll.y + (r.w - clip.w) + 8.0f));
    if (r.y < clip.y) ImGui::SetScrollY(win, std::max(0.0f, win->Scroll.y - (clip.y - r.y) - 8.0f));
    frames(2);
}

void ViewerDriver::revealIn(const std::string& child, const std::string& name) {
    ImGuiWindow* win = nullptr;
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if ((w->Flags & ImGuiWindowFlags_ChildWindow) && std::string(w->Name).rfind(child, 0) == 0) win = w;
    }
    ASSERT_NE(win, nullptr) << child;
    const ImVec4 r = rect(name), clip = viewer->probe().visible.at(name);
    if (r.y < clip.y || r.w > clip.w) {
        ImGui::SetScrollY(win, std::clamp(win->Scroll.y + r.y - 0.5f * (clip.y + clip.w), 0.0f, win->ScrollMax.y));
        frames(2);
    }
}

void ViewerDriver::click(const std::string& name, float fx) {
    reveal(name);
    clickAt(at(name, fx));
}

void ViewerDriver::clickAt(ImVec2 p, int button) {
    bool& down = button == 1 ? rightDown : button == 2 ? middleDown : mouseDown;
    mouse = p;
    frames(1);
    down = true;
    frames(1);
    down = false;
    frames(2);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
}

void ViewerDriver::drag(ImVec2 from, ImVec2 by, int steps) {
    mouse = from;
    frames(1);
    mouseDown = true;
    frames(1);
    for (int step = 1; step <= steps; ++step) {
        const float f = static_cast<float>(step) / static_cast<float>(steps);
        mouse = ImVec2(from.x + by.x * f, from.y + by.y * f);
        frames(1);
    }
    mouseDown = false;
    frames(1);
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    frames(2);
}

void ViewerDriver::drop(const std::string& path) {
    GLFWwindow* w = viewer->windowHandle();
    GLFWdropfun cb = glfwSetDropCallback(w, nullptr);
    glfwSetDropCallback(w, cb);
    ASSERT_NE(cb, nullptr);
    const char* paths[] = {path.c_str()};
    cb(w, 1, paths);
    frames(2);
}

void ViewerDriver::tap(int k, int mods, int holdMs) {
    GLFWwindow* w = viewer->windowHandle();
    GLFWkeyfun cb = glfwSetKeyCallback(w, nullptr);
    glfwSetKeyCallback(w, cb);
    ASSERT_NE(cb, nullptr);
    cb(w, k, glfwGetKeyScancode(k), GLFW_PRESS, mods);
    std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
    cb(w, k, glfwGetKeyScancode(k), GLFW_RELEASE, mods);
}

void ViewerDriver::press(int k, int mods) {
    tap(k, mods);
    frames(1);
}

void ViewerDriver::shot(const std::string& name) {
    const char* dir = std::getenv("RIGVIEW_SMOKE_SHOTS");
    if (!dir || !*dir) return;
    int w = 0, h = 0;
    const std::vector<uint8_t> px = viewer->captureFrame(w, h);
    EXPECT_TRUE(writePng(std::string(dir) + "/" + name + ".png", w, h, px));
}

ScopedEnv::ScopedEnv(std::string name, const char* value) : name_(std::move(name)) {
    const char* old = std::getenv(name_.c_str());
    had_ = old != nullptr;
    old_ = old ? old : "";
    if (value) {
        ::setenv(name_.c_str(), value, 1);
    } else {
        ::unsetenv(name_.c_str());
    }
}

ScopedEnv::~ScopedEnv() {
    if (had_) {
        ::setenv(name_.c_str(), old_.c_str(), 1);
    } else {
        ::unsetenv(name_.c_str());
    }
}

}  // namespace rig::testing
