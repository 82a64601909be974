// Linked GLSL programs kept between runs (glGetProgramBinary, glProgramBinary) in the cache
// folder's programs/ (util/cache_folder.h), so that a start links from a binary what an earlier
// start compiled. An entry is named by a hash of the driver (GL_VENDOR, GL_RENDERER,
// GL_VERSION) and of everything that makes the program (each shader's name and source after its
// defines, the transform feedback varyings): another driver or a changed shader never reads an
// old entry. Used only where the driver offers GL_ARB_get_program_binary with at
// least one binary format; Mesa offers one only while its own shader cache is on. A damaged
// entry, or one the driver refuses, is ignored and replaced by the program built from source.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "platform/gl.h"

namespace rig {

// What the cache did since the process started.
struct ProgramCacheCounts {
    unsigned loaded = 0;    // programs linked from a cached binary
    unsigned compiled = 0;  // programs compiled from source (a miss, or no cache)
    unsigned stored = 0;    // entries written
    unsigned rejected = 0;  // entries found but not used (damaged, or refused by the driver)
};
ProgramCacheCounts programCacheCounts();

// The entry's path for a program of these sources and varyings under the current context's
// driver; "" when the cache is off, has no folder, or the driver keeps no binaries.
std::string programCachePath(const std::vector<std::pair<std::string, std::string>>& namedSources,
                             const std::vector<std::string>& feedbackVaryings);

// A linked program from the entry at `path`, or 0 (no entry, a damaged one, or one the driver
// refuses: counted as rejected). Counts a load.
GLuint loadCachedProgram(const std::string& path);

// Before linking a program that is to be stored: asks the driver to keep its binary.
void prepareProgramForCache(GLuint program);

// Write linked `program`'s binary to `path` (through a temporary file renamed into place, so a
// reader never sees half an entry). Counts a compile, and a store when written.
void storeCachedProgram(const std::string& path, GLuint program);

}  // namespace rig
