// Materials from Assimp's material keys, mapped onto the glTF metallic-roughness Material
// (docs/import.md, "Materials"): PBR keys where the file has them (a metallic factor: glTF,
// OBJ with Pm), otherwise converted from diffuse / specular / shininess / opacity. glTF files
// then get what Assimp 5.2.5 drops or garbles from their JSON (import/gltf/materials.h).
#pragma once

#include <assimp/material.h>

#include "anim/runtime/model.h"

namespace rig::scene {

// The conversion of a Phong/Blinn specular exponent to glTF roughness: the Beckmann-equivalent
// alpha = sqrt(2 / (shininess + 2)) and roughness = sqrt(alpha) (glTF's alpha = roughness^2);
// 1 (no highlight) for a shininess <= 0 or not finite.
float roughnessFromShininess(float shininess);

// sRGB-encoded display value (0..1) to linear, as three.js's loaders convert the colours of
// FBX, COLLADA and OBJ materials.
float srgbToLinear(float c);

// One material from Assimp's keys (every slot's texture path, UV set, wrap modes and
// transform where Assimp has them).
Material materialFromAssimp(const aiMaterial& am);

}  // namespace rig::scene
