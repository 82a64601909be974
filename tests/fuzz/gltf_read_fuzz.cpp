// libFuzzer target for rigview's own glTF 2.0 reader (import/gltf/read: the range check, every
// accessor decoded into the Model, skins, clips, morphs, materials, embedded images) from memory:
// the input is a .gltf text, or a .glb when it starts with "glTF". Beyond "no crash, hang or
// leak" it checks that what the reader accepts is a Model every later step can trust: parents
// before children, triangle corners among the vertices, one attribute per vertex, joint slots
// inside the palette, weights finite, tracks and keys inside their clip's arrays. A broken
// invariant aborts (a finding).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "anim/runtime/model.h"
#include "import/gltf/document.h"
#include "import/gltf/read.h"
#include "import/source_files.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "gltf_read_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

void checkModel(const rig::Model& m) {
    const rig::Skeleton& sk = m.skeleton;
    require(sk.parent.size() == sk.size() && sk.bindLocal.size() == sk.size(), "skeleton arrays");
    for (size_t i = 0; i < sk.size(); ++i) require(sk.parent[i] < static_cast<int32_t>(i), "parent before child");
    for (const rig::Mesh& mesh : m.meshes) {
        const size_t nv = mesh.positions.size();
        require(mesh.node >= 0 && static_cast<size_t>(mesh.node) < sk.size(), "mesh node");
        require(mesh.material < m.materials.size(), "mesh material");
        require(mesh.indices.size() % 3 == 0 && !mesh.indices.empty(), "triangles");
        for (uint32_t i : mesh.indices) require(i < nv, "corner among the vertices");
        require(mesh.normals.empty() || mesh.normals.size() == nv, "normals");
        require(mesh.uvs.empty() || mesh.uvs.size() == nv, "uvs");
        require(mesh.uvs1.empty() || mesh.uvs1.size() == nv, "uvs1");
        require(mesh.tangents.empty() || mesh.tangents.size() == nv, "tangents");
        require(mesh.colors.empty() || mesh.colors.size() == nv, "colors");
        for (const rig::MorphTarget& t : mesh.morphTargets) {
            require(t.positionDeltas.size() == nv, "morph positions");
            require(t.normalDeltas.empty() || t.normalDeltas.size() == nv, "morph normals");
        }
        require(mesh.morphDefaultWeights.size() == mesh.morphTargets.size(), "morph weights");
        if (!mesh.skinned) continue;
        require(mesh.joints.size() == nv && mesh.weights.size() == nv, "influences");
        require(mesh.skin.inverseBind.size() == mesh.skin.joints.size(), "inverse binds");
        for (int32_t j : mesh.skin.joints) require(j >= 0 && static_cast<size_t>(j) < sk.size(), "joint node");
        for (size_t v = 0; v < nv; ++v) {
            for (int k = 0; k < rig::kMaxInfluences; ++k) {
                require(mesh.joints[v][k] <= mesh.skin.rigidSlot(), "joint slot");
                require(std::isfinite(mesh.weights[v][k]), "finite weight");
            }
        }
    }
    for (const rig::Clip& c : m.clips) {
        require(c.trackOfNode.size() == sk.size(), "track of node");
        for (const rig::Track& t : c.tracks) {
            require(t.node >= 0 && static_cast<size_t>(t.node) < sk.size(), "track node");
            for (const rig::Channel* ch : {&t.translation, &t.scale}) {
                require(ch->times + size_t(ch->count) <= c.times.size() && ch->values + size_t(ch->count) <= c.vec3Keys.size(), "vec3 keys");
            }
            require(t.rotation.times + size_t(t.rotation.count) <= c.times.size() &&
                        t.rotation.values + size_t(t.rotation.count) <= c.quatKeys.size(), "rotation keys");
        }
        for (const rig::MorphTrack& t : c.morphTracks) {
            require(t.mesh >= 0 && static_cast<size_t>(t.mesh) < m.meshes.size(), "morph track mesh");
            require(t.times + size_t(t.count) <= c.times.size(), "morph track times");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    // A model in a folder of its own that holds nothing else: a uri naming a file finds none.
    const std::string path = "/nonexistent-gltf-read-fuzz/model.gltf";
    rig::SourceFiles files(path);
    const rig::gltf::Document doc(path, bytes, &files);
    rig::Result<rig::Model> model = rig::gltf::readGltf(doc, files, {});
    if (model) checkModel(model.value());
    return 0;
}
