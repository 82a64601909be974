// The headless subcommands. Each returns a process exit code (app/exit_codes.h) and writes
// its one-line errors to stderr.
#pragma once

#include <cstdint>
#include <string>

namespace rig {

struct InfoOptions {
    std::string model;
    bool json = false;
};

struct PoseOptions {
    std::string model;
    std::string output;      // .json or .obj
    std::string clip;        // name or index; empty: the first clip (bind pose if none)
    double time = 0.0;
    bool bindPose = false;
};

struct CheckOptions {
    std::string model;
    bool json = false;
    bool strict = false;
};

struct BenchOptions {
    std::string model;
    std::string clip;
    int64_t ticks = 6000;
    bool json = false;
};

int runInfo(const InfoOptions& o);
int runPose(const PoseOptions& o);
int runCheck(const CheckOptions& o);
int runBench(const BenchOptions& o);

}  // namespace rig
