// rigview's data folder: what it reads at run time besides the user's files (the demo model
// in demo/, the studio environment in env/). Found relative to the running executable, never
// through the path of the tree it was built from:
//   <exe dir>/../share/rigview   an install (cmake --install, the .deb: /usr/bin/rigview and
//                                /usr/share/rigview; the Python package: rigview/bin/rigview and
//                                rigview/share/rigview)
//   <exe dir>/share/rigview      a build tree (CMake copies assets/ there at every build)
// A process whose executable is not rigview's (the Python module inside python3) names its
// folder with setDataFolder.
#pragma once

#include <string>

namespace rig {

// The data folder, or "" when none of the places holds one.
const std::string& dataFolder();

// `relative` ("env/studio.hdr") inside the data folder, or "" when there is no data folder.
std::string dataFile(const std::string& relative);

// One line saying where the data folder was looked for and how to get one, for the error of
// whatever needed it ("rigview's data folder was not found: no /opt/x/share/rigview ...").
std::string missingDataFolderMessage();

// Use `folder` as the data folder from now on (the Python module: its package's share/rigview).
// Not thread-safe against readers: call before anything else reads it.
void setDataFolder(const std::string& folder);

}  // namespace rig
