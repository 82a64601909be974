#include "util/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rig {

namespace {

std::string sizeText(size_t bytes) {
    if (bytes >= (size_t(1) << 20) && bytes % (size_t(1) << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace

const char* fileKindName(unsigned mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "of an unknown kind";
}

namespace {

// The one open of a file the user named: only a regular file, never waited on. `headOnly`: at
// most maxBytes from its start, whatever its size; otherwise all of it, refused past maxBytes.
InputFileStatus readRegularFile(const std::string& path, size_t maxBytes, bool headOnly, std::string& out, std::string& error) {
    out.clear();
    error.clear();
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. Whatever it is
    // is looked at through the descriptor (no window between a stat and the open).
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        // No file can have that name (a part is a file, or it is longer than NAME_MAX: a side
        // file named after a long model name): missing, as the side file of a model that has none.
        if (errno == ENOENT || errno == ENOTDIR || errno == ENAMETOOLONG) return InputFileStatus::Missing;
        error = std::strerror(errno);
        return InputFileStatus::Refused;
    }
    struct stat st {};
    InputFileStatus status = InputFileStatus::Read;
    if (::fstat(fd, &st) != 0) {
        error = std::strerror(errno);
        status = InputFileStatus::Refused;
    } else if (!S_ISREG(st.st_mode)) {
        error = std::string("not a regular file (") + fileKindName(st.st_mode) + ")";
        status = InputFileStatus::Refused;
    } else if (headOnly) {
        const size_t want = static_cast<unsigned long long>(st.st_size) < maxBytes ? static_cast<size_t>(st.st_size) : maxBytes;
        out.resize(want);
        size_t got = 0;
        while (got < want) {
            const ssize_t n = ::read(fd, out.data() + got, want - got);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                error = std::strerror(errno);
                status = InputFileStatus::Refused;
                break;
            }
            if (n == 0) break;  // shorter than it was
            got += static_cast<size_t>(n);
        }
        out.resize(got);
    } else if (static_cast<unsigned long long>(st.st_size) > maxBytes) {
        error = "larger than " + sizeText(maxBytes);
        status = InputFileStatus::Refused;
    } else {
        out.resize(static_cast<size_t>(st.st_size));
        size_t got = 0;
        // Read to the end, and never past maxBytes if the file grows meanwhile. Once the size
        // the file had is read, a small read says whether there is more: the string grows (and
        // is copied) only for a file that did grow.
        char more[4096];
        for (;;) {
            const bool full = got == out.size();
            if (full && out.size() >= maxBytes + 1) break;
            const ssize_t n = full ? ::read(fd, more, std::min(sizeof more, maxBytes + 1 - out.size()))
                                   : ::read(fd, out.data() + got, out.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                error = std::strerror(errno);
                status = InputFileStatus::Refused;
                break;
            }
            if (n == 0) break;
            if (full) out.append(more, static_cast<size_t>(n));
            got += static_cast<size_t>(n);
        }
        out.resize(got);
        if (status == InputFileStatus::Read && got > maxBytes) {
            error = "larger than " + sizeText(maxBytes);
            status = InputFileStatus::Refused;
        }
    }
    ::close(fd);
    if (status != InputFileStatus::Read) out.clear();
    return status;
}

}  // namespace

InputFileStatus readInputFile(const std::string& path, size_t maxBytes, std::string& out, std::string& error) {
    return readRegularFile(path, maxBytes, false, out, error);
}

InputFileStatus readInputFileHead(const std::string& path, size_t maxBytes, std::string& out, std::string& error) {
    return readRegularFile(path, maxBytes, true, out, error);
}

}  // namespace rig
