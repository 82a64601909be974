#include "anim/runtime/compressed_sampling_job.h"

namespace rig {

bool CompressedSamplingJob::validate() const {
    if (!clip || !cache || local.size() != bindLocal.size() || cache->entries.size() < 3 * clip->tracks.size() ||
        cache->ranges.size() < clip->quatChannels.size()) {
        return false;
    }
    // Every node in range, and as many keyed and constant entries as the tracks' kinds walk over.
    size_t keyed[2] = {0, 0}, consts[2] = {0, 0}, coded = 0;
    for (const CompressedTrack& tr : clip->tracks) {
        if (tr.node >= local.size()) return false;
        for (int ch = 0; ch < 3; ++ch) {
            const ChannelKind k = tr.kind(ch);
            const int rot = ch == 1 ? 1 : 0;
            if (k == ChannelKind::Keyed) ++keyed[rot];
            else if (k == ChannelKind::Constant) ++consts[rot];
            else if (k == ChannelKind::CodedConstant && !rot) return false;
            else if (k == ChannelKind::CodedConstant) ++coded;
        }
    }
    if (keyed[0] != clip->vec3Channels.size() || keyed[1] != clip->quatChannels.size() ||
        consts[0] != clip->constVec3.size() || consts[1] != clip->constQuat.size() ||
        4 * coded != clip->constQuatCodes.size()) {
        return false;
    }
    return true;
}

bool CompressedSamplingJob::run() const {
    // A cache bound to this clip for poses of this size was validated when it was bound: the
    // clip is immutable, so the walk over its tracks is not repeated every tick.
    const bool checked = clip && cache && cache->clip == clip && cache->poseSize == local.size() &&
                         local.size() == bindLocal.size();
    if (!checked && !validate()) return false;
    if (!cache->bind(*clip)) return false;
    cache->poseSize = local.size();
    sampleCompressedClip(*clip, time, bindLocal.data(), local.data(), *cache, blend);
    return true;
}

}  // namespace rig
