// SkinningMatrixJob: one skin's palette from model-space joint matrices:
//   palette[j] = correction * model[joints[j]] * inverseBind[j]
// where `correction` is inverse(meshWorld) (the mesh-node correction; identity when the mesh
// hangs at the root frame). Spans are caller-owned; validate() checks sizes and joint
// indices, run() returns false (writing nothing) when validate() does. Allocates nothing.
#pragma once

#include <cstdint>
#include <span>

#include <glm/glm.hpp>

namespace rig {

struct SkinningMatrixJob {
    std::span<const glm::mat4> model;        // model-space matrix of every skeleton node
    std::span<const int32_t> joints;         // skin slot j -> node index
    std::span<const glm::mat4> inverseBind;  // one per joint slot
    const glm::mat4* correction = nullptr;   // optional left factor (nullptr: identity)
    std::span<glm::mat4> palette;            // output: at least joints.size() entries
    // Or, when not empty, the output as rows: entry j's 3x4 affine matrix as its three rows
    // (x, y, z: one RGBA texel each, as a GL texture buffer takes them) at rows[3j..3j+2];
    // at least 3 * joints.size(). `palette` is then unused.
    std::span<glm::vec4> rows;

    bool validate() const;
    bool run() const;
};

// An affine matrix as its first three rows (SkinningMatrixJob::rows' layout), and back (the
// last row (0, 0, 0, 1)).
void storeAffineRows(const glm::mat4& m, glm::vec4* rows);
glm::mat4 affineFromRows(const glm::vec4* rows);

}  // namespace rig
