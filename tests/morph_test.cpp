// Morph targets end to end on the CPU: import (glTF names, weight channels with LINEAR, STEP
// and CUBICSPLINE keys, default weights), per-tick sampling, morph-then-skin. References:
// numbers read by hand from the Khronos AnimatedMorphCube's buffers, and three.js's
// evaluation of the same files (tools/three_refs, JSON committed under tests/data/morph).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/import.h"
#include "support/gltf_writer.h"
#include "support/morph_rig.h"

namespace {

using nlohmann::json;

const std::string kData = std::string(RIGVIEW_SOURCE_DIR) + "/tests/data/morph/";
const std::string kMorphCube =
    "/usr/share/assimp/models/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf";

json readJson(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    return json::parse(in, nullptr, false);
}

// World-space positions of every mesh, as `rigview pose` writes them.
std::vector<std::vector<glm::vec3>> posed(const rig::Model& model, const rig::Animator& anim) {
    std::vector<std::vector<glm::vec3>> out;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const rig::Mesh& mesh = model.meshes[m];
        std::vector<glm::vec3> p(mesh.vertexCount());
        rig::skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), p.data(), nullptr);
        for (glm::vec3& v : p) v = glm::vec3(anim.skinToModel(m) * glm::vec4(v, 1.0f));
        out.push_back(std::move(p));
    }
    return out;
}

// Compare every sample of a three.js reference: weights within 1e-6, positions within
// `tolerance` of the reference's bounding-box diagonal.
void compareWithThree(const rig::Model& model, const json& ref, double tolerance) {
    ASSERT_TRUE(ref.is_object() && ref.contains("samples"));
    ASSERT_FALSE(ref["samples"].empty());
    rig::Animator anim(model);
    for (const json& s : ref["samples"]) {
        // No clip: three.js shows the nodes' default transforms, rigview's file pose (its bind
        // pose is the one the inverse bind matrices say, which this file's nodes are not in).
        const int32_t clip = s["clip"].is_null() ? rig::kFilePose : model.findClip(s["clip"].get<std::string>());
        if (!s["clip"].is_null()) ASSERT_GE(clip, 0) << s["clip"];
        const float t = s["time"].get<float>();
        anim.evaluate(clip, t);
        const auto mine = posed(model, anim);
        ASSERT_EQ(mine.size(), s["meshes"].size());
        glm::dvec3 lo(1e30), hi(-1e30);
        for (const json& m : s["meshes"]) {
            const auto& p = m["positions"];
            for (size_t i = 0; i + 2 < p.size(); i += 3) {
                const glm::dvec3 v(p[i].get<double>(), p[i + 1].get<double>(), p[i + 2].get<double>());
                lo = glm::min(lo, v);
                hi = glm::max(hi, v);
            }
        }
        const double diag = glm::length(hi - lo);
        for (size_t m = 0; m < mine.size(); ++m) {
            const json& r = s["meshes"][m];
            const std::string where = (clip < 0 ? std::string("bind") : model.clips[clip].name) + " t=" + std::to_string(t) +
                                      " mesh " + std::to_string(m);
            const auto& w = r["weights"];
            ASSERT_EQ(w.size(), model.meshes[m].morphTargets.size()) << where;
            for (size_t k = 0; k < w.size(); ++k) {
                EXPECT_NEAR(anim.meshMorphWeights(m)[k], w[k].get<double>(), 1e-6) << where << " target " << k;
            }
            const auto& p = r["positions"];
            ASSERT_EQ(p.size(), 3 * mine[m].size()) << where;
            double worst = 0.0;
            for (size_t v = 0; v < mine[m].size(); ++v) {
                const glm::dvec3 ref3(p[3 * v].get<double>(), p[3 * v + 1].get<double>(), p[3 * v + 2].get<double>());
                worst = std::max(worst, glm::length(glm::dvec3(mine[m][v]) - ref3));
            }
            EXPECT_LE(worst, tolerance * diag) << where << ": worst " << worst << " of diagonal " << diag;
        }
    }
}

TEST(MorphCube, ImportsTargetsNamesAndTheWeightClip) {
    auto model = rig::importModel(kMorphCube);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->meshes.size(), 1u);
    const rig::Mesh& mesh = model->meshes[0];
    ASSERT_EQ(mesh.morphTargets.size(), 2u);
    // No extras.targetNames: the target POSITION accessors' names.
    EXPECT_EQ(mesh.morphTargets[0].name, "thin");
    EXPECT_EQ(mesh.morphTargets[1].name, "angle");
    EXPECT_EQ(mesh.morphDefaultWeights, (std::vector<float>{0.0f, 0.0f}));
    EXPECT_FALSE(mesh.morphTargets[0].normalDeltas.empty());
    // Deltas, not absolute positions: the file's "thin" POSITION accessor spans y 0..0.01893253.
    float maxY = 0.0f;
    for (const glm::vec3& d : mesh.morphTargets[0].positionDeltas) maxY = std::max(maxY, d.y);
    EXPECT_NEAR(maxY, 0.01893253f, 1e-7f);
    ASSERT_EQ(model->clips.size(), 1u);
    const rig::Clip& clip = model->clips[0];
    EXPECT_EQ(clip.name, "Square");
    EXPECT_NEAR(clip.duration, 4.19999743f, 1e-6f);  // the input accessor's max
    ASSERT_EQ(clip.morphTracks.size(), 1u);
    EXPECT_EQ(clip.morphTracks[0].count, 127u);
    EXPECT_EQ(clip.morphTracks[0].interpolation, rig::WeightInterpolation::Linear);
}

TEST(MorphCube, WeightsAtKeyTimesAreTheFilesKeys) {
    auto model = rig::importModel(kMorphCube);
    ASSERT_TRUE(model);
    rig::Animator anim(*model);
    // (time, weight thin, weight angle): keys 3, 30, 63, 75, 100 and 126 of accessors 10/11,
    // read from AnimatedMorphCube.bin (offsets 2760 and 3268).
    struct Key { float t, a, b; };
    const Key keys[] = {{0.10000000894069672f, 0.011230469681322575f, 0.0f},
                        {1.0000003576278687f, 0.6835939884185791f, 0.0f},
                        {2.09999942779541f, 0.7233077883720398f, 0.2766921818256378f},
                        {2.4999990463256836f, 0.44100067019462585f, 0.5589993000030518f},
                        {3.33333158493042f, 0.004066085908561945f, 0.9959338903427124f},
                        {4.199997425079346f, 0.0f, -1.5258788721439487e-07f}};  // negative: kept
    for (const Key& k : keys) {
        anim.evaluate(0, k.t);
        EXPECT_NEAR(anim.meshMorphWeights(0)[0], k.a, 1e-7f) << k.t;
        EXPECT_NEAR(anim.meshMorphWeights(0)[1], k.b, 1e-7f) << k.t;
    }
    // Halfway between keys 46 (1.5333332 s: 0.99493629) and 47 (1.5666665 s: 0.99871588).
    anim.evaluate(0, (1.5333331823349f + 1.5666664838790894f) / 2.0f);
    EXPECT_NEAR(anim.meshMorphWeights(0)[0], (0.9949362874031067f + 0.998715877532959f) / 2.0f, 1e-6f);
    // Before the first key and after the last: held.
    anim.evaluate(0, 10.0f);
    EXPECT_NEAR(anim.meshMorphWeights(0)[1], -1.5258788721439487e-07f, 1e-9f);
}

TEST(MorphCube, PosesLikeThreeJs) {
    auto model = rig::importModel(kMorphCube);
    ASSERT_TRUE(model);
    compareWithThree(*model, readJson(kData + "AnimatedMorphCube.three.json"), 1e-6);
}

TEST(MorphSkin, CommittedFileIsTheGeneratorsOutput) {
    const std::string path = kData + "morph_skin.gltf";
    const std::string text = rig::testing::gltf::toJson(rig::testing::morphSkinCharacter());
    if (std::getenv("RIGVIEW_WRITE_TEST_DATA")) ASSERT_TRUE(rig::testing::gltf::write(rig::testing::morphSkinCharacter(), path));
    std::ifstream in(path, std::ios::binary);
    const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(committed, text) << "regenerate: RIGVIEW_WRITE_TEST_DATA=1 morph_tests, then tools/three_refs (docs/testing.md)";
}

TEST(MorphSkin, ImportsCubicSplineStepAndNegativeWeights) {
    auto model = rig::importModel(kData + "morph_skin.gltf");
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->meshes.size(), 1u);
    const rig::Mesh& mesh = model->meshes[0];
    EXPECT_TRUE(mesh.skinned);
    ASSERT_EQ(mesh.morphTargets.size(), 2u);
    EXPECT_EQ(mesh.morphTargets[0].name, "bulge");  // extras.targetNames
    EXPECT_EQ(mesh.morphTargets[1].name, "lean");
    EXPECT_EQ(mesh.morphDefaultWeights, (std::vector<float>{0.25f, 0.0f}));
    const int32_t bend = model->findClip("bend"), blink = model->findClip("blink");
    ASSERT_GE(bend, 0);
    ASSERT_GE(blink, 0);
    ASSERT_EQ(model->clips[bend].morphTracks.size(), 1u);
    EXPECT_EQ(model->clips[bend].morphTracks[0].interpolation, rig::WeightInterpolation::CubicSpline);
    EXPECT_EQ(model->clips[blink].morphTracks[0].interpolation, rig::WeightInterpolation::Step);
    rig::Animator anim(*model);
    anim.evaluate(bend, 0.0f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[1], -0.3f);  // Assimp alone would clamp it to 0
    // Hermite by hand, bend at t = 0.5 (segment 0..1, length 1): h00 = h01 = 0.5,
    // h10 = 0.125, h11 = -0.125; value 0 -> 1 (bulge), out-tangent 1.5, in-tangent -0.5.
    anim.evaluate(bend, 0.5f);
    EXPECT_NEAR(anim.meshMorphWeights(0)[0], 0.5f * 0.0f + 0.125f * 1.5f + 0.5f * 1.0f - 0.125f * -0.5f, 1e-6f);
    anim.evaluate(blink, 0.49f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[0], 1.0f);
    anim.evaluate(blink, 0.5f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[1], 1.0f);
    anim.evaluate(-1, 0.0f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[0], 0.25f);
    // An override holds a weight whatever the clip says, until released.
    anim.setMorphOverride(0, 1, 0.75f);
    anim.evaluate(blink, 0.1f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[0], 1.0f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[1], 0.75f);
    anim.setMorphOverride(0, 1, std::nanf(""));
    anim.evaluate(blink, 0.1f);
    EXPECT_FLOAT_EQ(anim.meshMorphWeights(0)[1], 0.0f);
}

// JSON of a type the specification does not allow where nothing depends on it (a numeric accessor
// name): the file still opens, the name read as absent (the target keeps its default name) and
// the weights channel read, instead of an uncaught exception.
TEST(MorphSkin, OddJsonTypesReadAsAbsent) {
    json doc = readJson(kData + "morph_skin.gltf");
    doc["meshes"][0].erase("extras");
    doc["accessors"][doc["meshes"][0]["primitives"][0]["targets"][0]["POSITION"].get<size_t>()]["name"] = 5;
    const std::string path = ::testing::TempDir() + "/odd_types.gltf";
    std::ofstream(path) << doc.dump();
    auto model = rig::importModel(path);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->meshes[0].morphTargets.size(), 2u);
    EXPECT_EQ(model->meshes[0].morphTargets[0].name, "target0");
    EXPECT_EQ(model->clips[0].morphTracks.size(), 1u);
}

// The same character as a binary .glb (its buffer moved into the BIN chunk): rigview reads
// the weights from that chunk and poses it exactly as the .gltf.
TEST(MorphSkin, GlbReadsWeightsFromItsBinChunk) {
    json doc = readJson(kData + "morph_skin.gltf");
    const std::string uri = doc["buffers"][0]["uri"].get<std::string>();
    const std::string b64 = uri.substr(uri.find(',') + 1);
    std::string bin;
    uint32_t acc = 0;
    int bits = 0;
    for (char c : b64) {
        const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char* at = std::strchr(table, c);
        if (c == '=' || !at) break;
        acc = (acc << 6) | static_cast<uint32_t>(at - table);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bin.push_back(static_cast<char>((acc >> bits) & 0xff));
        }
    }
    doc["buffers"][0].erase("uri");
    std::string text = doc.dump();
    while (text.size() % 4) text.push_back(' ');
    while (bin.size() % 4) bin.push_back('\0');
    auto u32 = [](std::string& out, uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
    std::string glb = "glTF";
    u32(glb, 2);
    u32(glb, static_cast<uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
    u32(glb, static_cast<uint32_t>(text.size()));
    glb += "JSON" + text;
    u32(glb, static_cast<uint32_t>(bin.size()));
    glb += std::string("BIN\0", 4) + bin;
    const std::string path = ::testing::TempDir() + "/morph_skin.glb";
    std::ofstream(path, std::ios::binary) << glb;

    auto fromGlb = rig::importModel(path);
    ASSERT_TRUE(fromGlb) << fromGlb.error().message;
    auto fromGltf = rig::importModel(kData + "morph_skin.gltf");
    ASSERT_TRUE(fromGltf);
    const int32_t bend = fromGlb->findClip("bend");
    ASSERT_GE(bend, 0);
    ASSERT_EQ(fromGlb->clips[bend].morphTracks.size(), 1u);
    EXPECT_EQ(fromGlb->clips[bend].morphTracks[0].interpolation, rig::WeightInterpolation::CubicSpline);
    EXPECT_EQ(fromGlb->meshes[0].morphTargets[1].name, "lean");
    rig::Animator a(*fromGlb), b(*fromGltf);
    for (float t : {0.0f, 0.37f, 1.5f}) {
        a.evaluate(bend, t);
        b.evaluate(bend, t);
        EXPECT_EQ(a.morphWeights(), b.morphWeights()) << t;
    }
}

TEST(MorphSkin, PosesLikeThreeJs) {
    auto model = rig::importModel(kData + "morph_skin.gltf");
    ASSERT_TRUE(model) << model.error().message;
    compareWithThree(*model, readJson(kData + "morph_skin.three.json"), 1e-5);
}

// Two vertices alike in position, normal, UV and weights but moved apart by the morph targets
// (the two lips of a closed mouth) stay two vertices: a glTF mesh is kept vertex for vertex as
// the file indexes it (Assimp's aiProcess_JoinIdenticalVertices compared no targets and joined
// them). How other formats' corners are joined: VertexJoin.* in import_test.cpp.
TEST(MorphJoin, CoincidentVerticesWithDifferentTargetsStayApart) {
    namespace gltf = rig::testing::gltf;
    gltf::Document doc;
    doc.nodes.resize(2);
    doc.nodes[0].name = "root";
    doc.nodes[0].children = {1};
    doc.nodes[1].name = "lips";
    doc.nodes[1].mesh = 0;
    doc.nodes[1].skin = 0;
    gltf::Mesh mesh;
    mesh.name = "lips";
    // Triangles (0 1 2), (3 5 4), (6 1 7): 3 sits on 1 and 4 on 2 with other targets;
    // 6 is 0 again in everything.
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}, {0, -1, 0}};
    mesh.indices = {0, 1, 2, 3, 5, 4, 6, 1, 7};
    for (const glm::vec3& p : mesh.positions) {
        mesh.normals.emplace_back(0.0f, 0.0f, 1.0f);
        mesh.uvs.emplace_back(p.x, p.y);
        mesh.influences.push_back({{uint16_t{0}, 1.0f}});
    }
    gltf::MorphTarget lift{"lift", std::vector<glm::vec3>(8, glm::vec3(0.0f)), {}};
    for (int v : {3, 4, 5}) lift.positions[v] = {0.0f, 0.0f, 1.0f};
    gltf::MorphTarget push{"push", std::vector<glm::vec3>(8, glm::vec3(0.0f)), {}};
    push.positions[1] = {0.5f, 0.0f, 0.0f};
    push.positions[3] = {0.0f, 0.25f, 0.0f};
    mesh.targets = {lift, push};
    mesh.weights = {1.0f, 1.0f};
    doc.meshes.push_back(mesh);
    doc.skins.push_back({{0}, {glm::mat4(1.0f)}});
    const std::string path = ::testing::TempDir() + "/morph_lips.gltf";
    ASSERT_TRUE(gltf::write(doc, path));

    auto model = rig::importModel(path);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->meshes.size(), 1u);
    const rig::Mesh& m = model->meshes[0];
    EXPECT_EQ(m.vertexCount(), 8u);  // as the file has them: 3 and 4 apart from 1 and 2, 6 beside 0
    ASSERT_EQ(m.indices.size(), mesh.indices.size());
    rig::Animator anim(*model);
    anim.evaluate(rig::kFilePose, 0.0f);
    ASSERT_EQ(anim.meshMorphWeights(0)[0], 1.0f);
    const std::vector<glm::vec3> mine = posed(*model, anim)[0];
    for (size_t i = 0; i < mesh.indices.size(); ++i) {
        const uint32_t v = mesh.indices[i];
        const glm::vec3 want = mesh.positions[v] + lift.positions[v] + push.positions[v];
        EXPECT_LT(glm::length(mine[m.indices[i]] - want), 1e-6f) << "corner " << i << " (file vertex " << v << ")";
    }
}

// A skinned character with two shape keys made by Blender 3.4
// (tools/blender/make_morph_seam_gltf.py): a plate with a slit whose lips are doubled
// vertices alike in all but their shape-key offsets. Posed like three.js's evaluation
// (tools/three_refs/evaluate.mjs) at six times of its clip and at rest, vertex for vertex:
// three.js keeps every vertex of the file, and so must rigview.
TEST(MorphSeam, PosesLikeThreeJs) {
    auto model = rig::importModel(kData + "morph_seam.gltf");
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->meshes.size(), 1u);
    EXPECT_EQ(model->meshes[0].vertexCount(), 226u);  // the file's accessor count
    compareWithThree(*model, readJson(kData + "morph_seam.three.json"), 1e-5);
}

// An FBX with shape keys written by Blender 3.4 (tools/blender/make_morph_fbx.py, default
// export settings) against Blender's own import of the same file
// (tools/blender/morph_fbx_reference.py): shape key values and evaluated world-space vertices
// at six frames. Assimp splits vertices per face corner, so each rigview vertex is matched
// to the Blender vertex at its rest position. rigview reads the file in metres, as Blender
// does (FBX UnitScaleFactor, issue 8's units part): the rest pose must be as large.
TEST(MorphFbx, ShapeKeysPlayLikeBlender) {
    auto model = rig::importModel(kData + "blender_shape_keys.fbx");
    ASSERT_TRUE(model) << model.error().message;
    const json ref = readJson(kData + "blender_shape_keys.blender.json");
    ASSERT_EQ(model->meshes.size(), 1u);
    const rig::Mesh& mesh = model->meshes[0];
    ASSERT_TRUE(mesh.skinned);
    ASSERT_EQ(mesh.morphTargets.size(), 2u);
    EXPECT_EQ(mesh.morphTargets[0].name, "Smile");
    EXPECT_EQ(mesh.morphTargets[1].name, "Lean");
    EXPECT_EQ(mesh.morphDefaultWeights, (std::vector<float>{0.0f, 0.0f}));
    ASSERT_EQ(model->clips.size(), 1u);
    ASSERT_EQ(model->clips[0].morphTracks.size(), 1u);

    std::vector<glm::dvec3> rest;
    const auto& r = ref["rest"];
    for (size_t i = 0; i + 2 < r.size(); i += 3) rest.emplace_back(r[i].get<double>(), r[i + 1].get<double>(), r[i + 2].get<double>());
    auto diagonal = [](const auto& points) {
        glm::dvec3 lo(1e30), hi(-1e30);
        for (const auto& p : points) {
            lo = glm::min(lo, glm::dvec3(p));
            hi = glm::max(hi, glm::dvec3(p));
        }
        return glm::length(hi - lo);
    };
    rig::Animator anim(*model);
    anim.evaluate(-1, 0.0f);
    const std::vector<glm::vec3> bind = posed(*model, anim)[0];
    const double restDiag = diagonal(rest);
    const double ratio = diagonal(bind) / restDiag;
    const double scale = 1.0;
    ASSERT_NEAR(ratio, scale, 1e-4) << "not Blender's size";
    std::vector<size_t> match(bind.size());
    for (size_t v = 0; v < bind.size(); ++v) {
        double best = 1e30;
        for (size_t j = 0; j < rest.size(); ++j) {
            const double d = glm::length(glm::dvec3(bind[v]) / scale - rest[j]);
            if (d < best) {
                best = d;
                match[v] = j;
            }
        }
        ASSERT_LE(best, 1e-5 * restDiag) << "vertex " << v << " has no Blender vertex at its rest position";
    }

    const double fps = ref["fps"].get<double>();
    const double start = ref["frame_start"].get<double>();
    ASSERT_EQ(ref["samples"].size(), 6u);
    for (const json& sample : ref["samples"]) {
        const int frame = sample["frame"].get<int>();
        const float t = static_cast<float>((frame - start) / fps);  // Assimp's keys start at 0
        anim.evaluate(0, t);
        EXPECT_NEAR(anim.meshMorphWeights(0)[0], sample["weights"]["Smile"].get<double>(), 1e-5) << "frame " << frame;
        EXPECT_NEAR(anim.meshMorphWeights(0)[1], sample["weights"]["Lean"].get<double>(), 1e-5) << "frame " << frame;
        const std::vector<glm::vec3> mine = posed(*model, anim)[0];
        const auto& p = sample["positions"];
        std::vector<glm::dvec3> theirs;
        for (size_t i = 0; i + 2 < p.size(); i += 3) theirs.emplace_back(p[i].get<double>(), p[i + 1].get<double>(), p[i + 2].get<double>());
        ASSERT_EQ(theirs.size(), rest.size());
        const double diag = diagonal(theirs);
        double worst = 0.0;
        for (size_t v = 0; v < mine.size(); ++v) worst = std::max(worst, glm::length(glm::dvec3(mine[v]) / scale - theirs[match[v]]));
        EXPECT_LE(worst, 1e-5 * diag) << "frame " << frame << ": worst " << worst << " of diagonal " << diag;
    }
}

}  // namespace
