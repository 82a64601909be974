// `rigview render --from T0 --to T1 --fps F -o out.mp4|out.gif|out_%04d.png`: a playblast. The
// frames come from renderFrames (app/render_frames.h: the same options and look as one-frame
// renders, one camera for the range) and go to a PlayblastWriter (app/playblast.h) as they are
// drawn, with a progress bar on stderr when it is a terminal.
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/command_util.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/playblast.h"
#include "app/render_frames.h"

namespace rig {

namespace {

using cmd::printError;

// "[#####     ] 12/40 frames", redrawn in place on a terminal; nothing otherwise.
class FrameProgress {
public:
    explicit FrameProgress(bool enabled) : enabled_(enabled) {}
    ~FrameProgress() { clear(); }
    void show(size_t done, size_t total, const char* what) {
        if (!enabled_) return;
        constexpr size_t kWidth = 30;
        const size_t filled = total ? kWidth * std::min(done, total) / total : kWidth;
        const std::string line = "\r\033[K[" + std::string(filled, '#') + std::string(kWidth - filled, ' ') + "] " +
                                 std::to_string(done) + "/" + std::to_string(total) + " " + what;
        (void)!::write(2, line.data(), line.size());
        shown_ = true;
    }
    void clear() {
        if (!shown_) return;
        const std::string clear = "\r\033[K";
        (void)!::write(2, clear.data(), clear.size());
        shown_ = false;
    }

private:
    bool enabled_;
    bool shown_ = false;
};

}  // namespace

int runRenderClip(const RenderOptions& o, BlastFormat format) {
    // What a playblast cannot take, before anything is read.
    if (o.timeGiven) {
        printError("--time draws one frame; a playblast (" + o.output + ") takes --from and --to");
        return exitcode::kUsage;
    }
    if (o.bindPose || o.filePose) {
        printError("--bind-pose and --file-pose hold still: a playblast (" + o.output + ") plays a clip");
        return exitcode::kUsage;
    }
    std::string error;
    if (!checkRangeRequest(o.range, format, error)) {
        printError(error);
        return exitcode::kUsage;
    }
    int width = 0, height = 0;
    if (!parseSize(o.size, width, height)) {
        printError("--size '" + o.size + "' must be WIDTHxHEIGHT, each 1..16384");
        return exitcode::kUsage;
    }
    if (format == BlastFormat::Mp4 && (width % 2 != 0 || height % 2 != 0)) {
        printError("--size " + o.size + ": an H.264 MP4 needs an even width and height (e.g. " +
                   std::to_string(width + width % 2) + "x" + std::to_string(height + height % 2) + ")");
        return exitcode::kUsage;
    }
    std::string ffmpeg;
    if (format == BlastFormat::Mp4 || format == BlastFormat::Gif) {
        ffmpeg = findFfmpeg();
        if (ffmpeg.empty()) {
            printError(noFfmpegMessage(o.output));
            return exitcode::kOutputFailed;
        }
    }

    std::unique_ptr<PlayblastWriter> writer;
    FrameProgress progress(::isatty(2) == 1);
    size_t total = 0;
    FrameSink sink;
    sink.begin = [&](const Model& model, const FrameRange& range) {
        // Every frame of a sequence is an output: none may be an input or one of its textures.
        if (format == BlastFormat::PngSequence) {
            for (size_t i = 0; i < range.count; ++i) {
                const std::string name = sequenceFileName(o.output, i);
                if (!cmd::outputIsNotAnInput(name, o.model, o.anims, o.machine) || !cmd::outputIsNotAResource(name, model)) {
                    return exitcode::kUsage;
                }
            }
        }
        auto opened = PlayblastWriter::open(o.output, format, width, height, range.fps, ffmpeg);
        if (!opened) {
            printError(opened.error().message);
            return exitcode::kOutputFailed;
        }
        writer = std::move(*opened);
        total = range.count;
        progress.show(0, total, "frames");
        return exitcode::kOk;
    };
    sink.frame = [&](size_t i, std::vector<uint8_t>& rgba) {
        std::string why;
        if (!writer->add(rgba, why)) {
            progress.clear();
            printError(why);
            return exitcode::kOutputFailed;
        }
        progress.show(i + 1, total, i + 1 == total && format != BlastFormat::PngSequence ? "frames, encoding" : "frames");
        return exitcode::kOk;
    };
    if (const int rc = renderFrames(o, &o.range, format, sink, width, height); rc != exitcode::kOk) return rc;
    const bool finished = writer->finish(error);
    progress.clear();
    if (!finished) {
        printError(error);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
