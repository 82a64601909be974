// What the clip checks learn by posing the mesh (internal to check/): the shape a pose shows
// (so a turn that leaves a symmetric part looking the same is no seam and no jump), the gaps in
// a clip's keys that separate its ranges, and whether a clip pulls the skeleton apart.
#pragma once

#include <utility>
#include <vector>

#include "anim/runtime/pose.h"
#include "check/check_context.h"

namespace rig::checks {

// Every mesh's vertices at the Animator's last evaluation (morph targets and skin applied), in
// model space, one after another; every `stride`-th vertex of each mesh.
void posedVertices(const Model& model, const Animator& anim, size_t stride, std::vector<glm::vec3>& out);

// A stride that keeps posedVertices at about 200,000 vertices in all.
size_t shapeStride(const Model& model);

// Whether two poses show the same shape within `tol`: every vertex of each lies within `tol` of
// some vertex of the other (the same vertex, or another where a symmetric part turned onto
// itself). `shift` is added to `b` first (root motion taken out).
bool sameShape(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b, float tol, const glm::vec3& shift);

// The gaps in a clip's keys that split it into ranges a game plays one at a time: intervals with
// no key of any channel (node and morph) longer than 2.5 times the clip's usual key spacing,
// where every range on either side holds at least 3 key times. Empty for a clip of one range.
std::vector<std::pair<float, float>> keyGaps(const Clip& c);

// animation-explodes: joints moving away from their parent joints as bones do not.
void checkExplodes(Context& cx, Animator& anim, const std::vector<int32_t>& joints, const Clip& c, size_t ci);

}  // namespace rig::checks
