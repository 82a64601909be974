// Assimp 5.2.5 drops glTF's per-sampler interpolation mode, so STEP animations would be
// interpolated linearly. This reads the modes back from the glTF JSON itself (.gltf, or the
// JSON chunk of a .glb) and marks the matching channels as step-interpolated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"

namespace rig {

// Node identity in a glTF file, mapped onto rigview's flat skeleton. Assimp 5.2.5 builds its
// node tree from the scene's root nodes (one root: that node; several: a node "ROOT" over them),
// children in file order, and names bones and channels by node name only. Walking the JSON's
// tree beside the skeleton (names and child counts must agree) gives each glTF node index its
// skeleton node, so skins (skin.joints) and channels (target.node) bind by index.
struct GltfNodes {
    bool valid = false;                  // the JSON was read and its tree matches the skeleton
    std::vector<int32_t> nodeOfJson;     // glTF node index -> skeleton node (-1: not in the scene)
    std::vector<int32_t> jsonOfNode;     // skeleton node -> glTF node index (-1: Assimp's "ROOT")
    std::vector<int32_t> skinOfJson;     // glTF node -> its "skin" (-1: none)
    std::vector<std::vector<int32_t>> skinJoints;  // skin -> skeleton nodes of skin.joints, in order
    // A node an animation moves: key counts of its translation/rotation/scale samplers (0: none)
    // and the first and last key time over them (seconds), to tell same-named targets apart.
    // Where two targets of one name match in that too, their first and last key values (FLOAT
    // outputs: translation xyz, rotation xyzw, scale xyz) tell them apart.
    struct Target {
        int32_t node = -1;
        uint32_t counts[3] = {0, 0, 0};
        float first = 0.0f, last = 0.0f;
        bool hasValues[3] = {false, false, false};
        float firstValue[3][4] = {}, lastValue[3][4] = {};
    };
    std::vector<std::vector<Target>> animationTargets;  // per glTF animation
};

// Read the node identities of a .gltf/.glb for `sk` (an invalid result for other formats, or
// when the JSON cannot be read or does not match the tree Assimp built).
GltfNodes readGltfNodes(const std::string& path, const Skeleton& sk);

// Mark channels whose glTF sampler says "STEP". Does nothing for other formats or when the
// JSON cannot be read (Assimp already read the file; this only refines it). Returns the
// number of channels marked.
int applyGltfStepInterpolation(const std::string& path, Model& model);

// The same on the file's bytes: glTF JSON text, or (`glb`) a binary container whose first
// chunk is the JSON. Any bytes are safe (the libFuzzer target tests/fuzz/gltf_json_fuzz.cpp).
int applyGltfStepInterpolationToBytes(const std::string& bytes, bool glb, Model& model);

// Node channels as the file has them, where Assimp 5.2.5 falls short:
// - key times: Assimp hands them over as float milliseconds (float(t * 1000)), which moves a key
//   by up to one float step of t (2e-6 s at 20 s: enough for fast motion sampled at its own key
//   times to be off by 1e-5, or a STEP key to give the previous value). The file's own times
//   replace them in every translation / rotation / scale channel whose sampler input is a FLOAT
//   accessor with the channel's key count and times within 1e-4 s of Assimp's;
// - rotations stored as normalized BYTE or SHORT (glTF's quantized rotations, e.g. rigview's
//   compressed export): Assimp copies their bytes into floats; they are read again (for
//   CUBICSPLINE their values, played linearly as Assimp plays float ones), and the noise keys
//   import dropped as non-finite are no longer counted;
// - the count of non-unit rotation keys (CurveStats::nonUnitRotationKeys), from every rotation
//   channel's own values (float or dequantized, any interpolation) with the glTF validator's
//   bound (kUnitRotationTolerance).
// Updates each changed clip's range. Reads no other CUBICSPLINE keys again; does nothing for
// other formats or when the JSON or a buffer cannot be read. Returns the number of channels restored.
int applyGltfNodeKeys(const std::string& path, Model& model);

// Morph targets as glTF means them, where Assimp 5.2.5 falls short: target names from the
// mesh's `extras.targetNames` (else the target POSITION accessor's name), and each "weights"
// channel read again from the file's own buffers with its sampler's interpolation (Assimp
// drops STEP and CUBICSPLINE and clamps negative weights to 0). Does nothing for other
// formats or when the JSON or a buffer cannot be read. Returns the number of tracks read.
int applyGltfMorphs(const std::string& path, Model& model);

}  // namespace rig
