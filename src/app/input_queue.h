// InputQueue: key presses and mouse drags taken from GLFW's callbacks, in the order they
// happened, so a tap shorter than a frame (press and release between two polls) still acts
// and a cursor move made before a button went down does not count as a drag. Fixed size: no
// allocation per frame. Installed before ImGui's GLFW backend, which keeps our callbacks as
// its "previous user callbacks" and calls them before its own.
#pragma once

#include <array>
#include <cstddef>

struct GLFWwindow;

namespace rig {

struct KeyPress {
    int key = 0;
    int mods = 0;     // GLFW_MOD_* bits
    bool repeat = false;
};

class InputQueue {
public:
    static constexpr size_t kCapacity = 64;

    // Install the callbacks on `window` (one queue per process). Call before
    // ImGui_ImplGlfw_InitForOpenGL(window, true), which then chains to them.
    void install(GLFWwindow* window);
    void uninstall();

    // Events as the callbacks see them (also what tests call to inject a tap).
    void onKey(int key, int action, int mods);
    void onMouseButton(int button, int action);
    void onCursor(double x, double y);

    // Presses since the last clear(), oldest first. Beyond kCapacity presses in one frame,
    // the newest are dropped (and counted).
    size_t size() const { return count_; }
    const KeyPress& operator[](size_t i) const { return keys_[i]; }
    size_t dropped() const { return dropped_; }
    // Cursor movement made while a button was held, since the last clear() (pixels).
    float dragX() const { return dragX_; }
    float dragY() const { return dragY_; }
    bool anyButtonDown() const { return buttons_ != 0; }
    void clear();
    // The window's content scale when it changed (moved to another monitor), else 0.
    void onContentScale(float x, float y);
    float takeContentScale();

private:
    std::array<KeyPress, kCapacity> keys_{};
    size_t count_ = 0, dropped_ = 0;
    int buttons_ = 0;       // bit per held mouse button
    double lastX_ = 0.0, lastY_ = 0.0;
    bool haveCursor_ = false;
    float dragX_ = 0.0f, dragY_ = 0.0f;
    float contentScale_ = 0.0f;
    GLFWwindow* window_ = nullptr;
};

}  // namespace rig
