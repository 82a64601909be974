#include "import/assimp/read.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <optional>

#include "anim/offline/clip_tools.h"
#include "import/assimp/collada_skins.h"
#include "import/assimp/confined_io.h"
#include "import/assimp/fbx_chain.h"
#include "import/assimp/node_binding.h"
#include "import/assimp/off_header.h"
#include "import/assimp/quad_split.h"
#include "import/assimp/scene_convert.h"
#include "import/assimp/scene_repair.h"
#include "import/assimp/units.h"
#include "import/assimp/vertex_join.h"
#include "import/import.h"
#include "import/gltf/colors.h"
#include "import/gltf/document.h"
#include "import/gltf/keys.h"
#include "import/gltf/markers.h"
#include "import/gltf/materials.h"
#include "import/gltf/morphs.h"
#include "import/gltf/nodes.h"
#include "import/gltf/ranges.h"
#include "import/source_files.h"

namespace rig {

namespace {

using namespace scene;

constexpr const char* kBlendLimitation =
    "Assimp reads no armature or animation from .blend files; export FBX or glTF from Blender";

// Validation first (after the repairs), then the steps docs/import.md lists. Identical vertices
// are joined afterwards by rigview (assimp/vertex_join), not by Assimp's step.
constexpr unsigned kPostProcess = aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_SortByPType |
                                  aiProcess_ValidateDataStructure;

}  // namespace

Result<Model> importWithAssimp(const std::string& path, const std::string& ext, const ImportOptions& options) {
    SourceFiles files(path);
    reportStage(options, ImportStage::Reading);
    const std::string* bytes = files.read(path);
    if (!bytes) return Error{path + ": " + (files.error().empty() ? "cannot be read" : files.error())};

    // Object File Format (by extension or, as Assimp also finds it, by keyword): counts no
    // file of this size could hold are refused before Assimp allocates for them (off_header.h).
    if (Result<bool> counts = checkOffCounts(path, *bytes, ext == ".off"); !counts) return counts.error();
    // COLLADA: its skin controllers, read as the specification has them (collada_skins.h); a
    // skin over a morph controller, which Assimp drops without a word, refuses the file.
    std::vector<ColladaController> colladaControllers;
    if (ext == ".dae") {
        colladaControllers = scanColladaControllers(*bytes);
        if (const std::string why = skinOverMorph(colladaControllers); !why.empty()) return Error{path + ": " + why};
    }
    // glTF: the one document every glTF reading shares; accessors and buffer views that leave
    // their buffers are refused before Assimp reads them.
    std::optional<gltf::Document> doc;
    if (ext == ".gltf" || ext == ".glb") {
        doc.emplace(path, *bytes, &files);
        if (Result<bool> ranges = gltf::checkRanges(*doc); !ranges) return ranges.error();
    }

    Assimp::Importer importer;
    // FBX: Assimp copies the whole file before parsing it, and nothing after Assimp reads it
    // (its units are in Assimp's metadata): our copy goes as soon as Assimp has its own.
    const bool releaseWhenRead = ext == ".fbx";
    importer.SetIOHandler(new ConfinedIOSystem(files, releaseWhenRead));  // owned by the importer
    // Drop point and line primitives: a skinned viewer draws triangles.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // Skeleton-only files (BVH, some FBX) stay skeletons: no stand-in bone meshes.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    // Read with no post-processing first: a skeleton-only file (BVH) has no meshes, which
    // the validator rejects unless the scene is flagged incomplete. Then validate (always the
    // first step) and post-process.
    const aiScene* scene = nullptr;
    std::vector<ImportRepair> repairs;
    reportStage(options, ImportStage::Parsing);
    {
        SilenceStdio quiet;
        scene = importer.ReadFile(path, 0);
        if (scene && scene->mNumMeshes == 0) {
            const_cast<aiScene*>(scene)->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
        }
        if (scene && ext == ".dae") placeColladaBindShapes(*const_cast<aiScene*>(scene), colladaControllers);
        // FBX: the transform chain's helper nodes folded back into the file's nodes, their
        // channels made right (fbx_chain.h).
        if (scene && ext == ".fbx") {
            foldFbxTransformChains(*const_cast<aiScene*>(scene));
            mergeKeysAtOneTime(*const_cast<aiScene*>(scene), kDefaultTicksPerSecond);
        }
        // Points Assimp's validation would refuse but that have one safe reading (keys past a
        // clip's end, empty channels) are repaired first and recorded for `check` and `info`.
        if (scene) repairs = repairScene(*const_cast<aiScene*>(scene));
        if (scene) dropLightsAndCameras(*const_cast<aiScene*>(scene));  // not read: see scene_repair.h
        // Quaternion signs only glTF, .X, MD5 and Blitz3D files write; elsewhere they are Assimp's.
        if (scene && ext != ".gltf" && ext != ".glb" && ext != ".x" && ext != ".md5mesh" && ext != ".md5anim" && ext != ".b3d") {
            alignRotationKeys(*const_cast<aiScene*>(scene));
        }
        if (scene) uniquifyBoneNames(const_cast<aiScene*>(scene));
        // Validation first; then quads split by rigview (quad_split.h), the rest by Assimp's steps.
        if (scene) scene = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure);
        for (unsigned m = 0; scene && m < scene->mNumMeshes; ++m) {
            if (scene->mMeshes[m]) splitQuads(*scene->mMeshes[m]);
        }
        if (scene) scene = importer.ApplyPostProcessing(kPostProcess & ~aiProcess_ValidateDataStructure);
        // Identical vertices are joined last (as in Assimp's own step order), except in a glTF
        // file: its meshes are indexed as written, and are kept vertex for vertex as three.js
        // and Blender keep them.
        if (scene && !doc) joinIdenticalVertices(*const_cast<aiScene*>(scene));
    }
    if (!scene && !files.refused().empty()) return refusedFileError(path, files);
    if (!scene) {
        std::string msg = importer.GetErrorString();
        if (msg.empty()) msg = "Assimp could not import it";
        if (msg.find("bad_alloc") != std::string::npos) {
            msg = "out of memory while importing (the file claims more data than fits; see RIGVIEW_MAX_MEMORY_MB)";
        }
        if (ext == ".blend") msg += " (and " + std::string(kBlendLimitation) + ")";
        return Error{path + ": " + msg};
    }
    if (!scene->mRootNode) return Error{path + ": the scene has no root node"};

    reportStage(options, ImportStage::Converting);
    Model model;
    model.path = path;
    model.stats.repairs = std::move(repairs);
    model.units = applyUnits(const_cast<aiScene*>(scene), releaseWhenRead ? std::string_view() : std::string_view(*bytes), ext,
                             options.units);
    // Only a glTF's own passes read the file's bytes from here on.
    if (!doc) files.release(path);
    auto nodes = flattenNodes(scene, model.skeleton, path);
    if (!nodes) return nodes.error();
    importMaterials(scene, model);
    if (doc) gltf::applyMaterials(*doc, model);  // what Assimp drops of glTF materials, from the JSON
    const gltf::Nodes gltfNodes = doc ? gltf::readNodes(*doc, model.skeleton) : gltf::Nodes{};
    NodeBinder binder(model.skeleton, *nodes, gltfNodes, model.stats);

    for (size_t n = 0; n < nodes->size(); ++n) {
        const aiNode* an = (*nodes)[n];
        for (unsigned k = 0; k < an->mNumMeshes; ++k) {
            const unsigned mi = an->mMeshes[k];
            if (mi >= scene->mNumMeshes || !scene->mMeshes[mi]) continue;
            const aiMesh* am = scene->mMeshes[mi];
            if (!(am->mPrimitiveTypes & (aiPrimitiveType_TRIANGLE | aiPrimitiveType_POLYGON)) || am->mNumFaces == 0) {
                ++model.stats.skippedMeshes;
                continue;
            }
            const std::string label = "'" + std::string(am->mName.length ? am->mName.C_Str() : model.skeleton.names[n]) + "'";
            const std::vector<int32_t> boneNodes = binder.bindBones(am, static_cast<int32_t>(n), label);
            Mesh mesh = importMesh(am, static_cast<int32_t>(n), model.skeleton, boneNodes, model.stats);
            if (mesh.material >= model.materials.size()) mesh.material = 0;
            model.meshes.push_back(std::move(mesh));
        }
    }
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        if (!scene->mAnimations[a]) continue;
        const aiAnimation* anim = scene->mAnimations[a];
        const std::string label = "'" + std::string(anim->mName.length ? anim->mName.C_Str() : "clip" + std::to_string(a)) + "'";
        const std::vector<int32_t> channelNodes = binder.bindChannels(anim, a, label);
        model.clips.push_back(importClip(anim, a, model.skeleton, channelNodes, model.stats));
        importMorphChannels(anim, model, model.clips.back());
    }
    importer.FreeScene();
    if (doc) {
        gltf::applyNodeKeys(*doc, gltfNodes, model);
        gltf::applyStepInterpolation(*doc, gltfNodes, model);
        gltf::applyMorphs(*doc, model);
        gltf::applyMarkers(*doc, model);
        gltf::applyColorAlpha(*doc, gltfNodes, model);
    }
    // Files refused while reading (a glTF buffer outside the folder, say) and textures outside it.
    model.stats.refusedPaths = files.refused();
    model.stats.filesRead = files.opened();
    confineTextures(model);
    // FBX: Assimp puts each blend shape's full weight (1) in aiAnimMesh::mWeight, not the
    // channel's value; the shapes rest at 0, as Blender's importer has them.
    if (ext == ".fbx") {
        for (Mesh& mesh : model.meshes) std::fill(mesh.morphDefaultWeights.begin(), mesh.morphDefaultWeights.end(), 0.0f);
    }
    for (Clip& c : model.clips) shareTimeRuns(c);
    computeSkinBindPose(model);
    // Assimp's Blender reader gives static geometry only: shown, but never passed as a rig.
    if (ext == ".blend") model.stats.formatLimitation = kBlendLimitation;
    if (model.meshes.empty() && model.clips.empty() && model.skeleton.size() <= 1) {
        return Error{path + ": the file holds no meshes, no skeleton and no animation"};
    }
    return model;
}

}  // namespace rig
