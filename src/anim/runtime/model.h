// Model: everything loaded from one file that many instances can share: the frame tree
// (Skeleton), meshes with their skins, materials and clips. Plain data, no GL, no Assimp;
// immutable after import.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/skeleton.h"

namespace rig {

// Influences per set: one set is a uvec4 of skin slots and a vec4 of weights (one pair of
// vertex attributes, render/layout.h). Skinning blends the first set only by default
// (`--influences 4`), or both (`--influences 8`).
inline constexpr int kMaxInfluences = 4;
// Influences kept per vertex at most: two sets.
inline constexpr int kMostInfluences = 2 * kMaxInfluences;

// A mesh's skin: which skeleton nodes move it and how. Joint slot j of this skin is node
// joints[j]; inverseBind[j] (the offset matrix) takes a vertex from mesh space into that
// joint's bind-pose space. Slot joints.size() is the "rigid" slot: a vertex with no weights
// follows the mesh's own node (its palette entry is the identity).
struct Skin {
    std::vector<int32_t> joints;
    std::vector<glm::mat4> inverseBind;
    std::vector<uint8_t> offsetComputed;  // 1 where the file gave no usable offset and it was
                                          // computed from the bind pose (seed 000)
    size_t paletteSize() const { return joints.size() + 1; }
    uint32_t rigidSlot() const { return static_cast<uint32_t>(joints.size()); }
};

// What import saw of a mesh's weights before keeping the 4 strongest influences.
struct WeightStats {
    uint32_t maxInfluences = 0;      // most influences on one vertex, before truncation
    uint32_t truncatedVertices = 0;  // vertices that had more than 4 influences
    uint32_t unweightedVertices = 0; // skinned-mesh vertices with no weight (follow the node)
    uint32_t unnormalizedVertices = 0;  // original weights not summing to 1 (|sum-1| > 1e-3)
    uint32_t invalidWeights = 0;     // NaN, Inf or negative weights dropped
    std::vector<uint32_t> truncatedExamples, unweightedExamples, unnormalizedExamples;
    float worstSumError = 0.0f;      // max |sum - 1| over weighted vertices
};

// A vertex that had more than 4 influences: all of them, as in the file (slot, weight),
// strongest first, so checks can measure what dropping the weakest costs.
struct FullInfluences {
    uint32_t vertex = 0;
    std::vector<std::pair<uint16_t, float>> influences;
};

// A morph target (blend shape): per-vertex offsets that, scaled by the target's weight, are
// added to the mesh's bind-pose positions and normals before skinning.
struct MorphTarget {
    std::string name;
    std::vector<glm::vec3> positionDeltas;  // one per vertex
    std::vector<glm::vec3> normalDeltas;    // one per vertex, or empty (normals unchanged)
};

struct Mesh {
    std::string name;
    int32_t node = -1;          // the frame the mesh hangs from
    uint32_t material = 0;
    std::vector<glm::vec3> positions;  // mesh space
    std::vector<glm::vec3> normals;    // mesh space, unit length (empty if none)
    std::vector<glm::vec2> uvs;        // empty if none
    std::vector<glm::vec2> uvs1;       // second UV set (glTF TEXCOORD_1), empty if none
    std::vector<glm::vec4> colors;     // empty if none
    // Per vertex, mesh space: xyz a unit tangent, w the bitangent's sign (glTF TANGENT:
    // bitangent = cross(normal, tangent.xyz) * w). Empty when the file has none (the shader
    // then builds the tangent frame from screen-space derivatives, as three.js does).
    std::vector<glm::vec4> tangents;
    std::vector<uint32_t> indices;     // triangles
    bool skinned = false;
    Skin skin;
    // Per vertex: the 4 strongest skin slots and their weights, summing to 1 (slots past the
    // last influence carry weight 0 and slot 0). Empty for unskinned meshes.
    std::vector<std::array<uint16_t, kMaxInfluences>> joints;
    std::vector<glm::vec4> weights;
    // Per vertex, influences 5 to 8 (strongest first), their weights on the scale of the first
    // set's (the file's weights divided by the sum of the vertex's 4 strongest), so 8-influence
    // skinning divides all eight by their sum and 4-influence skinning reads the first set as it
    // is. Empty unless some vertex has more than 4 influences (fillSecondInfluenceSet).
    std::vector<std::array<uint16_t, kMaxInfluences>> joints2;
    std::vector<glm::vec4> weights2;
    WeightStats weightStats;
    // Per vertex, before truncation and renormalization (skinned meshes only): the number of
    // influences and their weight sum as the file gave them.
    std::vector<uint8_t> originalInfluenceCount;  // saturates at 255
    std::vector<float> originalWeightSum;
    std::vector<FullInfluences> truncated;        // vertices with more than 4 influences
                                                  // (what 4-influence skinning drops)
    std::vector<std::string> missingBones;  // bones naming no node of the hierarchy
    // Morph targets, in file order, and the weights they take when no clip animates them.
    std::vector<MorphTarget> morphTargets;
    std::vector<float> morphDefaultWeights;  // one per target

    size_t vertexCount() const { return positions.size(); }
    size_t triangleCount() const { return indices.size() / 3; }
    // Whether 8-influence skinning has a second set to blend.
    bool hasSecondInfluenceSet() const { return !joints2.empty(); }
};

// Fill mesh.joints2 / weights2 from mesh.truncated (each vertex's influences as in the file,
// strongest first) and mesh.joints (the pad slot of each vertex); both empty when no vertex has
// more than 4 influences. Import calls it after filling the first set.
void fillSecondInfluenceSet(Mesh& mesh);

// A texture a material reads: the image, the UV set, the KHR_texture_transform and the sampler.
struct TextureRef {
    std::string path;          // as in the file ("*N" for an embedded texture); empty: none
    uint8_t texCoord = 0;      // UV set: 0 (Mesh::uvs) or 1 (Mesh::uvs1)
    // KHR_texture_transform, applied as the glTF extension says: uv' = T(offset) R(rotation) S(scale) uv.
    glm::vec2 offset{0.0f, 0.0f};
    float rotation = 0.0f;     // radians, counter-clockwise in UV space
    glm::vec2 scale{1.0f, 1.0f};
    // Sampler, as GL/glTF enums: 10497 REPEAT, 33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT;
    // 9728 NEAREST, 9729 LINEAR, 9984..9987 the mipmap minifications.
    int wrapS = 10497, wrapT = 10497;
    int magFilter = 9729, minFilter = 9987;

    bool present() const { return !path.empty(); }
    bool hasTransform() const {
        return offset != glm::vec2(0.0f) || rotation != 0.0f || scale != glm::vec2(1.0f);
    }
};

enum class AlphaMode : uint8_t { Opaque = 0, Mask = 1, Blend = 2 };

// The glTF 2.0 metallic-roughness material (the spec's Appendix B BRDF). Other formats'
// materials are mapped onto it at import (docs/import.md, "Materials"); `origin` says how.
struct Material {
    std::string name;
    glm::vec4 baseColor{0.8f, 0.8f, 0.8f, 1.0f};  // linear RGBA factor
    TextureRef baseColorTexture;                   // sRGB RGBA
    float metallic = 0.0f;
    float roughness = 1.0f;
    TextureRef metallicRoughnessTexture;           // linear: G roughness, B metallic
    TextureRef normalTexture;                      // tangent-space, linear
    float normalScale = 1.0f;
    TextureRef occlusionTexture;                   // linear, R channel
    float occlusionStrength = 1.0f;
    glm::vec3 emissive{0.0f, 0.0f, 0.0f};          // linear factor
    float emissiveStrength = 1.0f;                 // KHR_materials_emissive_strength
    TextureRef emissiveTexture;                    // sRGB
    AlphaMode alphaMode = AlphaMode::Opaque;
    float alphaCutoff = 0.5f;                      // MASK only
    bool doubleSided = false;
    // KHR_materials_clearcoat (0: no coat).
    float clearcoat = 0.0f;
    float clearcoatRoughness = 0.0f;
    TextureRef clearcoatTexture;                   // R
    TextureRef clearcoatRoughnessTexture;          // G
    TextureRef clearcoatNormalTexture;
    bool unlit = false;                            // KHR_materials_unlit
    // How the material was read: "glTF metallic-roughness", "PBR keys", "converted from
    // diffuse/specular/shininess", "default" (a mesh without a material).
    std::string origin = "default";

    // Every texture slot, for loops over a material's textures (inspector, export, check).
    template <class F>
    void forEachTexture(F&& f) const {
        f("baseColor", baseColorTexture);
        f("metallicRoughness", metallicRoughnessTexture);
        f("normal", normalTexture);
        f("occlusion", occlusionTexture);
        f("emissive", emissiveTexture);
        f("clearcoat", clearcoatTexture);
        f("clearcoatRoughness", clearcoatRoughnessTexture);
        f("clearcoatNormal", clearcoatNormalTexture);
    }
};

// An embedded texture's bytes (compressed file data, e.g. PNG or JPEG) or raw RGBA8 texels.
struct EmbeddedTexture {
    std::string name;
    uint32_t width = 0, height = 0;   // height 0: `data` holds a compressed file of `width` bytes
    // Empty for an image over import/texture_limits.h (the size says how large it was).
    std::vector<uint8_t> data;
};

// A material's texture as decoded by the import (import/images/model_images.h), in the import
// worker: RGBA8 at its display size (at most import/texture_limits.h kMaxTextureDisplaySide a
// side), rows bottom first; or why it was not decoded.
struct ModelImage {
    std::string ref;                         // the TextureRef::path it serves
    uint32_t width = 0, height = 0;          // of `rgba`
    uint32_t fileWidth = 0, fileHeight = 0;  // the image's own size (larger when downscaled)
    std::vector<uint8_t> rgba;
    std::string problem;                     // not empty: not decoded, a phrase naming the texture
};

// A bone or animation channel named by a name several nodes share, and the node it was bound
// to (see the binding rule in docs/import.md).
struct NameBinding {
    std::string name;
    std::string usedBy;               // e.g. "bone of mesh 'body'", "channel of clip 'walk'"
    std::vector<int32_t> candidates;  // every node of that name
    int32_t chosen = -1;
    std::string rule;                 // what decided it
    bool safe = false;                // the file's indices, or one clear winner of the rule
};

// A repair made to a file that Assimp's validation refused on a point with one safe reading.
struct ImportRepair {
    std::string code;  // stable: "repaired-keys", "repaired-channels"
    std::string what;  // one line: what was wrong and what was done
};

// What import dropped or repaired, kept for `check`.
struct ImportStats {
    uint32_t skippedChannels = 0;       // channels naming no node
    std::vector<std::string> skippedChannelNames;
    uint32_t duplicateChannels = 0;     // a second channel for the same node in one clip
    uint32_t unsortedKeyChannels = 0;   // channels whose keys were out of order (sorted)
    uint32_t nonFiniteKeys = 0;         // keys with NaN/Inf time or value (dropped)
    uint32_t nonFiniteVertices = 0;     // positions or normals with NaN/Inf
    uint32_t skippedMeshes = 0;         // meshes with no triangles (points, lines)
    uint32_t clipsWithoutTicksPerSecond = 0;
    std::vector<std::string> retargetNotes;  // per --anim file: what was added, what skipped
    std::vector<ImportRepair> repairs;  // the file failed Assimp's validation only on these points
    // What the file's format cannot give through Assimp (empty if nothing): one line, shown by
    // every command as a warning and reported by `check` as an error (e.g. .blend files).
    std::string formatLimitation;
    std::vector<std::string> refusedPaths;   // files outside the model's folder it refers to, not read
    std::vector<NameBinding> nameBindings;   // bones and channels whose name is shared
    // Every file the import read besides the model itself (glTF buffers, material libraries,
    // the markers file, --anim files, texture files...), as opened: what an output must not be.
    std::vector<std::string> filesRead;
};

// The file's length unit and what import did with it. Lengths in a Model are metres unless
// import was told to keep the file's numbers (`--units file`).
struct Units {
    std::string file;            // the file's unit ("centimetre", "metre", "inch"...); empty: the
                                 // format does not say
    double metresPerUnit = 0.0;  // of the file's numbers; 0: the format does not say
    double scaleApplied = 1.0;   // factor applied to every length at import
    bool appliedAtRoot = false;  // as a scale on the root node (the file's own nodes carry the
                                 // inverse scale, so its joints come out rigid), not baked in
    std::string source;          // where the unit came from (e.g. "FBX UnitScaleFactor 1")
};

struct Model {
    std::string path;
    Units units;
    Skeleton skeleton;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<EmbeddedTexture> textures;
    std::vector<Clip> clips;
    ImportStats stats;
    // Every texture the materials name, decoded (one per distinct path), when the import was
    // asked to (ImportOptions::decodeImages: the commands that draw).
    std::vector<ModelImage> images;

    // Nodes that are a joint of some skin, in node order; all nodes when no mesh is skinned
    // (skeleton-only assets such as BVH).
    std::vector<int32_t> jointNodes() const;
    // Index of the clip named `name`, or given as a decimal index; -1 if none.
    int32_t findClip(const std::string& nameOrIndex) const;
    size_t paletteSize() const;  // all skins' palettes together
    // The decoded image of texture path `ref`, or null.
    const ModelImage* findImage(const std::string& ref) const;
};

// What computeSkinBindPose found: joints whose skins disagree about their bind pose.
struct SkinBindPoseStats {
    uint32_t jointsFromSkins = 0;   // joints whose bind pose came from an inverse bind matrix
    uint32_t conflictingJoints = 0; // joints that two skins bind in different places (the first wins)
    float worstConflict = 0.0f;     // largest distance between two skins' joint origins
};

// Fill skeleton.rest* (the bind pose) from the skins: a joint's bind-pose to-root matrix is
// meshToRoot * inverse(offset), with the mesh node in the file pose; other nodes keep their
// file-pose local transforms relative to their parents. Call after import.
SkinBindPoseStats computeSkinBindPose(Model& model);

}  // namespace rig
