// The interactive viewer's entry point (app/viewer_entry.cpp).
#pragma once

#include <string>

namespace rig {

// The path of the bundled demo model, found next to the executable or in the source tree.
std::string demoModelPath();

// Open `model` (the demo when empty) in the interactive viewer; returns an exit code.
int runViewer(const std::string& model);

}  // namespace rig
