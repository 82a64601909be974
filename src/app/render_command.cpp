// `rigview render`: draw one frame headless (EGL, no X server) and write a PNG.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "anim/control/crowd.h"
#include "anim/runtime/pose.h"
#include "app/command_util.h"
#include "app/up_axis.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/machine_run.h"
#include "platform/headless.h"
#include "render/crowd_renderer.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render/texture_image.h"

namespace rig {

namespace {

using cmd::printError;

bool parseSize(const std::string& s, int& w, int& h) {
    char x = 0;
    char rest = 0;
    return std::sscanf(s.c_str(), "%d%c%d%c", &w, &x, &h, &rest) == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0 &&
           w <= 16384 && h <= 16384;
}

constexpr int64_t kMaxInstances = 100000;

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

int runRender(const RenderOptions& o) {
    if (cmd::extensionOf(o.output) != ".png" && !cmd::isStreamOutput(o.output)) {
        printError(o.output + ": output must end in .png");
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
    if (!o.output.empty() && !cmd::outputIsNotAnInput(o.output, o.model, o.anims, o.machine)) return exitcode::kUsage;
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
    if (!o.machine.empty()) {
        // The state machine drives the pose: run from 0 to --time (app/machine_run.h).
        if (!o.clip.empty() || o.filePose) {
            printError("--machine decides what plays: it excludes --clip, --bind-pose and --file-pose");
            return exitcode::kUsage;
        }
        if (const int rc = poseWithMachine(model, o.machine, o.sets, o.time, anim, clip); rc != exitcode::kOk) return rc;
    } else {
        if (!o.bindPose && !o.filePose && !cmd::resolveClip(model, o.clip, clip)) return exitcode::kUsage;
        t = cmd::clipTime(model, clip, o.time);
        if (!o.instancesGiven) anim.evaluate(clip, t);
    }

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
    auto gpu = GpuModel::create(model);
    if (!gpu) {
        printError(o.model + ": " + gpu.error().message);
        return exitcode::kRenderFailed;
    }
    // A texture that does not load, or is refused (render/texture_image.h): one warning line
    // each, and its material drawn in its base colour. One refused by the model-folder rule
    // was named by the import's warning already (one line per problem).
    for (const std::string& what : (*gpu)->missingTextures()) {
        if (what.ends_with(kTextureOutsideFolder)) continue;
        printError(o.model + ": warning: " + what + ": " + kUntexturedNote);
    }
    auto target = OffscreenTarget::create(width, height, o.samples);
    if (!target) {
        printError(o.model + ": cannot render: " + target.error().message);
        return exitcode::kRenderFailed;
    }

    const bool zUp = o.up == "z" || (o.up == "auto" && guessZUp(animatedBounds(model, -1, 1)));
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
        crowd.update(clip >= 0 ? t - model.clips[clip].startTime : 0.0);  // instance 0 at --time
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
        (*target)->bind();
        (*crowdRenderer)->draw(**gpu, crowd, offsets, one, cam, o.view, width, height);
        return readFrame(**target, o, rgba);
    }
    // Framed tightly on the pose drawn: its posed vertices (the silhouette, not the box) span
    // 85% of the frame's height or width, centred. The clip's bounds still size the grid.
    const Bounds bounds = animatedBounds(model, clip);
    std::vector<glm::vec3> points;
    posedPoints(model, anim, points);
    Bounds poseBounds;
    for (const glm::vec3& p : points) poseBounds.add(p);
    OrbitCamera cam;
    cam.zUp = zUp;
    cam.azimuthDeg = o.azimuth;
    cam.elevationDeg = std::clamp(o.elevation, -89.0f, 89.0f);
    cam.fitPoints(points.data(), points.size(), poseBounds.valid() ? poseBounds : bounds,
                  static_cast<float>(width) / static_cast<float>(height), 0.85f);
    if (!poseBounds.valid()) cam.frame(bounds, static_cast<float>(width) / static_cast<float>(height));

    (*target)->bind();
    (*renderer)->draw(**gpu, anim, cam, o.view, width, height, &bounds);
    return readFrame(**target, o, rgba);
}

}  // namespace rig
