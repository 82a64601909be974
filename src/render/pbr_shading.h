// PbrShading: the uniforms of shaders/pbr.frag (the glTF metallic-roughness material, image-based
// lighting, tone mapping) looked up once per program and set per frame and per material. One
// owner for both programs that draw meshes: Renderer (one model) and CrowdRenderer (instances).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/model.h"
#include "platform/gl.h"
#include "render/gpu_model.h"
#include "render/shader.h"
#include "render/view_options.h"

namespace rig {

class Environment;

// The texture slots of pbr.frag (bit i of u_texMask), in Material::forEachTexture's order.
inline constexpr int kPbrSlots = 8;

class PbrShading {
public:
    // The shader files of a mesh program: the vertex shader, pbr.frag and tonemap.frag.
    static std::vector<std::string> shaderFiles() { return {"skinned.vert", "pbr.frag", "tonemap.frag"}; }

    // A program specialized for some draws (pbr.frag's RIG_* block) shades them exactly as the
    // generic program does, with the branches they never take compiled out: llvmpipe runs both
    // sides of every branch, so there the generic program pays for every feature on every
    // pixel. The key packs what the uniforms of setFrame, setMaterial and setSource will hold
    // for a mesh (what the shader never reads on that path is left 0, so fewer programs).
    static uint32_t variantKey(const Material& m, const GpuMaterial& g, const ViewOptions& o, int colorSource);
    // The #define lines that build the program of a key (Program::build's `defines`).
    static std::string variantDefines(uint32_t key);
    // u_texMask: bit i set where slot i has a texture to sample.
    static int textureMask(const GpuMaterial& g, bool textures);

    // Look the uniforms up in `p` (once, at set-up) and bind the samplers to their units.
    void lookUp(const Program& p);
    // Per frame: the eye, the view matrix, the up axis (z up: the environment's +Y is world +Z),
    // the lighting options and the environment (nullptr: a grey sky of radiance o.ambient).
    // Binds the environment's textures. The program must be in use.
    void setFrame(const glm::vec3& eye, const glm::mat4& view, bool zUp, const ViewOptions& o,
                  const Environment* env) const;
    // Per mesh: the material's factors, textures (bound to their units) and modes. `textures`
    // false: factors only (ViewOptions::textures off).
    void setMaterial(const Material& m, const GpuMaterial& g, bool textures) const;
    // The rig views' colour source and the tint (render/renderer.h ColorSource).
    void setSource(int colorSource, const glm::vec4& tint) const;

private:
    GLint texMask_ = -1, uvSet_ = -1, uvMatrix_ = -1, baseColor_ = -1, metallic_ = -1, roughness_ = -1,
          emissive_ = -1, normalScale_ = -1, occlusionStrength_ = -1, alphaMode_ = -1, alphaCutoff_ = -1,
          doubleSided_ = -1, unlit_ = -1, clearcoat_ = -1, clearcoatRoughness_ = -1, eye_ = -1, view_ = -1,
          hasEnvironment_ = -1, maxLod_ = -1, envRotation_ = -1, ambient_ = -1, keyLight_ = -1, keyLightDir_ = -1,
          keyLightColor_ = -1, toneMapping_ = -1, exposure_ = -1, debugChannel_ = -1, lighting_ = -1, tint_ = -1,
          colorSource_ = -1;
};

// three's UV matrix for a texture transform (Matrix3.setUvTransform with centre 0), column major
// as GLSL's mat3: u' = sx (cos r u + sin r v) + tx, v' = sy (-sin r u + cos r v) + ty.
glm::mat3 uvTransformMatrix(const TextureRef& t);

}  // namespace rig
