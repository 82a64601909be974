// glTF export (import/gltf/export.h, `rigview export -o X.gltf|.glb`): real files and the demo
// asset exported and read back by rigview's own importer (skinned positions and joint world
// matrices at every key time equal the source's within 1e-5 of the bounding-box diagonal),
// checked by the Khronos glTF validator, read by three.js (GLTFLoader + AnimationMixer) and
// compared with rigview's pose of the source; bad command lines.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/blend.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "export_common.h"
#include "import/clip_markers.h"
#include "import/gltf/export.h"
#include "import/import.h"
#include "support/rigs.h"
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
        for (glm::vec3& x : v) x = glm::vec3(anim.skinToModel(m) * glm::vec4(x, 1.0f));
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
    // Meshes in the same order, or (a rig built in code, whose mesh order is not its node
    // order, as an import's is) by their distinct names.
    std::vector<size_t> meshes(a.meshes.size());
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        meshes[m] = m;
        size_t found = 0;
        for (size_t k = 0; k < b.meshes.size(); ++k) {
            if (b.meshes[k].name == a.meshes[m].name) meshes[m] = k, ++found;
        }
        if (found != 1) meshes[m] = m;
    }
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
            const size_t mb = meshes[m];
            ASSERT_EQ(pa.meshes[m].size(), pb.meshes[mb].size()) << what << " mesh " << m;
            for (size_t v = 0; v < pa.meshes[m].size(); ++v) {
                const double d = glm::length(glm::dvec3(pa.meshes[m][v]) - glm::dvec3(pb.meshes[mb][v])) / diag;
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
TEST(GltfExport, RoundTripBvh) { roundTrip(kModels + "BVH/01_01.bvh", true, "bvh"); }
TEST(GltfExport, RoundTripSameNamesAndStep) { roundTrip(kSource + "/tests/data/three/dup_names.gltf", true, "dup_names"); }
TEST(GltfExport, RoundTripDemo) { roundTrip(kDemo, true, "demo"); }
TEST(GltfExport, RoundTripMorphWeights) {
    roundTrip(kSource + "/tests/data/morph/morph_skin.gltf", false, "morph_skin");
    roundTrip(kModels + "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", true, "morph_cube");
}

// A rig built in code with what the real files lack: a STEP channel with a jump (two keys at
// one time), unweighted vertices (follow the mesh's node), a second mesh on one node,
// cubic-spline and linear morph weights, a sheared (non-TRS) node no clip moves. Poses on and
// between keys equal the source's after export and import.
rig::Model edgeCaseRig() {
    rig::Model m = rig::testing::makeTwoBone();
    rig::Clip& c = m.clips[0];
    c.times = {0.0f, 0.5f, 0.5f, 1.0f};
    c.quatKeys = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.3f, glm::vec3(0, 0, 1)), glm::angleAxis(1.1f, glm::vec3(0, 0, 1)),
                  glm::angleAxis(1.5f, glm::vec3(1, 0, 0))};
    c.tracks[0].rotation = {0, 0, 4, rig::Interpolation::Step};
    rig::Clip linear = c;
    linear.name = "bend linear";
    linear.times = {0.0f, 0.25f, 1.0f};
    linear.quatKeys.resize(3);
    linear.tracks[0].rotation = {0, 0, 3, rig::Interpolation::Linear};
    m.clips.push_back(linear);
    rig::Clip early = linear;  // keys before 0 s: written moved to start at 0
    early.name = "early";
    early.times = {-0.5f, 0.0f, 0.5f};
    early.startTime = -0.5f;
    early.duration = 0.5f;
    m.clips.push_back(early);
    rig::Mesh& mesh = m.meshes[0];
    mesh.joints[0] = {2, 2, 2, 2};  // the rigid slot
    mesh.weights[0] = glm::vec4(1, 0, 0, 0);
    rig::testing::addMorphs(m, 5);
    rig::Mesh second = m.meshes[0];
    second.name = "strip2";  // on the root too: hangs from an added node
    m.meshes.push_back(second);
    second.name = "strip3";  // on "tip", a joint with a non-identity inverse bind matrix
    second.node = 1;
    m.meshes.push_back(second);
    // A third node under the root with a sheared matrix, holding a rigid mesh.
    glm::mat4 shear(1.0f);
    shear[1][0] = 0.3f;
    shear[3] = glm::vec4(0.5f, 0.0f, 0.0f, 1.0f);
    m.skeleton.names.push_back("sheared");
    m.skeleton.parent.push_back(0);
    m.skeleton.bindLocal.push_back(shear);
    rig::Transform t;
    rig::decompose(shear, t);
    m.skeleton.bindLocalSqt.push_back(t);
    m.skeleton.computeBindModel();
    for (rig::Clip& clip : m.clips) clip.trackOfNode.push_back(-1);
    rig::Mesh rigid;
    rigid.name = "box";
    rigid.node = 2;
    rigid.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    rigid.indices = {0, 1, 2};
    m.meshes.push_back(rigid);
    rig::computeSkinBindPose(m);
    return m;
}

TEST(GltfExport, RoundTripEdgeCases) {
    const rig::Model a = edgeCaseRig();
    for (bool binary : {false, true}) {
        const std::string out = tempPath(binary ? "edge.glb" : "edge.gltf");
        std::string error;
        rig::GltfExportOptions options;
        options.binary = binary;
        ASSERT_TRUE(rig::writeGltf(a, a.clips, out, options, error)) << error;
        const rig::Model b = load(out);
        ASSERT_EQ(b.clips.size(), a.clips.size());
        ASSERT_EQ(b.meshes.size(), a.meshes.size());
        EXPECT_EQ(b.clips[0].tracks[b.clips[0].trackOfNode[b.skeleton.find("tip")]].rotation.interpolation,
                  rig::Interpolation::Step);
        EXPECT_EQ(b.meshes[0].morphTargets[1].name, "side");
        EXPECT_EQ(b.clips[0].morphTracks.size(), 1u);
        EXPECT_EQ(b.clips[0].morphTracks[0].interpolation, rig::WeightInterpolation::CubicSpline);
        expectSamePoses(a, rig::kFilePose, b, rig::kFilePose, {0.0f}, 0.0f, 1e-5, out + " file pose");
        for (int32_t c = 0; c < 3; ++c) {
            const float shift = c == 2 ? -0.5f : 0.0f;
            std::vector<float> times;
            for (int k = 0; k <= 40; ++k) times.push_back(shift + 0.025f * static_cast<float>(k));  // on and between keys
            expectSamePoses(a, c, b, c, times, shift, 1e-5, out + " clip " + std::to_string(c));
        }
        EXPECT_EQ(b.clips[2].startTime, 0.0f);
        EXPECT_EQ(b.clips[2].duration, 1.0f);
    }
}

// A clip that animates nothing (no tracks: what compression leaves of a clip at the bind pose)
// keeps its place and name in the file, and poses what the source poses with it.
TEST(GltfExport, AnEmptyClipIsKept) {
    rig::Model a = edgeCaseRig();
    rig::Clip empty;
    empty.name = "still";
    empty.trackOfNode.assign(a.skeleton.size(), -1);
    a.clips.insert(a.clips.begin() + 1, empty);
    const std::string out = tempPath("empty_clip.gltf");
    std::string error;
    ASSERT_TRUE(rig::writeGltf(a, a.clips, out, rig::GltfExportOptions{}, error)) << error;
    const rig::Model b = load(out);
    ASSERT_EQ(b.clips.size(), a.clips.size());
    EXPECT_EQ(b.clips[1].name, "still");
    EXPECT_EQ(b.clips[2].name, a.clips[2].name);
    expectSamePoses(a, 1, b, 1, {0.0f, 0.5f}, 0.0f, 1e-6, out + " still");
}

// Degenerate clips, written valid (the Khronos validator) and posing as rigview poses them:
// every key at 0 s (a zero-length clip: only the last key of each channel is written, the one
// rigview plays), every key at one later time, one key a channel.
TEST(GltfExportValidator, DegenerateClipsAreWrittenValid) {
    rig::Model a = rig::testing::makeTwoBone();
    rig::testing::addMorphs(a, 3);
    const rig::Clip base = a.clips[0];
    a.clips.clear();
    rig::Clip atZero = base;
    atZero.name = "all keys at 0 s";
    for (float& t : atZero.times) t = 0.0f;
    atZero.startTime = atZero.duration = 0.0f;
    rig::Clip atOneTime = base;
    atOneTime.name = "all keys at 1.25 s";
    for (float& t : atOneTime.times) t = 1.25f;
    atOneTime.startTime = atOneTime.duration = 1.25f;
    rig::Clip oneKey = base;
    oneKey.name = "one key";
    for (rig::Track& t : oneKey.tracks) {
        for (rig::Channel* ch : {&t.translation, &t.rotation, &t.scale}) ch->count = std::min<uint32_t>(ch->count, 1);
    }
    for (rig::MorphTrack& t : oneKey.morphTracks) t.count = std::min<uint32_t>(t.count, 1);
    oneKey.duration = 0.0f;
    a.clips = {atZero, atOneTime, oneKey};
    std::vector<std::string> files;
    for (bool binary : {false, true}) {
        const std::string out = tempPath(binary ? "degenerate.glb" : "degenerate.gltf");
        std::string error;
        rig::GltfExportOptions options;
        options.binary = binary;
        ASSERT_TRUE(rig::writeGltf(a, a.clips, out, options, error)) << error;
        files.push_back(out);
        const rig::Model b = load(out);
        ASSERT_EQ(b.clips.size(), 3u);
        for (int32_t c = 0; c < 3; ++c) {
            expectSamePoses(a, c, b, c, {0.0f, 1.25f, 2.0f}, 0.0f, 1e-5, out + " clip " + a.clips[c].name);
        }
    }
    rig::testing::exports::expectValid(files);
}

// Rotations as normalized shorts: within the quantization step (1/32767 per component).
TEST(GltfExport, QuantizedRotationsStayClose) {
    const rig::Model a = load(kModels + "X/BCN_Epileptic.X");
    const std::string out = tempPath("bcn_quantized.glb");
    rig::GltfExportOptions options;
    options.binary = true;
    options.quantizeRotations = true;
    std::string error;
    ASSERT_TRUE(rig::writeGltf(a, a.clips, out, options, error)) << error;
    const json doc = [&] {
        const std::string bytes = slurp(out);
        uint32_t len = 0;
        std::memcpy(&len, bytes.data() + 12, 4);
        return json::parse(bytes.substr(20, len));
    }();
    EXPECT_EQ(doc["extensionsRequired"], json::array({"KHR_mesh_quantization"}));
    const rig::Model b = load(out);
    ASSERT_EQ(b.clips.size(), 1u);
    expectSamePoses(a, 0, b, 0, keyTimes(a.clips[0]), 0.0f, 1e-3, out);
}

// ---- rigview export on the command line ----------------------------------------------------

RunResult exportCmd(const std::vector<std::string>& args) {
    std::vector<std::string> all{"export"};
    all.insert(all.end(), args.begin(), args.end());
    return run(kExe, all);
}

TEST(GltfExportCli, EveryClipByDefaultOneWithClip) {
    const std::string out = tempPath("demo_all.glb"), one = tempPath("demo_walk.gltf");
    RunResult r = exportCmd({kDemo, "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const rig::Model a = load(kDemo), all = load(out);
    ASSERT_EQ(all.clips.size(), a.clips.size());
    r = exportCmd({kDemo, "-o", one, "--clip", "walk"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const rig::Model b = load(one);
    ASSERT_EQ(b.clips.size(), 1u);
    EXPECT_EQ(b.clips[0].name, "walk");
    const int32_t walk = a.findClip("walk");
    expectSamePoses(a, walk, b, 0, keyTimes(a.clips[walk]), 0.0f, 1e-5, one);
}

// --from/--to trim the chosen clip (the result starts at 0); --fps resamples it. The trimmed
// export at u poses as the source at from + u.
TEST(GltfExportCli, TrimAndResample) {
    const std::string bcn = kModels + "X/BCN_Epileptic.X", out = tempPath("bcn_trim.gltf");
    RunResult r = exportCmd({bcn, "-o", out, "--clip", "0", "--from", "0.5", "--to", "2.25"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const rig::Model a = load(bcn), b = load(out);
    ASSERT_EQ(b.clips.size(), 1u);
    EXPECT_NEAR(b.clips[0].duration, 1.75f, 1e-5f);
    EXPECT_EQ(b.clips[0].startTime, 0.0f);
    std::vector<float> times;
    for (float t : keyTimes(a.clips[0])) {
        if (t >= 0.5f && t <= 2.25f) times.push_back(t);
    }
    ASSERT_GT(times.size(), 10u);
    expectSamePoses(a, 0, b, 0, times, 0.5f, 1e-5, out);

    // Resampled at 10 fps: keys on a 0.1 s grid, and the pose at each of them is the source's.
    const std::string fps = tempPath("bcn_fps.glb");
    r = exportCmd({bcn, "-o", fps, "--fps", "10"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const rig::Model c = load(fps);
    ASSERT_EQ(c.clips.size(), 1u);
    const std::vector<float> grid = keyTimes(c.clips[0]);
    EXPECT_EQ(grid.size(), 34u);  // 0, 0.1, ..., 3.3
    EXPECT_NEAR(c.clips[0].sampleRate, 10.0f, 1e-6f);
    expectSamePoses(a, 0, c, 0, grid, 0.0f, 1e-5, fps);
}

// Clips added with --anim (retargeted by joint name) are clips of the model: exported too.
TEST(GltfExportCli, AnimClipsAreExported) {
    const std::string a = kModels + "BVH/01_01.bvh", b = kModels + "BVH/01_03.bvh", out = tempPath("anim.glb");
    RunResult r = run(kExe, {"export", a, "--anim", b, "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const rig::Model exported = load(out);
    ASSERT_EQ(exported.clips.size(), 2u);
    EXPECT_EQ(exported.clips[1].name, "01_03:Motion");
    rig::Result<rig::Model> withAnim = rig::importModelWithAnims(a, {b});
    ASSERT_TRUE(withAnim.ok());
    expectSamePoses(*withAnim, 1, exported, 1, keyTimes(withAnim->clips[1]), 0.0f, 1e-5, out + " clip 1");
}

TEST(GltfExportCli, BadOutputsFailWithOneLine) {
    const std::string bvh = kModels + "BVH/01_01.bvh";
    struct Case {
        std::vector<std::string> args;
        int exitCode;
        std::string says;
    };
    const std::string copy = tempPath("model.gltf");
    std::filesystem::copy_file(kModels + "glTF2/simple_skin/simple_skin.gltf", copy);
    const std::vector<Case> cases = {
        {{bvh, "-o", "/nonexistent-dir/out.glb"}, 4, "/nonexistent-dir/out.glb: cannot write"},
        {{bvh, "-o", tempPath("out.fbx")}, 2, "output must end in .bvh, .gltf or .glb"},
        {{copy, "-o", copy}, 2, copy},
        {{kDemo, "-o", tempPath("x.glb"), "--from", "0.5"}, 2, "choose one with --clip"},
        {{kDemo, "-o", tempPath("x.glb"), "--clip", "nope"}, 2, "no clip 'nope'"},
        {{kDemo, "-o", tempPath("x.glb"), "--clip", "walk", "--from", "1", "--to", "0.5"}, 2, "--to must be after --from"},
        {{kDemo, "-o", tempPath("x.glb"), "--fps", "0"}, 2, "--fps 0"},
        {{kModels + "invalid/empty.obj", "-o", tempPath("x.glb")}, 3, "empty.obj"},
        {{kModels + "glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "-o", tempPath("inf.glb")}, 4,
         "BoxWithInfinites.glb as glTF: mesh 'Mesh' has non-finite vertex positions, which glTF cannot hold"},
    };
    for (const Case& c : cases) {
        RunResult r = exportCmd(c.args);
        EXPECT_FALSE(r.signaled || r.timedOut) << c.args[2];
        EXPECT_FALSE(std::filesystem::exists(c.args[2]) && c.args[2] != copy) << c.args[2] << ": written anyway";
        EXPECT_EQ(r.exitCode, c.exitCode) << c.args[2] << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_EQ(r.err.rfind("rigview: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    }
    // The input is untouched when the output names it.
    EXPECT_EQ(slurp(copy), slurp(kModels + "glTF2/simple_skin/simple_skin.gltf"));
}

// ---- independent readers: the Khronos validator and three.js -------------------------------

using rig::testing::exports::runNode;

// Exports of real files (.gltf and .glb) pass the Khronos validator with no error
// (exports::expectValid: warnings only those about skinned meshes' node transforms).
TEST(GltfExportValidator, NoErrors) {
    const std::vector<std::pair<std::string, std::string>> sources = {
        {kModels + "glTF2/simple_skin/simple_skin.gltf", "simple_skin.gltf"},
        {kModels + "X/BCN_Epileptic.X", "bcn.glb"},
        {kModels + "X/Testwuson.X", "wuson.gltf"},
        {kModels + "FBX/animation_with_skeleton.fbx", "fbx.glb"},
        {kModels + "FBX/huesitos.fbx", "huesitos.gltf"},
        {kModels + "BVH/01_01.bvh", "bvh.gltf"},
        {kDemo, "demo.glb"},
        {kSource + "/tests/data/morph/morph_skin.gltf", "morph_skin.glb"},
        {kModels + "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", "morph_cube.gltf"},
        {kModels + "glTF2/BoxTextured-glTF/BoxTextured.gltf", "box_textured.glb"},
        {kSource + "/tests/data/three/dup_names.gltf", "dup_names.gltf"},
    };
    std::vector<std::string> files;
    for (const auto& [source, name] : sources) {
        const std::string out = tempPath("validate_" + name);
        RunResult r = exportCmd({source, "-o", out});
        ASSERT_EQ(r.exitCode, 0) << source << ": " << r.err;
        files.push_back(out);
    }
    // Rotations as normalized shorts (the compressed form), through the library.
    const rig::Model demo = load(kDemo);
    rig::GltfExportOptions quantized;
    quantized.quantizeRotations = true;
    std::string error;
    ASSERT_TRUE(rig::writeGltf(demo, demo.clips, tempPath("validate_quantized.gltf"), quantized, error)) << error;
    files.push_back(tempPath("validate_quantized.gltf"));
    const rig::Model edge = edgeCaseRig();
    ASSERT_TRUE(rig::writeGltf(edge, edge.clips, tempPath("validate_edge.glb"), rig::GltfExportOptions{true, false}, error)) << error;
    files.push_back(tempPath("validate_edge.glb"));

    rig::testing::exports::expectValid(files);
}

// three.js (GLTFLoader, AnimationMixer, SkinnedMesh) reads the export and poses it as rigview
// poses the source file: every vertex within 1e-5 of the box diagonal at times on and between
// keys. (Files whose skinned-mesh nodes are not animated: three.js binds a skinned mesh to its
// node's transform at load, where glTF says that transform is ignored.)
void compareThree(const std::string& source, const std::string& name, const std::vector<std::pair<std::string, std::string>>& requests) {
    const rig::Model a = load(source);
    const std::string out = tempPath(name);
    RunResult r = exportCmd({source, "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string refPath = tempPath(name + ".three.json");
    std::vector<std::string> args{out, refPath};
    for (const auto& [clip, times] : requests) args.push_back(clip + "=" + times);
    runNode(kSource + "/tools/three_refs/evaluate.mjs", "three", args);
    const json ref = json::parse(slurp(refPath), nullptr, false);
    ASSERT_TRUE(ref.is_object() && ref.contains("samples")) << refPath;
    ASSERT_EQ(ref["samples"].size() > 0, true);
    rig::Animator anim(a);
    for (const json& s : ref["samples"]) {
        const int32_t clip = a.findClip(s["clip"].get<std::string>());
        ASSERT_GE(clip, 0) << s["clip"];
        const float t = s["time"].get<float>();
        const Posed p = pose(a, anim, clip, t);
        const double diag = diagonal(p);
        ASSERT_EQ(s["meshes"].size(), a.meshes.size());
        for (const json& m : s["meshes"]) {
            const std::vector<double> pos = m["positions"].get<std::vector<double>>();
            // three.js orders meshes by the scene walk: match them by vertex count (distinct here).
            size_t match = a.meshes.size();
            for (size_t k = 0; k < a.meshes.size(); ++k) {
                if (a.meshes[k].vertexCount() * 3 == pos.size()) match = k;
            }
            ASSERT_LT(match, a.meshes.size()) << m["name"];
            double worst = 0.0;
            for (size_t v = 0; v < a.meshes[match].vertexCount(); ++v) {
                const glm::dvec3 q(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
                worst = std::max(worst, glm::length(q - glm::dvec3(p.meshes[match][v])) / diag);
            }
            EXPECT_LE(worst, 1e-5) << name << " clip " << s["clip"] << " t=" << t << " mesh " << m["name"];
        }
    }
}

TEST(GltfExportThree, DemoPosesAsRigviewPosesTheSource) {
    compareThree(kDemo, "demo_three.gltf", {{"idle", "0,0.5,1.25,2.9"}, {"walk", "0.1,0.55,1.0"}, {"wave", "0.7,1.9"}});
}

TEST(GltfExportThree, FbxPosesAsRigviewPosesTheSource) {
    compareThree(kModels + "FBX/animation_with_skeleton.fbx", "fbx_three.gltf", {{"Armature|ArmatureAction", "0,0.25,0.41,0.8"}});
}

// Blender 3.4's glTF importer (tools/blender/gltf_export_reference.py, run by hand; its JSON is
// committed) posed an export of the demo at key times of every clip: every sampled vertex is
// where rigview puts it in the source file, within 1e-5 of the box diagonal.
TEST(GltfExportBlender, DemoPosesAsRigviewPosesTheSource) {
    const json ref = json::parse(slurp(kSource + "/tests/data/export/demo_blender.json"), nullptr, false);
    ASSERT_TRUE(ref.is_object() && ref.contains("samples"));
    ASSERT_EQ(ref["samples"].size(), 9u);
    const rig::Model a = load(kDemo);
    rig::Animator anim(a);
    size_t compared = 0;
    for (const json& s : ref["samples"]) {
        const int32_t clip = a.findClip(s["clip"].get<std::string>());
        ASSERT_GE(clip, 0) << s["clip"];
        const float t = s["time"].get<float>();
        const Posed p = pose(a, anim, clip, t);
        const double diag = diagonal(p);
        ASSERT_EQ(s["meshes"].size(), a.meshes.size());
        for (const json& m : s["meshes"]) {
            size_t match = a.meshes.size();
            for (size_t k = 0; k < a.meshes.size(); ++k) {
                if (a.meshes[k].vertexCount() == m["vertices"].get<size_t>()) match = k;
            }
            ASSERT_LT(match, a.meshes.size()) << m["name"];
            const std::vector<double> pts = m["points"].get<std::vector<double>>();
            double worst = 0.0;
            for (size_t k = 0; k + 3 < pts.size(); k += 4) {
                const size_t v = static_cast<size_t>(pts[k]);
                ASSERT_LT(v, p.meshes[match].size());
                worst = std::max(worst, glm::length(glm::dvec3(pts[k + 1], pts[k + 2], pts[k + 3]) - glm::dvec3(p.meshes[match][v])) / diag);
                ++compared;
            }
            EXPECT_LE(worst, 1e-5) << "clip " << s["clip"] << " t=" << t << " mesh " << m["name"];
        }
    }
    EXPECT_GT(compared, 2000u);
}

}  // namespace

// `export --ik-*` bakes the solved chain into the clips: the export, posed with no IK at
// all, stands where `pose --ik-*` puts the source at every frame (the foot on the target),
// and the joints the IK leaves alone are where the source puts them.
TEST(GltfExportCli, IkIsBakedIntoTheClips) {
    const std::vector<std::string> ik{"--ik-two-bone", "thigh.L,shin.L,foot.L", "--ik-target", "0.2,0.4,0.3",
                                      "--ik-pole", "0,0,1"};
    const std::string out = tempPath("ik_baked.glb");
    std::vector<std::string> args{kDemo, "-o", out, "--clip", "walk", "--fps", "30"};
    args.insert(args.end(), ik.begin(), ik.end());
    RunResult r = exportCmd(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto joints = [&](const std::vector<std::string>& a) {
        const std::string json_out = tempPath("ik_pose.json");
        std::vector<std::string> full{"pose"};
        full.insert(full.end(), a.begin(), a.end());
        full.insert(full.end(), {"-o", json_out});
        const RunResult pr = run(kExe, full);
        EXPECT_EQ(pr.exitCode, 0) << pr.err;
        std::map<std::string, glm::vec3> m;
        const json doc = json::parse(slurp(json_out));
        for (const json& jt : doc["joints"]) {
            const auto& w = jt["world"];
            m[jt["name"].get<std::string>()] = glm::vec3(w[12].get<float>(), w[13].get<float>(), w[14].get<float>());
        }
        return m;
    };
    for (const char* t : {"0", "0.2", "0.5", "0.8"}) {
        std::vector<std::string> solvedArgs{kDemo, "--clip", "walk", "--time", t};
        solvedArgs.insert(solvedArgs.end(), ik.begin(), ik.end());
        const auto solved = joints(solvedArgs);
        const auto plain = joints({kDemo, "--clip", "walk", "--time", t});
        const auto baked = joints({out, "--clip", "walk", "--time", t});
        ASSERT_FALSE(baked.empty());
        EXPECT_LT(glm::length(baked.at("foot.L") - glm::vec3(0.2f, 0.4f, 0.3f)), 1e-4f) << "t=" << t;
        for (const auto& [name, p] : solved) {
            ASSERT_TRUE(baked.count(name)) << name;
            EXPECT_LT(glm::length(baked.at(name) - p), 2e-5f) << name << " at t=" << t;
        }
        EXPECT_LT(glm::length(baked.at("foot.R") - plain.at("foot.R")), 2e-5f) << "t=" << t;
        EXPECT_GT(glm::length(plain.at("foot.L") - baked.at("foot.L")), 1e-3f) << "the IK moved the foot at t=" << t;
    }
    // A chain that does not exist is a usage error naming the option.
    r = exportCmd({kDemo, "-o", tempPath("ik_bad.glb"), "--ik-two-bone", "thigh.L,nope,foot.L", "--ik-target", "0,0,0"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--ik-"), std::string::npos) << r.err;
}

// Clip markers (the clip's events) go in each animation's extras.markers and come back on
// import, shifted with the keys of a clip that starts before 0.
TEST(GltfExport, MarkersRoundTripThroughAnimationExtras) {
    rig::Model a = edgeCaseRig();
    ASSERT_EQ(a.clips.size(), 3u);
    a.clips[0].markers = {{"step", 0.25f}, {"land", 0.5f}};
    a.clips[2].markers = {{"only", 0.0f}};  // "early": keys from -0.5 s
    for (bool binary : {false, true}) {
        const std::string out = tempPath(binary ? "markers.glb" : "markers.gltf");
        std::string error;
        ASSERT_TRUE(rig::writeGltf(a, a.clips, out, rig::GltfExportOptions{binary}, error)) << error;
        const rig::Model b = load(out);
        ASSERT_EQ(b.clips.size(), a.clips.size()) << out;
        for (size_t c = 0; c < a.clips.size(); ++c) {
            float first = 0.0f;
            for (float t : a.clips[c].times) first = std::min(first, t);
            ASSERT_EQ(b.clips[c].markers.size(), a.clips[c].markers.size()) << out << " clip " << c;
            for (size_t i = 0; i < a.clips[c].markers.size(); ++i) {
                EXPECT_EQ(b.clips[c].markers[i].name, a.clips[c].markers[i].name);
                EXPECT_NEAR(b.clips[c].markers[i].time, a.clips[c].markers[i].time - first, 1e-6f);
            }
        }
        if (!binary) {
            const json doc = json::parse(slurp(out));
            EXPECT_EQ(doc["animations"][0]["extras"]["markers"][1]["name"], "land");
            EXPECT_FALSE(doc["animations"][1].contains("extras"));
        }
    }
}

// The viewer saves edited markers beside the model ("<model>.markers.json"): import reads
// them (for any format), so `export` writes them into the glTF; a broken file is an error
// that names it.
TEST(GltfExportCli, TheModelsMarkersFileIsReadAndExported) {
    const std::string dir = tempPath("markers_file");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const char* f : {"rigview_demo.gltf", "rigview_demo.bin", "rigview_demo_albedo.png"}) {
        std::filesystem::copy_file(kSource + "/assets/demo/" + f, dir + "/" + f);
    }
    const std::string model = dir + "/rigview_demo.gltf";
    const rig::Model plain = load(model);
    const int walk = plain.findClip("walk");
    ASSERT_GE(walk, 0);
    EXPECT_TRUE(plain.clips[walk].markers.empty());
    std::vector<std::string> names;
    for (const rig::Clip& c : plain.clips) names.push_back(c.name);
    std::vector<std::vector<rig::Marker>> markers(names.size());
    markers[walk] = {{"contact L", 0.2f}, {"contact R", 0.6f}};
    std::string error;
    ASSERT_TRUE(rig::writeMarkersFile(model, names, markers, error)) << error;
    EXPECT_EQ(rig::markersFilePath(model), model + ".markers.json");
    const rig::Model marked = load(model);
    ASSERT_EQ(marked.clips[walk].markers.size(), 2u);
    EXPECT_EQ(marked.clips[walk].markers[1].name, "contact R");

    const std::string out = dir + "/out.glb";
    RunResult r = exportCmd({model, "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const rig::Model back = load(out);
    const int w = back.findClip("walk");
    ASSERT_GE(w, 0);
    ASSERT_EQ(back.clips[w].markers.size(), 2u);
    EXPECT_EQ(back.clips[w].markers[0].name, "contact L");
    EXPECT_NEAR(back.clips[w].markers[0].time, 0.2f - std::min(0.0f, plain.clips[walk].startTime), 1e-6f);
    EXPECT_EQ(back.clips[w].markers[1].name, "contact R");

    std::ofstream(rig::markersFilePath(model)) << "[1, 2";
    rig::Result<rig::Model> bad = rig::importModel(model);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(rig::markersFilePath(model)), std::string::npos) << bad.error().message;

    // A named pipe by that name is refused at once, never waited on.
    std::filesystem::remove(rig::markersFilePath(model));
    ASSERT_EQ(::mkfifo(rig::markersFilePath(model).c_str(), 0600), 0);
    rig::Result<rig::Model> pipe = rig::importModel(model);
    ASSERT_FALSE(pipe.ok());
    EXPECT_NE(pipe.error().message.find("named pipe"), std::string::npos) << pipe.error().message;
    std::filesystem::remove(rig::markersFilePath(model));
}
