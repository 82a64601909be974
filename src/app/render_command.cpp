// `rigview render`: draw one frame headless (EGL, no X server) and write a PNG.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "anim/pose.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/machine_run.h"
#include "platform/headless.h"
#include "render/offscreen.h"
#include "render/renderer.h"

namespace rig {

namespace {

using cmd::printError;

bool parseSize(const std::string& s, int& w, int& h) {
    char x = 0;
    char rest = 0;
    return std::sscanf(s.c_str(), "%d%c%d%c", &w, &x, &h, &rest) == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0 &&
           w <= 16384 && h <= 16384;
}

}  // namespace

int runRender(const RenderOptions& o) {
    if (cmd::extensionOf(o.output) != ".png" && !cmd::isStreamOutput(o.output)) {
        printError(o.output + ": output must end in .png");
        return exitcode::kUsage;
    }
    int width = 0, height = 0;
    if (!parseSize(o.size, width, height)) {
        printError("--size '" + o.size + "' must be WIDTHxHEIGHT, each 1..16384");
        return exitcode::kUsage;
    }
    if (o.skinning != "gpu" && o.skinning != "cpu") {
        printError("--skinning must be gpu or cpu, not '" + o.skinning + "'");
        return exitcode::kUsage;
    }
    if (!std::isfinite(o.time) || !std::isfinite(o.azimuth) || !std::isfinite(o.elevation)) {
        printError("--time, --azimuth and --elevation must be finite numbers");
        return exitcode::kUsage;
    }
    if (!cmd::outputIsNotAnInput(o.output, o.model, o.anims)) return exitcode::kUsage;
    Model model;
    if (!cmd::load(o.model, o.anims, model)) return exitcode::kBadInput;
    int32_t clip = o.filePose ? kFilePose : kBindPose;
    Animator anim(model);
    if (!o.sets.empty() && o.machine.empty()) {
        printError("--set needs --machine");
        return exitcode::kUsage;
    }
    if (!o.machine.empty()) {
        // The state machine drives the pose: run from 0 to --time (app/machine_run.h).
        if (!o.clip.empty() || o.filePose) {
            printError("--machine decides what plays: it excludes --clip, --bind-pose and --file-pose");
            return exitcode::kUsage;
        }
        if (const int rc = poseWithMachine(model, o.machine, o.sets, o.time, anim, clip); rc != exitcode::kOk) return rc;
    } else {
        if (!o.bindPose && !o.filePose && !cmd::resolveClip(model, o.clip, clip)) return exitcode::kUsage;
        anim.evaluate(clip, cmd::clipTime(model, clip, o.time));
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
    auto target = OffscreenTarget::create(width, height, o.samples);
    if (!target) {
        printError(o.model + ": cannot render: " + target.error().message);
        return exitcode::kRenderFailed;
    }

    // Frame the bounds of the whole clip, so every frame of one clip shares one camera.
    const Bounds bounds = animatedBounds(model, clip);
    OrbitCamera cam;
    cam.azimuthDeg = o.azimuth;
    cam.elevationDeg = std::clamp(o.elevation, -89.0f, 89.0f);
    cam.frame(bounds, static_cast<float>(width) / static_cast<float>(height));

    ViewOptions view;
    view.skinning = o.skinning == "cpu" ? SkinningMode::Cpu : SkinningMode::Gpu;
    view.bones = o.bones;
    view.grid = o.grid;
    view.wireframe = o.wireframe;
    (*target)->bind();
    (*renderer)->draw(**gpu, anim, cam, view, width, height, &bounds);
    const std::vector<uint8_t> px = (*target)->readPixels();
    if (glGetError() != GL_NO_ERROR) {
        printError(o.model + ": OpenGL reported an error while rendering");
        return exitcode::kRenderFailed;
    }
    std::string error;
    if (!writePng(o.output, width, height, px, &error)) {
        printError(error);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
