// The error measurement of anim/offline/compress.h, shared by compressClip (which measures
// each attempt against one reference) and measureCompressionError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "anim/offline/compress.h"
#include "anim/runtime/compressed_clip.h"
#include "anim/runtime/model.h"

namespace rig {

// The original clip's side of the error measurement, computed once per clip: the sample times
// (every distinct key time and the midpoint of each pair of neighbouring ones), every node's
// model-space origin at each, and, when they fit in `kMaxCachedVertexFloats`, every vertex in
// model space at the times vertices are measured at (else they are skinned again each time).
struct ErrorReference {
    std::vector<float> times;
    std::vector<uint8_t> animated;  // per node: a track of the original animates it
    size_t stride = 1;              // vertices are measured at every stride-th sample time
    bool doVertices = false, cachedVertices = false;
    size_t vertexCount = 0;
    std::vector<glm::vec3> joints;    // times x nodes
    std::vector<glm::vec3> vertices;  // measured times x vertices (meshes in order)
};

ErrorReference makeErrorReference(const Model& model, const Clip& original, const CompressSettings& settings);

// The compressed clip against the reference. Stops early, with the error so far, once it is
// over `stopAbove` (an attempt that is over the tolerance needs no more).
CompressionError measureAgainst(const Model& model, const Clip& original, const ErrorReference& ref,
                                const CompressedClip& compressed, double stopAbove);

}  // namespace rig
