// Keyboard shortcuts: one table that both the key handler and the F1 overlay read, so the
// overlay cannot go stale.
#pragma once

#include <span>

#include "ui/viewer_state.h"

namespace rig {

enum class ShortcutAction {
    TogglePlay, StepForward, StepBack, NextKey, PreviousKey, RangeStart, RangeEnd, JumpStart, JumpEnd, CycleLoop, Wireframe, Bones, Grid, FrameModel,
    JointNames, Help, HelpQuestion, Screenshot, OpenBrowser, NextFile, PreviousFile, UiScaleUp, UiScaleDown,
    ClearSelection
};

struct Shortcut {
    int key;              // GLFW_KEY_*
    int mods;             // GLFW_MOD_* that must be held (others may be too, except Ctrl unless asked)
    bool repeats;         // acts again while the key is held (auto-repeat)
    ShortcutAction action;
    const char* keys;     // as shown in the overlay
    const char* what;
};

std::span<const Shortcut> shortcuts();
// Mouse gestures (not keys), for the overlay.
struct MouseGesture {
    const char* gesture;
    const char* what;
};
std::span<const MouseGesture> mouseGestures();

// The shortcut a press matches, or nullptr.
const Shortcut* findShortcut(int key, int mods, bool repeat);
// Apply one shortcut to the state (posts requests; flips view options).
void applyShortcut(ViewerState& s, ShortcutAction a);

}  // namespace rig
