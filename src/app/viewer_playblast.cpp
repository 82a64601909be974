#include "app/viewer_playblast.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "app/command_util.h"
#include "app/playblast.h"
#include "render/offscreen.h"

namespace rig {

namespace fs = std::filesystem;

struct ViewerPlayblast::Job {
    std::shared_ptr<const Model> model;  // the model rendered (a different one on screen stops the job)
    const GpuModel* gpu = nullptr;       // the viewer's upload of that model
    int32_t clip = 0;
    FrameRange range;
    std::string output;
    std::unique_ptr<Animator> animator;  // the playblast's own: the viewer's pose is left alone
    std::unique_ptr<OffscreenTarget> target;
    std::unique_ptr<PlayblastWriter> writer;
    OrbitCamera camera;
    ViewOptions view;
    Bounds bounds;
    int width = 0, height = 0;
    size_t next = 0;
};

namespace {

// A clip's name made fit for a file name.
std::string fileNamePart(const std::string& s) {
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return out.empty() ? std::string("clip") : out;
}

}  // namespace

ViewerPlayblast::ViewerPlayblast(std::string folder) : folder_(std::move(folder)) {}

ViewerPlayblast::~ViewerPlayblast() = default;

void ViewerPlayblast::finish(ViewerState& s, bool ok, const std::string& message) {
    job_.reset();  // an unfinished video's temporary file goes with its writer
    PlayblastState& p = s.playblast;
    p.running = false;
    p.result = message;
    p.failed = !ok;
    s.ui.status = "playblast: " + message;
    s.ui.statusUntil = glfwGetTime() + 6.0;
}

void ViewerPlayblast::start(ViewerState& s, GpuModel* gpu) {
    PlayblastState& p = s.playblast;
    const auto fail = [&](const std::string& why) { finish(s, false, why); };
    if (!s.model || !gpu || s.model->clips.empty()) return fail("no clip to play");
    if (p.clip < 0 || static_cast<size_t>(p.clip) >= s.model->clips.size()) return fail("no such clip");
    BlastFormat format{};
    std::string error;
    if (p.output.empty()) return fail("give an output file (.mp4, .gif or name_%04d.png)");
    if (!blastFormatOf(p.output, format, error)) return fail(error);
    if (format == BlastFormat::Png) {
        return fail(p.output + ": one PNG holds one frame; give a .mp4, a .gif or a sequence such as name_%04d.png");
    }
    RangeRequest request;
    request.from = p.from, request.to = p.to, request.fps = p.fps;
    request.fromGiven = request.toGiven = request.fpsGiven = true;
    auto job = std::make_unique<Job>();
    job->model = s.model;
    const Model& model = *job->model;
    job->clip = p.clip;
    if (!resolveRange(model.clips[static_cast<size_t>(p.clip)], request, format, job->range, error)) return fail(error);
    job->width = std::clamp(p.width, 16, 8192);
    job->height = std::clamp(p.height, 16, 8192);
    if (format == BlastFormat::Mp4 && (job->width % 2 != 0 || job->height % 2 != 0)) {
        return fail("an H.264 MP4 needs an even width and height");
    }
    {
        // Outputs never overwrite inputs: the model, or a texture it uses (every frame's name
        // for a sequence). The check's one line becomes the dialog's.
        cmd::ErrorCapture capture;
        const size_t names = format == BlastFormat::PngSequence ? job->range.count : 1;
        for (size_t i = 0; i < names; ++i) {
            const std::string name = format == BlastFormat::PngSequence ? sequenceFileName(p.output, i) : p.output;
            if (!cmd::outputIsNotAnInput(name, s.path, {}) || !cmd::outputIsNotAResource(name, model)) {
                return fail(capture.lines().empty() ? name + ": is one of the model's files" : capture.lines().back());
            }
        }
    }
    const std::string ffmpeg = format == BlastFormat::PngSequence ? std::string() : findFfmpeg();
    if (format != BlastFormat::PngSequence && ffmpeg.empty()) return fail(noFfmpegMessage(p.output));
    auto target = OffscreenTarget::create(job->width, job->height, std::max(1, s.stats.sceneSamples));
    if (!target) return fail("cannot render: " + target.error().message);
    job->target = std::move(*target);
    auto writer = PlayblastWriter::open(p.output, format, job->width, job->height, job->range.fps, ffmpeg);
    if (!writer) return fail(writer.error().message);
    job->writer = std::move(*writer);
    job->gpu = gpu;
    job->output = p.output;
    job->animator = std::make_unique<Animator>(model);
    // The view as it is now: its camera over the whole image, its look, the clip's bounds for
    // the grid and the ground shadow.
    job->camera = s.camera;
    job->camera.viewRect = glm::vec4(0.0f, 0.0f, 1.0f, 1.0f);
    if (p.frameRange) {
        // At the view's angles, framed on the posed model over the range as `render` frames it.
        std::vector<glm::vec3> points;
        rangePoints(model, job->clip, job->range, *job->animator, points);
        Bounds posed;
        for (const glm::vec3& q : points) posed.add(q);
        if (posed.valid()) {
            job->camera.fitPoints(points.data(), points.size(), posed,
                                  static_cast<float>(job->width) / static_cast<float>(job->height), 0.85f);
        }
    }
    job->view = s.view;
    job->view.highlightJoint = -1;  // the selection is the viewer's, not the playblast's
    job->bounds = animatedBounds(model, job->clip);
    p.running = true;
    p.done = 0;
    p.total = job->range.count;
    p.result.clear();
    p.failed = false;
    job_ = std::move(job);
}

void ViewerPlayblast::update(ViewerState& s, Renderer& renderer, GpuModel* gpu, double budgetMs) {
    PlayblastState& p = s.playblast;
    if (p.prefill && !job_ && s.model && !s.model->clips.empty()) {
        const size_t clip = s.clip >= 0 && static_cast<size_t>(s.clip) < s.model->clips.size() ? static_cast<size_t>(s.clip) : 0;
        const Clip& c = s.model->clips[clip];
        p.clip = static_cast<int>(clip);
        p.from = 0.0f;
        p.to = c.duration;
        p.fps = static_cast<float>(defaultBlastFps(c, BlastFormat::Mp4));
        const std::string stem = s.path.empty() ? std::string("rigview") : fs::path(s.path).stem().string();
        const fs::path folder = folder_.empty() ? fs::path(".") : fs::path(folder_);
        p.output = (folder / (stem + "-" + fileNamePart(c.name) + ".mp4")).string();
        p.result.clear();
    }
    p.prefill = false;
    if (p.cancel && job_) {
        const bool sequence = job_->output.find('%') != std::string::npos;
        finish(s, false, sequence ? "cancelled after " + std::to_string(job_->writer->framesWritten()) + " frames of " + job_->output
                                  : "cancelled; " + job_->output + " not written");
    }
    p.cancel = false;
    if (p.start && !job_) start(s, gpu);
    p.start = false;
    if (!job_) return;
    if (s.model != job_->model || gpu != job_->gpu) {
        finish(s, false, "stopped: the model on screen changed; " + job_->output + " not written");
        return;
    }
    Job& j = *job_;
    const auto begin = std::chrono::steady_clock::now();
    renderer.setColorSource(Renderer::ColorSource::Material);
    std::string error;
    while (j.next < j.range.count) {
        j.animator->evaluate(j.clip, cmd::clipTime(*j.model, j.clip, j.range.time(j.next)));
        j.target->bind();
        renderer.draw(*gpu, *j.animator, j.camera, j.view, j.width, j.height, &j.bounds);
        std::vector<uint8_t> rgba = j.target->readPixels();
        if (!j.writer->add(rgba, error)) break;
        ++j.next;
        p.done = j.next;
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        if (ms >= budgetMs) break;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!error.empty()) return finish(s, false, error);
    if (j.next < j.range.count) {
        // With the dialog closed, the status line counts the frames.
        if (!p.open) {
            s.ui.status = "playblast: " + std::to_string(j.next) + " / " + std::to_string(j.range.count) +
                          " frames (File > Playblast... to cancel)";
            s.ui.statusUntil = glfwGetTime() + 1.0;
        }
        return;
    }
    if (!j.writer->finish(error)) return finish(s, false, error);
    char done[64];
    std::snprintf(done, sizeof done, " (%zu frames at %g fps)", j.range.count, j.range.fps);
    finish(s, true, "wrote " + j.output + done);
}

}  // namespace rig
