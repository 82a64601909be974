// A small file browser of our own (Dear ImGui + std::filesystem): a path bar, the parent
// entry, folders first, then only the files rigview reads; type to narrow, arrows and Enter
// to move and open. Also the folder stepping of PageDown / PageUp (next / previous model
// file beside the one on screen, as F3D steps through a folder).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ui/panels.h"
#include "ui/viewer_state.h"

namespace rig {

using FileFilter = std::function<bool(const std::string& path)>;

// `dir`'s entries: sub-folders (not hidden ones), then the files `isModel` accepts whose name
// contains `filter` (case-insensitive), each group sorted by name (case-insensitive, then
// bytewise). Fails with a message when the folder cannot be read.
bool listFolder(const std::string& dir, const std::string& filter, const FileFilter& isModel,
                std::vector<FileBrowserState::Entry>& out, std::string& error);

// The model file `step` places after (`step` > 0) or before `current` in its folder, in
// listFolder's order, wrapping around; "" when the folder holds no other model file.
std::string neighbourFile(const std::string& current, int step, const FileFilter& isModel);

// Whether `path` names an environment map the viewer reads (an .hdr, any case).
bool isEnvironmentFile(const std::string& path);

// The browser window (ViewerUiState::fileBrowser). Opening a file posts requests.open; opened
// for an environment (FileBrowserState::forEnvironment) it lists .hdr files instead of those
// `isModel` accepts and a chosen one posts requests.environment.
void drawFileBrowser(ViewerState& s, const FileFilter& isModel, UiProbe* probe);

}  // namespace rig
