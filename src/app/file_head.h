// The first bytes of a file rigview was given, read in the viewer's own process before any
// import: what its format says about itself (up axis, magic numbers). Only a regular file is
// opened (a FIFO or a device is refused at once, never waited on), and never more than asked.
#pragma once

#include <cstddef>
#include <string>

#include "util/input_file.h"

namespace rig {

// At most `maxBytes` from the start of `path` into `out` (all of a shorter file). Missing and
// Refused as readInputFile says; a larger file is not refused (its head is read).
InputFileStatus readFileHead(const std::string& path, size_t maxBytes, std::string& out, std::string& error);

}  // namespace rig
