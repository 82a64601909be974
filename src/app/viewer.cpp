#include "app/viewer.h"

#include <GLFW/glfw3.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>

#include "app/command_util.h"
#include "app/compare_view.h"
#include "check/diagnostics.h"
#include "check/vertex_views.h"
#include "anim/control/machine_file.h"
#include "import/import.h"
#include "ui/ik_panel.h"
#include "platform/import_worker.h"
#include "anim/runtime/skinning.h"
#include "ui/state_machine_panel.h"
#include "render/environment.h"
#include "render/offscreen.h"
#include "ui/playblast_dialog.h"
#include "render/texture_image.h"
#include "ui/file_browser.h"
#include "ui/legend.h"
#include "ui/shortcuts.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/text.h"
#include "util/version.h"
#include "app/model_sniff.h"
#include "app/up_axis.h"
#include "app/viewer_settings.h"

namespace rig {

namespace {

namespace fs = std::filesystem;

// The most of a frame an environment map's prefilter takes (render/environment.h's
// EnvironmentLoad): the window keeps answering, the model drawn meanwhile.
constexpr double kEnvironmentSliceMs = 25.0;

// The strip's line for an environment map being loaded ("" when none is).
std::string environmentProgress(const EnvironmentLoad* load) {
    if (!load) return {};
    const std::string name = fs::path(load->path()).filename().string();
    if (!load->prefiltering()) return "Reading environment " + name;
    return "Prefiltering environment " + name + "  " + std::to_string(static_cast<int>(load->fraction() * 100.0f)) + "%";
}

}  // namespace

Result<std::unique_ptr<Viewer>> Viewer::create(const ViewerConfig& config) {
    std::unique_ptr<Viewer> v(new Viewer());
    v->config_ = config;
    auto w = Window::create("rigview", config.width, config.height, 0);
    if (!w) return w.error();
    v->window_ = std::move(w.value());
    v->startTiming_.mark(StartTiming::Window);
    auto r = Renderer::create();
    if (!r) return r.error();
    v->renderer_ = std::move(r.value());
    v->startTiming_.mark(StartTiming::Renderer);
    v->renderer_->setEnvironmentBudget(kEnvironmentSliceMs);
    // Our key / mouse callbacks first: ImGui's backend keeps them as the previous callbacks
    // and calls them before its own, so both see every event in order.
    v->input_.install(v->window_->handle());
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // layout from code, not from a file in the cwd
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(v->window_->handle(), true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    v->imguiReady_ = true;
    v->state_.stats.glRenderer = v->window_->glDescription();
    v->state_.stats.softwareRenderer = v->window_->softwareRenderer();
    {
        // HiDPI: the monitor's content scale multiplies the person's UI scale.
        float xs = 1.0f, ys = 1.0f;
        glfwGetWindowContentScale(v->window_->handle(), &xs, &ys);
        v->state_.ui.contentScale = std::clamp(std::max(xs, ys), 0.5f, 4.0f);
        int major = 0, minor = 0, rev = 0;
        glfwGetVersion(&major, &minor, &rev);
        v->about_.version = rigviewVersion();
        v->about_.assimp = assimpVersion();
        v->about_.imgui = ImGui::GetVersion();
        v->about_.glfw = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(rev);
        v->about_.gl = v->state_.stats.glRenderer;
    }
    if (config.remember) v->loadSettings();
    if (config.remember && config.restoreWindow) v->restoreWindowPlacement();
    if (config.resetLayout) resetLayout(v->state_);
    // The environment map is decoded (and read from the cache) while the model imports: the
    // first frame with the model is lit by it.
    v->renderer_->prepareEnvironment(v->state_.view);
    v->lastTime_ = glfwGetTime();
    v->framePeriod_ = 1.0 / std::clamp(v->window_->refreshRate(), 24.0, 480.0);
    v->fpsWindowStart_ = v->lastTime_;
    if (!config.model.empty()) v->startLoad(config.model);
    v->compare_ = std::make_unique<CompareView>(config.import);
    // A playblast's file goes where F12's screenshots go by default.
    const fs::path pictures = config.screenshotDir.empty() ? picturesFolder() : fs::path(config.screenshotDir);
    v->playblast_ = std::make_unique<ViewerPlayblast>(pictures.empty() ? std::string(".") : pictures.string());
    if (!config.compare.empty()) v->compare_->queue(config.compare);  // once the model is on screen
    return v;
}

Viewer::~Viewer() {
    if (imguiReady_) saveSettings();
    // An import still running is stopped (its worker process killed), so closing never waits
    // on a hung file. (With --no-isolation an in-process import cannot be stopped: it is waited for.)
    cancelLoad_ = true;
    if (pending_.valid()) pending_.wait();
    compare_.reset();
    crowdView_.reset();
    playblast_.reset();  // its off-screen target and, unfinished, its video (not written)
    sceneTarget_.reset();
    gpu_.reset();
    if (imguiReady_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    input_.uninstall();
    renderer_.reset();
}

void Viewer::framePose(int w, int h) {
    // The pose on screen (the skinned vertices at the current time: its silhouette) spans
    // kFrameFill of the viewport between the panels, centred, as `rigview render` frames its
    // pose; a model without vertices (a skeleton) is framed by its box over the clip.
    frameNext_ = false;
    const glm::vec4 r = state_.camera.viewRect;
    const float aspect = static_cast<float>(std::max(w, 1)) / static_cast<float>(std::max(h, 1)) *
                         (r.z > 0.0f && r.w > 0.0f ? r.z / r.w : 1.0f);
    posedPoints(*state_.model, *state_.animator, framePoints_, 20000);
    Bounds pose;
    for (const glm::vec3& p : framePoints_) pose.add(p);
    if (pose.valid() && glm::length(pose.max - pose.min) > 0.0f) {
        state_.camera.fitPoints(framePoints_.data(), framePoints_.size(), pose, aspect, kFrameFill);
    } else if (state_.bounds.valid()) {
        state_.camera.fit(state_.bounds, aspect, kFrameFill);
    }
}

void Viewer::loadSettings() {
    // Settings are a small file; anything else there (a FIFO, a link to a device, a huge file)
    // is refused at once and the defaults are used.
    constexpr size_t kMaxSettingsBytes = size_t(1) << 20;
    const fs::path file = settingsFile();
    std::string text, why;
    const InputFileStatus status = readInputFile(file.string(), kMaxSettingsBytes, text, why);
    if (status != InputFileStatus::Missing) {
        bool hasCamera = false;
        if (status == InputFileStatus::Read && applySettingsJson(text, state_, hasCamera, why)) {
            keepCamera_ = hasCamera;
            savedSettings_ = std::move(text);
        } else {
            std::fprintf(stderr, "rigview: %s: ignored, defaults used (%s)\n", text::forTerminal(file.string()).c_str(),
                         why.c_str());
            state_.settingsProblem = "Settings " + file.string() + ": ignored, defaults used (" + why + ")";
        }
        return;
    }
    // Before settings.json the recent files were a list of lines in recent.txt.
    if (readInputFile((settingsFolder() / "recent.txt").string(), kMaxSettingsBytes, text, why) != InputFileStatus::Read) return;
    std::istringstream old(text);
    std::string line;
    while (std::getline(old, line) && state_.recent.size() < 10) {
        if (!line.empty()) state_.recent.push_back(line);
    }
}

void Viewer::restoreWindowPlacement() {
    const ViewerUiState::WindowPlacement p = state_.ui.window;
    if (p.width <= 0 || p.height <= 0) return;
    int w = p.width, h = p.height, x = p.x, y = p.y;
    // Inside the work area of the monitor it was on (the primary one if none holds its place).
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* on = glfwGetPrimaryMonitor();
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0, mw = 0, mh = 0;
        glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
        if (x >= mx && x < mx + mw && y >= my && y < my + mh) on = monitors[i];
    }
    if (on) {
        int mx = 0, my = 0, mw = 0, mh = 0;
        glfwGetMonitorWorkarea(on, &mx, &my, &mw, &mh);
        if (mw > 0 && mh > 0) {
            w = std::clamp(w, std::min(320, mw), mw);
            h = std::clamp(h, std::min(200, mh), mh);
            x = std::clamp(x, mx, mx + mw - w);
            y = std::clamp(y, my, my + mh - h);
        }
    }
    glfwSetWindowSize(window_->handle(), w, h);
    glfwSetWindowPos(window_->handle(), x, y);
}

void Viewer::saveSettings() {
    if (!config_.remember) return;
    ViewerUiState::WindowPlacement& p = state_.ui.window;
    glfwGetWindowPos(window_->handle(), &p.x, &p.y);
    glfwGetWindowSize(window_->handle(), &p.width, &p.height);
    std::string text = settingsToJson(state_);
    if (text == savedSettings_) return;
    std::error_code ec;
    const fs::path file = settingsFile();
    fs::create_directories(file.parent_path(), ec);
    std::string error;
    // Best effort: the settings are a convenience; a failed write is tried again when they change.
    if (writeOutputFile(file.string(), text, error)) savedSettings_ = std::move(text);
}

void Viewer::applyRequests() {
    ViewerRequests& q = state_.requests;
    const Model* m = state_.model.get();
    if (q.cancelLoad) cancelLoad();
    if (!q.open.empty()) {
        startLoad(q.open);
        q.open.clear();
    }
    if (q.nextFile != 0 && !pending_.valid()) {
        const std::string next = neighbourFile(state_.path, q.nextFile, isModelFile);
        if (next.empty()) {
            state_.ui.status = state_.path.empty() ? "no model open" : "no other model file in this folder";
        } else {
            state_.ui.status = (q.nextFile > 0 ? "next: " : "previous: ") + fs::path(next).filename().string();
            startLoad(next);
        }
        state_.ui.statusUntil = glfwGetTime() + 3.0;
    }
    if (q.screenshot) screenshotNext_ = true;
    if (q.quit) window_->requestClose();
    if (q.zUp) {
        state_.camera.zUp = *q.zUp;
        std::error_code ec;
        if (!state_.path.empty()) state_.ui.zUpByFile[fs::absolute(state_.path, ec).string()] = *q.zUp;
        state_.ui.upAxisSource = "chosen for this file";
        q.frameModel = true;
    }
    if (q.environment) {
        // The renderer loads it at the next draw (ViewOptions::environment); kept absolute so
        // the settings file finds it from any folder.
        std::error_code ec;
        state_.view.environment = q.environment->empty() ? std::string() : fs::absolute(*q.environment, ec).string();
        q.environment.reset();
    }
    if (q.stopCompare) compare_->stop(state_);
    if (!q.compare.empty()) compare_->queue(q.compare);
    compare_->startQueued(state_, pending_.valid());
    if (!q.addAnim.empty() && !state_.path.empty() && !pending_.valid()) {
        anims_.push_back(q.addAnim);
        addingAnim_ = true;
        reloading_ = true;
        startLoad(state_.path);
    }
    // A finding focused in the Checks panel posts its clip, pause and seek: before they play.
    if (q.focusFinding >= 0) focusFinding(q.focusFinding);
    // What plays: the Clips, Timeline, Blend and State Machine panels' requests.
    const bool clipSelected = m && q.selectClip >= 0 && static_cast<size_t>(q.selectClip) < m->clips.size();
    const bool markerEdits = !state_.requests.markerEdits.empty() || state_.requests.saveMarkers;
    playback_.applyRequests();
    if (markerEdits && !playback_.markersSaved().empty()) {
        state_.ui.status = playback_.markersSaved();
        state_.ui.statusUntil = glfwGetTime() + 3.0;
    }
    if (clipSelected) state_.bounds = animatedBounds(*m, state_.clip, 12);
    if (q.morph && state_.animator) {
        state_.animator->setMorphOverride(static_cast<size_t>(std::max(q.morph->mesh, 0)),
                                          static_cast<size_t>(std::max(q.morph->target, 0)), q.morph->weight);
    }
    q.morph.reset();
    if (q.releaseMorphs && state_.animator) state_.animator->clearMorphOverrides();
    q.releaseMorphs = false;
    const int w = std::max(1, static_cast<int>(ImGui::GetIO().DisplaySize.x));
    const int h = std::max(1, static_cast<int>(ImGui::GetIO().DisplaySize.y));
    if (q.resetCamera) {
        const bool zUp = state_.camera.zUp;
        const glm::vec4 rect = state_.camera.viewRect;
        state_.camera = OrbitCamera{};
        state_.camera.zUp = zUp;
        state_.camera.viewRect = rect;
        q.frameModel = true;
    }
    // Framed once the pose of this frame is made (framePose, after the pipeline's advance).
    if (q.frameModel && state_.bounds.valid()) frameNext_ = true;
    q = ViewerRequests{};
}

void Viewer::handleCameraInput() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureMouse) return;
    OrbitCamera& cam = state_.camera;
    // Movement made while a button was held, from the cursor callback in event order: the
    // move that brought the cursor to a click in the same frame is not a drag.
    const ImVec2 d(input_.dragX(), input_.dragY());
    const float h = std::max(io.DisplaySize.y, 1.0f);
    if (ImGui::IsMouseDown(ImGuiMouseButton_Left) && !io.KeyShift) cam.orbit(-d.x * 0.4f, d.y * 0.4f);
    if (ImGui::IsMouseDown(ImGuiMouseButton_Middle) || ImGui::IsMouseDown(ImGuiMouseButton_Right) ||
        (ImGui::IsMouseDown(ImGuiMouseButton_Left) && io.KeyShift)) {
        cam.pan(d.x / h, d.y / h);
    }
    if (io.MouseWheel != 0.0f) cam.zoom(std::pow(0.88f, io.MouseWheel));
}

void Viewer::frame(double dt) {
    window_->pollEvents();
    ++framesDrawn_;
    lastFrameAt_ = glfwGetTime();
    unsavedFrame_ = true;
    // A dropped .hdr lights the model (the Environment section's map); any other file opens.
    for (const std::string& p : window_->takeDroppedPaths()) {
        if (isEnvironmentFile(p)) {
            state_.requests.environment = p;
        } else {
            state_.requests.open = p;
        }
    }
    const double now = glfwGetTime();
    if (dt < 0.0) dt = now - lastTime_;
    lastTime_ = now;
    ++fpsFrames_;
    if (now - fpsWindowStart_ >= 0.5) {
        state_.stats.fps = static_cast<float>(fpsFrames_ / (now - fpsWindowStart_));
        state_.stats.frameMs = static_cast<float>(1000.0 * (now - fpsWindowStart_) / fpsFrames_);
        fpsWindowStart_ = now;
        fpsFrames_ = 0;
    }
    // A finished import shows "uploading" for one frame, then is uploaded and shown.
    state_.loadingStage = loadStage_.load();
    state_.loadingFraction = loadFraction_.load();
    if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
        state_.loadingStage != static_cast<int>(ImportStage::Uploading)) {
        loadStage_ = state_.loadingStage = static_cast<int>(ImportStage::Uploading);
        loadFraction_ = state_.loadingFraction = -1.0f;
    } else {
        applyLoadResult();
    }
    compare_->applyResult(state_);
    watchFile(now);

    if (const float cs = input_.takeContentScale(); cs > 0.0f) state_.ui.contentScale = std::clamp(cs, 0.5f, 4.0f);
    applyUiScale();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // The buttons from our queue, not the backend's one state per frame: at most one change
    // per button per frame, at the cursor position where it happened, so a press and release
    // (or two clicks) within one frame reach ImGui over the next frames.
    ImGuiIO& imguiIo = ImGui::GetIO();
    const MouseFrame mouse = input_.nextMouseFrame(imguiIo.MouseDoubleClickTime, imguiIo.MouseDoubleClickMaxDist);
    for (int b = 0; b < MouseFrame::kButtons; ++b) imguiIo.MouseDown[b] = mouse.down[b];
    if (mouse.hasPos) imguiIo.MousePos = ImVec2(mouse.x, mouse.y);
    // The keys likewise: one change per key per frame, so a tap between two frames reaches
    // the widget that has the keyboard (Enter in a field, Ctrl+A) instead of being lost.
    input_.nextKeyFrame(keyFrame_);
    std::copy(std::begin(keyFrame_.down), std::end(keyFrame_.down), std::begin(imguiIo.KeysDown));
    imguiIo.KeyCtrl = keyFrame_.ctrl;
    imguiIo.KeyShift = keyFrame_.shift;
    imguiIo.KeyAlt = keyFrame_.alt;
    imguiIo.KeySuper = keyFrame_.super;
    if (inputHook_) inputHook_(imguiIo);
    ImGui::NewFrame();
    // ImGui counts double clicks by frame times, which at 5 fps (and with presses delivered
    // a frame late) are too coarse: the events' own times decide. (What NewFrame derived
    // from its count is set to match: IsMouseDoubleClicked, a double click's release.)
    for (int b = 0; b < MouseFrame::kButtons; ++b) {
        if (!mouse.pressed[b] || !imguiIo.MouseClicked[b]) continue;
        const auto count = static_cast<ImU16>(mouse.clickCount[b]);
        imguiIo.MouseClickedCount[b] = imguiIo.MouseClickedLastCount[b] = count;
        imguiIo.MouseDoubleClicked[b] = count == 2;
    }
    placeLayout();

    // The UI posts requests for this frame; the update applies them, then time advances.
    drawMenuBar(state_);
    UiProbe* probe = probeOn_ ? &probe_ : nullptr;
    // Panels behind another tab of a crowded area are not drawn this frame.
    const Layout& layout = state_.ui.layout;
    if (layout.shows(PanelId::Open)) drawOpenPanel(state_, &state_.panels.open, probe);
    if (layout.shows(PanelId::Clips)) drawClipsPanel(state_, &state_.panels.clips, probe);
    if (layout.shows(PanelId::Timeline)) drawTimelinePanel(state_, &state_.panels.timeline, probe);
    if (layout.shows(PanelId::Hierarchy)) drawHierarchyPanel(state_, &state_.panels.hierarchy, probe);
    if (layout.shows(PanelId::View)) drawViewPanel(state_, &state_.panels.view, probe);
    if (layout.shows(PanelId::Stats)) drawStatsPanel(state_, &state_.panels.stats);
    if (layout.shows(PanelId::Checks)) drawChecksPanel(state_, &state_.panels.checks, probe);
    if (layout.shows(PanelId::Blend)) drawBlendPanel(state_, &state_.panels.blend, probe);
    if (layout.shows(PanelId::Morphs)) drawMorphsPanel(state_, &state_.panels.morphs, probe);
    if (layout.shows(PanelId::Crowd)) drawCrowdPanel(state_, probe);
    if (layout.shows(PanelId::Machine)) drawStateMachinePanel(state_, &state_.panels.machine, probe);
    if (layout.shows(PanelId::Ik)) drawIkPanel(state_, &state_.panels.ik, probe);
    drawTabStrips(state_.ui.layout, probe);
    drawFileBrowser(state_, isModelFile, probe);
    drawHelpOverlay(state_, probe);
    drawAbout(state_, about_);
    drawPlayblastDialog(state_, probe);
    drawSplitters(state_.ui.layout);
    drawStatusOverlay(state_, now, probe);
    drawCrowdBudgetNote(state_, probe);
    drawStatusLine(state_, now);
    processKeys();
    if (!handleIkMouse(state_, ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y)) handleCameraInput();
    input_.clear();
    applyRequests();
    playblast_->update(state_, *renderer_, gpu_.get());  // a few frames of a playblast, off-screen

    int w = 0, h = 0;
    window_->framebufferSize(w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (state_.model && gpu_ && state_.animator) {
        const bool offscreen = bindSceneTarget(w, h);
        updateColorView();
        playback_.advance(dt);  // the frame's one advance: nothing else here receives dt
        if (frameNext_) framePose(w, h);
        compare_->update(state_, *gpu_);  // B at the time A is at now
        state_.view.highlightJoint = state_.selectedJoint;
        if (!drawCrowd(w, h)) {
            // A colour view shows its colours as painted (as its legend says), not tinted by the material.
            renderer_->setColorSource(state_.checks.colorView == ColorView::None ? Renderer::ColorSource::Material
                                                                                 : Renderer::ColorSource::VertexOnly);
            drawTimer_.begin();
            renderer_->draw(*gpu_, *state_.animator, state_.camera, state_.view, w, h, &state_.bounds);
            drawTimer_.end();
            state_.stats.drawCpuMs = static_cast<float>(drawTimer_.cpuMs());
            state_.stats.drawGpuMs = static_cast<float>(drawTimer_.gpuMs());
            keepOnlyGoodEnvironment();
            drawSelectionOutline(w, h);
            drawGhosts(w, h);
            compare_->drawGhost(*renderer_, state_, w, h);
            drawFlaggedPoints(w, h);
        }
        if (state_.blend.showRootPath && state_.blend.rootPath.size() > 1) {
            renderer_->drawPath(state_.blend.rootPath, glm::vec4(1.0f, 0.4f, 0.9f, 1.0f), state_.camera, w, h);
        }
        if (offscreen) sceneTarget_->resolveTo(0);
        const float aspect = h > 0 ? static_cast<float>(w) / static_cast<float>(h) : 1.0f;
        const glm::mat4 viewProj = state_.camera.projection(aspect) * state_.camera.view();
        const ImGuiIO& io = ImGui::GetIO();
        state_.ui.namesDrawn = 0;
        if (!state_.crowd.enabled) {  // the crowd hides the single model: nothing of it to name or pick
            state_.ui.namesDrawn = drawJointNames(state_, renderer_->jointPositions(), viewProj, io.DisplaySize.x, io.DisplaySize.y,
                                                 &state_.ui.nameRects);
            pickVertex(viewProj, io.DisplaySize.x, io.DisplaySize.y);
            clickSelectJoint(viewProj, io.DisplaySize.x, io.DisplaySize.y);
            drawVertexTooltip(state_);
            drawIkGizmo(state_, io.DisplaySize.x, io.DisplaySize.y);
        }
    } else {
        renderer_->prepareEnvironment(state_.view);  // prefiltered while the model loads
        glViewport(0, 0, w, h);
        glClearColor(state_.view.background.r, state_.view.background.g, state_.view.background.b, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    // The strip shows this at the next frame; when the work ends, one more frame takes the line away.
    std::string progress = environmentProgress(renderer_->environmentLoading());
    if (progress.empty() && !state_.progress.empty()) settleFrames_ = std::max(settleFrames_, 2);
    state_.progress = std::move(progress);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (captureNext_ || screenshotNext_) {
        // Read the back buffer before it is swapped away.
        capturedW_ = w;
        capturedH_ = h;
        std::vector<uint8_t> px(static_cast<size_t>(w) * h * 4);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glReadBuffer(GL_BACK);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        const size_t row = static_cast<size_t>(w) * 4;
        captured_.resize(px.size());
        for (int y = 0; y < h; ++y) {
            std::copy_n(px.data() + static_cast<size_t>(h - 1 - y) * row, row, captured_.data() + static_cast<size_t>(y) * row);
        }
        for (size_t i = 3; i < captured_.size(); i += 4) captured_[i] = 255;
        if (screenshotNext_) {
            screenshotNext_ = false;
            writeScreenshot(captured_, w, h);
            if (!captureNext_) captured_.clear();
        }
        captureNext_ = false;
    }
    window_->swapBuffers();
    startTiming_.frameTook(glfwGetTime() - lastFrameAt_);
    if (state_.model && gpu_) {
        startTiming_.mark(StartTiming::FirstFrame);
        if (!renderer_->environmentLoading()) startTiming_.mark(StartTiming::Environment);
        startTiming_.reportOnce();
    }
    if (now - lastSave_ >= 1.0) {  // debounced: at most one write a second, only when changed
        lastSave_ = now;
        unsavedFrame_ = false;
        saveSettings();
    }
    if (settleFrames_ > 0) --settleFrames_;
    wasAnimating_ = animating();
}

void Viewer::placeLayout() {
    Layout& layout = state_.ui.layout;
    if (layout.resetRequested) {
        layout.resetRequested = false;
        resetLayout(state_);
        // The menu's reset also puts the view options and the camera back (--reset-layout at
        // start resets the layout only).
        state_.view = ViewOptions{};
        state_.requests.resetCamera = true;
    }
    std::array<bool, kPanelCount> open{};
    for (int i = 0; i < kPanelCount; ++i) {
        const PanelId id = static_cast<PanelId>(i);
        const bool* flag = panelOpenFlag(state_, id);
        // Blend and State Machine show only with a model.
        const bool needsModel = id == PanelId::Blend || id == PanelId::Machine;
        open[i] = flag && *flag && (!needsModel || state_.model);
    }
    layout.setOpen(open);
    const ImGuiIO& io = ImGui::GetIO();
    layout.place(io.DisplaySize.x, io.DisplaySize.y, ImGui::GetFrameHeight(), std::max(state_.ui.appliedScale, 0.5f));
    // The model is shown centred in the viewport area, not under the panels.
    const LayoutRect& c = layout.rects.centre;
    const float w = std::max(io.DisplaySize.x, 1.0f), h = std::max(io.DisplaySize.y, 1.0f);
    state_.camera.viewRect = glm::vec4(c.x / w, c.y / h, c.w / w, c.h / h);
}

bool Viewer::bindSceneTarget(int w, int h) {
    const AntiAliasing aa = state_.view.antiAliasing;
    const int samples = aa == AntiAliasing::Msaa4 || (aa == AntiAliasing::Auto && !state_.stats.softwareRenderer) ? 4 : 1;
    state_.stats.sceneSamples = 1;
    if (w < 1 || h < 1 || samples == 1) {
        sceneTarget_.reset();
        return false;
    }
    if (!sceneTarget_ || sceneTarget_->width() != w || sceneTarget_->height() != h) {
        sceneTarget_.reset();
        auto t = OffscreenTarget::create(w, h, samples);
        if (!t) return false;
        sceneTarget_ = std::move(t.value());
    }
    sceneTarget_->bind();
    state_.stats.sceneSamples = samples;
    return true;
}

bool Viewer::drawCrowd(int w, int h) {
    if (!state_.crowd.enabled) return false;
    if (!crowdView_) {
        auto v = CrowdView::create();
        if (!v) {
            state_.error = "crowd: " + v.error().message;
            state_.crowd.enabled = false;
            return false;
        }
        crowdView_ = std::move(v.value());
    }
    if (!playback_.crowd()) return false;
    crowdView_->frame(state_, *playback_.crowd(), *gpu_, w, h, renderer_ ? renderer_->prepareEnvironment(state_.view) : nullptr);
    return true;
}

std::vector<uint8_t> Viewer::captureFrame(int& width, int& height) {
    captureNext_ = true;
    frame(1.0 / 60.0);
    width = capturedW_;
    height = capturedH_;
    return std::move(captured_);
}

void Viewer::updateColorView() {
    CheckViewState& c = state_.checks;
    const Model& m = *state_.model;
    const int joint = c.colorView == ColorView::JointWeight ? state_.selectedJoint : -1;
    const int clip = c.colorView == ColorView::TruncationError ? state_.clip : -1;
    if (c.colorsForModel == &m && c.colorsFor == c.colorView && c.colorsForJoint == joint && c.colorsForClip == clip) return;
    c.colorsForModel = &m;
    c.colorsFor = c.colorView;
    c.colorsForJoint = joint;
    c.colorsForClip = clip;
    std::vector<std::vector<float>> errors;
    // Vertices the view flags, drawn as points on top: unweighted, off-sum, 0 or > 4 influences.
    flagged_.assign(m.meshes.size(), {});
    state_.ui.flaggedVertices = 0;
    if (c.colorView == ColorView::Deviation) {
        // Painted by CompareView::update at the current pose; neutral while nothing is compared.
        compare_->repaint();
        for (size_t i = 0; i < m.meshes.size() && !compare_->comparing(); ++i) {
            gpu_->setVertexColors(i, std::vector<glm::vec4>(m.meshes[i].vertexCount(), kNeutralVertexColor));
        }
        return;
    }
    if (c.colorView == ColorView::TruncationError) {
        c.truncationMax = 0.0f;
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            errors.push_back(truncationError(m, i, clip, 24));
            for (float e : errors.back()) c.truncationMax = std::max(c.truncationMax, e);
        }
    }
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh& mesh = m.meshes[i];
        if (c.colorView == ColorView::None) {
            gpu_->clearVertexColors(i);
            continue;
        }
        const std::vector<glm::vec4> colors =
            colorViewColors(c.colorView, mesh, joint, i < errors.size() ? errors[i] : std::vector<float>{}, c.truncationMax, flagged_[i]);
        gpu_->setVertexColors(i, colors);
        state_.ui.flaggedVertices += flagged_[i].size();
    }
}

void Viewer::drawFlaggedPoints(int w, int h) {
    // Posed like the mesh (CPU skinning of the meshes that have any), drawn with the depth
    // test off: vertices hidden inside the mesh show through (x-ray).
    if (state_.checks.colorView == ColorView::None || state_.ui.flaggedVertices == 0) return;
    const Model& m = *state_.model;
    const Animator& anim = *state_.animator;
    flaggedPoints_.clear();
    for (size_t i = 0; i < m.meshes.size() && i < flagged_.size(); ++i) {
        if (flagged_[i].empty()) continue;
        const Mesh& mesh = m.meshes[i];
        scratch_.resize(mesh.vertexCount());
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(i), anim.meshMorphWeights(i), scratch_.data(), nullptr,
                 state_.view.method, state_.view.influences);
        const glm::mat4& world = anim.skinToModel(i);
        for (uint32_t v : flagged_[i]) {
            if (v < scratch_.size()) flaggedPoints_.push_back(glm::vec3(world * glm::vec4(scratch_[v], 1.0f)));
        }
    }
    const glm::vec4 color = state_.checks.colorView == ColorView::WeightSum ? glm::vec4(1.0f, 0.95f, 0.2f, 1.0f)
                                                                             : glm::vec4(1.0f, 0.15f, 0.15f, 1.0f);
    const float size = 5.0f * std::max(1.0f, state_.ui.uiScale * state_.ui.contentScale);
    renderer_->drawPoints(flaggedPoints_, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f), state_.camera, w, h, size + 2.0f);
    renderer_->drawPoints(flaggedPoints_, color, state_.camera, w, h, size);
}

namespace {

// A text field has the keyboard: it is active now, after this frame's panels (a click that
// focused it this frame counts), or was at the start of the frame (Enter or a click elsewhere
// closed it this frame: the keys typed before were still its own).
bool textFieldHasKeys() {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiID text = g.InputTextState.ID;
    return text != 0 && (g.ActiveId == text || g.ActiveIdPreviousFrame == text);
}

}  // namespace

void Viewer::processKeys() {
    // Every press since the last frame, in order: a tap shorter than a frame still acts once.
    // A text field being typed in owns every key: no shortcut fires, Ctrl combinations and
    // function keys included. While another widget has the keys (a slider being dragged), only
    // function keys and Ctrl combinations act.
    const ImGuiIO& io = ImGui::GetIO();
    const bool typing = textFieldHasKeys() || io.WantTextInput;
    for (size_t i = 0; i < input_.size(); ++i) {
        const KeyPress& k = input_[i];
        const Shortcut* sc = findShortcut(k.key, k.mods, k.repeat);
        if (!sc || typing) continue;
        const bool global = (k.key >= GLFW_KEY_F1 && k.key <= GLFW_KEY_F25) || (sc->mods & GLFW_MOD_CONTROL);
        if (io.WantCaptureKeyboard && !global) continue;
        applyShortcut(state_, *sc);
    }
}

void Viewer::applyUiScale() {
    ViewerUiState& ui = state_.ui;
    ui.uiScale = std::clamp(ui.uiScale, 0.5f, 4.0f);
    const float scale = ui.uiScale * ui.contentScale;
    if (std::abs(scale - ui.appliedScale) < 1e-3f) return;
    // Rebuild the font atlas at the scaled size (crisper than stretching a 13 px one).
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig font;
    font.SizePixels = std::round(13.0f * scale);
    io.Fonts->AddFontDefault(&font);
    if (ui.appliedScale > 0.0f) {  // the first time, the backend's first NewFrame uploads it
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
    ui.appliedScale = scale;
}

void Viewer::writeScreenshot(const std::vector<uint8_t>& rgba, int w, int h) {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    // rigview-<model>-<time>.png in the folder asked for, else the Pictures folder, else (or
    // when that one cannot be written) the current directory.
    const std::string stem = "rigview-" + (state_.path.empty() ? std::string() : fs::path(state_.path).stem().string() + "-") + stamp;
    std::vector<fs::path> dirs;
    if (!config_.screenshotDir.empty()) {
        dirs.push_back(config_.screenshotDir);
    } else {
        if (const fs::path pictures = picturesFolder(); !pictures.empty()) dirs.push_back(pictures);
        dirs.push_back(".");
    }
    std::string error;
    for (const fs::path& dir : dirs) {
        fs::path file = dir / (stem + ".png");
        std::error_code ec;
        for (int n = 2; fs::exists(file, ec) && n < 1000; ++n) file = dir / (stem + "-" + std::to_string(n) + ".png");
        if (writePng(file.string(), w, h, rgba, &error)) {
            lastScreenshot_ = fs::absolute(file, ec).lexically_normal().string();
            state_.ui.status = "screenshot: " + lastScreenshot_;
            state_.ui.statusUntil = glfwGetTime() + 6.0;
            return;
        }
    }
    state_.ui.status = "screenshot failed: " + error;
    state_.ui.statusUntil = glfwGetTime() + 6.0;
}

void Viewer::drawGhosts(int w, int h) {
    const CheckViewState& c = state_.checks;
    if (!ghost_) return;
    if (c.bindGhost) {
        ghost_->evaluate(-1, 0.0f);
        renderer_->drawGhost(*gpu_, *ghost_, state_.camera, state_.view, w, h, glm::vec4(0.55f, 0.8f, 1.0f, 0.35f));
    }
    if (c.onion && state_.clip >= 0 && !state_.bindPose) {
        for (int k = -c.onionCount; k <= c.onionCount; ++k) {
            if (k == 0) continue;
            const TimelineState& tl = state_.timeline;
            const double len = std::max(tl.end - tl.start, 1e-6);
            const float t = static_cast<float>(tl.start + wrapTime(tl.time - tl.start + k * c.onionStep, len));
            ghost_->evaluate(state_.clip, t);
            // Past in green, future in magenta (as the Checks panel's labels say).
            const glm::vec4 tint = onionTint(k, c.onionCount);
            renderer_->drawGhost(*gpu_, *ghost_, state_.camera, state_.view, w, h, tint);
        }
    }
    // The main pose's palette goes back for anything drawn after (picking uses the CPU).
}

int Viewer::run() {
    while (!window_->shouldClose()) step();
    return 0;
}

bool Viewer::animating() const {
    if (!state_.model || !state_.animator || playback_.paused()) return false;
    const TimelineState& tl = state_.timeline;
    return tl.playing || tl.fading || state_.machine.active || state_.checks.rom || state_.blend.active;
}

unsigned long long Viewer::eventCount() const { return window_->eventCount() + input_.eventCount(); }

double Viewer::frameDue(double now) const {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    if (settleFrames_ > 0 || captureNext_ || screenshotNext_ || input_.pendingButtonEvents() > 0 || input_.anyButtonDown() ||
        input_.size() > 0 || input_.pendingKeyEvents() > 0) {
        return now;
    }
    if (animating()) return now;
    if (renderer_->environmentLoading()) return now;  // its next piece
    if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) return now;
    double due = kNever;
    // The loading notices count the seconds and show the stage: four times a second.
    if (pending_.valid() || state_.compare.loading) due = std::min(due, lastFrameAt_ + 0.25);
    // A text field's caret blinks.
    if (imguiReady_ && ImGui::GetIO().WantTextInput) due = std::min(due, lastFrameAt_ + 0.5);
    // A status line that expires: the frame after it is gone.
    if (state_.ui.statusUntil > lastFrameAt_) due = std::min(due, state_.ui.statusUntil + 0.01);
    return due;
}

bool Viewer::step(double maxWait) {
    double now = glfwGetTime();
    // No faster than the display (where swapping does not wait for it, as under Xvfb).
    double at = std::max(frameDue(now), lastFrameAt_ + framePeriod_);
    if (at > now) {
        const unsigned long long before = eventCount();
        window_->waitEvents(std::min(at - now, maxWait));
        now = glfwGetTime();
        if (eventCount() != before) settleFrames_ = std::max(settleFrames_, 3);
        if (window_->shouldClose()) return false;
        // The chores of a frame that need no frame: the file watch (a change starts a load,
        // which is then due), and the settings of the last frames written (debounced).
        watchFile(now);
        if (unsavedFrame_ && now - lastSave_ >= 1.0) {
            lastSave_ = now;
            unsavedFrame_ = false;
            saveSettings();
        }
        at = std::max(frameDue(now), lastFrameAt_ + framePeriod_);
        if (at > now) return false;
    }
    // Time did not run while nothing moved: the first frame after a rest advances by nothing.
    if (!wasAnimating_) lastTime_ = now;
    frame();
    return true;
}

}  // namespace rig
