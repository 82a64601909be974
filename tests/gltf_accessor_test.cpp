// glTF accessors against what their uses allow (import/gltf/ranges), before Assimp 5.2.5 reads
// them into elements of its own size: a one-triangle file with one accessor changed at a time.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "import/import.h"

namespace rig {
namespace {

// A triangle (POSITION accessor 0) with COLOR_0 (accessor 1) given as `colorType`
// componentType `colorComponent`, and `extraAccessor0` spliced into accessor 0.
std::string writeTriangle(const std::string& name, const std::string& accessor0Extra, const std::string& colorType = "VEC3") {
    const std::string path = ::testing::TempDir() + "/" + name + ".gltf";
    std::ofstream f(path);
    f << R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0,"COLOR_0":1}}]}],
"buffers":[{"byteLength":72,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/"}],
"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3")"
      << accessor0Extra << R"(},
{"bufferView":1,"componentType":5126,"count":)" << (colorType == "VEC3" ? 3 : 2) << R"(,"type":")" << colorType << R"("}]})";
    return path;
}

TEST(GltfAccessors, Vec3ColoursReadOpaque) {
    // Assimp reads RGB into RGBA and leaves alpha uninitialised; glTF's RGB is opaque.
    Result<Model> m = importModel(writeTriangle("rgb", ""));
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->meshes.size(), 1u);
    ASSERT_EQ(m->meshes[0].colors.size(), 3u);
    for (const glm::vec4& c : m->meshes[0].colors) EXPECT_EQ(c.a, 1.0f);
    EXPECT_EQ(m->meshes[0].colors[0].r + m->meshes[0].colors[1].g + m->meshes[0].colors[2].b, 3.0f);
}

TEST(GltfAccessors, UsesTheSpecificationDoesNotAllowAreRefusedNamingTheAccessor) {
    struct Case {
        const char* name;
        std::string extra;
        std::string message;
    };
    const Case cases[] = {
        {"pos_ubyte", R"(,"componentType":5121)", "accessors[0] (POSITION of meshes[0].primitives[0]) is VEC3 UNSIGNED_BYTE; glTF 2.0 allows VEC3 FLOAT"},
        {"pos_norm_float", R"(,"normalized":true)", "accessors[0] is normalized FLOAT; glTF 2.0 normalizes only BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT"},
        {"pos_norm_text", R"(,"normalized":1)", "accessors[0].normalized is not true or false"},
    };
    for (const Case& c : cases) {
        const std::string path = writeTriangle(c.name, c.extra);
        Result<Model> m = importModel(path);
        ASSERT_FALSE(m) << c.name;
        EXPECT_EQ(m.error().message, path + ": " + c.message + " (refused before import)") << c.name;
    }
    // A colour of two components is no colour glTF allows.
    const std::string vec2 = writeTriangle("color_vec2", "", "VEC2");
    Result<Model> m = importModel(vec2);
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("accessors[1] (COLOR_0 of meshes[0].primitives[0]) is VEC2 FLOAT; glTF 2.0 allows VEC3 or VEC4 "
                                     "FLOAT, UNSIGNED_BYTE normalized or UNSIGNED_SHORT normalized"),
              std::string::npos)
        << m.error().message;
}

}  // namespace
}  // namespace rig
