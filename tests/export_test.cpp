// glTF export (import/gltf_export.h, `rigview export -o X.gltf|.glb`): real files and the demo
// asset exported and read back by rigview's own importer (skinned positions and joint world
// matrices at every key time equal the source's within 1e-5 of the bounding-box diagonal),
// checked by the Khronos glTF validator, read by three.js (GLTFLoader + AnimationMixer) and
// compared with rigview's pose of the source; bad command lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/blend.h"
#include "anim/pose.h"
#include "anim/skinning.h"
#include "import/gltf_export.h"
#include "import/import.h"
#include "support/run.h"

namespace {

using nlohmann::json;
using rig::testing::run;
using rig::testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kSource = RIGVIEW_SOURCE_DIR;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kDemo = kSource + "/assets/demo/rigview_demo.gltf";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

rig::Model load(const std::string& path) {
    rig::Result<rig::Model> r = rig::importModel(path);
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : rig::Model{};
}

// What `rigview pose --json` writes for one pose: every mesh's skinned world positions and
// every node's world matrix.
struct Posed {
    std::vector<std::vector<glm::vec3>> meshes;
    std::vector<glm::mat4> world;
};

Posed pose(const rig::Model& model, rig::Animator& anim, int32_t clip, float t) {
    anim.evaluate(clip, t);
    Posed p;
    p.world = anim.world();
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const rig::Mesh& mesh = model.meshes[m];
        std::vector<glm::vec3> v(mesh.vertexCount());
        rig::skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), v.data(), nullptr);
        for (glm::vec3& x : v) x = glm::vec3(anim.world()[mesh.node] * glm::vec4(x, 1.0f));
        p.meshes.push_back(std::move(v));
    }
    return p;
}

// Diagonal of the box around the meshes (or, for a bare skeleton, the node origins) in a pose.
double diagonal(const Posed& p) {
    glm::dvec3 lo(1e30), hi(-1e30);
    auto add = [&](const glm::vec3& v) {
        lo = glm::min(lo, glm::dvec3(v));
        hi = glm::max(hi, glm::dvec3(v));
    };
    for (const auto& m : p.meshes) {
        for (const glm::vec3& v : m) add(v);
    }
    if (p.meshes.empty() || p.meshes[0].empty()) {
        for (const glm::mat4& w : p.world) add(glm::vec3(w[3]));
    }
    return glm::length(hi - lo);
}

// Node of `b` for each node of `a`: the same index when the trees agree, else the node of the
// same name (-1 when `b` has none or several).
std::vector<int32_t> nodeMap(const rig::Skeleton& a, const rig::Skeleton& b) {
    std::vector<int32_t> map(a.size(), -1);
    if (a.names == b.names) {
        for (size_t i = 0; i < a.size(); ++i) map[i] = static_cast<int32_t>(i);
        return map;
    }
    std::map<std::string, int> count;
    for (const std::string& n : b.names) ++count[n];
    for (size_t i = 0; i < a.size(); ++i) {
        if (count[a.names[i]] == 1) map[i] = b.find(a.names[i]);
    }
    return map;
}

// Every distinct key time of a clip.
std::vector<float> keyTimes(const rig::Clip& c) {
    std::set<float> s(c.times.begin(), c.times.end());
    return std::vector<float>(s.begin(), s.end());
}

// Poses of `b` equal those of `a` within `tol` of the box diagonal: every mesh's vertices, the
// joints' world matrices (origins within tol x diagonal, axes within tol), at clip time t of
// `a` and t - offset of `b`, for every t in `times`.
void expectSamePoses(const rig::Model& a, int32_t clipA, const rig::Model& b, int32_t clipB,
                     const std::vector<float>& times, float offset, double tol, const std::string& what) {
    ASSERT_EQ(a.meshes.size(), b.meshes.size()) << what;
    rig::Animator animA(a), animB(b);
    const std::vector<int32_t> map = nodeMap(a.skeleton, b.skeleton);
    const std::vector<int32_t> joints = a.jointNodes();
    size_t mapped = 0;
    for (int32_t j : joints) mapped += map[j] >= 0;
    EXPECT_EQ(mapped, joints.size()) << what << ": joints found in the export by name";
    double diag = 0.0;
    double worst = 0.0;
    float worstTime = 0.0f;
    std::string worstWhat;
    for (float t : times) {
        const Posed pa = pose(a, animA, clipA, t);
        const Posed pb = pose(b, animB, clipB, t - offset);
        if (diag == 0.0) {
            diag = diagonal(pa);
            ASSERT_GT(diag, 0.0) << what;
        }
        for (size_t m = 0; m < pa.meshes.size(); ++m) {
            ASSERT_EQ(pa.meshes[m].size(), pb.meshes[m].size()) << what << " mesh " << m;
            for (size_t v = 0; v < pa.meshes[m].size(); ++v) {
                const double d = glm::length(glm::dvec3(pa.meshes[m][v]) - glm::dvec3(pb.meshes[m][v])) / diag;
                if (d > worst) worst = d, worstTime = t, worstWhat = "mesh " + std::to_string(m) + " vertex " + std::to_string(v);
            }
        }
        for (int32_t j : joints) {
            if (map[j] < 0) continue;
            const glm::mat4 &wa = pa.world[j], &wb = pb.world[map[j]];
            // Axes relative to their own length (a node may scale by 100), origins to the box.
            double axes = 1e-30;
            for (int c = 0; c < 3; ++c) axes = std::max(axes, glm::length(glm::dvec3(wa[c])));
            for (int c = 0; c < 3; ++c) {
                const double d = glm::length(glm::dvec3(wa[c]) - glm::dvec3(wb[c])) / axes;
                if (d > worst) worst = d, worstTime = t, worstWhat = "axis " + std::to_string(c) + " of " + a.skeleton.names[j];
            }
            const double d = glm::length(glm::dvec3(wa[3]) - glm::dvec3(wb[3])) / diag;
            if (d > worst) worst = d, worstTime = t, worstWhat = "origin of " + a.skeleton.names[j];
        }
    }
    EXPECT_LE(worst, tol) << what << ": worst difference " << worst << " (of the diagonal " << diag << ") at t=" << worstTime
                          << " over " << times.size() << " key times (" << worstWhat << ")";
}

std::string tempPath(const std::string& name) { return rig::testing::tempDir() + "/" + name; }

// Export `source` through the library, read it back, compare every clip at every key time.
void roundTrip(const std::string& source, bool binary, const std::string& name) {
    const rig::Model a = load(source);
    ASSERT_FALSE(a.skeleton.names.empty()) << source;
    const std::string out = tempPath(name + (binary ? ".glb" : ".gltf"));
    rig::GltfExportOptions options;
    options.binary = binary;
    std::string error;
    ASSERT_TRUE(rig::writeGltf(a, a.clips, out, options, error)) << error;
    const rig::Model b = load(out);
    ASSERT_EQ(b.clips.size(), a.clips.size()) << out;
    ASSERT_EQ(b.meshes.size(), a.meshes.size()) << out;
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        EXPECT_EQ(b.meshes[m].skinned, a.meshes[m].skinned) << out << " mesh " << m;
        EXPECT_EQ(b.meshes[m].morphTargets.size(), a.meshes[m].morphTargets.size()) << out << " mesh " << m;
    }
    // The bind pose (the inverse bind matrices) and the file pose (the nodes' transforms).
    expectSamePoses(a, rig::kBindPose, b, rig::kBindPose, {0.0f}, 0.0f, 1e-5, out + " bind pose");
    expectSamePoses(a, rig::kFilePose, b, rig::kFilePose, {0.0f}, 0.0f, 1e-5, out + " file pose");
    for (size_t c = 0; c < a.clips.size(); ++c) {
        EXPECT_EQ(b.clips[c].name, a.clips[c].name);
        EXPECT_NEAR(b.clips[c].duration, a.clips[c].duration, 1e-5f);
        expectSamePoses(a, static_cast<int32_t>(c), b, static_cast<int32_t>(c), keyTimes(a.clips[c]), 0.0f, 1e-5,
                        out + " clip '" + a.clips[c].name + "'");
    }
}

TEST(GltfExport, RoundTripSimpleSkin) { roundTrip(kModels + "glTF2/simple_skin/simple_skin.gltf", false, "simple_skin"); }
TEST(GltfExport, RoundTripBcnEpilepticX) { roundTrip(kModels + "X/BCN_Epileptic.X", true, "bcn"); }
TEST(GltfExport, RoundTripTestwusonX) { roundTrip(kModels + "X/Testwuson.X", false, "wuson"); }
TEST(GltfExport, RoundTripFbxCentimetres) { roundTrip(kModels + "FBX/animation_with_skeleton.fbx", false, "fbx"); }
TEST(GltfExport, RoundTripDemo) { roundTrip(kDemo, true, "demo"); }
TEST(GltfExport, RoundTripMorphWeights) {
    roundTrip(kSource + "/tests/data/morph/morph_skin.gltf", false, "morph_skin");
    roundTrip(kModels + "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", true, "morph_cube");
}

}  // namespace
