#include "support/morph_rig.h"

#include <algorithm>
#include <cmath>

namespace rig::testing {

gltf::Document morphSkinCharacter() {
    using namespace gltf;
    Document doc;
    constexpr int kRings = 6, kSides = 8;
    constexpr float kPi = 3.14159265358979f, kHeight = 2.5f, kRadius = 0.3f;
    Node root;
    root.name = "Character";
    root.translation = glm::vec3(0.2f, 0.0f, -0.1f);
    root.rotation = glm::angleAxis(0.3f, glm::vec3(0.0f, 1.0f, 0.0f));
    root.children = {1, 3};
    Node hip;
    hip.name = "hip";
    hip.children = {2};
    Node spine;
    spine.name = "spine";
    spine.translation = glm::vec3(0.0f, 1.25f, 0.0f);
    Node body;
    body.name = "body";
    body.mesh = 0;
    body.skin = 0;
    doc.nodes = {root, hip, spine, body};

    Mesh mesh;
    mesh.name = "body";
    MorphTarget bulge, lean;
    bulge.name = "bulge";
    lean.name = "lean";
    for (int r = 0; r < kRings; ++r) {
        const float y = kHeight * static_cast<float>(r) / (kRings - 1);
        const float s = std::sin(kPi * y / kHeight);
        float spineWeight = std::clamp((y - 0.75f) / 1.0f, 0.0f, 1.0f);
        spineWeight = spineWeight * spineWeight * (3.0f - 2.0f * spineWeight);
        for (int k = 0; k < kSides; ++k) {
            const float a = 2.0f * kPi * static_cast<float>(k) / kSides;
            const glm::vec3 radial(std::cos(a), 0.0f, std::sin(a));
            mesh.positions.push_back(radial * kRadius + glm::vec3(0.0f, y, 0.0f));
            mesh.normals.push_back(radial);
            mesh.uvs.emplace_back(static_cast<float>(k) / kSides, y / kHeight);
            Influences inf;
            if (spineWeight < 1.0f) inf.emplace_back(0, 1.0f - spineWeight);
            if (spineWeight > 0.0f) inf.emplace_back(1, spineWeight);
            mesh.influences.push_back(inf);
            bulge.positions.push_back(radial * (0.15f * s));
            bulge.normals.push_back(glm::vec3(0.0f, -0.2f * std::cos(kPi * y / kHeight), 0.0f));
            lean.positions.push_back(glm::vec3(0.2f * y / kHeight, 0.0f, 0.05f * y));
            lean.normals.push_back(glm::vec3(-0.1f, 0.0f, 0.0f));
        }
    }
    for (int r = 0; r + 1 < kRings; ++r) {
        for (int k = 0; k < kSides; ++k) {
            const uint32_t a = r * kSides + k, b = r * kSides + (k + 1) % kSides;
            const uint32_t c = a + kSides, d = b + kSides;
            mesh.indices.insert(mesh.indices.end(), {a, c, b, b, c, d});
        }
    }
    mesh.targets = {bulge, lean};
    mesh.weights = {0.25f, 0.0f};
    doc.meshes = {mesh};
    Skin skin;
    skin.joints = {1, 2};
    skin.inverseBind = inverseBindFromNodes(doc, skin.joints);
    doc.skins = {skin};

    Animation bend;
    bend.name = "bend";
    Channel rot;
    rot.node = 2;
    rot.path = "rotation";
    rot.times = {0.0f, 1.0f, 2.0f};
    for (float angle : {0.0f, 0.6f, -0.3f}) appendQuat(rot.values, glm::angleAxis(angle, glm::vec3(0.0f, 0.0f, 1.0f)));
    Channel w;
    w.node = 3;
    w.path = "weights";
    w.interpolation = "CUBICSPLINE";
    w.times = {0.0f, 1.0f, 2.0f};
    // Per key: in-tangents (bulge, lean), values, out-tangents.
    w.values = {0.0f, 0.0f, 0.0f, -0.3f, 1.5f, 0.4f,
                -0.5f, 0.8f, 1.0f, 0.5f, 0.2f, -0.6f,
                0.7f, 0.1f, 0.2f, 1.0f, 0.0f, 0.0f};
    bend.channels = {rot, w};

    Animation blink;
    blink.name = "blink";
    Channel move;
    move.node = 1;
    move.path = "translation";
    move.times = {0.0f, 1.0f};
    appendVec3(move.values, glm::vec3(0.0f));
    appendVec3(move.values, glm::vec3(0.1f, 0.2f, 0.0f));
    Channel steps;
    steps.node = 3;
    steps.path = "weights";
    steps.interpolation = "STEP";
    steps.times = {0.0f, 0.5f, 1.0f};
    steps.values = {1.0f, 0.0f, 0.0f, 1.0f, 0.5f, 0.5f};
    blink.channels = {move, steps};
    doc.animations = {bend, blink};
    return doc;
}

}  // namespace rig::testing
