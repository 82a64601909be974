#include "app/viewer_entry.h"

#include <filesystem>
#include <iostream>

#include "app/commands.h"
#include "app/exit_codes.h"

#ifndef RIGVIEW_SOURCE_DIR
#define RIGVIEW_SOURCE_DIR "."
#endif

namespace rig {

std::string demoModelPath() {
    namespace fs = std::filesystem;
    const fs::path rel = fs::path("assets") / "demo" / "rigview_demo.gltf";
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

int runViewer(const std::string& model) {
    // The interactive viewer lands with the viewer issue; until then this prints what the
    // viewer would show about the model.
    const std::string path = model.empty() ? demoModelPath() : model;
    std::cerr << "rigview: the interactive viewer is not built yet; showing `rigview info` for " << path << "\n";
    InfoOptions o;
    o.model = path;
    return runInfo(o);
}

}  // namespace rig
