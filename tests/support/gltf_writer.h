// A small glTF 2.0 writer for tests: nodes with names and TRS (or a matrix), skinned meshes
// (POSITION, NORMAL, TEXCOORD_0, JOINTS_n / WEIGHTS_n, indices), skins with inverse bind
// matrices, materials with a base-colour texture URI, and animations with per-channel key
// times, values and interpolation. Everything goes into one .gltf file with base64 data URIs,
// so a test can write a rig that triggers exactly one check and import it with Assimp.
//
// What glTF (and Assimp 5.2.5 reading it) can express, and what not:
// - weights come in sets of 4 per vertex (JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, ...); the
//   writer writes as many sets as the vertex with the most influences needs;
// - names are free: two nodes may share one, and Assimp then binds bones and channels by that
//   name (to the first node that has it);
// - numbers in the JSON part (node TRS, matrices) cannot be NaN or infinite, but the binary
//   part (vertices, keys, inverse bind matrices) can hold any float;
// - a node listed in `nodes` but not reachable from the scene's roots is not imported by
//   Assimp, so skins and channels naming it name a node missing from the hierarchy.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace rig::testing::gltf {

struct Node {
    std::string name;  // not written when empty
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm order (w, x, y, z); written x, y, z, w
    glm::vec3 scale{1.0f};
    bool useMatrix = false;  // write `matrix` instead of TRS
    glm::mat4 matrix{1.0f};
    std::vector<int> children;
    int mesh = -1;
    int skin = -1;
};

// Per vertex: any number of (joint slot in the skin, weight) pairs, written in file order as
// sets of 4 (unused entries: joint 0, weight 0).
using Influences = std::vector<std::pair<uint16_t, float>>;

// A morph target: per-vertex offsets (POSITION, and NORMAL when not empty).
struct MorphTarget {
    std::string name;  // written to the mesh's extras.targetNames (all or none: see Mesh)
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
};

struct Mesh {
    std::string name;
    std::vector<MorphTarget> targets;
    std::vector<float> weights;  // the mesh's default morph weights; empty: none written
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;  // empty: none written
    std::vector<glm::vec2> uvs;      // empty: none written
    std::vector<uint32_t> indices;   // triangles; 16-bit in the file when every index fits
    std::vector<Influences> influences;  // empty: no JOINTS/WEIGHTS written
    int material = -1;
};

struct Skin {
    std::vector<int> joints;            // node indices
    std::vector<glm::mat4> inverseBind; // empty: no inverseBindMatrices written
};

struct Material {
    std::string name;
    glm::vec4 baseColor{1.0f};
    std::string textureUri;  // empty: no texture; else an image with this URI
};

struct Channel {
    int node = 0;
    std::string path = "rotation";  // "translation", "rotation", "scale" or "weights"
    std::string interpolation = "LINEAR";
    std::vector<float> times;
    // 3 floats per key (translation, scale), 4 (rotation x,y,z,w) or one per morph target
    // (weights); CUBICSPLINE: in-tangent, value, out-tangent per key.
    std::vector<float> values;
    // Rotation values as FLOAT (5126), or normalized SHORT (5122) / BYTE (5120), quantized as
    // round(v * 32767 or 127) (KHR_mesh_quantization, then listed as used and required).
    int componentType = 5126;
};

struct Animation {
    std::string name;
    std::vector<Channel> channels;
};

struct Document {
    std::vector<Node> nodes;
    std::vector<int> sceneRoots;  // empty: every node that is no node's child
    std::vector<Mesh> meshes;
    std::vector<Skin> skins;
    std::vector<Material> materials;
    std::vector<Animation> animations;
};

// Key value helpers for Channel::values.
void appendVec3(std::vector<float>& values, const glm::vec3& v);
void appendQuat(std::vector<float>& values, const glm::quat& q);  // writes x, y, z, w

// The node's local matrix (TRS or `matrix`) and its world matrix (parents found by searching
// `children`), as a glTF reader computes them.
glm::mat4 localMatrix(const Node& node);
glm::mat4 worldMatrix(const Document& doc, int node);
// Inverse bind matrices matching the nodes' current transforms: inverse(world(joint)).
std::vector<glm::mat4> inverseBindFromNodes(const Document& doc, const std::vector<int>& joints);

// Base64 (standard alphabet, padded) of bytes, and the bytes of base64 text.
std::string base64(const std::vector<uint8_t>& in);
std::vector<uint8_t> fromBase64(const std::string& in);

// The document as glTF JSON text, and written to `path` (returns false if it cannot be).
std::string toJson(const Document& doc);
bool write(const Document& doc, const std::string& path);

}  // namespace rig::testing::gltf
