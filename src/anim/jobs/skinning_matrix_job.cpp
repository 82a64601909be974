#include "anim/jobs/skinning_matrix_job.h"

#include "anim/transform.h"

namespace rig {

bool SkinningMatrixJob::validate() const {
    const size_t nj = joints.size();
    if (inverseBind.size() != nj || palette.size() < nj) return false;
    const int32_t n = static_cast<int32_t>(model.size());
    for (size_t j = 0; j < nj; ++j) {
        if (joints[j] < 0 || joints[j] >= n) return false;
    }
    return true;
}

bool SkinningMatrixJob::run() const {
    if (!validate()) return false;
    const size_t nj = joints.size();
    const int32_t* jt = joints.data();
    const glm::mat4* m = model.data();
    const glm::mat4* ib = inverseBind.data();
    glm::mat4* out = palette.data();
    if (!correction) {
        for (size_t j = 0; j < nj; ++j) out[j] = mulAffine(m[jt[j]], ib[j]);
    } else {
        const glm::mat4 c = *correction;
        for (size_t j = 0; j < nj; ++j) out[j] = mulAffine(c, mulAffine(m[jt[j]], ib[j]));
    }
    return true;
}

}  // namespace rig
