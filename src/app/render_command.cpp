// `rigview render`: draw one frame headless (EGL, no X server) and write a PNG.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "anim/clock.h"
#include "anim/pose.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "import/import.h"
#include "platform/headless.h"
#include "render/offscreen.h"
#include "render/renderer.h"

namespace rig {

namespace {

void printError(const std::string& line) { std::cerr << "rigview: " << line << "\n"; }

bool parseSize(const std::string& s, int& w, int& h) {
    char x = 0;
    char rest = 0;
    return std::sscanf(s.c_str(), "%d%c%d%c", &w, &x, &h, &rest) == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0 &&
           w <= 16384 && h <= 16384;
}

}  // namespace

int runRender(const RenderOptions& o) {
    std::string ext = std::filesystem::path(o.output).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".png") {
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
    Result<Model> loaded = importModel(o.model);
    if (!loaded) {
        printError(loaded.error().message);
        return exitcode::kBadInput;
    }
    const Model& model = loaded.value();
    int32_t clip = -1;
    if (!o.bindPose && !o.clip.empty()) {
        clip = model.findClip(o.clip);
        if (clip < 0) {
            printError(model.path + ": no clip '" + o.clip + "'");
            return exitcode::kUsage;
        }
    } else if (!o.bindPose && !model.clips.empty()) {
        clip = 0;
    }
    float t = 0.0f;
    if (clip >= 0) {
        PlaybackClock clock;
        clock.setDuration(model.clips[clip].duration, model.clips[clip].sampleRate);
        clock.seek(o.time);
        t = clock.time();
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

    Animator anim(model);
    anim.evaluate(clip, t);
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
    if (!writePng(o.output, width, height, px)) {
        printError(o.output + ": cannot write the output file");
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
