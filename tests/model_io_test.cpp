// Model serialization (platform/model_io): real files and a model with every field filled come
// back identical field by field (bit for bit for numbers, NaN included); truncated, damaged,
// forged and bit-flipped buffers are rejected with an error, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "import/import.h"
#include "platform/model_io.h"
#include "import/texture_limits.h"
#include "support/material_compare.h"

namespace rig {
namespace {

const std::string kModels = "/usr/share/assimp/models/";

// Bitwise equality of plain arrays (so NaN == NaN and -0 != +0: the copy must be exact).
template <typename T>
void expectSameBytes(const std::vector<T>& a, const std::vector<T>& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    if (!a.empty()) EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)), 0) << what;
}
template <typename T>
void expectSameValue(const T& a, const T& b, const std::string& what) {
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(T)), 0) << what;
}

void expectSameChannel(const Channel& a, const Channel& b, const std::string& what) {
    EXPECT_EQ(a.times, b.times) << what;
    EXPECT_EQ(a.values, b.values) << what;
    EXPECT_EQ(a.count, b.count) << what;
    EXPECT_EQ(a.interpolation, b.interpolation) << what;
}

// Every field of every struct in anim/runtime/model.h, written out by hand (independent of the
// serializer's own field list, so a field it forgets fails here).
void expectSameModel(const Model& a, const Model& b) {
    EXPECT_EQ(a.path, b.path);
    const Skeleton &sa = a.skeleton, &sb = b.skeleton;
    EXPECT_EQ(sa.names, sb.names);
    EXPECT_EQ(sa.parent, sb.parent);
    expectSameBytes(sa.bindLocal, sb.bindLocal, "bindLocal");
    expectSameBytes(sa.bindLocalSqt, sb.bindLocalSqt, "bindLocalSqt");
    expectSameBytes(sa.bindModel, sb.bindModel, "bindModel");
    expectSameBytes(sa.restLocal, sb.restLocal, "restLocal");
    expectSameBytes(sa.restLocalSqt, sb.restLocalSqt, "restLocalSqt");
    expectSameBytes(sa.restModel, sb.restModel, "restModel");
    EXPECT_EQ(a.units.file, b.units.file);
    EXPECT_EQ(a.units.metresPerUnit, b.units.metresPerUnit);
    EXPECT_EQ(a.units.scaleApplied, b.units.scaleApplied);
    EXPECT_EQ(a.units.appliedAtRoot, b.units.appliedAtRoot);
    EXPECT_EQ(a.units.source, b.units.source);
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    for (size_t k = 0; k < a.meshes.size(); ++k) {
        const Mesh &ma = a.meshes[k], &mb = b.meshes[k];
        const std::string at = "mesh " + std::to_string(k) + " ";
        EXPECT_EQ(ma.name, mb.name) << at;
        EXPECT_EQ(ma.node, mb.node) << at;
        EXPECT_EQ(ma.material, mb.material) << at;
        expectSameBytes(ma.positions, mb.positions, at + "positions");
        expectSameBytes(ma.normals, mb.normals, at + "normals");
        expectSameBytes(ma.uvs, mb.uvs, at + "uvs");
        expectSameBytes(ma.uvs1, mb.uvs1, at + "uvs1");
        expectSameBytes(ma.tangents, mb.tangents, at + "tangents");
        expectSameBytes(ma.colors, mb.colors, at + "colors");
        EXPECT_EQ(ma.indices, mb.indices) << at;
        EXPECT_EQ(ma.skinned, mb.skinned) << at;
        EXPECT_EQ(ma.skin.joints, mb.skin.joints) << at;
        expectSameBytes(ma.skin.inverseBind, mb.skin.inverseBind, at + "inverseBind");
        EXPECT_EQ(ma.skin.offsetComputed, mb.skin.offsetComputed) << at;
        EXPECT_EQ(ma.joints, mb.joints) << at;
        expectSameBytes(ma.weights, mb.weights, at + "weights");
        EXPECT_EQ(ma.joints2, mb.joints2) << at;
        expectSameBytes(ma.weights2, mb.weights2, at + "weights2");
        const WeightStats &wa = ma.weightStats, &wb = mb.weightStats;
        EXPECT_EQ(wa.maxInfluences, wb.maxInfluences) << at;
        EXPECT_EQ(wa.truncatedVertices, wb.truncatedVertices) << at;
        EXPECT_EQ(wa.unweightedVertices, wb.unweightedVertices) << at;
        EXPECT_EQ(wa.unnormalizedVertices, wb.unnormalizedVertices) << at;
        EXPECT_EQ(wa.invalidWeights, wb.invalidWeights) << at;
        EXPECT_EQ(wa.truncatedExamples, wb.truncatedExamples) << at;
        EXPECT_EQ(wa.unweightedExamples, wb.unweightedExamples) << at;
        EXPECT_EQ(wa.unnormalizedExamples, wb.unnormalizedExamples) << at;
        expectSameValue(wa.worstSumError, wb.worstSumError, at + "worstSumError");
        EXPECT_EQ(ma.originalInfluenceCount, mb.originalInfluenceCount) << at;
        expectSameBytes(ma.originalWeightSum, mb.originalWeightSum, at + "originalWeightSum");
        ASSERT_EQ(ma.truncated.size(), mb.truncated.size()) << at;
        for (size_t t = 0; t < ma.truncated.size(); ++t) {
            EXPECT_EQ(ma.truncated[t].vertex, mb.truncated[t].vertex) << at;
            EXPECT_EQ(ma.truncated[t].influences, mb.truncated[t].influences) << at;  // pairs have padding: by value
        }
        EXPECT_EQ(ma.missingBones, mb.missingBones) << at;
        ASSERT_EQ(ma.morphTargets.size(), mb.morphTargets.size()) << at;
        for (size_t t = 0; t < ma.morphTargets.size(); ++t) {
            EXPECT_EQ(ma.morphTargets[t].name, mb.morphTargets[t].name) << at;
            expectSameBytes(ma.morphTargets[t].positionDeltas, mb.morphTargets[t].positionDeltas, at + "morph");
            expectSameBytes(ma.morphTargets[t].normalDeltas, mb.morphTargets[t].normalDeltas, at + "morph");
        }
        expectSameBytes(ma.morphDefaultWeights, mb.morphDefaultWeights, at + "morph");
    }
    ASSERT_EQ(a.materials.size(), b.materials.size());
    for (size_t k = 0; k < a.materials.size(); ++k) {
        testing::expectSameMaterial(a.materials[k], b.materials[k], "#" + std::to_string(k), testing::MaterialTrip::ModelFile);
    }
    ASSERT_EQ(a.textures.size(), b.textures.size());
    for (size_t k = 0; k < a.textures.size(); ++k) {
        EXPECT_EQ(a.textures[k].name, b.textures[k].name);
        EXPECT_EQ(a.textures[k].width, b.textures[k].width);
        EXPECT_EQ(a.textures[k].height, b.textures[k].height);
        EXPECT_EQ(a.textures[k].data, b.textures[k].data);
    }
    EXPECT_EQ(a.stats.filesRead, b.stats.filesRead);
    ASSERT_EQ(a.images.size(), b.images.size());
    for (size_t k = 0; k < a.images.size(); ++k) {
        EXPECT_EQ(a.images[k].ref, b.images[k].ref);
        EXPECT_EQ(a.images[k].width, b.images[k].width);
        EXPECT_EQ(a.images[k].height, b.images[k].height);
        EXPECT_EQ(a.images[k].fileWidth, b.images[k].fileWidth);
        EXPECT_EQ(a.images[k].fileHeight, b.images[k].fileHeight);
        EXPECT_EQ(a.images[k].rgba, b.images[k].rgba);
        EXPECT_EQ(a.images[k].problem, b.images[k].problem);
    }
    ASSERT_EQ(a.clips.size(), b.clips.size());
    for (size_t k = 0; k < a.clips.size(); ++k) {
        const Clip &ca = a.clips[k], &cb = b.clips[k];
        const std::string at = "clip " + std::to_string(k) + " ";
        EXPECT_EQ(ca.name, cb.name) << at;
        expectSameValue(ca.duration, cb.duration, at + "duration");
        expectSameValue(ca.startTime, cb.startTime, at + "startTime");
        expectSameValue(ca.sampleRate, cb.sampleRate, at + "sampleRate");
        expectSameValue(ca.ticksPerSecond, cb.ticksPerSecond, at + "ticksPerSecond");
        EXPECT_EQ(ca.ticksPerSecondFromFile, cb.ticksPerSecondFromFile) << at;
        ASSERT_EQ(ca.tracks.size(), cb.tracks.size()) << at;
        for (size_t t = 0; t < ca.tracks.size(); ++t) {
            EXPECT_EQ(ca.tracks[t].node, cb.tracks[t].node) << at;
            expectSameChannel(ca.tracks[t].translation, cb.tracks[t].translation, at + "T");
            expectSameChannel(ca.tracks[t].rotation, cb.tracks[t].rotation, at + "R");
            expectSameChannel(ca.tracks[t].scale, cb.tracks[t].scale, at + "S");
        }
        expectSameBytes(ca.times, cb.times, at + "times");
        expectSameBytes(ca.vec3Keys, cb.vec3Keys, at + "vec3Keys");
        expectSameBytes(ca.quatKeys, cb.quatKeys, at + "quatKeys");
        EXPECT_EQ(ca.trackOfNode, cb.trackOfNode) << at;
        ASSERT_EQ(ca.morphTracks.size(), cb.morphTracks.size()) << at;
        for (size_t t = 0; t < ca.morphTracks.size(); ++t) {
            const MorphTrack &x = ca.morphTracks[t], &y = cb.morphTracks[t];
            EXPECT_TRUE(x.mesh == y.mesh && x.targets == y.targets && x.times == y.times && x.values == y.values &&
                        x.count == y.count && x.interpolation == y.interpolation) << at;
        }
        expectSameBytes(ca.morphKeys, cb.morphKeys, at + "morph");
        EXPECT_EQ(ca.curveStats.nonUnitRotationKeys, cb.curveStats.nonUnitRotationKeys) << at;
        EXPECT_EQ(ca.curveStats.duplicateKeyTimes, cb.curveStats.duplicateKeyTimes) << at;
        EXPECT_EQ(ca.curveStats.unsortedChannels, cb.curveStats.unsortedChannels) << at;
        EXPECT_EQ(ca.curveStats.nonFiniteKeys, cb.curveStats.nonFiniteKeys) << at;
        EXPECT_EQ(ca.curveStats.examples, cb.curveStats.examples) << at;
    }
    const ImportStats &ia = a.stats, &ib = b.stats;
    EXPECT_EQ(ia.skippedChannels, ib.skippedChannels);
    EXPECT_EQ(ia.skippedChannelNames, ib.skippedChannelNames);
    EXPECT_EQ(ia.duplicateChannels, ib.duplicateChannels);
    EXPECT_EQ(ia.unsortedKeyChannels, ib.unsortedKeyChannels);
    EXPECT_EQ(ia.nonFiniteKeys, ib.nonFiniteKeys);
    EXPECT_EQ(ia.nonFiniteVertices, ib.nonFiniteVertices);
    EXPECT_EQ(ia.skippedMeshes, ib.skippedMeshes);
    EXPECT_EQ(ia.clipsWithoutTicksPerSecond, ib.clipsWithoutTicksPerSecond);
    EXPECT_EQ(ia.retargetNotes, ib.retargetNotes);
    ASSERT_EQ(ia.repairs.size(), ib.repairs.size());
    for (size_t i = 0; i < ia.repairs.size(); ++i) {
        EXPECT_EQ(ia.repairs[i].code, ib.repairs[i].code);
        EXPECT_EQ(ia.repairs[i].what, ib.repairs[i].what);
    }
    EXPECT_EQ(ia.formatLimitation, ib.formatLimitation);
    EXPECT_EQ(ia.refusedPaths, ib.refusedPaths);
    ASSERT_EQ(ia.nameBindings.size(), ib.nameBindings.size());
    for (size_t k = 0; k < ia.nameBindings.size(); ++k) {
        EXPECT_EQ(ia.nameBindings[k].name, ib.nameBindings[k].name);
        EXPECT_EQ(ia.nameBindings[k].usedBy, ib.nameBindings[k].usedBy);
        EXPECT_EQ(ia.nameBindings[k].candidates, ib.nameBindings[k].candidates);
        EXPECT_EQ(ia.nameBindings[k].chosen, ib.nameBindings[k].chosen);
        EXPECT_EQ(ia.nameBindings[k].rule, ib.nameBindings[k].rule);
        EXPECT_EQ(ia.nameBindings[k].safe, ib.nameBindings[k].safe);
    }
}

// A small model in which every field and every optional array is filled with distinct values.
Model everyField() {
    Model m;
    m.path = "/some/where/rig.gltf";
    Skeleton& s = m.skeleton;
    s.names = {"root", "hip", "knee"};
    s.parent = {-1, 0, 1};
    for (int i = 0; i < 3; ++i) {
        Transform t;
        t.translation = glm::vec3(0.0f, 1.0f + i, 0.25f * i);
        t.rotation = glm::normalize(glm::quat(1.0f, 0.1f * i, 0.0f, 0.0f));
        t.scale = glm::vec3(1.0f, 1.0f, 1.0f + 0.5f * i);
        s.bindLocalSqt.push_back(t);
        s.bindLocal.push_back(toMatrix(t));
    }
    s.computeBindModel();
    Mesh mesh;
    mesh.name = "skin\xe9";  // not UTF-8: bytes go through as they are
    mesh.node = 0;
    mesh.material = 1;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, std::numeric_limits<float>::quiet_NaN()}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, -0.0f}};
    mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
    mesh.uvs1 = {{0.5f, 0.25f}, {1, 0.75f}, {-0.0f, 2}};
    mesh.tangents = {{1, 0, 0, 1}, {0, 1, 0, -1}, {0, 0, 1, 1}};
    mesh.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5f}};
    mesh.indices = {0, 1, 2};
    mesh.skinned = true;
    mesh.skin.joints = {1, 2};
    mesh.skin.inverseBind = {glm::inverse(s.bindModel[1]), glm::inverse(s.bindModel[2])};
    mesh.skin.offsetComputed = {0, 1};
    mesh.joints = {{0, 1, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}};
    mesh.weights = {{0.75f, 0.25f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    mesh.weightStats = {5, 1, 1, 1, 2, {0}, {2}, {1}, 0.125f};
    mesh.originalInfluenceCount = {5, 1, 0};
    mesh.originalWeightSum = {1.0f, 0.875f, 0.0f};
    mesh.truncated = {{0, {{0, 0.5f}, {1, 0.2f}, {0, 0.1f}, {1, 0.1f}, {0, 0.1f}}}};
    fillSecondInfluenceSet(mesh);
    mesh.missingBones = {"ghost"};
    mesh.morphTargets = {{"smile", {{0, 0.1f, 0}, {0, 0.2f, 0}, {0, 0, 0}}, {{0, 0, 0.5f}, {0, 0, 0}, {0, 0, 0}}},
                         {"blink", {{0.1f, 0, 0}, {0, 0, 0}, {0, 0, -0.3f}}, {}}};
    mesh.morphDefaultWeights = {0.25f, -0.5f};
    m.meshes.push_back(mesh);
    mesh.name = "rigid";
    mesh.skinned = false;
    mesh.skin = Skin{};
    mesh.joints.clear();
    mesh.weights.clear();
    mesh.joints2.clear();
    mesh.weights2.clear();
    mesh.originalInfluenceCount.clear();
    mesh.originalWeightSum.clear();
    mesh.truncated.clear();
    mesh.normals.clear();
    mesh.morphTargets.clear();
    mesh.morphDefaultWeights.clear();
    m.meshes.push_back(mesh);
    m.materials = {{"plain", {0.8f, 0.8f, 0.8f, 1}, ""}, {"skin", {1, 0.5f, 0.25f, 1}, "*0"}};
    // Every field of the second material away from its default, each slot's texture different.
    Material& mat = m.materials[1];
    mat.metallic = 0.25f;
    mat.roughness = 0.625f;
    mat.normalScale = 0.5f;
    mat.occlusionStrength = 0.75f;
    mat.emissive = {0.125f, 0.25f, 1.0f};
    mat.emissiveStrength = 4.0f;
    mat.alphaMode = AlphaMode::Mask;
    mat.alphaCutoff = 0.3f;
    mat.doubleSided = true;
    mat.clearcoat = 0.875f;
    mat.clearcoatRoughness = 0.0625f;
    mat.unlit = true;
    mat.origin = "glTF metallic-roughness";
    int n = 0;
    auto fill = [&](TextureRef& t) {
        ++n;
        t.path = n == 1 ? "*0" : "slot" + std::to_string(n) + ".png";
        t.texCoord = static_cast<uint8_t>(n % 2);
        t.offset = {0.125f * n, -0.25f};
        t.rotation = 0.1f * n;
        t.scale = {1.5f, 0.5f * n};
        t.wrapS = n % 2 ? 33071 : 33648;
        t.wrapT = 33648;
        t.magFilter = 9728;
        t.minFilter = 9984 + n % 4;
    };
    for (TextureRef* t : {&mat.baseColorTexture, &mat.metallicRoughnessTexture, &mat.normalTexture, &mat.occlusionTexture,
                          &mat.emissiveTexture, &mat.clearcoatTexture, &mat.clearcoatRoughnessTexture, &mat.clearcoatNormalTexture}) {
        fill(*t);
    }
    m.textures = {{"png", 0, 0, {0x89, 'P', 'N', 'G'}}, {"raw", 1, 2, {1, 2, 3, 4, 5, 6, 7, 8}}};
    Clip c;
    c.name = "walk";
    c.duration = 1.5f;
    c.startTime = 0.5f;
    c.sampleRate = 24.0f;
    c.ticksPerSecond = 4800.0;
    c.ticksPerSecondFromFile = false;
    const float times[] = {0.5f, 1.0f, 1.5f};
    const uint32_t run = c.addTimes(times, 3);
    c.vec3Keys = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
    c.quatKeys = {glm::quat(1, 0, 0, 0), glm::quat(0, 1, 0, 0), glm::quat(0, 0, 1, 0)};
    Track t;
    t.node = 1;
    t.translation = {run, 0, 3, Interpolation::Linear};
    t.rotation = {run, 0, 3, Interpolation::Step};
    t.scale = {run, 3, 3, Interpolation::Step};
    c.tracks.push_back(t);
    c.trackOfNode = {-1, 0, -1};
    c.morphTracks.push_back({0, 2, run, 0, 3, WeightInterpolation::CubicSpline});
    for (int i = 0; i < 3 * 3 * 2; ++i) c.morphKeys.push_back(0.05f * static_cast<float>(i) - 0.25f);
    c.curveStats = {1, 2, 3, 4, {"hip.rotation"}};
    m.clips.push_back(c);
    m.stats = {1, {"tail"}, 2, 3, 4, 5, 6, 7, {"walk.bvh: 1 clips added"}};
    m.stats.repairs = {{"repaired-keys", "clip 0: 1 key past the end"}, {"repaired-channels", "2 empty channels dropped"}};
    m.stats.formatLimitation = "no armature";
    m.stats.refusedPaths = {"/etc/passwd", "../x.bin"};
    m.stats.nameBindings = {{"hip", "bone of mesh 'body'", {1, 2}, 2, "glTF skin.joints", true}};
    m.units = {"centimetre", 0.01, 0.01, true, "FBX UnitScaleFactor 1"};
    computeSkinBindPose(m);
    return m;
}

// What format 4 keeps of a model: materials' name, base colour and base-colour texture path;
// no second UV set, no tangents.
Model asFormat4(Model m) {
    for (Material& mat : m.materials) {
        Material plain;
        plain.name = mat.name;
        plain.baseColor = mat.baseColor;
        plain.baseColorTexture.path = mat.baseColorTexture.path;
        mat = plain;
    }
    for (Mesh& mesh : m.meshes) {
        mesh.uvs1.clear();
        mesh.tangents.clear();
    }
    return m;
}

Model roundTrip(const Model& m) {
    const std::vector<uint8_t> bytes = serializeModel(m);
    Result<Model> back = deserializeModel(bytes);
    EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.error().message);
    return back.ok() ? std::move(back.value()) : Model{};
}

TEST(ModelIo, EveryFieldRoundTrips) {
    const Model m = everyField();
    ASSERT_TRUE(validateModel(m).ok());
    expectSameModel(m, roundTrip(m));
}

// An embedded image over the limits crosses with its size and no bytes (import/texture_limits.h);
// a raw one of any other size without its texels is still refused.
TEST(ModelIo, ImagesLeftOutOverTheLimitsCrossWithoutBytes) {
    Model m;
    EmbeddedTexture big;
    big.width = static_cast<uint32_t>(kMaxTextureBytes + 1);
    EmbeddedTexture wide;
    wide.width = 16384;
    wide.height = 2;
    m.textures = {big, wide};
    Result<Model> back = deserializeModel(serializeModel(m));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->textures[1].width, 16384u);
    m.textures[1].width = 64;
    EXPECT_FALSE(validateModel(m).ok());
}

// Decoded textures cross as pixels of the size they state, within the display size, or as a
// problem without pixels; anything else is refused.
TEST(ModelIo, DecodedImagesCrossOnlyWithTheSizeTheyState) {
    Model m;
    ModelImage ok;
    ok.ref = "skin.png";
    ok.width = 2;
    ok.height = 1;
    ok.fileWidth = 4;
    ok.fileHeight = 2;
    ok.rgba = {1, 2, 3, 4, 5, 6, 7, 8};
    ModelImage refused;
    refused.ref = "*0";
    refused.problem = "embedded texture *0 is not a PNG or JPEG image";
    m.images = {ok, refused};
    expectSameModel(m, roundTrip(m));
    Model lie = m;
    lie.images[0].height = 2;  // more pixels than it brings
    EXPECT_FALSE(deserializeModel(serializeModel(lie)).ok());
    lie = m;
    lie.images[0].width = kMaxTextureDisplaySide + 1;
    lie.images[0].height = 0;
    EXPECT_FALSE(validateModel(lie).ok());
    lie = m;
    lie.images[1].rgba = {0, 0, 0, 0};  // pixels beside a problem
    EXPECT_FALSE(validateModel(lie).ok());
}

TEST(ModelIo, EmptyModelRoundTrips) {
    expectSameModel(Model{}, roundTrip(Model{}));
}

class RealFile : public ::testing::TestWithParam<std::string> {};

TEST_P(RealFile, RoundTripsFieldByField) {
    Result<Model> r = importModel(GetParam());
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(validateModel(r.value()).ok()) << validateModel(r.value()).error().message;
    expectSameModel(r.value(), roundTrip(r.value()));
    // And serializing the copy gives the same bytes.
    EXPECT_EQ(serializeModel(r.value()), serializeModel(roundTrip(r.value())));
}

INSTANTIATE_TEST_SUITE_P(Assets, RealFile,
                         ::testing::Values(kModels + "X/BCN_Epileptic.X", kModels + "X/Testwuson.X",
                                           kModels + "glTF2/ClearCoat-glTF/ClearCoatTest.gltf",
                                           kModels + "FBX/animation_with_skeleton.fbx",
                                           kModels + "glTF2/simple_skin/simple_skin.gltf", kModels + "BVH/01_01.bvh",
                                           kModels + "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb",
                                           std::string(RIGVIEW_SOURCE_DIR) + "/assets/demo/rigview_demo.gltf"));

TEST(ModelIo, RejectsTruncatedBuffersAtEveryLength) {
    const std::vector<uint8_t> bytes = serializeModel(everyField());
    for (size_t n = 0; n < bytes.size(); ++n) {
        Result<Model> r = deserializeModel(std::span(bytes.data(), n));
        EXPECT_FALSE(r.ok()) << "accepted " << n << " of " << bytes.size() << " bytes";
    }
}

TEST(ModelIo, RejectsEveryFlippedBit) {
    const std::vector<uint8_t> good = serializeModel(everyField());
    for (size_t i = 0; i < good.size(); ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            std::vector<uint8_t> bad = good;
            bad[i] ^= static_cast<uint8_t>(1u << bit);
            EXPECT_FALSE(deserializeModel(bad).ok()) << "byte " << i << " bit " << bit;
        }
    }
}

TEST(ModelIo, NamesWhatIsWrong) {
    std::vector<uint8_t> bytes = serializeModel(everyField());
    bytes[0] = 'X';
    EXPECT_NE(deserializeModel(bytes).error().message.find("magic"), std::string::npos);
    bytes = serializeModel(everyField());
    bytes[8] = 99;  // version
    EXPECT_NE(deserializeModel(bytes).error().message.find("format 99"), std::string::npos);
    bytes = serializeModel(everyField());
    bytes.back() ^= 1;
    EXPECT_NE(deserializeModel(bytes).error().message.find("checksum"), std::string::npos);
    bytes = serializeModel(everyField());
    bytes.push_back(0);
    EXPECT_FALSE(deserializeModel(bytes).ok());
}

// Rewrite the payload and fix up the header's size and checksum, as a forger would.
std::vector<uint8_t> reseal(std::vector<uint8_t> bytes) {
    const uint64_t size = bytes.size() - 28;
    uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    const uint64_t sum = payloadChecksum(version, bytes.data() + 28, size);
    std::memcpy(bytes.data() + 12, &size, 8);
    std::memcpy(bytes.data() + 20, &sum, 8);
    return bytes;
}

TEST(ModelIo, ForgedBuffersWithValidChecksumsAreRejectedOrValid) {
    // Random byte changes with the checksum recomputed: the reader's own checks must catch
    // every lie about counts and indices; whatever it accepts passes validateModel and writes
    // back to the same bytes (a flag byte of 2 read as "true" would not).
    const std::vector<uint8_t> good = serializeModel(everyField());
    std::mt19937 rng(12345);
    size_t rejected = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        std::vector<uint8_t> bad = good;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) bad[28 + rng() % (bad.size() - 28)] = static_cast<uint8_t>(rng());
        const std::vector<uint8_t> sealed = reseal(bad);
        Result<Model> r = deserializeModel(sealed);
        if (!r.ok()) {
            ++rejected;
            continue;
        }
        EXPECT_TRUE(validateModel(r.value()).ok());
        EXPECT_TRUE(serializeModel(r.value()) == sealed) << "trial " << trial << " reads but does not write back";
    }
    EXPECT_GT(rejected, 1000u);
}

// A buffer of format 3 (before the second influence set was stored) still reads: each mesh
// gets its second set from its truncated vertices, as import makes it.
TEST(ModelIo, ReadsFormat3AndDerivesTheSecondInfluenceSet) {
    Model withSet = everyField();
    withSet.meshes.pop_back();  // one mesh: its second set is the only difference below
    ASSERT_TRUE(withSet.meshes[0].hasSecondInfluenceSet());
    EXPECT_EQ(withSet.meshes[0].joints2[0][0], 0);
    EXPECT_FLOAT_EQ(withSet.meshes[0].weights2[0][0], 0.1f / 0.9f);  // on the scale of the 4 strongest
    Model without = withSet;
    without.meshes[0].joints2.clear();
    without.meshes[0].weights2.clear();
    const std::vector<uint8_t> a = serializeModel(withSet, 4);
    std::vector<uint8_t> b = serializeModel(without, 4);
    // Where the two differ first is the second set's count: format 3 has neither array there.
    size_t at = 28;
    while (at < b.size() && a[at] == b[at]) ++at;
    ASSERT_LT(at + 16, b.size());
    const uint64_t zeros[2] = {0, 0};
    ASSERT_EQ(std::memcmp(b.data() + at, zeros, 16), 0);
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + 16));
    const uint32_t v3 = 3;
    std::memcpy(b.data() + 8, &v3, 4);
    Result<Model> r = deserializeModel(reseal(b));
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectSameModel(asFormat4(withSet), r.value());
    b[8] = 2;  // older than that: refused, naming what it reads
    r = deserializeModel(reseal(b));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("format 2, expected 3 to 7"), std::string::npos) << r.error().message;
}

// A buffer of format 4 (before whole materials, uvs1 and tangents) still reads: materials keep
// their name, base colour and base-colour texture path, everything else is the default.
TEST(ModelIo, ReadsFormat4WithBaseColourMaterials) {
    const Model m = everyField();
    const std::vector<uint8_t> bytes = serializeModel(m, 4);
    uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    ASSERT_EQ(version, 4u);
    Result<Model> r = deserializeModel(bytes);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectSameModel(asFormat4(m), r.value());
    EXPECT_EQ(r->materials[1].baseColorTexture.path, "*0");
    EXPECT_EQ(r->materials[1].metallic, 0.0f);
    EXPECT_TRUE(r->meshes[0].tangents.empty());
    // The current format is 7 and keeps them all, as format 5 did (its checksum over bytes).
    std::memcpy(&version, serializeModel(m).data() + 8, 4);
    EXPECT_EQ(version, 7u);
    Result<Model> five = deserializeModel(serializeModel(m, 5));
    ASSERT_TRUE(five.ok()) << five.error().message;
    expectSameModel(m, five.value());
    std::vector<uint8_t> damaged = serializeModel(m, 5);
    damaged.back() ^= 1;
    EXPECT_NE(deserializeModel(damaged).error().message.find("checksum"), std::string::npos);
}

// A texture reading UV set 2 or later is refused (only uvs and uvs1 exist).
TEST(ModelIo, ValidateRefusesAThirdUvSet) {
    Model m = everyField();
    m.materials[1].occlusionTexture.texCoord = 2;
    EXPECT_FALSE(validateModel(m).ok());
}

TEST(ModelIo, HugeCountIsRejectedWithoutAllocating) {
    std::vector<uint8_t> bytes = serializeModel(Model{});
    // The payload starts with the path's length: claim 2^62 bytes.
    const uint64_t huge = uint64_t{1} << 62;
    std::memcpy(bytes.data() + 28, &huge, 8);
    Result<Model> r = deserializeModel(reseal(bytes));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("exceeds the data left"), std::string::npos) << r.error().message;
}

// `bytes` handed out as a pipe hands them: in pieces of 1 to 97 bytes per read, whatever the
// reader asks for; false once they run out.
ModelByteSource pieces(const std::vector<uint8_t>& bytes, size_t& at, uint32_t seed) {
    auto rng = std::make_shared<std::mt19937>(seed);
    return [&bytes, &at, rng](void* to, size_t n) {
        auto* out = static_cast<uint8_t*>(to);
        while (n > 0) {
            if (at >= bytes.size()) return false;
            const size_t k = std::min({n, bytes.size() - at, size_t(1 + (*rng)() % 97)});
            std::memcpy(out, bytes.data() + at, k);
            at += k;
            out += k;
            n -= k;
        }
        return true;
    };
}

// What receiveModel makes of `bytes`, its first `start` bytes already taken by the caller.
Result<Model> receive(const std::vector<uint8_t>& bytes, size_t start = 0, uint32_t seed = 1) {
    size_t at = std::min(start, bytes.size());
    return receiveModel(std::span(bytes.data(), at), pieces(bytes, at, seed));
}

TEST(ModelIo, WrittenToASinkAsSerialized) {
    for (const Model& m : {everyField(), Model{}}) {
        std::vector<uint8_t> sent;
        EXPECT_TRUE(writeModel(m, [&](const void* p, size_t n) {
            sent.insert(sent.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
            return true;
        }));
        EXPECT_EQ(sent, serializeModel(m));
    }
    // A sink that refuses: the write fails.
    EXPECT_FALSE(writeModel(everyField(), [](const void*, size_t) { return false; }));
}

TEST(ModelIo, ReceivedAsItArrivesAsDeserialized) {
    const std::vector<uint8_t> bytes = serializeModel(everyField());
    for (size_t start : {size_t(0), size_t(8), size_t(28), size_t(40)}) {
        Result<Model> r = receive(bytes, start, static_cast<uint32_t>(start));
        ASSERT_TRUE(r.ok()) << r.error().message;
        expectSameModel(everyField(), r.value());
    }
    // Large arrays, read through the pieces too.
    Model big = everyField();
    big.meshes[0].positions.resize(3 << 20, glm::vec3(1.0f));
    big.meshes[0].normals.clear();
    big.meshes[0].uvs.clear();
    big.meshes[0].uvs1.clear();
    big.meshes[0].tangents.clear();
    big.meshes[0].colors.clear();
    big.meshes[0].joints.assign(big.meshes[0].positions.size(), big.meshes[0].joints[0]);
    big.meshes[0].weights.assign(big.meshes[0].positions.size(), big.meshes[0].weights[0]);
    big.meshes[0].joints2.clear();
    big.meshes[0].weights2.clear();
    big.meshes[0].originalInfluenceCount.clear();
    big.meshes[0].originalWeightSum.clear();
    for (MorphTarget& t : big.meshes[0].morphTargets) {
        t.positionDeltas.assign(big.meshes[0].positions.size(), glm::vec3(0.0f));
        t.normalDeltas.clear();
    }
    ASSERT_TRUE(validateModel(big).ok()) << validateModel(big).error().message;
    const std::vector<uint8_t> large = serializeModel(big);
    Result<Model> r = receive(large);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(serializeModel(r.value()), large);
}

TEST(ModelIo, ReceivingRefusesWhatDeserializingRefuses) {
    const std::vector<uint8_t> good = serializeModel(everyField());
    // Cut short at every length: refused (the source runs dry).
    for (size_t n = 0; n < good.size(); n += 7) {
        const std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_FALSE(receive(cut).ok()) << n;
    }
    // Every byte changed: refused, the checksum (or the header) names it.
    for (size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bad = good;
        bad[i] ^= 0x40;
        EXPECT_FALSE(receive(bad).ok()) << "byte " << i;
    }
    std::vector<uint8_t> bad = good;
    bad[20] ^= 1;  // the header's checksum: the payload reads, the sum over it differs
    EXPECT_NE(receive(bad).error().message.find("checksum"), std::string::npos);
    // Forged with a valid checksum: refused, or read as deserializeModel reads it.
    std::mt19937 rng(99);
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<uint8_t> forged = good;
        forged[28 + rng() % (forged.size() - 28)] = static_cast<uint8_t>(rng());
        const std::vector<uint8_t> sealed = reseal(forged);
        Result<Model> a = deserializeModel(sealed);
        Result<Model> b = receive(sealed, 0, static_cast<uint32_t>(trial));
        ASSERT_EQ(a.ok(), b.ok()) << "trial " << trial << ": " << (a.ok() ? b.error().message : a.error().message);
        if (a.ok()) EXPECT_EQ(serializeModel(a.value()), serializeModel(b.value()));
    }
}

TEST(ModelIo, ReceivingAForgedSizeTakesOnlyTheBytesThatCame) {
    // A header that claims a payload of 2^40 bytes and a path of 2^39 characters, then stops:
    // refused once the bytes run out, without taking memory for what never came.
    std::vector<uint8_t> bytes = serializeModel(Model{});
    const uint64_t payload = uint64_t{1} << 40, path = uint64_t{1} << 39;
    std::memcpy(bytes.data() + 12, &payload, 8);
    std::memcpy(bytes.data() + 28, &path, 8);
    Result<Model> r = receive(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("truncated"), std::string::npos) << r.error().message;
}

TEST(ModelIo, ValidateCatchesBrokenInvariants) {
    Model m = everyField();
    m.skeleton.parent[1] = 2;
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.meshes[0].indices[1] = 3;
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.meshes[0].joints[0][0] = 3;  // palette of 2 joints + rigid slot = 3 slots
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.meshes[0].joints2[0][1] = 3;  // the second set's slots too
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.meshes[0].weights2.pop_back();
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.clips[0].tracks[0].scale.count = 4;
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.clips[0].trackOfNode.pop_back();
    EXPECT_FALSE(validateModel(m).ok());
    m = everyField();
    m.textures[1].data.pop_back();
    EXPECT_FALSE(validateModel(m).ok());
}

}  // namespace
}  // namespace rig
