#include "util/bundled_assets.h"

#include <filesystem>
#include <system_error>

#ifndef RIGVIEW_SOURCE_DIR
#define RIGVIEW_SOURCE_DIR "."
#endif

namespace rig {

std::string bundledAssetPath(const std::string& relative) {
    namespace fs = std::filesystem;
    const fs::path rel(relative);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
            if (fs::exists(dir / rel, ec)) return (dir / rel).string();
            if (dir == dir.root_path()) break;
        }
    }
    return (fs::path(RIGVIEW_SOURCE_DIR) / rel).string();
}

}  // namespace rig
