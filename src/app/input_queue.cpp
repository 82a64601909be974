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
    if (gQueue && w == gWindow) gQueue->onMouseButton(button, action, glfwGetTime());
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
    ++events_;
    if (action == GLFW_RELEASE || key == GLFW_KEY_UNKNOWN) return;
    if (count_ == kCapacity) {
        ++dropped_;
        return;
    }
    keys_[count_++] = KeyPress{key, mods, action == GLFW_REPEAT};
}

void InputQueue::onMouseButton(int button, int action, double time) {
    ++events_;
    if (button < 0 || button > 7) return;
    if (action == GLFW_PRESS) buttons_ |= 1 << button;
    if (action == GLFW_RELEASE) buttons_ &= ~(1 << button);
    if (button >= MouseFrame::kButtons || (action != GLFW_PRESS && action != GLFW_RELEASE)) return;
    ButtonQueue& q = mouse_[static_cast<size_t>(button)];
    if (q.count == kButtonEvents) {
        // Full (a frame many clicks long): the oldest two go, a press and its release as a
        // rule, so the state the rest lead to is unchanged.
        q.head = (q.head + 2) % kButtonEvents;
        q.count -= 2;
        droppedButtons_ += 2;
    }
    ButtonEvent& e = q.events[(q.head + q.count++) % kButtonEvents];
    e.down = action == GLFW_PRESS;
    e.time = time;
    e.x = static_cast<float>(lastX_);
    e.y = static_cast<float>(lastY_);
    e.hasPos = haveCursor_;
}

MouseFrame InputQueue::nextMouseFrame(double doubleClickTime, float doubleClickDist) {
    MouseFrame f;
    for (int b = 0; b < MouseFrame::kButtons; ++b) {
        ButtonQueue& q = mouse_[static_cast<size_t>(b)];
        // The first event that changes the state (a repeated press or release changes nothing).
        while (q.count > 0) {
            const ButtonEvent e = q.events[q.head];
            q.head = (q.head + 1) % kButtonEvents;
            --q.count;
            if (e.down == q.delivered) continue;
            q.delivered = e.down;
            if (!f.hasPos && e.hasPos) {
                f.hasPos = true;
                f.x = e.x;
                f.y = e.y;
            }
            if (e.down) {
                f.pressed[b] = true;
                const float dx = e.x - q.lastX, dy = e.y - q.lastY;
                const bool near = !e.hasPos || !q.lastHasPos || dx * dx + dy * dy < doubleClickDist * doubleClickDist;
                q.lastCount = e.time - q.lastPress < doubleClickTime && near ? q.lastCount + 1 : 1;
                f.clickCount[b] = q.lastCount;
                q.lastPress = e.time;
                q.lastX = e.x;
                q.lastY = e.y;
                q.lastHasPos = e.hasPos;
            }
            break;
        }
        f.down[b] = q.delivered;
    }
    return f;
}

size_t InputQueue::pendingButtonEvents() const {
    size_t n = 0;
    for (const ButtonQueue& q : mouse_) n += q.count;
    return n;
}

void InputQueue::onCursor(double x, double y) {
    ++events_;
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

void InputQueue::onContentScale(float x, float y) {
    ++events_;
    contentScale_ = x > y ? x : y;
}

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
