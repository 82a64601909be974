#include "render/pbr_shading.h"

#include <array>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

#include "render/environment.h"
#include "render/layout.h"

namespace rig {

namespace {

// The light the key light adds (three's DirectionalLight colour x intensity), from above the
// ground plane in front of the model, on the camera's side.
constexpr float kKeyLightIntensity = 2.5f;

constexpr int kSlotUnits[kPbrSlots] = {gl_layout::kUnitBaseColor,   gl_layout::kUnitMetallicRoughness,
                                       gl_layout::kUnitNormal,      gl_layout::kUnitOcclusion,
                                       gl_layout::kUnitEmissive,    gl_layout::kUnitClearcoat,
                                       gl_layout::kUnitClearcoatRoughness, gl_layout::kUnitClearcoatNormal};
constexpr const char* kSlotSamplers[kPbrSlots] = {
    "u_baseColorTexture", "u_metallicRoughnessTexture", "u_normalTexture",         "u_occlusionTexture",
    "u_emissiveTexture",  "u_clearcoatTexture",         "u_clearcoatRoughnessTexture", "u_clearcoatNormalTexture"};

}  // namespace

glm::mat3 uvTransformMatrix(const TextureRef& t) {
    const float c = std::cos(t.rotation), s = std::sin(t.rotation);
    return glm::mat3(glm::vec3(t.scale.x * c, -t.scale.y * s, 0.0f), glm::vec3(t.scale.x * s, t.scale.y * c, 0.0f),
                     glm::vec3(t.offset.x, t.offset.y, 1.0f));
}

void PbrShading::lookUp(const Program& p) {
    texMask_ = p.uniform("u_texMask");
    uvSet_ = p.uniform("u_uvSet");
    uvMatrix_ = p.uniform("u_uvMatrix");
    baseColor_ = p.uniform("u_baseColor");
    metallic_ = p.uniform("u_metallic");
    roughness_ = p.uniform("u_roughness");
    emissive_ = p.uniform("u_emissive");
    normalScale_ = p.uniform("u_normalScale");
    occlusionStrength_ = p.uniform("u_occlusionStrength");
    alphaMode_ = p.uniform("u_alphaMode");
    alphaCutoff_ = p.uniform("u_alphaCutoff");
    doubleSided_ = p.uniform("u_doubleSided");
    unlit_ = p.uniform("u_unlit");
    clearcoat_ = p.uniform("u_clearcoat");
    clearcoatRoughness_ = p.uniform("u_clearcoatRoughness");
    eye_ = p.uniform("u_eye");
    view_ = p.uniform("u_view");
    hasEnvironment_ = p.uniform("u_hasEnvironment");
    maxLod_ = p.uniform("u_maxLod");
    envRotation_ = p.uniform("u_envRotation");
    ambient_ = p.uniform("u_ambient");
    keyLight_ = p.uniform("u_keyLight");
    keyLightDir_ = p.uniform("u_keyLightDir");
    keyLightColor_ = p.uniform("u_keyLightColor");
    toneMapping_ = p.uniform("u_toneMapping");
    exposure_ = p.uniform("u_exposure");
    debugChannel_ = p.uniform("u_debugChannel");
    lighting_ = p.uniform("u_lighting");
    tint_ = p.uniform("u_tint");
    colorSource_ = p.uniform("u_colorSource");
    glUseProgram(p.id());
    for (int i = 0; i < kPbrSlots; ++i) glUniform1i(p.uniform(kSlotSamplers[i]), kSlotUnits[i]);
    glUniform1i(p.uniform("u_radiance"), gl_layout::kUnitRadiance);
    glUniform1i(p.uniform("u_dfg"), gl_layout::kUnitDfg);
    glUseProgram(0);
}

void PbrShading::setFrame(const glm::vec3& eye, const glm::mat4& view, bool zUp, const ViewOptions& o,
                          const Environment* env) const {
    glUniform3fv(eye_, 1, glm::value_ptr(eye));
    glUniformMatrix4fv(view_, 1, GL_FALSE, glm::value_ptr(view));
    // World -> environment: z up maps world +Z to the environment's +Y; then the rotation
    // about that axis (render/environment.h).
    const glm::mat3 upFix = zUp ? glm::mat3(glm::vec3(1, 0, 0), glm::vec3(0, 0, -1), glm::vec3(0, 1, 0)) : glm::mat3(1.0f);
    const glm::mat3 envRot = environmentLookupRotation(o.environmentRotation) * upFix;
    glUniformMatrix3fv(envRotation_, 1, GL_FALSE, glm::value_ptr(envRot));
    glUniform1i(hasEnvironment_, env ? 1 : 0);
    glUniform1f(maxLod_, env ? static_cast<float>(env->maxLod()) : 0.0f);
    glUniform1f(ambient_, o.ambient);
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitRadiance);
    glBindTexture(GL_TEXTURE_CUBE_MAP, env ? env->radianceCube() : 0);
    glActiveTexture(GL_TEXTURE0 + gl_layout::kUnitDfg);
    glBindTexture(GL_TEXTURE_2D, env ? env->dfgLut() : 0);
    const glm::vec3 key = zUp ? glm::vec3(0.4f, -0.5f, 0.8f) : glm::vec3(0.4f, 0.8f, 0.5f);
    glUniform3fv(keyLightDir_, 1, glm::value_ptr(key));
    glUniform1i(keyLight_, o.keyLight ? 1 : 0);
    glUniform3f(keyLightColor_, kKeyLightIntensity, kKeyLightIntensity, kKeyLightIntensity);
    glUniform1i(toneMapping_, static_cast<GLint>(o.toneMapping));
    glUniform1f(exposure_, o.exposure);
    glUniform1i(debugChannel_, static_cast<GLint>(o.debugChannel));
    glUniform1i(lighting_, o.lighting ? 1 : 0);
}

namespace {

std::array<GLuint, kPbrSlots> slotTextures(const GpuMaterial& g) {
    return {g.baseColor, g.metallicRoughness, g.normal,          g.occlusion,
            g.emissive,  g.clearcoat,         g.clearcoatRoughness, g.clearcoatNormal};
}

// variantKey's fields.
constexpr uint32_t kKeyColorSourceShift = 8, kKeyDebugShift = 10, kKeyLightBit = 1u << 14, kKeyUnlitBit = 1u << 15,
                   kKeyCoatBit = 1u << 16;

}  // namespace

int PbrShading::textureMask(const GpuMaterial& g, bool textures) {
    const std::array<GLuint, kPbrSlots> texs = slotTextures(g);
    int mask = 0;
    for (int i = 0; i < kPbrSlots; ++i) {
        if (textures && texs[i] != 0) mask |= 1 << i;
    }
    return mask;
}

uint32_t PbrShading::variantKey(const Material& m, const GpuMaterial& g, const ViewOptions& o, int colorSource) {
    // The rig views read none of the material (pbr.frag returns before it).
    if (colorSource != 0) return static_cast<uint32_t>(colorSource) << kKeyColorSourceShift;
    uint32_t key = static_cast<uint32_t>(textureMask(g, o.textures));
    if (o.debugChannel != DebugChannel::None) {  // shown before any lighting
        return key | static_cast<uint32_t>(o.debugChannel) << kKeyDebugShift;
    }
    if (m.unlit || !o.lighting) return key | kKeyUnlitBit;
    if (o.keyLight) key |= kKeyLightBit;
    if (m.clearcoat > 0.0f) key |= kKeyCoatBit;
    return key;
}

std::string PbrShading::variantDefines(uint32_t key) {
    auto flag = [&](uint32_t bit) { return (key & bit) != 0 ? "true" : "false"; };
    return "#define RIG_TEX_MASK " + std::to_string(key & 0xffu) + "\n" +
           "#define RIG_COLOR_SOURCE " + std::to_string((key >> kKeyColorSourceShift) & 3u) + "\n" +
           "#define RIG_DEBUG_CHANNEL " + std::to_string((key >> kKeyDebugShift) & 15u) + "\n" +
           "#define RIG_KEY_LIGHT " + std::to_string((key & kKeyLightBit) != 0 ? 1 : 0) + "\n" +
           "#define RIG_UNLIT " + flag(kKeyUnlitBit) + "\n" + "#define RIG_COAT " + flag(kKeyCoatBit) + "\n";
}

void PbrShading::setMaterial(const Material& m, const GpuMaterial& g, bool textures) const {
    const TextureRef* refs[kPbrSlots] = {&m.baseColorTexture, &m.metallicRoughnessTexture, &m.normalTexture,
                                         &m.occlusionTexture, &m.emissiveTexture,          &m.clearcoatTexture,
                                         &m.clearcoatRoughnessTexture, &m.clearcoatNormalTexture};
    const std::array<GLuint, kPbrSlots> texs = slotTextures(g);
    const int mask = textureMask(g, textures);
    GLint sets[kPbrSlots];
    glm::mat3 mats[kPbrSlots];
    for (int i = 0; i < kPbrSlots; ++i) {
        const bool on = (mask & (1 << i)) != 0;
        sets[i] = refs[i]->texCoord == 1 ? 1 : 0;
        mats[i] = uvTransformMatrix(*refs[i]);
        glActiveTexture(GL_TEXTURE0 + kSlotUnits[i]);
        glBindTexture(GL_TEXTURE_2D, on ? texs[i] : 0);
    }
    glUniform1i(texMask_, mask);
    glUniform1iv(uvSet_, kPbrSlots, sets);
    glUniformMatrix3fv(uvMatrix_, kPbrSlots, GL_FALSE, glm::value_ptr(mats[0]));
    glUniform4fv(baseColor_, 1, glm::value_ptr(m.baseColor));
    glUniform1f(metallic_, m.metallic);
    glUniform1f(roughness_, m.roughness);
    const glm::vec3 e = m.emissive * m.emissiveStrength;
    glUniform3fv(emissive_, 1, glm::value_ptr(e));
    glUniform1f(normalScale_, m.normalScale);
    glUniform1f(occlusionStrength_, m.occlusionStrength);
    glUniform1i(alphaMode_, static_cast<GLint>(m.alphaMode));
    glUniform1f(alphaCutoff_, m.alphaCutoff);
    glUniform1i(doubleSided_, m.doubleSided ? 1 : 0);
    glUniform1i(unlit_, m.unlit ? 1 : 0);
    glUniform1f(clearcoat_, m.clearcoat);
    glUniform1f(clearcoatRoughness_, m.clearcoatRoughness);
}

void PbrShading::setSource(int colorSource, const glm::vec4& tint) const {
    glUniform1i(colorSource_, colorSource);
    glUniform4fv(tint_, 1, glm::value_ptr(tint));
}

}  // namespace rig
