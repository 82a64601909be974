#include "platform/import_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#define RIGVIEW_HAVE_LANDLOCK 1
#endif

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "import/images/hdr_image.h"
#include "import/import.h"
#include "platform/huge_pages.h"
#include "platform/model_io.h"
#include "platform/syscall_filter.h"
#include "util/paths.h"

extern char** environ;

namespace rig {

namespace {

namespace fs = std::filesystem;

// An error frame on the result pipe: this magic, a kind byte, the error's code (Error::code,
// may be empty), a newline, then the message.
constexpr char kErrorMagic[8] = {'R', 'I', 'G', 'V', 'E', 'R', 'R', '\0'};
constexpr char kKindError = 'E', kKindOutOfMemory = 'M';
// A stage frame, before the model or error: this magic and the ImportStage that begins.
constexpr char kStageMagic[8] = {'R', 'I', 'G', 'V', 'S', 'T', 'G', '\0'};
constexpr size_t kStageFrame = 9;
// The model's header (platform/model_io): magic, version, then the payload's size at byte 12.
constexpr size_t kModelHeader = 28;
constexpr size_t kStderrKept = 64 * 1024;
// An environment map's answer: this magic, its width and height (u32 each), then its RGBA half
// floats (HdrImage::rgbaHalf).
constexpr char kHdrMagic[8] = {'R', 'I', 'G', 'V', 'H', 'D', 'R', '\0'};
constexpr size_t kHdrHeader = 16;

std::mutex gConfigMutex;
IsolationConfig gConfig;

bool writeAll(int fd, const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

bool writeError(int fd, char kind, const std::string& message, const std::string& code = {}) {
    std::string frame(kErrorMagic, 8);
    frame += kind;
    frame += code;
    frame += '\n';
    frame += message;
    return writeAll(fd, frame.data(), frame.size());
}

// The worker's environment: only what it needs to run as this rigview does (rigview's own
// settings, the sanitizers' options, where programs and libraries are, the locale and the
// temporary folder). Nothing else of the parent's (tokens, keys in the environment) is
// readable by a file that takes the importer over.
// The worker's allocator backs its large blocks with transparent huge pages where the kernel
// offers them on request (glibc's malloc.hugetlb tunable; ignored by a glibc or a kernel without
// it): a large model's import is mostly fresh memory (the file, Assimp's scene, the Model, the
// bytes sent back), and with 4 KiB pages its page faults took half of the 1M-vertex import's
// time (docs/performance.md). A GLIBC_TUNABLES of the parent's own is kept instead.
std::vector<char*> workerEnvironment() {
    static const char* const kPrefixes[] = {"RIGVIEW_", "ASAN_", "UBSAN_", "LSAN_", "TSAN_", "MSAN_", "LC_"};
    static const char* const kNames[] = {"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "LANG", "LANGUAGE", "TMPDIR", "GLIBC_TUNABLES"};
    static char kHugePages[] = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1";
    std::vector<char*> out;
    if (!std::getenv("GLIBC_TUNABLES")) out.push_back(kHugePages);
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const std::string_view name = entry.substr(0, entry.find('='));
        bool keep = false;
        for (const char* p : kPrefixes) keep = keep || name.rfind(p, 0) == 0;
        for (const char* n : kNames) keep = keep || name == n;
        if (keep) out.push_back(*e);
    }
    out.push_back(nullptr);
    return out;
}

std::string workerExecutable(const IsolationConfig& c) {
    if (!c.workerExe.empty()) return c.workerExe;
    if (const char* env = std::getenv("RIGVIEW_WORKER"); env && *env) return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("/proc/self/exe") : self.string();
}

// A descriptor number above the standard ones, so dup2 onto 2 or 3 in the child always copies.
int moveAbove(int fd, int minFd) {
    if (fd >= minFd) return fd;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, minFd);
    ::close(fd);
    return moved;
}

void keepTail(std::string& s, const char* data, size_t n) {
    s.append(data, n);
    if (s.size() > 2 * kStderrKept) s.erase(0, s.size() - kStderrKept);
}

// The sanitizer's one-word verdict from a report ("AddressSanitizer: heap-buffer-overflow").
std::string sanitizerVerdict(const std::string& err) {
    for (const char* tool : {"AddressSanitizer: ", "UndefinedBehaviorSanitizer: ", "LeakSanitizer: "}) {
        const size_t at = err.find(tool);
        if (at == std::string::npos) continue;
        size_t end = at + std::strlen(tool);
        while (end < err.size() && !std::isspace(static_cast<unsigned char>(err[end]))) ++end;
        return err.substr(at, end - at);
    }
    if (const size_t at = err.find("runtime error: "); at != std::string::npos) return "undefined behaviour";
    return "";
}

std::string formatSeconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

// RIGVIEW_NO_LANDLOCK=1 runs the worker as on a kernel without Landlock (the seccomp filter
// alone), to see and test what holds there.
bool landlockTurnedOff() {
    const char* off = std::getenv("RIGVIEW_NO_LANDLOCK");
    return off && *off && std::strcmp(off, "0") != 0;
}

#ifdef RIGVIEW_HAVE_LANDLOCK
long landlockAbi() {
    if (landlockTurnedOff()) return 0;
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : abi;
}

// Allow `access` beneath `path` (a folder or a file); missing paths are skipped.
void allowPath(int ruleset, const std::string& path, uint64_t access) {
    const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) {
        // Rights that only make sense on folders cannot be granted on a file.
        access &= LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE;
    }
    landlock_path_beneath_attr rule{};
    rule.allowed_access = access;
    rule.parent_fd = fd;
    ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    ::close(fd);
}

// The ruleset's attributes as the kernel reads them: the headers of older systems (Debian 12's)
// stop at handled_access_fs; the kernel takes the longer struct from the ABI that has each field.
struct RulesetAttr {
    uint64_t handledAccessFs = 0;
    uint64_t handledAccessNet = 0;  // ABI 4
    uint64_t scoped = 0;            // ABI 6
};
constexpr uint64_t kAccessFsTruncate = 1ULL << 14;                                // ABI 3
constexpr uint64_t kAccessNetBindTcp = 1ULL << 0, kAccessNetConnectTcp = 1ULL << 1;  // ABI 4
constexpr uint64_t kScopeAbstractUnixSocket = 1ULL << 0, kScopeSignal = 1ULL << 1;    // ABI 6

// One Landlock domain for this process: file access (when `folders` is given) as
// restrictFileAccess says; TCP bind and connect denied (ABI 4); signals to and abstract UNIX
// sockets of processes outside the domain denied (ABI 6).
bool restrictSelf(const std::set<std::string>* folders) {
    const long abi = landlockAbi();
    if (abi < 1) return false;
    RulesetAttr attr;
    size_t size = sizeof attr.handledAccessFs;
    if (folders) {
        attr.handledAccessFs = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                               LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                               LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                               LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                               LANDLOCK_ACCESS_FS_MAKE_SYM;
        if (abi >= 2) attr.handledAccessFs |= 1ULL << 13;  // LANDLOCK_ACCESS_FS_REFER
        if (abi >= 3) attr.handledAccessFs |= kAccessFsTruncate;
    }
    if (abi >= 4) {
        attr.handledAccessNet = kAccessNetBindTcp | kAccessNetConnectTcp;
        size = offsetof(RulesetAttr, handledAccessNet) + sizeof attr.handledAccessNet;
    }
    if (abi >= 6) {
        attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
        size = sizeof attr;
    }
    if (!attr.handledAccessFs && !attr.handledAccessNet && !attr.scoped) return false;
    const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, size, 0));
    if (ruleset < 0) return false;
    if (folders) {
        const uint64_t read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
        for (const std::string& f : *folders) allowPath(ruleset, f, read);
        // The runtime: shared libraries and the sanitizers' symbolizer (read and run, never
        // write), the process's own /proc entry (sanitizers read their memory map), /dev/null
        // (stdio is silenced there during imports).
        for (const char* sys : {"/usr", "/lib", "/lib64", "/etc/ld.so.cache"}) {
            allowPath(ruleset, sys, read | LANDLOCK_ACCESS_FS_EXECUTE);
        }
        allowPath(ruleset, "/proc/self", read);
        allowPath(ruleset, "/dev/null", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE);
        allowPath(ruleset, "/dev/urandom", LANDLOCK_ACCESS_FS_READ_FILE);
    }
    const bool ok = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && ::syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
    ::close(ruleset);
    return ok;
}

}  // namespace

bool restrictFileAccess(const std::set<std::string>& folders) { return restrictSelf(&folders); }

bool sandboxWorker(const std::set<std::string>& folders, bool files) {
    restrictSelf(files ? &folders : nullptr);
    return restrictSystemCalls();
}

namespace {
#else
long landlockAbi() { return 0; }
}  // namespace
bool restrictFileAccess(const std::set<std::string>&) { return false; }
bool sandboxWorker(const std::set<std::string>&, bool) { return restrictSystemCalls(); }
namespace {
#endif

// The folder a file is in, absolute, as given and with links resolved (what the sandbox lets
// the worker read: a model's relative resources resolve from the folder it was named in).
void addFolderOf(const std::string& path, std::set<std::string>& folders) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    if (ec) abs = path;
    folders.insert(abs.lexically_normal().parent_path().string());
    const fs::path canonical = fs::weakly_canonical(abs, ec);
    if (!ec) folders.insert(canonical.parent_path().string());
}

ImportOutcome failed(ImportFailure kind, std::string message, std::string err = {}) {
    ImportOutcome o;
    o.model = Error{std::move(message)};
    o.failure = kind;
    o.workerStderr = std::move(err);
    return o;
}

ImportOutcome importInProcess(const std::string& path, const std::vector<std::string>& anims, ImportOptions options,
                              const ImportProgress& progress) {
    ImportOutcome o;
    if (progress) options.onStage = [&](ImportStage s) { progress(s, -1.0f); };
    try {
        o.model = importModelWithAnims(path, anims, options);
        o.failure = o.model ? ImportFailure::None : ImportFailure::Error;
    } catch (const std::bad_alloc&) {
        o = failed(ImportFailure::OutOfMemory, path + ": out of memory while importing (limit " +
                                                   std::to_string(gConfig.memoryLimitMb) + " MiB; see RIGVIEW_MAX_MEMORY_MB)");
    }
    return o;
}

// Runs `rigview [forwarded] [before] __import-worker --result-fd=3 --parent=PID [after]` under
// `config`'s time limit and `cancel`, collecting what it writes on its result pipe (fd 3) into
// `bytes` (`onData` is told after each read, and may take frames off the front) and the last of
// its stderr. The worker leads its own process group and is killed with it on a time-out or a
// cancel.
struct WorkerRun {
    std::string startError;  // not empty: the worker could not be started
    std::vector<uint8_t> bytes;
    std::string errText;
    bool timedOut = false, cancelled = false;
    int status = 0;  // waitpid's
};

WorkerRun runWorker(const IsolationConfig& config, const std::vector<std::string>& before, const std::vector<std::string>& after,
                    const std::atomic<bool>* cancel, const std::function<void(std::vector<uint8_t>&)>& onData) {
    WorkerRun run;
    int result[2], err[2];
    if (::pipe2(result, O_CLOEXEC) != 0) {
        run.startError = "cannot start the worker process (pipe)";
        return run;
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(result[0]);
        ::close(result[1]);
        run.startError = "cannot start the worker process (pipe)";
        return run;
    }
    result[1] = moveAbove(result[1], 4);
    err[1] = moveAbove(err[1], 4);
    // A large model crosses in fewer, larger writes (the default pipe holds 64 KiB); where the
    // system refuses, the default serves.
    ::fcntl(result[0], F_SETPIPE_SZ, 1 << 20);

    const std::string exe = workerExecutable(config);
    std::vector<std::string> args = {exe};
    args.insert(args.end(), config.forwardedArgs.begin(), config.forwardedArgs.end());
    args.insert(args.end(), before.begin(), before.end());
    args.insert(args.end(), {"__import-worker", "--result-fd=3", "--parent=" + std::to_string(::getpid())});
    args.insert(args.end(), after.begin(), after.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_adddup2(&actions, result[1], 3);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);  // nothing else of ours leaks in
#endif
    // The worker leads its own process group, so a time-out kills whatever it started too (a
    // sanitizer's symbolizer); it dies with us through PR_SET_PDEATHSIG (runImportWorker).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<char*> envp = workerEnvironment();
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, exe.c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    ::close(result[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(result[0]);
        ::close(err[0]);
        run.startError = "cannot start the worker process " + exe + " (" + std::strerror(rc) + ")";
        return run;
    }

#ifdef SYS_pidfd_open
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    const int pidfd = -1;
#endif
    // Read both pipes until the child closes them, the time limit passes or we are cancelled.
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config.timeoutSeconds));
    std::vector<uint8_t>& bytes = run.bytes;
    std::string& errText = run.errText;
    int fds[2] = {result[0], err[0]};
    bool timedOut = false, cancelled = false, exited = false;
    int status = 0;
    std::vector<uint8_t> buf(1 << 20);
    while (!exited) {
        if (cancel && cancel->load()) {
            cancelled = true;
            break;
        }
        const auto now = Clock::now();
        if (now >= deadline) {
            timedOut = true;
            break;
        }
        const int waitMs = static_cast<int>(std::min<int64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1, cancel ? 50 : 1000));
        if (fds[0] >= 0 || fds[1] >= 0) {
            pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
            const int n = ::poll(p, 2, waitMs);
            if (n < 0 && errno != EINTR) break;
            for (int i = 0; i < 2 && n > 0; ++i) {
                if (fds[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                const ssize_t got = ::read(fds[i], buf.data(), buf.size());
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) {
                    ::close(fds[i]);
                    fds[i] = -1;
                } else if (i == 0) {
                    bytes.insert(bytes.end(), buf.data(), buf.data() + got);
                    if (onData) onData(bytes);
                } else {
                    keepTail(errText, reinterpret_cast<const char*>(buf.data()), static_cast<size_t>(got));
                }
            }
        } else {
            // Both pipes closed: the child is exiting (or hangs after closing them). Wait on a
            // pidfd where there is one (no polling delay), else in 1 ms steps.
            const pid_t w = ::waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                exited = true;
            } else if (pidfd >= 0) {
                pollfd p{pidfd, POLLIN, 0};
                ::poll(&p, 1, waitMs);
            } else {
                ::poll(nullptr, 0, 1);
            }
        }
    }
    if (!exited) {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    for (int fd : fds) {
        if (fd >= 0) ::close(fd);
    }
    if (pidfd >= 0) ::close(pidfd);
    if (errText.size() > kStderrKept) errText.erase(0, errText.size() - kStderrKept);

    run.timedOut = timedOut;
    run.cancelled = cancelled;
    run.status = status;
    return run;
}

// Why a worker that sent no usable answer failed, as the import's outcome: `noun` is what the
// worker was doing ("the importer", "the image decoder"), `answer` what it should have sent
// ("model", "image"); `why` what was wrong with what it sent.
ImportOutcome workerFailure(const WorkerRun& run, const std::string& path, const std::string& noun, const std::string& answer,
                            const std::string& why, const IsolationConfig& config) {
    std::string errText = run.errText;
    if (run.cancelled) return failed(ImportFailure::Cancelled, path + ": import cancelled", std::move(errText));
    if (run.timedOut) {
        return failed(ImportFailure::TimedOut,
                      path + ": " + noun + " was killed after " + formatSeconds(config.timeoutSeconds) +
                          " s (import time limit: --import-timeout SECONDS raises it)",
                      std::move(errText));
    }
    const std::string verdict = sanitizerVerdict(errText);
    if (WIFSIGNALED(run.status)) {
        const int sig = WTERMSIG(run.status);
        if (sig == SIGKILL) {
            return failed(ImportFailure::Crashed, path + ": " + noun + " was killed (SIGKILL, e.g. by the system's out-of-memory killer)",
                          std::move(errText));
        }
        return failed(ImportFailure::Crashed,
                      path + ": " + noun + " crashed (" + signalName(sig) + (verdict.empty() ? "" : ", " + verdict) + ")",
                      std::move(errText));
    }
    const int code = WIFEXITED(run.status) ? WEXITSTATUS(run.status) : -1;
    if (code != 0) {
        return failed(ImportFailure::Crashed,
                      path + ": " + noun + " crashed (" + (verdict.empty() ? "exit status " + std::to_string(code) : verdict) + ")",
                      std::move(errText));
    }
    return failed(ImportFailure::Crashed, path + ": " + noun + " sent back a broken " + answer + " (" + why + ")", std::move(errText));
}

// An error frame (kErrorMagic) as the outcome, or false when `bytes` holds none.
bool errorFrame(const std::vector<uint8_t>& bytes, std::string errText, ImportOutcome& out) {
    if (bytes.size() < 9 || std::memcmp(bytes.data(), kErrorMagic, 8) != 0) return false;
    std::string rest(reinterpret_cast<const char*>(bytes.data()) + 9, bytes.size() - 9);
    size_t nl = rest.find('\n');
    std::string code = nl == std::string::npos ? std::string() : rest.substr(0, nl);
    // The whole message: a file name may hold a newline. Whoever prints it escapes control
    // characters (text::forTerminal, the JSON writer), which keeps it one line.
    std::string message = nl == std::string::npos ? rest : rest.substr(nl + 1);
    out = failed(bytes[8] == kKindOutOfMemory ? ImportFailure::OutOfMemory : ImportFailure::Error, std::move(message),
                 std::move(errText));
    out.model = Error{out.model.error().message, std::move(code)};
    return true;
}

}  // namespace

void setIsolation(const IsolationConfig& config) {
    std::lock_guard<std::mutex> lock(gConfigMutex);
    gConfig = config;
}

const IsolationConfig& isolation() { return gConfig; }

std::string signalName(int sig) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
    if (const char* abbrev = sigabbrev_np(sig)) return std::string("SIG") + abbrev;
#endif
    return "signal " + std::to_string(sig);
}

std::string sandboxDescription() {
    if (landlockTurnedOff()) return "Landlock turned off (RIGVIEW_NO_LANDLOCK): file access not restricted";
    const long abi = landlockAbi();
    if (abi >= 1) return "Landlock ABI " + std::to_string(abi);
#ifdef RIGVIEW_HAVE_LANDLOCK
    return "no Landlock in this kernel: file access not restricted";
#else
    return "built without Landlock: file access not restricted";
#endif
}

std::vector<std::string> workerImportArgs(const ImportOptions& options) {
    char fps[32];
    std::snprintf(fps, sizeof fps, "%.9g", static_cast<double>(options.amcFramesPerSecond));
    std::vector<std::string> args = {std::string("--units=") + (options.units == UnitMode::File ? "file" : "metres"),
                                     std::string("--amc-fps=") + fps};
    return args;
}

ImportOutcome importIsolated(const std::string& path, const std::vector<std::string>& anims,
                             const ImportOptions& options, const std::atomic<bool>* cancel, const ImportProgress& progress) {
    IsolationConfig config;
    {
        std::lock_guard<std::mutex> lock(gConfigMutex);
        config = gConfig;
    }
    return importIsolated(path, anims, options, config, cancel, progress);
}

ImportOutcome importIsolated(const std::string& path, const std::vector<std::string>& anims,
                             const ImportOptions& options, const IsolationConfig& config,
                             const std::atomic<bool>* cancel, const ImportProgress& progress) {
    if (!cancel) cancel = config.cancel;
    // Refused before any process starts (and in both modes): missing files, folders, FIFOs.
    if (Result<bool> regular = checkRegularFile(path); !regular) return failed(ImportFailure::Error, regular.error().message);
    for (const std::string& a : anims) {
        if (Result<bool> regular = checkRegularFile(a); !regular) return failed(ImportFailure::Error, regular.error().message);
    }
    if (!config.enabled) return importInProcess(path, anims, options, progress);

    // Paths as --opt=value, so a file named "-x.fbx" stays a file.
    std::vector<std::string> after = {"--stages", "--model=" + path};
    for (const std::string& a : anims) after.push_back("--anim=" + a);
    if (!options.decodeImages) after.push_back("--no-images");  // the worker's own option
    // The result pipe carries stage frames (kStageMagic), then the model (or an error frame).
    // Stage frames are taken off the front as they arrive; once the model's header is in, its
    // whole size is reserved, so a large model is received into one buffer.
    size_t framesEnd = 0;  // bytes before this offset were stage frames
    bool inModel = false;
    uint64_t modelBytes = 0;  // the model's whole size, once its header is in
    auto takeFrames = [&](std::vector<uint8_t>& bytes) {
        while (!inModel && bytes.size() - framesEnd >= 8) {
            const uint8_t* at = bytes.data() + framesEnd;
            if (std::memcmp(at, kStageMagic, 8) != 0) {
                inModel = true;
                bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(framesEnd));
                framesEnd = 0;
                if (progress) progress(ImportStage::Receiving, 0.0f);
                break;
            }
            if (bytes.size() - framesEnd < kStageFrame) break;
            if (progress && at[8] <= static_cast<uint8_t>(kLastImportStage)) progress(static_cast<ImportStage>(at[8]), -1.0f);
            framesEnd += kStageFrame;
        }
        if (inModel && modelBytes == 0 && bytes.size() >= kModelHeader && std::memcmp(bytes.data(), "RIGVMDL", 7) == 0) {
            uint64_t payload = 0;
            std::memcpy(&payload, bytes.data() + 12, 8);
            // Reserved only while it is a size this process could hold (a forged one is refused
            // by the model's reader, not by a failed allocation here).
            if (payload <= (uint64_t(1) << 40)) {
                modelBytes = kModelHeader + payload;
                try {
                    std::vector<uint8_t> whole;
                    reserveHugePages(whole, modelBytes);
                    whole.insert(whole.end(), bytes.begin(), bytes.end());
                    bytes.swap(whole);
                } catch (const std::bad_alloc&) {
                }
            }
        }
        if (inModel && modelBytes && progress) progress(ImportStage::Receiving, std::min(1.0f, float(bytes.size()) / float(modelBytes)));
    };
    WorkerRun run = runWorker(config, workerImportArgs(options), after, cancel, takeFrames);
    if (!run.startError.empty()) return failed(ImportFailure::Error, path + ": " + run.startError);
    std::vector<uint8_t>& bytes = run.bytes;
    // What is left of stage frames (a worker that stopped after one) is not the answer.
    if (!inModel) bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(framesEnd));
    if (run.cancelled || run.timedOut) return workerFailure(run, path, "the importer", "model", "", config);
    // A complete answer counts whatever happened after it was sent (a sanitizer's leak report
    // at exit, say): it is checksummed and validated. Without one, the exit status says why.
    ImportOutcome o;
    if (errorFrame(bytes, run.errText, o)) return o;
    Result<Model> model = deserializeModel(bytes);
    if (!model) return workerFailure(run, path, "the importer", "model", model.error().message, config);
    o.model = std::move(model);
    o.workerStderr = std::move(run.errText);
    return o;
}

Result<HdrImage> decodeEnvironmentIsolated(const std::string& path) {
    IsolationConfig config;
    {
        std::lock_guard<std::mutex> lock(gConfigMutex);
        config = gConfig;
    }
    return decodeEnvironmentIsolated(path, config);
}

Result<HdrImage> decodeEnvironmentIsolated(const std::string& path, const IsolationConfig& config) {
    if (!config.enabled) return readHdrImage(path);
    WorkerRun run = runWorker(config, {}, {"--environment", "--model=" + path}, config.cancel, {});
    if (!run.startError.empty()) return Error{path + ": " + run.startError};
    ImportOutcome error;
    if (errorFrame(run.bytes, run.errText, error)) return error.model.error();
    // Pixels of the size the answer states, within the limits of an environment map.
    const std::vector<uint8_t>& bytes = run.bytes;
    std::string why = "no image in it";
    if (!run.cancelled && !run.timedOut && bytes.size() >= kHdrHeader && std::memcmp(bytes.data(), kHdrMagic, 8) == 0) {
        uint32_t w = 0, h = 0;
        std::memcpy(&w, bytes.data() + 8, 4);
        std::memcpy(&h, bytes.data() + 12, 4);
        if (w == 0 || h == 0 || w > uint32_t(kMaxHdrWidth) || h > uint32_t(kMaxHdrHeight)) {
            why = "a size out of range";
        } else if (bytes.size() != kHdrHeader + size_t(w) * h * 4 * sizeof(uint16_t)) {
            why = "a size that does not match its pixels";
        } else {
            HdrImage image;
            image.width = static_cast<int>(w);
            image.height = static_cast<int>(h);
            image.rgbaHalf.resize(size_t(w) * h * 4);
            std::memcpy(image.rgbaHalf.data(), bytes.data() + kHdrHeader, image.rgbaHalf.size() * sizeof(uint16_t));
            return image;
        }
    }
    return workerFailure(run, path, "the image decoder", "image", why, config).model.error();
}

int runEnvironmentWorker(const std::string& path, int resultFd, long parentPid) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (parentPid > 0 && ::getppid() != parentPid) return 1;
    ::signal(SIGPIPE, SIG_IGN);
    ::fcntl(resultFd, F_SETFD, FD_CLOEXEC);
    // The same walls as an import: reads beneath the map's folder only, no sockets, no signals.
    std::set<std::string> folders;
    addFolderOf(path, folders);
    sandboxWorker(folders, true);
    try {
        Result<HdrImage> r = readHdrImage(path);
        if (!r) return writeError(resultFd, kKindError, r.error().message) ? 0 : 1;
        const HdrImage& image = r.value();
        std::string frame(kHdrMagic, 8);
        const uint32_t wh[2] = {static_cast<uint32_t>(image.width), static_cast<uint32_t>(image.height)};
        frame.append(reinterpret_cast<const char*>(wh), sizeof wh);
        return writeAll(resultFd, frame.data(), frame.size()) &&
                       writeAll(resultFd, image.rgbaHalf.data(), image.rgbaHalf.size() * sizeof(uint16_t))
                   ? 0
                   : 1;
    } catch (const std::bad_alloc&) {
        return writeError(resultFd, kKindOutOfMemory,
                          path + ": the image decoder ran out of memory (limit " + std::to_string(gConfig.memoryLimitMb) +
                              " MiB; see RIGVIEW_MAX_MEMORY_MB)")
                   ? 0
                   : 1;
    }
}

int runImportWorker(const std::string& path, const std::vector<std::string>& anims, const ImportOptions& options,
                    int resultFd, long parentPid, bool stages) {
    // Die with the parent, so a worker never outlives the command or viewer that wanted it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (parentPid > 0 && ::getppid() != parentPid) return 1;
    ::signal(SIGPIPE, SIG_IGN);  // a parent gone away is a failed write, not a signal
    ::fcntl(resultFd, F_SETFD, FD_CLOEXEC);

    std::set<std::string> folders;
    addFolderOf(path, folders);
    for (const std::string& a : anims) addFolderOf(a, folders);
    // --allow-external-paths: the user asked for files outside the model's folder to be read.
    // Beyond files: no sockets, no signals to other processes (platform/syscall_filter).
    sandboxWorker(folders, !paths::allowExternal());

    // Each stage as it begins, for the parent's progress display (when it asked).
    ImportOptions reporting = options;
    if (stages) reporting.onStage = [resultFd](ImportStage s) {
        char frame[kStageFrame];
        std::memcpy(frame, kStageMagic, 8);
        frame[8] = static_cast<char>(s);
        writeAll(resultFd, frame, sizeof frame);
    };
    try {
        Result<Model> r = importModelWithAnims(path, anims, reporting);
        if (!r) return writeError(resultFd, kKindError, r.error().message, r.error().code) ? 0 : 1;
        const std::vector<uint8_t> bytes = serializeModel(r.value());
        return writeAll(resultFd, bytes.data(), bytes.size()) ? 0 : 1;
    } catch (const std::bad_alloc&) {
        return writeError(resultFd, kKindOutOfMemory,
                          path + ": the importer ran out of memory (limit " + std::to_string(gConfig.memoryLimitMb) +
                              " MiB; see RIGVIEW_MAX_MEMORY_MB)")
                   ? 0
                   : 1;
    } catch (const std::exception& e) {
        return writeError(resultFd, kKindError, path + ": " + e.what()) ? 0 : 1;
    }
}

}  // namespace rig
