// CompareView: the viewer's compare mode. Another version of the model, B (`rigview A
// --compare B`, *Compare with...*), is imported in the background like the model (the same
// options, the isolated worker) and diffed with it there (check/rig_diff); once loaded it has
// no clock of its own: each frame it is posed at the time the model is at, in the clip of the
// same name (else its bind pose; both still poses in bind-pose view), drawn as a ghost, and the
// distance of each of the model's vertices to its matched vertex of B (both CPU-skinned,
// matched by bind position as `rigview diff` matches them) paints the deviation colour view.
// What the Checks panel shows of it lives in ViewerState::compare.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/pose.h"
#include "check/rig_diff.h"
#include "import/import_options.h"
#include "render/gpu_model.h"
#include "render/renderer.h"
#include "ui/viewer_state.h"

namespace rig {

class CompareView {
public:
    explicit CompareView(const ImportOptions& import) : import_(import) {}
    ~CompareView();  // a load still running is cancelled (its worker killed) and waited for
    CompareView(const CompareView&) = delete;
    CompareView& operator=(const CompareView&) = delete;

    // Ask to compare with `path` once the model is on screen and no import runs (queue), or
    // start now: B imported and diffed with `s.model` off the UI thread.
    void queue(const std::string& path) { queued_ = path; }
    void startQueued(ViewerState& s, bool modelLoading);
    void start(ViewerState& s, const std::string& path);
    // Once B has loaded: its GPU model, the diff's counts in s.compare, the deviation view on;
    // a B that failed is one line in s.error. Returns immediately while it loads.
    void applyResult(ViewerState& s);
    // Block until a running load ends, then applyResult.
    void waitForLoad(ViewerState& s);
    // Compare no more (a running load's result is dropped).
    void stop(ViewerState& s);

    // After the pipeline's advance: B posed at the model's time; the deviation recomputed when
    // the clip, the time, the model's palettes or the view change; painted on `gpuA` when the
    // deviation view is shown.
    void update(ViewerState& s, GpuModel& gpuA);
    // The deviation must be painted again (the colour view was switched back to it).
    void repaint() { key_ = Key{}; }
    // Draw B as a translucent ghost.
    void drawGhost(Renderer& renderer, const ViewerState& s, int width, int height);

    bool comparing() const { return model_ != nullptr; }

private:
    struct Loaded {
        Result<Model> model;
        RigDiff diff;
    };
    // What the deviation was last computed for.
    struct Key {
        int clip = -100;      // B's clip, or the still pose both show (kBindPose, kFilePose)
        double time = -1.0;
        bool still = false;
        bool shown = false;
        int influences = 0;   // blended per vertex (the View panel's toggle)
        bool operator==(const Key& o) const {
            return clip == o.clip && time == o.time && still == o.still && shown == o.shown && influences == o.influences;
        }
    };

    ImportOptions import_;
    std::future<Loaded> pending_;
    std::atomic<bool> cancel_{false};
    std::string queued_;                          // waits for the model (or its running import)
    std::shared_ptr<const Model> model_;          // B
    std::unique_ptr<GpuModel> gpu_;
    std::unique_ptr<Animator> anim_;              // posed at A's time each frame (no clock of its own)
    const Model* matchedFor_ = nullptr;           // the A the matches were made for
    std::vector<int32_t> meshOfA_;                // per mesh of A: its mesh in B (-1: none)
    std::vector<std::vector<int32_t>> vertexOfA_; // per mesh of A, per vertex: B's vertex (-1: none)
    Key key_;
    std::vector<glm::mat4> paletteA_;             // A's palettes when the deviation was computed
    std::vector<glm::vec3> scratchA_, scratchB_;
};

}  // namespace rig
