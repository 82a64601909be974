#include "platform/video_encoder.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

extern char** environ;

namespace rig {

namespace {

// The last non-empty line ffmpeg wrote to its log, at most 300 bytes.
std::string lastLine(int fd) {
    std::string text;
    if (fd >= 0 && ::lseek(fd, 0, SEEK_SET) == 0) {
        char buf[4096];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0) {
            text.append(buf, static_cast<size_t>(n));
            if (text.size() > (1u << 16)) text.erase(0, text.size() - 4096);
        }
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    const size_t nl = text.find_last_of("\r\n");
    if (nl != std::string::npos) text.erase(0, nl + 1);
    if (text.size() > 300) text.resize(300);
    return text;
}

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

}  // namespace

std::string findFfmpeg() {
    const char* path = std::getenv("PATH");
    const std::string_view dirs = path ? path : "/usr/bin:/bin";
    size_t pos = 0;
    while (pos <= dirs.size()) {
        const size_t colon = dirs.find(':', pos);
        const std::string_view dir = dirs.substr(pos, colon == std::string_view::npos ? std::string_view::npos : colon - pos);
        std::string candidate(dir.empty() ? std::string_view(".") : dir);  // an empty entry: the current folder
        candidate.append("/ffmpeg");
        struct stat st{};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        if (colon == std::string_view::npos) break;
        pos = colon + 1;
    }
    return {};
}

Result<std::unique_ptr<VideoEncoder>> VideoEncoder::start(const VideoSettings& s) {
    if (s.width <= 0 || s.height <= 0 || !(s.fps > 0.0) || s.outputFd < 0 || s.ffmpeg.empty()) {
        return Error{"bad video settings"};
    }
    if (s.format == VideoFormat::Mp4 && (s.width % 2 != 0 || s.height % 2 != 0)) {
        return Error{"an H.264 video needs an even width and height"};
    }
    std::unique_ptr<VideoEncoder> e(new VideoEncoder());
    e->frameBytes_ = static_cast<size_t>(s.width) * static_cast<size_t>(s.height) * 4;
    e->log_ = ::memfd_create("ffmpeg-log", MFD_CLOEXEC);
    if (e->log_ < 0) return Error{std::string("cannot start ffmpeg (") + std::strerror(errno) + ")"};
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0) return Error{std::string("cannot start ffmpeg (") + std::strerror(errno) + ")"};
    // A frame crosses in one write where the system allows a pipe that large.
    ::fcntl(in[1], F_SETPIPE_SZ, 1 << 20);

    std::vector<std::string> args = {s.ffmpeg, "-hide_banner", "-nostats", "-loglevel", "error",
                                     "-f", "rawvideo", "-pix_fmt", "rgba",
                                     "-video_size", std::to_string(s.width) + "x" + std::to_string(s.height),
                                     "-framerate", number(s.fps), "-i", "pipe:0", "-an"};
    if (s.format == VideoFormat::Mp4) {
        // BT.709 conversion, tagged as such, so players show the colours rendered.
        args.insert(args.end(), {"-vf", "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p", "-c:v", "libx264",
                                 "-preset", "medium", "-crf", "18", "-color_primaries", "bt709", "-color_trc", "bt709",
                                 "-colorspace", "bt709", "-color_range", "tv", "-movflags", "+faststart", "-f", "mp4"});
    } else {
        // One palette from every frame (opaque frames: all 256 entries for colours), then each
        // frame mapped onto it with error diffusion.
        args.insert(args.end(), {"-filter_complex",
                                 "[0:v]split[a][b];[a]palettegen=reserve_transparent=0:stats_mode=full[p];"
                                 "[b][p]paletteuse=dither=sierra2_4a",
                                 "-loop", "0", "-f", "gif"});
    }
    // The output is the caller's open file, given as descriptor 3 (the file protocol opens it
    // by that name, and again to move the MP4 index to the front).
    args.insert(args.end(), {"-y", "file:/dev/fd/3"});
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, e->log_, 2);
    posix_spawn_file_actions_adddup2(&actions, s.outputFd, 3);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
#endif
    // Its own process group: a Ctrl+C at the terminal reaches rigview, which stops it.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    const int rc = ::posix_spawn(&e->pid_, s.ffmpeg.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    if (rc != 0) {
        ::close(in[1]);
        e->pid_ = -1;
        return Error{"cannot start " + s.ffmpeg + " (" + std::strerror(rc) + ")"};
    }
    // Non-blocking: a write waits for ffmpeg through poll(), with a time limit.
    ::fcntl(in[1], F_SETFL, ::fcntl(in[1], F_GETFL) | O_NONBLOCK);
    e->input_ = in[1];
    e->stallSeconds_ = std::isfinite(s.stallSeconds) && s.stallSeconds > 0.0 ? s.stallSeconds : 60.0;
    return e;
}

VideoEncoder::~VideoEncoder() { stop(); }

void VideoEncoder::stop() {
    if (input_ >= 0) ::close(input_);
    input_ = -1;
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    pid_ = -1;
    if (log_ >= 0) ::close(log_);
    log_ = -1;
}

bool VideoEncoder::addFrame(const uint8_t* rgba) {
    if (input_ < 0) return false;
    // A write to a pipe whose reader is gone fails with EPIPE here instead of killing rigview.
    struct sigaction ignore{}, old{};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &old);
    size_t left = frameBytes_;
    const uint8_t* p = rgba;
    bool ok = true;
    while (left > 0) {
        const ssize_t n = ::write(input_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                // The pipe is full: wait for ffmpeg to take bytes, at most stallSeconds.
                pollfd pfd{input_, POLLOUT, 0};
                const int ready = ::poll(&pfd, 1, static_cast<int>(std::min(stallSeconds_, 1e6) * 1000.0));
                if (ready > 0 || (ready < 0 && errno == EINTR)) continue;
                stalled_ = ready == 0;
            }
            ok = false;
            break;
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    if (ok) ++frames_;
    ::sigaction(SIGPIPE, &old, nullptr);
    if (!ok) {
        ::close(input_);
        input_ = -1;
    }
    return ok;
}

bool VideoEncoder::finish(std::string& error) {
    if (input_ >= 0) ::close(input_);
    input_ = -1;
    if (pid_ <= 0) {
        error = "ffmpeg is not running";
        return false;
    }
    // Wait for ffmpeg to finish the file, within stallSeconds and a quarter second a frame.
    int status = 0;
    pid_t got = 0;
    bool late = false;
    if (!stalled_) {
        using Clock = std::chrono::steady_clock;
        const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(stallSeconds_ + 0.25 * static_cast<double>(frames_)));
        while ((got = ::waitpid(pid_, &status, WNOHANG)) == 0 || (got < 0 && errno == EINTR)) {
            if (Clock::now() >= deadline) {
                late = true;
                break;
            }
            ::poll(nullptr, 0, 10);
        }
    }
    if (stalled_ || late) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
        char buf[160];
        if (stalled_) {
            std::snprintf(buf, sizeof buf, "ffmpeg took no frame for %g s; stopped", stallSeconds_);
        } else {
            std::snprintf(buf, sizeof buf, "ffmpeg did not finish the file within %g s of the last frame; stopped",
                          stallSeconds_ + 0.25 * static_cast<double>(frames_));
        }
        error = buf;
        return false;
    }
    pid_ = -1;
    if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    const std::string said = lastLine(log_);
    if (got > 0 && WIFSIGNALED(status)) {
        error = "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status));
    } else if (got > 0) {
        error = "ffmpeg failed (exit " + std::to_string(WEXITSTATUS(status)) + ")";
    } else {
        error = "ffmpeg could not be waited for";
    }
    if (!said.empty()) error += ": " + said;
    return false;
}

}  // namespace rig
