// `rigview render`: draw one frame headless (EGL, no X server) and write a PNG.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "anim/control/crowd.h"
#include "anim/runtime/pose.h"
#include "app/command_util.h"
#include "app/up_axis.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/machine_run.h"
#include "app/render_frames.h"
#include "platform/headless.h"
#include "render/crowd_renderer.h"
#include "render/environment.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render/texture_image.h"
#include "util/paths.h"
#include "platform/window.h"

namespace rig {

namespace {

using cmd::printError;

constexpr int64_t kMaxInstances = 100000;

// "A,B,C,..." as exactly `n` finite numbers.
bool parseNumbers(const std::string& s, size_t n, std::vector<double>& out) {
    out.clear();
    size_t pos = 0;
    while (pos <= s.size()) {
        const size_t comma = s.find(',', pos);
        const std::string part = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        char* end = nullptr;
        const double v = std::strtod(part.c_str(), &end);
        if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(v)) return false;
        out.push_back(v);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return out.size() == n;
}

// --camera: an OrbitCamera (Y up) at the eye looking at the target, near/far by three.js's rule
// from the bounding sphere (centre c, radius r) of `scene`: d = |eye - c|; near = max(0.9 (d - r),
// 0.001 r) when d > r, else 0.001 r; far = 1.1 (d + r).
bool referenceCamera(const std::vector<double>& v, const Bounds& scene, OrbitCamera& cam) {
    const glm::vec3 eye(v[0], v[1], v[2]), target(v[3], v[4], v[5]);
    const glm::vec3 off = eye - target;
    const float dist = glm::length(off);
    if (!(dist > 0.0f) || v[6] <= 0.0 || v[6] >= 180.0) return false;
    const glm::vec3 d = off / dist;
    if (std::abs(d.y) > 0.99999f) return false;  // straight up or down: no view with Y up
    cam.zUp = false;
    cam.target = target;
    cam.distance = dist;
    cam.elevationDeg = glm::degrees(std::asin(d.y));
    cam.azimuthDeg = glm::degrees(std::atan2(d.x, d.z));
    cam.fovYDeg = static_cast<float>(v[6]);
    const glm::vec3 c = scene.valid() ? scene.center() : glm::vec3(0.0f);
    const float r = scene.valid() ? 0.5f * scene.diagonal() : 1.0f;
    const float de = glm::length(eye - c);
    cam.nearPlane = de > r ? std::max(0.9f * (de - r), 0.001f * r) : 0.001f * r;
    cam.farPlane = 1.1f * (de + r);
    if (!(cam.nearPlane > 0.0f)) cam.nearPlane = 1e-4f;
    return true;
}

// The frame drawn into `target`, read back into `rgba` (top row first).
int readFrame(OffscreenTarget& target, const RenderOptions& o, std::vector<uint8_t>& rgba) {
    rgba = target.readPixels();
    if (glGetError() != GL_NO_ERROR) {
        printError(o.model + ": OpenGL reported an error while rendering");
        return exitcode::kRenderFailed;
    }
    return exitcode::kOk;
}

}  // namespace

bool parseSize(const std::string& s, int& w, int& h) {
    char x = 0;
    char rest = 0;
    return std::sscanf(s.c_str(), "%d%c%d%c", &w, &x, &h, &rest) == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0 &&
           w <= 16384 && h <= 16384;
}

int runRender(const RenderOptions& o) {
    BlastFormat format = BlastFormat::Png;
    if (!cmd::isStreamOutput(o.output)) {
        std::string error;
        if (!blastFormatOf(o.output, format, error)) {
            printError(error);
            return exitcode::kUsage;
        }
    }
    if (format != BlastFormat::Png) return runRenderClip(o, format);
    if (o.range.fromGiven || o.range.toGiven || o.range.fpsGiven) {
        printError(o.output + ": --from, --to and --fps make several frames: write them to a .mp4, a .gif or a PNG "
                   "sequence such as out_%04d.png");
        return exitcode::kUsage;
    }
    std::vector<uint8_t> rgba;
    int width = 0, height = 0;
    if (const int rc = renderPixels(o, rgba, width, height); rc != exitcode::kOk) return rc;
    std::string error;
    if (!writePng(o.output, width, height, rgba, &error)) {
        printError(error);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

int renderPixels(const RenderOptions& o, std::vector<uint8_t>& rgba, int& width, int& height) {
    FrameSink sink;
    sink.frame = [&](size_t, std::vector<uint8_t>& pixels) {
        rgba.swap(pixels);
        return exitcode::kOk;
    };
    return renderFrames(o, nullptr, BlastFormat::Png, sink, width, height);
}

int renderFrames(const RenderOptions& o, const RangeRequest* request, BlastFormat format, const FrameSink& sink,
                 int& width, int& height) {
    if (!parseSize(o.size, width, height)) {
        printError("--size '" + o.size + "' must be WIDTHxHEIGHT, each 1..16384");
        return exitcode::kUsage;
    }
    if (!std::isfinite(o.time) || !std::isfinite(o.azimuth) || !std::isfinite(o.elevation)) {
        printError("--time, --azimuth and --elevation must be finite numbers");
        return exitcode::kUsage;
    }
    if (o.instancesGiven && (o.instances < 1 || o.instances > kMaxInstances)) {
        printError("--instances must be between 1 and " + std::to_string(kMaxInstances));
        return exitcode::kUsage;
    }
    if (o.instancesGiven && o.view.skinning == SkinningMode::Cpu) {
        printError("--instances draws with GPU skinning only; --skinning cpu does not apply");
        return exitcode::kUsage;
    }
    if (o.instancesGiven && o.ik.any()) {
        printError("--ik-* options pose one model; they do not apply to --instances");
        return exitcode::kUsage;
    }
    if (!o.instancesGiven && o.spacing != 0.0f) {
        printError("--spacing needs --instances");
        return exitcode::kUsage;
    }
    if (!std::isfinite(o.spacing) || o.spacing < 0.0f || o.spacing > 1e6f) {
        printError("--spacing must be a finite number of metres, 0 (automatic) to 1e6");
        return exitcode::kUsage;
    }
    std::vector<double> cameraValues;
    if (!o.camera.empty() && !parseNumbers(o.camera, 7, cameraValues)) {
        printError("--camera '" + o.camera + "' must be EX,EY,EZ,TX,TY,TZ,FOV: seven finite numbers");
        return exitcode::kUsage;
    }
    if (!cameraValues.empty() && (cameraValues[6] <= 0.0 || cameraValues[6] >= 180.0)) {
        printError("--camera: the field of view must be between 0 and 180 degrees, not " + std::to_string(cameraValues[6]));
        return exitcode::kUsage;
    }
    std::vector<double> bg;
    if (!o.background.empty()) {
        if (!parseNumbers(o.background, 3, bg) || std::any_of(bg.begin(), bg.end(), [](double c) {
                return c < 0.0 || c > 255.0 || c != std::floor(c);
            })) {
            printError("--background '" + o.background + "' must be R,G,B: three whole numbers 0..255");
            return exitcode::kUsage;
        }
    }
    if (!std::isfinite(o.view.exposure) || o.view.exposure < 0.0f || o.view.exposure > 1e4f) {
        printError("--exposure must be a finite number from 0 to 10000");
        return exitcode::kUsage;
    }
    if (!std::isfinite(o.view.environmentRotation)) {
        printError("--env-rotation must be a finite number of degrees");
        return exitcode::kUsage;
    }
    if (!o.output.empty() && !cmd::outputIsNotAnInput(o.output, o.model, o.anims, o.machine)) return exitcode::kUsage;
    if (!o.output.empty() && !o.view.environment.empty() && !cmd::outputIsNotAnInput(o.output, o.view.environment, {})) {
        return exitcode::kUsage;
    }
    Model model;
    if (!cmd::load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    if (!o.output.empty() && !cmd::outputIsNotAResource(o.output, model)) return exitcode::kUsage;
    int32_t clip = o.filePose ? kFilePose : kBindPose;
    IkStage ik;
    if (!setupIk(model, o.ik, o.model, ik)) return exitcode::kUsage;
    std::unique_ptr<CompressedClipSet> compressed;
    if (!cmd::compressedClipsFor(model, o.compressed, compressed)) return exitcode::kUsage;
    Animator anim(model);
    anim.setCompressedClips(compressed.get());
    if (o.ik.any()) anim.setPostProcess(&ik);  // IK on whatever drives the pose
    if (!o.sets.empty() && o.machine.empty()) {
        printError("--set needs --machine");
        return exitcode::kUsage;
    }
    if (!o.machine.empty() && o.instancesGiven) {
        printError("--machine and --instances don't go together: a crowd plays the clip at spread phases");
        return exitcode::kUsage;
    }
    float t = 0.0f;
    // A playblast of a state machine: one run, advanced frame by frame (app/machine_run.h).
    std::unique_ptr<MachineRun> machineRun;
    if (!o.machine.empty()) {
        // The state machine drives the pose: run from 0 to --time (app/machine_run.h).
        if (!o.clip.empty() || o.filePose) {
            printError("--machine decides what plays: it excludes --clip, --bind-pose and --file-pose");
            return exitcode::kUsage;
        }
        if (request) {
            if (const int rc = MachineRun::start(model, o.machine, o.sets, machineRun); rc != exitcode::kOk) return rc;
        } else if (const int rc = poseWithMachine(model, o.machine, o.sets, o.time, anim, clip); rc != exitcode::kOk) {
            return rc;
        }
    } else {
        if (!o.bindPose && !o.filePose && !cmd::resolveClip(model, o.clip, clip)) return exitcode::kUsage;
        t = cmd::clipTime(model, clip, o.time);
        if (!o.instancesGiven) anim.evaluate(clip, t);
    }
    FrameRange range;
    range.from = range.to = t;
    if (machineRun) {
        // The machine's time from its start; it has no end of its own.
        std::string error;
        if (!request->toGiven) {
            printError(o.machine + ": a state machine plays until --to: give --to SECONDS (its time from the start)");
            return exitcode::kUsage;
        }
        if (!resolveRangeOn("the machine's run", kMaxMachineSeconds, kDefaultBlastFps, *request, format, range, error)) {
            printError(o.machine + ": " + error);
            return exitcode::kUsage;
        }
    } else if (request) {
        // A playblast plays a clip (runRenderClip refused the still poses).
        if (clip < 0) {
            printError(o.model + ": has no clip to play; render one frame of it to a .png");
            return exitcode::kUsage;
        }
        std::string error;
        if (!resolveRange(model.clips[clip], *request, format, range, error)) {
            printError(o.model + ": " + error);
            return exitcode::kUsage;
        }
    }
    if (sink.begin) {
        if (const int rc = sink.begin(model, range); rc != exitcode::kOk) return rc;
    }
    // The clip time of frame i (the one frame: --time's).
    const auto frameTime = [&](size_t i) { return request ? cmd::clipTime(model, clip, range.time(i)) : t; };
    // Pose `anim` at frame i of the range (frames in increasing order): the clip at its time, or
    // `run` advanced to the frame's time (each frame's ticks follow the one before's).
    const auto poseFrame = [&](MachineRun* run, size_t i) {
        if (run) {
            run->advanceTo(range.time(i));
            run->pose(anim);
        } else {
            anim.evaluate(clip, frameTime(i));
        }
    };

    auto ctx = HeadlessContext::create();
    if (!ctx) {
        printError(o.model + ": cannot render: " + ctx.error().message);
        return exitcode::kRenderFailed;
    }
    auto renderer = Renderer::create();
    if (!renderer) {
        printError(o.model + ": cannot render: " + renderer.error().message);
        return exitcode::kRenderFailed;
    }
    ViewOptions view = o.view;
    if (!bg.empty()) view.background = glm::vec4(bg[0] / 255.0, bg[1] / 255.0, bg[2] / 255.0, 1.0);
    const Environment* env = (*renderer)->prepareEnvironment(view);
    if (!(*renderer)->environmentError().empty()) {
        // An environment that does not load fails the render: the one --env names, or the
        // studio from rigview's data folder (an install without its data), which would
        // otherwise leave every render lit by a grey sky.
        if (!o.view.environment.empty()) {
            printError((*renderer)->environmentError());
        } else {
            printError(o.model + ": cannot light the model: " + (*renderer)->environmentError() +
                       " (--env FILE.hdr lights it with another environment)");
        }
        return exitcode::kBadInput;
    }
    auto gpu = GpuModel::create(model);
    if (!gpu) {
        printError(o.model + ": " + gpu.error().message);
        return exitcode::kRenderFailed;
    }
    // A texture that does not load, or is refused (render/texture_image.h): one warning line
    // each, and a magenta checker drawn in its place. One refused by the model-folder rule
    // was named by the import's warning already (one line per problem).
    for (const std::string& what : (*gpu)->missingTextures()) {
        if (what.ends_with(kTextureOutsideFolder)) continue;
        printError(o.model + ": warning: " + what + ": " + kUntexturedNote);
    }
    // --msaa decides when given. Otherwise 4 samples on a GPU, none on a software renderer
    // (Mesa's llvmpipe, as the viewer's Anti-aliasing "auto": there multisampling costs more than
    // drawing the model), and none for the reference renders (--camera), as three.js draws them.
    const char* glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const bool software = isSoftwareRenderer(glRenderer ? glRenderer : "");
    const int samples = o.samplesGiven ? o.samples : (!o.camera.empty() || software ? 0 : o.samples);
    auto target = OffscreenTarget::create(width, height, samples);
    if (!target) {
        printError(o.model + ": cannot render: " + target.error().message);
        return exitcode::kRenderFailed;
    }

    const bool zUp = o.up == "z" || (o.up == "auto" && chooseZUp(o.model, animatedBounds(model, -1, 1)));
    if (o.instancesGiven) {
        // A crowd on a grid: every instance plays the clip from its own phase (spread evenly
        // over the clip), drawn with one instanced draw per mesh.
        auto crowdRenderer = CrowdRenderer::create();
        if (!crowdRenderer) {
            printError(o.model + ": cannot render: " + crowdRenderer.error().message);
            return exitcode::kRenderFailed;
        }
        Crowd crowd(model, static_cast<size_t>(o.instances), clip, 1);
        crowd.setCompressedClips(compressed.get());
        if (!(*crowdRenderer)->fits(crowd)) {
            printError(o.model + ": cannot render: " + std::to_string(o.instances) +
                       " instances of this rig exceed the driver's texture buffer size");
            return exitcode::kRenderFailed;
        }
        const Bounds one = animatedBounds(model, clip);
        const glm::vec3 extent = one.valid() ? one.max - one.min : glm::vec3(1.0f);
        OrbitCamera cam;
        cam.zUp = zUp;
        cam.azimuthDeg = o.azimuth;
        cam.elevationDeg = std::clamp(o.elevation, -89.0f, 89.0f);
        const float footprint = std::max({extent.x, cam.zUp ? extent.y : extent.z, 1e-3f});
        const float spacing = o.spacing > 0.0f ? o.spacing : 1.25f * footprint;
        const std::vector<glm::vec3> offsets = crowdGrid(crowd.size(), spacing, cam.zUp);
        cam.frame(crowdBounds(one, offsets), static_cast<float>(width) / static_cast<float>(height));
        std::vector<uint8_t> rgba;
        for (size_t i = 0; i < range.count; ++i) {
            const float ti = frameTime(i);
            crowd.update(clip >= 0 ? ti - model.clips[clip].startTime : 0.0);  // instance 0 at the frame's time
            (*target)->bind();
            (*crowdRenderer)->draw(**gpu, crowd, offsets, one, cam, view, width, height, true, env);
            if (const int rc = readFrame(**target, o, rgba); rc != exitcode::kOk) return rc;
            if (const int rc = sink.frame(i, rgba); rc != exitcode::kOk) return rc;
        }
        return exitcode::kOk;
    }
    // One frame: framed tightly on the pose drawn: its posed vertices (the silhouette, not the
    // box) span 85% of the frame's height or width, centred. A range: framed so on the posed
    // vertices of its frames (rangePoints), one camera for all. The clip's bounds still size
    // the grid.
    // (A state machine plays several clips: its bounds are those of the range's poses, below.)
    Bounds bounds = machineRun ? Bounds{} : animatedBounds(model, clip);
    std::vector<glm::vec3> points;
    if (machineRun) {
        // Framed on a run of its own, the same from time 0.
        const std::unique_ptr<MachineRun> framing = machineRun->fresh();
        rangePoints(model, range, [&](size_t i) { poseFrame(framing.get(), i); }, anim, points);
    } else if (request) {
        rangePoints(model, clip, range, anim, points);
    } else {
        posedPoints(model, anim, points);
    }
    Bounds poseBounds;
    for (const glm::vec3& p : points) poseBounds.add(p);
    if (machineRun) bounds = poseBounds.valid() ? poseBounds : animatedBounds(model, kBindPose);
    OrbitCamera cam;
    cam.zUp = zUp;
    cam.azimuthDeg = o.azimuth;
    cam.elevationDeg = std::clamp(o.elevation, -89.0f, 89.0f);
    cam.fitPoints(points.data(), points.size(), poseBounds.valid() ? poseBounds : bounds,
                  static_cast<float>(width) / static_cast<float>(height), 0.85f);
    if (!poseBounds.valid()) cam.frame(bounds, static_cast<float>(width) / static_cast<float>(height));
    if (!cameraValues.empty() && !referenceCamera(cameraValues, poseBounds.valid() ? poseBounds : bounds, cam)) {
        printError("--camera: the eye must differ from the target and not look straight up or down");
        return exitcode::kUsage;
    }
    points = {};

    std::vector<uint8_t> rgba;
    for (size_t i = 0; i < range.count; ++i) {
        if (request) poseFrame(machineRun.get(), i);
        (*target)->bind();
        (*renderer)->draw(**gpu, anim, cam, view, width, height, &bounds);
        if (const int rc = readFrame(**target, o, rgba); rc != exitcode::kOk) return rc;
        if (const int rc = sink.frame(i, rgba); rc != exitcode::kOk) return rc;
    }
    return exitcode::kOk;
}

}  // namespace rig
