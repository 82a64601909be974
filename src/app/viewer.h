// Viewer: the interactive rigview. Owns the window, the renderer, the UI state and the
// background import; one call to frame() is one frame (events, requests, tick, draw, UI).
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <string>

#include "anim/control/controller.h"
#include "anim/runtime/result.h"
#include "anim/control/state_machine.h"
#include "app/input_queue.h"
#include "platform/window.h"
#include "render/gpu_model.h"
#include "render/renderer.h"
#include "app/compressed_view.h"
#include "app/crowd_view.h"
#include "ui/crowd_panel.h"
#include "ui/help_overlay.h"
#include "ui/panels.h"
#include "ui/timeline_panel.h"
#include "ui/viewer_state.h"

namespace rig {

struct ViewerConfig {
    std::string model;       // opened at start (in the background)
    std::vector<std::string> anims;  // --anim files whose clips are added to `model`
    std::string machine;     // --machine: a state machine file for `model`, driving from the start
                             // (else <model stem>.machine.json beside a model loads, not driving)
    int width = 1280, height = 800;
    bool watchFile = true;   // re-import when the file on disk changes
    bool remember = true;    // read and keep the settings (layout, view options, camera, recent
                             // files) in ~/.config/rigview/settings.json (app/viewer_settings.h)
    bool resetLayout = false;  // --reset-layout: start with the default layout
    std::string screenshotDir;  // where F12 writes rigview-YYYYmmdd-HHMMSS.png ("" = current directory)
};

class Viewer {
public:
    static Result<std::unique_ptr<Viewer>> create(const ViewerConfig& config);
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // Run until the window closes. Returns an exit code.
    int run();
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
    // Run one more frame and return its pixels, UI included (RGBA, top row first).
    std::vector<uint8_t> captureFrame(int& width, int& height);

private:
    Viewer() = default;
    void startLoad(const std::string& path);
    void applyLoadResult();
    void applyRequests();
    void handleCameraInput();
    void watchFile(double now);
    void addRecent(const std::string& path);
    void loadSettings();
    void saveSettings();      // writes the settings file if they changed since the last write
    void placeLayout();       // the panel areas for this frame; the camera's view rectangle
    void updateColorView();
    void updateRangeOfMotion(double dt);
    void drawGhosts(int w, int h);
    void pickVertex(const glm::mat4& viewProj, float w, float h);
    void clickSelectJoint(const glm::mat4& viewProj, float w, float h);
    void focusFinding(int index);
    void applyBlendRequests();
    void tickController(double dt);
    // The controller whose base motion the Timeline shows and drives: the state machine's
    // while it drives, else the viewer's (the Clips and Blend panels play on it).
    Controller* timeController();
    void applyTimeRequests(Controller& c);
    void syncTimeline();
    std::string motionName(MotionSource m) const;
    std::string layerName(size_t layer) const;
    void loadMachine(const std::string& modelPath, bool reload);
    void applyMachineRequests();
    void tickMachine(double dt);
    void processKeys();
    void applyUiScale();
    void drawFlaggedPoints(int w, int h);
    void writeScreenshot(const std::vector<uint8_t>& rgba, int w, int h);

    ViewerConfig config_;
    std::unique_ptr<Window> window_;
    std::unique_ptr<Renderer> renderer_;
    std::unique_ptr<GpuModel> gpu_;
    ViewerState state_;
    UiProbe probe_;
    bool probeOn_ = false;
    std::function<void(ImGuiIO&)> inputHook_;
    struct Loaded {
        Result<Model> model;
        Report report;
    };
    std::future<Loaded> pending_;
    std::atomic<bool> cancelLoad_{false};   // set to stop the running import (kills its worker)
    std::unique_ptr<Animator> ghost_;  // poses the bind-pose ghost and onion skins
    std::unique_ptr<Controller> controller_;  // drives the pose when the Blend panel is on
    std::unique_ptr<CrowdView> crowdView_;    // the Crowd panel's instanced crowd, made when first shown
    bool drawCrowd(int w, int h);             // false: the crowd is off (or cannot be drawn)
    int32_t maskLayer_ = -1, additiveLayer_ = -1;
    std::vector<Marker> markers_;            // of the current clip
    // The State Machine panel's machine: its definition, its own controller, the runtime.
    std::unique_ptr<MachineDef> machineDef_;
    std::unique_ptr<Controller> machineController_;
    CompressedView compressedView_;  // the Clips panel's compressed playback (app/compressed_view.h)
    std::vector<std::string> spaceNames_;             // per blend space id: "walk | run"
    std::vector<std::vector<int32_t>> spaceClips_;    // per blend space id: its clips
    std::vector<std::string> layerNames_;             // per layer: what it plays
    std::unique_ptr<StateMachine> machine_;
    std::vector<std::string> anims_;         // files whose clips are added to the model
    std::array<AnimEvent, 16> events_{};
    std::vector<glm::vec3> scratch_;   // CPU-skinned positions for vertex picking
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
    bool screenshotNext_ = false;
    std::string lastScreenshot_;
    AboutInfo about_;
    std::vector<std::vector<uint32_t>> flagged_;  // per mesh: vertices the colour view flags
    std::vector<glm::vec3> flaggedPoints_;        // their posed positions this frame
    int capturedW_ = 0, capturedH_ = 0;
    std::string savedSettings_;   // the settings file's text as last read or written
    double lastSave_ = 0.0;
    bool keepCamera_ = false;     // a camera came from the settings: the first model keeps it
};

}  // namespace rig
