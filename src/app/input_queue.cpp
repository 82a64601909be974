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

namespace {

// The keys ImGui 1.86's GLFW backend maps (io.KeyMap) and the modifiers; A, C, V, X, Y and Z
// only matter to it with Ctrl (or Super).
bool imguiKey(int key, int mods) {
    switch (key) {
        case GLFW_KEY_TAB: case GLFW_KEY_LEFT: case GLFW_KEY_RIGHT: case GLFW_KEY_UP: case GLFW_KEY_DOWN:
        case GLFW_KEY_PAGE_UP: case GLFW_KEY_PAGE_DOWN: case GLFW_KEY_HOME: case GLFW_KEY_END: case GLFW_KEY_INSERT:
        case GLFW_KEY_DELETE: case GLFW_KEY_BACKSPACE: case GLFW_KEY_SPACE: case GLFW_KEY_ENTER: case GLFW_KEY_ESCAPE:
        case GLFW_KEY_KP_ENTER: case GLFW_KEY_LEFT_CONTROL: case GLFW_KEY_RIGHT_CONTROL: case GLFW_KEY_LEFT_SHIFT:
        case GLFW_KEY_RIGHT_SHIFT: case GLFW_KEY_LEFT_ALT: case GLFW_KEY_RIGHT_ALT: case GLFW_KEY_LEFT_SUPER:
        case GLFW_KEY_RIGHT_SUPER:
            return true;
        case GLFW_KEY_A: case GLFW_KEY_C: case GLFW_KEY_V: case GLFW_KEY_X: case GLFW_KEY_Y: case GLFW_KEY_Z:
            return (mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) != 0;
        default:
            return false;
    }
}

}  // namespace

void InputQueue::onKey(int key, int action, int mods) {
    ++events_;
    if (key >= 0 && key < KeyFrame::kKeys && (action == GLFW_PRESS || action == GLFW_RELEASE)) {
        const bool down = action == GLFW_PRESS;
        // A release is handed on when ImGui has (or will have) the key down, whatever the mods.
        bool wanted = down ? imguiKey(key, mods) : keyDelivered_[static_cast<size_t>(key)];
        for (size_t i = 0; i < keyCount_ && !wanted; ++i) {
            const KeyEvent& e = keyEvents_[(keyHead_ + i) % kKeyEvents];
            wanted = e.key == key && e.down;
        }
        if (wanted) {
            if (keyCount_ == kKeyEvents) {  // full: the oldest goes
                keyHead_ = (keyHead_ + 1) % kKeyEvents;
                --keyCount_;
            }
            keyEvents_[(keyHead_ + keyCount_++) % kKeyEvents] = KeyEvent{key, down, mods};
        }
    }
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

void InputQueue::nextKeyFrame(KeyFrame& f) {
    // In order, until a key would change a second time: that change and all after it wait.
    std::array<bool, KeyFrame::kKeys> changed{};
    int mods = 0;  // of the presses handed on now (Ctrl+A tapped with Ctrl's own press elsewhere)
    while (keyCount_ > 0) {
        const KeyEvent e = keyEvents_[keyHead_];
        const auto k = static_cast<size_t>(e.key);
        if (keyDelivered_[k] == e.down) {  // no change (a release of a key never handed on)
            keyHead_ = (keyHead_ + 1) % kKeyEvents;
            --keyCount_;
            continue;
        }
        if (changed[k]) break;
        changed[k] = true;
        keyDelivered_[k] = e.down;
        if (e.down) mods |= e.mods;
        keyHead_ = (keyHead_ + 1) % kKeyEvents;
        --keyCount_;
    }
    for (int k = 0; k < KeyFrame::kKeys; ++k) f.down[k] = keyDelivered_[static_cast<size_t>(k)];
    f.ctrl = f.down[GLFW_KEY_LEFT_CONTROL] || f.down[GLFW_KEY_RIGHT_CONTROL] || (mods & GLFW_MOD_CONTROL);
    f.shift = f.down[GLFW_KEY_LEFT_SHIFT] || f.down[GLFW_KEY_RIGHT_SHIFT] || (mods & GLFW_MOD_SHIFT);
    f.alt = f.down[GLFW_KEY_LEFT_ALT] || f.down[GLFW_KEY_RIGHT_ALT] || (mods & GLFW_MOD_ALT);
    f.super = f.down[GLFW_KEY_LEFT_SUPER] || f.down[GLFW_KEY_RIGHT_SUPER] || (mods & GLFW_MOD_SUPER);
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
