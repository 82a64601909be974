// A project's check configuration (`rigview-check.json`): finding codes ignored, severities
// changed and check tolerances set, for every file and per path glob, so that a CI job can tune
// `rigview check` without command-line flags. Pure C++: parsing, matching and applying; where
// the file is looked for is the command's business (app/check_command.cpp).
//
// The file is a JSON object:
//   {
//     "ignore":     ["clip-static", ...],            finding codes dropped
//     "severity":   {"missing-texture": "error"},    a code's findings at another severity
//     "tolerances": {"rotation_jump_degrees": 60},   CheckSettings' thresholds (kToleranceNames)
//     "overrides":  [{"paths": ["props/**"], "ignore": [...], "severity": {...}, "tolerances": {...}}]
//   }
// The top level applies to every file, then each override whose globs match the file, in the
// file's order (a later one wins). Globs are matched against the file's path relative to the
// configuration's folder, with '/' between folders: `*` and `?` stay within a folder, `**`
// spans any number of folders, `[...]` is a set.
#pragma once

#include <string>
#include <vector>

#include "check/diagnostics.h"
#include "check/finding.h"

namespace rig {

struct CheckRule {
    std::vector<std::string> globs;  // empty: every file (the top level)
    std::vector<std::string> ignore;
    std::vector<std::pair<std::string, Severity>> severity;
    std::vector<std::pair<std::string, double>> tolerances;  // kToleranceNames
    std::vector<std::string> loopNames;                      // "loop_names": replaces the loop-name hints
    bool hasLoopNames = false;
};

struct CheckConfig {
    std::string path;              // the file it was read from
    std::string folder;            // globs are relative to it
    std::vector<CheckRule> rules;  // the top level first, then the overrides in order
};

// The tolerance keys "tolerances" takes, each with its meaning (docs, errors).
struct ToleranceName {
    const char* key;
    const char* meaning;
};
const std::vector<ToleranceName>& toleranceNames();

// Parse `text` (the contents of `path`). False with `error` = "<path>: <what is wrong>" (one
// line) for invalid JSON, an unknown key, code, severity or tolerance, or a value of the wrong kind.
bool parseCheckConfig(const std::string& text, const std::string& path, CheckConfig& out, std::string& error);

// Whether `relative` ('/'-separated) matches `glob` (the rules above).
bool globMatch(const std::string& glob, const std::string& relative);

// The rules that apply to `file` (any path; made relative to config.folder).
std::vector<const CheckRule*> rulesFor(const CheckConfig& config, const std::string& file);

// `base` with the tolerances of `rules` applied in order.
CheckSettings settingsFor(const std::vector<const CheckRule*>& rules, CheckSettings base);

// `report` with the ignored codes dropped and severities changed (in order), sorted again
// (errors, then warnings, then infos; otherwise as found).
void applyRules(const std::vector<const CheckRule*>& rules, Report& report);

}  // namespace rig
