// The one place JSON leaves rigview (info --json, pose .json, check --json, bench --json):
// the output is always valid JSON. Non-finite numbers become null and are counted (the
// caller reports them), strings and keys with invalid UTF-8 get U+FFFD in place of the bad
// bytes, and nothing here throws a JSON exception.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rig::jsonout {

struct Stats {
    size_t nonFinite = 0;    // NaN / Inf numbers written as null
    size_t invalidUtf8 = 0;  // strings (values or keys) whose bad bytes were replaced
};

// `j` with non-finite numbers made null and strings made valid UTF-8, counting both.
nlohmann::json sanitized(nlohmann::json j, Stats& stats);

// sanitized(j) as text (indent < 0: compact), without a trailing newline.
std::string dump(nlohmann::json j, int indent, Stats& stats);
std::string dump(nlohmann::json j, int indent);

// For writers that stream a large document piece by piece (pose): a number ("%.9g", or null
// when not finite) and a quoted, escaped string, counted as above.
void appendNumber(std::string& out, double v, Stats& stats);
void appendString(std::string& out, std::string_view s, Stats& stats);

}  // namespace rig::jsonout
