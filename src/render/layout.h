// Attribute locations, texture units and limits shared by the C++ side and the shaders
// (shaders/*.glsl use the same numbers in layout(location = N)).
#pragma once

namespace rig::gl_layout {

inline constexpr unsigned kPosition = 0;
inline constexpr unsigned kNormal = 1;
inline constexpr unsigned kUv = 2;
inline constexpr unsigned kColor = 3;
inline constexpr unsigned kJoints = 4;   // uvec4, integer attribute (glVertexAttribIPointer)
inline constexpr unsigned kWeights = 5;
// The second influence set (influences 5 to 8, Mesh::joints2/weights2): bound only for meshes
// that have one, read only when the shader's u_influences8 is 1 (--influences 8).
inline constexpr unsigned kJoints2 = 6;  // uvec4, integer attribute
inline constexpr unsigned kWeights2 = 7;
// Physically based shading's extra attributes, bound only where the mesh has them
// (Mesh::tangents: xyz and the bitangent sign w; Mesh::uvs1: TEXCOORD_1).
inline constexpr unsigned kTangent = 8;
inline constexpr unsigned kUv1 = 9;

inline constexpr int kUnitBaseColor = 0;
inline constexpr int kUnitPalette = 1;   // samplerBuffer, RGBA32F, 3 texels (rows) per joint
inline constexpr int kUnitDualQuats = 2; // samplerBuffer, RGBA32F, 2 texels per joint

inline constexpr int kUnitMorphDeltas = 3;   // samplerBuffer, RGBA32F, 2 texels per vertex per target
inline constexpr int kUnitMorphWeights = 4;  // samplerBuffer, R32F, one weight per target
// Units 5 and 6: the crowd renderer's buffers (render/crowd_renderer.cpp).
// shaders/pbr.frag's material textures and the environment (render/pbr_shading.h).
inline constexpr int kUnitMetallicRoughness = 7;
inline constexpr int kUnitNormal = 8;
inline constexpr int kUnitOcclusion = 9;
inline constexpr int kUnitEmissive = 10;
inline constexpr int kUnitClearcoat = 11;
inline constexpr int kUnitClearcoatRoughness = 12;
inline constexpr int kUnitClearcoatNormal = 13;
inline constexpr int kUnitRadiance = 14;     // samplerCube: Environment::radianceCube
inline constexpr int kUnitDfg = 15;          // sampler2D: Environment::dfgLut

inline constexpr int kPaletteTexelsPerJoint = 3;
inline constexpr int kMorphTexelsPerTarget = 2;  // position delta, normal delta

}  // namespace rig::gl_layout
