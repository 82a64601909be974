// Compressed playback in the viewer: turns ViewerState::compression's request (the Clips
// panel's toggle and tolerance) into a CompressedClipSet compressed off the UI path (a
// background task), hands it to the controllers that play, and fills in what plays for the
// Stats panel. One call per frame, after the requests and before the playback advances.
#pragma once

#include <atomic>
#include <future>
#include <initializer_list>
#include <memory>

#include "anim/control/controller.h"
#include "anim/runtime/compressed_clip_set.h"
#include "anim/runtime/result.h"
#include "ui/viewer_state.h"

namespace rig {

class CompressedView {
public:
    CompressedView() = default;
    CompressedView(const CompressedView&) = delete;
    CompressedView& operator=(const CompressedView&) = delete;
    ~CompressedView();  // cancels a running compression and waits for it

    // The per-frame step: start compressing when the request (model, tolerance) differs from
    // the set held, take a finished set, and point each of `controllers` (null ones skipped)
    // at the set while the toggle is on and the set is for the model on screen, else at none.
    // Allocates only when the set or what a controller plays changes.
    void update(ViewerState& s, std::initializer_list<Controller*> controllers);
    // The set the controllers play (null: plain).
    const CompressedClipSet* playing() const { return playing_; }

private:
    void cancelBuild();

    std::shared_ptr<const Model> model_;  // the model `set_` is for
    float toleranceMm_ = -1.0f;
    std::unique_ptr<CompressedClipSet> set_;
    const CompressedClipSet* playing_ = nullptr;
    std::future<Result<CompressedClipSet>> pending_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::shared_ptr<const Model> pendingModel_;
    float pendingToleranceMm_ = -1.0f;
};

}  // namespace rig
