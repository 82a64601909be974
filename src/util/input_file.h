// Reading a small file rigview did not make (settings, side files) without trusting it: only a
// regular file is read (a FIFO, a device or /dev/zero behind a symlink is refused at once, never
// waited on or read without end), and only up to a size stated before reading.
#pragma once

#include <cstddef>
#include <string>

namespace rig {

// What a file that is not a regular file is, for messages: "a folder", "a named pipe", "a
// device", "a socket", "of an unknown kind" (`mode` as stat's st_mode).
const char* fileKindName(unsigned mode);

enum class InputFileStatus { Read, Missing, Refused };

// The whole of `path` into `out` when it is a regular file of at most `maxBytes`. Missing: no
// such file, or none can exist by that name (too long, a part is a file); nothing in `error`.
// Refused: `error` says why ("not a regular file (a named pipe)", "larger than 1 MiB", the
// system's reason).
InputFileStatus readInputFile(const std::string& path, size_t maxBytes, std::string& out, std::string& error);

// At most `maxBytes` from the start of `path` (all of a shorter file): what a file says about
// itself in its first bytes (magic numbers, an up axis). Missing and Refused as readInputFile
// says; a larger file is not refused.
InputFileStatus readInputFileHead(const std::string& path, size_t maxBytes, std::string& out, std::string& error);

}  // namespace rig
