// rigview's cache folder: what rigview keeps between runs only to start faster (prefiltered
// environment maps, linked shader programs). $XDG_CACHE_HOME/rigview, or ~/.cache/rigview
// without it. Everything there is an accelerator: a missing, unreadable or damaged entry means
// the work is done again, never an error. RIGVIEW_NO_CACHE=1 turns the cache off.
#pragma once

#include <string>

namespace rig {

// Whether RIGVIEW_NO_CACHE turns the cache off (set to anything but "" or "0").
bool cacheTurnedOff();

// The cache's subfolder `sub` ("env", "programs"): "<cache>/rigview/<sub>", or "" when the cache
// is off or neither XDG_CACHE_HOME nor HOME names an absolute folder. Not created here.
std::string cacheFolder(const std::string& sub);

}  // namespace rig
