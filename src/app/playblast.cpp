#include "app/playblast.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/command_util.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "util/paths.h"

namespace rig {

namespace {

// Where the frame-number field of a sequence's file name starts and ends ([begin, end) in
// `path`), or false when the file name has no '%'. `ok` is false for a malformed field.
bool findField(const std::string& path, size_t& begin, size_t& end, int& width, bool& ok) {
    const size_t slash = path.find_last_of('/');
    const size_t nameStart = slash == std::string::npos ? 0 : slash + 1;
    ok = true;
    const size_t pct = path.find('%', nameStart);
    if (path.find('%') < nameStart) ok = false;  // a field in a folder's name
    if (pct == std::string::npos) return !ok;
    size_t i = pct + 1;
    width = 0;
    if (i < path.size() && path[i] == '0') {
        ++i;
        if (i >= path.size() || path[i] < '1' || path[i] > '9') ok = false;
        else width = path[i++] - '0';
    }
    if (i >= path.size() || path[i] != 'd') ok = false;
    begin = pct;
    end = i + 1;
    if (ok && path.find('%', end) != std::string::npos) ok = false;  // a second field
    return true;
}

}  // namespace

bool blastFormatOf(const std::string& path, BlastFormat& out, std::string& error) {
    const std::string ext = paths::lowerExtension(path);
    size_t b = 0, e = 0;
    int width = 0;
    bool ok = true;
    const bool field = findField(path, b, e, width, ok);
    if (ext == ".mp4" || ext == ".gif") {
        if (field) {
            error = path + ": a video's name takes no frame-number field ('%')";
            return false;
        }
        out = ext == ".mp4" ? BlastFormat::Mp4 : BlastFormat::Gif;
        return true;
    }
    if (ext == ".png") {
        if (field && !ok) {
            error = path + ": a PNG sequence's file name takes one frame-number field, %d or %0Nd (N 1..9), "
                           "e.g. out_%04d.png";
            return false;
        }
        out = field ? BlastFormat::PngSequence : BlastFormat::Png;
        return true;
    }
    error = path + ": output must end in .png (one frame, or a sequence such as out_%04d.png), .mp4 or .gif";
    return false;
}

std::string sequenceFileName(const std::string& pattern, size_t index) {
    size_t b = 0, e = 0;
    int width = 0;
    bool ok = true;
    if (!findField(pattern, b, e, width, ok) || !ok) return pattern;
    char num[32];
    std::snprintf(num, sizeof num, "%0*zu", width, index);
    return pattern.substr(0, b) + num + pattern.substr(e);
}

double defaultBlastFps(const Clip& clip, BlastFormat format) {
    double fps = std::isfinite(clip.sampleRate) && clip.sampleRate >= 1.0f && clip.sampleRate <= 120.0f
                     ? static_cast<double>(clip.sampleRate)
                     : kDefaultBlastFps;
    if (format == BlastFormat::Gif && fps > kMaxGifFps) fps /= std::ceil(fps / kMaxGifFps);
    return fps;
}

bool checkRangeRequest(const RangeRequest& r, BlastFormat format, std::string& error) {
    if ((r.fromGiven && !std::isfinite(r.from)) || (r.toGiven && !std::isfinite(r.to))) {
        error = "--from and --to must be finite numbers of seconds";
        return false;
    }
    const double maxFps = format == BlastFormat::Gif ? kMaxGifFps : kMaxBlastFps;
    if (r.fpsGiven && (!std::isfinite(r.fps) || r.fps < kMinBlastFps || r.fps > maxFps)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", r.fps);
        error = std::string("--fps ") + buf + " must be from 0.1 to " + std::to_string(static_cast<int>(maxFps)) +
                (format == BlastFormat::Gif ? " for a GIF (its frame delays are whole hundredths of a second)" : "");
        return false;
    }
    if (r.fromGiven && r.toGiven && !(r.to > r.from)) {
        error = "--to must be after --from";
        return false;
    }
    return true;
}

bool resolveRange(const Clip& clip, const RangeRequest& r, BlastFormat format, FrameRange& out, std::string& error) {
    return resolveRangeOn("the clip '" + clip.name + "'", static_cast<double>(clip.duration), defaultBlastFps(clip, format), r,
                          format, out, error);
}

bool resolveRangeOn(const std::string& what, double timelineEnd, double defaultFps, const RangeRequest& r,
                    BlastFormat format, FrameRange& out, std::string& error) {
    if (!checkRangeRequest(r, format, error)) return false;
    const double duration = std::max(0.0, timelineEnd);
    FrameRange range;
    range.from = r.fromGiven ? r.from : 0.0;
    range.to = r.toGiven ? r.to : duration;
    range.fps = r.fpsGiven ? r.fps : defaultFps;
    // Half a millisecond of slack: times typed as `info` prints them (1.042 s for 1.04167)
    // are the clip's ends.
    constexpr double kSlack = 5e-4;
    char buf[256];
    if (range.from < -kSlack || range.to > duration + kSlack || range.from > duration + kSlack) {
        std::snprintf(buf, sizeof buf, "the range %g..%g s leaves %s, which runs 0..%g s", range.from, range.to,
                      what.c_str(), duration);
        error = buf;
        return false;
    }
    if (!(range.to >= range.from)) {
        std::snprintf(buf, sizeof buf, "--from %g is after the clip's end or --to (%g s)", range.from, range.to);
        error = buf;
        return false;
    }
    range.from = std::clamp(range.from, 0.0, duration);
    range.to = std::clamp(range.to, range.from, duration);
    const double frames = std::ceil((range.to - range.from) * range.fps - 1e-6);
    if (frames > static_cast<double>(kMaxBlastFrames)) {
        std::snprintf(buf, sizeof buf, "%.0f frames are more than the %zu one playblast writes (a shorter range or a lower --fps)",
                      frames, kMaxBlastFrames);
        error = buf;
        return false;
    }
    range.count = std::max<size_t>(1, static_cast<size_t>(frames));
    out = range;
    return true;
}

void rangePoints(const Model& model, int32_t clip, const FrameRange& range, Animator& anim, std::vector<glm::vec3>& out) {
    rangePoints(
        model, range, [&](size_t i) { anim.evaluate(clip, cmd::clipTime(model, clip, range.time(i))); }, anim, out);
}

void rangePoints(const Model& model, const FrameRange& range, const std::function<void(size_t)>& poseFrame,
                 Animator& anim, std::vector<glm::vec3>& out) {
    const size_t poses = std::min<size_t>(std::max<size_t>(range.count, 1), 1000);
    const size_t perFrame = std::max<size_t>(250, 250000 / poses);
    for (size_t k = 0; k < poses; ++k) {
        const size_t i = poses == range.count ? k : k * (range.count - 1) / std::max<size_t>(poses - 1, 1);
        poseFrame(i);
        posedPoints(model, anim, out, perFrame);
    }
}

std::string noFfmpegMessage(const std::string& path) {
    return path + ": writing MP4 or GIF needs the ffmpeg program, not found on PATH (Debian: apt install ffmpeg); "
                  "a PNG sequence (e.g. out_%04d.png) needs none";
}

Result<std::unique_ptr<PlayblastWriter>> PlayblastWriter::open(const std::string& path, BlastFormat format, int width,
                                                               int height, double fps, const std::string& ffmpeg) {
    std::unique_ptr<PlayblastWriter> w(new PlayblastWriter());
    w->path_ = path;
    w->format_ = format;
    w->width_ = width;
    w->height_ = height;
    if (format == BlastFormat::PngSequence || format == BlastFormat::Png) return w;
    if (ffmpeg.empty()) return Error{noFfmpegMessage(path)};
    w->file_ = std::make_unique<OutputFile>(path);
    if (!w->file_->open()) return Error{w->file_->error()};
    if (w->file_->fd() < 0) return Error{path + ": cannot write the output file (a video is written to a file)"};
    VideoSettings s;
    s.format = format == BlastFormat::Gif ? VideoFormat::Gif : VideoFormat::Mp4;
    s.width = width;
    s.height = height;
    s.fps = fps;
    s.ffmpeg = ffmpeg;
    s.outputFd = w->file_->fd();
    // RIGVIEW_FFMPEG_TIMEOUT: seconds ffmpeg may take no frame before it is stopped (default 60).
    if (const char* env = std::getenv("RIGVIEW_FFMPEG_TIMEOUT")) {
        char* end = nullptr;
        const double v = std::strtod(env, &end);
        if (end != env && *end == '\0' && std::isfinite(v) && v > 0.0) s.stallSeconds = v;
    }
    auto encoder = VideoEncoder::start(s);
    if (!encoder) return Error{path + ": " + encoder.error().message};
    w->encoder_ = std::move(*encoder);
    return w;
}

PlayblastWriter::~PlayblastWriter() = default;

bool PlayblastWriter::add(const std::vector<uint8_t>& rgba, std::string& error) {
    if (rgba.size() != static_cast<size_t>(width_) * static_cast<size_t>(height_) * 4) {
        error = path_ + ": a frame of the wrong size";
        return false;
    }
    if (format_ == BlastFormat::PngSequence || format_ == BlastFormat::Png) {
        const std::string name = format_ == BlastFormat::Png ? path_ : sequenceFileName(path_, written_);
        if (!writePng(name, width_, height_, rgba, &error)) return false;
        ++written_;
        return true;
    }
    if (!encoder_->addFrame(rgba.data())) {
        std::string why;
        encoder_->finish(why);
        error = path_ + ": " + why;
        return false;
    }
    ++written_;
    return true;
}

bool PlayblastWriter::finish(std::string& error) {
    if (!encoder_) return true;
    std::string why;
    if (!encoder_->finish(why)) {
        error = path_ + ": " + why;
        return false;
    }
    if (!file_->commit()) {
        error = file_->error();
        return false;
    }
    return true;
}

}  // namespace rig
