// importModel: a file read by Assimp (confined to the model's folder, stdio silenced:
// import/confined_io), repaired where Assimp's validation would refuse it for one safe reading
// (import/scene_repair), converted to the model's units (import/units), its bones and channels
// bound to nodes (import/node_binding) and turned into a Model (import/scene_convert); ASF/AMC
// and IQM files go to rigview's own readers.
#include "import/import.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "anim/offline/clip_tools.h"
#include "import/asf_amc.h"
#include "import/clip_markers.h"
#include "import/confined_io.h"
#include "import/gltf_interpolation.h"
#include "import/gltf_materials.h"
#include "import/gltf_ranges.h"
#include "import/iqm.h"
#include "import/node_binding.h"
#include "import/off_header.h"
#include "import/scene_convert.h"
#include "import/scene_repair.h"
#include "import/units.h"
#include "import/vertex_join.h"

namespace rig {

namespace {

using namespace scene;

constexpr const char* kBlendLimitation =
    "Assimp reads no armature or animation from .blend files; export FBX or glTF from Blender";

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

float amcFramesPerSecond(const ImportOptions& options) {
    const float fps = options.amcFramesPerSecond;
    return fps > 0.0f && std::isfinite(fps) ? fps : kDefaultAmcFramesPerSecond;
}

}  // namespace

bool isModelFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext.empty()) return false;
    if (ext == ".asf" || ext == ".amc") return true;
    static const Assimp::Importer probe;
    return probe.IsExtensionSupported(ext);
}

std::vector<std::string> modelExtensions() {
    aiString list;  // "*.3d;*.3ds;..."
    Assimp::Importer().GetExtensionList(list);
    std::vector<std::string> out = {"asf", "amc"};
    const std::string text(list.C_Str());
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find(';', pos), text.size());
        std::string ext = text.substr(pos, end - pos);
        if (ext.rfind("*.", 0) == 0) ext.erase(0, 2);
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
        if (!ext.empty()) out.push_back(ext);
        pos = end + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string assimpVersion() {
    return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
           std::to_string(aiGetVersionPatch());
}

unsigned importFlags() {
    return aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |
           aiProcess_SortByPType | aiProcess_ValidateDataStructure;
}

namespace {

Result<Model> importModelFile(const std::string& path, const ImportOptions& options) {
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();

    // Acclaim motion capture (CMU): our own parser; an .amc finds its skeleton beside it.
    const std::string ext = lowerExtension(path);
    if (ext == ".asf") return importAsf(path);
    if (ext == ".amc") {
        const std::string asf = findAsfForAmc(path);
        if (asf.empty()) {
            return Error{path + ": no skeleton beside it (for 01_01.amc rigview looks for 01.asf in the same folder)"};
        }
        return importAsfAmc(asf, {path}, amcFramesPerSecond(options));
    }
    // Inter-Quake Model: our own reader (Assimp 5.2.5 reads only the static meshes).
    if (ext == ".iqm") {
        Result<Model> iqm = importIqm(path);
        if (iqm) computeSkinBindPose(iqm.value());
        return iqm;
    }

    // Object File Format (by extension or, as Assimp also finds it, by keyword): counts no
    // file of this size could hold are refused before Assimp allocates for them (off_header.h).
    if (Result<bool> counts = checkOffCounts(path, ext == ".off"); !counts) return counts.error();
    // glTF accessors and buffer views that leave their buffers, before Assimp reads them.
    if (ext == ".gltf" || ext == ".glb") {
        if (Result<bool> ranges = checkGltfRanges(path); !ranges) return ranges.error();
    }

    Assimp::Importer importer;
    auto* io = new ConfinedIOSystem(path);  // owned by the importer
    importer.SetIOHandler(io);
    // Drop point and line primitives: a skinned viewer draws triangles.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // Skeleton-only files (BVH, some FBX) stay skeletons: no stand-in bone meshes.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    // Read with no post-processing first: a skeleton-only file (BVH) has no meshes, which
    // the validator rejects unless the scene is flagged incomplete. Then validate (always the
    // first step) and post-process.
    const aiScene* scene = nullptr;
    std::vector<ImportRepair> repairs;
    {
        SilenceStdio quiet;
        scene = importer.ReadFile(path, 0);
        if (scene && scene->mNumMeshes == 0) {
            const_cast<aiScene*>(scene)->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
        }
        // Points Assimp's validation would refuse but that have one safe reading (keys past a
        // clip's end, empty channels) are repaired first and recorded for `check` and `info`.
        if (scene) repairs = repairScene(*const_cast<aiScene*>(scene));
        if (scene) dropLightsAndCameras(*const_cast<aiScene*>(scene));  // not read: see scene_repair.h
        if (scene) uniquifyBoneNames(const_cast<aiScene*>(scene));
        // Identical vertices are joined last (as in Assimp's own step order), by
        // import/vertex_join: Assimp's step would join vertices whose morph targets differ.
        if (scene) scene = importer.ApplyPostProcessing(importFlags() & ~aiProcess_JoinIdenticalVertices);
        if (scene) scene = joinIdenticalVertices(importer);
    }
    if (!scene && !io->refused().empty()) {
        // paths::refusedName: "<file> (<why>)" when the file is inside but not read.
        const std::string& first = io->refused().front();
        const bool why = !first.empty() && first.back() == ')';
        const bool never = first.find(" (not a regular file") != std::string::npos;
        return Error{path + ": refused to read " + first + (why ? "" : ": outside the model's folder") +
                         (never ? "" : " (--allow-external-paths allows it)"),
                     "external-path-refused"};
    }
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

    Model model;
    model.path = path;
    model.stats.repairs = std::move(repairs);
    model.stats.refusedPaths = io->refused();
    model.units = applyUnits(const_cast<aiScene*>(scene), path, ext, options.units);
    auto nodes = flattenNodes(scene, model.skeleton, path);
    if (!nodes) return nodes.error();
    importMaterials(scene, model);
    applyGltfMaterials(path, model);  // what Assimp drops of glTF materials, from the JSON
    confineTextures(model);
    const GltfNodes gltf = readGltfNodes(path, model.skeleton);
    NodeBinder binder(model.skeleton, *nodes, gltf, model.stats);

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
    applyGltfNodeKeys(path, model);
    applyGltfStepInterpolation(path, model);
    applyGltfMorphs(path, model);
    applyGltfMarkers(path, model);
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

}  // namespace

Result<Model> importModel(const std::string& path, const ImportOptions& options) {
    Result<Model> model = importModelFile(path, options);
    if (!model) return model;
    // The markers edited in the viewer, saved beside the file (import/clip_markers.h).
    std::string error;
    if (!applyMarkersFile(path, model.value(), error)) return Error{error};
    return model;
}

Result<Model> importModelWithAnims(const std::string& path, const std::vector<std::string>& animPaths,
                                   const ImportOptions& options) {
    if (animPaths.empty()) return importModel(path, options);
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();
    for (const std::string& a : animPaths) {
        if (Result<bool> regular = checkRegularFile(a); !regular) return regular.error();
    }
    std::vector<std::string> amcs, others;
    for (const std::string& a : animPaths) (lowerExtension(a) == ".amc" && lowerExtension(path) == ".asf" ? amcs : others).push_back(a);
    Result<Model> base = amcs.empty() ? importModel(path, options) : importAsfAmc(path, amcs, amcFramesPerSecond(options));
    if (!base) return base;
    Model& model = base.value();
    for (const std::string& a : amcs) {
        model.stats.retargetNotes.push_back(a + ": motion read with the skeleton's own dof");
    }
    for (const std::string& a : others) {
        // An animation-only IQM file (poses, no joints or names) plays on its IQM model's joints
        // by index (import/iqm.h); every other file binds by joint name.
        const bool byIndex = lowerExtension(a) == ".iqm" && isIqmAnimationOnlyFile(a);
        if (byIndex && lowerExtension(path) != ".iqm") {
            return Error{a + ": an animation-only IQM file (poses, no joints) plays on the joints of its IQM model; " + path +
                         " is not an IQM file"};
        }
        Result<Model> src = byIndex ? importIqmAnimations(a, path) : importModel(a, options);
        if (!src) return src.error();
        const Model& from = src.value();
        if (from.clips.empty()) return Error{a + ": has no clips to add"};
        if (byIndex && from.skeleton.names != model.skeleton.names) {
            return Error{a + ": the joints of " + path + " read differently the second time (was the file replaced?)"};
        }
        for (const std::string& r : from.stats.refusedPaths) model.stats.refusedPaths.push_back(r);
        model.stats.clipsWithoutTicksPerSecond += from.stats.clipsWithoutTicksPerSecond;
        const RetargetMap map = buildRetargetMap(from.skeleton, model.skeleton);
        std::vector<std::string> skipped;
        size_t added = 0;
        for (const Clip& c : from.clips) {
            Clip clip = byIndex ? c : retargetClip(c, map, from.skeleton, model.skeleton, &skipped);
            if (clip.tracks.empty()) continue;
            if (model.findClip(clip.name) >= 0) clip.name = std::filesystem::path(a).stem().string() + ":" + clip.name;
            model.clips.push_back(std::move(clip));
            ++added;
        }
        if (added == 0) {
            return Error{a + ": none of its joints match " + path + " by name (" +
                         std::to_string(map.missingInTarget.size()) + " joints missing)"};
        }
        std::sort(skipped.begin(), skipped.end());
        skipped.erase(std::unique(skipped.begin(), skipped.end()), skipped.end());
        std::string note = a + ": " + std::to_string(added) + " clips added" + (byIndex ? " (poses on the joints by index)" : "");
        if (!skipped.empty()) {
            note += "; " + std::to_string(skipped.size()) + " joints not in the model skipped:";
            for (size_t i = 0; i < skipped.size() && i < 12; ++i) note += (i ? ", " : " ") + skipped[i];
            if (skipped.size() > 12) note += ", ...";
        }
        if (!map.missingInSource.empty()) {
            note += "; " + std::to_string(map.missingInSource.size()) + " model joints not animated";
        }
        model.stats.retargetNotes.push_back(note);
    }
    return base;
}

}  // namespace rig
