// StartTiming: how long a viewer start took to each of its stages (the window, the renderer,
// the model loaded, the first frame with the model, the environment lighting it), and what the
// shader program cache did meanwhile. With RIGVIEW_TIMING=1 the viewer prints it once, as one
// line on stderr, when the model is on screen with its environment:
//   rigview: start: window 0.07 s, renderer 0.01 s, model 0.31 s, first frame 0.45 s,
//   environment 0.45 s, longest frame 0.05 s; programs: 7 from the cache, 0 compiled
// (seconds since the viewer began to start; the longest frame: the longest the window went
// without answering until then).
#pragma once

#include <chrono>
#include <string>

namespace rig {

class StartTiming {
public:
    enum Stage { Window, Renderer, Model, FirstFrame, Environment, kStages };
    StartTiming() : start_(std::chrono::steady_clock::now()) {}
    // The stage ended now (the first call for it counts).
    void mark(Stage stage);
    // A frame took `seconds` (from its start to its swap); counted until the environment is marked.
    void frameTook(double seconds) {
        if (!marked(Environment) && seconds > longestFrame_) longestFrame_ = seconds;
    }
    bool marked(Stage stage) const { return at_[stage] >= 0.0; }
    double at(Stage stage) const { return at_[stage]; }  // seconds, -1 when not yet
    // The line above; "" until the first frame and the environment are marked.
    std::string line() const;
    // Prints line() once on stderr when RIGVIEW_TIMING is set (to anything but "" or "0").
    void reportOnce();

private:
    std::chrono::steady_clock::time_point start_;
    double at_[kStages] = {-1.0, -1.0, -1.0, -1.0, -1.0};
    double longestFrame_ = 0.0;
    bool reported_ = false;
};

}  // namespace rig
