#include "anim/runtime/sampling_job.h"

namespace rig {

bool SamplingJob::validate() const {
    if (!clip || local.size() != bindLocal.size()) return false;
    if (plan) {
        return plan->validFor(*clip) && plan->maxNode < static_cast<int64_t>(local.size()) && cursors.size() >= plan->runs.size();
    }
    if (cursors.size() < 3 * clip->tracks.size()) return false;
    const int32_t n = static_cast<int32_t>(local.size());
    for (const Track& tr : clip->tracks) {
        if (tr.node < 0 || tr.node >= n) return false;
    }
    return true;
}

bool SamplingJob::run() const {
    if (!validate()) return false;
    if (plan) {
        sampleClip(*plan, time, bindLocal.data(), local.data(), cursors.data(), blend);
    } else {
        sampleClip(*clip, time, bindLocal.data(), local.data(), cursors.data(), blend);
    }
    return true;
}

}  // namespace rig
