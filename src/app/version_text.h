// `rigview --version`: what the About window shows, as text.
#pragma once

#include <string>

namespace rig {

// "rigview VERSION\nAssimp X.Y.Z\n"; verbose adds Dear ImGui's and GLFW's versions, the
// OpenGL renderer a headless render gets (a context made through EGL, or why none could be
// made) and the data folder (or that none was found).
std::string versionText(bool verbose);

}  // namespace rig
