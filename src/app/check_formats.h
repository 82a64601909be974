// The reports `rigview check --format` writes besides its text: the JSON document (one shape
// for any number of files, with its schema version), SARIF 2.1.0 (what GitHub code scanning
// and other SARIF viewers read) and JUnit XML (GitLab, Jenkins); and `diff --json`'s document.
// The JSON Schemas are in docs/schemas/.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/check_report.h"
#include "app/schema_versions.h"
#include "check/rig_diff.h"

namespace rig {

// {"files", "passed", "failed", ...} over `results`.
nlohmann::json checkSummaryJson(const std::vector<FileResult>& results, bool strict);
// {"schema", "rigview_version", "files": [...], "summary": {...}}.
nlohmann::json checkDocumentJson(const std::vector<FileResult>& results, bool strict);
// `diff --json`'s document: the diff (check/rig_diff's toJson) with the schema, the version and
// the two files' paths. Shared by `rigview diff` and the Python module's diff().
nlohmann::json diffDocumentJson(const RigDiff& diff, const std::string& a, const std::string& b);
std::string checkSarif(const std::vector<FileResult>& results, bool strict);
std::string checkJunit(const std::vector<FileResult>& results, bool strict);

}  // namespace rig
