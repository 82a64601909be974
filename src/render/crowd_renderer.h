// CrowdRenderer: draws a rig::Crowd (anim/control/crowd.h) with one instanced draw per mesh
// (glDrawElementsInstanced). Every instance's palette and mesh matrices go to the GPU in one
// texture buffer (the Crowd's gpuRows(), one upload per frame); a second texture buffer holds
// one texel per visible instance (its grid offset and crowd index), compacted each frame by
// per-instance frustum culling; shaders/skinned.vert indexes both by gl_InstanceID.
//
// Limits: linear blend and stitching only (dual-quaternion skinning falls back to linear
// blend: usedMethod() says which ran); morph targets are not applied to crowd instances;
// rows beyond GL_MAX_TEXTURE_BUFFER_SIZE are refused (fits()).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "anim/control/crowd.h"
#include "anim/runtime/result.h"
#include "render/camera.h"
#include "render/gl_state.h"
#include "render/gpu_model.h"
#include "render/pbr_shading.h"
#include "render/shader.h"
#include "render/view_options.h"

namespace rig {

// `n` placement offsets on a square grid (row-major, ceil(sqrt(n)) columns) `spacing` apart,
// centred on the origin, in the ground plane (XZ, or XY when zUp).
std::vector<glm::vec3> crowdGrid(size_t n, float spacing, bool zUp);
// The bounds of every instance: `instance` (one instance's animated bounds) at each offset.
Bounds crowdBounds(const Bounds& instance, const std::vector<glm::vec3>& offsets);
// Per-instance frustum culling: writes to `visible` the indices of the instances whose
// bounding sphere (around `instance` moved by offsets[i]) is not wholly outside one of the
// six clip planes of `viewProj`, in increasing order; returns how many. Allocates nothing.
size_t cullInstances(const glm::mat4& viewProj, const Bounds& instance, const glm::vec3* offsets, size_t n,
                     uint32_t* visible);

class CrowdRenderer {
public:
    // Needs a current GL 3.3 core context.
    static Result<std::unique_ptr<CrowdRenderer>> create();
    ~CrowdRenderer();
    CrowdRenderer(const CrowdRenderer&) = delete;
    CrowdRenderer& operator=(const CrowdRenderer&) = delete;

    // Whether the crowd's rows fit one texture buffer of this driver.
    bool fits(const Crowd& crowd) const;

    struct Stats {
        size_t drawn = 0, culled = 0;
        size_t lowDetail = 0;  // of the drawn, how many from the lighter model
    };
    // Clear (when `clear`), cull, upload the crowd's rows (crowd.update() first) and the
    // visible list, and draw each mesh once, instanced, into the
    // bound framebuffer. `instance`: one instance's animated bounds (for culling).
    // Allocates nothing once the buffers have grown to the crowd's size.
    // Shaded as Renderer shades one model (shaders/pbr.frag), lit by `env` (nullptr: a grey
    // sky; Renderer::prepareEnvironment gives the one the options name).
    // `lod`: a lighter version of gpu's model (anim/offline/mesh_lod.h: the same meshes, skins
    // and palette layout), drawn for the instances farther than `lodDistance` from the camera's
    // eye; nullptr: every instance from `gpu`.
    Stats draw(GpuModel& gpu, const Crowd& crowd, const std::vector<glm::vec3>& offsets, const Bounds& instance,
               const OrbitCamera& camera, const ViewOptions& opts, int width, int height, bool clear = true,
               const Environment* env = nullptr, GpuModel* lod = nullptr, float lodDistance = 0.0f);

    // Transform feedback through the same instanced path (no culling, rasterizer off): the
    // world-space positions of mesh `mesh` for each listed instance, instance-major
    // (instances.size() * vertexCount values).
    std::vector<glm::vec3> capture(GpuModel& gpu, const Crowd& crowd, const std::vector<glm::vec3>& offsets,
                                   const std::vector<uint32_t>& instances, size_t mesh);

    // The skinning method of the last draw (DualQuat asked for: Linear).
    SkinningMethod usedMethod() const { return usedMethod_; }
    // GPU time of an earlier draw (GL_TIME_ELAPSED query, read without waiting), ms; < 0
    // before one is available.
    double gpuDrawMs() const { return gpuMs_; }

private:
    struct Uniforms {
        GLint instanced = -1, crowd = -1, instances = -1, stride = -1, meshWorld = -1, paletteOffset = -1,
              skinned = -1, viewProj = -1, morphCount = -1, influences8 = -1;
        void lookUp(const Program& p);
    };
    CrowdRenderer() = default;
    void uploadRows(const Crowd& crowd);
    void uploadInstances(const uint32_t* list, size_t count, const glm::vec3* offsets);
    void bindCrowd(const Uniforms& u, const Crowd& crowd, const glm::mat4& viewProj);
    // The listed instances' offsets uploaded, then each of gpu's meshes drawn for them, instanced.
    void drawInstances(GpuModel& gpu, const Crowd& crowd, const uint32_t* list, size_t count, const glm::vec3* offsets,
                       const ViewOptions& o);

    Program shaded_, capture_;
    Uniforms su_, cu_;
    PbrShading pbr_;
    GLuint rowsBuffer_ = 0, rowsTex_ = 0, instBuffer_ = 0, instTex_ = 0, feedback_ = 0;
    CaptureTarget target_;  // for captures
    GLuint queries_[2] = {};
    bool queryPending_[2] = {};
    int queryNext_ = 0;
    double gpuMs_ = -1.0;
    size_t rowsCapacity_ = 0, instCapacity_ = 0, feedbackCapacity_ = 0, maxTexels_ = 0;
    std::vector<uint32_t> visible_;
    std::vector<float> instRows_;
    SkinningMethod usedMethod_ = SkinningMethod::Linear;
};

}  // namespace rig
