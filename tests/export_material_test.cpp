// glTF export of materials (import/gltf_export_material.h): every Material field written as the
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
#include "import/gltf_export.h"
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
// materials covering every field; model.path in a fresh folder holding "mr.png", an image
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

}  // namespace
