#include "app/compressed_view.h"

#include <chrono>
#include <utility>

#include "anim/offline/compress.h"
#include "app/command_util.h"

namespace rig {

CompressedView::~CompressedView() { cancelBuild(); }

void CompressedView::cancelBuild() {
    if (!pending_.valid()) return;
    cancel_->store(true);
    pending_.wait();
    pending_ = {};
}

void CompressedView::update(ViewerState& s, std::initializer_list<Controller*> controllers) {
    CompressionViewState& c = s.compression;
    const bool want = c.enabled && s.model && !s.model->clips.empty();
    // A finished compression: kept if it is still what is asked for.
    std::unique_ptr<CompressedClipSet> retired;
    if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        Result<CompressedClipSet> r = pending_.get();
        if (r && pendingModel_ == s.model && pendingToleranceMm_ == c.toleranceMm) {
            retired = std::move(set_);
            set_ = std::make_unique<CompressedClipSet>(std::move(r.value()));
            model_ = pendingModel_;
            toleranceMm_ = pendingToleranceMm_;
            c.error.clear();
        } else if (!r && pendingModel_ == s.model) {
            c.error = r.error().message;
        }
        pendingModel_.reset();
    }
    const bool current = set_ && model_ == s.model && toleranceMm_ == c.toleranceMm;
    const bool building = pending_.valid() && pendingModel_ == s.model && pendingToleranceMm_ == c.toleranceMm;
    if (want && !current && !building) {
        cancelBuild();
        cancel_ = std::make_shared<std::atomic<bool>>(false);
        pendingModel_ = s.model;
        pendingToleranceMm_ = c.toleranceMm;
        const CompressSettings settings = cmd::compressSettingsFor(*s.model, c.toleranceMm);
        pending_ = std::async(std::launch::async, [model = s.model, settings, cancel = cancel_] {
            return compressClips(*model, settings, cancel.get());
        });
    }
    // What plays: the set for the model on screen while the toggle is on (the last finished
    // one while another tolerance compresses), else the plain clips.
    const CompressedClipSet* target = want && set_ && model_ == s.model ? set_.get() : nullptr;
    for (Controller* ctl : controllers) {
        if (ctl && ctl->compressedClips() != target) ctl->setCompressedClips(target);
    }
    playing_ = target;
    c.building = pending_.valid();
    c.active = target != nullptr;
    c.activeToleranceMm = target ? toleranceMm_ : 0.0f;
    c.plainBytes = target ? target->plainByteSize() : 0;
    c.compressedBytes = target ? target->byteSize() : 0;
    c.maxErrorMm = target ? target->maxError() * 1e3 * cmd::metresPerModelUnit(*s.model) : 0.0;
}

}  // namespace rig
