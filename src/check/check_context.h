// What the families of rig checks share (internal to check/): the per-model context the checks
// add findings to, example lists, labels and small numeric helpers. The families live one to a
// file: mesh_checks.cpp (weights, skins, limits), node_checks.cpp (hierarchy, bind transforms,
// non-finite data, textures and other resources), clip_checks.cpp (curves and clips); the
// driver, checkModel in diagnostics.cpp, runs them in a fixed order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "check/codes.h"
#include "check/diagnostics.h"

namespace rig::checks {

inline constexpr float kPi = 3.14159265358979f;

std::vector<int64_t> toExamples(const std::vector<uint32_t>& v);
std::string meshLabel(const Mesh& m, size_t i);  // "mesh 2 'Body'"
std::string clipLabel(const Clip& c, size_t i);  // "clip 0 'walk'"
std::string fmt(double v);                       // %.4g
bool finiteMat(const glm::mat4& m);
inline bool finiteVec(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
// Angle in degrees between two rotations (unit quaternions), the short way; accurate for
// small angles (atan2 rather than acos of the dot product).
float angleDegrees(const glm::quat& a, const glm::quat& b);
// The node's name, or "" for an index outside the skeleton.
const std::string& nodeName(const Model& model, int32_t node);

// A few examples (indices and names) gathered while counting.
struct Examples {
    size_t limit = 10;
    std::vector<int64_t> indices;
    std::vector<std::string> names;
    void add(int64_t index) {
        if (indices.size() < limit) indices.push_back(index);
    }
    void addName(const std::string& name) {
        if (names.size() < limit && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
};

// Per-model context shared by the checks.
struct Context {
    const Model& model;
    const CheckSettings& s;
    Report& r;
    float rigSize = 1.0f;
    std::vector<uint8_t> relevant;  // nodes whose bind transform matters to the rig
};

void add(Context& cx, Finding f);

// The families, in the order checkModel runs them (within a severity, findings keep this order).
void checkMeshes(Context& cx);          // mesh_checks.cpp
void checkNonFinite(Context& cx);       // node_checks.cpp
void checkNames(Context& cx);           // node_checks.cpp
void checkBindTransforms(Context& cx);  // node_checks.cpp
void checkTextures(Context& cx);        // node_checks.cpp
void checkResources(Context& cx);       // node_checks.cpp
void checkClips(Context& cx);           // clip_checks.cpp

}  // namespace rig::checks
