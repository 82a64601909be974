// The isolated import worker: every import of a file from outside (viewer, info, pose, render,
// export, bench, each file of check) runs Assimp and rigview's own readers in a child process,
// the rigview binary itself started with the hidden subcommand `__import-worker`. The child
// limits its memory (app/memory_limit), restricts its file access with Landlock where the
// kernel has it (reads only beneath the model's and --anim files' folders and the system's
// libraries; no writes), imports, and sends the Model back on a pipe (platform/model_io). The
// parent enforces a time limit (SIGKILL on expiry), captures the child's stderr (sanitizer
// reports, Assimp chatter) and turns a crash, a time-out or running out of memory into one
// error line naming the file, so a malicious or broken file costs an error, never the process.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"
#include "import/images/hdr_image.h"
#include "import/import_options.h"

namespace rig {

// How imports run, set once by main from the command line.
struct IsolationConfig {
    bool enabled = false;          // main turns it on; --no-isolation (and library users) import in-process
    double timeoutSeconds = 120.0; // --import-timeout: the child is killed after this long
    std::string workerExe;         // the rigview binary (empty: $RIGVIEW_WORKER, else /proc/self/exe)
    std::vector<std::string> forwardedArgs;  // other global options the child needs ("--allow-external-paths")
    uint64_t memoryLimitMb = 0;    // the budget applied (app/memory_limit), for messages
    // Set to true by another thread: the import is cancelled, its worker killed (checked every
    // 50 ms; the Python module's Ctrl-C). Used where importIsolated gets no `cancel` of its own.
    const std::atomic<bool>* cancel = nullptr;
};
void setIsolation(const IsolationConfig& config);
const IsolationConfig& isolation();

// Why an import failed.
enum class ImportFailure {
    None,
    Error,        // the importer's own error (unreadable, not a regular file, no such file...)
    Crashed,      // the worker died of a signal or a sanitizer report
    TimedOut,     // killed at the time limit
    OutOfMemory,  // hit the memory budget
    Cancelled,    // the caller asked to stop (the viewer closing)
};

struct ImportOutcome {
    Result<Model> model{Error{}};
    ImportFailure failure = ImportFailure::None;
    std::string workerStderr;  // the last 64 KiB the worker wrote to stderr (for debugging)
};

// Told, on the importing thread, as each stage begins (the worker's Reading, Parsing and
// Converting, then Receiving) with the fraction of it done where that is known (while the
// model is received), else -1.
using ImportProgress = std::function<void(ImportStage stage, float fraction)>;

// Import `path` with the clips of `anims` and `options` (importModelWithAnims), isolated when
// isolation() is enabled (the worker gets `options` on its command line: workerImportArgs), in
// this process otherwise. `cancel`, when given, is polled: once it is true the worker is killed
// and the outcome is Cancelled. `progress`, when given, follows the stages. Thread-safe: each
// call has its own worker.
ImportOutcome importIsolated(const std::string& path, const std::vector<std::string>& anims,
                             const ImportOptions& options, const std::atomic<bool>* cancel = nullptr,
                             const ImportProgress& progress = {});
// The same with `config` instead of isolation() (library users such as the Python module,
// which choose per call whether to isolate and which rigview binary is the worker).
ImportOutcome importIsolated(const std::string& path, const std::vector<std::string>& anims,
                             const ImportOptions& options, const IsolationConfig& config,
                             const std::atomic<bool>* cancel = nullptr, const ImportProgress& progress = {});

// An environment map (an equirectangular Radiance .hdr, import/images/hdr_image.h) decoded as a
// model is imported: in a worker process under the same sandbox and limits (its folder only, no
// sockets or signals, the memory budget, --import-timeout) when isolation is enabled, in this
// process otherwise. The answer's size is checked against the pixels it brings. Errors are one
// line naming the file.
Result<HdrImage> decodeEnvironmentIsolated(const std::string& path);
Result<HdrImage> decodeEnvironmentIsolated(const std::string& path, const IsolationConfig& config);

// The worker's side of it (`rigview __import-worker --environment --model=PATH`).
int runEnvironmentWorker(const std::string& path, int resultFd, long parentPid);

// `options` as the worker's command-line arguments ("--units=file", "--amc-fps=60"), which the
// worker's command line parses back into the same ImportOptions.
std::vector<std::string> workerImportArgs(const ImportOptions& options);

// The child's side (`rigview __import-worker`): restrict itself, import with `options`, write
// the serialized model (or an error frame) to `resultFd`, after a stage frame as each stage
// begins when `stages` (--stages). `parentPid` is the parent that must still be alive. Returns
// the process exit code.
int runImportWorker(const std::string& path, const std::vector<std::string>& anims, const ImportOptions& options,
                    int resultFd, long parentPid, bool stages = false);

// Restrict this process for good (Landlock): reads beneath `folders` and the system's libraries
// only, no writes but /dev/null. Returns false where the kernel has no Landlock (the process
// goes on unrestricted). The worker calls it before importing.
bool restrictFileAccess(const std::set<std::string>& folders);

// The worker's whole sandbox, applied for good before it imports: restrictFileAccess's rules
// when `files` (not with --allow-external-paths), Landlock's network (ABI 4) and signal and
// abstract-socket scopes (ABI 6) where the kernel has them, and the system-call filter
// (platform/syscall_filter: no sockets, no signals to other processes). Returns whether the
// system-call filter is in place.
bool sandboxWorker(const std::set<std::string>& folders, bool files);

// "Landlock ABI N" or why file access is not restricted here (for `info` and the README).
std::string sandboxDescription();

// Name of a signal ("SIGSEGV").
std::string signalName(int sig);

}  // namespace rig
