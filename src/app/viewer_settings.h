// The viewer's saved settings (issue 11): layout (area sizes, each panel's area and share,
// which panels are open), view options, camera, recent files, the window's size and place and
// each file's chosen up axis, in one JSON file,
// $XDG_CONFIG_HOME/rigview/settings.json (~/.config/rigview/settings.json without it).
// Read at start, written atomically (temporary file + rename) when it changes and on quit.
#pragma once

#include <filesystem>
#include <string>

#include "ui/viewer_state.h"

namespace rig {

constexpr int kSettingsVersion = 1;

std::filesystem::path settingsFolder();                       // .../rigview
inline std::filesystem::path settingsFile() { return settingsFolder() / "settings.json"; }
// Where F12 screenshots go: $XDG_PICTURES_DIR (from the environment, else from
// $XDG_CONFIG_HOME/user-dirs.dirs), else ~/Pictures, whichever is a folder; "" if none is.
std::filesystem::path picturesFolder();

// Where panel `id`'s open flag lives in `s` (nullptr: a panel this viewer does not have).
bool* panelOpenFlag(ViewerState& s, PanelId id);
// The settings part of `s` as the file's text (pretty JSON).
std::string settingsToJson(const ViewerState& s);
// Applies a settings file's text to `s`. A file that is not JSON, has another version or a
// wrongly typed field changes nothing and returns false with `why` set. `hasCamera` tells
// whether it held a camera (then the model it was saved for, ViewerUiState::cameraFile, keeps
// it when it is the first to open; any other model is framed).
bool applySettingsJson(const std::string& text, ViewerState& s, bool& hasCamera, std::string& why);
// The default layout, panels and view options (the "Reset layout" of the menu resets the
// layout and which panels are open).
void resetLayout(ViewerState& s);

}  // namespace rig
