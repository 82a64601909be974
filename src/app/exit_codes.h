// Process exit codes of the rigview binary (documented in README.md).
#pragma once

namespace rig::exitcode {

inline constexpr int kOk = 0;
inline constexpr int kCheckFailed = 1;     // check: errors found (or warnings with --strict)
inline constexpr int kUsage = 2;           // bad command line or option value (e.g. unknown clip)
inline constexpr int kBadInput = 3;        // the model could not be read or imported
inline constexpr int kOutputFailed = 4;    // the output file could not be written
inline constexpr int kNoDisplay = 5;       // the interactive viewer found no display
inline constexpr int kRenderFailed = 6;    // no OpenGL context could be made, or a shader failed
inline constexpr int kInternalError = 7;   // an unexpected error inside rigview (one line names it)

}  // namespace rig::exitcode
