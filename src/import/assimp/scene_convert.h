// The pieces of an Assimp scene turned into a runtime Model (internal to import/; assimp/read.cpp
// drives them): the node tree flattened parents-first, meshes with their skins (weights sorted,
// the 4 strongest renormalized as the first set, influences 5 to 8 as the second, and every
// influence of a vertex with more than 4 kept for `check`) and morph targets,
// clips with their channels (keys sorted, non-finite keys dropped, what was wrong counted in
// CurveStats) and morph weight channels, materials and embedded textures. Bones and channels
// arrive already bound to nodes (import/assimp/node_binding).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <assimp/scene.h>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig::scene {

inline constexpr size_t kMaxExamples = 10;   // example indices / names kept per statistic
inline constexpr size_t kMaxDepth = 100000;  // deepest node hierarchy read

glm::mat4 toGlm(const aiMatrix4x4& m);
inline bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool finite(const glm::quat& q) { return finite(glm::vec3(q.x, q.y, q.z)) && std::isfinite(q.w); }
bool finite(const glm::mat4& m);

// Flatten Assimp's node tree into parent-before-child arrays (pre-order, iterative, guarded
// against cycles). Returns the aiNode of each flat index.
Result<std::vector<const aiNode*>> flattenNodes(const aiScene* scene, Skeleton& sk, const std::string& path);

// One mesh at skeleton node `node`; boneNodes[b] is the node bone b binds to (-1: none, the
// bone is reported missing).
Mesh importMesh(const aiMesh* am, int32_t node, const Skeleton& sk, const std::vector<int32_t>& boneNodes,
                ImportStats& stats);

// One clip; channelNodes[c] is the node channel c binds to (-1: skipped, counted).
Clip importClip(const aiAnimation* anim, size_t index, const Skeleton& sk, const std::vector<int32_t>& channelNodes,
                ImportStats& stats);

// A clip's morph weight channels (Assimp's aiMeshMorphAnim, named after the node that holds
// the mesh): one MorphTrack per mesh at that node with morph targets, weights dense per key
// (a target a key does not list weighs 0). Times in seconds; linear until the glTF JSON says
// otherwise (import/gltf/morphs). Extends the clip's time range to its morph keys.
void importMorphChannels(const aiAnimation* anim, const Model& model, Clip& clip);

// Materials (every field Assimp's keys give: import/assimp/material_import.h; one default material
// when the file has none) and embedded textures.
void importMaterials(const aiScene* scene, Model& model);

}  // namespace rig::scene
