#include "anim/offline/compress.h"

namespace rig {

Result<CompressedClipSet> compressClips(const Model& model, const CompressSettings& settings, const std::atomic<bool>* cancel) {
    CompressedClipSet set;
    set.tolerance = settings.tolerance;
    const size_t n = model.clips.size();
    set.clips.resize(n);
    set.present.assign(n, 0);
    set.stats.resize(n);
    for (size_t c = 0; c < n; ++c) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return Error{"compression cancelled"};
        Result<CompressionResult> r = compressClip(model, model.clips[c], settings);
        if (!r) continue;  // plays plain
        CompressionResult& cr = r.value();
        set.stats[c] = {cr.originalBytes, cr.compressedBytes, cr.error.max(), cr.withinTolerance};
        set.clips[c] = std::move(cr.clip);
        set.present[c] = 1;
    }
    set.index(model.clips, model.skeleton.size());
    return set;
}

}  // namespace rig
