// Run the rigview binary as a child process with a time limit, for command-line tests.
#pragma once

#include <string>
#include <vector>

namespace rig::testing {

struct RunResult {
    int exitCode = -1;      // valid when !signaled && !timedOut
    bool signaled = false;  // killed by a signal (crash)
    int signal = 0;
    bool timedOut = false;
    std::string out, err;
};

// Run `exe` with `args`; kill it after `timeoutSeconds`. `env` entries ("NAME=value")
// replace or add to this process's environment for the child.
RunResult run(const std::string& exe, const std::vector<std::string>& args, double timeoutSeconds = 120.0,
              const std::vector<std::string>& env = {});

// A fresh temporary directory for one test, removed when the test program ends.
std::string tempDir();

}  // namespace rig::testing
