// Viewer: loading models. A load runs on its own thread (the import in its worker), its result
// applied on the window's frame; a newer Open replaces it, Esc or Cancel stops it with the model
// on screen kept; the file watch reloads a model that changed on disk; a failed environment map
// is never kept in the settings.
#include "app/viewer.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <imgui_internal.h>
#include <limits>
#include <sstream>

#include "anim/control/machine_file.h"
#include "anim/runtime/skinning.h"
#include "app/command_util.h"
#include "app/compare_view.h"
#include "app/model_sniff.h"
#include "app/up_axis.h"
#include "app/viewer_settings.h"
#include "check/diagnostics.h"
#include "check/vertex_views.h"
#include "import/import.h"
#include "platform/import_worker.h"
#include "render/offscreen.h"
#include "render/texture_image.h"
#include "ui/file_browser.h"
#include "ui/ik_panel.h"
#include "ui/legend.h"
#include "ui/playblast_dialog.h"
#include "ui/shortcuts.h"
#include "ui/state_machine_panel.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/text.h"
#include "util/version.h"

namespace rig {

namespace {

namespace fs = std::filesystem;

long long fileStamp(const std::string& path) {
    std::error_code ec;
    const auto t = fs::last_write_time(path, ec);
    if (ec) return 0;
    const auto size = fs::file_size(path, ec);
    return static_cast<long long>(t.time_since_epoch().count()) ^ static_cast<long long>(ec ? 0 : size);
}

}  // namespace

void Viewer::startLoad(const std::string& path) {
    if (pending_.valid() && path == state_.loadingPath && !dropLoad_) return;  // already on its way
    if (pending_.valid()) {
        // One import at a time, and the newest request wins: the running one is stopped (its
        // worker killed) and this one starts as soon as it has gone.
        const std::string replaced = state_.loadingPath;
        cancelLoad();
        queuedOpen_ = path;
        state_.ui.status = "Opening " + fs::path(path).filename().string() + " instead of " + fs::path(replaced).filename().string() +
                           " (its load was stopped)";
        state_.ui.statusUntil = glfwGetTime() + 5.0;
        return;
    }
    // A file that cannot be any format rigview reads is refused here, in milliseconds, before
    // a worker spends time on it.
    if (const std::string problem = sniffModelFile(path); !problem.empty()) {
        state_.error = path + ": " + problem;
        state_.errorNote = keptNote(path);
        reloading_ = false;
        if (addingAnim_ && !anims_.empty()) anims_.pop_back();
        addingAnim_ = false;
        return;
    }
    dropLoad_ = false;
    state_.loading = true;
    state_.loadingPath = path;
    state_.loadingSince = glfwGetTime();
    if (path != state_.path && path != config_.model) anims_.clear();  // another model: its own clips only
    if (path == config_.model && anims_.empty()) anims_ = config_.anims;
    const std::vector<std::string> anims = anims_;
    cancelLoad_ = false;
    loadStage_ = state_.loadingStage = static_cast<int>(ImportStage::Reading);
    loadFraction_ = state_.loadingFraction = -1.0f;
    pending_ = std::async(std::launch::async, [this, path, anims] {
        // In the import worker process: a file that crashes or hangs the importer is an error
        // shown in the viewer, which keeps its last good model. Its stages go to the loading notice.
        const ImportProgress progress = [this](ImportStage stage, float fraction) {
            loadStage_ = static_cast<int>(stage);
            loadFraction_ = fraction;
        };
        ImportOutcome outcome = importIsolated(path, anims, config_.import, &cancelLoad_, progress);
        Loaded l{std::move(outcome.model), Report{}, outcome.failure == ImportFailure::Cancelled};
        loadStage_ = static_cast<int>(ImportStage::Checking);
        loadFraction_ = -1.0f;
        if (l.model && !cancelLoad_) l.report = checkModel(l.model.value());
        Window::wake();  // a resting viewer draws it now
        return l;
    });
}

void Viewer::applyLoadResult() {
    if (!pending_.valid() || pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    Loaded loaded = pending_.get();
    Result<Model>& r = loaded.model;
    const std::string path = state_.loadingPath;
    state_.loading = false;
    const bool reload = reloading_;
    reloading_ = false;
    const bool adding = addingAnim_;
    addingAnim_ = false;
    if (loaded.cancelled || dropLoad_) {
        // Stopped (Cancel, Esc) or replaced by a newer Open: nothing of it is shown.
        dropLoad_ = false;
        if (adding && !anims_.empty()) anims_.pop_back();
        if (!queuedOpen_.empty()) {
            const std::string next = std::move(queuedOpen_);
            queuedOpen_.clear();
            startLoad(next);
        } else {
            state_.ui.status = "Loading " + fs::path(path).filename().string() + " cancelled" +
                               (state_.model ? "; still showing " + fs::path(state_.path).filename().string() : std::string());
            state_.ui.statusUntil = glfwGetTime() + 5.0;
        }
        return;
    }
    // The last good model stays on screen when a file fails; the strip says which it is.
    const std::string kept = keptNote(path);
    if (!r) {
        state_.error = r.error().message;
        state_.errorNote = kept;
        if (adding && !anims_.empty()) anims_.pop_back();  // and the file that did not fit goes
        return;
    }
    auto model = std::make_shared<const Model>(std::move(r.value()));
    auto gpu = GpuModel::create(*model);
    if (!gpu) {
        state_.error = path + ": " + gpu.error().message;
        state_.errorNote = kept;
        return;
    }
    startTiming_.mark(StartTiming::Model);
    const std::string previousClip = state_.model && state_.clip >= 0 ? state_.model->clips[state_.clip].name : "";
    // The selection is a joint *name*: kept across reloads and other models when that name
    // is there, cleared when it is not (never an unrelated joint with the same number).
    const std::string previousJoint =
        state_.model && state_.selectedJoint >= 0 && static_cast<size_t>(state_.selectedJoint) < state_.model->skeleton.size()
            ? state_.model->skeleton.names[state_.selectedJoint]
            : "";
    const double previousTime = state_.timeline.time;
    const LoopMode previousMode = state_.timeline.mode;
    const float previousRate = state_.timeline.rate;
    gpu_.reset();
    gpu_ = std::move(gpu.value());
    state_.model = model;
    state_.animator = std::make_unique<Animator>(*model);
    // Morphs opens for a model with morph targets; another model without them closes it.
    bool morphTargets = false;
    for (const Mesh& mesh : model->meshes) morphTargets = morphTargets || !mesh.morphTargets.empty();
    state_.panels.morphs = morphTargets || (reload && state_.panels.morphs);
    ghost_ = std::make_unique<Animator>(*model);
    state_.checks.report = std::move(loaded.report);
    state_.checks.colorsForModel = nullptr;  // recompute the colour view
    state_.checks.hoverMesh = state_.checks.hoverVertex = -1;
    state_.path = path;
    state_.error.clear();
    state_.errorNote.clear();
    state_.joints = model->jointNodes();
    state_.children.assign(model->skeleton.size(), {});
    for (size_t i = 0; i < model->skeleton.size(); ++i) {
        if (model->skeleton.parent[i] >= 0) state_.children[model->skeleton.parent[i]].push_back(static_cast<int32_t>(i));
    }
    state_.selectedJoint = previousJoint.empty() ? -1 : model->skeleton.find(previousJoint);
    state_.ui.scrollToSelection = state_.selectedJoint >= 0;
    // A reload keeps the clip (by name) and time; a new file starts at its first clip.
    int clip = model->clips.empty() ? -1 : 0;
    if (reload && !previousClip.empty() && model->findClip(previousClip) >= 0) clip = model->findClip(previousClip);
    state_.clip = clip;
    state_.keyTimes = KeyTimesCache{};
    state_.timeline.viewStart = state_.timeline.viewEnd = 0.0;
    state_.bounds = animatedBounds(*model, clip, 12);
    if (!reload) {
        // Its up axis: as chosen for this file (View > Up axis), else as its format defines it
        // (glTF, FBX, COLLADA), else guessed from its bind pose.
        std::error_code ec;
        const auto chosen = state_.ui.zUpByFile.find(fs::absolute(path, ec).string());
        std::string why;
        const bool ruled = chooseZUp(path, animatedBounds(*model, -1, 1), &why);
        const bool zUp = chosen != state_.ui.zUpByFile.end() ? chosen->second : ruled;
        state_.ui.upAxisSource = chosen != state_.ui.zUpByFile.end() ? "chosen for this file (" + why + ")" : why;
        if (zUp != state_.camera.zUp) keepCamera_ = false;  // a restored camera looked along the other axis
        state_.camera.zUp = zUp;
    }
    // The first model keeps a camera restored from the settings when it was saved for this
    // very file; any other model, and later ones, are framed.
    {
        std::error_code ec;
        const bool itsCamera = keepCamera_ && state_.ui.cameraFile == fs::absolute(path, ec).string();
        if (!reload && !itsCamera) state_.requests.frameModel = true;
    }
    keepCamera_ = false;
    watchedStamp_ = fileStamp(path);
    window_->setTitle("rigview - " + path);
    if (!reload) addRecent(path);
    state_.warning = model->stats.formatLimitation.empty() ? std::string() : path + ": " + model->stats.formatLimitation;
    // A texture that does not load: the renderer draws the magenta checker in its place; one
    // line per texture of any slot. The inspector shows each slot's state.
    state_.textureStatus = gpu_->textureStatus();
    state_.materialTextures = gpu_->materials();
    for (const std::string& what : gpu_->missingTextures()) {
        if (!state_.warning.empty()) state_.warning += '\n';
        state_.warning += path + ": " + what + ": " + kUntexturedNote;
    }
    // The pipeline's controller plays the clip on its base motion (a reload keeps the time);
    // --machine for the model it was given with, else <stem>.machine.json beside the model.
    const bool givenMachine = !config_.machine.empty() && path == config_.model;
    playback_.setModel(reload, previousTime, previousMode, previousRate,
                       givenMachine ? config_.machine : machinePathBeside(path), givenMachine);
    if (!model->stats.refusedPaths.empty()) {
        state_.error = path + ": not read, outside the model's folder: " + model->stats.refusedPaths.front() +
                       " (--allow-external-paths allows it)";
    }
}

std::string Viewer::keptNote(const std::string& failed) const {
    return !state_.model ? std::string()
           : state_.path != failed ? "Still showing the last good model: " + state_.path
                                   : "Still showing the version read before";
}

void Viewer::keepOnlyGoodEnvironment() {
    // An environment map that did not load is not kept: the view (and so the settings) goes
    // back to the last one that did, the studio when none has (a saved map gone since the last
    // run): one line in the strip says so. A map still loading has not failed (yet).
    if (renderer_->environmentLoading()) return;
    const std::string& error = renderer_->environmentError();
    if (error.empty()) {
        // A map chosen since the notice was posted loaded: the notice has had its day.
        if (!environmentErrorShown_.empty() && state_.view.environment != environmentNoticeFor_) state_.environmentError.clear();
        if (state_.view.environment != environmentNoticeFor_) environmentErrorShown_.clear();
        goodEnvironment_ = state_.view.environment;
        return;
    }
    if (state_.view.environment != goodEnvironment_) {
        state_.view.environment = goodEnvironment_;
        environmentNoticeFor_ = goodEnvironment_;
        environmentErrorShown_ = error;
        state_.environmentError = error + "; " +
                                  (goodEnvironment_.empty() ? std::string("lit by the studio instead")
                                                            : "still lit by " + fs::path(goodEnvironment_).filename().string());
    } else if (error != environmentErrorShown_) {  // the studio itself (no data folder)
        environmentErrorShown_ = error;
        environmentNoticeFor_ = state_.view.environment;
        state_.environmentError = error;
    }
}

void Viewer::cancelLoad() {
    if (!pending_.valid()) return;
    cancelLoad_ = true;  // the import thread kills the worker at its next look (within 50 ms)
    dropLoad_ = true;
    queuedOpen_.clear();
}

void Viewer::addRecent(const std::string& path) {
    std::error_code ec;
    const std::string abs = fs::absolute(path, ec).string();
    auto& r = state_.recent;
    r.erase(std::remove(r.begin(), r.end(), abs), r.end());
    r.insert(r.begin(), abs);
    if (r.size() > 10) r.resize(10);
    saveSettings();
}

void Viewer::watchFile(double now) {
    if (!config_.watchFile || state_.path.empty() || pending_.valid() || now - lastWatch_ < 0.5) return;
    lastWatch_ = now;
    const long long stamp = fileStamp(state_.path);
    if (stamp != 0 && stamp != watchedStamp_) {
        watchedStamp_ = stamp;
        reloading_ = true;
        startLoad(state_.path);
    }
}

void Viewer::waitForEnvironment() {
    renderer_->finishEnvironment();
    frame(1.0 / 60.0);
}

void Viewer::waitForLoad() {
    if (pending_.valid()) pending_.wait();
    applyLoadResult();
    compare_->waitForLoad(state_);
}

}  // namespace rig
