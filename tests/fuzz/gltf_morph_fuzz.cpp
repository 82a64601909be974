// libFuzzer target for rigview's own glTF morph reader (import/gltf_interpolation.cpp:
// applyGltfMorphs): the input is the text of a .gltf file (JSON, buffers as data: URIs or
// files), applied to a model whose nodes "n", "nodes[1]" and "body" each hold a mesh with two
// morph targets. Beyond "no
// crash, hang or leak" it checks what the runtime relies on: every morph track names a mesh
// and its target count, its key times and values lie inside the clip's arrays, times ascend
// and are finite, and sampling gives finite weights. A broken invariant aborts (a finding).
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "anim/model.h"
#include "import/gltf_interpolation.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "gltf_morph_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

rig::Model makeModel(size_t clips) {
    rig::Model m;
    // "body": the seed's (tests/data/morph/morph_skin.gltf) morphing node; "nodes[1]": how
    // Assimp names an unnamed node 1.
    m.skeleton.names = {"n", "nodes[1]", "body"};
    m.skeleton.parent = {-1, 0, 0};
    m.skeleton.bindLocal.assign(3, glm::mat4(1.0f));
    m.skeleton.bindLocalSqt.resize(3);
    m.skeleton.computeBindModel();
    for (int32_t node : {0, 1, 2}) {
        rig::Mesh mesh;
        mesh.node = node;
        mesh.positions.assign(3, glm::vec3(0.0f));
        for (int t = 0; t < 2; ++t) {
            rig::MorphTarget target;
            target.name = "target" + std::to_string(t);
            target.positionDeltas.assign(3, glm::vec3(0.1f));
            mesh.morphTargets.push_back(target);
        }
        mesh.morphDefaultWeights = {0.0f, 0.0f};
        m.meshes.push_back(mesh);
    }
    m.clips.resize(clips);
    for (rig::Clip& c : m.clips) c.trackOfNode.assign(3, -1);
    return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/gltf_morph_fuzz_" + std::to_string(::getpid()) + ".gltf";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    // As many clips as the file has animations (so that its channels are read), at most 16.
    size_t clips = 1;
    const nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, false);
    if (doc.is_object() && doc.contains("animations") && doc["animations"].is_array()) {
        clips = std::min<size_t>(doc["animations"].size(), 16);
    }
    rig::Model model = makeModel(clips);
    const int read = rig::applyGltfMorphs(path, model);
    if (std::getenv("GLTF_MORPH_FUZZ_VERBOSE")) std::fprintf(stderr, "tracks read: %d\n", read);
    for (const rig::Clip& clip : model.clips) {
        require(clip.startTime <= clip.duration || clip.morphTracks.empty(), "clip range inverted");
        for (const rig::MorphTrack& t : clip.morphTracks) {
            require(t.mesh >= 0 && static_cast<size_t>(t.mesh) < model.meshes.size(), "track names no mesh");
            require(t.targets == model.meshes[t.mesh].morphTargets.size(), "track target count differs");
            require(t.count > 0 && static_cast<size_t>(t.times) + t.count <= clip.times.size(), "times out of range");
            const size_t perKey = t.interpolation == rig::WeightInterpolation::CubicSpline ? 3 : 1;
            require(static_cast<size_t>(t.values) + t.count * t.targets * perKey <= clip.morphKeys.size(),
                    "values out of range");
            for (uint32_t k = 0; k < t.count; ++k) {
                require(std::isfinite(clip.times[t.times + k]), "non-finite key time");
                require(k == 0 || clip.times[t.times + k - 1] <= clip.times[t.times + k], "key times descend");
            }
            float w[2];
            uint32_t cursor = 0;
            for (float time : {-1.0f, clip.startTime, 0.5f * (clip.startTime + clip.duration), clip.duration, 1e9f}) {
                rig::sampleMorphTrack(clip, t, time, cursor, w);
                require(std::isfinite(w[0]) && std::isfinite(w[1]), "non-finite weight");
            }
        }
    }
    for (const rig::Mesh& mesh : model.meshes) require(mesh.morphTargets.size() == 2, "targets added or lost");
    return 0;
}
