// VideoEncoder: frames of RGBA8 pixels turned into an H.264 MP4 or an animated GIF by Debian's
// `ffmpeg` program, run as a child process: the frames go to its standard input as raw video,
// it writes the file through a descriptor the caller opened (the caller's temporary output
// file, util/output_file.h), and what it says on stderr is kept for the error line.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "anim/runtime/result.h"

namespace rig {

enum class VideoFormat {
    Mp4,  // H.264 (libx264), yuv420p in BT.709 (tagged), even width and height, +faststart
    Gif,  // one palette for the whole clip (palettegen over every frame, then paletteuse), looping
};

struct VideoSettings {
    VideoFormat format = VideoFormat::Mp4;
    int width = 0, height = 0;  // MP4: both even
    double fps = 30.0;          // frames per second, > 0
    std::string ffmpeg;         // the program (findFfmpeg())
    int outputFd = -1;          // an open, empty, regular file the video is written into
    // An ffmpeg that takes no frame bytes for this long is stopped (killed, an error); after the
    // last frame it gets this long plus a quarter second per frame to finish the file.
    double stallSeconds = 60.0;
};

// The `ffmpeg` program on PATH, or empty when there is none.
std::string findFfmpeg();

class VideoEncoder {
public:
    // Start ffmpeg. The error says why it could not start.
    static Result<std::unique_ptr<VideoEncoder>> start(const VideoSettings& settings);
    // Stops ffmpeg (killed) unless finish() returned.
    ~VideoEncoder();
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    // One frame: width x height x 4 bytes, top row first. False when ffmpeg stopped taking
    // frames, or took none for stallSeconds (finish() then says why).
    bool addFrame(const uint8_t* rgba);
    // End the stream and wait for ffmpeg: true when it wrote the video; else `error` holds
    // ffmpeg's last line of complaint (or how it ended).
    bool finish(std::string& error);

private:
    VideoEncoder() = default;
    void stop();

    pid_t pid_ = -1;
    int input_ = -1;  // the write end of ffmpeg's stdin
    int log_ = -1;    // ffmpeg's stderr (a memory file)
    size_t frameBytes_ = 0;
    size_t frames_ = 0;
    double stallSeconds_ = 60.0;
    bool stalled_ = false;
};

}  // namespace rig
