// The state machine file (*.machine.json, docs/animation.md): JSON text -> MachineDef
// resolved against one model. Errors name the line: "FILE:LINE:COLUMN: what" for JSON
// syntax, "FILE:LINE: what" for everything else (unknown clip, state, parameter or joint,
// wrong type, missing field, duplicate name, transition to nowhere), the line being where the
// offending field (or object) starts.
#pragma once

#include <string>
#include <string_view>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"
#include "anim/control/state_machine.h"

namespace rig {

// Limits on a machine file (it is untrusted input, like the model): its size, and how deep its
// arrays and objects nest (util/json_depth.h kMaxJsonDepth, refused before parsing:
// "FILE:LINE:COLUMN: nested more than 64 deep"). Parsing and checking then take time and
// memory linear in the text.
inline constexpr size_t kMaxMachineFileBytes = size_t(16) << 20;

// `file` only names the text in messages.
Result<MachineDef> parseMachine(std::string_view text, const Model& model, const std::string& file);
// Read `path` (a regular file of at most 16 MiB) and parse it.
Result<MachineDef> loadMachineFile(const std::string& path, const Model& model);
// "<dir>/<model stem>.machine.json": the machine the viewer loads with a model by default.
std::string machinePathBeside(const std::string& modelPath);

}  // namespace rig
