#include "anim/runtime/skeleton.h"

#include "anim/runtime/local_to_model_job.h"

namespace rig {

int32_t Skeleton::find(const std::string& name) const {
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return static_cast<int32_t>(i);
    }
    return -1;
}

void Skeleton::computeBindModel() {
    bindModel.resize(size());
    LocalToModelJob job;
    job.parent = parent;
    job.bindLocal = bindLocal;
    job.model = bindModel;
    if (!job.run()) {
        // Not parents-first or bindLocal short (a skeleton being built): the plain loop,
        // guarded, so a bad skeleton never reads out of range.
        for (size_t i = 0; i < size(); ++i) {
            const glm::mat4 l = i < bindLocal.size() ? bindLocal[i] : glm::mat4(1.0f);
            const int32_t p = parent[i];
            bindModel[i] = p < 0 || p >= static_cast<int32_t>(i) ? l : mulAffine(bindModel[p], l);
        }
    }
}

glm::mat4 Skeleton::offsetFromBindPose(int32_t bone, int32_t meshNode) const {
    return glm::inverse(bindModel[bone]) * bindModel[meshNode];
}

}  // namespace rig
