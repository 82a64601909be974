// A rig finding and a report of them: the values `rigview check` prints and the viewer's
// Checks panel lists. Each finding's code and severity come from the table in check/codes.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rig {

enum class Severity { Info = 0, Warning = 1, Error = 2 };

const char* severityName(Severity s);

struct Finding {
    std::string code;      // stable, kebab-case, e.g. "weights-not-normalized" (check/codes.h)
    Severity severity = Severity::Info;
    std::string message;   // one line for a person
    uint64_t count = 0;    // how many items (vertices, channels, clips...) are affected
    std::string subject;   // what the examples index: "mesh 'Body' vertices", "clip 'walk'"...
    std::vector<int64_t> examples;  // a few indices of affected items
    std::vector<std::string> names; // a few affected names (bones, channels, clips)
    // Where to look, for the viewer (-1: not about one mesh / joint (skeleton node) / clip).
    int32_t mesh = -1;
    int32_t joint = -1;
    int32_t clip = -1;
    double value = 0.0;    // the finding's measure, where it has one (the code's meaning says which)
};

struct Report {
    std::vector<Finding> findings;  // errors first, then warnings, then infos
    Severity worst() const;
    bool empty() const { return findings.empty(); }
};

}  // namespace rig
