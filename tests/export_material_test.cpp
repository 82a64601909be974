// glTF export of materials (import/gltf/export_material.h): every Material field written as the
// glTF 2.0 spec and its extensions say (checked in the written JSON, on a model filled by hand),
// images embedded once per source, identical samplers shared, TEXCOORD_1 and TANGENT written,
// textures that cannot be embedded named; the Khronos validator finds no error; and real files
// (the material matrix, BoxTextured, ClearCoatTest) read back with every material field equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export_common.h"
#include "import/gltf/export.h"
#include "import/import.h"
#include "support/material_compare.h"
#include "support/rigs.h"
#include "support/run.h"
#include "util/paths.h"

namespace {

using nlohmann::json;
using rig::testing::run;
using rig::testing::RunResult;

const std::string kExe = RIGVIEW_EXE;
const std::string kSource = RIGVIEW_SOURCE_DIR;
const std::string kModels = "/usr/share/assimp/models/";
const std::string kBox = kModels + "glTF2/BoxTextured-glTF/BoxTextured.gltf";
const std::string kLogo = kModels + "glTF2/BoxTextured-glTF/CesiumLogoFlat.png";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The JSON and binary chunk of a written .gltf (buffer as a base64 data: URI) or .glb.
struct Written {
    json doc;
    std::string bin;
};

std::string unbase64(const std::string& s) {
    std::string out;
    uint32_t acc = 0;
    int bits = 0;
    for (char c : s) {
        const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char* at = c ? std::strchr(k, c) : nullptr;
        if (!at) break;
        acc = (acc << 6) | static_cast<uint32_t>(at - k);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xff);
        }
    }
    return out;
}

Written readWritten(const std::string& path) {
    const std::string bytes = slurp(path);
    Written w;
    if (bytes.compare(0, 4, "glTF") == 0) {
        uint32_t jsonLen = 0, binLen = 0;
        std::memcpy(&jsonLen, bytes.data() + 12, 4);
        w.doc = json::parse(bytes.substr(20, jsonLen));
        if (20 + jsonLen + 8 <= bytes.size()) {
            std::memcpy(&binLen, bytes.data() + 20 + jsonLen, 4);
            w.bin = bytes.substr(20 + jsonLen + 8, binLen);
        }
    } else {
        w.doc = json::parse(bytes);
        const std::string uri = w.doc["buffers"][0]["uri"];
        w.bin = unbase64(uri.substr(uri.find(',') + 1));
    }
    return w;
}

// The bytes of image `i` of a written asset (from its buffer view).
std::string imageBytes(const Written& w, int i) {
    const json& view = w.doc["bufferViews"][w.doc["images"][i]["bufferView"].get<int>()];
    return w.bin.substr(view["byteOffset"].get<size_t>(), view["byteLength"].get<size_t>());
}

// A texture reference filled with every sampler and transform field.
rig::TextureRef texture(const std::string& path, uint8_t texCoord = 0) {
    rig::TextureRef t;
    t.path = path;
    t.texCoord = texCoord;
    return t;
}

// makeTwoBone with a second UV set, tangents (one zero: written as a unit vector) and three
// materials covering every field, each used by a mesh (export writes used materials only); model.path in a fresh folder holding "mr.png", an image
// outside that folder referred to by material 2, and the Cesium logo embedded as "*0".
rig::Model materialRig(const std::string& dir) {
    rig::Model m = rig::testing::makeTwoBone();
    std::filesystem::create_directories(dir + "/model");
    m.path = dir + "/model/rig.gltf";
    std::filesystem::copy_file(kLogo, dir + "/model/mr.png");
    std::filesystem::copy_file(kLogo, dir + "/outside.png");
    const std::string logo = slurp(kLogo);
    rig::EmbeddedTexture e;
    e.width = static_cast<uint32_t>(logo.size());
    e.data.assign(logo.begin(), logo.end());
    m.textures.push_back(e);
    rig::Mesh& mesh = m.meshes[0];
    mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    mesh.uvs1 = {{0.5f, 0}, {0, 0.5f}, {0.25f, 0.25f}, {1, 1}};
    mesh.tangents = {{1, 0, 0, 1}, {2, 0, 0, -1}, {0, 0, 0, 1}, {0, 1, 0, -0.5f}};

    rig::Material a;
    a.name = "everything";
    a.baseColor = {0.2f, 0.4f, 0.6f, 0.5f};
    a.baseColorTexture = texture("*0", 1);
    a.baseColorTexture.offset = {0.25f, -0.5f};
    a.baseColorTexture.rotation = 0.75f;
    a.baseColorTexture.scale = {2.0f, 3.0f};
    a.baseColorTexture.wrapS = 33071;
    a.baseColorTexture.wrapT = 33648;
    a.baseColorTexture.magFilter = 9728;
    a.baseColorTexture.minFilter = 9984;
    a.metallic = 0.3f;
    a.roughness = 0.7f;
    a.metallicRoughnessTexture = texture("mr.png");
    a.normalTexture = texture("*0");
    a.normalScale = 0.5f;
    a.occlusionTexture = texture("mr.png", 1);
    a.occlusionStrength = 0.25f;
    a.emissive = {0.5f, 0.25f, 0.0f};
    a.emissiveStrength = 3.0f;
    a.emissiveTexture = texture("*0");
    a.alphaMode = rig::AlphaMode::Mask;
    a.alphaCutoff = 0.3f;
    a.doubleSided = true;
    a.clearcoat = 0.6f;
    a.clearcoatRoughness = 0.2f;
    a.clearcoatTexture = texture("mr.png");
    a.clearcoatRoughnessTexture = texture("mr.png");
    a.clearcoatNormalTexture = texture("*0");
    rig::Material b;
    b.name = "unlit";
    b.unlit = true;
    b.alphaMode = rig::AlphaMode::Blend;
    rig::Material c;
    c.name = "unreadable";
    c.emissive = {2.0f, 1.0f, 0.0f};  // over glTF's range: factor (1, 0.5, 0), strength 2
    c.baseColorTexture = texture("../outside.png");
    c.emissiveTexture = texture("*7");
    m.materials = {a, b, c};
    mesh.material = 0;
    rig::Mesh second = mesh;
    second.name = "second";
    second.material = 2;
    second.uvs1.clear();
    second.tangents.clear();
    m.meshes.push_back(second);
    rig::Mesh third = second;
    third.name = "third";
    third.material = 1;
    m.meshes.push_back(third);
    return m;
}

TEST(GltfExportMaterials, EveryFieldIsWrittenAsGltfSaysIt) {
    const std::string dir = rig::testing::tempDir();
    const rig::Model model = materialRig(dir);
    for (bool binary : {false, true}) {
        const std::string out = dir + (binary ? "/rig.glb" : "/rig.gltf");
        std::string error;
        std::vector<std::string> leftOut;
        ASSERT_TRUE(rig::writeGltf(model, model.clips, out, rig::GltfExportOptions{binary, false}, error, &leftOut)) << error;
        ASSERT_EQ(leftOut.size(), 2u);
        EXPECT_NE(leftOut[0].find("material 'unreadable' baseColor texture '../outside.png'"), std::string::npos) << leftOut[0];
        EXPECT_NE(leftOut[1].find("material 'unreadable' emissive texture '*7'"), std::string::npos) << leftOut[1];
        const Written w = readWritten(out);
        const json& d = w.doc;
        EXPECT_EQ(d["extensionsUsed"], json({"KHR_materials_clearcoat", "KHR_materials_emissive_strength",
                                             "KHR_materials_unlit", "KHR_texture_transform"}));
        EXPECT_FALSE(d.contains("extensionsRequired"));
        // Two images (the embedded one, mr.png read once), their bytes as the sources'.
        ASSERT_EQ(d["images"].size(), 2u);
        EXPECT_EQ(imageBytes(w, 0), slurp(kLogo));
        EXPECT_EQ(imageBytes(w, 1), slurp(kLogo));
        EXPECT_EQ(d["images"][0]["mimeType"], "image/png");
        EXPECT_EQ(d["images"][1]["name"], "mr.png");
        // Two samplers: the base colour's, and the default one every other texture shares.
        EXPECT_EQ(d["samplers"], json::parse(R"([{"magFilter":9728,"minFilter":9984,"wrapS":33071,"wrapT":33648},
                                                 {"magFilter":9729,"minFilter":9987}])"));
        EXPECT_EQ(d["textures"], json::parse(R"([{"source":0,"sampler":0},{"source":1,"sampler":1},{"source":0,"sampler":1}])"));

        const json& a = d["materials"][0];
        const json& pbr = a["pbrMetallicRoughness"];
        EXPECT_EQ(a["name"], "everything");
        EXPECT_EQ(pbr["baseColorFactor"], json({0.2f, 0.4f, 0.6f, 0.5f}));
        EXPECT_EQ(pbr["metallicFactor"], 0.3f);
        EXPECT_EQ(pbr["roughnessFactor"], 0.7f);
        EXPECT_EQ(pbr["baseColorTexture"], json::parse(R"({"index":0,"texCoord":1,"extensions":{"KHR_texture_transform":
                                                           {"offset":[0.25,-0.5],"rotation":0.75,"scale":[2.0,3.0]}}})"));
        EXPECT_EQ(pbr["metallicRoughnessTexture"], json({{"index", 1}}));
        EXPECT_EQ(a["normalTexture"], json({{"index", 2}, {"scale", 0.5}}));
        EXPECT_EQ(a["occlusionTexture"], json({{"index", 1}, {"texCoord", 1}, {"strength", 0.25}}));
        EXPECT_EQ(a["emissiveFactor"], json({0.5, 0.25, 0.0}));
        EXPECT_EQ(a["emissiveTexture"], json({{"index", 2}}));
        EXPECT_EQ(a["alphaMode"], "MASK");
        EXPECT_EQ(a["alphaCutoff"], 0.3f);
        EXPECT_EQ(a["doubleSided"], true);
        EXPECT_EQ(a["extensions"]["KHR_materials_emissive_strength"], json({{"emissiveStrength", 3.0}}));
        EXPECT_EQ(a["extensions"]["KHR_materials_clearcoat"],
                  json({{"clearcoatFactor", 0.6f}, {"clearcoatRoughnessFactor", 0.2f}, {"clearcoatTexture", {{"index", 1}}},
                        {"clearcoatRoughnessTexture", {{"index", 1}}}, {"clearcoatNormalTexture", {{"index", 2}}}}));
        EXPECT_FALSE(a["extensions"].contains("KHR_materials_unlit"));

        const json& b = d["materials"][1];
        EXPECT_EQ(b["alphaMode"], "BLEND");
        EXPECT_FALSE(b.contains("alphaCutoff"));
        EXPECT_FALSE(b.contains("doubleSided"));
        EXPECT_FALSE(b.contains("emissiveFactor"));
        EXPECT_EQ(b["extensions"], json::parse(R"({"KHR_materials_unlit":{}})"));
        EXPECT_EQ(b["pbrMetallicRoughness"],
                  json({{"baseColorFactor", {0.8f, 0.8f, 0.8f, 1.0f}}, {"metallicFactor", 0.0}, {"roughnessFactor", 1.0}}));
        const json& c = d["materials"][2];
        EXPECT_FALSE(c["pbrMetallicRoughness"].contains("baseColorTexture"));
        EXPECT_FALSE(c.contains("emissiveTexture"));
        EXPECT_EQ(c["emissiveFactor"], json({1.0, 0.5, 0.0}));
        EXPECT_EQ(c["extensions"], json::parse(R"({"KHR_materials_emissive_strength":{"emissiveStrength":2.0}})"));
        EXPECT_FALSE(c.contains("alphaMode"));

        // Mesh 0: both UV sets and unit tangents with w +-1; mesh 1 (no texture written): no
        // UV set needed beyond its own, no tangents.
        const json& attrs = d["meshes"][0]["primitives"][0]["attributes"];
        ASSERT_TRUE(attrs.contains("TEXCOORD_0") && attrs.contains("TEXCOORD_1") && attrs.contains("TANGENT")) << attrs;
        const json& tan = d["accessors"][attrs["TANGENT"].get<int>()];
        EXPECT_EQ(tan["type"], "VEC4");
        std::vector<float> t(16);
        const json& tv = d["bufferViews"][tan["bufferView"].get<int>()];
        std::memcpy(t.data(), w.bin.data() + tv["byteOffset"].get<size_t>(), 64);
        EXPECT_EQ(std::vector<float>(t.begin(), t.begin() + 8), std::vector<float>({1, 0, 0, 1, 1, 0, 0, -1}));
        EXPECT_NEAR(std::hypot(t[8], t[9], t[10]), 1.0, 1e-6);
        EXPECT_NEAR(t[8] * 1.0f + t[9] * 0.0f + t[10] * 0.0f, 0.0, 1e-6);  // perpendicular to normal (1,0,0)
        EXPECT_EQ(t[11], 1.0f);
        EXPECT_EQ(std::vector<float>(t.begin() + 12, t.end()), std::vector<float>({0, 1, 0, -1}));
        // UVs with glTF's v (down the image): 1 - v of the Model's (Assimp's, up the image).
        const json& uv1 = d["bufferViews"][d["accessors"][attrs["TEXCOORD_1"].get<int>()]["bufferView"].get<int>()];
        std::vector<float> uv(8);
        std::memcpy(uv.data(), w.bin.data() + uv1["byteOffset"].get<size_t>(), 32);
        EXPECT_EQ(uv, std::vector<float>({0.5f, 1.0f, 0.0f, 0.5f, 0.25f, 0.75f, 1.0f, 0.0f}));
        const json& attrs2 = d["meshes"][1]["primitives"][0]["attributes"];
        EXPECT_TRUE(attrs2.contains("TEXCOORD_0"));
        EXPECT_FALSE(attrs2.contains("TEXCOORD_1") || attrs2.contains("TANGENT")) << attrs2;
    }
    // The Khronos validator: no error (nor warning but the skinned-mesh ones).
    rig::testing::exports::expectValid({dir + "/rig.gltf", dir + "/rig.glb"});
}

// A material whose texture reads TEXCOORD_1 on a mesh with only TEXCOORD_0 (and one reading
// TEXCOORD_0 on a mesh without UVs): the missing sets are written as zeros, so the file stays
// valid (glTF wants every set a material reads, and no gap in the sets).
// A material no mesh uses (Assimp adds a default one to many files: a glTF with one material
// came out with a second, unnamed one) is not written; the meshes' indices follow.
TEST(GltfExportMaterials, OnlyTheMaterialsMeshesUseAreWritten) {
    const std::string dir = rig::testing::tempDir();
    rig::Model model = materialRig(dir);
    model.meshes[2].material = 2;  // 'unlit' (1) no longer used
    const std::string out = dir + "/used.gltf";
    std::string error;
    ASSERT_TRUE(rig::writeGltf(model, model.clips, out, rig::GltfExportOptions{}, error)) << error;
    const Written w = readWritten(out);
    ASSERT_EQ(w.doc["materials"].size(), 2u);
    EXPECT_EQ(w.doc["materials"][0]["name"], "everything");
    EXPECT_EQ(w.doc["materials"][1]["name"], "unreadable");
    EXPECT_EQ(w.doc["meshes"][0]["primitives"][0]["material"], 0);
    EXPECT_EQ(w.doc["meshes"][1]["primitives"][0]["material"], 1);
    EXPECT_EQ(w.doc["meshes"][2]["primitives"][0]["material"], 1);
    rig::testing::exports::expectValid({out});
}

TEST(GltfExportMaterials, MissingUvSetsAreWrittenAsZeros) {
    const std::string dir = rig::testing::tempDir();
    rig::Model model = materialRig(dir);
    model.meshes[0].uvs1.clear();
    model.meshes[1].uvs.clear();
    model.meshes[1].material = 1;
    model.materials[1].baseColorTexture = texture("*0");
    const std::string out = dir + "/zeros.gltf";
    std::string error;
    ASSERT_TRUE(rig::writeGltf(model, model.clips, out, rig::GltfExportOptions{}, error)) << error;
    const Written w = readWritten(out);
    for (int m : {0, 1}) {
        const json& attrs = w.doc["meshes"][m]["primitives"][0]["attributes"];
        EXPECT_TRUE(attrs.contains("TEXCOORD_0")) << m;
        EXPECT_EQ(attrs.contains("TEXCOORD_1"), m == 0) << m;
    }
    rig::testing::exports::expectValid({out});
}

// ---- round trips: export, then rigview's import reads every field back --------------------

// The bytes of a texture's image as a model holds it: embedded ("*N") or a file beside the model
// (empty when neither).
std::string textureImage(const rig::Model& m, const std::string& ref) {
    if (ref.empty()) return {};
    if (ref[0] == '*') {
        const size_t n = std::stoul(ref.substr(1));
        return n < m.textures.size() ? std::string(m.textures[n].data.begin(), m.textures[n].data.end()) : std::string();
    }
    const std::string file = rig::paths::resolveResourceFile(m.path, ref, nullptr);  // as import resolves it
    return file.empty() ? std::string() : slurp(file);
}

void expectSameTexture(const rig::Model& a, const rig::TextureRef& x, const rig::Model& b, const rig::TextureRef& y,
                       const std::string& what) {
    EXPECT_EQ(x.present(), y.present()) << what << ": '" << x.path << "' / '" << y.path << "'";
    if (!x.present() || !y.present()) return;
    const std::string image = textureImage(a, x.path);
    EXPECT_FALSE(image.empty()) << what << ": " << x.path;
    EXPECT_TRUE(image == textureImage(b, y.path)) << what << ": the image of '" << x.path << "' differs in '" << y.path << "'";
    rig::testing::expectSameSampling(x, y, what, rig::testing::MaterialTrip::Export);
}

// Every field of Material but `origin` (how import read it) equal; textures by their image bytes.
void expectSameMaterial(const rig::Model& a, const rig::Material& x, const rig::Model& b, const rig::Material& y,
                        const std::string& what) {
    rig::testing::expectSameMaterial(x, y, what, rig::testing::MaterialTrip::Export,
                                     [&](const rig::TextureRef& tx, const rig::TextureRef& ty, const std::string& slot) {
                                         expectSameTexture(a, tx, b, ty, slot);
                                     });
}

// Within float rounding (v is written as 1 - v, read back as 1 - v); the first difference named.
void expectSameUvs(const std::vector<glm::vec2>& x, const std::vector<glm::vec2>& y, const std::string& what) {
    ASSERT_EQ(x.size(), y.size()) << what;
    for (size_t v = 0; v < x.size(); ++v) {
        if (!(glm::length(x[v] - y[v]) <= 1e-6f)) {
            ADD_FAILURE() << what << " vertex " << v << ": (" << x[v].x << ", " << x[v].y << ") read back as (" << y[v].x << ", "
                          << y[v].y << ")";
            return;
        }
    }
}

// Each mesh's material (Assimp orders materials by first use), UV sets and tangents equal.
void expectSameLook(const rig::Model& a, const rig::Model& b, const std::string& what) {
    ASSERT_EQ(a.meshes.size(), b.meshes.size()) << what;
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        const rig::Mesh& x = a.meshes[i];
        const rig::Mesh& y = b.meshes[i];
        const std::string w = what + " mesh '" + x.name + "'";
        ASSERT_LT(x.material, a.materials.size()) << w;
        ASSERT_LT(y.material, b.materials.size()) << w;
        expectSameMaterial(a, a.materials[x.material], b, b.materials[y.material], w);
        expectSameUvs(x.uvs, y.uvs, w + " uvs");
        expectSameUvs(x.uvs1, y.uvs1, w + " uvs1");
        // Tangents as the source's; a source without them may gain some where glTF requires
        // them (ClearCoatTest.ClearCoatNormalGetsTangents).
        if (x.tangents.empty()) continue;
        ASSERT_EQ(x.tangents.size(), y.tangents.size()) << w;
        for (size_t v = 0; v < x.tangents.size(); ++v) {
            EXPECT_LE(glm::length(glm::vec3(x.tangents[v]) / glm::length(glm::vec3(x.tangents[v])) - glm::vec3(y.tangents[v])), 1e-6f)
                << w << " vertex " << v;
            EXPECT_EQ(x.tangents[v].w < 0.0f, y.tangents[v].w < 0.0f) << w << " vertex " << v;
        }
    }
}

rig::Model load(const std::string& path) {
    rig::Result<rig::Model> r = rig::importModel(path);
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : rig::Model{};
}

// `rigview export SOURCE` to .gltf and .glb in a fresh folder: both read back with the source's
// look, no warning printed, and the validator finds no error; warnings only as GltfExportValidator
// allows, and MESH_PRIMITIVE_GENERATED_TANGENT_SPACE (a normal map on a mesh without tangents, as
// in the source: viewers make the tangent frame, as rigview's renderer and three.js do). Returns
// the .glb's path.
std::string exportRoundTrip(const std::string& source, const std::string& name) {
    const rig::Model a = load(source);
    const std::string dir = rig::testing::tempDir();
    std::vector<std::string> files;
    for (const char* ext : {".gltf", ".glb"}) {
        const std::string out = dir + "/" + name + ext;
        const RunResult r = run(kExe, {"export", source, "-o", out});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.err, "") << out;
        expectSameLook(a, load(out), out);
        files.push_back(out);
    }
    rig::testing::exports::expectValid(files, {"MESH_PRIMITIVE_GENERATED_TANGENT_SPACE"});
    return files.back();
}

TEST(GltfExportMaterials, HandFilledMaterialsReadBack) {
    const std::string dir = rig::testing::tempDir();
    const rig::Model a = materialRig(dir);
    const std::string out = dir + "/rig.glb";
    std::string error;
    ASSERT_TRUE(rig::writeGltf(a, a.clips, out, rig::GltfExportOptions{true, false}, error)) << error;
    const rig::Model b = load(out);
    ASSERT_EQ(b.meshes.size(), 3u);
    expectSameMaterial(a, a.materials[0], b, b.materials[b.meshes[0].material], "mesh 0");
    expectSameMaterial(a, a.materials[1], b, b.materials[b.meshes[2].material], "mesh 2");
    const rig::Material& c = b.materials[b.meshes[1].material];  // its textures left out
    EXPECT_FALSE(c.baseColorTexture.present() || c.emissiveTexture.present());
    const glm::vec3 drawn = c.emissive * c.emissiveStrength;
    EXPECT_EQ(drawn, glm::vec3(2.0f, 1.0f, 0.0f));
}

// The material matrix (tools/make_material_matrix.py: every factor, texture slot, alpha mode,
// double-sided, texture transform, the second UV set, tangents), made here.
TEST(GltfExportMaterials, MaterialMatrixRoundTrips) {
    const std::string dir = rig::testing::tempDir();
    const RunResult r = run("/usr/bin/python3", {kSource + "/tools/make_material_matrix.py", dir});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    exportRoundTrip(dir + "/material_matrix.gltf", "matrix");
}

// Its embedded export exported again: the images embedded as "*N" are carried over too.
TEST(GltfExportMaterials, BoxTexturedRoundTrips) { exportRoundTrip(exportRoundTrip(kBox, "box"), "box_again"); }

// ClearCoatTest's "CoatNorm_Coated" has a clearcoat normal texture, no normal texture and no
// tangents, which the validator calls an error (MESH_PRIMITIVE_NO_TANGENT_SPACE) in the source
// itself: the export gives that mesh tangents made from its UVs (unit, perpendicular to the
// normal, w +-1), so the export has no error.
TEST(GltfExportMaterials, ClearCoatTestRoundTrips) {
    const std::string glb = exportRoundTrip(kModels + "glTF2/ClearCoat-glTF/ClearCoatTest.gltf", "clearcoat");
    const rig::Model b = load(glb);
    size_t withTangents = 0;
    for (const rig::Mesh& m : b.meshes) {
        const rig::Material& mat = b.materials[m.material];
        const bool needs = mat.clearcoatNormalTexture.present() && !mat.normalTexture.present();
        EXPECT_EQ(!m.tangents.empty(), needs) << m.name;
        if (!needs) continue;
        ++withTangents;
        ASSERT_EQ(m.tangents.size(), m.vertexCount());
        for (size_t v = 0; v < m.vertexCount(); ++v) {
            EXPECT_NEAR(glm::length(glm::vec3(m.tangents[v])), 1.0f, 1e-5f) << m.name << " " << v;
            EXPECT_NEAR(glm::dot(glm::vec3(m.tangents[v]), m.normals[v]), 0.0f, 1e-5f) << m.name << " " << v;
            EXPECT_EQ(std::fabs(m.tangents[v].w), 1.0f) << m.name << " " << v;
        }
    }
    EXPECT_EQ(withTangents, 1u);
}

// Materials of other formats (mapped onto the glTF model at import) keep every field through a
// glTF export: OBJ's converted diffuse/specular/shininess with JPEG textures beside the model,
// an FBX's.
TEST(GltfExportMaterials, OtherFormatsRoundTrip) {
    exportRoundTrip(kModels + "OBJ/spider.obj", "spider");
    exportRoundTrip(kModels + "FBX/huesitos.fbx", "huesitos");
}

// A texture outside the model's folder is never read: the export leaves it out with one
// warning line naming it, and still succeeds (no image in the file, which stays valid).
TEST(GltfExportMaterialsCli, ATextureOutsideTheFolderIsLeftOutWithAWarning) {
    const std::string dir = rig::testing::tempDir();
    std::filesystem::create_directories(dir + "/model");
    std::filesystem::copy_file(kModels + "glTF2/BoxTextured-glTF/BoxTextured0.bin", dir + "/model/BoxTextured0.bin");
    std::filesystem::copy_file(kLogo, dir + "/outside.png");
    json box = json::parse(slurp(kBox));
    box["images"][0]["uri"] = "../outside.png";
    std::ofstream(dir + "/model/box.gltf") << box.dump();
    const std::string out = dir + "/model/out.glb";
    const RunResult r = run(kExe, {"export", dir + "/model/box.gltf", "-o", out});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find(out + ": warning: left out material 'Texture' baseColor texture '../outside.png': not found beside "
                               "the model, or outside its folder (not read)"),
              std::string::npos)
        << r.err;
    const Written w = readWritten(out);
    EXPECT_FALSE(w.doc.contains("images"));
    EXPECT_FALSE(w.doc["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
    rig::testing::exports::expectValid({out});
}

}  // namespace
