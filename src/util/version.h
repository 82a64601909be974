// rigview's version, as `rigview --version`, the About window, every JSON report
// ("rigview_version") and `rigview.__version__` give it: project(VERSION) of CMakeLists.txt,
// with "+N.gHASH" (and ".dirty") when built from a git checkout away from the release's tag
// (the rule: cmake/version.cmake, which writes kBuildVersion's definition at every build).
#pragma once

namespace rig {

// The version the program runs as: what setRigviewVersion gave ("unknown" before).
const char* rigviewVersion();

// Set once at start by the program (main, the Python module) from kBuildVersion.
void setRigviewVersion(const char* version);

// The version this build was made as. Defined in the generated file, in the library
// rigview_version that only the rigview binary and the Python module link, so a new commit
// relinks those two and nothing else.
extern const char* const kBuildVersion;

}  // namespace rig
