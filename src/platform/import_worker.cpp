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
constexpr char kModelMagic[8] = {'R', 'I', 'G', 'V', 'M', 'D', 'L', '\0'};
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
// readable by a file that takes the importer over. The worker's allocator keeps glibc's
// defaults: backing all of Assimp's blocks with transparent huge pages (glibc.malloc.hugetlb)
// doubled the system time of the 1M-vertex FBX's import on a busy machine (each 2 MiB page
// cleared whole, for blocks that use a part of it) and saved nothing on an idle one
// (docs/performance.md).
std::vector<char*> workerEnvironment() {
    static const char* const kPrefixes[] = {"RIGVIEW_", "ASAN_", "UBSAN_", "LSAN_", "TSAN_", "MSAN_", "LC_"};
    static const char* const kNames[] = {"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "LANG", "LANGUAGE", "TMPDIR", "GLIBC_TUNABLES"};
    std::vector<char*> out;
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

// A worker: `rigview [forwarded] [before] __import-worker --result-fd=3 --parent=PID [after]`,
// run under `config`'s time limit and `cancel`. What it writes on its result pipe (fd 3) is read
// as the caller asks (read), or gathered whole (finish); the last of its stderr is kept all the
// while, so a worker that writes much there never waits on us. The worker leads its own process
// group and is killed with it on a time-out or a cancel.
struct WorkerRun {
    std::string startError;  // not empty: the worker could not be started
    std::vector<uint8_t> bytes;  // what finish() gathered of the result pipe
    std::string errText;
    bool timedOut = false, cancelled = false;
    int status = 0;  // waitpid's
};

class Worker {
public:
    Worker(const IsolationConfig& config, const std::vector<std::string>& before, const std::vector<std::string>& after,
           const std::atomic<bool>* cancel)
        : cancel_(cancel) {
        start(config, before, after);
        if (!run_.startError.empty()) {
            exited_ = true;
            return;
        }
#ifdef SYS_pidfd_open
        pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
#endif
        deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config.timeoutSeconds));
    }
    ~Worker() { finish(); }
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // At least `atLeast` and at most `most` bytes of the result pipe at `to`; fewer only when
    // the pipe ends first, the time limit passes or the caller cancels. Returns how many.
    size_t read(void* to, size_t atLeast, size_t most) {
        auto* out = static_cast<uint8_t*>(to);
        size_t got = 0;
        while (got < atLeast && fds_[0] >= 0 && !stopped_) pump(out + got, most - got, got);
        return got;
    }
    // Exactly `n` bytes of the result pipe at `to`, or false.
    bool read(void* to, size_t n) { return read(to, n, n) == n; }

    // The rest of the result pipe gathered into run().bytes until the worker closes both pipes
    // and exits, or is killed at the time limit or on a cancel; then the run as it ended.
    WorkerRun& finish() {
        std::vector<uint8_t> buf;
        while (!exited_) {
            if (stopped_) {
                ::kill(-pid_, SIGKILL);
                ::kill(pid_, SIGKILL);
                while (::waitpid(pid_, &run_.status, 0) < 0 && errno == EINTR) {
                }
                exited_ = true;
                break;
            }
            if (fds_[0] >= 0 || fds_[1] >= 0) {
                if (buf.empty()) buf.resize(1 << 20);
                size_t got = 0;
                pump(buf.data(), buf.size(), got);
                run_.bytes.insert(run_.bytes.end(), buf.data(), buf.data() + got);
                continue;
            }
            // Both pipes closed: the child is exiting (or hangs after closing them). Wait on a
            // pidfd where there is one (no polling delay), else in 1 ms steps.
            const int waitMs = waitMillis();
            if (waitMs < 0) continue;
            const pid_t w = ::waitpid(pid_, &run_.status, WNOHANG);
            if (w == pid_) {
                exited_ = true;
            } else if (pidfd_ >= 0) {
                pollfd p{pidfd_, POLLIN, 0};
                ::poll(&p, 1, waitMs);
            } else {
                ::poll(nullptr, 0, 1);
            }
        }
        for (int& fd : fds_) {
            if (fd >= 0) ::close(fd);
            fd = -1;
        }
        if (pidfd_ >= 0) ::close(pidfd_);
        pidfd_ = -1;
        if (run_.errText.size() > kStderrKept) run_.errText.erase(0, run_.errText.size() - kStderrKept);
        return run_;
    }

    const WorkerRun& run() const { return run_; }

private:
    using Clock = std::chrono::steady_clock;

    void start(const IsolationConfig& config, const std::vector<std::string>& before, const std::vector<std::string>& after) {
        WorkerRun& run = run_;
        int result[2], err[2];
        if (::pipe2(result, O_CLOEXEC) != 0) {
            run.startError = "cannot start the worker process (pipe)";
            return;
        }
        if (::pipe2(err, O_CLOEXEC) != 0) {
            ::close(result[0]);
            ::close(result[1]);
            run.startError = "cannot start the worker process (pipe)";
            return;
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
        const int rc = ::posix_spawn(&pid_, exe.c_str(), &actions, &attr, argv.data(), envp.data());
        posix_spawnattr_destroy(&attr);
        posix_spawn_file_actions_destroy(&actions);
        ::close(result[1]);
        ::close(err[1]);
        if (rc != 0) {
            ::close(result[0]);
            ::close(err[0]);
            run.startError = "cannot start the worker process " + exe + " (" + std::strerror(rc) + ")";
            return;
        }
        fds_[0] = result[0];
        fds_[1] = err[0];
    }

    // How long the next wait may take (ms), or -1 once the time limit passed or the caller
    // cancelled (stopped_ is then set).
    int waitMillis() {
        if (cancel_ && cancel_->load()) {
            run_.cancelled = stopped_ = true;
            return -1;
        }
        const auto now = Clock::now();
        if (now >= deadline_) {
            run_.timedOut = stopped_ = true;
            return -1;
        }
        return static_cast<int>(std::min<int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count() + 1,
                                                  cancel_ ? 50 : 1000));
    }

    // One wait on both pipes: up to `max` bytes of the result pipe read to `to` (added to
    // `got`), stderr's kept; a pipe that ends is closed.
    void pump(uint8_t* to, size_t max, size_t& got) {
        const int waitMs = waitMillis();
        if (waitMs < 0) return;
        pollfd p[2] = {{fds_[0], POLLIN, 0}, {fds_[1], POLLIN, 0}};
        const int n = ::poll(p, 2, waitMs);
        if (n < 0 && errno != EINTR) {
            stopped_ = true;
            return;
        }
        for (int i = 0; i < 2 && n > 0; ++i) {
            if (fds_[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char errBuf[16384];
            const ssize_t r = i == 0 ? ::read(fds_[0], to, max) : ::read(fds_[1], errBuf, sizeof errBuf);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) {
                ::close(fds_[i]);
                fds_[i] = -1;
            } else if (i == 0) {
                got += static_cast<size_t>(r);
            } else {
                keepTail(run_.errText, errBuf, static_cast<size_t>(r));
            }
        }
    }

    const std::atomic<bool>* cancel_;
    WorkerRun run_;
    pid_t pid_ = -1;
    int fds_[2] = {-1, -1};  // result, stderr
    int pidfd_ = -1;
    Clock::time_point deadline_;
    bool stopped_ = false;  // timed out or cancelled: the worker is to be killed
    bool exited_ = false;
};

// The model's bytes from a worker's result pipe, for receiveModel: small fields through a
// buffer of 1 MiB (a few reads for thousands of them), large arrays read straight into place.
// Tells `progress` of the bytes received, in steps of 1/64 of the payload.
class ModelPipe {
public:
    ModelPipe(Worker& worker, uint64_t payload, const ImportProgress& progress)
        : worker_(worker), payload_(payload), progress_(progress), buffer_(kBuffer) {}

    bool take(void* to, size_t n) {
        auto* out = static_cast<uint8_t*>(to);
        const size_t k = std::min(n, end_ - at_);
        if (k) std::memcpy(out, buffer_.data() + at_, k);
        at_ += k;
        out += k;
        n -= k;
        if (n >= kBuffer / 2) {
            if (!worker_.read(out, n)) return false;
            tell(n);
            return true;
        }
        if (n == 0) return true;
        // Refill: at least what is asked, at most the buffer (never past the payload's end, so
        // whatever follows the model stays in the pipe).
        const uint64_t due = payload_ > received_ ? payload_ - received_ : 0;
        const size_t most = static_cast<size_t>(std::max<uint64_t>(n, std::min<uint64_t>(kBuffer, due)));
        const size_t got = worker_.read(buffer_.data(), n, most);
        tell(got);
        if (got < n) return false;
        std::memcpy(out, buffer_.data(), n);
        at_ = n;
        end_ = got;
        return true;
    }

private:
    static constexpr size_t kBuffer = size_t(1) << 20;
    void tell(size_t n) {
        received_ += n;
        if (!progress_ || payload_ == 0) return;
        const uint64_t step = received_ * 64 / payload_;
        if (step == lastStep_) return;
        lastStep_ = step;
        progress_(ImportStage::Receiving, std::min(1.0f, float(received_) / float(payload_)));
    }
    Worker& worker_;
    const uint64_t payload_;
    const ImportProgress& progress_;
    std::vector<uint8_t> buffer_;
    size_t at_ = 0, end_ = 0;  // the buffer's bytes not yet taken
    uint64_t received_ = 0;     // payload bytes read from the pipe
    uint64_t lastStep_ = 0;
};

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
    // The model is decoded as it arrives, straight into its arrays (platform/model_io).
    Worker worker(config, workerImportArgs(options), after, cancel);
    if (!worker.run().startError.empty()) return failed(ImportFailure::Error, path + ": " + worker.run().startError);
    uint8_t head[kModelHeader];
    bool answered = false;
    while (worker.read(head, 8)) {
        if (std::memcmp(head, kStageMagic, 8) != 0) {
            answered = true;
            break;
        }
        uint8_t stage = 0;
        if (!worker.read(&stage, 1)) break;
        if (progress && stage <= static_cast<uint8_t>(kLastImportStage)) progress(static_cast<ImportStage>(stage), -1.0f);
    }
    Result<Model> model{Error{}};
    bool received = false;  // the answer was a model, decoded (or refused) as it came
    if (answered && std::memcmp(head, kModelMagic, 8) == 0 && worker.read(head + 8, kModelHeader - 8)) {
        if (progress) progress(ImportStage::Receiving, 0.0f);
        uint64_t payload = 0;
        std::memcpy(&payload, head + 12, 8);
        ModelPipe pipe(worker, payload, progress);
        model = receiveModel(std::span<const uint8_t>(head, kModelHeader),
                             [&](void* to, size_t n) { return pipe.take(to, n); });
        received = true;
    }
    WorkerRun& run = worker.finish();
    if (run.cancelled || run.timedOut) return workerFailure(run, path, "the importer", "model", "", config);
    // A complete answer counts whatever happened after it was sent (a sanitizer's leak report
    // at exit, say): it is checksummed and validated. Without one, the exit status says why.
    ImportOutcome o;
    if (received) {
        if (model && !run.bytes.empty()) model = Error{"serialized model malformed: bytes after its end"};
    } else {
        // An error frame, or whatever else came (what is left of stage frames is not the answer).
        std::vector<uint8_t> bytes;
        if (answered) bytes.assign(head, head + 8);
        bytes.insert(bytes.end(), run.bytes.begin(), run.bytes.end());
        if (errorFrame(bytes, run.errText, o)) return o;
        model = deserializeModel(bytes);
    }
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
    Worker worker(config, {}, {"--environment", "--model=" + path}, config.cancel);
    if (!worker.run().startError.empty()) return Error{path + ": " + worker.run().startError};
    const WorkerRun& run = worker.finish();
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
        const bool sent = writeModel(r.value(), [resultFd](const void* data, size_t n) { return writeAll(resultFd, data, n); });
        return sent ? 0 : 1;
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
