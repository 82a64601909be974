// STAND-IN for branch look-env's src/render/environment.cpp, so look-pbr can draw and test
// before that branch is merged. The lead drops this file when merging look-env (its
// implementation owns the Environment interface). Equirect -> 256^2 cube on the CPU, GGX
// levels by importance sampling on the GPU, DFG table on the CPU; no background program.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include <stb_image.h>

#include "render/environment.h"
#include "render/shader.h"

#ifndef RIGVIEW_SOURCE_DIR
#define RIGVIEW_SOURCE_DIR "."
#endif

namespace rig {

namespace {

constexpr int kFace = 256;
constexpr int kMaxLod = 5;

glm::vec3 faceDir(int face, float u, float v) {  // u, v in [-1, 1], GL cube map conventions
    switch (face) {
        case 0: return {1, -v, -u};
        case 1: return {-1, -v, u};
        case 2: return {u, 1, v};
        case 3: return {u, -1, -v};
        case 4: return {u, -v, 1};
        default: return {-u, -v, -1};
    }
}

const char* kVert = R"(#version 330 core
out vec2 v_p;
void main() { vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2) * 2.0 - 1.0; v_p = p; gl_Position = vec4(p, 0, 1); })";

const char* kFilter = R"(#version 330 core
in vec2 v_p;
uniform samplerCube u_src;
uniform int u_face;
uniform float u_roughness;
out vec4 o;
vec3 faceDir(int f, vec2 uv) {
    float u = uv.x, v = uv.y;
    if (f == 0) return vec3(1, -v, -u);
    if (f == 1) return vec3(-1, -v, u);
    if (f == 2) return vec3(u, 1, v);
    if (f == 3) return vec3(u, -1, -v);
    if (f == 4) return vec3(u, -v, 1);
    return vec3(-u, -v, -1);
}
float radicalInverse(uint b) {
    b = (b << 16u) | (b >> 16u);
    b = ((b & 0x55555555u) << 1u) | ((b & 0xAAAAAAAAu) >> 1u);
    b = ((b & 0x33333333u) << 2u) | ((b & 0xCCCCCCCCu) >> 2u);
    b = ((b & 0x0F0F0F0Fu) << 4u) | ((b & 0xF0F0F0F0u) >> 4u);
    b = ((b & 0x00FF00FFu) << 8u) | ((b & 0xFF00FF00u) >> 8u);
    return float(b) * 2.3283064365386963e-10;
}
void main() {
    vec3 n = normalize(faceDir(u_face, v_p));
    vec3 up = abs(n.y) < 0.999 ? vec3(0, 1, 0) : vec3(1, 0, 0);
    vec3 tx = normalize(cross(up, n)), ty = cross(n, tx);
    float a = u_roughness * u_roughness;
    vec3 sum = vec3(0.0);
    float wsum = 0.0;
    const uint N = 256u;
    for (uint i = 0u; i < N; ++i) {
        vec2 xi = vec2(float(i) / float(N), radicalInverse(i));
        float phi = 6.2831853 * xi.x;
        float cosT = sqrt((1.0 - xi.y) / (1.0 + (a * a - 1.0) * xi.y));
        float sinT = sqrt(1.0 - cosT * cosT);
        vec3 h = tx * (sinT * cos(phi)) + ty * (sinT * sin(phi)) + n * cosT;
        vec3 l = 2.0 * dot(n, h) * h - n;
        float nl = dot(n, l);
        if (nl <= 0.0) continue;
        float d = a * a / (3.14159265 * pow((a * a - 1.0) * cosT * cosT + 1.0, 2.0));
        float pdf = d / 4.0 + 1e-6;
        float saTexel = 4.0 * 3.14159265 / (6.0 * 256.0 * 256.0);
        float saSample = 1.0 / (float(N) * pdf);
        float lod = max(0.5 * log2(saSample / saTexel) + 1.0, 0.0);
        sum += textureLod(u_src, l, lod).rgb * nl;
        wsum += nl;
    }
    o = vec4(sum / max(wsum, 1e-6), 1.0);
})";

// Hammersley-sampled split-sum scale and bias at (roughness, N.V), as three's DFG table.
void dfgTable(std::vector<float>& out) {
    constexpr int kN = 16, kSamples = 1024;
    out.assign(kN * kN * 2, 0.0f);
    for (int j = 0; j < kN; ++j) {
        const float nv = std::max((j + 0.5f) / kN, 1e-3f);
        for (int i = 0; i < kN; ++i) {
            const float r = (i + 0.5f) / kN, a = r * r;
            const glm::vec3 v(std::sqrt(1.0f - nv * nv), 0.0f, nv);
            float A = 0, B = 0;
            for (int s = 0; s < kSamples; ++s) {
                uint32_t b = static_cast<uint32_t>(s);
                b = (b << 16u) | (b >> 16u);
                b = ((b & 0x55555555u) << 1u) | ((b & 0xAAAAAAAAu) >> 1u);
                b = ((b & 0x33333333u) << 2u) | ((b & 0xCCCCCCCCu) >> 2u);
                b = ((b & 0x0F0F0F0Fu) << 4u) | ((b & 0xF0F0F0F0u) >> 4u);
                b = ((b & 0x00FF00FFu) << 8u) | ((b & 0xFF00FF00u) >> 8u);
                const float x1 = static_cast<float>(s) / kSamples, x2 = static_cast<float>(b) * 2.3283064365386963e-10f;
                const float phi = 6.2831853f * x1;
                const float cosT = std::sqrt((1.0f - x2) / (1.0f + (a * a - 1.0f) * x2));
                const float sinT = std::sqrt(1.0f - cosT * cosT);
                const glm::vec3 h(sinT * std::cos(phi), sinT * std::sin(phi), cosT);
                const glm::vec3 l = 2.0f * glm::dot(v, h) * h - v;
                const float nl = std::max(l.z, 0.0f), nh = std::max(h.z, 0.0f), vh = std::max(glm::dot(v, h), 0.0f);
                if (nl <= 0.0f) continue;
                const float k = a * a;
                const float gv = nl * std::sqrt(k + (1 - k) * nv * nv), gl = nv * std::sqrt(k + (1 - k) * nl * nl);
                const float vis = 0.5f / std::max(gv + gl, 1e-6f);
                const float gvis = vis * 4.0f * nl * vh / std::max(nh, 1e-6f);
                const float fc = std::pow(1.0f - vh, 5.0f);
                A += (1.0f - fc) * gvis;
                B += fc * gvis;
            }
            out[(j * kN + i) * 2] = A / kSamples;
            out[(j * kN + i) * 2 + 1] = B / kSamples;
        }
    }
}

}  // namespace

std::string defaultEnvironmentPath() {
    namespace fs = std::filesystem;
    const fs::path rel = fs::path("assets") / "env" / "studio.hdr";
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
            if (fs::exists(dir / rel, ec)) return (dir / rel).string();
            if (dir == dir.root_path()) break;
        }
    }
    return (fs::path(RIGVIEW_SOURCE_DIR) / rel).string();
}

Result<std::unique_ptr<Environment>> Environment::load(const std::string& hdrPath) {
    int w = 0, h = 0, c = 0;
    float* px = stbi_loadf(hdrPath.c_str(), &w, &h, &c, 3);
    if (!px) return Error{hdrPath + ": not a readable Radiance .hdr image"};
    std::unique_ptr<Environment> env(new Environment());
    env->path_ = hdrPath;
    env->maxLod_ = kMaxLod;
    auto sample = [&](const glm::vec3& d0) {
        const glm::vec3 d = glm::normalize(d0);
        const float u = std::atan2(d.z, d.x) / 6.2831853f + 0.5f;
        const float v = 0.5f - std::asin(std::clamp(d.y, -1.0f, 1.0f)) / 3.14159265f;
        const float fx = u * w - 0.5f, fy = std::clamp(v * h - 0.5f, 0.0f, static_cast<float>(h - 1));
        const int x0 = static_cast<int>(std::floor(fx)), y0 = static_cast<int>(std::floor(fy));
        const float tx = fx - x0, ty = fy - y0;
        glm::vec3 out(0.0f);
        for (int k = 0; k < 4; ++k) {
            const int x = ((x0 + (k & 1)) % w + w) % w, y = std::min(y0 + (k >> 1), h - 1);
            const float wt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
            const float* p = px + (static_cast<size_t>(y) * w + x) * 3;
            out += wt * glm::vec3(p[0], p[1], p[2]);
        }
        return out;
    };
    GLuint src = 0;
    glGenTextures(1, &src);
    glBindTexture(GL_TEXTURE_CUBE_MAP, src);
    std::vector<float> face(kFace * kFace * 3);
    for (int f = 0; f < 6; ++f) {
        for (int y = 0; y < kFace; ++y) {
            for (int x = 0; x < kFace; ++x) {
                const glm::vec3 c = sample(faceDir(f, (x + 0.5f) / kFace * 2 - 1, (y + 0.5f) / kFace * 2 - 1));
                std::copy(&c.x, &c.x + 3, &face[(static_cast<size_t>(y) * kFace + x) * 3]);
            }
        }
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA16F, kFace, kFace, 0, GL_RGB, GL_FLOAT, face.data());
    }
    stbi_image_free(px);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
    glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    // The output cube: level 0 a copy, levels 1..5 GGX-filtered from the source's mips.
    glGenTextures(1, &env->cube_);
    glBindTexture(GL_TEXTURE_CUBE_MAP, env->cube_);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAX_LEVEL, kMaxLod);
    for (int l = 0; l <= kMaxLod; ++l) {
        for (int f = 0; f < 6; ++f) {
            glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, l, GL_RGBA16F, kFace >> l, kFace >> l, 0, GL_RGBA, GL_FLOAT, nullptr);
        }
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    auto prog = Program::buildFromSources({{"standin.vert", kVert}, {"standin.frag", kFilter}});
    if (!prog) return prog.error();
    GLint prevFbo = 0, vp[4];
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prevFbo);
    glGetIntegerv(GL_VIEWPORT, vp);
    GLuint fbo = 0, vao = 0;
    glGenFramebuffers(1, &fbo);
    glGenVertexArrays(1, &vao);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glUseProgram(prog->id());
    glBindVertexArray(vao);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_CUBE_MAP, src);
    glUniform1i(prog->uniform("u_src"), 0);
    for (int l = 0; l <= kMaxLod; ++l) {
        const float r = l == 0 ? 0.02f : 1.0f - std::sqrt(1.0f - static_cast<float>(l) / kMaxLod);
        glUniform1f(prog->uniform("u_roughness"), r);
        glViewport(0, 0, kFace >> l, kFace >> l);
        for (int f = 0; f < 6; ++f) {
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, env->cube_, l);
            glUniform1i(prog->uniform("u_face"), f);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(prevFbo));
    glViewport(vp[0], vp[1], vp[2], vp[3]);
    glDeleteFramebuffers(1, &fbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteTextures(1, &src);
    glUseProgram(0);
    std::vector<float> lut;
    dfgTable(lut);
    glGenTextures(1, &env->dfg_);
    glBindTexture(GL_TEXTURE_2D, env->dfg_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG16F, 16, 16, 0, GL_RG, GL_FLOAT, lut.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return env;
}

Environment::~Environment() {
    glDeleteTextures(1, &cube_);
    glDeleteTextures(1, &dfg_);
}

void Environment::drawBackground(const glm::mat4&, float, float, int, float) {}

}  // namespace rig
