// The FBX transform chain, folded back into the file's own nodes (internal to import/).
//
// An FBX node's local transform is
//   T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1
// (translation, rotation offset and pivot, pre-rotation, rotation, post-rotation, scaling
// offset and pivot, scaling), and its geometry is further moved by the geometric translation,
// rotation and scaling, which its children do not inherit. Assimp 5.2.5 writes a node with any
// term beyond T, R and S as a chain of helper nodes, `<name>_$AssimpFbx$_<Term>`, one per
// non-identity term, ending in a node `<name>` that holds the meshes; the geometric terms' inverses
// follow it, before the children. Its animation channels then come in two forms:
//  - nodes with pivots, offsets or geometric terms: one channel per animated term, on that
//    term's helper node (correct, once the chain is multiplied out);
//  - nodes whose only extra terms are pre- and post-rotations: one channel on `<name>` holding the
//    whole local transform T * (Rpre * R * Rpost) * S. It is applied on top of the helpers' own
//    static T, Rpre, R, Rpost^-1 and S, so every animated joint of such a rig (Mixamo's, Maya's
//    joint orients) is transformed twice, and Rpost is not inverted.
// foldFbxTransformChains removes the helper nodes: each chain becomes the one node of the file,
// its local transform the chain's product, its channel the chain evaluated at every key time
// (the helper channels' keys, linearly interpolated between their own keys; or the whole-
// transform channel with its post-rotation inverted), and geometric terms baked into the meshes
// the node holds (vertices, normals, tangents, morph targets, and the bones' offset matrices), as
// Blender's and three.js's importers do. Node names and counts are then the file's. Chains of two
// FBX nodes that share a name (whose channels Assimp names alike) are left as Assimp made them.
#pragma once

struct aiScene;

namespace rig::scene {

struct FbxChainStats {
    unsigned chains = 0;          // nodes whose helper chain was folded
    unsigned channels = 0;        // channels rewritten (helper channels merged, whole-transform ones corrected)
    unsigned geometricMeshes = 0; // meshes with the geometric transform baked in
};

// Call on an FBX scene as Assimp 5.2.5 read it, before validation and post-processing.
FbxChainStats foldFbxTransformChains(aiScene& scene);

// Assimp's FBX reader merges every curve of a node onto the union of their key times (and adds
// keys where an Euler curve turns 180 degrees or more), so two keys of a channel can lie closer
// than a float second can tell apart; rigview keeps times as float seconds. Of keys that fall on
// one float time, keep the last: the file has no such duplicate (Assimp merges equal times).
// Returns how many keys went.
unsigned mergeKeysAtOneTime(aiScene& scene, double defaultTicksPerSecond);

}  // namespace rig::scene
