// One vertex's skin influences as a reader found them, kept as the runtime uses them: the one
// implementation behind rigview's glTF reader (gltf/primitives) and Assimp's scene conversion
// (assimp/scene_convert).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "anim/runtime/model.h"

namespace rig {

struct Influence {
    uint32_t slot;  // the joint's slot in the mesh's skin
    float weight;   // finite and positive
};

// Sorts `inf` (vertex v's influences) strongest first, equal weights by slot, then as listed (an
// insertion sort: stable, no allocation); records what they were in mesh.weightStats (examples,
// weight sums, truncation), originalInfluenceCount[v] and originalWeightSum[v]; and keeps the
// kMaxInfluences strongest, normalised, in mesh.joints[v] / mesh.weights[v], the unused slots
// naming the strongest joint with weight 0. A vertex with none follows its node: weight 1 on
// the slot mesh.joints[v][0] already holds (the rigid slot).
void keepStrongestInfluences(Mesh& mesh, size_t v, std::span<Influence> inf);

}  // namespace rig
