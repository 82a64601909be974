// One file's `check` result: its import (isolated or not) and diagnostics, and the JSON object
// `check --json` writes for it. Shared by `rigview check` and the Python module's check().
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "check/check_config.h"
#include "check/diagnostics.h"
#include "import/import_options.h"
#include "platform/import_worker.h"

namespace rig {

struct FileResult {
    std::string path;
    bool imported = false;
    std::string error;  // import error (one line)
    std::string errorCode;  // its finding code, when it has one (external-path-refused)
    ImportFailure failure = ImportFailure::None;
    Report report;      // for a crashed or hung importer: its one finding
};

// Import `path` (with `anims`, `options`, under `config`) and check the model; a crash or
// time-out of the importer becomes its finding. `keep`, when given, receives the model.
// `influences`: what too-many-influences measures against (4 or 8 kept). `rules`: a project
// configuration's rules for this file (tolerances, then ignored codes and severities).
FileResult checkFile(const std::string& path, const std::vector<std::string>& anims, const ImportOptions& options,
                     const IsolationConfig& config, Model* keep = nullptr, int influences = kMaxInfluences,
                     const std::vector<const CheckRule*>& rules = {});

// The project configuration (check/check_config) of each checked file, as `rigview check` and
// the Python module's check() find it: `config` for every file when given, none with `none`,
// else the nearest rigview-check.json in the file's folder or one above it (each folder looked
// at once). Not for several threads at once.
class CheckConfigFinder {
public:
    CheckConfigFinder(const std::string& config, bool none);
    // "<file>: <what is wrong>" once a configuration could not be read or parsed, else empty.
    const std::string& error() const { return error_; }
    // Null: no configuration (or an error, then error() is set).
    const CheckConfig* forFile(const std::string& file);

private:
    const CheckConfig* load(const std::string& path);

    bool none_ = false;
    bool hasForced_ = false;
    const CheckConfig* forced_ = nullptr;
    std::map<std::string, const CheckConfig*> byFolder_;
    std::vector<std::unique_ptr<CheckConfig>> loaded_;
    std::string error_;
};

// 0 passed, 1 warnings only (passes unless strict), 2 failed, 3 unreadable.
int severityRank(const FileResult& r, bool strict);

// A finding as `check --json` writes it.
nlohmann::json findingJson(const Finding& f);

// A file's report as `check --json` writes it, made valid JSON (jsonout::sanitized): numbers
// the file made NaN or infinite become null, and the file gets one finding saying how many
// (non-finite-output).
nlohmann::json fileJson(const FileResult& r, bool strict);

}  // namespace rig
