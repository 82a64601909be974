// Node identity in a glTF file, mapped onto rigview's flat skeleton. Assimp 5.2.5 builds its
// node tree from the scene's root nodes (one root: that node; several: a node "ROOT" over them),
// children in file order, and names bones and channels by node name only. Walking the JSON's
// tree beside the skeleton (names and child counts must agree) gives each glTF node index its
// skeleton node, so skins (skin.joints) and channels (target.node) bind by index
// (assimp/node_binding), and rigview's own passes (gltf/keys) find the channels they refine.
#pragma once

#include <cstdint>
#include <vector>

#include "anim/runtime/model.h"
#include "import/gltf/document.h"

namespace rig::gltf {

struct Nodes {
    bool valid = false;                  // the JSON was read and its tree matches the skeleton
    std::vector<int32_t> nodeOfJson;     // glTF node index -> skeleton node (-1: not in the scene)
    std::vector<int32_t> jsonOfNode;     // skeleton node -> glTF node index (-1: Assimp's "ROOT")
    std::vector<int32_t> skinOfJson;     // glTF node -> its "skin" (-1: none)
    std::vector<std::vector<int32_t>> skinJoints;  // skin -> skeleton nodes of skin.joints, in order
    // A node an animation moves: key counts of its translation/rotation/scale samplers (0: none)
    // and the first and last key time over them (seconds), to tell same-named targets apart.
    // Where two targets of one name match in that too, their first and last key values (FLOAT
    // outputs: translation xyz, rotation xyzw, scale xyz) tell them apart.
    struct Target {
        int32_t node = -1;
        uint32_t counts[3] = {0, 0, 0};
        float first = 0.0f, last = 0.0f;
        bool hasValues[3] = {false, false, false};
        float firstValue[3][4] = {}, lastValue[3][4] = {};
    };
    std::vector<std::vector<Target>> animationTargets;  // per glTF animation
};

// The node identities of `doc` for `sk` (an invalid result when the document holds no JSON or
// its tree does not match the one Assimp built).
Nodes readNodes(const Document& doc, const Skeleton& sk);

}  // namespace rig::gltf
