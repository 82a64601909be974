// Rig diagnostics: findings about a Model, each with a stable code and severity from the table
// in check/codes.h (what each code means; `rigview check --list-codes` prints it), a message, a
// count and example indices. Pure C++ (no GL), shared by `rigview check` and the viewer. The
// rules and what each finding's `value` holds are described where each family of checks is
// written: mesh_checks.cpp, node_checks.cpp, clip_checks.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "check/finding.h"

namespace rig {

// Thresholds of the checks (defaults are what `rigview check` uses).
struct CheckSettings {
    // bind-pose-mismatch: displacement of the vertices a joint moves, at the bind pose, as a
    // fraction of the mesh's size (bounding-box diagonal).
    float bindPoseTolerance = 1e-3f;
    // non-uniform-scale: largest / smallest axis scale - 1.
    float scaleTolerance = 1e-3f;
    // degenerate-transform: an axis scale below this, or a 3x3 whose determinant is below
    // this fraction of the product of its axis lengths (axes collapsed onto a plane).
    float degenerateScale = 1e-6f;
    // sudden-rotation-jump: degrees between two consecutive samples at the clip's sample rate.
    float rotationJumpDegrees = 45.0f;
    // loop-seam.
    float loopPositionTolerance = 0.01f;  // fraction of the rig's size
    float loopRotationDegrees = 5.0f;
    float loopSeamStepFactor = 2.0f;  // the jump must also exceed this many one-frame steps
    std::vector<std::string> loopNameHints{"idle", "walk", "run", "jog", "loop", "cycle"};
    // clip-static.
    float staticPositionTolerance = 1e-4f;  // fraction of the rig's size
    float staticRotationDegrees = 0.05f;
    // redundant-keys.
    float redundantKeyTolerance = 1e-5f;  // model units
    double redundantKeyFraction = 0.5;
    size_t redundantKeyMinimum = 32;
    // Work limits. sudden-rotation-jump samples every rotation channel at every frame of the
    // clip's sample rate while frames x rotation channels stays within this; beyond it, pairs
    // of consecutive frames are spread evenly over the clip (so a jump between two unsampled
    // frames can be missed, but the spacing of each pair stays one frame).
    int64_t maxRotationSamplesPerClip = 2000000;
    // too-many-influences: poses per clip (evenly spread, first and last key included) at
    // which the truncation error is measured, lowered on big meshes so that all clips together
    // stay within about 4 million vertex-poses.
    int truncationSamplesPerClip = 30;
    int influences = kMaxInfluences;  // too-many-influences: the influences kept (4 or 8, `--influences`)
    size_t uniformPaletteJoints = 256;
    size_t maxExamples = 10;
    // missing-texture looks at the file system; off: no texture check.
    bool checkTextureFiles = true;
};

// Run every check on `model`.
Report checkModel(const Model& model);
Report checkModel(const Model& model, const CheckSettings& settings);

// Whether a clip named `name` is meant to loop under `settings` (loop-seam's rule).
bool clipMeantToLoop(const std::string& name, const CheckSettings& settings);

// The rig's size used by the relative tolerances: the diagonal of the box around the joints'
// bind-pose positions (all nodes when nothing is skinned) and the meshes' bind-pose vertices,
// in model space; 1 when that box is empty or flat to a point.
float rigSize(const Model& model);

}  // namespace rig
