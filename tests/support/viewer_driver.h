// Drives the real viewer window in tests as a person would: ImGui's input set each frame from
// the driver's mouse, Shift, Ctrl, wheel and key fields, clicks where the probed widgets were drawn
// (scrolling their panel to them first), key taps and dropped files through the callbacks GLFW
// calls. Used by the viewer test fixtures (viewer_smoke_test, viewer_look_test) together with
// ::testing::Test.
#pragma once

#include <cfloat>
#include <memory>
#include <string>

#include <imgui.h>

#include "app/viewer.h"

namespace rig::testing {

class ViewerDriver {
public:
    // Creates the viewer from `cfg` with the UI probe on and the driver's input hook, waits for
    // the model and its environment map and draws three frames. Fails the test (fatally) when either goes wrong.
    void start(const ViewerConfig& cfg);
    // The driver's mouse, Shift, Ctrl, wheel and key fields, as ImGui's input each frame.
    void setInputHookDefault();
    void frames(int n);
    // One frame (this frame's requests applied), the environment map being loaded finished, one
    // more frame: the view as it settles once a chosen map has been prefiltered.
    void lit();

    // Probed widgets and text rows by name (a missing one fails the test).
    bool has(const std::string& name) const;
    ImVec4 rect(const std::string& name);
    // A point of widget `name`: `fx` along it, halfway down.
    ImVec2 at(const std::string& name, float fx = 0.5f);
    std::string text(const std::string& name);

    // A widget below (or above) its panel's visible part: scroll the panel to it.
    void reveal(const std::string& name);
    // Scrolls the child window whose name starts with `child` (a panel's own scrolling part,
    // such as "Hierarchy/tree") so that widget `name` shows.
    void revealIn(const std::string& child, const std::string& name);
    // Move there, press, release: one click as a person makes it. `fx`: where along the widget.
    void click(const std::string& name, float fx = 0.5f);
    // The same click at point `p` (an item of an open combo's list, say) with mouse button
    // `button` (0 left, 1 right, 2 middle).
    void clickAt(ImVec2 p, int button = 0);
    // A left-button drag as a person makes it: press at `from`, move by `by` in `steps` equal
    // steps (a frame each), release, and move the mouse away.
    void drag(ImVec2 from, ImVec2 by, int steps);
    // Files dropped on the window, as GLFW reports them (the drop callback installed on it).
    void drop(const std::string& path);
    // A key tap as GLFW reports it: the press and the release (`holdMs` apart) both reach the
    // key callback installed on the window (ImGui's backend, which chains to the viewer's)
    // before the next frame polls, as a quick tap between two frames does.
    void tap(int key, int mods = 0, int holdMs = 12);
    // A tap, then one frame.
    void press(int key, int mods = 0);
    // With RIGVIEW_SMOKE_SHOTS=DIR, the window as it is now goes to DIR/NAME.png (to look at).
    void shot(const std::string& name);

    std::unique_ptr<Viewer> viewer;
    ImVec2 mouse{-FLT_MAX, -FLT_MAX};
    bool mouseDown = false;
    bool rightDown = false;
    bool middleDown = false;
    bool shift = false;
    bool ctrl = false;  // held: Ctrl down for ImGui (else as the key callbacks left it)
    float wheel = 0.0f;  // one frame's wheel turn
    int key = -1;
};

// Sets environment variable `name` to `value` (unsets it for nullptr) for the object's life.
class ScopedEnv {
public:
    ScopedEnv(std::string name, const char* value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_, old_;
    bool had_ = false;
};

}  // namespace rig::testing
