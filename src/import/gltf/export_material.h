// The material half of a glTF export (import/gltf/export.h): a Model's materials as glTF
// metallic-roughness materials with every texture slot, their samplers, UV sets and
// KHR_texture_transform, the extensions they need (KHR_materials_emissive_strength,
// KHR_materials_clearcoat, KHR_materials_unlit), and the images embedded in the asset's buffer.
// No GL, no Assimp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"

namespace rig {

class GltfMaterialWriter {
public:
    // Appends `bytes` to the asset's buffer as a buffer view; returns the view's index.
    using AddView = std::function<int(const void* data, size_t bytes)>;

    GltfMaterialWriter(const Model& model, AddView addView) : model_(model), addView_(std::move(addView)) {}

    // Writes the model's materials that `used` marks (one flag per Model material), in order
    // (gltfIndex() gives each one's glTF index; glTF files hold no material nothing uses):
    // factors clamped to glTF's ranges (an emissive factor over 1 moves into the emissive
    // strength, so their product is kept; a non-finite number becomes glTF's default), each
    // present texture as a textureInfo with its UV set and transform, its sampler (identical
    // samplers and textures shared) and its image: an embedded PNG/JPEG ("*N") or an image file
    // the folder rule lets import read (paths::resolveResourceFile), copied into the buffer once
    // per path. A texture whose image cannot be embedded (not PNG or JPEG, raw texels, missing,
    // outside the model's folder) is left out and named in leftOut().
    void write(const std::vector<bool>& used);

    // Model material `material`'s index among the written ones, -1 when it was not written.
    int gltfIndex(uint32_t material) const { return material < index_.size() ? index_[material] : -1; }

    // The arrays written (empty ones left out) and the extensions used, added to `extensionsUsed`.
    void store(nlohmann::json& doc, std::set<std::string>& extensionsUsed) const;

    // The UV sets material `material`'s written textures read: bit 0 TEXCOORD_0, bit 1 TEXCOORD_1.
    unsigned texCoordsUsed(uint32_t material) const {
        return material < texCoords_.size() ? texCoords_[material] : 0u;
    }

    // Whether material `material` needs a tangent space glTF cannot make: a written clearcoat
    // normal texture without a normal texture (the validator's MESH_PRIMITIVE_NO_TANGENT_SPACE);
    // its UV set in `texCoord`.
    bool needsTangents(uint32_t material, int& texCoord) const {
        if (material >= tangentUv_.size() || tangentUv_[material] < 0) return false;
        texCoord = tangentUv_[material];
        return true;
    }

    // One line per texture left out: "material 'M' <slot> texture 'path': <why>".
    const std::vector<std::string>& leftOut() const { return leftOut_; }

private:
    nlohmann::json material(const Material& m, unsigned& texCoords);
    // The textureInfo of `t` (index, texCoord, KHR_texture_transform), or null when left out.
    nlohmann::json textureInfo(const Material& m, const char* slot, const TextureRef& t, unsigned& texCoords);
    int image(const std::string& ref, std::string& why);
    int sampler(const TextureRef& t);

    const Model& model_;
    AddView addView_;
    nlohmann::json materials_ = nlohmann::json::array(), textures_ = nlohmann::json::array();
    nlohmann::json images_ = nlohmann::json::array(), samplers_ = nlohmann::json::array();
    std::set<std::string> extensions_;
    std::map<std::string, std::pair<int, std::string>> imageOf_;  // path -> image (-1: why not)
    std::map<std::tuple<int, int, int, int>, int> samplerOf_;   // wrapS, wrapT, mag, min
    std::map<std::pair<int, int>, int> textureOf_;               // image, sampler
    std::vector<unsigned> texCoords_;
    std::vector<int> tangentUv_;  // per material: needsTangents' UV set, -1 when not needed
    std::vector<int> index_;      // per material: its glTF index, -1 when not written
    std::vector<std::string> leftOut_;
};

}  // namespace rig
