// Binding by identity: bones and channels to the node the file means (internal to import/).
//
// Assimp 5.2.5 names bones and channels by node name only; no importer fills aiBone::mNode
// (its aiProcess_PopulateArmatureData step looks names up too, skipping nodes with meshes).
// So: a name only one node carries binds to it; glTF binds by the JSON's node indices
// (skin.joints, channel target.node); otherwise a bone prefers, among the nodes of its name,
// one inside the skin's skeleton (below the common ancestor of the skin's other joints, or on
// the path above it) that holds no mesh, and a channel prefers a skin joint, then a node with
// no mesh. Ties go to the first in node order and are reported as unsafe.
// Assimp's validator refuses a mesh whose bones share a name, yet a glTF skin may well have two
// joints called "tip" (left and right). Before validation, later bones of a name get a suffix
// (kBoneSuffix and a number) that boneName() takes off again: skins bind by index anyway.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <assimp/scene.h>

#include "anim/runtime/model.h"
#include "import/gltf/nodes.h"

namespace rig::scene {

// Give later bones of a mesh that share a name a suffix, so that Assimp's validation takes the
// mesh (before ReadFile's post-processing).
void uniquifyBoneNames(aiScene* scene);

// The bone's name as in the file (uniquifyBoneNames's suffix taken off).
std::string boneName(const aiBone* bone);

// Binds one scene's bones and channels to the flat skeleton's nodes (see above), recording in
// `stats.nameBindings` every name that several nodes share and which node was chosen, and why.
class NodeBinder {
public:
    NodeBinder(const Skeleton& sk, const std::vector<const aiNode*>& nodes, const gltf::Nodes& gltf, ImportStats& stats);

    // The node of each of the mesh's bones (-1: no node of that name).
    std::vector<int32_t> bindBones(const aiMesh* am, int32_t meshNode, const std::string& meshLabel);
    // The node of each of the animation's channels (-1: no node of that name).
    std::vector<int32_t> bindChannels(const aiAnimation* anim, size_t index, const std::string& clipLabel);

private:
    const std::vector<int32_t>* candidates(const std::string& name) const;
    const std::vector<int32_t>* gltfSkin(int32_t meshNode) const;
    bool isAncestorOrSelf(int32_t a, int32_t n) const;
    int32_t commonAncestor(int32_t a, int32_t b) const;
    int32_t pick(const std::vector<int32_t>& cands, const std::vector<int>& score, const std::string& name,
                 const std::string& usedBy, const std::string& rule);
    void note(const std::string& name, const std::string& usedBy, const std::vector<int32_t>& cands, int32_t chosen,
              const std::string& rule, bool safe);

    const Skeleton& sk_;
    const gltf::Nodes& gltf_;
    ImportStats& stats_;
    std::unordered_map<std::string, std::vector<int32_t>> byName_;
    std::vector<uint8_t> hasMesh_, isJoint_;
};

}  // namespace rig::scene
