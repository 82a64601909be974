// Materials, second UV sets and tangents from real files: the material matrix made by
// tools/make_material_matrix.py (each cell's material equal to what the generator wrote),
// the public ClearCoatTest and BoxTextured glTF models, and FBX / COLLADA / OBJ materials
// mapped onto the glTF model (docs/import.md, "Materials").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "import/import.h"
#include "import/gltf/materials.h"
#include "import/assimp/material_import.h"

namespace rig {
namespace {

const std::string kModels = "/usr/share/assimp/models/";

Model load(const std::string& path) {
    Result<Model> r = importModel(path);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : Model{};
}

// The material matrix, made once per run in the build folder.
const std::string& materialMatrix() {
    static const std::string path = [] {
        const std::string dir = std::string(RIGVIEW_TEST_BINARY_DIR) + "/material_matrix_import";
        const std::string cmd = std::string(RIGVIEW_PYTHON) + " \"" + RIGVIEW_SOURCE_DIR + "/tools/make_material_matrix.py\" \"" + dir +
                                "\" > /dev/null";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
        return dir + "/material_matrix.gltf";
    }();
    return path;
}

const Material& byName(const Model& m, const std::string& name) {
    for (const Material& mat : m.materials)
        if (mat.name == name) return mat;
    ADD_FAILURE() << "no material '" << name << "'";
    static const Material none;
    return none;
}

const Mesh& meshNamed(const Model& m, const std::string& name) {
    for (const Mesh& mesh : m.meshes)
        if (mesh.name == name) return mesh;
    ADD_FAILURE() << "no mesh '" << name << "'";
    static const Mesh none;
    return none;
}

void expectVec(const glm::vec4& a, const glm::vec4& b, const std::string& what) {
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], 1e-6f) << what << "[" << i << "]";
}
void expectVec(const glm::vec3& a, const glm::vec3& b, const std::string& what) { expectVec(glm::vec4(a, 0), glm::vec4(b, 0), what); }

void expectNoTexture(const Material& m, const std::set<std::string>& except = {}) {
    m.forEachTexture([&](const char* slot, const TextureRef& t) {
        if (!except.count(slot)) EXPECT_FALSE(t.present()) << m.name << " " << slot << ": " << t.path;
    });
}

// Default glTF texture reference fields (the generator's one sampler is glTF's defaults).
void expectPlainRef(const TextureRef& t, const std::string& path, const std::string& what) {
    EXPECT_EQ(t.path, path) << what;
    EXPECT_EQ(t.texCoord, 0) << what;
    EXPECT_FALSE(t.hasTransform()) << what;
    EXPECT_EQ(t.wrapS, 10497) << what;
    EXPECT_EQ(t.wrapT, 10497) << what;
    EXPECT_EQ(t.magFilter, 9729) << what;
    EXPECT_EQ(t.minFilter, 9987) << what;
}

TEST(Materials, MaterialMatrixSweepIsWhatTheGeneratorWrote) {
    const Model m = load(materialMatrix());
    const float metals[] = {0.0f, 0.5f, 1.0f}, roughs[] = {0.1f, 0.5f, 0.9f};
    const char* metalNames[] = {"0", "0.5", "1"};
    const char* roughNames[] = {"0.1", "0.5", "0.9"};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            const std::string name = std::string("metal") + metalNames[r] + "_rough" + roughNames[c];
            const Material& mat = byName(m, name);
            EXPECT_EQ(mat.origin, "glTF metallic-roughness") << name;
            expectVec(mat.baseColor, {0.9f, 0.55f, 0.3f, 1.0f}, name);
            EXPECT_FLOAT_EQ(mat.metallic, metals[r]) << name;
            EXPECT_FLOAT_EQ(mat.roughness, roughs[c]) << name;
            expectVec(mat.emissive, glm::vec3(0.0f), name);
            EXPECT_EQ(mat.alphaMode, AlphaMode::Opaque) << name;
            EXPECT_FALSE(mat.doubleSided) << name;
            EXPECT_FALSE(mat.unlit) << name;
            EXPECT_EQ(mat.clearcoat, 0.0f) << name;
            expectNoTexture(mat);
        }
    }
    const Material& bar = byName(m, "bar");
    expectVec(bar.baseColor, {0.1f, 0.3f, 0.9f, 1.0f}, "bar");
    EXPECT_FLOAT_EQ(bar.roughness, 0.6f);
}

TEST(Materials, MaterialMatrixTextureCellsAreWhatTheGeneratorWrote) {
    const Model m = load(materialMatrix());
    const glm::vec4 grey(0.8f, 0.8f, 0.8f, 1.0f);

    const Material& normal = byName(m, "normal_map");
    expectVec(normal.baseColor, grey, "normal_map");
    EXPECT_FLOAT_EQ(normal.roughness, 0.4f);
    expectPlainRef(normal.normalTexture, "normal_bumps.png", "normal_map");
    EXPECT_FLOAT_EQ(normal.normalScale, 1.0f);
    expectNoTexture(normal, {"normal"});

    const Material& occ = byName(m, "occlusion");
    expectPlainRef(occ.occlusionTexture, "occlusion_stripes.png", "occlusion");
    EXPECT_FLOAT_EQ(occ.occlusionStrength, 1.0f);
    expectNoTexture(occ, {"occlusion"});

    const Material& em = byName(m, "emissive");
    expectVec(em.baseColor, {0.1f, 0.1f, 0.1f, 1.0f}, "emissive");
    EXPECT_FLOAT_EQ(em.roughness, 0.5f);
    expectPlainRef(em.emissiveTexture, "emissive_dots.png", "emissive");
    expectVec(em.emissive, {1.0f, 0.45f, 0.1f}, "emissive");
    EXPECT_FLOAT_EQ(em.emissiveStrength, 4.0f);  // KHR_materials_emissive_strength: Assimp 5.2.5 drops it
    expectNoTexture(em, {"emissive"});

    const std::map<std::string, AlphaMode> modes{
        {"alpha_opaque", AlphaMode::Opaque}, {"alpha_mask", AlphaMode::Mask}, {"alpha_blend", AlphaMode::Blend}};
    for (const auto& [name, mode] : modes) {
        const Material& a = byName(m, name);
        EXPECT_EQ(a.alphaMode, mode) << name;
        EXPECT_FLOAT_EQ(a.alphaCutoff, 0.5f) << name;
        expectVec(a.baseColor, glm::vec4(1.0f), name);  // glTF's default factor
        EXPECT_FLOAT_EQ(a.metallic, 0.0f) << name;
        EXPECT_FLOAT_EQ(a.roughness, 0.5f) << name;
        expectPlainRef(a.baseColorTexture, "checker_alpha.png", name);
        expectNoTexture(a, {"baseColor"});
    }

    EXPECT_TRUE(byName(m, "double_sided").doubleSided);
    EXPECT_FALSE(byName(m, "single_sided").doubleSided);
    expectPlainRef(byName(m, "double_sided").baseColorTexture, "uv_grid.png", "double_sided");

    const TextureRef& tt = byName(m, "texture_transform").baseColorTexture;
    EXPECT_EQ(tt.path, "uv_grid.png");
    EXPECT_EQ(tt.texCoord, 0);
    EXPECT_FLOAT_EQ(tt.offset.x, 0.25f);
    EXPECT_FLOAT_EQ(tt.offset.y, 0.1f);
    EXPECT_FLOAT_EQ(tt.rotation, 0.3f);
    EXPECT_FLOAT_EQ(tt.scale.x, 1.5f);
    EXPECT_FLOAT_EQ(tt.scale.y, 1.5f);

    const TextureRef& uv1 = byName(m, "texcoord1").baseColorTexture;
    EXPECT_EQ(uv1.path, "uv_grid.png");
    EXPECT_EQ(uv1.texCoord, 1);  // Assimp 5.2.5 reports UV source 0
    EXPECT_FALSE(uv1.hasTransform());
}

TEST(Materials, MaterialMatrixMeshesKeepTheSecondUvSetAndTheFileTangents) {
    const Model m = load(materialMatrix());
    for (const Mesh& mesh : m.meshes) {
        ASSERT_EQ(mesh.uvs1.size(), mesh.vertexCount()) << mesh.name;
        // Only the normal-map sphere has TANGENT: nothing is generated for the others.
        EXPECT_EQ(mesh.tangents.empty(), mesh.name != "normal_map") << mesh.name;
    }
    // The quad's TEXCOORD_1 is TEXCOORD_0 turned 90 degrees: (1 - v, u) in the file. Both sets
    // come with V flipped (Assimp's convention, v' = 1 - v, as for every format): (v', 1 - u).
    const Mesh& quad = meshNamed(m, "texcoord1");
    for (size_t v = 0; v < quad.vertexCount(); ++v) {
        EXPECT_NEAR(quad.uvs1[v].x, quad.uvs[v].y, 1e-6f);
        EXPECT_NEAR(quad.uvs1[v].y, 1.0f - quad.uvs[v].x, 1e-6f);
    }
    // The sphere's tangent is dP/du: (cos phi, 0, -sin phi) where the normal is
    // (sin th sin phi, cos th, sin th cos phi); w = +1.
    const Mesh& sphere = meshNamed(m, "normal_map");
    ASSERT_EQ(sphere.tangents.size(), sphere.vertexCount());
    size_t checked = 0;
    for (size_t v = 0; v < sphere.vertexCount(); ++v) {
        const glm::vec3 n = sphere.normals[v];
        const float s = std::sqrt(n.x * n.x + n.z * n.z);
        if (s < 0.1f) continue;  // poles: phi undefined
        const glm::vec3 expected(n.z / s, 0.0f, -n.x / s);
        EXPECT_NEAR(glm::length(glm::vec3(sphere.tangents[v]) - expected), 0.0f, 1e-4f) << "vertex " << v;
        EXPECT_EQ(sphere.tangents[v].w, 1.0f) << "vertex " << v;
        ++checked;
    }
    EXPECT_GT(checked, 500u);
}

// A tangent whose w is -1 in the file (a mirrored UV layout) keeps its sign through Assimp's
// bitangent.
TEST(Materials, TangentSignSurvivesAssimpsBitangent) {
    const std::string dir = std::string(RIGVIEW_TEST_BINARY_DIR) + "/material_matrix_mirrored";
    std::filesystem::create_directories(dir);
    const std::string src = std::filesystem::path(materialMatrix()).parent_path().string();
    const std::string cmd = std::string(RIGVIEW_PYTHON) + " -c \"import json,struct,sys;d=sys.argv[1];s=sys.argv[2];"
                            "j=json.load(open(s+'/material_matrix.gltf'));b=bytearray(open(s+'/material_matrix.bin','rb').read());"
                            "a=[j['accessors'][p['attributes']['TANGENT']] for m in j['meshes'] for p in m['primitives'] if 'TANGENT' in p['attributes']][0];"
                            "v=j['bufferViews'][a['bufferView']];o=v['byteOffset']\n"
                            "for i in range(a['count']): struct.pack_into('<f',b,o+16*i+12,-1.0)\n"
                            "open(d+'/material_matrix.bin','wb').write(b);json.dump(j,open(d+'/material_matrix.gltf','w'))\" \"" +
                            dir + "\" \"" + src + "\"";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const Model m = load(dir + "/material_matrix.gltf");
    const Mesh& sphere = meshNamed(m, "normal_map");
    ASSERT_EQ(sphere.tangents.size(), sphere.vertexCount());
    for (const glm::vec4& t : sphere.tangents) EXPECT_EQ(t.w, -1.0f);
}

TEST(Materials, ClearCoatTestGivesTheClearcoatExtension) {
    const Model m = load(kModels + "glTF2/ClearCoat-glTF/ClearCoatTest.gltf");
    const Material& coated = byName(m, "Simple_Coated");
    EXPECT_FLOAT_EQ(coated.clearcoat, 1.0f);
    EXPECT_FLOAT_EQ(coated.clearcoatRoughness, 0.03f);
    EXPECT_EQ(byName(m, "Simple_Base").clearcoat, 0.0f);
    const Material& partial = byName(m, "Partial_Coated");
    EXPECT_EQ(partial.clearcoatTexture.path, "PartialCoating.png");
    const Material& rough = byName(m, "RoughVariations_Coated");
    EXPECT_FLOAT_EQ(rough.clearcoatRoughness, 1.0f);
    EXPECT_EQ(rough.clearcoatRoughnessTexture.path, "RoughnessStripes.png");
    const Material& coatNorm = byName(m, "CoatNorm_Coated");
    EXPECT_EQ(coatNorm.clearcoatNormalTexture.path, "PlasticWrap_normals.jpg");  // texture 5 -> image 4
    EXPECT_FALSE(coatNorm.normalTexture.present());
    EXPECT_EQ(byName(m, "BaseNorm_Base").normalTexture.path, "RibsNormal.png");
    EXPECT_EQ(byName(m, "BaseNorm_Coated").normalTexture.path, "RibsNormal.png");  // texture 4 -> image 3
    EXPECT_EQ(byName(m, "RoughVariations_Coating").metallicRoughnessTexture.path, "RoughnessStripes.png");
    const Material& coating = byName(m, "Partial_Coating");
    EXPECT_EQ(coating.alphaMode, AlphaMode::Blend);
    EXPECT_EQ(coating.baseColorTexture.path, "PartialCoating_Alpha.png");
    const Material& label = byName(m, "LabelMaterial");
    expectVec(label.emissive, glm::vec3(1.0f), "LabelMaterial");
    EXPECT_EQ(label.emissiveTexture.path, "ClearCoatLabels.png");
    EXPECT_FLOAT_EQ(label.roughness, 0.9f);
    for (const Material& mat : m.materials) {
        if (mat.name.empty()) continue;  // Assimp's default material, used by no mesh
        EXPECT_EQ(mat.origin, "glTF metallic-roughness") << mat.name;
    }
}

TEST(Materials, BoxTexturedSamplerAndEmbeddedImages) {
    // The sampler of BoxTextured: LINEAR / LINEAR_MIPMAP_NEAREST; the .gltf with a separate image
    // also MIRRORED_REPEAT x CLAMP_TO_EDGE (the embedded and binary ones REPEAT).
    for (const std::string rel : {"glTF2/BoxTextured-glTF/BoxTextured.gltf", "glTF2/BoxTextured-glTF-Embedded/BoxTextured.gltf",
                                  "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"}) {
        const Model m = load(kModels + rel);
        const Material& mat = byName(m, "Texture");
        const TextureRef& t = mat.baseColorTexture;
        const bool separate = rel.find("BoxTextured-glTF/") != std::string::npos;
        EXPECT_EQ(t.wrapS, separate ? 33648 : 10497) << rel;
        EXPECT_EQ(t.wrapT, separate ? 33071 : 10497) << rel;
        EXPECT_EQ(t.magFilter, 9729) << rel;
        EXPECT_EQ(t.minFilter, 9986) << rel;
        EXPECT_FLOAT_EQ(mat.metallic, 0.0f) << rel;
        EXPECT_FLOAT_EQ(mat.roughness, 1.0f) << rel;
        EXPECT_EQ(mat.origin, "glTF metallic-roughness") << rel;
        if (separate) {
            EXPECT_EQ(t.path, "CesiumLogoFlat.png");
        } else {
            EXPECT_EQ(t.path, "*0") << rel;  // embedded: Assimp's reference to model.textures
            ASSERT_EQ(m.textures.size(), 1u) << rel;
        }
    }
}

TEST(Materials, ShininessConversion) {
    EXPECT_FLOAT_EQ(scene::roughnessFromShininess(0.0f), 1.0f);
    EXPECT_FLOAT_EQ(scene::roughnessFromShininess(-3.0f), 1.0f);
    EXPECT_FLOAT_EQ(scene::roughnessFromShininess(6.0f), std::sqrt(0.5f));  // alpha sqrt(2/8) = 0.5
    EXPECT_NEAR(scene::roughnessFromShininess(30.0f), std::pow(2.0f / 32.0f, 0.25f), 1e-6f);
    EXPECT_LT(scene::roughnessFromShininess(1000.0f), 0.25f);
    EXPECT_NEAR(scene::srgbToLinear(0.5f), 0.2140411f, 1e-6f);
}

// FBX (phong_cube.fbx: diffuse 0.5/0.25/0.25, emissive 0.25/0.125/0.25, shininess 10,
// opacity 0.5) mapped by the documented conversion.
TEST(Materials, FbxPhongIsConverted) {
    const Model m = load(kModels + "FBX/phong_cube.fbx");
    const Material& mat = byName(m, "phong1");
    EXPECT_EQ(mat.origin, "converted from diffuse/specular/shininess");
    expectVec(mat.baseColor, {scene::srgbToLinear(0.5f), scene::srgbToLinear(0.25f), scene::srgbToLinear(0.25f), 0.5f}, "phong1");
    EXPECT_EQ(mat.alphaMode, AlphaMode::Blend);  // opacity below 1
    EXPECT_FLOAT_EQ(mat.metallic, 0.0f);
    EXPECT_NEAR(mat.roughness, std::pow(2.0f / 12.0f, 0.25f), 1e-6f);  // not Assimp's own 1 - sqrt(10)/10
    expectVec(mat.emissive, {scene::srgbToLinear(0.25f), scene::srgbToLinear(0.125f), scene::srgbToLinear(0.25f)}, "phong1");
}

// FBX PBR material (3ds Max Physical): its texture slots land in the glTF model's slots; an
// emissive colour above 1 becomes a unit factor times a strength.
TEST(Materials, FbxPbrTexturesMapToSlots) {
    const Model m = load(kModels + "FBX/maxPbrMaterial_metalRough.fbx");
    const Material& mat = byName(m, "PBR Material");
    EXPECT_EQ(mat.baseColorTexture.path, "Textures\\albedo.png");
    EXPECT_EQ(mat.normalTexture.path, "Textures\\normal.png");
    EXPECT_EQ(mat.emissiveTexture.path, "Textures\\emission.png");
    EXPECT_EQ(mat.occlusionTexture.path, "Textures\\occlusion.png");
    EXPECT_NEAR(mat.emissiveStrength, scene::srgbToLinear(3.14159f), 1e-3f);
    EXPECT_FLOAT_EQ(mat.emissive.r, 1.0f);
    EXPECT_FLOAT_EQ(mat.emissive.b, 0.0f);
    // The 3ds Max PBR parameters (raw FBX properties in Assimp 5.2.5).
    EXPECT_EQ(mat.origin, "PBR keys (3ds Max)");
    EXPECT_FLOAT_EQ(mat.metallic, 0.25f);
    EXPECT_FLOAT_EQ(mat.roughness, 0.5f);
    expectVec(mat.baseColor, {0.0f, 1.0f, 1.0f, 1.0f}, "PBR Material");
    EXPECT_FLOAT_EQ(mat.normalScale, 0.75f);

    const Model sg = load(kModels + "FBX/maxPbrMaterial_specGloss.fbx");
    const Material& gloss = sg.materials.at(0);
    EXPECT_EQ(gloss.origin, "PBR keys (3ds Max)");
    EXPECT_FLOAT_EQ(gloss.metallic, 0.0f);
    EXPECT_FLOAT_EQ(gloss.roughness, 1.0f - 0.33f);  // glossiness 0.33
    EXPECT_FLOAT_EQ(gloss.normalScale, 0.66f);
}

TEST(Materials, ColladaAndObjAreConverted) {
    const Model duck = load(kModels + "Collada/duck.dae");
    const Material& blinn = byName(duck, "blinn3");
    EXPECT_EQ(blinn.origin, "converted from diffuse/specular/shininess");
    EXPECT_EQ(blinn.baseColorTexture.path, "./duckCM.tga");
    EXPECT_EQ(blinn.baseColorTexture.wrapS, 10497);
    EXPECT_FALSE(blinn.doubleSided);
    EXPECT_NEAR(blinn.roughness, scene::roughnessFromShininess(0.3f), 1e-6f);
    EXPECT_EQ(blinn.alphaMode, AlphaMode::Opaque);

    const Model spider = load(kModels + "OBJ/spider.obj");  // spider.mtl beside it
    const Material& skin = byName(spider, "Skin");
    EXPECT_EQ(skin.origin, "converted from diffuse/specular/shininess");
    expectVec(skin.baseColor,
              {scene::srgbToLinear(0.827451f), scene::srgbToLinear(0.792157f), scene::srgbToLinear(0.772549f), 1.0f}, "Skin");
    EXPECT_EQ(skin.baseColorTexture.path, ".\\wal67ar_small.jpg");
    EXPECT_FLOAT_EQ(skin.roughness, 1.0f);  // shininess 0: no highlight
}

// The JSON reading on its own: Assimp's materials in another order than the file's (Assimp
// orders them by first use), KHR_materials_unlit, a KHR_texture_transform texCoord that
// overrides the textureInfo's, a sampler's filters, a texture index out of range (the slot
// is cleared) and a material that matches no JSON material (kept as Assimp gave it).
TEST(Materials, GltfJsonOverlayMatchesByNameAndFactors) {
    const nlohmann::json gltf = nlohmann::json::parse(R"({
      "samplers": [{"magFilter": 9728, "minFilter": 9984, "wrapS": 33071}],
      "images": [{"uri": "a.png"}, {"uri": "data:image/png;base64,AAAA"}],
      "textures": [{"source": 0, "sampler": 0}, {"source": 1}],
      "materials": [
        {"name": "first", "pbrMetallicRoughness": {"metallicFactor": 0.0},
         "extensions": {"KHR_materials_unlit": {}}},
        {"name": "second", "pbrMetallicRoughness": {"roughnessFactor": 0.5,
           "baseColorTexture": {"index": 0, "texCoord": 0,
             "extensions": {"KHR_texture_transform": {"texCoord": 1, "scale": [2, 3]}}}},
         "occlusionTexture": {"index": 7}, "normalTexture": {"index": 1, "scale": 0.25}}
      ]})");
    std::vector<Material> mats(3);
    mats[0].name = "second";  // Assimp met "second" first
    mats[0].baseColor = glm::vec4(1.0f);
    mats[0].metallic = 1.0f;
    mats[0].roughness = 0.5f;
    mats[0].baseColorTexture.path = "a.png";
    mats[0].occlusionTexture.path = "b.png";
    mats[0].normalTexture.path = "*0";
    mats[1].name = "first";
    mats[1].baseColor = glm::vec4(1.0f);
    mats[1].metallic = 0.0f;
    mats[1].roughness = 1.0f;
    mats[2].name = "third";  // in no JSON material: left as it is
    mats[2].origin = "PBR keys";
    gltf::applyMaterials(gltf, mats);
    EXPECT_EQ(mats[0].origin, "glTF metallic-roughness");
    const TextureRef& t = mats[0].baseColorTexture;
    EXPECT_EQ(t.path, "a.png");
    EXPECT_EQ(t.texCoord, 1);  // the extension's texCoord wins
    EXPECT_EQ(t.scale, glm::vec2(2.0f, 3.0f));
    EXPECT_EQ(t.magFilter, 9728);
    EXPECT_EQ(t.minFilter, 9984);
    EXPECT_EQ(t.wrapS, 33071);
    EXPECT_EQ(t.wrapT, 10497);
    EXPECT_FALSE(mats[0].occlusionTexture.present());  // texture 7 does not exist
    EXPECT_EQ(mats[0].normalTexture.path, "*0");        // Assimp's embedded reference is kept
    EXPECT_FLOAT_EQ(mats[0].normalScale, 0.25f);
    EXPECT_EQ(mats[0].normalTexture.magFilter, 9729);   // no sampler: the defaults
    EXPECT_FALSE(mats[0].unlit);
    EXPECT_TRUE(mats[1].unlit);
    EXPECT_EQ(mats[1].origin, "glTF metallic-roughness");
    EXPECT_EQ(mats[2].origin, "PBR keys");
}

// An OBJ material with the PBR extension (Pm, Pr) takes Assimp's PBR keys as they are.
TEST(Materials, ObjPbrExtensionGivesPbrKeys) {
    const std::string dir = std::string(RIGVIEW_TEST_BINARY_DIR) + "/material_obj_pbr";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/a.mtl") << "newmtl m\nKd 1 0.5 0\nPm 0.7\nPr 0.2\nd 0.25\nmap_Kd skin.png\nnorm skin_n.png\n";
    std::ofstream(dir + "/a.obj") << "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n";
    const Model m = load(dir + "/a.obj");
    const Material& mat = byName(m, "m");
    EXPECT_EQ(mat.origin, "PBR keys");
    EXPECT_FLOAT_EQ(mat.metallic, 0.7f);
    EXPECT_FLOAT_EQ(mat.roughness, 0.2f);
    EXPECT_FLOAT_EQ(mat.baseColor.g, 0.5f);
    EXPECT_FLOAT_EQ(mat.baseColor.a, 0.25f);  // d 0.25
    EXPECT_EQ(mat.alphaMode, AlphaMode::Blend);
    EXPECT_EQ(mat.baseColorTexture.path, "skin.png");
    EXPECT_EQ(mat.normalTexture.path, "skin_n.png");
}

}  // namespace
}  // namespace rig
