// The check every reader makes before opening a file it was given.
#pragma once

#include <string>

#include "anim/runtime/result.h"

namespace rig {

// Refuse at once anything that is not a regular file, without opening it (a FIFO or a device
// would block the read): "<path>: no such file", "<path>: not a regular file (a named pipe)"...
// importModel, importModelWithAnims and the ASF/AMC reader check every file with it.
Result<bool> checkRegularFile(const std::string& path);

}  // namespace rig
