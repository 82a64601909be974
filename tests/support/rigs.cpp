#include "support/rigs.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

namespace rig::testing {

namespace {

void addNode(Skeleton& sk, const std::string& name, int32_t parent, const glm::vec3& offset) {
    sk.names.push_back(name);
    sk.parent.push_back(parent);
    Transform t;
    t.translation = offset;
    sk.bindLocalSqt.push_back(t);
    sk.bindLocal.push_back(toMatrix(t));
}

// One skinned mesh with a vertex at each joint's bind position, weight 1 on that joint.
void addJointMesh(Model& m) {
    Mesh mesh;
    mesh.name = "joints";
    mesh.node = 0;
    mesh.skinned = true;
    const size_t n = m.skeleton.size();
    for (size_t j = 0; j < n; ++j) {
        mesh.skin.joints.push_back(static_cast<int32_t>(j));
        mesh.skin.inverseBind.push_back(glm::inverse(m.skeleton.bindModel[j]));
        mesh.skin.offsetComputed.push_back(0);
        mesh.positions.push_back(glm::vec3(m.skeleton.bindModel[j][3]));
        mesh.normals.push_back(glm::vec3(1, 0, 0));
        const uint16_t s = static_cast<uint16_t>(j);
        mesh.joints.push_back({s, s, s, s});
        mesh.weights.push_back(glm::vec4(1, 0, 0, 0));
    }
    m.meshes.push_back(std::move(mesh));
    m.materials.emplace_back();
}

void addTrsClip(Model& m, int keys) {
    if (keys <= 0) return;
    Clip c;
    c.name = "anim";
    c.ticksPerSecond = 1.0;
    c.trackOfNode.assign(m.skeleton.size(), -1);
    // Keys at 30 per second, so more keys make a longer clip (as in real files).
    const float duration = keys > 1 ? static_cast<float>(keys - 1) / 30.0f : 0.0f;
    for (size_t j = 0; j < m.skeleton.size(); ++j) {
        Track tr;
        tr.node = static_cast<int32_t>(j);
        std::vector<float> keyTimes(static_cast<size_t>(keys));
        for (int k = 0; k < keys; ++k) keyTimes[k] = static_cast<float>(k) / 30.0f;
        const uint32_t times = c.addTimes(keyTimes.data(), static_cast<uint32_t>(keys));
        const glm::vec3 base = m.skeleton.bindLocalSqt[j].translation;
        tr.translation = {times, static_cast<uint32_t>(c.vec3Keys.size()), static_cast<uint32_t>(keys)};
        for (int k = 0; k < keys; ++k) {
            const float s = std::sin(0.7f * static_cast<float>(k) + static_cast<float>(j));
            c.vec3Keys.push_back(base + glm::vec3(0.01f * s, 0.0f, 0.0f));
        }
        tr.rotation = {times, static_cast<uint32_t>(c.quatKeys.size()), static_cast<uint32_t>(keys)};
        for (int k = 0; k < keys; ++k) {
            const float a = glm::radians(30.0f) * std::sin(0.3f * static_cast<float>(k) + 0.5f * static_cast<float>(j));
            c.quatKeys.push_back(glm::angleAxis(a, glm::vec3(0, 0, 1)));
        }
        tr.scale = {times, static_cast<uint32_t>(c.vec3Keys.size()), static_cast<uint32_t>(keys)};
        for (int k = 0; k < keys; ++k) {
            c.vec3Keys.push_back(glm::vec3(1.0f + 0.02f * std::cos(0.5f * static_cast<float>(k))));
        }
        c.trackOfNode[j] = static_cast<int32_t>(c.tracks.size());
        c.tracks.push_back(tr);
    }
    c.duration = duration;
    c.sampleRate = 30.0f;
    m.clips.push_back(std::move(c));
}

}  // namespace

Model makeChain(int joints, int keysPerTrack) {
    Model m;
    m.path = "chain" + std::to_string(joints);
    for (int j = 0; j < joints; ++j) {
        addNode(m.skeleton, "joint" + std::to_string(j), j - 1, j == 0 ? glm::vec3(0) : glm::vec3(0, 1, 0));
    }
    m.skeleton.computeBindModel();
    addJointMesh(m);
    addTrsClip(m, keysPerTrack);
    return m;
}

Model makeWideTree(int joints, int keysPerTrack) {
    Model m;
    m.path = "tree" + std::to_string(joints);
    addNode(m.skeleton, "root", -1, glm::vec3(0));
    // Breadth first: node i's parent is (i - 1) / 8, so every node has up to 8 children.
    for (int j = 1; j < joints; ++j) {
        const float a = static_cast<float>(j) * 0.7f;
        addNode(m.skeleton, "joint" + std::to_string(j), (j - 1) / 8, glm::vec3(std::cos(a), 0.5f, std::sin(a)));
    }
    m.skeleton.computeBindModel();
    addJointMesh(m);
    addTrsClip(m, keysPerTrack);
    return m;
}

Model makeTwoBone() {
    Model m;
    m.path = "two-bone";
    addNode(m.skeleton, "root", -1, glm::vec3(0));
    addNode(m.skeleton, "tip", 0, glm::vec3(0, 1, 0));
    m.skeleton.computeBindModel();

    Mesh mesh;
    mesh.name = "strip";
    mesh.node = 0;
    mesh.skinned = true;
    mesh.skin.joints = {0, 1};
    mesh.skin.inverseBind = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0))};
    mesh.skin.offsetComputed = {0, 0};
    mesh.positions = {{0, 0, 0}, {0, 2, 0}, {1, 1.5f, 0}, {2, 0.5f, 0}};
    mesh.normals = {{0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 0, 0}};
    mesh.joints = {{0, 0, 0, 0}, {1, 1, 1, 1}, {0, 1, 0, 0}, {0, 1, 0, 0}};
    mesh.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.25f, 0.75f, 0, 0}};
    mesh.indices = {0, 1, 2, 0, 2, 3};
    m.meshes.push_back(std::move(mesh));
    m.materials.emplace_back();

    Clip c;
    c.name = "bend";
    c.ticksPerSecond = 1.0;
    c.trackOfNode = {-1, 0};
    Track tr;
    tr.node = 1;
    tr.rotation = {0, 0, 2};
    c.times = {0.0f, 1.0f};
    c.quatKeys = {glm::quat(1, 0, 0, 0), glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1))};
    c.tracks.push_back(tr);
    c.duration = 1.0f;
    c.sampleRate = 30.0f;
    m.clips.push_back(std::move(c));
    return m;
}

void addMorphs(Model& m, int keys) {
    Mesh& mesh = m.meshes[0];
    const size_t n = mesh.vertexCount();
    MorphTarget up, side;
    up.name = "up";
    side.name = "side";
    for (size_t v = 0; v < n; ++v) {
        up.positionDeltas.emplace_back(0.0f, 0.1f, 0.0f);
        up.normalDeltas.emplace_back(0.05f, 0.0f, 0.0f);
        side.positionDeltas.emplace_back(v % 2 == 0 ? 0.05f : 0.0f, 0.0f, 0.0f);
    }
    mesh.morphTargets = {up, side};
    mesh.morphDefaultWeights = {0.2f, 0.0f};
    for (size_t c = 0; c < m.clips.size(); ++c) {
        Clip& clip = m.clips[c];
        MorphTrack track;
        track.mesh = 0;
        track.targets = 2;
        track.count = static_cast<uint32_t>(std::max(keys, 2));
        track.interpolation = c == 0 ? WeightInterpolation::CubicSpline : WeightInterpolation::Linear;
        std::vector<float> times;
        for (uint32_t k = 0; k < track.count; ++k) {
            const float t = clip.duration * static_cast<float>(k) / static_cast<float>(track.count - 1);
            times.push_back(t);
            const float a = 0.5f + 0.5f * std::sin(1.7f * static_cast<float>(k));
            const float b = 0.5f + 0.5f * std::cos(0.9f * static_cast<float>(k));
            if (c == 0) {
                clip.morphKeys.insert(clip.morphKeys.end(), {0.3f, -0.2f, a, b, -0.1f, 0.4f});
            } else {
                clip.morphKeys.insert(clip.morphKeys.end(), {a, b});
            }
            if (k == 0) track.values = static_cast<uint32_t>(clip.morphKeys.size() - (c == 0 ? 6 : 2));
        }
        track.times = clip.addTimes(times.data(), track.count);
        clip.morphTracks = {track};
    }
}

Model mergeSkins(Model m) {
    Skin merged;
    std::vector<std::vector<uint16_t>> slotOf(m.meshes.size());
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Skin& s = m.meshes[i].skin;
        for (size_t j = 0; j < s.joints.size(); ++j) {
            slotOf[i].push_back(static_cast<uint16_t>(merged.joints.size()));
            merged.joints.push_back(s.joints[j]);
            merged.inverseBind.push_back(s.inverseBind[j]);
            merged.offsetComputed.push_back(j < s.offsetComputed.size() ? s.offsetComputed[j] : 0);
        }
    }
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        Mesh& mesh = m.meshes[i];
        if (!mesh.skinned) continue;
        const uint32_t rigid = mesh.skin.rigidSlot();
        for (auto& v : mesh.joints) {
            for (uint16_t& j : v) j = j >= rigid ? static_cast<uint16_t>(merged.joints.size()) : slotOf[i][j];
        }
        mesh.skin = merged;
    }
    return m;
}

}  // namespace rig::testing
