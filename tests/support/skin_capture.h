// SkinCapture: reads back what the skinning vertex shader computes, with transform feedback
// (rasterizer off). The GPU path's world-space positions, for comparison with the CPU
// reference (anim/runtime/skinning.h).
#pragma once

#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/result.h"
#include "render/gl_state.h"
#include "render/gpu_model.h"
#include "render/shader.h"

namespace rig {

class SkinCapture {
public:
    static Result<std::unique_ptr<SkinCapture>> create();
    ~SkinCapture();
    SkinCapture(const SkinCapture&) = delete;
    SkinCapture& operator=(const SkinCapture&) = delete;

    // World-space positions of mesh `mesh` as shaders/skinned.vert computes them for the
    // pose in `anim`, morph targets included (uploads the palette and weights first), blending
    // `influences` (4, or 8 where the mesh has a second set) as the renderer does.
    std::vector<glm::vec3> capture(GpuModel& gpu, const Animator& anim, size_t mesh,
                                   SkinningMethod method = SkinningMethod::Linear, int influences = kMaxInfluences);

private:
    SkinCapture() = default;
    Program program_;
    GLint uMorphDeltas_ = -1, uMorphWeights_ = -1, uMorphBase_ = -1, uMorphCount_ = -1, uMorphWeightOffset_ = -1;
    GLint uDualQuats_ = -1, uPalette_ = -1, uOffset_ = -1, uSkinned_ = -1, uModel_ = -1, uViewProj_ = -1,
          uInfluences8_ = -1;
    GLuint buffer_ = 0;
    CaptureTarget target_;
    size_t capacity_ = 0;
};

}  // namespace rig
