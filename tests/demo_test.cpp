// The bundled demo asset: loads through Assimp like any other file, is what the issue asks
// for, and is exactly what tools/make_demo.py generates.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "support/run.h"

namespace rig {
namespace {

const std::string kDemo = std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf";

TEST(Demo, IsARiggedCharacterWithSmoothWeightsAndThreeClips) {
    Result<Model> r = importModel(kDemo);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& m = r.value();
    EXPECT_GE(m.jointNodes().size(), 20u);
    ASSERT_GE(m.clips.size(), 3u);
    for (const char* name : {"idle", "walk", "wave"}) EXPECT_GE(m.findClip(name), 0) << name;
    for (const Clip& c : m.clips) {
        EXPECT_GT(c.duration, 0.5f) << c.name;
        EXPECT_GT(c.tracks.size(), 5u) << c.name;
    }
    // Smooth weights: vertices blending 2, 3 and 4 bones all occur; all sum to 1.
    int byCount[5] = {0, 0, 0, 0, 0};
    for (const Mesh& mesh : m.meshes) {
        ASSERT_TRUE(mesh.skinned) << mesh.name;
        EXPECT_EQ(mesh.weightStats.unweightedVertices, 0u);
        EXPECT_EQ(mesh.weightStats.unnormalizedVertices, 0u);
        for (const glm::vec4& w : mesh.weights) {
            EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
            ++byCount[(w.x > 0) + (w.y > 0) + (w.z > 0) + (w.w > 0)];
        }
    }
    EXPECT_GT(byCount[2], 0);
    EXPECT_GT(byCount[3], 0);
    EXPECT_GT(byCount[4], 0);
    // Colour: a base-colour texture or a non-grey base colour.
    bool coloured = false;
    for (const Material& mat : m.materials) {
        coloured = coloured || !mat.baseColorTexture.path.empty() ||
                   mat.baseColor.r != mat.baseColor.g || mat.baseColor.g != mat.baseColor.b;
    }
    EXPECT_TRUE(coloured);
}

TEST(Demo, BindPoseIsIdentityAndClipsMoveTheMesh) {
    Result<Model> r = importModel(kDemo);
    ASSERT_TRUE(r.ok());
    const Model& m = r.value();
    Animator anim(m);
    anim.evaluate(-1, 0.0f);
    for (const glm::mat4& p : anim.palette())
        for (int c = 0; c < 4; ++c)
            for (int k = 0; k < 4; ++k) EXPECT_NEAR(p[c][k], c == k ? 1.0f : 0.0f, 1e-4f);
    const Mesh& mesh = m.meshes[0];
    std::vector<glm::vec3> bind(mesh.vertexCount()), posed(mesh.vertexCount());
    skinMesh(mesh, anim.palette().data(), bind.data(), nullptr);
    for (size_t c = 0; c < m.clips.size(); ++c) {
        anim.evaluate(static_cast<int32_t>(c), m.clips[c].duration * 0.3f);
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(0), posed.data(), nullptr);
        float moved = 0.0f;
        for (size_t v = 0; v < bind.size(); ++v) moved = std::max(moved, glm::length(posed[v] - bind[v]));
        EXPECT_GT(moved, 0.01f) << m.clips[c].name;
        EXPECT_LT(moved, 2.0f) << m.clips[c].name;  // no explosion
    }
}

TEST(Demo, GeneratorReproducesTheCommittedFiles) {
    const std::string out = testing::tempDir();
    const testing::RunResult r = testing::run("/usr/bin/python3",
        {std::string(RIGVIEW_SOURCE_DIR) + "/tools/make_demo.py", "--out", out}, 300.0);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* f : {"rigview_demo.gltf", "rigview_demo.bin", "rigview_demo_albedo.png"}) {
        auto slurp = [](const std::string& p) {
            std::ifstream in(p, std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            return ss.str();
        };
        const std::string committed = slurp(std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/" + f);
        EXPECT_FALSE(committed.empty()) << f;
        EXPECT_TRUE(committed == slurp(out + "/" + f)) << f << " differs from the generator's output";
    }
    std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace rig
