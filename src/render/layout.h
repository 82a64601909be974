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

inline constexpr int kUnitBaseColor = 0;
inline constexpr int kUnitPalette = 1;   // samplerBuffer, RGBA32F, 3 texels (rows) per joint
inline constexpr int kUnitDualQuats = 2; // samplerBuffer, RGBA32F, 2 texels per joint

inline constexpr int kUnitMorphDeltas = 3;   // samplerBuffer, RGBA32F, 2 texels per vertex per target
inline constexpr int kUnitMorphWeights = 4;  // samplerBuffer, R32F, one weight per target

inline constexpr int kPaletteTexelsPerJoint = 3;
inline constexpr int kMorphTexelsPerTarget = 2;  // position delta, normal delta

}  // namespace rig::gl_layout
