// Keyboard shortcuts: one table that both the key handler and the F1 overlay read, so the
// overlay cannot go stale. The view options' keys come from the view option table
// (render/view_options.h).
#pragma once

#include <span>

#include "render/view_options.h"
#include "ui/viewer_state.h"

namespace rig {

enum class ShortcutAction {
    TogglePlay, StepForward, StepBack, NextKey, PreviousKey, RangeStart, RangeEnd, JumpStart, JumpEnd, CycleLoop, AddMarker,
    ViewOption, FrameModel, SaveMarkers, Help, HelpQuestion, Screenshot, OpenBrowser, NextFile, PreviousFile, UiScaleUp, UiScaleDown,
    ClearSelection, Quit
};

struct Shortcut {
    int key;              // GLFW_KEY_*
    int mods;             // GLFW_MOD_* that must be held (others may be too, except Ctrl unless asked)
    bool repeats;         // acts again while the key is held (auto-repeat)
    ShortcutAction action;
    const char* keys;     // as shown in the overlay
    const char* what;
    const ViewOptionSpec* option = nullptr;  // ShortcutAction::ViewOption: the option it flips or steps
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
// Apply one shortcut to the state (posts requests; flips or steps its view option).
void applyShortcut(ViewerState& s, const Shortcut& shortcut);
// The same for an action that needs no view option (every one but ShortcutAction::ViewOption).
void applyShortcut(ViewerState& s, ShortcutAction a);

}  // namespace rig
