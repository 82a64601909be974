#include "util/cache_folder.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace rig {

bool cacheTurnedOff() {
    const char* off = std::getenv("RIGVIEW_NO_CACHE");
    return off && *off && std::strcmp(off, "0") != 0;
}

std::string cacheFolder(const std::string& sub) {
    if (cacheTurnedOff()) return {};
    std::filesystem::path dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
        dir = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home == '/') {
        dir = std::filesystem::path(home) / ".cache";
    } else {
        return {};
    }
    return (dir / "rigview" / sub).string();
}

}  // namespace rig
