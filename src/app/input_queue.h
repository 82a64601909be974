// InputQueue: key presses, mouse buttons and drags taken from GLFW's callbacks, in the order
// they happened, so a tap shorter than a frame (press and release between two polls) still
// acts and a cursor move made before a button went down does not count as a drag. Fixed
// size: no allocation per frame. Installed before ImGui's GLFW backend, which keeps our
// callbacks as its "previous user callbacks" and calls them before its own.
//
// Mouse buttons: ImGui 1.86 has no input queue; it reads one up/down state per button per
// frame, so two clicks in one frame were one, and a release and press in one frame none. The
// queue keeps each button's presses and releases (with their time and the cursor position)
// and nextMouseFrame() hands ImGui at most one change per button per frame: the events of a
// slow frame play out over the next frames. Double clicks are told from the events' own
// times, not from frame times (at 5 fps a press delivered a frame late is 0.2 s late).
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

// What ImGui gets for one frame: each button's state, whether this frame delivers a press
// from the queue (and its click count: 2 for the second press of a double click, 3 for a
// triple click), and where the cursor was at the first change delivered (else hasPos is
// false: the current position).
struct MouseFrame {
    static constexpr int kButtons = 5;  // ImGui's io.MouseDown
    bool down[kButtons] = {};
    bool pressed[kButtons] = {};
    int clickCount[kButtons] = {};  // 0 without a press
    bool hasPos = false;
    float x = 0.0f, y = 0.0f;
};

// What ImGui gets of the keyboard for one frame: every key's state (io.KeysDown) and the
// modifiers. ImGui 1.86 polls that state once a frame, so a key pressed and released between
// two frames never reached a widget (a quick Enter or Ctrl+A in a text field was lost).
struct KeyFrame {
    static constexpr int kKeys = 512;  // ImGui's io.KeysDown
    bool down[kKeys] = {};
    bool ctrl = false, shift = false, alt = false, super = false;
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
    void onMouseButton(int button, int action, double time = 0.0);  // time: glfwGetTime()
    void onCursor(double x, double y);

    // Once per frame: the next state of every button, at most one change each; the rest
    // wait for the next frames. A press adds to the click count when it follows the
    // button's last press within `doubleClickTime` seconds and `doubleClickDist` pixels
    // (ImGui's io.MouseDoubleClickTime / MouseDoubleClickMaxDist), by the events' times.
    MouseFrame nextMouseFrame(double doubleClickTime, float doubleClickDist);
    // Button changes not yet handed out (all buttons).
    size_t pendingButtonEvents() const;
    // Once per frame: the keys ImGui acts on (its navigation and editing keys, the modifiers,
    // and A, C, V, X, Y, Z with Ctrl or Super) with at most one change per key, in the order
    // they happened: a tap between two frames is down for one frame and up the next. Other
    // keys (letters typed as text, which ImGui takes as characters) are left up.
    void nextKeyFrame(KeyFrame& f);
    size_t pendingKeyEvents() const { return keyCount_; }
    size_t droppedButtonEvents() const { return droppedButtons_; }

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

    // Events seen (keys pressed or released, buttons, cursor moves, content scale), ever: a
    // change means the viewer has something to draw.
    unsigned long long eventCount() const { return events_; }

    static constexpr size_t kButtonEvents = 16;  // per button; beyond, the oldest click goes

private:
    struct ButtonEvent {
        bool down = false;
        double time = 0.0;
        float x = 0.0f, y = 0.0f;
        bool hasPos = false;
    };
    struct ButtonQueue {
        std::array<ButtonEvent, kButtonEvents> events{};
        size_t head = 0, count = 0;
        bool delivered = false;          // the state ImGui was last given
        double lastPress = -1e30;        // of the last press handed out (double clicks)
        int lastCount = 0;
        float lastX = 0.0f, lastY = 0.0f;
        bool lastHasPos = false;
    };

    struct KeyEvent {
        int key = 0;
        bool down = false;
        int mods = 0;
    };
    static constexpr size_t kKeyEvents = 128;
    std::array<KeyEvent, kKeyEvents> keyEvents_{};
    size_t keyHead_ = 0, keyCount_ = 0;
    std::array<bool, KeyFrame::kKeys> keyDelivered_{};  // the state ImGui was last given
    std::array<KeyPress, kCapacity> keys_{};
    size_t count_ = 0, dropped_ = 0;
    std::array<ButtonQueue, MouseFrame::kButtons> mouse_{};
    size_t droppedButtons_ = 0;
    int buttons_ = 0;       // bit per held mouse button
    double lastX_ = 0.0, lastY_ = 0.0;
    bool haveCursor_ = false;
    float dragX_ = 0.0f, dragY_ = 0.0f;
    float contentScale_ = 0.0f;
    unsigned long long events_ = 0;
    GLFWwindow* window_ = nullptr;
};

}  // namespace rig
