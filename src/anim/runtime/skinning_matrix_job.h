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

// The bounds of a skin's joint indices, found once (an Animator keeps one per palette): a job
// given them checks its joints in O(1) instead of one by one every tick (also a part of the
// array: a sparse palette's runs). Built for one joints array, which must not change after.
class JointRange {
public:
    JointRange() = default;
    explicit JointRange(std::span<const int32_t> joints);
    // Whether these bounds hold for `joints`: the array they were found in, or a part of it
    // (the same storage).
    bool covers(std::span<const int32_t> joints) const {
        const uintptr_t at = reinterpret_cast<uintptr_t>(joints.data()), from = reinterpret_cast<uintptr_t>(data_);
        return at >= from && joints.size() <= size_ && (at - from) / sizeof(int32_t) <= size_ - joints.size();
    }
    // Every index names one of `nodes` nodes.
    bool within(size_t nodes) const { return min_ >= 0 && static_cast<int64_t>(max_) < static_cast<int64_t>(nodes); }

private:
    const int32_t* data_ = nullptr;
    size_t size_ = 0;
    int32_t min_ = 0, max_ = -1;
};

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
    // Optional: the bounds of `joints` (built for it), so that validate() need not read them.
    const JointRange* range = nullptr;

    bool validate() const;
    bool run() const;
};

// An affine matrix as its first three rows (SkinningMatrixJob::rows' layout), and back (the
// last row (0, 0, 0, 1)).
void storeAffineRows(const glm::mat4& m, glm::vec4* rows);
glm::mat4 affineFromRows(const glm::vec4* rows);

}  // namespace rig
