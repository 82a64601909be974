#include "anim/jobs/compressed_sampling_job.h"

namespace rig {

bool CompressedSamplingJob::validate() const {
    if (!clip || !cache || local.size() != bindLocal.size() || cache->entries.size() < 3 * clip->tracks.size()) return false;
    const int32_t n = static_cast<int32_t>(local.size());
    for (const CompressedTrack& tr : clip->tracks) {
        if (tr.node < 0 || tr.node >= n) return false;
    }
    return true;
}

bool CompressedSamplingJob::run() const {
    if (!validate() || !cache->bind(*clip)) return false;
    sampleCompressedClip(*clip, time, bindLocal.data(), local.data(), cache->entries.data(), blend);
    return true;
}

}  // namespace rig
