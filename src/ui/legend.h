// Legends of the vertex colour views: what each colour means, with a scale in numbers. The
// colours come from the same functions the viewer paints the vertices with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/model.h"
#include "ui/viewer_state.h"

namespace rig {

// Blue -> green -> yellow -> red for 0..1 (clamped).
glm::vec4 heatColor(float x);
// Influence count 0, 1, 2, 3, 4, more than 4.
glm::vec4 influenceCountColor(uint8_t n);
// Vertices with no colour of their own in a view (material grey) and, in joint weight, those
// the joint does not move.
constexpr glm::vec4 kNeutralVertexColor{0.85f, 0.85f, 0.85f, 1.0f};
constexpr glm::vec4 kNoWeightColor{0.12f, 0.12f, 0.3f, 1.0f};
constexpr glm::vec4 kUnweightedColor{1.0f, 0.1f, 0.1f, 1.0f};
// Deviation: vertices with no match in the compared model.
constexpr glm::vec4 kUnmatchedColor{0.85f, 0.2f, 0.95f, 1.0f};
// The weight sum view paints |sum - 1| = e (> kWeightSumTolerance) as heat(0.4 + 0.6 min(e, 1)).
constexpr float kWeightSumTolerance = 1e-3f;
glm::vec4 weightSumColor(float error);

// The colour view `view` paints each vertex of `mesh` with (the viewer uploads them; drawn
// alone, without the material colour or texture): `joint` (a skeleton node) for JointWeight,
// `truncation` (per vertex, model units) and its largest value for TruncationError. The
// vertices drawn as points on top (unweighted, off-sum, 0 or more than 4 influences) are
// appended to `flagged`. None and Deviation (painted at each pose) give the neutral colour.
std::vector<glm::vec4> colorViewColors(ColorView view, const Mesh& mesh, int joint, const std::vector<float>& truncation,
                                       float truncationMax, std::vector<uint32_t>& flagged);

// Onion skin ghost `k` steps from now (k < 0 past, k > 0 future) of `count` on each side:
// past in green, future in magenta (colours no demo material has), fainter further away
// (alpha = opacity). Ghosts are drawn in their tint alone.
glm::vec4 onionTint(int k, int count);

struct LegendEntry {
    glm::vec4 color;
    std::string label;
};

struct Legend {
    std::string title;
    // A gradient (drawn as a bar, labels under it at even spacing) or swatches.
    bool gradient = false;
    std::vector<LegendEntry> entries;
    std::vector<LegendEntry> swatches;  // under a gradient: colours outside its scale
    std::string note;   // one line under it (counts, "no truncation ...")
};

struct LegendInputs {
    std::string jointName;        // joint weight: the selected joint ("" = none)
    float truncationMax = 0.0f;   // truncation error: the largest, model units
    size_t flagged = 0;           // vertices drawn as points (unweighted, off-sum, 0 or >4)
    bool comparing = false;       // deviation: a model to compare with is loaded
    double deviationMaxMm = 0.0;  // deviation: the largest now (mm)
    size_t unmatched = 0;         // deviation: vertices with no match
};

// Empty title for ColorView::None.
Legend legendFor(ColorView view, const LegendInputs& in);

// Draw it in the current ImGui window.
void drawLegend(const Legend& legend);

}  // namespace rig
