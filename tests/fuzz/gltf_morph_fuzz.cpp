// libFuzzer target for rigview's own glTF buffer readers (import/gltf/keys and morphs:
// applyNodeKeys, then applyMorphs, on the file's gltf::Document): the input is the text of a
// .gltf file (JSON, buffers as data: URIs), applied to a model whose nodes "n", "nodes[1]" and "body"
// each hold a mesh with two morph targets and, in every clip, a track with two keys (at 0 and
// 1 s) in each of translation, rotation and scale. Beyond "no crash, hang or leak" it checks
// what the runtime relies on: every morph track names a mesh and its target count, its key
// times and values lie inside the clip's arrays, times ascend and are finite, and sampling
// gives finite weights; every node channel's keys lie inside the clip's arrays, its times
// ascend and are finite, its rotations are unit quaternions. A broken invariant aborts.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "import/gltf/document.h"
#include "import/gltf/keys.h"
#include "import/gltf/nodes.h"
#include "import/gltf/morphs.h"

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
    for (rig::Clip& c : m.clips) {
        c.trackOfNode = {0, 1, 2};
        const float times[2] = {0.0f, 1.0f};
        for (int32_t node : {0, 1, 2}) {
            rig::Track t;
            t.node = node;
            const uint32_t run = c.addTimes(times, 2);
            t.translation = {run, static_cast<uint32_t>(c.vec3Keys.size()), 2};
            c.vec3Keys.insert(c.vec3Keys.end(), 2, glm::vec3(0.0f));
            t.scale = {run, static_cast<uint32_t>(c.vec3Keys.size()), 2};
            c.vec3Keys.insert(c.vec3Keys.end(), 2, glm::vec3(1.0f));
            t.rotation = {run, static_cast<uint32_t>(c.quatKeys.size()), 2};
            c.quatKeys.insert(c.quatKeys.end(), 2, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
            c.tracks.push_back(t);
        }
        c.duration = 1.0f;
    }
    return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = "fuzz.gltf";
    // As many clips as the file has animations (so that its channels are read), at most 16.
    size_t clips = 1;
    const nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, false);
    if (doc.is_object() && doc.contains("animations") && doc["animations"].is_array()) {
        clips = std::min<size_t>(doc["animations"].size(), 16);
    }
    rig::Model model = makeModel(clips);
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const rig::gltf::Document document(path, bytes);
    const int restored = rig::gltf::applyNodeKeys(document, rig::gltf::readNodes(document, model.skeleton), model);
    for (const rig::Clip& clip : model.clips) {
        for (const rig::Track& t : clip.tracks) {
            for (const rig::Channel* c : {&t.translation, &t.rotation, &t.scale}) {
                require(c->count > 0 && static_cast<size_t>(c->times) + c->count <= clip.times.size(), "node key times out of range");
                require(static_cast<size_t>(c->values) + c->count <= (c == &t.rotation ? clip.quatKeys.size() : clip.vec3Keys.size()),
                        "node key values out of range");
                for (uint32_t k = 0; k < c->count; ++k) {
                    require(std::isfinite(clip.times[c->times + k]), "non-finite node key time");
                    require(k == 0 || clip.times[c->times + k - 1] < clip.times[c->times + k], "node key times do not ascend");
                    if (c == &t.rotation) {
                        const glm::quat q = clip.quatKeys[c->values + k];
                        require(std::fabs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0f) < 1e-3f, "rotation not unit");
                    }
                }
            }
        }
        require(clip.startTime <= clip.duration, "clip range inverted after node keys");
    }
    const int read = rig::gltf::applyMorphs(document, model);
    if (std::getenv("GLTF_MORPH_FUZZ_VERBOSE")) std::fprintf(stderr, "channels restored: %d, tracks read: %d\n", restored, read);
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
