#include "import/assimp/material_import.h"

#include <algorithm>
#include <cmath>

#include <assimp/GltfMaterial.h>

namespace rig::scene {

float roughnessFromShininess(float shininess) {
    if (!(shininess > 0.0f) || !std::isfinite(shininess)) return 1.0f;
    const float alpha = std::sqrt(2.0f / (shininess + 2.0f));
    return std::clamp(std::sqrt(alpha), 0.0f, 1.0f);
}

float srgbToLinear(float c) {
    if (!std::isfinite(c)) return 0.0f;
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

namespace {

int glWrap(int mode) {
    switch (mode) {
        case aiTextureMapMode_Clamp:
        case aiTextureMapMode_Decal: return 33071;   // CLAMP_TO_EDGE
        case aiTextureMapMode_Mirror: return 33648;  // MIRRORED_REPEAT
        default: return 10497;                       // REPEAT
    }
}

// The first of `types` that has a texture in slot 0, read into `ref` with its UV set, wrap modes
// and transform; false if none has one.
bool readTexture(const aiMaterial& am, std::initializer_list<aiTextureType> types, TextureRef& ref) {
    for (aiTextureType type : types) {
        aiString path;
        if (am.GetTexture(type, 0, &path) != AI_SUCCESS || path.length == 0) continue;
        ref.path = path.C_Str();
        int uv = 0;
        if (am.Get(AI_MATKEY_UVWSRC(type, 0), uv) == AI_SUCCESS && (uv == 0 || uv == 1)) ref.texCoord = static_cast<uint8_t>(uv);
        int mode = 0;
        if (am.Get(AI_MATKEY_MAPPINGMODE_U(type, 0), mode) == AI_SUCCESS) ref.wrapS = glWrap(mode);
        if (am.Get(AI_MATKEY_MAPPINGMODE_V(type, 0), mode) == AI_SUCCESS) ref.wrapT = glWrap(mode);
        int filter = 0;
        if (am.Get(AI_MATKEY_GLTF_MAPPINGFILTER_MAG(type, 0), filter) == AI_SUCCESS && (filter == 9728 || filter == 9729)) {
            ref.magFilter = filter;
        }
        if (am.Get(AI_MATKEY_GLTF_MAPPINGFILTER_MIN(type, 0), filter) == AI_SUCCESS && filter >= 9728 && filter <= 9987) {
            ref.minFilter = filter;
        }
        aiUVTransform t;
        if (am.Get(AI_MATKEY_UVTRANSFORM(type, 0), t) == AI_SUCCESS) {
            const glm::vec2 offset(t.mTranslation.x, t.mTranslation.y), scale(t.mScaling.x, t.mScaling.y);
            if (std::isfinite(offset.x) && std::isfinite(offset.y) && std::isfinite(scale.x) && std::isfinite(scale.y) &&
                std::isfinite(t.mRotation)) {
                ref.offset = offset;
                ref.scale = scale;
                ref.rotation = t.mRotation;
            }
        }
        return true;
    }
    return false;
}

bool finiteColor(const aiColor4D& c) {
    return std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.b) && std::isfinite(c.a);
}

// 3ds Max's Physical/PBR materials in FBX, which Assimp 5.2.5 gives only as raw properties:
// base colour (display values, sRGB to linear), metalness and roughness, or (the
// specular-glossiness variant, useGlossiness 1) glossiness as 1 - roughness with metallic 0,
// and the bump amount as the normal scale. False when the material has none of them.
bool read3dsMaxPbr(const aiMaterial& am, Material& m) {
    float metalness = 0.0f, roughness = 1.0f, glossiness = 0.0f;
    int useGlossiness = 0;
    const bool metalRough = am.Get("$raw.3dsMax|main|metalness", 0, 0, metalness) == AI_SUCCESS && std::isfinite(metalness);
    am.Get("$raw.3dsMax|main|useGlossiness", 0, 0, useGlossiness);
    const bool specGloss = useGlossiness == 1 && am.Get("$raw.3dsMax|main|glossiness", 0, 0, glossiness) == AI_SUCCESS &&
                           std::isfinite(glossiness);
    if (!metalRough && !specGloss) return false;
    if (specGloss) {
        m.metallic = 0.0f;
        m.roughness = std::clamp(1.0f - glossiness, 0.0f, 1.0f);
    } else {
        m.metallic = std::clamp(metalness, 0.0f, 1.0f);
        if (am.Get("$raw.3dsMax|main|roughness", 0, 0, roughness) == AI_SUCCESS && std::isfinite(roughness)) {
            m.roughness = std::clamp(roughness, 0.0f, 1.0f);
        }
    }
    aiColor4D c;
    if (am.Get("$raw.3dsMax|main|basecolor", 0, 0, c) == AI_SUCCESS && finiteColor(c)) {
        m.baseColor = glm::vec4(srgbToLinear(c.r), srgbToLinear(c.g), srgbToLinear(c.b), m.baseColor.a);
    }
    float bump = 1.0f;
    if (am.Get("$raw.3dsMax|main|bump_map_amt", 0, 0, bump) == AI_SUCCESS && std::isfinite(bump)) m.normalScale = bump;
    m.origin = "PBR keys (3ds Max)";
    return true;
}

}  // namespace

Material materialFromAssimp(const aiMaterial& am) {
    Material m;
    aiString name;
    if (am.Get(AI_MATKEY_NAME, name) == AI_SUCCESS) m.name = name.C_Str();
    float metallic = 0.0f, roughness = 1.0f;
    // A metallic factor is a real PBR key: Assimp's FBX reader also writes a roughness factor it
    // derives from the shininess, so roughness alone does not say the file is PBR.
    const bool pbr = am.Get(AI_MATKEY_METALLIC_FACTOR, metallic) == AI_SUCCESS;
    aiColor4D c(0.8f, 0.8f, 0.8f, 1.0f);
    float opacity = 1.0f;
    const bool hasOpacity = am.Get(AI_MATKEY_OPACITY, opacity) == AI_SUCCESS && std::isfinite(opacity);
    if (pbr) {
        m.origin = "PBR keys";
        m.metallic = std::clamp(std::isfinite(metallic) ? metallic : 0.0f, 0.0f, 1.0f);
        if (am.Get(AI_MATKEY_ROUGHNESS_FACTOR, roughness) == AI_SUCCESS && std::isfinite(roughness)) {
            m.roughness = std::clamp(roughness, 0.0f, 1.0f);
        }
        if ((am.Get(AI_MATKEY_BASE_COLOR, c) == AI_SUCCESS || am.Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS) && finiteColor(c)) {
            m.baseColor = glm::vec4(c.r, c.g, c.b, c.a);
        }
        if (hasOpacity) m.baseColor.a = std::min(m.baseColor.a, std::clamp(opacity, 0.0f, 1.0f));  // OBJ's d
    } else {
        m.origin = "converted from diffuse/specular/shininess";
        if (am.Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS && finiteColor(c)) {
            m.baseColor = glm::vec4(srgbToLinear(c.r), srgbToLinear(c.g), srgbToLinear(c.b), 1.0f);
        }
        if (hasOpacity) m.baseColor.a = std::clamp(opacity, 0.0f, 1.0f);
        float shininess = 0.0f;
        if (am.Get(AI_MATKEY_SHININESS, shininess) == AI_SUCCESS) m.roughness = roughnessFromShininess(shininess);
        m.metallic = 0.0f;
    }
    aiColor4D e(0.0f, 0.0f, 0.0f, 1.0f);
    if (am.Get(AI_MATKEY_COLOR_EMISSIVE, e) == AI_SUCCESS && finiteColor(e)) {
        glm::vec3 em = pbr ? glm::vec3(e.r, e.g, e.b) : glm::vec3(srgbToLinear(e.r), srgbToLinear(e.g), srgbToLinear(e.b));
        em = glm::max(em, glm::vec3(0.0f));
        // Factors above 1 (FBX emissive colours) become a unit factor times a strength.
        const float peak = std::max({em.r, em.g, em.b});
        if (peak > 1.0f) {
            m.emissiveStrength = peak;
            em /= peak;
        }
        m.emissive = em;
    }
    int twoSided = 0;
    if (am.Get(AI_MATKEY_TWOSIDED, twoSided) == AI_SUCCESS) m.doubleSided = twoSided != 0;
    aiString alphaMode;
    if (am.Get(AI_MATKEY_GLTF_ALPHAMODE, alphaMode) == AI_SUCCESS) {
        const std::string mode = alphaMode.C_Str();
        m.alphaMode = mode == "MASK" ? AlphaMode::Mask : mode == "BLEND" ? AlphaMode::Blend : AlphaMode::Opaque;
        float cutoff = 0.5f;
        if (am.Get(AI_MATKEY_GLTF_ALPHACUTOFF, cutoff) == AI_SUCCESS && std::isfinite(cutoff)) m.alphaCutoff = cutoff;
    } else if (m.baseColor.a < 1.0f) {
        m.alphaMode = AlphaMode::Blend;
    }
    float clearcoat = 0.0f;
    if (am.Get(AI_MATKEY_CLEARCOAT_FACTOR, clearcoat) == AI_SUCCESS && std::isfinite(clearcoat)) {
        m.clearcoat = std::clamp(clearcoat, 0.0f, 1.0f);
        float r = 0.0f;
        if (am.Get(AI_MATKEY_CLEARCOAT_ROUGHNESS_FACTOR, r) == AI_SUCCESS && std::isfinite(r)) m.clearcoatRoughness = std::clamp(r, 0.0f, 1.0f);
    }
    readTexture(am, {aiTextureType_BASE_COLOR, aiTextureType_DIFFUSE}, m.baseColorTexture);
    // glTF's packed metallic-roughness texture (Assimp: UNKNOWN); separate metalness and
    // roughness maps (FBX PBR) have no slot in the glTF model.
    if (pbr) readTexture(am, {aiTextureType_UNKNOWN}, m.metallicRoughnessTexture);
    // A height (bump) map stands in for a normal map only when there is none: OBJ exporters
    // (Blender's among them) write normal maps as map_Bump.
    readTexture(am, {aiTextureType_NORMALS, aiTextureType_NORMAL_CAMERA, aiTextureType_HEIGHT}, m.normalTexture);
    float bump = 1.0f;
    if (am.Get(AI_MATKEY_GLTF_TEXTURE_SCALE(aiTextureType_NORMALS, 0), bump) == AI_SUCCESS && std::isfinite(bump)) m.normalScale = bump;
    readTexture(am, {aiTextureType_LIGHTMAP, aiTextureType_AMBIENT_OCCLUSION}, m.occlusionTexture);
    float strength = 1.0f;
    if (am.Get(AI_MATKEY_GLTF_TEXTURE_STRENGTH(aiTextureType_LIGHTMAP, 0), strength) == AI_SUCCESS && std::isfinite(strength)) {
        m.occlusionStrength = strength;
    }
    if (readTexture(am, {aiTextureType_EMISSIVE, aiTextureType_EMISSION_COLOR}, m.emissiveTexture) && m.emissive == glm::vec3(0.0f) &&
        !pbr) {
        m.emissive = glm::vec3(1.0f);  // an emission map with no colour: the map as it is
    }
    readTexture(am, {aiTextureType_CLEARCOAT}, m.clearcoatTexture);
    aiString p;
    if (am.GetTexture(aiTextureType_CLEARCOAT, 1, &p) == AI_SUCCESS) m.clearcoatRoughnessTexture.path = p.C_Str();
    if (am.GetTexture(aiTextureType_CLEARCOAT, 2, &p) == AI_SUCCESS) m.clearcoatNormalTexture.path = p.C_Str();
    if (!pbr) read3dsMaxPbr(am, m);
    return m;
}

}  // namespace rig::scene
