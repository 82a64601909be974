#include "anim/skeleton.h"

namespace rig {

int32_t Skeleton::find(const std::string& name) const {
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return static_cast<int32_t>(i);
    }
    return -1;
}

void Skeleton::computeBindModel() {
    bindModel.resize(size());
    for (size_t i = 0; i < size(); ++i) {
        bindModel[i] = parent[i] < 0 ? bindLocal[i] : mulAffine(bindModel[parent[i]], bindLocal[i]);
    }
}

glm::mat4 Skeleton::offsetFromBindPose(int32_t bone, int32_t meshNode) const {
    return glm::inverse(bindModel[bone]) * bindModel[meshNode];
}

}  // namespace rig
