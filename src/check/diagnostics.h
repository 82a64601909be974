// Rig diagnostics: findings about a Model, each with a stable code, a severity, a message,
// a count and example indices. Pure C++ (no GL), shared by `rigview check` and the viewer.
//
// Codes (severity; rule). "Mesh" findings come one per mesh, "clip" findings one per clip.
//  weights & skin (one per skinned mesh)
//   weights-not-normalized     warning  vertices whose file weights do not sum to 1 (|sum-1| > 1e-3)
//   too-many-influences        warning  vertices with more than 4 influences; value = worst truncation
//                                       error in model units (all influences vs the kept 4, over the
//                                       bind pose and every clip)
//   unweighted-vertices        warning  skinned-mesh vertices with no weight (follow the mesh's node)
//   invalid-weights            error    NaN, infinite or negative weights, or weights naming no vertex
//   bone-missing-from-hierarchy error   bones naming no node of the hierarchy
//   offset-matrix-computed     warning  singular / non-finite offset matrices replaced from the bind pose
//   bind-pose-mismatch         warning  offset matrices that disagree with the inverse of their joints'
//                                       bind-pose transforms so that, at the bind pose, the vertices a
//                                       joint moves land more than bindPoseTolerance x the mesh's size
//                                       away from where the mesh's node (or, when no joint agrees with
//                                       the node, the joint moving most vertices) puts them: the mesh
//                                       renders distorted. (Each joint's bindModel[joint] * offset is
//                                       compared with bindModel[meshNode], i.e. the offset with
//                                       Skeleton::offsetFromBindPose, over the box of its vertices.)
//                                       value = worst displacement in model units; joint = worst joint
//                              info     every weighted joint agrees on one transform other than the
//                                       mesh node's: the mesh is whole, only placed away from its node
//                                       (glTF and .X ignore a skinned mesh's node transform, as rigview
//                                       does); value = that displacement
//   too-many-joints            error    more than 65535 joints in one skin (16-bit joint indices)
//   too-many-joints-for-gpu    info     more than uniformPaletteJoints (256) joints in one skin: fine
//                                       here (texture-buffer palette), too many for engines with a fixed
//                                       256-entry uniform palette
//   needs-32-bit-indices       info     a mesh with more than 65535 vertices
//   joint-influences-nothing   info     (one per model) skin joints that carry no weight in any mesh
//  hierarchy & bind pose (one per model)
//   duplicate-node-name        error    a name shared by several nodes and used by a skin bone or a
//                                       channel, where nothing in the file settles which node is meant
//                              info     the same, resolved safely (glTF indices, or one clear winner
//                                       of the binding rule): names the node chosen
//                              warning  the same, for names no bone or channel uses
//   degenerate-transform       error    a bind-pose node transform with a (near) zero scale or a
//                                       singular 3x3 (nodes that matter: joints and their ancestors,
//                                       skinned-mesh nodes, animated nodes)
//   non-uniform-scale          warning  such a node scaled unevenly (max/min axis - 1 > scaleTolerance)
//   negative-scale             warning  such a node mirrored (negative determinant)
//   non-finite-node-transform  error    NaN / Inf in a node transform
//   non-finite-offset-matrix   error    NaN / Inf in an offset matrix
//   non-finite-vertices        error    NaN / Inf positions or normals
//   missing-texture            warning  (one per material used by a mesh) a base-colour texture that is
//                                       neither embedded ("*N", or an embedded texture's name) nor a file
//                                       (as written, relative to the model's folder, or by its file
//                                       name beside the model)
//   external-path-refused      warning  (one per model) files the model refers to (textures, buffers, material
//                                       libraries) that resolve outside the model's folder: not read
//                                       (--allow-external-paths reads them); names = the refused paths. A
//                                       model that cannot load without them does not import: check lists
//                                       the file as unreadable with this code, severity error
//  animation
//   non-finite-keys            error    keys with NaN / Inf time or value (dropped on import)
//   channel-missing-node       warning  channels naming no node (skipped)
//   duplicate-channel          warning  a second channel for one node in one clip
//   clip-without-channels      warning  (one per model) clips animating no node
//   clip-zero-length           warning  (one per model) clips whose keys all sit at one time
//   clip-no-ticks-per-second   info     (one per model) clips with no ticks per second
//   keys-out-of-order          warning  (per clip) channels whose keys were not in time order
//   duplicate-key-times        warning  (per clip) neighbouring keys of a channel at the same time
//   non-unit-rotation-keys     warning  (per clip) rotation keys with |q| off 1 by more than 1e-3
//   quaternion-sign-flip       info     (per clip) neighbouring rotation keys with a negative dot
//                                       product: a naive lerp/nlerp goes the long way round (rigview
//                                       and most engines take the short way)
//   sudden-rotation-jump       warning  (per clip) a joint's local rotation turning more than
//                                       rotationJumpDegrees between two consecutive samples at the
//                                       clip's sample rate; value = the largest turn in degrees
//   non-uniform-scale          warning  (per clip) scale keys scaled unevenly
//   negative-scale             warning  (per clip) scale keys with a negative product
//   degenerate-transform       warning  (per clip) scale keys with a (near) zero axis (often a
//                                       deliberate "hide"; an error in the bind pose, a warning here)
//   loop-seam                  warning  (per clip) a clip meant to loop (its name contains one of
//                                       loopNameHints, case-insensitive) whose last pose does not lead
//                                       back into its first: for some joint the jump from the last
//                                       pose to the first is over the tolerance (model-space position:
//                                       loopPositionTolerance x the rig's size; local rotation:
//                                       loopRotationDegrees) and more than loopSeamStepFactor times the
//                                       joint's own one-frame step at the clip's ends (so clips whose
//                                       exporter left out the closing frame are no seam). The
//                                       translation of the clip's root-motion node (the top-most
//                                       translated node, when every other animated node hangs below it)
//                                       is left out, so root motion is no seam. value = the position
//                                       jump of the worst joint (0 if only rotations jump)
//                              info     the same for clips not named as loops (the viewer loops
//                                       every clip by default)
//   clip-static                warning  (per clip) nothing moves over the whole clip (no local
//                                       translation beyond staticPositionTolerance x rig size, no
//                                       rotation beyond staticRotationDegrees, no scale change beyond
//                                       1e-4)
//   redundant-keys             info     (per clip) at least redundantKeyFraction of the clip's keys (and
//                                       redundantKeyMinimum) are redundant: interpolating their
//                                       neighbours restores them within redundantKeyTolerance (model
//                                       units: 0.01 mm in metres) at the joints' descendants, the
//                                       vertices they skin and a point 10 cm out (`rigview compress`'s key
//                                       reduction, without quantization), e.g. constant channels keyed
//                                       every frame; value = the redundant fraction
//  import (one per model)
//   repaired-keys              warning  Assimp's validation refused the file for keys past a clip's
//                                       duration; the duration was extended to the last key
//   repaired-channels          warning  Assimp's validation refused the file for empty or missing
//                                       animation channels; they (and clips left empty) were dropped
//   blend-not-supported        error    a .blend file: Assimp reads no armature or animation from
//                                       it (only static geometry); export FBX or glTF from Blender
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"

namespace rig {

enum class Severity { Info = 0, Warning = 1, Error = 2 };

const char* severityName(Severity s);

struct Finding {
    std::string code;      // stable, kebab-case, e.g. "weights-not-normalized"
    Severity severity = Severity::Info;
    std::string message;   // one line for a person
    uint64_t count = 0;    // how many items (vertices, channels, clips...) are affected
    std::string subject;   // what the examples index: "mesh 'Body' vertices", "clip 'walk'"...
    std::vector<int64_t> examples;  // a few indices of affected items
    std::vector<std::string> names; // a few affected names (bones, channels, clips)
    // Where to look, for the viewer (-1: not about one mesh / joint (skeleton node) / clip).
    int32_t mesh = -1;
    int32_t joint = -1;
    int32_t clip = -1;
    double value = 0.0;    // the finding's measure, where it has one (see the code list above)
};

struct Report {
    std::vector<Finding> findings;  // errors first, then warnings, then infos
    Severity worst() const;
    bool empty() const { return findings.empty(); }
};

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
