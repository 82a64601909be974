#include "anim/runtime/compressed_clip_set.h"

#include <algorithm>

#include "anim/runtime/compressed_sampling_job.h"

namespace rig {

void CompressedClipSet::index(const std::vector<Clip>& plain, size_t nodes) {
    skeletonSize = nodes;
    present.resize(clips.size(), 0);
    stats.resize(clips.size());
    restOffset.assign(clips.size() + 1, 0);
    restNodes.clear();
    maxTracks = 0;
    std::vector<uint8_t> written(nodes);
    for (size_t c = 0; c < clips.size(); ++c) {
        if (present[c]) {
            std::fill(written.begin(), written.end(), uint8_t{0});
            for (const CompressedTrack& t : clips[c].tracks) {
                if (t.node >= nodes) present[c] = 0;
                else written[t.node] = 1;
            }
        }
        if (present[c] && c < plain.size()) {
            for (const Track& t : plain[c].tracks) {
                if (t.node >= 0 && static_cast<size_t>(t.node) < nodes && !written[t.node]) {
                    restNodes.push_back(static_cast<uint32_t>(t.node));
                    written[t.node] = 1;
                }
            }
            maxTracks = std::max(maxTracks, clips[c].tracks.size());
        }
        restOffset[c + 1] = static_cast<uint32_t>(restNodes.size());
    }
}

size_t CompressedClipSet::byteSize() const {
    size_t n = 0;
    for (size_t c = 0; c < clips.size(); ++c) n += present[c] ? clips[c].byteSize() : 0;
    return n;
}

size_t CompressedClipSet::plainByteSize() const {
    size_t n = 0;
    for (size_t c = 0; c < stats.size(); ++c) n += present[c] ? stats[c].plainBytes : 0;
    return n;
}

double CompressedClipSet::maxError() const {
    double e = 0.0;
    for (size_t c = 0; c < stats.size(); ++c) e = present[c] ? std::max(e, stats[c].maxError) : e;
    return e;
}

namespace {

// The nodes clip c animates but its compressed tracks leave alone, at their bind values.
void restoreRestNodes(const CompressedClipSet& set, int32_t c, const Transform* bind, Transform* local) {
    for (uint32_t k = set.restOffset[c], e = set.restOffset[c + 1]; k < e; ++k) local[set.restNodes[k]] = bind[set.restNodes[k]];
}

}  // namespace

void CompressedSampler::reset(const CompressedClipSet* set, size_t slots) {
    set_ = set;
    const size_t n = set ? std::max<size_t>(slots, 1) : 0;
    caches_.assign(n, CompressedSamplingCache{});
    for (CompressedSamplingCache& c : caches_) c.reserve(set->maxTracks);
    clipOf_.assign(n, -1);
    lastUse_.assign(n, 0);
    uses_ = 0;
}

bool CompressedSampler::sample(int32_t clip, float t, std::span<const Transform> bindLocal, std::span<Transform> local,
                               RotationBlend blend) {
    const CompressedClip* c = set_ ? set_->clip(clip) : nullptr;
    if (!c || local.size() != set_->skeletonSize || bindLocal.size() != local.size()) return false;
    size_t slot = 0;
    for (size_t s = 0; s < clipOf_.size(); ++s) {
        if (clipOf_[s] == clip) {
            slot = s;
            break;
        }
        if (lastUse_[s] < lastUse_[slot]) slot = s;
    }
    clipOf_[slot] = clip;
    lastUse_[slot] = ++uses_;
    restoreRestNodes(*set_, clip, bindLocal.data(), local.data());
    CompressedSamplingJob job;
    job.clip = c;
    job.time = t;
    job.blend = blend;
    job.bindLocal = bindLocal;
    job.cache = &caches_[slot];
    job.local = local;
    return job.run();
}

size_t CompressedSampler::byteSize() const {
    size_t n = 0;
    for (const CompressedSamplingCache& c : caches_) n += c.byteSize();
    return n;
}

bool sampleCompressedWithCursors(const CompressedClipSet& set, int32_t clip, float t, std::span<const Transform> bindLocal,
                                 std::span<Transform> local, std::span<uint32_t> cursors, RotationBlend blend) {
    const CompressedClip* c = set.clip(clip);
    if (!c || local.size() != set.skeletonSize || bindLocal.size() != local.size() || cursors.size() < 3 * c->tracks.size()) {
        return false;
    }
    restoreRestNodes(set, clip, bindLocal.data(), local.data());
    sampleCompressedClip(*c, t, bindLocal.data(), local.data(), cursors.data(), blend);
    return true;
}

}  // namespace rig
