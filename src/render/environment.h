// Environment: image-based lighting from an equirectangular Radiance .hdr, prefiltered at load
// the way three.js r187's PMREMGenerator does (docs/reference-renders.md, "What three does with
// the environment"), so rigview's shading matches the reference renderer: a radiance cube map
// whose mip levels hold GGX-prefiltered radiance, and the split-sum DFG lookup table.
// The .hdr is untrusted input like a model: read as a regular file within limits; a bad file
// gives one message naming it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/result.h"
#include "platform/gl.h"
#include "render/shader.h"

namespace rig {

class Environment {
public:
    // Needs a current GL 3.3 core context. Builds the PMREM on the GPU (render/environment.cpp:
    // the equirect into a max(256, floorPow2(W / 4)) cube, its mips, then the GGX levels) and
    // waits for it (glFinish), so the time it takes is the whole cost: an EnvironmentLoad run to
    // its end at once. Leaves GL_TEXTURE_CUBE_MAP_SEAMLESS enabled (as WebGL 2 always is);
    // restores the rest of the state it touches (framebuffer, viewport, program, texture unit 0,
    // VAO, depth, blend, cull, scissor).
    static Result<std::unique_ptr<Environment>> load(const std::string& hdrPath);
    // The widest equirectangular map prefiltered as it is: a wider one is halved (in float, a
    // box filter) until it fits, so a face of the cube is at most kMaxEquirectWidth / 4 = 512
    // pixels and prefiltering takes seconds, not minutes, whatever the map's size (up to
    // 8192x4096, hdr_image's limit).
    static constexpr int kMaxEquirectWidth = 2048;
    // The cube's face size for a map `width` wide, after that halving.
    static int cubeSizeFor(int width);
    ~Environment();
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;

    const std::string& path() const { return path_; }
    // GL_TEXTURE_CUBE_MAP, RGBA16F, levels 0..maxLod(); level i holds radiance prefiltered for
    // GGX roughness 1 - sqrt(1 - i / maxLod) (level 0: the mirror image). Trilinear filtering.
    GLuint radianceCube() const { return cube_; }
    int maxLod() const { return maxLod_; }
    // The face size of level 0 (256 for the studio env).
    int faceSize() const { return size_; }
    // The mip to sample for a roughness (three's roughnessToMip): maxLod * r * (2 - r), r in [0, 1].
    float roughnessToLod(float roughness) const;
    // Wall-clock milliseconds load() took (reading, decoding, GPU prefiltering, LUT).
    double loadMilliseconds() const { return loadMs_; }
    // Whether load() read the prefiltered levels from the cache (render/environment_cache.h)
    // instead of computing them.
    bool fromCache() const { return fromCache_; }
    // GL_TEXTURE_2D, RG16F, 16x16: the split-sum scale and bias, x roughness, y N.V (three's DFG LUT);
    // texel i holds (i + 0.5) / 16; three samples it at uv = (roughness, N.V), bilinear, clamped,
    // with no half-texel offset (render/dfg_lut.h).
    GLuint dfgLut() const { return dfg_; }
    // Draw the environment as the background (depth test off), seen through `invViewProj`,
    // rotated `rotationDeg` about +Y, at roughness `blur` (0 sharp .. 1), tone mapped and
    // sRGB-encoded like the meshes (shaders/tonemap.frag modes).
    void drawBackground(const glm::mat4& invViewProj, float rotationDeg, float blur, int toneMapMode,
                        float exposure);

private:
    friend class EnvironmentLoad;
    Environment() = default;
    std::string path_;
    GLuint cube_ = 0, dfg_ = 0;
    int maxLod_ = 0;
    GLuint backgroundProgram_ = 0, backgroundVao_ = 0;
    int size_ = 0;
    double loadMs_ = 0.0;
    bool fromCache_ = false;
    Program background_;
    GLint uInvViewProj_ = -1, uRotation_ = -1, uRadiance_ = -1, uLod_ = -1, uToneMapping_ = -1, uExposure_ = -1;
};

// One environment map's load, done a piece at a time so that a window keeps drawing meanwhile:
// the map is decoded on a thread (in the sandboxed worker for a user's map, as load() does),
// halved while too wide and looked up in the cache there; then, in the caller's GL context, the
// prefilter's passes run one piece at a time (one face of the equirect pass, one band of rows of
// one face of a prefiltered level), as many as fit the time each advance() is given.
// Environment::load runs the same pieces at once.
class EnvironmentLoad {
public:
    explicit EnvironmentLoad(std::string hdrPath);  // starts decoding; needs no GL context
    ~EnvironmentLoad();  // frees what it made for an environment not taken (GL current); waits for the decode
    EnvironmentLoad(const EnvironmentLoad&) = delete;
    EnvironmentLoad& operator=(const EnvironmentLoad&) = delete;

    // Runs pieces (the GL context current) until `budgetMs` milliseconds have passed, each piece
    // waited for (glFinish), at least one when one is ready; returns done(). An infinite budget
    // waits for the decode and runs every piece.
    bool advance(double budgetMs);
    bool done() const;
    // The share of the work done, 0..1 (the decode counts as none of it; each pass by its
    // pixels times its samples).
    float fraction() const;
    // Whether the levels are being computed (false while decoding, or when the cache had them).
    bool prefiltering() const;
    const std::string& path() const;
    // Once done(): the environment, or the one-line error naming the file.
    Result<std::unique_ptr<Environment>> take();

private:
    struct State;
    std::unique_ptr<State> s_;
};

// The matrix that turns a world direction into the direction to look up in the environment when
// the environment is rotated `rotationDeg` about +Y (features move by R_y(rotationDeg)): the
// transpose of R_y, as three's envMapRotation / backgroundRotation uniforms for an Euler
// rotation (0, rotationDeg, 0). The PBR shader multiplies its reflection and normal lookups by it.
glm::mat3 environmentLookupRotation(float rotationDeg);

// The bundled neutral studio environment: env/studio.hdr in rigview's data folder (made by
// tools/make_studio_env.py as assets/env/studio.hdr); "" when there is no data folder.
std::string defaultEnvironmentPath();

}  // namespace rig
