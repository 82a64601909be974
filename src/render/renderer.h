// Renderer: draws a posed model with the chosen skinning path, lighting and overlays (grid,
// axes, bounding box, skeleton on top). Used by the viewer window and by headless render.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/result.h"
#include "render/camera.h"
#include "render/gpu_model.h"
#include "render/pbr_shading.h"
#include "render/shader.h"
#include "render/view_options.h"

namespace rig {

class EnvironmentLoad;

struct LineVertex {
    glm::vec3 position;
    glm::vec4 color;
};

class Renderer {
public:
    // Needs a current GL 3.3 core context.
    static Result<std::unique_ptr<Renderer>> create();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Draw one frame into the bound framebuffer (viewport width x height). `bounds`, if
    // given, is drawn as a box (ViewOptions::bounds) and sizes the grid and the ground shadow.
    // The meshes are shaded by shaders/pbr.frag, lit by the environment opts.environment names
    // (empty: defaultEnvironmentPath()), loaded on the first draw that names it and kept.
    void draw(GpuModel& gpu, const Animator& anim, const OrbitCamera& camera, const ViewOptions& opts, int width,
              int height, const Bounds* bounds = nullptr);

    // Why the environment the last draw asked for did not load ("studio.hdr: ..."), one line;
    // empty when it did. The previous environment (or, with none, a grey sky) stays in use.
    const std::string& environmentError() const { return environmentError_; }
    // The environment in use, or nullptr.
    const Environment* environment() const { return environment_.get(); }
    // 0 (the default): an environment is loaded whole by the first draw that names it (render,
    // thumbnails: the image needs it). Above 0 (the viewer): it is loaded a piece at a time
    // (EnvironmentLoad), at most about `ms` milliseconds of each draw, the meshes lit meanwhile by
    // the environment in use before (with none yet, by the key and ambient lights alone).
    void setEnvironmentBudget(double ms) { environmentBudgetMs_ = ms; }
    // The environment being loaded a piece at a time, or nullptr: its path, how far it is.
    const EnvironmentLoad* environmentLoading() const { return loading_.get(); }
    // Finish that load now, whatever the budget.
    void finishEnvironment();
    // Load the environment `opts` names if it is not the one asked for last (draw() does this
    // itself); the one in use after, for other drawers (CrowdRenderer::draw).
    const Environment* prepareEnvironment(const ViewOptions& opts) {
        useEnvironment(opts);
        return environment_.get();
    }

    // Where the meshes' colour comes from in the shader (u_colorSource in shaders/pbr.frag).
    enum class ColorSource {
        Material = 0,     // material colour x texture x vertex colour (the file's look)
        VertexOnly = 1,   // the vertex colours alone: a colour view's colours as painted
        TintOnly = 2,     // white: ghosts show their tint alone
    };
    // draw() colours the meshes from `source` (Material until told otherwise).
    void setColorSource(ColorSource source) { colorSource_ = source; }
    // On (the default), each mesh is drawn by a program specialized for its material and the
    // view options (PbrShading::variantKey); off, by the generic one. Both draw the same
    // picture (tests compare them); the specialized ones cost far less under llvmpipe.
    void setSpecializedPrograms(bool on) { specialize_ = on; }

    // Draw the meshes again, posed by `anim`, in `tint` alone (its alpha sets the opacity):
    // the bind-pose ghost and onion skins. Call after draw().
    void drawGhost(GpuModel& gpu, const Animator& anim, const OrbitCamera& camera, const ViewOptions& opts, int width,
                   int height, const glm::vec4& tint);

    // Outline meshes `meshes` (indices into the model's) as `anim` poses them: a band `px`
    // pixels wide around their silhouette in `color`, over everything (seen through what hides
    // them): the silhouette is marked in the stencil, then drawn again shifted by `px` in eight
    // directions where it is not. The framebuffer needs a stencil buffer.
    void drawOutline(GpuModel& gpu, const Animator& anim, const OrbitCamera& camera, const ViewOptions& opts, int width,
                     int height, const std::vector<size_t>& meshes, const glm::vec4& color, float px);

    // A world-space polyline on top (the root's path).
    void drawPath(const std::vector<glm::vec3>& points, const glm::vec4& color, const OrbitCamera& camera, int width,
                  int height);

    // World-space points on top of everything (depth test off: seen through the mesh), e.g.
    // the vertices a colour view flags.
    void drawPoints(const std::vector<glm::vec3>& points, const glm::vec4& color, const OrbitCamera& camera, int width,
                    int height, float pixelSize);

    // World-space joint positions of the last draw, for joint names and picking.
    const std::vector<glm::vec3>& jointPositions() const { return jointPositions_; }

private:
    Renderer() = default;
    void drawLines(const glm::mat4& viewProj, GLenum mode, float pointSize);
    // `only`: when given, the meshes drawn (by index); else all.
    void drawMeshes(GpuModel& gpu, const Animator& anim, const glm::mat4& viewProj, const OrbitCamera& cam,
                    const ViewOptions& o, const glm::vec4& tint, ColorSource source,
                    const std::vector<bool>* only = nullptr);
    void uploadPose(GpuModel& gpu, const Animator& anim, const ViewOptions& o);  // palette or CPU-skinned vertices
    // A program that shades meshes: pbr.frag generic, or specialized (PbrShading::variantKey).
    struct MeshProgram {
        Program program;
        PbrShading pbr;
        struct {
            GLint palette, paletteOffset, skinned, model, viewProj, dualQuats, morphDeltas, morphWeights, morphBase,
                morphCount, morphWeightOffset, influences8;
        } u{};
    };
    static Result<std::unique_ptr<MeshProgram>> buildMeshProgram(const std::string& defines);
    // The program of a variant key, built at its first use (the generic one if it does not build).
    const MeshProgram& meshProgram(uint32_t key);
    void drawMesh(const MeshProgram& p, GpuModel& gpu, const Animator& anim, size_t i, bool gpuSkin, const ViewOptions& o);
    void useEnvironment(const ViewOptions& o);
    void drawGroundShadow(const OrbitCamera& cam, const glm::mat4& viewProj, const Bounds& bounds);

    std::unique_ptr<MeshProgram> generic_;  // built at create: every shader checked at start-up
    std::unordered_map<uint32_t, std::unique_ptr<MeshProgram>> variants_;
    bool specialize_ = true;
    Program lines_;
    std::unique_ptr<Environment> environment_;
    std::unique_ptr<EnvironmentLoad> loading_;
    double environmentBudgetMs_ = 0.0;
    std::string environmentAsked_;   // the path the last draw asked for
    std::string environmentError_;
    ColorSource colorSource_ = ColorSource::Material;
    GLint uLinesViewProj_ = -1, uLinesPointSize_ = -1;
    GLuint lineVao_ = 0, lineVbo_ = 0;
    size_t lineCapacity_ = 0;
    std::vector<LineVertex> lineScratch_;
    std::vector<glm::vec3> jointPositions_;
};

// The vertex shader's u_skinned value for a skinning method (shaders/skinned.vert).
int shaderSkinMode(SkinningMethod m);

// Axis-aligned bounds of the model posed at `samples` times spread over `clip` (or the bind
// pose when clip < 0), from CPU-skinned vertices and joint positions. Deterministic. At most
// 2M vertex poses in all: beyond, every k-th vertex of each mesh (and every joint) is posed.
Bounds animatedBounds(const Model& model, int32_t clip, int samples = 24);
// The points of the pose `anim` holds now, appended to `out`: the posed vertices (every k-th
// beyond `maxPoints`), or the joints of a model with no mesh. For tight framing.
void posedPoints(const Model& model, const Animator& anim, std::vector<glm::vec3>& out, size_t maxPoints = 60000);

}  // namespace rig
