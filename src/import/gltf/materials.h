// glTF materials read from the file's JSON where Assimp 5.2.5 drops or garbles them: texCoord
// (Assimp's UV source is always 0 here), KHR_texture_transform (Assimp converts it to a
// transform about the centre), sampler filters of textures Assimp gives none for,
// KHR_materials_emissive_strength, KHR_materials_unlit, normal scale, occlusion strength and the
// clearcoat textures' UV sets and transforms.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "import/gltf/document.h"

namespace rig::gltf {

// Overwrite every field of model.materials[i] from the JSON material it came from. Assimp
// orders materials by first reference (and drops unused ones), so each Assimp material is
// matched to the JSON material with the same name and factors (the first not yet taken, in
// file order); one that matches none keeps what Assimp gave. Texture paths stay Assimp's (its
// "*N" for embedded images). A document without JSON leaves them as they are.
void applyMaterials(const Document& doc, Model& model);

// JSON material `material` of `gltf` read whole (rigview's own glTF reader): glTF's defaults, then
// every field the file gives. A texture's path is its image's uri, or "*N" for the N-th image the
// file holds itself (a bufferView or a data: URI), as Model::textures lists them.
Material readMaterial(const nlohmann::json& gltf, const nlohmann::json& material);
// glTF's default material, for primitives that name none: white, fully metallic and rough.
Material defaultGltfMaterial();

// The same on parsed JSON (tests, fuzzing).
void applyMaterials(const nlohmann::json& gltf, std::vector<Material>& materials);

}  // namespace rig::gltf
