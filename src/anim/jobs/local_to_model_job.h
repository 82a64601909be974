// LocalToModelJob: local joint poses to model-space (to-root) matrices with one forward loop
// over a parents-first skeleton: model[i] = parent[i] < 0 ? local(i) : model[parent[i]] * local(i).
// Every buffer is a span the caller owns; validate() checks their sizes and the parent order,
// run() returns false (writing nothing) when validate() does. Allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "anim/transform.h"

namespace rig {

struct LocalToModelJob {
    // Skeleton parents, parent[i] < i, -1 for a root. The job covers joints [0, end), where
    // end = parent.size() unless `count` is set (a prefix: parents come first).
    std::span<const int32_t> parent;
    // The local poses, in one of three forms:
    // - `local` only: SQT per joint, toMatrix(local[i]);
    // - `bindLocal` only: a matrix per joint (e.g. the file's exact to-parent matrices);
    // - all three: toMatrix(local[i]) where useLocal[i] != 0, bindLocal[i] elsewhere.
    std::span<const Transform> local;
    std::span<const glm::mat4> bindLocal;
    std::span<const uint8_t> useLocal;
    // Joints to compute: 0 means parent.size().
    size_t count = 0;
    // Output: one model-space matrix per joint (at least `count`).
    std::span<glm::mat4> model;

    size_t end() const { return count ? count : parent.size(); }
    bool validate() const;
    bool run() const;
};

}  // namespace rig
