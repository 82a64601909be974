#include "app/file_head.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rig {

InputFileStatus readFileHead(const std::string& path, size_t maxBytes, std::string& out, std::string& error) {
    out.clear();
    error.clear();
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; the kind is judged through
    // the descriptor itself.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
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
    } else {
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
    }
    ::close(fd);
    if (status != InputFileStatus::Read) out.clear();
    return status;
}

}  // namespace rig
