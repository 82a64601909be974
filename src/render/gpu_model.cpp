#include "render/gpu_model.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <span>

#include "anim/runtime/dual_quat.h"
#include "anim/runtime/skinning.h"
#include "render/camera.h"
#include "render/layout.h"
#include "render/texture_image.h"

namespace rig {

namespace {

constexpr size_t kMaxSamplerVariants = 4;

// A texture from RGBA8 pixels with `ref`'s sampler (glTF wrap and filter enums) and mipmaps.
GLuint makeTexture(const uint8_t* rgba, int w, int h, bool srgb, const TextureRef& ref) {
    auto wrap = [](int m) -> GLint {
        return m == GL_CLAMP_TO_EDGE ? GL_CLAMP_TO_EDGE : m == GL_MIRRORED_REPEAT ? GL_MIRRORED_REPEAT : GL_REPEAT;
    };
    const bool minOk = ref.minFilter == GL_NEAREST || ref.minFilter == GL_LINEAR ||
                       (ref.minFilter >= GL_NEAREST_MIPMAP_NEAREST && ref.minFilter <= GL_LINEAR_MIPMAP_LINEAR);
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    const GLint minFilter = minOk ? ref.minFilter : GL_LINEAR_MIPMAP_LINEAR;
    glTexImage2D(GL_TEXTURE_2D, 0, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    // Mipmaps only for a filter that reads them (on a software renderer, making them compiles
    // a shader: a tenth of a second before the first frame).
    if (minFilter != GL_NEAREST && minFilter != GL_LINEAR) {
        glGenerateMipmap(GL_TEXTURE_2D);
    } else {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, minFilter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, ref.magFilter == GL_NEAREST ? GL_NEAREST : GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap(ref.wrapS));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap(ref.wrapT));
    return tex;
}

// The 8x8 magenta/black checker drawn in place of a texture that did not load.
GLuint makeChecker() {
    std::vector<uint8_t> px(8 * 8 * 4);
    for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 8; ++x) {
            uint8_t* p = &px[static_cast<size_t>(y * 8 + x) * 4];
            const bool magenta = ((x / 2) + (y / 2)) % 2 == 0;
            p[0] = magenta ? 255 : 0;
            p[1] = 0;
            p[2] = magenta ? 255 : 0;
            p[3] = 255;
        }
    }
    TextureRef nearest;
    nearest.magFilter = GL_NEAREST;
    nearest.minFilter = GL_NEAREST;
    return makeTexture(px.data(), 8, 8, false, nearest);
}

template <typename T>
GLuint arrayBuffer(const std::vector<T>& data, GLenum usage = GL_STATIC_DRAW) {
    GLuint b = 0;
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.empty() ? nullptr : data.data(), usage);
    return b;
}

// A buffer of `n` elements of T whose contents are written later (GL_DYNAMIC_DRAW).
template <class T>
GLuint sizedBuffer(size_t n) {
    GLuint b = 0;
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * sizeof(T)), nullptr, GL_DYNAMIC_DRAW);
    return b;
}

void floatAttrib(GLuint location, GLuint buffer, int components) {
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, 0, nullptr);
}

}  // namespace

Result<std::unique_ptr<GpuModel>> GpuModel::create(const Model& model, size_t morphTexelLimit) {
    std::unique_ptr<GpuModel> g(new GpuModel());
    g->model_ = &model;
    g->joints_ = model.jointNodes();
    g->isJoint_.assign(model.skeleton.size(), 0);
    for (int32_t j : g->joints_) g->isJoint_[j] = 1;
    // Every texture slot of every material; one GL texture per (image, colour space, sampler).
    g->checker_ = makeChecker();
    g->textures_.push_back(g->checker_);
    struct Made {
        std::string path;
        bool srgb;
        int wrapS, wrapT, mag, min;
        GLuint tex;
        TextureStatus status;
    };
    std::vector<Made> made;
    // `status`: the slot's size or why it did not load (textureStatus).
    auto textureFor = [&](const TextureRef& ref, bool srgb, TextureStatus& status) -> GLuint {
        if (!ref.present()) return 0;
        for (const Made& m : made) {
            if (m.path == ref.path && m.srgb == srgb && m.wrapS == ref.wrapS && m.wrapT == ref.wrapT &&
                m.mag == ref.magFilter && m.min == ref.minFilter) {
                status = m.status;
                return m.tex;
            }
        }
        // One image shared by many samplers is uploaded at most kMaxSamplerVariants times per
        // colour space; further samplers draw with one of those uploads' samplers.
        size_t variants = 0;
        for (const Made& m : made) {
            if (m.path == ref.path && m.srgb == srgb && m.tex != g->checker_ && ++variants >= kMaxSamplerVariants) {
                status = m.status;
                return m.tex;
            }
        }
        GLuint tex = g->checker_;
        // Decoded by the import (import/images/model_images.h), in the import worker.
        const ModelImage* image = model.findImage(ref.path);
        const std::string problem = !image ? "texture " + ref.path + " not decoded" : image->problem;
        if (problem.empty()) {
            tex = makeTexture(image->rgba.data(), static_cast<int>(image->width), static_cast<int>(image->height), srgb, ref);
            g->textures_.push_back(tex);
            status.width = static_cast<int>(image->fileWidth);
            status.height = static_cast<int>(image->fileHeight);
        } else {
            status.problem = problem;
            if (std::find(g->missingTextures_.begin(), g->missingTextures_.end(), problem) == g->missingTextures_.end()) {
                g->missingTextures_.push_back(problem);
            }
        }
        made.push_back({ref.path, srgb, ref.wrapS, ref.wrapT, ref.magFilter, ref.minFilter, tex, status});
        return tex;
    };
    for (const Material& mat : model.materials) {
        GpuMaterial gm;
        // In Material::forEachTexture's order.
        std::vector<TextureStatus>& st = g->textureStatus_.emplace_back(8);
        gm.baseColor = textureFor(mat.baseColorTexture, true, st[0]);
        gm.metallicRoughness = textureFor(mat.metallicRoughnessTexture, false, st[1]);
        gm.normal = textureFor(mat.normalTexture, false, st[2]);
        gm.occlusion = textureFor(mat.occlusionTexture, false, st[3]);
        gm.emissive = textureFor(mat.emissiveTexture, true, st[4]);
        gm.clearcoat = textureFor(mat.clearcoatTexture, false, st[5]);
        gm.clearcoatRoughness = textureFor(mat.clearcoatRoughnessTexture, false, st[6]);
        gm.clearcoatNormal = textureFor(mat.clearcoatNormalTexture, false, st[7]);
        g->materials_.push_back(gm);
    }
    size_t maxVerts = 0;
    for (const Mesh& mesh : model.meshes) {
        GpuMesh gm;
        const size_t n = mesh.vertexCount();
        maxVerts = std::max(maxVerts, n);
        // Normals and UVs as the mesh has them, or (0, 1, 0) and (0, 0) where it has none.
        std::vector<glm::vec3> defaultNormals;
        if (mesh.normals.size() != n) {
            defaultNormals = mesh.normals;
            defaultNormals.resize(n, glm::vec3(0, 1, 0));
        }
        const std::vector<glm::vec3>& normals = mesh.normals.size() == n ? mesh.normals : defaultNormals;
        std::vector<glm::vec2> defaultUvs;
        if (mesh.uvs.size() != n) {
            defaultUvs = mesh.uvs;
            defaultUvs.resize(n, glm::vec2(0.0f));
        }
        gm.buffers[0] = arrayBuffer(mesh.positions);
        gm.buffers[1] = arrayBuffer(normals);
        gm.buffers[2] = arrayBuffer(mesh.uvs.size() == n ? mesh.uvs : defaultUvs);
        gm.hasColors = !mesh.colors.empty();
        if (gm.hasColors) gm.buffers[3] = arrayBuffer(mesh.colors);
        gm.hasTangents = mesh.tangents.size() == n && n > 0;
        if (gm.hasTangents) {
            gm.buffers[10] = arrayBuffer(mesh.tangents);
            // CPU-skinned tangents: uploadCpuSkinning writes a skinned mesh's before it is drawn;
            // a morphing one draws the file's.
            gm.buffers[12] = mesh.skinned ? sizedBuffer<glm::vec4>(n) : arrayBuffer(mesh.tangents, GL_DYNAMIC_DRAW);
        }
        gm.hasUv1 = mesh.uvs1.size() == n && n > 0;
        if (gm.hasUv1) gm.buffers[11] = arrayBuffer(mesh.uvs1);
        {
            Bounds b;
            for (const glm::vec3& p : mesh.positions) b.add(p);
            gm.center = b.center();
        }
        if (mesh.skinned) {
            gm.buffers[4] = arrayBuffer(mesh.joints);
            gm.buffers[5] = arrayBuffer(mesh.weights);
        }
        gm.secondInfluenceSet = mesh.skinned && mesh.hasSecondInfluenceSet();
        if (gm.secondInfluenceSet) {
            gm.buffers[8] = arrayBuffer(mesh.joints2);
            gm.buffers[9] = arrayBuffer(mesh.weights2);
        }
        // CPU-skinned positions and normals: written by uploadCpuSkinning before they are drawn
        // (normals only where the mesh has its own: otherwise the defaults stay).
        gm.buffers[6] = sizedBuffer<glm::vec3>(n);
        gm.buffers[7] = mesh.normals.size() == n ? sizedBuffer<glm::vec3>(n) : arrayBuffer(normals, GL_DYNAMIC_DRAW);
        glGenBuffers(1, &gm.ebo);
        glGenVertexArrays(1, &gm.vao);
        glGenVertexArrays(1, &gm.cpuVao);
        for (int pass = 0; pass < 2; ++pass) {
            glBindVertexArray(pass == 0 ? gm.vao : gm.cpuVao);
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gm.ebo);
            if (pass == 0) {
                glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(uint32_t)),
                             mesh.indices.data(), GL_STATIC_DRAW);
            }
            floatAttrib(gl_layout::kPosition, gm.buffers[pass == 0 ? 0 : 6], 3);
            floatAttrib(gl_layout::kNormal, gm.buffers[pass == 0 ? 1 : 7], 3);
            floatAttrib(gl_layout::kUv, gm.buffers[2], 2);
            if (gm.hasTangents) {
                floatAttrib(gl_layout::kTangent, gm.buffers[pass == 0 ? 10 : 12], 4);
            } else {
                glDisableVertexAttribArray(gl_layout::kTangent);
                glVertexAttrib4f(gl_layout::kTangent, 0, 0, 0, 0);
            }
            if (gm.hasUv1) {
                floatAttrib(gl_layout::kUv1, gm.buffers[11], 2);
            } else {
                floatAttrib(gl_layout::kUv1, gm.buffers[2], 2);  // TEXCOORD_0 stands in
            }
            if (gm.hasColors) {
                floatAttrib(gl_layout::kColor, gm.buffers[3], 4);
            } else {
                glDisableVertexAttribArray(gl_layout::kColor);
                glVertexAttrib4f(gl_layout::kColor, 1, 1, 1, 1);
            }
            if (mesh.skinned && pass == 0) {
                glBindBuffer(GL_ARRAY_BUFFER, gm.buffers[4]);
                glEnableVertexAttribArray(gl_layout::kJoints);
                glVertexAttribIPointer(gl_layout::kJoints, 4, GL_UNSIGNED_SHORT, 0, nullptr);
                floatAttrib(gl_layout::kWeights, gm.buffers[5], 4);
            } else {
                glDisableVertexAttribArray(gl_layout::kJoints);
                glVertexAttribI4ui(gl_layout::kJoints, 0, 0, 0, 0);
                glDisableVertexAttribArray(gl_layout::kWeights);
                glVertexAttrib4f(gl_layout::kWeights, 1, 0, 0, 0);
            }
            if (gm.secondInfluenceSet && pass == 0) {
                glBindBuffer(GL_ARRAY_BUFFER, gm.buffers[8]);
                glEnableVertexAttribArray(gl_layout::kJoints2);
                glVertexAttribIPointer(gl_layout::kJoints2, 4, GL_UNSIGNED_SHORT, 0, nullptr);
                floatAttrib(gl_layout::kWeights2, gm.buffers[9], 4);
            } else {
                glDisableVertexAttribArray(gl_layout::kJoints2);
                glDisableVertexAttribArray(gl_layout::kWeights2);
            }
        }
        glBindVertexArray(0);
        gm.indexCount = static_cast<GLsizei>(mesh.indices.size());
        gm.texture = mesh.material < g->materials_.size() ? g->materials_[mesh.material].baseColor : 0;
        g->meshes_.push_back(gm);
    }
    // Palette: a texture buffer of RGBA32F texels, 3 per joint (at least one entry).
    const size_t joints = std::max<size_t>(model.paletteSize(), 1);
    g->paletteRows_.assign(joints * gl_layout::kPaletteTexelsPerJoint * 4, 0.0f);
    glGenBuffers(1, &g->paletteBuffer_);
    glBindBuffer(GL_TEXTURE_BUFFER, g->paletteBuffer_);
    glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(g->paletteRows_.size() * sizeof(float)), nullptr, GL_STREAM_DRAW);
    glGenTextures(1, &g->paletteTex_);
    glBindTexture(GL_TEXTURE_BUFFER, g->paletteTex_);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, g->paletteBuffer_);
    g->dualQuatRows_.assign(joints * 8, 0.0f);
    glGenBuffers(1, &g->dualQuatBuffer_);
    glBindBuffer(GL_TEXTURE_BUFFER, g->dualQuatBuffer_);
    glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(g->dualQuatRows_.size() * sizeof(float)), nullptr, GL_STREAM_DRAW);
    glGenTextures(1, &g->dualQuatTex_);
    glBindTexture(GL_TEXTURE_BUFFER, g->dualQuatTex_);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, g->dualQuatBuffer_);
    // Morph targets: one texture buffer of every mesh's deltas (per vertex, per target: the
    // position delta, then the normal delta) and one of the weights, uploaded per tick.
    std::vector<float> deltas;
    size_t weights = 0;
    for (const Mesh& mesh : model.meshes) {
        g->morphBase_.push_back(static_cast<int>(deltas.size() / 4));
        const size_t nt = mesh.morphTargets.size();
        weights += nt;
        for (size_t v = 0; v < mesh.vertexCount() && nt; ++v) {
            for (size_t t = 0; t < nt; ++t) {
                const MorphTarget& mt = mesh.morphTargets[t];
                const glm::vec3 dn = mt.normalDeltas.empty() ? glm::vec3(0.0f) : mt.normalDeltas[v];
                deltas.insert(deltas.end(), {mt.positionDeltas[v].x, mt.positionDeltas[v].y, mt.positionDeltas[v].z, 0.0f,
                                             dn.x, dn.y, dn.z, 0.0f});
            }
        }
    }
    if (morphTexelLimit == 0) {
        GLint most = 0;
        glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &most);
        morphTexelLimit = static_cast<size_t>(std::max(most, 65536));  // GL 3.3 guarantees 65536
    }
    if (deltas.size() / 4 > morphTexelLimit) {
        g->morphsOnGpu_ = false;
        deltas.clear();
    }
    if (deltas.empty()) deltas.assign(4, 0.0f);
    glGenBuffers(1, &g->morphDeltaBuffer_);
    glBindBuffer(GL_TEXTURE_BUFFER, g->morphDeltaBuffer_);
    glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(deltas.size() * sizeof(float)), deltas.data(), GL_STATIC_DRAW);
    glGenTextures(1, &g->morphDeltaTex_);
    glBindTexture(GL_TEXTURE_BUFFER, g->morphDeltaTex_);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, g->morphDeltaBuffer_);
    glGenBuffers(1, &g->morphWeightBuffer_);
    glBindBuffer(GL_TEXTURE_BUFFER, g->morphWeightBuffer_);
    glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(std::max<size_t>(weights, 1) * sizeof(float)), nullptr, GL_STREAM_DRAW);
    glGenTextures(1, &g->morphWeightTex_);
    glBindTexture(GL_TEXTURE_BUFFER, g->morphWeightTex_);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, g->morphWeightBuffer_);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    g->cpuPositions_.resize(maxVerts);
    g->cpuNormals_.resize(maxVerts);
    g->cpuTangents_.resize(maxVerts);
    return g;
}

GpuModel::~GpuModel() {
    for (GpuMesh& m : meshes_) {
        glDeleteVertexArrays(1, &m.vao);
        glDeleteVertexArrays(1, &m.cpuVao);
        glDeleteBuffers(static_cast<GLsizei>(std::size(m.buffers)), m.buffers);
        glDeleteBuffers(1, &m.ebo);
    }
    for (GLuint t : textures_) {
        if (t) glDeleteTextures(1, &t);
    }
    glDeleteTextures(1, &paletteTex_);
    glDeleteBuffers(1, &paletteBuffer_);
    glDeleteTextures(1, &morphDeltaTex_);
    glDeleteBuffers(1, &morphDeltaBuffer_);
    glDeleteTextures(1, &morphWeightTex_);
    glDeleteBuffers(1, &morphWeightBuffer_);
    glDeleteTextures(1, &dualQuatTex_);
    glDeleteBuffers(1, &dualQuatBuffer_);
}

void GpuModel::setVertexColors(size_t mesh, const std::vector<glm::vec4>& colors) {
    GpuMesh& gm = meshes_[mesh];
    if (colors.size() != model_->meshes[mesh].vertexCount()) return;
    if (!gm.buffers[3]) glGenBuffers(1, &gm.buffers[3]);
    glBindBuffer(GL_ARRAY_BUFFER, gm.buffers[3]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(colors.size() * sizeof(glm::vec4)), colors.data(), GL_DYNAMIC_DRAW);
    for (GLuint vao : {gm.vao, gm.cpuVao}) {
        glBindVertexArray(vao);
        floatAttrib(gl_layout::kColor, gm.buffers[3], 4);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuModel::clearVertexColors(size_t mesh) {
    const Mesh& m = model_->meshes[mesh];
    if (meshes_[mesh].hasColors) {
        setVertexColors(mesh, m.colors);
        return;
    }
    for (GLuint vao : {meshes_[mesh].vao, meshes_[mesh].cpuVao}) {
        glBindVertexArray(vao);
        glDisableVertexAttribArray(gl_layout::kColor);
        glVertexAttrib4f(gl_layout::kColor, 1, 1, 1, 1);
    }
    glBindVertexArray(0);
}

bool GpuModel::drawsCpuVertices(size_t mesh, bool gpuSkinning) const {
    const Mesh& m = model_->meshes[mesh];
    const bool morphs = !m.morphTargets.empty();
    return ((m.skinned || morphs) && !gpuSkinning) || (morphs && !morphsOnGpu_);
}

void GpuModel::setMorphUniforms(size_t mesh, const Animator& anim, bool enabled, GLint uBase, GLint uCount,
                                GLint uWeightOffset) const {
    const size_t nt = morphsOnGpu_ ? model_->meshes[mesh].morphTargets.size() : 0;
    glUniform1i(uCount, enabled ? static_cast<GLint>(nt) : 0);
    glUniform1i(uBase, morphBase_[mesh]);
    glUniform1i(uWeightOffset, static_cast<GLint>(anim.morphOffset(mesh)));
}

void GpuModel::uploadPalette(const Animator& anim, bool dualQuats) {
    const std::vector<float>& mw = anim.morphWeights();
    if (!mw.empty()) {
        glBindBuffer(GL_TEXTURE_BUFFER, morphWeightBuffer_);
        glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(mw.size() * sizeof(float)), mw.data());
        glBindBuffer(GL_TEXTURE_BUFFER, 0);
    }
    // The entries in use: the shared palettes (Animator::paletteInUse).
    const std::span<const glm::mat4> pal(anim.palette().data(), anim.paletteInUse());
    float* out = paletteRows_.data();
    for (const glm::mat4& m : pal) {
        for (int r = 0; r < 3; ++r) {
            *out++ = m[0][r];
            *out++ = m[1][r];
            *out++ = m[2][r];
            *out++ = m[3][r];
        }
    }
    if (pal.empty()) return;
    glBindBuffer(GL_TEXTURE_BUFFER, paletteBuffer_);
    glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(pal.size() * 12 * sizeof(float)), paletteRows_.data());
    if (dualQuats) {
        float* q = dualQuatRows_.data();
        for (const glm::mat4& m : pal) {
            const DualQuat d = DualQuat::fromMatrix(m);
            for (const glm::quat& c : {d.real, d.dual}) {
                *q++ = c.x;
                *q++ = c.y;
                *q++ = c.z;
                *q++ = c.w;
            }
        }
        glBindBuffer(GL_TEXTURE_BUFFER, dualQuatBuffer_);
        glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(pal.size() * 8 * sizeof(float)), dualQuatRows_.data());
    }
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void GpuModel::uploadCpuSkinning(const Animator& anim, SkinningMethod method, bool morphFallbackOnly, int influences) {
    for (size_t i = 0; i < meshes_.size(); ++i) {
        const Mesh& mesh = model_->meshes[i];
        const size_t n = mesh.vertexCount();
        if ((!mesh.skinned && mesh.morphTargets.empty()) || n == 0) continue;
        if (morphFallbackOnly && (mesh.morphTargets.empty() || morphsOnGpu_)) continue;
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(i), anim.meshMorphWeights(i), cpuPositions_.data(),
                 mesh.normals.empty() ? nullptr : cpuNormals_.data(), method, influences);
        glBindBuffer(GL_ARRAY_BUFFER, meshes_[i].buffers[6]);
        glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(glm::vec3)), cpuPositions_.data());
        if (!mesh.normals.empty()) {
            glBindBuffer(GL_ARRAY_BUFFER, meshes_[i].buffers[7]);
            glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(glm::vec3)), cpuNormals_.data());
        }
        if (meshes_[i].hasTangents && mesh.skinned) {
            // Tangents turn with the skin like normals: the blended matrix's 3x3 (the strongest
            // joint's when stitching); dual quaternions use the linear blend's rotation here.
            const glm::mat4* pal = anim.palette().data() + anim.paletteOffset(i);
            for (size_t v = 0; v < n; ++v) {
                const glm::mat4 m = method == SkinningMethod::Stitch ? pal[strongestSlot(mesh, v)]
                                                                     : blendMatrix(mesh, v, pal, influences);
                const glm::vec3 t = glm::mat3(m) * glm::vec3(mesh.tangents[v]);
                const float len = glm::length(t);
                cpuTangents_[v] = glm::vec4(len > 0.0f ? t / len : glm::vec3(mesh.tangents[v]), mesh.tangents[v].w);
            }
            glBindBuffer(GL_ARRAY_BUFFER, meshes_[i].buffers[12]);
            glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(glm::vec4)), cpuTangents_.data());
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace rig
