// Every file rigview writes (pose .json/.obj, render and contact-sheet .png, export .bvh, the
// viewer's screenshot and settings) goes through OutputFile:
// - a regular file (or a path that does not exist yet) is written to a temporary file in the
//   same folder, flushed to disk, closed, and renamed over the target only when all of that
//   succeeded. A failed write, a failed command (the OutputFile is destroyed uncommitted) or
//   SIGINT / SIGTERM / SIGHUP during the write removes the temporary file: the target keeps
//   its previous content, never half a file;
// - the kernel's memory devices (/dev/null, /dev/full) are written directly, every write and
//   the close checked. Any other existing non-regular file (a FIFO, a socket, a terminal, a
//   disk) is refused before anything is written: "<path>: cannot write the output file (not a
//   regular file (a named pipe); ...)", never a wait on a reader that does not read. The
//   process's own streams (/dev/stdout, /dev/stderr, /dev/fd/N) are written where they point
//   (appending), also when the shell pointed them at a regular file or a pipe; "-" is stdout.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rig {

class OutputFile {
public:
    explicit OutputFile(std::string path);
    ~OutputFile();  // removes the temporary file unless commit() succeeded
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Each returns false on failure; error() is then "<path>: cannot write the output file (<why>)".
    bool open();
    bool write(const void* data, size_t size);
    bool write(std::string_view bytes) { return write(bytes.data(), bytes.size()); }
    bool commit();

    const std::string& error() const { return error_; }
    const std::string& path() const { return path_; }
    // The open file (after open()), for a child process that writes the output itself (the
    // ffmpeg of a playblast); commit() still flushes and renames it. -1 when not open.
    int fd() const { return fd_; }

private:
    bool fail(const std::string& why);
    void discard();

    std::string path_;    // as given (for messages)
    std::string target_;  // what is replaced (a symlink's target)
    std::string temp_;    // empty when writing directly
    int fd_ = -1;
    int slot_ = -1;       // signal-cleanup registration
    bool failed_ = false;
    bool committed_ = false;
    std::string error_;
};

// Whether `path` names one of the process's own streams ("-" for stdout, /dev/stdout,
// /dev/stderr, /dev/fd/N, /proc/self/fd/N), written in place wherever it points.
bool isProcessStream(const std::string& path);

// The whole of `bytes` to `path` through an OutputFile. On failure, `error` says why.
bool writeOutputFile(const std::string& path, std::string_view bytes, std::string& error);

}  // namespace rig
