// A playblast: a clip's frames over a time range rendered with one camera and written as an
// H.264 MP4, an animated GIF (both through the ffmpeg program, platform/video_encoder.h) or a
// numbered PNG sequence. `rigview render --from/--to/--fps -o out.mp4|out.gif|out_%04d.png`
// (app/render_clip.cpp) and the viewer's File > Playblast... (app/viewer_playblast.cpp) share
// the range arithmetic and the writer below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/result.h"
#include "platform/video_encoder.h"
#include "util/output_file.h"

namespace rig {

enum class BlastFormat {
    Png,          // one frame (not a playblast)
    Mp4,          // .mp4
    Gif,          // .gif
    PngSequence,  // a .png whose file name holds one %d or %0Nd (N 1..9): one file per frame
};

// The kind of output `path` names: by its extension, a PNG with a frame-number field in its
// file name being a sequence. False, with `error` (one line naming the path), for another
// extension or a malformed field ("%s", two fields, a field in a folder's name).
bool blastFormatOf(const std::string& path, BlastFormat& out, std::string& error);
// The file of frame `index` of a PNG sequence (the field replaced by the number).
std::string sequenceFileName(const std::string& pattern, size_t index);

// The frames of a playblast: frame i shows the clip at from + i / fps, for i in [0, count);
// count = ceil((to - from) * fps), so the video lasts (about) to - from and a looping clip
// loops without a doubled frame. A range of length 0 is one frame.
struct FrameRange {
    double from = 0.0, to = 0.0, fps = 30.0;
    size_t count = 1;
    double time(size_t i) const { return from + static_cast<double>(i) / fps; }
};

// What was asked for: each field used only when given.
struct RangeRequest {
    double from = 0.0, to = 0.0, fps = 0.0;
    bool fromGiven = false, toGiven = false, fpsGiven = false;
};

// Most frames one playblast writes.
constexpr size_t kMaxBlastFrames = 100000;
// GIF frame delays are whole hundredths of a second and browsers slow anything under 2 to 10:
// a GIF plays at most 50 frames per second.
constexpr double kMaxGifFps = 50.0;
constexpr double kMinBlastFps = 0.1, kMaxBlastFps = 240.0;
// The rate of a playblast whose motion names none (a state machine, a clip without a plausible
// frame rate).
constexpr double kDefaultBlastFps = 30.0;

// The fps to use when none is asked for: the clip's own frame rate when it is a plausible video
// rate (1..120), else 30; for a GIF divided down to at most kMaxGifFps (60 -> 30).
double defaultBlastFps(const Clip& clip, BlastFormat format);
// Checks that need no model: finite numbers, fps in [kMinBlastFps, kMaxBlastFps] (kMaxGifFps for a GIF),
// --to after --from. False with `error`.
bool checkRangeRequest(const RangeRequest& r, BlastFormat format, std::string& error);
// The frames of `r` on `clip` (defaults: the whole clip, defaultBlastFps). False with `error`
// when the range leaves the clip's timeline [0, duration] (by more than half a millisecond:
// closer is the end) or holds too many frames.
bool resolveRange(const Clip& clip, const RangeRequest& r, BlastFormat format, FrameRange& out, std::string& error);
// The same on any timeline [0, duration] with its default fps; `what` names it in errors ("the
// clip 'walk'").
bool resolveRangeOn(const std::string& what, double duration, double defaultFps, const RangeRequest& r,
                    BlastFormat format, FrameRange& out, std::string& error);

// The points a playblast's camera is framed on: the posed vertices (or joints) of `model` at
// the frames of `range` on `clip`, posed by `anim` (every frame up to 1,000, else 1,000 spread
// evenly; about 250,000 points in all), appended to `out`.
void rangePoints(const Model& model, int32_t clip, const FrameRange& range, Animator& anim, std::vector<glm::vec3>& out);
// The same with the frames posed by `poseFrame(i)` (which poses `anim` at frame i; asked in
// increasing order): a state machine's run.
void rangePoints(const Model& model, const FrameRange& range, const std::function<void(size_t)>& poseFrame,
                 Animator& anim, std::vector<glm::vec3>& out);

// Writes a playblast's frames as they come. A video goes to a temporary file beside the output
// (util/output_file.h), renamed over it when ffmpeg has finished: a failed or cancelled video
// leaves the previous file as it was. A PNG sequence writes each frame whole as it comes.
class PlayblastWriter {
public:
    // `ffmpeg` is the program for a video (findFfmpeg()). The error is one line naming the path.
    static Result<std::unique_ptr<PlayblastWriter>> open(const std::string& path, BlastFormat format, int width,
                                                         int height, double fps, const std::string& ffmpeg);
    ~PlayblastWriter();
    PlayblastWriter(const PlayblastWriter&) = delete;
    PlayblastWriter& operator=(const PlayblastWriter&) = delete;

    // The next frame, width x height RGBA8, top row first. False with `error` (one line).
    bool add(const std::vector<uint8_t>& rgba, std::string& error);
    // Finish the file (for a video: wait for ffmpeg, then rename). False with `error`.
    bool finish(std::string& error);
    size_t framesWritten() const { return written_; }

private:
    PlayblastWriter() = default;
    std::string path_;
    BlastFormat format_ = BlastFormat::Mp4;
    int width_ = 0, height_ = 0;
    size_t written_ = 0;
    std::unique_ptr<OutputFile> file_;      // a video's temporary file
    std::unique_ptr<VideoEncoder> encoder_; // ffmpeg writing into it
};

// The line printed when a video is asked for and there is no ffmpeg.
std::string noFfmpegMessage(const std::string& path);

}  // namespace rig
