// What changed between two versions of a rig (`rigview diff A B`): first where the whole rig
// sits (a rigid transform and a scale that match the versions' joints: the placement, told on
// its own), then, in that matched frame, joints added, removed, renamed and reparented, bind
// poses moved, skin weights changed (naming the joints that gained or lost weight), meshes
// added, removed or re-made, materials changed, clips added, removed, renamed (matched by their
// motion) or retimed, and how far the skinned mesh moves apart over each clip both versions
// have. Pure C++ over two imported Models; no GL, no printing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"

namespace rig {

struct DiffOptions {
    double toleranceMm = 0.01;       // lengths (bind pose, vertices, motion) up to this are equal
    double toleranceDeg = 0.01;      // bind-pose rotations up to this are equal
    double weightTolerance = 1e-4;   // skin weight changes up to this are equal
    double renameDistanceMm = 1.0;   // a renamed joint's bind-pose origin moved at most this (or toleranceMm)
    double clipRenameFraction = 0.01;  // a renamed clip's joints within this fraction of the rig's size
    double metresPerUnitA = 1.0;     // of a's and b's lengths (1: imported in metres)
    double metresPerUnitB = 1.0;
    size_t maxSamplesPerClip = 256;  // key times sampled per clip, spread evenly over the union
    size_t maxWeightExamples = 100;  // vertices listed per mesh whose weights changed
};

// Where b's rig sits relative to a's: b = scale * rotation * a + translation (metres), the
// transform that makes the most joints' bind-pose origins coincide (the identity unless another
// one matches more of them). Everything else is compared after a is moved so.
struct Placement {
    bool moved = false;              // not the identity (beyond the tolerances)
    double translationMm[3] = {0, 0, 0};
    double rotationDeg = 0.0;        // about `axis`
    double axis[3] = {0, 0, 1};
    double scale = 1.0;              // b's lengths over a's, once both are in metres
    size_t jointsMatched = 0;        // joints whose origins coincide once placed
    size_t jointsCompared = 0;       // joints matched by name (or the roots)
    double metresPerUnitA = 1.0, metresPerUnitB = 1.0;  // the files' units, as the options gave them
};

struct JointRename {
    std::string from, to;
};

struct JointReparent {
    std::string joint;               // b's name
    std::string parentA, parentB;    // the nearest ancestor joint's name (empty: none, a root)
};

struct BindPoseChange {
    std::string joint;               // b's name
    double translationMm = 0.0;      // of the bind-pose origin, model space
    double rotationDeg = 0.0;        // of the bind-pose orientation, model space
};

struct MeshChange {
    std::string mesh;
    size_t verticesA = 0, verticesB = 0;
    size_t unmatchedA = 0, unmatchedB = 0;  // vertices with no vertex at their bind position in the other
};

struct WeightChange {
    uint32_t vertexA = 0, vertexB = 0;
    double maxDelta = 0.0;           // largest change of one joint's weight on the vertex
};

// One joint's share of a mesh's weight changes: on how many changed vertices it gained (or
// lost) weight, and the most it gained (lost) on one.
struct JointWeightChange {
    std::string joint;               // b's name (a's for a joint b does not have)
    size_t vertices = 0;
    double maxDelta = 0.0;
};

struct MeshWeightChanges {
    std::string mesh;
    size_t count = 0;                // vertices whose weights changed
    double maxDelta = 0.0;
    std::vector<WeightChange> vertices;  // the largest changes first, at most maxWeightExamples
    std::vector<JointWeightChange> gained, lost;  // the most vertices first
};

// A material of a mesh both versions have, where it differs: each field as "name: a -> b".
struct MaterialChange {
    std::string mesh;                // b's mesh
    std::string material;            // b's material name
    std::vector<std::string> fields; // "roughness: 0.5 -> 0.8", "baseColor texture: none -> present"
};

struct ClipRename {
    std::string from, to;            // matched by motion: the same length, joints within the rename tolerance
};

struct ClipRetime {
    std::string clip;
    double startA = 0.0, startB = 0.0;
    double durationA = 0.0, durationB = 0.0;
    size_t keysA = 0, keysB = 0;     // distinct key times
    bool keyTimesChanged = false;    // counted from each clip's first key
};

// The largest distance between the two versions' skinned vertices over a clip (where the
// versions share no mesh: between their joints' origins).
struct ClipMotionChange {
    std::string clip;
    double maxMm = 0.0;
    double time = 0.0;               // seconds on the clip's timeline
    std::string mesh;                // empty: a joint's origin
    uint32_t vertex = 0;             // b's vertex index
    std::string joint;               // the joint with the largest weight on it in b (or the mesh's node)
    size_t samples = 0;              // times compared
};

// Only what differs beyond the tolerances; empty everywhere: the versions are the same.
struct RigDiff {
    double toleranceMm = 0.0, toleranceDeg = 0.0, weightTolerance = 0.0;
    Placement placement;
    std::vector<std::string> jointsAdded, jointsRemoved;
    std::vector<JointRename> jointsRenamed;
    std::vector<JointReparent> jointsReparented;
    std::vector<BindPoseChange> bindPoseMoved;
    std::vector<std::string> meshesAdded, meshesRemoved;
    std::vector<MeshChange> meshesChanged;
    std::vector<MeshWeightChanges> weightsChanged;
    std::vector<MaterialChange> materialsChanged;
    std::vector<std::string> clipsAdded, clipsRemoved;
    std::vector<ClipRename> clipsRenamed;
    std::vector<ClipRetime> clipsRetimed;
    std::vector<ClipMotionChange> clipMotion;

    // Whether anything differs; `placement` false: anything but the placement.
    bool differs(bool placement = true) const;
};

// Compare version `a` with version `b`. The placement first (Placement), then, with a placed
// so: joints (Model::jointNodes) are matched by name, then
// the rest by place: the parent's match, the child index and the bind-pose origin (within
// renameDistanceMm), looked up in hash tables (by parent and child index, by parent and grid
// cell), so the time grows as n log n, never with pairs. Meshes are matched by name, their
// vertices by bind-pose position in model space; clips by name, then the rest by motion
// (compared from each clip's first key: a clip whose keys all moved later is no other motion). Meshes and clips are matched by name (in order among equal names);
// vertices by bind position, so a new vertex order alone is no difference.
RigDiff diffModels(const Model& a, const Model& b, const DiffOptions& options = {});

// The matchers diffModels compares through, for the viewer's compare mode.
// Meshes by name, in order among equal names: per mesh of a, its mesh in b (-1: none).
std::vector<int32_t> matchMeshes(const Model& a, const Model& b);
// Vertices by bind position (metres, each mesh's numbers times its metres per unit): per vertex
// of b, the vertex of a within toleranceMm of it not taken by an earlier one (-1: none),
// preferring the closest normal and texture coordinate (seams), then the closest position.
std::vector<int32_t> matchVertices(const Mesh& a, double metresPerUnitA, const Mesh& b, double metresPerUnitB,
                                   double toleranceMm = DiffOptions{}.toleranceMm);

// The diff as JSON, stable keys (README's `diff` section). Numbers may be NaN only if a model
// held NaN; write it through jsonout.
nlohmann::json toJson(const RigDiff& diff);

}  // namespace rig
