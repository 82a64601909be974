// LocalToModelJob: local joint poses to model-space (to-root) matrices with one forward loop
// over a parents-first skeleton: model[i] = parent[i] < 0 ? local(i) : model[parent[i]] * local(i).
// Every buffer is a span the caller owns; validate() checks their sizes and the parent order,
// run() returns false (writing nothing) when validate() does. Allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/transform.h"

namespace rig {

// An order for LocalToModelJob to compute joints in: depth level by depth level (the roots,
// then their children, then theirs...; by index within a level), so parents still come before
// their children. In index order (a depth-first skeleton) nearly every product waits for the
// one just before it, its parent's; by levels, neighbouring products are independent and the
// CPU overlaps them. Built once per skeleton (it allocates), which checks the parents then:
// a job given an order does not walk them again. The parent array must not change after.
class JointOrder {
public:
    JointOrder() = default;
    // The level order of `parent`; empty when `parent` is not parents-first (parent[i] < i,
    // -1 for a root) or is empty.
    explicit JointOrder(std::span<const int32_t> parent);
    // The joints of `full` where keep[joint] != 0, in full's order: a partial order. A job
    // given one computes only those joints and reads every other joint's model matrix as
    // `model` holds it (the caller keeps those current, e.g. joints whose matrix does not
    // change); full's checks carry over. Empty when `full` is or nothing is kept.
    // (Allocates nothing once this order has held as many joints as `full`.)
    void assignPartial(const JointOrder& full, const uint8_t* keep);
    bool empty() const { return order_.empty(); }
    // Whether this order was built from exactly this array (the same storage and size).
    bool builtFor(std::span<const int32_t> parent) const {
        return !order_.empty() && parent.data() == parent_ && parent.size() == nodes_;
    }
    std::span<const int32_t> joints() const { return order_; }

private:
    std::vector<int32_t> order_;
    const int32_t* parent_ = nullptr;
    size_t nodes_ = 0;  // the skeleton's size (order_'s, unless partial)
};

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
    // Optional: compute the joints in this order (built for `parent`; no `count` with it).
    // The same results, bit for bit, as index order. A partial order computes its joints only.
    const JointOrder* order = nullptr;
    // Output: one model-space matrix per joint (at least `count`).
    std::span<glm::mat4> model;

    size_t end() const { return count ? count : parent.size(); }
    bool validate() const;
    bool run() const;
};

}  // namespace rig
