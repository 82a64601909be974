#include "app/input_queue.h"

#include <GLFW/glfw3.h>

namespace rig {

namespace {

InputQueue* gQueue = nullptr;
GLFWwindow* gWindow = nullptr;

void keyCallback(GLFWwindow* w, int key, int, int action, int mods) {
    if (gQueue && w == gWindow) gQueue->onKey(key, action, mods);
}
void buttonCallback(GLFWwindow* w, int button, int action, int) {
    if (gQueue && w == gWindow) gQueue->onMouseButton(button, action);
}
void cursorCallback(GLFWwindow* w, double x, double y) {
    if (gQueue && w == gWindow) gQueue->onCursor(x, y);
}

void contentScaleCallback(GLFWwindow* w, float x, float y) {
    if (gQueue && w == gWindow) gQueue->onContentScale(x, y);
}

}  // namespace

void InputQueue::install(GLFWwindow* window) {
    gQueue = this;
    gWindow = window;
    window_ = window;
    glfwSetKeyCallback(window, keyCallback);
    glfwSetMouseButtonCallback(window, buttonCallback);
    glfwSetCursorPosCallback(window, cursorCallback);
    glfwSetWindowContentScaleCallback(window, contentScaleCallback);
}

void InputQueue::uninstall() {
    if (gQueue == this) {
        gQueue = nullptr;
        gWindow = nullptr;
    }
}

void InputQueue::onKey(int key, int action, int mods) {
    if (action == GLFW_RELEASE || key == GLFW_KEY_UNKNOWN) return;
    if (count_ == kCapacity) {
        ++dropped_;
        return;
    }
    keys_[count_++] = KeyPress{key, mods, action == GLFW_REPEAT};
}

void InputQueue::onMouseButton(int button, int action) {
    if (button < 0 || button > 7) return;
    if (action == GLFW_PRESS) buttons_ |= 1 << button;
    if (action == GLFW_RELEASE) buttons_ &= ~(1 << button);
}

void InputQueue::onCursor(double x, double y) {
    // Only movement while a button is down drags; the move that brought the cursor to
    // where the button went down does not.
    if (haveCursor_ && buttons_ != 0) {
        dragX_ += static_cast<float>(x - lastX_);
        dragY_ += static_cast<float>(y - lastY_);
    }
    lastX_ = x;
    lastY_ = y;
    haveCursor_ = true;
}

void InputQueue::onContentScale(float x, float y) { contentScale_ = x > y ? x : y; }

float InputQueue::takeContentScale() {
    const float s = contentScale_;
    contentScale_ = 0.0f;
    return s;
}

void InputQueue::clear() {
    count_ = 0;
    dragX_ = dragY_ = 0.0f;
}

}  // namespace rig
