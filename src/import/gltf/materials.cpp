#include "import/gltf/materials.h"

#include <algorithm>
#include <cmath>

#include "import/gltf/document.h"

namespace rig::gltf {

namespace {

using nlohmann::json;

const json* member(const json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

bool number(const json& obj, const char* key, float& out) {
    const json* v = member(obj, key);
    if (!v || !v->is_number()) return false;
    const double d = v->get<double>();
    if (!std::isfinite(d)) return false;
    out = static_cast<float>(d);
    return true;
}

// A glTF array of n finite numbers.
template <int N>
bool numbers(const json& obj, const char* key, float (&out)[N]) {
    const json* v = member(obj, key);
    if (!v || !v->is_array() || v->size() != N) return false;
    float tmp[N];
    for (int i = 0; i < N; ++i) {
        if (!(*v)[i].is_number()) return false;
        tmp[i] = static_cast<float>((*v)[i].get<double>());
        if (!std::isfinite(tmp[i])) return false;
    }
    std::copy(tmp, tmp + N, out);
    return true;
}

// An element of a top-level array by a JSON index, or nullptr.
const json* element(const json& gltf, const char* array, const json* index) {
    if (!index || !index->is_number_unsigned()) return nullptr;
    const json* a = member(gltf, array);
    const uint64_t i = index->get<uint64_t>();
    if (!a || !a->is_array() || i >= a->size()) return nullptr;
    return &(*a)[i];
}

void readTexCoord(const json& obj, TextureRef& ref) {
    const json* t = member(obj, "texCoord");
    if (t && t->is_number_unsigned() && t->get<uint64_t>() <= 1) ref.texCoord = static_cast<uint8_t>(t->get<uint64_t>());
}

// A textureInfo: UV set, KHR_texture_transform, sampler; the path from the image's uri when
// Assimp gave none for the slot. An invalid texture index clears the slot.
void readTextureInfo(const json& gltf, const json* info, TextureRef& ref) {
    if (!info || !info->is_object()) return;
    const json* texture = element(gltf, "textures", member(*info, "index"));
    if (!texture || !texture->is_object()) {
        ref = TextureRef{};
        return;
    }
    const std::string path = ref.path;
    ref = TextureRef{};
    ref.path = path;
    readTexCoord(*info, ref);
    if (const json* ext = member(*info, "extensions")) {
        if (const json* tt = member(*ext, "KHR_texture_transform"); tt && tt->is_object()) {
            float offset[2], scale[2], rotation = 0.0f;
            if (numbers(*tt, "offset", offset)) ref.offset = {offset[0], offset[1]};
            if (numbers(*tt, "scale", scale)) ref.scale = {scale[0], scale[1]};
            if (number(*tt, "rotation", rotation)) ref.rotation = rotation;
            readTexCoord(*tt, ref);  // the extension's texCoord overrides the textureInfo's
        }
    }
    if (const json* sampler = element(gltf, "samplers", member(*texture, "sampler")); sampler && sampler->is_object()) {
        auto glEnum = [&](const char* key, int& out, std::initializer_list<int> allowed) {
            const json* v = member(*sampler, key);
            if (!v || !v->is_number_integer()) return;
            const int64_t e = v->get<int64_t>();
            if (std::find(allowed.begin(), allowed.end(), e) != allowed.end()) out = static_cast<int>(e);
        };
        glEnum("wrapS", ref.wrapS, {10497, 33071, 33648});
        glEnum("wrapT", ref.wrapT, {10497, 33071, 33648});
        glEnum("magFilter", ref.magFilter, {9728, 9729});
        glEnum("minFilter", ref.minFilter, {9728, 9729, 9984, 9985, 9986, 9987});
    }
    if (ref.path.empty()) {
        const json* image = element(gltf, "images", member(*texture, "source"));
        const json* uri = image ? member(*image, "uri") : nullptr;
        if (uri && uri->is_string() && uri->get<std::string>().rfind("data:", 0) != 0) {
            ref.path = uri->get<std::string>();
        } else if (image) {
            // Held by the file: its place among the images the file holds.
            const json& images = *member(gltf, "images");
            size_t embedded = 0;
            for (const json& other : images) {
                if (&other == image) break;
                const json* u = member(other, "uri");
                embedded += member(other, "bufferView") || (u && u->is_string() && u->get<std::string>().rfind("data:", 0) == 0);
            }
            if (member(*image, "bufferView") || uri) ref.path = "*" + std::to_string(embedded);
        }
    }
}

bool near(float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(a)); }

// Whether JSON material `jm` is the one Assimp read as `m` (name, factors, alpha mode, sides).
bool sameMaterial(const json& jm, const Material& m) {
    if (const json* name = member(jm, "name"); name && name->is_string() && name->get<std::string>() != m.name) return false;
    const json* pbr = member(jm, "pbrMetallicRoughness");
    float base[4] = {1.0f, 1.0f, 1.0f, 1.0f}, metallic = 1.0f, roughness = 1.0f;
    if (pbr) {
        numbers(*pbr, "baseColorFactor", base);
        number(*pbr, "metallicFactor", metallic);
        number(*pbr, "roughnessFactor", roughness);
    }
    for (int i = 0; i < 4; ++i) {
        if (!near(base[i], m.baseColor[i])) return false;
    }
    if (!near(metallic, m.metallic) || !near(roughness, m.roughness)) return false;
    const json* ds = member(jm, "doubleSided");
    return (ds && ds->is_boolean() && ds->get<bool>()) == m.doubleSided;
}

void overlay(const json& gltf, const json& jm, Material& m) {
    m.origin = "glTF metallic-roughness";
    const json* pbr = member(jm, "pbrMetallicRoughness");
    float base[4];
    if (pbr && numbers(*pbr, "baseColorFactor", base)) m.baseColor = {base[0], base[1], base[2], base[3]};
    if (pbr) {
        number(*pbr, "metallicFactor", m.metallic);
        number(*pbr, "roughnessFactor", m.roughness);
        readTextureInfo(gltf, member(*pbr, "baseColorTexture"), m.baseColorTexture);
        readTextureInfo(gltf, member(*pbr, "metallicRoughnessTexture"), m.metallicRoughnessTexture);
    }
    const json* normal = member(jm, "normalTexture");
    readTextureInfo(gltf, normal, m.normalTexture);
    if (normal) number(*normal, "scale", m.normalScale);
    const json* occlusion = member(jm, "occlusionTexture");
    readTextureInfo(gltf, occlusion, m.occlusionTexture);
    if (occlusion) number(*occlusion, "strength", m.occlusionStrength);
    readTextureInfo(gltf, member(jm, "emissiveTexture"), m.emissiveTexture);
    float emissive[3];
    if (numbers(jm, "emissiveFactor", emissive)) m.emissive = {emissive[0], emissive[1], emissive[2]};
    const json* mode = member(jm, "alphaMode");
    if (mode && mode->is_string()) {
        const std::string s = mode->get<std::string>();
        m.alphaMode = s == "MASK" ? AlphaMode::Mask : s == "BLEND" ? AlphaMode::Blend : AlphaMode::Opaque;
    } else {
        m.alphaMode = AlphaMode::Opaque;
    }
    number(jm, "alphaCutoff", m.alphaCutoff);
    const json* ext = member(jm, "extensions");
    m.emissiveStrength = 1.0f;
    m.unlit = false;
    if (!ext) return;
    if (const json* es = member(*ext, "KHR_materials_emissive_strength")) number(*es, "emissiveStrength", m.emissiveStrength);
    m.unlit = member(*ext, "KHR_materials_unlit") != nullptr;
    if (const json* cc = member(*ext, "KHR_materials_clearcoat"); cc && cc->is_object()) {
        m.clearcoat = 0.0f;
        m.clearcoatRoughness = 0.0f;
        number(*cc, "clearcoatFactor", m.clearcoat);
        number(*cc, "clearcoatRoughnessFactor", m.clearcoatRoughness);
        readTextureInfo(gltf, member(*cc, "clearcoatTexture"), m.clearcoatTexture);
        readTextureInfo(gltf, member(*cc, "clearcoatRoughnessTexture"), m.clearcoatRoughnessTexture);
        readTextureInfo(gltf, member(*cc, "clearcoatNormalTexture"), m.clearcoatNormalTexture);
    }
}

}  // namespace

Material defaultGltfMaterial() {
    Material m;
    m.baseColor = {1.0f, 1.0f, 1.0f, 1.0f};
    m.metallic = 1.0f;
    m.roughness = 1.0f;
    m.origin = "glTF default material";
    return m;
}

Material readMaterial(const json& gltf, const json& jm) {
    Material m = defaultGltfMaterial();
    if (const json* name = member(jm, "name"); name && name->is_string()) m.name = name->get<std::string>();
    const json* ds = member(jm, "doubleSided");
    m.doubleSided = ds && ds->is_boolean() && ds->get<bool>();
    overlay(gltf, jm, m);
    return m;
}

void applyMaterials(const json& gltf, std::vector<Material>& materials) {
    const json* list = member(gltf, "materials");
    if (!list || !list->is_array()) return;
    std::vector<bool> taken(list->size(), false);
    for (Material& m : materials) {
        for (size_t j = 0; j < list->size(); ++j) {
            if (taken[j] || !(*list)[j].is_object() || !sameMaterial((*list)[j], m)) continue;
            taken[j] = true;
            overlay(gltf, (*list)[j], m);
            break;
        }
    }
}

void applyMaterials(const Document& doc, Model& model) {
    if (doc.valid()) applyMaterials(doc.json(), model.materials);
}

}  // namespace rig::gltf
