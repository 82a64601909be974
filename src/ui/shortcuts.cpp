#include "ui/shortcuts.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <array>
#include <vector>

namespace rig {

namespace {

// Before the view options' keys.
constexpr std::array kPlaybackKeys{
    Shortcut{GLFW_KEY_SPACE, 0, false, ShortcutAction::TogglePlay, "Space", "play / pause"},
    // Blender's timeline keys. Shift+arrows first: a plain key tolerates Shift.
    Shortcut{GLFW_KEY_RIGHT, GLFW_MOD_SHIFT, true, ShortcutAction::RangeEnd, "Shift+Right", "end of the preview range (else of the clip)"},
    Shortcut{GLFW_KEY_LEFT, GLFW_MOD_SHIFT, true, ShortcutAction::RangeStart, "Shift+Left", "start of the preview range (else of the clip)"},
    Shortcut{GLFW_KEY_RIGHT, 0, true, ShortcutAction::StepForward, "Right", "next frame (pauses)"},
    Shortcut{GLFW_KEY_LEFT, 0, true, ShortcutAction::StepBack, "Left", "previous frame (pauses)"},
    Shortcut{GLFW_KEY_UP, 0, true, ShortcutAction::NextKey, "Up", "next key of the selected joint (any joint if none)"},
    Shortcut{GLFW_KEY_DOWN, 0, true, ShortcutAction::PreviousKey, "Down", "previous key of the selected joint (any joint if none)"},
    Shortcut{GLFW_KEY_HOME, 0, false, ShortcutAction::JumpStart, "Home", "first frame (of the preview range)"},
    Shortcut{GLFW_KEY_END, 0, false, ShortcutAction::JumpEnd, "End", "last frame (of the preview range)"},
    Shortcut{GLFW_KEY_L, 0, false, ShortcutAction::CycleLoop, "L", "loop mode: loop, once, ping-pong"},
    Shortcut{GLFW_KEY_M, 0, false, ShortcutAction::AddMarker, "M", "marker at the current frame (of the clip that plays)"},
};

// After the view options' keys.
constexpr std::array kViewerKeys{
    Shortcut{GLFW_KEY_F, 0, false, ShortcutAction::FrameModel, "F", "frame the model"},
    Shortcut{GLFW_KEY_ESCAPE, 0, false, ShortcutAction::ClearSelection, "Esc", "cancel a load / clear the joint selection / close overlays"},
    Shortcut{GLFW_KEY_O, GLFW_MOD_CONTROL, false, ShortcutAction::OpenBrowser, "Ctrl+O", "open a file (file browser)"},
    Shortcut{GLFW_KEY_S, GLFW_MOD_CONTROL, false, ShortcutAction::SaveMarkers, "Ctrl+S", "save the Timeline's markers beside the model (<model>.markers.json)"},
    Shortcut{GLFW_KEY_PAGE_DOWN, 0, false, ShortcutAction::NextFile, "PageDown", "next model file in the folder"},
    Shortcut{GLFW_KEY_PAGE_UP, 0, false, ShortcutAction::PreviousFile, "PageUp", "previous model file in the folder"},
    Shortcut{GLFW_KEY_F12, 0, false, ShortcutAction::Screenshot, "F12", "screenshot to the Pictures folder (rigview-MODEL-TIME.png)"},
    Shortcut{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL, false, ShortcutAction::UiScaleUp, "Ctrl+=", "larger UI"},
    Shortcut{GLFW_KEY_MINUS, GLFW_MOD_CONTROL, false, ShortcutAction::UiScaleDown, "Ctrl+-", "smaller UI"},
    Shortcut{GLFW_KEY_Q, GLFW_MOD_CONTROL, false, ShortcutAction::Quit, "Ctrl+Q", "quit (the settings are kept)"},
    Shortcut{GLFW_KEY_F1, 0, false, ShortcutAction::Help, "F1", "this list of shortcuts"},
    Shortcut{GLFW_KEY_SLASH, GLFW_MOD_SHIFT, false, ShortcutAction::HelpQuestion, "?", "this list of shortcuts"},
};

// The playback keys, a key per view option that has one (its letter: GLFW_KEY_A.._Z are the
// letters' ASCII codes), then the viewer's keys.
std::vector<Shortcut> makeShortcuts() {
    std::vector<Shortcut> out(kPlaybackKeys.begin(), kPlaybackKeys.end());
    for (const ViewOptionSpec& o : viewOptionTable()) {
        if (!o.shortcut) continue;
        out.push_back(Shortcut{GLFW_KEY_A + (o.shortcut[0] - 'A'), 0, false, ShortcutAction::ViewOption, o.shortcut, o.help, &o});
    }
    out.insert(out.end(), kViewerKeys.begin(), kViewerKeys.end());
    return out;
}

const std::vector<Shortcut>& shortcutTable() {
    static const std::vector<Shortcut> table = makeShortcuts();
    return table;
}

constexpr std::array kGestures{
    MouseGesture{"left drag", "orbit"},
    MouseGesture{"Shift + left drag, right or middle drag", "pan"},
    MouseGesture{"wheel", "zoom"},
    MouseGesture{"left click on a joint", "select it (the Hierarchy scrolls to it)"},
    MouseGesture{"drop a file on the window", "open it"},
    MouseGesture{"timeline: left drag", "scrub (the current frame follows)"},
    MouseGesture{"timeline: Shift + left drag", "set the preview range (playback loops in it)"},
    MouseGesture{"timeline: wheel / middle drag", "zoom the ruler about the cursor / pan it"},
    MouseGesture{"timeline: drag a marker's handle", "move it (to whole frames)"},
    MouseGesture{"timeline: right click a marker", "rename or delete it"},
    MouseGesture{"timeline: click a dope sheet row", "select its joint; its arrow folds its children"},
};

}  // namespace

std::span<const Shortcut> shortcuts() { return shortcutTable(); }
std::span<const MouseGesture> mouseGestures() { return kGestures; }

const Shortcut* findShortcut(int key, int mods, bool repeat) {
    const int held = mods & (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT | GLFW_MOD_ALT | GLFW_MOD_SUPER);
    for (const Shortcut& s : shortcutTable()) {
        if (s.key != key || (repeat && !s.repeats)) continue;
        // The modifiers it asks for must be held; Ctrl/Alt/Super not asked for must not be
        // (Shift alone is tolerated for plain keys, e.g. caps-style typing).
        if ((held & s.mods) != s.mods) continue;
        if ((held & ~s.mods & ~GLFW_MOD_SHIFT) != 0) continue;
        if (s.key == GLFW_KEY_SLASH && !(held & GLFW_MOD_SHIFT)) continue;
        return &s;
    }
    return nullptr;
}

void applyShortcut(ViewerState& s, const Shortcut& shortcut) {
    if (shortcut.option) {
        stepViewOption(*shortcut.option, s.view);
    } else {
        applyShortcut(s, shortcut.action);
    }
}

void applyShortcut(ViewerState& s, ShortcutAction a) {
    ViewerRequests& q = s.requests;
    switch (a) {
        case ShortcutAction::TogglePlay: q.togglePlay = !q.togglePlay; break;
        case ShortcutAction::StepForward: q.step += 1; break;
        case ShortcutAction::StepBack: q.step -= 1; break;
        case ShortcutAction::NextKey: q.key += 1; break;
        case ShortcutAction::PreviousKey: q.key -= 1; break;
        case ShortcutAction::RangeStart:
        case ShortcutAction::JumpStart: q.jumpStart = true; break;
        case ShortcutAction::RangeEnd:
        case ShortcutAction::JumpEnd: q.jumpEnd = true; break;
        case ShortcutAction::CycleLoop: q.cycleLoopMode = true; break;
        case ShortcutAction::AddMarker: q.markerEdits.push_back(MarkerEdit{}); break;
        case ShortcutAction::ViewOption: break;  // needs its option: applyShortcut(s, shortcut)
        case ShortcutAction::FrameModel: q.frameModel = true; break;
        case ShortcutAction::SaveMarkers: q.saveMarkers = true; break;
        case ShortcutAction::Help:
        case ShortcutAction::HelpQuestion: s.ui.help = !s.ui.help; break;
        case ShortcutAction::Screenshot: q.screenshot = true; break;
        case ShortcutAction::Quit: q.quit = true; break;
        case ShortcutAction::OpenBrowser: s.ui.fileBrowser = true; break;
        case ShortcutAction::NextFile: q.nextFile += 1; break;
        case ShortcutAction::PreviousFile: q.nextFile -= 1; break;
        case ShortcutAction::UiScaleUp: s.ui.uiScale = std::min(3.0f, s.ui.uiScale + 0.25f); break;
        case ShortcutAction::UiScaleDown: s.ui.uiScale = std::max(0.75f, s.ui.uiScale - 0.25f); break;
        case ShortcutAction::ClearSelection:
            if (s.loading) {
                s.requests.cancelLoad = true;  // a load first: Esc stops it
            } else if (s.ui.help || s.ui.about) {
                s.ui.help = s.ui.about = false;
            } else {
                s.selectedJoint = -1;
            }
            break;
    }
}

}  // namespace rig
