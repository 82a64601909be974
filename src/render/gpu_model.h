// GpuModel: a Model's meshes, textures and palette buffer on the GPU. Created once per
// loaded model (with a current GL context); the palette is uploaded once per tick with one
// call, or the CPU-skinned vertices are, in CPU skinning mode.
#pragma once

#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/result.h"
#include "anim/runtime/skinning.h"
#include "platform/gl.h"

namespace rig {

// A material's textures on the GPU, one per slot of Material (0: the slot is empty). Base
// colour and emissive are SRGB8_ALPHA8 (decoded to linear by the sampler), the others RGBA8;
// each with its sampler's wrap and filter modes and a full mip chain. A slot whose image did
// not load holds the magenta/black checker (GpuModel::checkerTexture).
struct GpuMaterial {
    GLuint baseColor = 0, metallicRoughness = 0, normal = 0, occlusion = 0, emissive = 0;
    GLuint clearcoat = 0, clearcoatRoughness = 0, clearcoatNormal = 0;
};

struct GpuMesh {
    GLuint vao = 0;        // bind-pose attributes + joints/weights (GPU skinning, rigid)
    GLuint cpuVao = 0;     // CPU-skinned positions/normals + the same UVs/colours
    GLuint buffers[13] = {};  // 0-3 position, normal, uv, colour; 4-5 joints, weights;
                              // 6-7 CPU-skinned positions, normals; 8-9 second joints, weights;
                              // 10 tangents, 11 second UVs, 12 CPU-skinned tangents
    GLuint ebo = 0;
    GLsizei indexCount = 0;
    GLuint texture = 0;    // base colour, 0 if none
    bool hasColors = false;
    bool hasTangents = false;  // kTangent bound (else the shader derives the tangent frame)
    bool hasUv1 = false;       // kUv1 bound (else TEXCOORD_1 reads as TEXCOORD_0)
    // The bounding sphere of the bind-pose positions (mesh space): transparent meshes are
    // sorted by its centre's view depth, as three.js does.
    glm::vec3 center{0.0f};
    bool secondInfluenceSet = false;  // buffers 8-9 bound at kJoints2/kWeights2 in vao
};

class GpuModel {
public:
    // morphTexelLimit: the most texels the morph delta buffer may hold (0: the driver's
    // GL_MAX_TEXTURE_BUFFER_SIZE). Beyond it, meshes with morph targets are morphed and
    // skinned on the CPU even in GPU mode (drawsCpuVertices).
    static Result<std::unique_ptr<GpuModel>> create(const Model& model, size_t morphTexelLimit = 0);
    ~GpuModel();
    GpuModel(const GpuModel&) = delete;
    GpuModel& operator=(const GpuModel&) = delete;

    const Model& model() const { return *model_; }
    // Model::jointNodes(), computed once, and a per-node flag of the same.
    const std::vector<int32_t>& joints() const { return joints_; }
    const std::vector<uint8_t>& isJoint() const { return isJoint_; }
    const std::vector<GpuMesh>& meshes() const { return meshes_; }
    // Per material of the model, its textures (GpuMaterial).
    const std::vector<GpuMaterial>& materials() const { return materials_; }
    // The texture drawn in place of one that did not load: an 8x8 magenta/black checker.
    GLuint checkerTexture() const { return checker_; }
    GLuint paletteTexture() const { return paletteTex_; }
    // Why each texture that did not load is not drawn, one phrase per material's texture
    // (render/texture_image.h: "texture skin.png missing", "embedded texture *0 is
    // 16384x16384 pixels, more than 8192x8192"); each is drawn as the magenta checker.
    const std::vector<std::string>& missingTextures() const { return missingTextures_; }
    // How each texture slot of each material loaded (per material, per slot in
    // Material::forEachTexture's order): the image's size in pixels, or why it did not load
    // (the phrase missingTextures holds; a magenta checker is drawn instead). A slot with no
    // texture has neither. Read by the viewer's Material inspector.
    struct TextureStatus {
        int width = 0, height = 0;
        std::string problem;
        bool loaded() const { return width > 0; }
    };
    const std::vector<std::vector<TextureStatus>>& textureStatus() const { return textureStatus_; }

    // Upload all skins' palettes (3 rows per joint) in one call; with `dualQuats`, also
    // their dual quaternions (2 texels per joint) for dual-quaternion skinning. Also uploads
    // the animator's morph weights (one call).
    void uploadPalette(const Animator& anim, bool dualQuats = false);
    // Skin on the CPU (anim/skinning.cpp) and upload positions, normals and tangents. `morphFallbackOnly`:
    // only the morphing meshes whose deltas are not on the GPU (GPU mode). `influences`: 4 or 8.
    void uploadCpuSkinning(const Animator& anim, SkinningMethod method = SkinningMethod::Linear,
                           bool morphFallbackOnly = false, int influences = kMaxInfluences);
    GLuint dualQuatTexture() const { return dualQuatTex_; }
    // Morph targets: every mesh's deltas (static) and the weights of the last uploadPalette.
    GLuint morphDeltaTexture() const { return morphDeltaTex_; }
    GLuint morphWeightTexture() const { return morphWeightTex_; }
    int morphBase(size_t mesh) const { return morphBase_[mesh]; }
    // False when the morph deltas did not fit a texture buffer (see create()).
    bool morphsOnGpu() const { return morphsOnGpu_; }
    // Whether mesh `mesh` is drawn from CPU-computed vertices (cpuVao): CPU skinning mode for
    // skinned or morphing meshes, and morphing meshes whose deltas are not on the GPU.
    bool drawsCpuVertices(size_t mesh, bool gpuSkinning) const;
    // Set the shader's morph uniforms for `mesh` (count 0 when `enabled` is false: the CPU
    // path already morphed it). The caller binds the two textures to their units.
    void setMorphUniforms(size_t mesh, const Animator& anim, bool enabled, GLint uBase, GLint uCount,
                          GLint uWeightOffset) const;
    // Replace a mesh's vertex colours (check views: heat maps, tints); multiplied with the
    // material colour by the shader. clearVertexColors restores the file's own.
    void setVertexColors(size_t mesh, const std::vector<glm::vec4>& colors);
    void clearVertexColors(size_t mesh);

private:
    GpuModel() = default;
    const Model* model_ = nullptr;
    std::vector<GpuMesh> meshes_;
    std::vector<int32_t> joints_;
    std::vector<uint8_t> isJoint_;
    std::vector<GLuint> textures_;   // every texture made (owned), the checker included
    std::vector<GpuMaterial> materials_;
    GLuint checker_ = 0;
    std::vector<std::string> missingTextures_;
    std::vector<std::vector<TextureStatus>> textureStatus_;
    GLuint paletteBuffer_ = 0, paletteTex_ = 0;
    GLuint dualQuatBuffer_ = 0, dualQuatTex_ = 0;
    GLuint morphDeltaBuffer_ = 0, morphDeltaTex_ = 0;
    GLuint morphWeightBuffer_ = 0, morphWeightTex_ = 0;
    std::vector<int> morphBase_;
    bool morphsOnGpu_ = true;
    std::vector<float> paletteRows_;                 // scratch, sized at creation
    std::vector<float> dualQuatRows_;                // scratch, sized at creation
    std::vector<glm::vec3> cpuPositions_, cpuNormals_;  // scratch, sized at creation
    std::vector<glm::vec4> cpuTangents_;                // scratch, sized at creation
};

}  // namespace rig
