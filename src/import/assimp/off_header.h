// A look at an OFF file's header before Assimp reads it. Assimp 5.2.5's OFF reader allocates
// (and, for faces, constructs) as many entries as the header's counts claim before reading
// any: invalid/OutOfMemory.off claims 15 GB of faces in 309 bytes. Under the memory limit that
// fails with "out of memory"; without one (RIGVIEW_MAX_MEMORY_MB=0, sanitizer builds) it
// touches every page. Counts no file of this size could hold are refused at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "anim/runtime/result.h"

namespace rig {

struct OffCounts {
    bool found = false;     // the header's counts could be read
    uint32_t dimensions = 3;  // numbers per vertex position (the "nOFF" form gives its own)
    uint64_t vertices = 0, faces = 0;  // as written (saturating at UINT64_MAX)
};

// The counts in an OFF header: an optional keyword ending in "OFF" (ST, C, N, 4 and n
// prefixes; "n" is followed by the dimension), then the vertex and face counts; '#' starts a
// comment. Without the keyword the first two numbers are the counts (the format allows it),
// unless keywordRequired. found is false when the text does not start that way.
OffCounts readOffCounts(std::string_view head, bool keywordRequired = false);

// Refuse a file whose header claims more vertices and faces than its bytes can hold (each
// vertex needs at least two characters a number, each face two): "<path>: the OFF header
// claims N vertices and M faces, more than its B bytes can hold", from the first 4 KiB of
// `file` (the file's bytes). Assimp also takes a file of another extension for OFF by its
// keyword: isOffExtension false checks only a file that starts with one.
Result<bool> checkOffCounts(const std::string& path, std::string_view file, bool isOffExtension);

}  // namespace rig
