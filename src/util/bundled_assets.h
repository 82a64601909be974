// Where the files rigview ships with (assets/: the demo model, the studio environment) are
// found: next to the executable (any folder above it holding the file), else in the source tree
// the binary was built from.
#pragma once

#include <string>

namespace rig {

// `relative` (e.g. "assets/demo/rigview_demo.gltf") under the first folder above the running
// executable that holds it, else under the source tree; the path is returned even when neither
// has the file (the caller's open then reports it missing).
std::string bundledAssetPath(const std::string& relative);

}  // namespace rig
