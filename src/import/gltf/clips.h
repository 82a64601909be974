// glTF 2.0 animations read into clips (internal to import/gltf: gltf/read drives it), straight
// from the document: each channel's sampler read once, its key times as the file has them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "anim/runtime/model.h"
#include "import/gltf/accessors.h"

namespace rig::gltf {

// Skeleton nodes by name (the names several nodes share are the ones worth recording).
using NodesByName = std::unordered_map<std::string, std::vector<int32_t>>;

// Record in stats.nameBindings that `node` was bound by the file's index (`rule`: "glTF
// skin.joints", "glTF channel target.node") for `usedBy`, when another node shares its name;
// each (name, node, rule) once.
void noteSharedName(const Skeleton& sk, const NodesByName& byName, int32_t node, const std::string& usedBy, const char* rule,
                    ImportStats& stats);

// animations[a] (`anim`) as a clip named `name` or "clipA", in seconds: one track per node it
// moves, tracks in node order (nodeOfJson: glTF node -> skeleton node, -1 outside the scene).
// Translation, rotation and scale channels: the file's key times; values as the file has them
// (CUBICSPLINE: each key's value, played linearly; quantized rotations dequantized; rotations
// normalized); STEP kept. Non-finite keys dropped, unsorted keys sorted, repeated times and
// non-unit rotations counted (CurveStats, ImportStats); a later channel of the same node and
// path replaces an earlier one (counted). Weight channels are left to gltf/morphs.
Clip readClip(const Document& doc, const json& anim, size_t a, const std::vector<int32_t>& nodeOfJson,
              const NodesByName& byName, Model& model);

}  // namespace rig::gltf
