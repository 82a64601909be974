// The contact sheet of `rigview check --sheet`: a grid of frames across each clip (rows:
// clips, columns: times), rendered headless, with the vertices that checks flag tinted red.
#pragma once

#include <string>

#include "anim/runtime/model.h"
#include "check/diagnostics.h"

namespace rig {

// Render and write `path` (PNG). Returns an exit code (app/exit_codes.h).
int writeContactSheet(const Model& model, const Report& report, const std::string& path);

}  // namespace rig
