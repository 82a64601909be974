// rigview's poses against a pose reference written by another reader: Blender's
// (tools/blender/pose_reference.py) or three.js's (tools/three_render/pose_dump.mjs) JSON,
// `{"poses": [{"bind": true | "clip": NAME, "time": SECONDS, "meshes": [{"positions": [...]}],
// "bones": [{"name": ..., "head": [x, y, z]}]}]}`, world space, as rigview's Animator and CPU
// skinning pose the model (4 influences).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"

namespace rig::testing {

// What two readers' poses differ by, as fractions of the reference's bounding-box diagonal at
// its first pose.
struct PoseComparison {
    float vertices = 0.0f;   // the worst reference vertex against its rigview vertex
    float strays = 0.0f;     // the worst rigview vertex against the nearest reference vertex
                             // (a vertex rigview made that the reference has not: a join's midpoint)
    float joints = 0.0f;     // the worst bone head against the joint of its name
    size_t poses = 0;
    size_t jointsCompared = 0;  // per pose (the fewest)
};

// Bone names as three.js writes them (PropertyBinding.sanitizeNodeName: no "[]./:" or spaces);
// applied to both sides.
std::string sanitizedName(const std::string& name);

// How a reference's names meet rigview's.
struct PoseNames {
    // Applied to bone names on both sides before they are compared (default: sanitizedName).
    std::function<std::string(const std::string&)> joint;
    // rigview's name of the reference's clips, when the reader names them otherwise (three.js's
    // ColladaLoader calls every clip "default"); empty: the reference's own name.
    std::string clip;
};

// Compare `model` with every pose of `ref`. Each reference vertex is matched to the rigview
// vertex that follows it best over all the poses (the largest distance the smallest), so
// vertices that coincide at rest are told apart by where they go.
PoseComparison comparePoses(const Model& model, const nlohmann::json& ref, const PoseNames& names = {});

// A JSON file, gunzipped first when its name ends in ".gz".
nlohmann::json readJsonFile(const std::string& path);

}  // namespace rig::testing
