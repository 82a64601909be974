#include "render/environment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "import/images/hdr_image.h"
#include "platform/import_worker.h"
#include "render/dfg_lut.h"
#include "render/environment_cache.h"
#include "render/shader_sources.h"
#include "util/data_folder.h"

namespace rig {

namespace {

// three's PMREMGenerator constants (r187).
constexpr int kMinCubeSize = 256;      // smaller inputs are upsampled
constexpr int kLodMin = 3;             // log2 of the roughest level's face size
constexpr int kGgxSamples = 256;       // VNDF samples of the sharp levels
constexpr int kIntegrationSize = 16;   // source mip face size integrated for the rough levels
constexpr int kIntegrationLevels = 3;  // the roughest levels that integrate

// The GL cube map convention: for face f, columns = direction of +s, of +t, and the face's axis
// (a texel at s, t in [-1, 1] looks along axis + s * right + t * up).
glm::mat3 faceBasis(int face) {
    using glm::vec3;
    switch (face) {
    case 0: return glm::mat3(vec3(0, 0, -1), vec3(0, -1, 0), vec3(1, 0, 0));   // +X
    case 1: return glm::mat3(vec3(0, 0, 1), vec3(0, -1, 0), vec3(-1, 0, 0));   // -X
    case 2: return glm::mat3(vec3(1, 0, 0), vec3(0, 0, 1), vec3(0, 1, 0));     // +Y
    case 3: return glm::mat3(vec3(1, 0, 0), vec3(0, 0, -1), vec3(0, -1, 0));   // -Y
    case 4: return glm::mat3(vec3(1, 0, 0), vec3(0, -1, 0), vec3(0, 0, 1));    // +Z
    default: return glm::mat3(vec3(-1, 0, 0), vec3(0, -1, 0), vec3(0, 0, -1)); // -Z
    }
}

double roughnessOfLevel(int lod, int maxLod) { return maxLod > 0 ? 1.0 - std::sqrt(1.0 - double(lod) / maxLod) : 0.0; }

int floorPowerOfTwo(double v) {
    if (v < 1.0) return 0;
    return 1 << static_cast<int>(std::floor(std::log2(v)));
}

// A half-float RGBA cube with levels 0..lastLevel, trilinear, clamped.
GLuint makeCube(int size, int lastLevel) {
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_CUBE_MAP, tex);
    for (int level = 0; level <= lastLevel; ++level) {
        const int s = std::max(1, size >> level);
        for (int face = 0; face < 6; ++face) {
            glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, level, GL_RGBA16F, s, s, 0, GL_RGBA, GL_HALF_FLOAT, nullptr);
        }
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAX_LEVEL, lastLevel);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R}) {
        glTexParameteri(GL_TEXTURE_CUBE_MAP, wrap, GL_CLAMP_TO_EDGE);
    }
    return tex;
}

// The GL state load() changes, put back when it ends.
struct SavedState {
    GLint drawFbo = 0, readFbo = 0, program = 0, vao = 0, activeTexture = 0, tex2d = 0, texCube = 0;
    GLint viewport[4] = {}, scissorBox[4] = {};
    GLboolean depth = GL_FALSE, blend = GL_FALSE, cull = GL_FALSE, scissor = GL_FALSE;
    SavedState() {
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawFbo);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &readFbo);
        glGetIntegerv(GL_CURRENT_PROGRAM, &program);
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
        glGetIntegerv(GL_ACTIVE_TEXTURE, &activeTexture);
        glActiveTexture(GL_TEXTURE0);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &tex2d);
        glGetIntegerv(GL_TEXTURE_BINDING_CUBE_MAP, &texCube);
        glGetIntegerv(GL_VIEWPORT, viewport);
        glGetIntegerv(GL_SCISSOR_BOX, scissorBox);
        depth = glIsEnabled(GL_DEPTH_TEST);
        blend = glIsEnabled(GL_BLEND);
        cull = glIsEnabled(GL_CULL_FACE);
        scissor = glIsEnabled(GL_SCISSOR_TEST);
    }
    ~SavedState() {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(drawFbo));
        glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(readFbo));
        glUseProgram(static_cast<GLuint>(program));
        glBindVertexArray(static_cast<GLuint>(vao));
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(tex2d));
        glBindTexture(GL_TEXTURE_CUBE_MAP, static_cast<GLuint>(texCube));
        glActiveTexture(static_cast<GLenum>(activeTexture));
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        glScissor(scissorBox[0], scissorBox[1], scissorBox[2], scissorBox[3]);
        auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
        set(GL_DEPTH_TEST, depth);
        set(GL_BLEND, blend);
        set(GL_CULL_FACE, cull);
        set(GL_SCISSOR_TEST, scissor);
    }
};

// What decides the prefiltered levels besides the image: the prefilter's shaders and constants
// (the cache key's part that changes when the prefilter does).
std::string prefilterId() {
    std::string id = std::to_string(kMinCubeSize) + "/" + std::to_string(kLodMin) + "/" + std::to_string(kGgxSamples) +
                     "/" + std::to_string(kIntegrationSize) + "/" + std::to_string(kIntegrationLevels) + "/" +
                     std::to_string(kDfgLutSize);
    for (const char* name : {"env_face.vert", "env_equirect.frag", "env_ggx.frag", "env_integrate.frag"}) {
        if (const char* src = shaderSource(name)) id += src;
    }
    return id;
}

// The DFG table as a 16x16 RG16F texture (x roughness, y N.V), linear, clamped.
GLuint makeDfgTexture(const std::vector<float>& lut) {
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG16F, kDfgLutSize, kDfgLutSize, 0, GL_RG, GL_FLOAT, lut.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return tex;
}

// Copy the cube's levels between GL and `texels` (PrefilteredLevels' order).
void transferLevels(GLuint cube, int size, int maxLod, std::vector<uint16_t>& texels, bool upload) {
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    size_t at = 0;
    for (int level = 0; level <= maxLod; ++level) {
        const int s = std::max(1, size >> level);
        for (int face = 0; face < 6; ++face) {
            const GLenum target = GL_TEXTURE_CUBE_MAP_POSITIVE_X + face;
            if (upload) {
                glTexSubImage2D(target, level, 0, 0, s, s, GL_RGBA, GL_HALF_FLOAT, texels.data() + at);
            } else {
                glGetTexImage(target, level, GL_RGBA, GL_HALF_FLOAT, texels.data() + at);
            }
            at += size_t(s) * s * 4;
        }
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
}

}  // namespace

int Environment::cubeSizeFor(int width) {
    while (width > kMaxEquirectWidth) width = (width + 1) / 2;
    return std::max(kMinCubeSize, floorPowerOfTwo(width / 4.0));
}

namespace {

// What the decode thread hands over: the map at the size it is prefiltered at, and the levels
// when the cache had them.
struct Decoded {
    Result<HdrImage> image = Error{""};
    int size = 0, maxLod = 0;
    std::string cachePath;
    bool cached = false;
    PrefilteredLevels levels;
};

Decoded decode(const std::string& hdrPath) {
    Decoded d;
    // A user's map is untrusted: decoded in the sandboxed worker. rigview's own (the data
    // folder's studio.hdr) is decoded here.
    const bool own = !dataFolder().empty() && hdrPath == dataFile("env/studio.hdr");
    d.image = own ? readHdrImage(hdrPath) : decodeEnvironmentIsolated(hdrPath);
    if (!d.image) return d;
    HdrImage& hdr = d.image.value();
    while (hdr.width > Environment::kMaxEquirectWidth) hdr = halveHdrImage(hdr);
    d.size = Environment::cubeSizeFor(hdr.width);
    d.maxLod = static_cast<int>(std::log2(d.size)) - kLodMin;
    // Prefiltered before: the levels and the DFG table from the cache (render/environment_cache.h).
    const std::string id = prefilterId();
    d.cachePath = environmentCachePath(hdr.width, hdr.height, hdr.rgbaHalf, id);
    d.cached = readPrefilteredLevels(d.cachePath, d.size, d.maxLod, d.levels) ||
               readPrefilteredLevels(shippedEnvironmentCachePath(hdr.width, hdr.height, hdr.rgbaHalf, id), d.size, d.maxLod,
                                     d.levels);
    return d;
}

// The most pixels times samples one piece of a pass draws: a band of rows of a face holds at
// most this much work (about 30 ms under llvmpipe on one core).
constexpr double kPieceWork = 1 << 21;

}  // namespace

// One pass over one face of one level of a cube, limited to rows [y0, y1).
struct EnvironmentPiece {
    enum Kind { Equirect, Mipmaps, Ggx, Integrate, Finish } kind;
    int level = 0, face = 0, y0 = 0, y1 = 0;
    double work = 1.0;
};

struct EnvironmentLoad::State {
    std::string path;
    std::future<Decoded> decoding;
    Decoded decoded;
    bool started = false;  // the decode's result taken and the GL objects made
    bool finished = false;
    Error error{""};
    std::unique_ptr<Environment> env;
    std::vector<EnvironmentPiece> pieces;
    size_t next = 0;
    double workDone = 0.0, workTotal = 0.0;
    std::unique_ptr<Program> equirectProg, ggxProg, integrateProg;
    GLuint equirect = 0, source = 0, fbo = 0;

    void fail(const std::string& message) {
        error = Error{message};
        finished = true;
        env.reset();
        freeScratch();
    }
    void freeScratch() {
        if (fbo) glDeleteFramebuffers(1, &fbo);
        if (source) glDeleteTextures(1, &source);
        if (equirect) glDeleteTextures(1, &equirect);
        fbo = source = equirect = 0;
        equirectProg.reset();
        ggxProg.reset();
        integrateProg.reset();
    }
    void start();
    void run(const EnvironmentPiece& piece);
};

void EnvironmentLoad::State::start() {
    started = true;
    decoded = decoding.get();
    if (!decoded.image) return fail(decoded.image.error().message);
    auto background = Program::build({"background.vert", "background.frag", "tonemap.frag"});
    if (!background) return fail(path + ": " + background.error().message);
    env.reset(new Environment());
    env->path_ = path;
    env->background_ = std::move(background.value());
    env->backgroundProgram_ = env->background_.id();
    const Program& bg = env->background_;
    env->uInvViewProj_ = bg.uniform("u_invViewProj");
    env->uRotation_ = bg.uniform("u_rotation");
    env->uRadiance_ = bg.uniform("u_radiance");
    env->uLod_ = bg.uniform("u_lod");
    env->uToneMapping_ = bg.uniform("u_toneMapping");
    env->uExposure_ = bg.uniform("u_exposure");
    const int size = decoded.size, maxLod = decoded.maxLod;
    env->size_ = size;
    env->maxLod_ = maxLod;

    SavedState saved;
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    glGenVertexArrays(1, &env->backgroundVao_);
    glActiveTexture(GL_TEXTURE0);
    env->cube_ = makeCube(size, maxLod);
    if (decoded.cached) {
        transferLevels(env->cube_, size, maxLod, decoded.levels.texels, true);
        env->dfg_ = makeDfgTexture(decoded.levels.dfg);
        env->fromCache_ = true;
        decoded.levels = {};
        finished = true;
        return;
    }
    // The prefilter's programs (three's PMREMGenerator passes).
    for (auto [prog, frag] : {std::pair{&equirectProg, "env_equirect.frag"}, std::pair{&ggxProg, "env_ggx.frag"},
                              std::pair{&integrateProg, "env_integrate.frag"}}) {
        auto built = Program::build({"env_face.vert", frag});
        if (!built) return fail(path + ": " + built.error().message);
        *prog = std::make_unique<Program>(std::move(built.value()));
    }
    // The equirect as three uploads it: RGBA half floats, linear, no mipmaps, clamped.
    const HdrImage& hdr = decoded.image.value();
    glGenTextures(1, &equirect);
    glBindTexture(GL_TEXTURE_2D, equirect);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, hdr.width, hdr.height, 0, GL_RGBA, GL_HALF_FLOAT, hdr.rgbaHalf.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &fbo);
    // The source: the equirect drawn into a cube, then its full mip chain.
    source = makeCube(size, static_cast<int>(std::log2(size)));

    // The pieces, in order, each weighed by its pixels times its samples.
    auto add = [&](EnvironmentPiece::Kind kind, int level, double samples) {
        const int s = std::max(1, size >> level);
        const int rows = std::clamp(static_cast<int>(kPieceWork / (double(s) * samples)), 1, s);
        for (int face = 0; face < 6; ++face) {
            for (int y = 0; y < s; y += rows) {
                pieces.push_back({kind, level, face, y, std::min(s, y + rows), double(s) * (std::min(s, y + rows) - y) * samples});
            }
        }
    };
    add(EnvironmentPiece::Equirect, 0, 1.0);
    pieces.push_back({EnvironmentPiece::Mipmaps, 0, 0, 0, 0, double(size) * size * 2.0});
    for (int lod = 0; lod <= maxLod; ++lod) {
        if (lod > maxLod - kIntegrationLevels) {
            add(EnvironmentPiece::Integrate, lod, 6.0 * kIntegrationSize * kIntegrationSize);
        } else {
            add(EnvironmentPiece::Ggx, lod, roughnessOfLevel(lod, maxLod) > 0.0 ? double(kGgxSamples) : 1.0);
        }
    }
    pieces.push_back({EnvironmentPiece::Finish, 0, 0, 0, 0, double(size) * size * 6.0});
    for (const EnvironmentPiece& p : pieces) workTotal += p.work;
}

void EnvironmentLoad::State::run(const EnvironmentPiece& piece) {
    SavedState saved;
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    glBindVertexArray(env->backgroundVao_);
    glActiveTexture(GL_TEXTURE0);
    const int size = decoded.size, maxLod = decoded.maxLod;
    auto drawFace = [&](GLuint target, const Program& p) {
        const int s = std::max(1, size >> piece.level);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, s, s);
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, piece.y0, s, piece.y1 - piece.y0);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_POSITIVE_X + piece.face, target,
                               piece.level);
        const glm::mat3 basis = faceBasis(piece.face);
        glUniformMatrix3fv(p.uniform("u_face"), 1, GL_FALSE, glm::value_ptr(basis));
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    };
    const double roughness = roughnessOfLevel(piece.level, maxLod);
    switch (piece.kind) {
    case EnvironmentPiece::Equirect:
        glBindTexture(GL_TEXTURE_CUBE_MAP, 0);  // not bound while it is drawn into
        glUseProgram(equirectProg->id());
        glUniform1i(equirectProg->uniform("u_equirect"), 0);
        glBindTexture(GL_TEXTURE_2D, equirect);
        drawFace(source, *equirectProg);
        break;
    case EnvironmentPiece::Mipmaps:
        glBindTexture(GL_TEXTURE_CUBE_MAP, source);
        glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
        break;
    case EnvironmentPiece::Integrate: {
        const Program& p = *integrateProg;
        glBindTexture(GL_TEXTURE_CUBE_MAP, source);  // sampled; only cube_ is drawn into
        glUseProgram(p.id());
        glUniform1i(p.uniform("u_source"), 0);
        glUniform1f(p.uniform("u_roughness"), static_cast<float>(roughness));
        glUniform1f(p.uniform("u_sourceLod"), static_cast<float>(std::log2(double(size) / kIntegrationSize)));
        glUniform1i(p.uniform("u_sourceSize"), kIntegrationSize);
        drawFace(env->cube_, p);
        break;
    }
    case EnvironmentPiece::Ggx: {
        // For V = N the sample density is D(H) / 4: the source texel whose solid angle
        // matches 1 / (samples * pdf), half a mip coarser against noise; the shader
        // adds log2 of the sample's D denominator.
        const double bias = roughness > 0.0 ? std::log2(double(size)) +
                                                  0.5 * std::log2(6.0 / (kGgxSamples * std::pow(roughness, 4.0))) + 0.5
                                            : 0.0;
        const Program& p = *ggxProg;
        glBindTexture(GL_TEXTURE_CUBE_MAP, source);
        glUseProgram(p.id());
        glUniform1i(p.uniform("u_source"), 0);
        glUniform1f(p.uniform("u_roughness"), static_cast<float>(roughness));
        glUniform1f(p.uniform("u_lodBias"), static_cast<float>(bias));
        glUniform1i(p.uniform("u_samples"), kGgxSamples);
        drawFace(env->cube_, p);
        break;
    }
    case EnvironmentPiece::Finish: {
        // The DFG table.
        const std::vector<float>& lut = dfgLutTable();
        env->dfg_ = makeDfgTexture(lut);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        // Kept for the next load (a failure to write only means computing again next time).
        if (!decoded.cachePath.empty() && glGetError() == GL_NO_ERROR) {
            PrefilteredLevels levels;
            levels.size = size;
            levels.maxLod = maxLod;
            levels.dfg = lut;
            levels.texels.resize(prefilteredTexelCount(size, maxLod));
            transferLevels(env->cube_, size, maxLod, levels.texels, false);
            writePrefilteredLevels(decoded.cachePath, levels);
        }
        freeScratch();
        finished = true;
        break;
    }
    }
}

EnvironmentLoad::EnvironmentLoad(std::string hdrPath) : s_(std::make_unique<State>()) {
    s_->path = std::move(hdrPath);
    s_->decoding = std::async(std::launch::async, decode, s_->path);
}

EnvironmentLoad::~EnvironmentLoad() {
    if (s_->decoding.valid()) s_->decoding.wait();
    s_->freeScratch();
}

bool EnvironmentLoad::advance(double budgetMs) {
    State& s = *s_;
    const auto start = std::chrono::steady_clock::now();
    auto elapsedMs = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(); };
    if (!s.started) {
        // An unbounded budget (Environment::load) waits for the decode; a bounded one comes back.
        if (budgetMs == std::numeric_limits<double>::infinity()) s.decoding.wait();
        if (s.decoding.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
        s.start();
    }
    while (!s.finished && s.next < s.pieces.size()) {
        const EnvironmentPiece& piece = s.pieces[s.next++];
        s.run(piece);
        glFinish();
        s.workDone += piece.work;
        if (glGetError() == GL_OUT_OF_MEMORY) {
            s.fail(s.path + ": out of GPU memory for a " + std::to_string(s.decoded.size) + " cube");
        }
        if (elapsedMs() >= budgetMs) break;
    }
    return s.finished;
}

bool EnvironmentLoad::done() const { return s_->finished; }

float EnvironmentLoad::fraction() const {
    if (s_->finished) return 1.0f;
    return s_->workTotal > 0.0 ? static_cast<float>(s_->workDone / s_->workTotal) : 0.0f;
}

bool EnvironmentLoad::prefiltering() const { return !s_->finished && !s_->pieces.empty(); }

const std::string& EnvironmentLoad::path() const { return s_->path; }

Result<std::unique_ptr<Environment>> EnvironmentLoad::take() {
    if (!s_->finished) return Error{s_->path + ": not loaded yet"};
    if (!s_->env) return s_->error;
    return std::move(s_->env);
}

Result<std::unique_ptr<Environment>> Environment::load(const std::string& hdrPath) {
    const auto start = std::chrono::steady_clock::now();
    EnvironmentLoad load(hdrPath);
    load.advance(std::numeric_limits<double>::infinity());
    auto env = load.take();
    if (env) env.value()->loadMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return env;
}

Environment::~Environment() {
    if (cube_) glDeleteTextures(1, &cube_);
    if (dfg_) glDeleteTextures(1, &dfg_);
    if (backgroundVao_) glDeleteVertexArrays(1, &backgroundVao_);
}

float Environment::roughnessToLod(float roughness) const {
    const float r = std::clamp(roughness, 0.0f, 1.0f);
    return static_cast<float>(maxLod_) * r * (2.0f - r);
}

void Environment::drawBackground(const glm::mat4& invViewProj, float rotationDeg, float blur, int toneMapMode,
                                 float exposure) {
    GLint program = 0, vao = 0, activeTexture = 0, texCube = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &activeTexture);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_CUBE_MAP, &texCube);
    GLboolean depthMask = GL_TRUE;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &depthMask);
    const GLboolean depth = glIsEnabled(GL_DEPTH_TEST), blend = glIsEnabled(GL_BLEND), cull = glIsEnabled(GL_CULL_FACE);

    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    glUseProgram(background_.id());
    glUniformMatrix4fv(uInvViewProj_, 1, GL_FALSE, glm::value_ptr(invViewProj));
    const glm::mat3 rot = environmentLookupRotation(rotationDeg);
    glUniformMatrix3fv(uRotation_, 1, GL_FALSE, glm::value_ptr(rot));
    glUniform1i(uRadiance_, 0);
    glUniform1f(uLod_, roughnessToLod(blur));
    glUniform1i(uToneMapping_, toneMapMode);
    glUniform1f(uExposure_, exposure);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube_);
    glBindVertexArray(backgroundVao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

    glBindVertexArray(static_cast<GLuint>(vao));
    glBindTexture(GL_TEXTURE_CUBE_MAP, static_cast<GLuint>(texCube));
    glActiveTexture(static_cast<GLenum>(activeTexture));
    glUseProgram(static_cast<GLuint>(program));
    glDepthMask(depthMask);
    if (depth) glEnable(GL_DEPTH_TEST);
    if (blend) glEnable(GL_BLEND);
    if (cull) glEnable(GL_CULL_FACE);
}

glm::mat3 environmentLookupRotation(float rotationDeg) {
    const glm::mat4 r = glm::rotate(glm::mat4(1.0f), glm::radians(rotationDeg), glm::vec3(0.0f, 1.0f, 0.0f));
    return glm::transpose(glm::mat3(r));
}

std::string defaultEnvironmentPath() { return dataFile("env/studio.hdr"); }

}  // namespace rig
