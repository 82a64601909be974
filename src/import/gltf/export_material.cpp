#include "import/gltf/export_material.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "util/paths.h"

namespace rig {

namespace {

using json = nlohmann::json;

constexpr int kRepeat = 10497, kClamp = 33071, kMirror = 33648;
constexpr int kNearest = 9728, kLinear = 9729, kLinearMipmapLinear = 9987;
constexpr uintmax_t kMaxImageBytes = 256u << 20;

// `v` when finite, else `fallback`, clamped to [lo, hi].
float number(float v, float fallback, float lo, float hi) { return std::clamp(std::isfinite(v) ? v : fallback, lo, hi); }

bool finite2(const glm::vec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// "image/png" or "image/jpeg" from a file's first bytes; empty for anything else.
std::string imageMime(const std::string& bytes) {
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0) return "image/png";
    if (bytes.size() >= 3 && std::memcmp(bytes.data(), "\xff\xd8\xff", 3) == 0) return "image/jpeg";
    return {};
}

// The bytes of a texture's image: an embedded one ("*N") holding a PNG or JPEG file, or an
// image file beside the model. Empty (with `why`) when there is none rigview can embed.
std::string textureBytes(const Model& model, const std::string& ref, std::string& why) {
    if (ref[0] == '*') {
        char* end = nullptr;
        const unsigned long n = std::strtoul(ref.c_str() + 1, &end, 10);
        if (end == ref.c_str() + 1 || *end || n >= model.textures.size()) {
            why = "no such embedded texture";
            return {};
        }
        const EmbeddedTexture& t = model.textures[n];
        if (t.height != 0 || t.data.empty()) {
            why = t.data.empty() ? "the embedded image was not kept (too large)" : "raw texels, not a PNG or JPEG file";
            return {};
        }
        return std::string(t.data.begin(), t.data.end());
    }
    // Only a file the folder rule allows (util/paths): an image outside the model's folder is
    // not copied into the export.
    const std::string p = paths::resolveResourceFile(model.path, ref, nullptr);
    if (p.empty()) {
        why = "not found beside the model, or outside its folder (not read)";
        return {};
    }
    std::error_code ec;
    if (std::filesystem::file_size(p, ec) > kMaxImageBytes) {
        why = "larger than 256 MiB";
        return {};
    }
    std::ifstream in(p, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        why = "cannot be read";
        return {};
    }
    return bytes;
}

int wrapMode(int w) { return w == kClamp || w == kMirror ? w : kRepeat; }
int magFilter(int f) { return f == kNearest || f == kLinear ? f : kLinear; }
int minFilter(int f) { return f == kNearest || f == kLinear || (f >= 9984 && f <= 9987) ? f : kLinearMipmapLinear; }

}  // namespace

void GltfMaterialWriter::write(const std::vector<bool>& used) {
    for (size_t i = 0; i < model_.materials.size(); ++i) {
        const Material& m = model_.materials[i];
        if (i >= used.size() || !used[i]) {
            texCoords_.push_back(0);
            tangentUv_.push_back(-1);
            index_.push_back(-1);
            continue;
        }
        index_.push_back(static_cast<int>(materials_.size()));
        unsigned texCoords = 0;
        json written = material(m, texCoords);
        int tangentUv = -1;
        if (!written.contains("normalTexture") && written.contains("extensions") &&
            written["extensions"].contains("KHR_materials_clearcoat") &&
            written["extensions"]["KHR_materials_clearcoat"].contains("clearcoatNormalTexture")) {
            tangentUv = m.clearcoatNormalTexture.texCoord == 1 ? 1 : 0;
        }
        materials_.push_back(std::move(written));
        texCoords_.push_back(texCoords);
        tangentUv_.push_back(tangentUv);
    }
}

json GltfMaterialWriter::material(const Material& mat, unsigned& tc) {
    const glm::vec4& c = mat.baseColor;
    json pbr{{"baseColorFactor", {number(c.r, 1.0f, 0.0f, 1.0f), number(c.g, 1.0f, 0.0f, 1.0f), number(c.b, 1.0f, 0.0f, 1.0f),
                                  number(c.a, 1.0f, 0.0f, 1.0f)}},
             {"metallicFactor", number(mat.metallic, 1.0f, 0.0f, 1.0f)},
             {"roughnessFactor", number(mat.roughness, 1.0f, 0.0f, 1.0f)}};
    if (json t = textureInfo(mat, "baseColor", mat.baseColorTexture, tc); !t.is_null()) pbr["baseColorTexture"] = t;
    if (json t = textureInfo(mat, "metallicRoughness", mat.metallicRoughnessTexture, tc); !t.is_null()) {
        pbr["metallicRoughnessTexture"] = t;
    }
    json m{{"name", mat.name}, {"pbrMetallicRoughness", pbr}};
    if (json t = textureInfo(mat, "normal", mat.normalTexture, tc); !t.is_null()) {
        if (std::isfinite(mat.normalScale) && mat.normalScale != 1.0f) t["scale"] = mat.normalScale;
        m["normalTexture"] = t;
    }
    if (json t = textureInfo(mat, "occlusion", mat.occlusionTexture, tc); !t.is_null()) {
        const float s = number(mat.occlusionStrength, 1.0f, 0.0f, 1.0f);
        if (s != 1.0f) t["strength"] = s;
        m["occlusionTexture"] = t;
    }
    // glTF holds emissiveFactor in [0, 1]: a brighter factor is divided by its largest
    // component, which multiplies the strength instead (their product is what is drawn).
    glm::vec3 e(number(mat.emissive.r, 0.0f, 0.0f, 3.4e38f), number(mat.emissive.g, 0.0f, 0.0f, 3.4e38f),
                number(mat.emissive.b, 0.0f, 0.0f, 3.4e38f));
    float strength = number(mat.emissiveStrength, 1.0f, 0.0f, 3.4e38f);
    if (const float top = std::max({e.r, e.g, e.b}); top > 1.0f) {
        e /= top;
        strength *= top;
    }
    if (e != glm::vec3(0.0f)) m["emissiveFactor"] = {e.r, e.g, e.b};
    if (json t = textureInfo(mat, "emissive", mat.emissiveTexture, tc); !t.is_null()) m["emissiveTexture"] = t;
    json ext = json::object();
    if (strength != 1.0f && std::isfinite(strength)) {
        ext["KHR_materials_emissive_strength"] = {{"emissiveStrength", strength}};
    }
    if (mat.alphaMode == AlphaMode::Mask) {
        m["alphaMode"] = "MASK";
        m["alphaCutoff"] = number(mat.alphaCutoff, 0.5f, 0.0f, 3.4e38f);
    } else if (mat.alphaMode == AlphaMode::Blend) {
        m["alphaMode"] = "BLEND";
    }
    if (mat.doubleSided) m["doubleSided"] = true;
    json coat{{"clearcoatFactor", number(mat.clearcoat, 0.0f, 0.0f, 1.0f)},
              {"clearcoatRoughnessFactor", number(mat.clearcoatRoughness, 0.0f, 0.0f, 1.0f)}};
    if (json t = textureInfo(mat, "clearcoat", mat.clearcoatTexture, tc); !t.is_null()) coat["clearcoatTexture"] = t;
    if (json t = textureInfo(mat, "clearcoatRoughness", mat.clearcoatRoughnessTexture, tc); !t.is_null()) {
        coat["clearcoatRoughnessTexture"] = t;
    }
    if (json t = textureInfo(mat, "clearcoatNormal", mat.clearcoatNormalTexture, tc); !t.is_null()) {
        coat["clearcoatNormalTexture"] = t;
    }
    if (coat["clearcoatFactor"] != 0.0f || coat.size() > 2) ext["KHR_materials_clearcoat"] = coat;
    if (mat.unlit) ext["KHR_materials_unlit"] = json::object();
    if (!ext.empty()) {
        for (const auto& [name, value] : ext.items()) extensions_.insert(name);
        m["extensions"] = ext;
    }
    return m;
}

json GltfMaterialWriter::textureInfo(const Material& m, const char* slot, const TextureRef& t, unsigned& tc) {
    if (!t.present()) return nullptr;
    std::string why;
    const int img = image(t.path, why);
    if (img < 0) {
        leftOut_.push_back("material '" + m.name + "' " + slot + " texture '" + t.path + "': " + why);
        return nullptr;
    }
    const int smp = sampler(t);
    auto [it, added] = textureOf_.try_emplace({img, smp}, static_cast<int>(textures_.size()));
    if (added) textures_.push_back(json{{"source", img}, {"sampler", smp}});
    json info{{"index", it->second}};
    const int uv = t.texCoord == 1 ? 1 : 0;
    if (uv) info["texCoord"] = uv;
    tc |= 1u << uv;
    if (t.hasTransform() && finite2(t.offset) && finite2(t.scale) && std::isfinite(t.rotation)) {
        json tr = json::object();
        if (t.offset != glm::vec2(0.0f)) tr["offset"] = {t.offset.x, t.offset.y};
        if (t.rotation != 0.0f) tr["rotation"] = t.rotation;
        if (t.scale != glm::vec2(1.0f)) tr["scale"] = {t.scale.x, t.scale.y};
        info["extensions"] = {{"KHR_texture_transform", tr}};
        extensions_.insert("KHR_texture_transform");
    }
    return info;
}

int GltfMaterialWriter::image(const std::string& ref, std::string& why) {
    if (auto it = imageOf_.find(ref); it != imageOf_.end()) {
        why = it->second.second;
        return it->second.first;
    }
    int index = -1;
    const std::string bytes = textureBytes(model_, ref, why);
    const std::string mime = imageMime(bytes);
    if (!bytes.empty() && mime.empty()) why = "not a PNG or JPEG image (glTF holds only those)";
    if (!mime.empty()) {
        const int view = addView_(bytes.data(), bytes.size());
        json img{{"bufferView", view}, {"mimeType", mime}};
        if (ref[0] != '*') img["name"] = std::filesystem::path(ref).filename().string();
        images_.push_back(std::move(img));
        index = static_cast<int>(images_.size() - 1);
    }
    imageOf_.emplace(ref, std::make_pair(index, why));
    return index;
}

int GltfMaterialWriter::sampler(const TextureRef& t) {
    const std::tuple<int, int, int, int> key{wrapMode(t.wrapS), wrapMode(t.wrapT), magFilter(t.magFilter), minFilter(t.minFilter)};
    auto [it, added] = samplerOf_.try_emplace(key, static_cast<int>(samplers_.size()));
    if (added) {
        json s{{"magFilter", std::get<2>(key)}, {"minFilter", std::get<3>(key)}};
        if (std::get<0>(key) != kRepeat) s["wrapS"] = std::get<0>(key);
        if (std::get<1>(key) != kRepeat) s["wrapT"] = std::get<1>(key);
        samplers_.push_back(std::move(s));
    }
    return it->second;
}

void GltfMaterialWriter::store(json& doc, std::set<std::string>& extensionsUsed) const {
    if (!materials_.empty()) doc["materials"] = materials_;
    if (!textures_.empty()) {
        doc["textures"] = textures_;
        doc["images"] = images_;
        doc["samplers"] = samplers_;
    }
    extensionsUsed.insert(extensions_.begin(), extensions_.end());
}

}  // namespace rig
