// Viewer: the interactive rigview. Owns the window, the renderer, the UI state, the playback
// pipeline (app/playback.h: the one owner of time) and the background import; one call to
// frame() is one frame (events, UI, requests, the pipeline's one advance, draw).
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <string>

#include "anim/runtime/result.h"
#include "app/draw_timer.h"
#include "app/input_queue.h"
#include "app/playback.h"
#include "app/start_timing.h"
#include "import/import_options.h"
#include "platform/window.h"
#include "render/gpu_model.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "app/compare_view.h"
#include "app/crowd_view.h"
#include "app/viewer_playblast.h"
#include "ui/crowd_panel.h"
#include "ui/help_overlay.h"
#include "ui/panels.h"
#include "ui/timeline_panel.h"
#include "ui/viewer_state.h"

namespace rig {

struct ViewerConfig {
    std::string model;       // opened at start (in the background)
    std::vector<std::string> anims;  // --anim files whose clips are added to `model`
    ImportOptions import;    // --units, --amc-fps: every import (reloads, dropped files) uses them
    std::string machine;     // --machine: a state machine file for `model`, driving from the start
                             // (else <model stem>.machine.json beside a model loads, not driving)
    std::string compare;     // --compare: another version of `model` to compare with (after it loads)
    int width = 1280, height = 800;
    bool watchFile = true;   // re-import when the file on disk changes
    bool remember = true;    // read and keep the settings (layout, view options, camera, recent
                             // files) in ~/.config/rigview/settings.json (app/viewer_settings.h)
    bool resetLayout = false;  // --reset-layout: start with the default layout
    bool restoreWindow = true;  // with `remember`: the window takes its remembered size and place
    std::string screenshotDir;  // where F12 writes its PNG ("" = screenshotFolder(): the Pictures folder)
};

class Viewer {
public:
    static Result<std::unique_ptr<Viewer>> create(const ViewerConfig& config);
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // Run until the window closes (step() after step()). Returns an exit code.
    int run();
    // One turn of run()'s loop: wait (asleep, drawing nothing) until something changes or is
    // due (input or a window event, a finished load, the loading notice's next tick, a notice
    // that expires, the file watch's next look), then draw one frame (frame()). While playback
    // runs, frames come at the display's rate. Waits at most `maxWait` seconds; returns whether
    // it drew a frame.
    bool step(double maxWait = 0.5);
    // Whether anything moves on its own (playback, the state machine, a sweep, a fade): then
    // frames follow one another; otherwise the viewer draws only when something changes.
    bool animating() const;
    // Frames drawn since the start (by step() and frame()).
    unsigned long long framesDrawn() const { return framesDrawn_; }
    // One frame. `dt` < 0 takes the wall-clock time since the last frame.
    void frame(double dt = -1.0);
    bool shouldClose() const { return window_->shouldClose(); }

    // Test and tooling hooks.
    ViewerState& state() { return state_; }
    const UiProbe& probe() const { return probe_; }
    void enableProbe(bool on) { probeOn_ = on; }
    // Called between the GLFW backend's new frame and ImGui's, to inject mouse/keyboard
    // input through ImGui's IO like the platform backend does.
    void setInputHook(std::function<void(ImGuiIO&)> hook) { inputHook_ = std::move(hook); }
    // The GLFW window (tests call the key callback installed on it, as GLFW does).
    GLFWwindow* windowHandle() const { return window_->handle(); }
    // Key presses and drags taken from GLFW's callbacks (InputQueue).
    InputQueue& input() { return input_; }
    // Path of the last F12 screenshot ("" if none yet).
    const std::string& lastScreenshot() const { return lastScreenshot_; }
    // Block until the background import (if any) is done and applied.
    void waitForLoad();
    // Finish the environment map being loaded a piece at a time (if any) and draw one frame
    // with it (the screenshot mode and tests: the picture with its lighting).
    void waitForEnvironment();
    // Run one more frame and return its pixels, UI included (RGBA, top row first).
    std::vector<uint8_t> captureFrame(int& width, int& height);

private:
    Viewer() = default;
    void startLoad(const std::string& path);
    void cancelLoad();            // stop the running load; the model on screen stays
    std::string keptNote(const std::string& failed) const;  // the strip's line after `failed` failed
    void framePose(int w, int h); // the F / open framing, on this frame's pose
    void keepOnlyGoodEnvironment();  // a map that failed goes back to the last good one
    void applyLoadResult();
    void applyRequests();
    void handleCameraInput();
    void watchFile(double now);
    void addRecent(const std::string& path);
    void loadSettings();
    void restoreWindowPlacement();  // the remembered size and place, clamped to the monitor
    void saveSettings();      // writes the settings file if they changed since the last write
    void placeLayout();       // the panel areas for this frame; the camera's view rectangle
    void updateColorView();
    void drawGhosts(int w, int h);
    void pickVertex(const glm::mat4& viewProj, float w, float h);
    void skinForPicking(size_t mesh);  // scratch_: the mesh posed now (CPU skinning), mesh space
    void drawSelectionOutline(int w, int h);  // the meshes of the selected node, outlined
    int meshUnder(const glm::mat4& viewProj, float w, float h, ImVec2 at);  // the nearest mesh drawn there, or -1
    void clickSelectJoint(const glm::mat4& viewProj, float w, float h);
    void focusFinding(int index);
    void processKeys();
    void applyUiScale();
    void drawFlaggedPoints(int w, int h);
    void writeScreenshot(const std::vector<uint8_t>& rgba, int w, int h);

    ViewerConfig config_;
    StartTiming startTiming_;  // RIGVIEW_TIMING=1: the start's stages on stderr
    std::unique_ptr<Window> window_;
    std::unique_ptr<Renderer> renderer_;
    // With 4x MSAA (the Anti-aliasing option) the scene (model, overlays, crowd) is drawn here
    // and resolved into the window, whose own framebuffer has one sample: the UI (antialiased
    // by ImGui itself) is then drawn once per pixel, and the resolve touches only the window's
    // pixels (a multisampled window costs every UI pixel 4 samples plus a resolve at each swap).
    // Null without MSAA, or where it cannot be made: the scene is then drawn straight into the
    // window.
    std::unique_ptr<OffscreenTarget> sceneTarget_;
    bool bindSceneTarget(int w, int h);  // false: draw into the window (sets stats.sceneSamples)
    std::unique_ptr<GpuModel> gpu_;
    DrawTimer drawTimer_;      // the renderer's draw of the model, for Stats (before window_ goes)
    std::string environmentErrorShown_;  // the renderer's environment error the strip last took
    std::string goodEnvironment_;        // the last ViewOptions::environment that loaded ("" studio)
    std::string environmentNoticeFor_;   // the environment in use when the strip's notice was posted
    bool frameNext_ = false;             // frame the pose once this frame's is made
    std::vector<glm::vec3> framePoints_;
    ViewerState state_;
    Playback playback_{state_};  // the one owner of time: advanced once per frame
    UiProbe probe_;
    bool probeOn_ = false;
    std::function<void(ImGuiIO&)> inputHook_;
    struct Loaded {
        Result<Model> model;
        Report report;
        bool cancelled = false;  // its worker was stopped (cancelLoad_)
    };
    std::future<Loaded> pending_;
    std::atomic<bool> cancelLoad_{false};   // set to stop the running import (kills its worker)
    bool dropLoad_ = false;       // the running load was cancelled or replaced: its result is not shown
    std::string queuedOpen_;      // an Open made during a load: started once that load has stopped
    std::atomic<int> loadStage_{-1};         // the running import's ImportStage, from its thread
    std::atomic<float> loadFraction_{-1.0f}; // ... and the fraction of it done (-1: unknown)
    std::unique_ptr<Animator> ghost_;  // poses the bind-pose ghost and onion skins
    std::unique_ptr<CompareView> compare_;    // compare mode (app/compare_view.h)
    std::unique_ptr<CrowdView> crowdView_;    // draws the pipeline's crowd, made when first shown
    std::unique_ptr<ViewerPlayblast> playblast_;  // File > Playblast...: its own Animator, off-screen
    bool drawCrowd(int w, int h);             // false: the crowd is off (or cannot be drawn)
    std::vector<std::string> anims_;         // files whose clips are added to the model
    std::vector<glm::vec3> scratch_;   // CPU-skinned positions for vertex picking
    std::vector<size_t> outlined_;     // the meshes outlined this frame
    ImVec2 pressPos_{0, 0};
    double lastTime_ = 0.0;
    double fpsWindowStart_ = 0.0;
    int fpsFrames_ = 0;
    double lastWatch_ = 0.0;
    long long watchedStamp_ = 0;
    bool reloading_ = false;
    bool addingAnim_ = false;
    bool imguiReady_ = false;
    bool captureNext_ = false;
    std::vector<uint8_t> captured_;
    InputQueue input_;
    KeyFrame keyFrame_;           // this frame's keys as ImGui gets them
    bool screenshotNext_ = false;
    std::string lastScreenshot_;
    AboutInfo about_;
    std::vector<std::vector<uint32_t>> flagged_;  // per mesh: vertices the colour view flags
    std::vector<glm::vec3> flaggedPoints_;        // their posed positions this frame
    int capturedW_ = 0, capturedH_ = 0;
    std::string savedSettings_;   // the settings file's text as last read or written
    double lastSave_ = 0.0;
    bool keepCamera_ = false;     // a camera came from the settings: the first model keeps it
    // step(): when a frame is next wanted (glfwGetTime() seconds; infinity: none), and the
    // bookkeeping behind it.
    double frameDue(double now) const;
    unsigned long long eventCount() const;
    unsigned long long framesDrawn_ = 0;
    double lastFrameAt_ = -1.0;    // when the last frame began
    double framePeriod_ = 1.0 / 60.0;  // the display's
    int settleFrames_ = 0;         // frames still to draw after an event (ImGui settles: hover, layout)
    bool wasAnimating_ = false;    // the last frame ended with something moving
    bool unsavedFrame_ = false;    // a frame was drawn since the settings were last looked at
};

}  // namespace rig
