#include "util/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "util/input_file.h"

namespace rig {

namespace {

// Temporary files being written, for the signal handler to remove. Fixed storage: the
// handler may only call async-signal-safe functions (unlink, sigaction, raise).
constexpr int kSlots = 16;
constexpr size_t kPathMax = 4096;
constexpr size_t kNameMax = 255;  // NAME_MAX of Linux file systems
char gTempPaths[kSlots][kPathMax];
std::atomic<bool> gSlotUsed[kSlots];
std::mutex gSlotMutex;
const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void removeTempFilesAndDie(int sig) {
    for (int i = 0; i < kSlots; ++i) {
        if (gSlotUsed[i].load()) ::unlink(gTempPaths[i]);
    }
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
}

// Installed once, and only over the default action (a handler someone else set, or an
// ignored signal, is left alone).
void installHandlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (int sig : kSignals) {
            struct sigaction old{};
            if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
            struct sigaction sa{};
            sa.sa_handler = removeTempFilesAndDie;
            sigemptyset(&sa.sa_mask);
            ::sigaction(sig, &sa, nullptr);
        }
    });
}

int registerTemp(const std::string& path) {
    if (path.size() >= kPathMax) return -1;
    std::lock_guard<std::mutex> lock(gSlotMutex);
    for (int i = 0; i < kSlots; ++i) {
        if (gSlotUsed[i].load()) continue;
        std::memcpy(gTempPaths[i], path.c_str(), path.size() + 1);
        gSlotUsed[i].store(true);
        return i;
    }
    return -1;
}

void unregisterTemp(int slot) {
    if (slot < 0) return;
    std::lock_guard<std::mutex> lock(gSlotMutex);
    gSlotUsed[slot].store(false);
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {}

OutputFile::~OutputFile() { discard(); }

bool OutputFile::fail(const std::string& why) {
    failed_ = true;
    if (error_.empty()) error_ = path_ + ": cannot write the output file (" + why + ")";
    discard();
    return false;
}

void OutputFile::discard() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!temp_.empty() && !committed_) ::unlink(temp_.c_str());
    unregisterTemp(slot_);
    slot_ = -1;
    temp_.clear();
}

bool OutputFile::open() {
    namespace fs = std::filesystem;
    if (path_.empty()) return fail("no file name");
    target_ = path_;
    // The process's own streams (/dev/stdout, /dev/fd/N...) are written where they point, at
    // their end, even when that is a regular file (`> out.bvh`, `>> log`): replacing the file
    // behind them would lose what the shell set up.
    if (path_ == "-") {  // stdout, as "-" means to most tools
        fd_ = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
        if (fd_ < 0) return fail(std::string("standard output: ") + std::strerror(errno));
        return true;
    }
    if (isProcessStream(path_)) {
        fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
        if (fd_ < 0) return fail(errno == ENXIO ? "a FIFO with no reader" : std::strerror(errno));
        const int flags = ::fcntl(fd_, F_GETFL);
        if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
        return true;
    }
    struct stat st{};
    mode_t mode = 0;
    if (::stat(path_.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return fail("it is a folder");
        if (!S_ISREG(st.st_mode)) {
            // Only the kernel's memory devices (/dev/null, /dev/full...) are written in place:
            // they take or refuse a write at once. A FIFO (its reader may never read), a
            // socket, a terminal or a disk is refused before anything is written.
            if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != 1) {
                return fail(std::string("not a regular file (") + fileKindName(st.st_mode) +
                            "); write to a file, or to /dev/stdout");
            }
            // O_NONBLOCK and a second look at what was opened: a FIFO put in its place
            // meanwhile is refused too, never waited on.
            fd_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd_ < 0) return fail(std::strerror(errno));
            struct stat opened{};
            if (::fstat(fd_, &opened) != 0 || opened.st_rdev != st.st_rdev) return fail("it changed while being opened");
            return true;
        }
        std::error_code ec;
        const fs::path real = fs::canonical(path_, ec);  // write beside a symlink's target, keep the link
        if (!ec) target_ = real.string();
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    fs::path dir = fs::path(target_).parent_path();
    if (dir.empty()) dir = ".";
    // The temporary name is the target's with a dot before and a suffix after, its base cut so
    // that the whole stays within NAME_MAX (a long but valid output name must still work).
    const std::string suffix = ".rigview-XXXXXX";
    std::string base = fs::path(target_).filename().string();
    const size_t room = kNameMax - 1 - suffix.size();
    if (base.size() > room) base.resize(room);
    std::string tmpl = (dir / ("." + base + suffix)).string();
    installHandlers();
    // Block the signals while the name is created and registered, so that a signal cannot
    // leave a temporary file the handler does not know about.
    sigset_t block, old;
    sigemptyset(&block);
    for (int sig : kSignals) sigaddset(&block, sig);
    ::pthread_sigmask(SIG_BLOCK, &block, &old);
    fd_ = ::mkostemp(tmpl.data(), O_CLOEXEC);
    const int err = errno;
    if (fd_ >= 0) {
        temp_ = tmpl;
        slot_ = registerTemp(temp_);
    }
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (fd_ < 0) return fail(std::strerror(err));
    if (::fchmod(fd_, mode) != 0) return fail(std::strerror(errno));
    return true;
}

bool OutputFile::write(const void* data, size_t size) {
    if (failed_) return false;
    if (fd_ < 0) return fail("not open");
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd_, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail(std::strerror(errno));
        }
        if (n == 0) return fail("nothing written");
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

bool OutputFile::commit() {
    if (failed_) return false;
    if (fd_ < 0) return fail("not open");
    if (!temp_.empty() && ::fsync(fd_) != 0 && errno != EINVAL) return fail(std::strerror(errno));
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 && errno != EINTR) return fail(std::strerror(errno));
    if (!temp_.empty()) {
        if (::rename(temp_.c_str(), target_.c_str()) != 0) return fail(std::strerror(errno));
        committed_ = true;
    }
    committed_ = true;
    unregisterTemp(slot_);
    slot_ = -1;
    temp_.clear();
    return true;
}

bool isProcessStream(const std::string& path) {
    return path == "-" || path.rfind("/dev/std", 0) == 0 || path.rfind("/dev/fd/", 0) == 0 || path.rfind("/proc/self/fd/", 0) == 0;
}

bool writeOutputFile(const std::string& path, std::string_view bytes, std::string& error) {
    OutputFile out(path);
    if (out.open() && out.write(bytes) && out.commit()) return true;
    error = out.error();
    return false;
}

}  // namespace rig
