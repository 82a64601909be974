// The contact sheet of `rigview check --sheet`: for each model checked, in the check's order, a
// section: a title line (the file, its findings, the worst severity, how many vertices are
// flagged), then a row per clip of frames across it (six columns of times), rendered headless,
// with the vertices that checks flag tinted red. A file that could not be imported has its
// title line and the reason. One model shows up to 12 clips; several share kMaxSheetRows rows.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "check/diagnostics.h"

namespace rig {

// Most models one sheet draws, and most clip rows in all (each model at least one).
constexpr size_t kMaxSheetModels = 60;
constexpr size_t kMaxSheetRows = 60;

struct SheetEntry {
    std::string path;
    const Model* model = nullptr;  // null: `load` imports it for its section, or it was not imported
    const Report* report = nullptr;
    std::string error;             // why it was not imported
    // Imports the file again when its section is drawn (several files: only one model at a
    // time in memory); false when it cannot be.
    std::function<bool(Model&)> load;
};

// Render and write `path` (PNG). Returns an exit code (app/exit_codes.h).
int writeContactSheet(const std::vector<SheetEntry>& entries, const std::string& path);

}  // namespace rig
