// Rig diagnostics: findings about a Model, each with a stable code, a severity, a message,
// a count and example indices. Pure C++ (no GL), shared by `rigview check` and the viewer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/model.h"

namespace rig {

enum class Severity { Info = 0, Warning = 1, Error = 2 };

const char* severityName(Severity s);

struct Finding {
    std::string code;      // stable, kebab-case, e.g. "weights-not-normalized"
    Severity severity = Severity::Info;
    std::string message;   // one line for a person
    uint64_t count = 0;    // how many items (vertices, channels, clips...) are affected
    std::string subject;   // what the examples index: "mesh 'Body' vertices", "clip 'walk'"...
    std::vector<int64_t> examples;  // a few indices of affected items
    std::vector<std::string> names; // a few affected names (bones, channels, clips)
};

struct Report {
    std::vector<Finding> findings;
    Severity worst() const;
    bool empty() const { return findings.empty(); }
};

// Run every check on `model`.
Report checkModel(const Model& model);

}  // namespace rig
