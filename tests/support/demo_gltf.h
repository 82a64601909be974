// The bundled demo's glTF and its buffer, to edit in a test and write beside it as another
// version of the rig (diff_test's variants, the viewer's compare mode).
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>

namespace rig::testing {

struct DemoGltf {
    nlohmann::json doc;
    std::vector<uint8_t> bin;

    // Element `i` of accessor `a` (tightly packed or strided by its buffer view).
    uint8_t* element(int a, size_t i) {
        const nlohmann::json& acc = doc["accessors"][a];
        const nlohmann::json& view = doc["bufferViews"][acc["bufferView"].get<int>()];
        const size_t comp = acc["componentType"] == 5126 ? 4 : acc["componentType"] == 5123 ? 2 : 1;
        const std::string type = acc["type"];
        const size_t n = type == "SCALAR" ? 1 : type == "VEC2" ? 2 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : 16;
        const size_t stride = view.value("byteStride", comp * n);
        return bin.data() + view.value("byteOffset", 0) + acc.value("byteOffset", 0) + i * stride;
    }
    float* floats(int a, size_t i) { return reinterpret_cast<float*>(element(a, i)); }
    size_t count(int a) const { return doc["accessors"][a]["count"].get<size_t>(); }
    int node(const std::string& name) const {
        for (size_t i = 0; i < doc["nodes"].size(); ++i) {
            if (doc["nodes"][i].value("name", "") == name) return static_cast<int>(i);
        }
        return -1;
    }
    int attribute(const std::string& mesh, const std::string& attr) const {
        for (const nlohmann::json& m : doc["meshes"]) {
            if (m["name"] == mesh) return m["primitives"][0]["attributes"][attr].get<int>();
        }
        return -1;
    }
    int indices(const std::string& mesh) const {
        for (const nlohmann::json& m : doc["meshes"]) {
            if (m["name"] == mesh) return m["primitives"][0]["indices"].get<int>();
        }
        return -1;
    }
};

// `demoDir`/rigview_demo.gltf and its buffer.
inline DemoGltf loadDemoGltf(const std::string& demoDir) {
    DemoGltf g;
    std::ifstream in(demoDir + "/rigview_demo.gltf");
    g.doc = nlohmann::json::parse(in);
    std::ifstream bin(demoDir + "/" + g.doc["buffers"][0]["uri"].get<std::string>(), std::ios::binary);
    g.bin.assign(std::istreambuf_iterator<char>(bin), std::istreambuf_iterator<char>());
    return g;
}

// As `dir`/`name`.gltf with its buffer `name`.bin beside it (textures are not copied).
inline std::string writeGltf(DemoGltf g, const std::string& dir, const std::string& name) {
    g.doc["buffers"][0]["uri"] = name + ".bin";
    std::ofstream(dir + "/" + name + ".gltf") << g.doc.dump();
    std::ofstream(dir + "/" + name + ".bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(g.bin.data()), static_cast<std::streamsize>(g.bin.size()));
    return dir + "/" + name + ".gltf";
}

// The first skin bound with `joint` moved by `by` (metres, model space): its inverse bind
// matrix alone changes. False if the skin has no such joint.
inline bool moveBindPose(DemoGltf& g, const std::string& joint, const glm::vec3& by) {
    const nlohmann::json& skin = g.doc["skins"][0];
    const int node = g.node(joint);
    size_t slot = 0;
    while (slot < skin["joints"].size() && skin["joints"][slot].get<int>() != node) ++slot;
    if (slot == skin["joints"].size()) return false;
    float* m = g.floats(skin["inverseBindMatrices"].get<int>(), slot);
    const glm::mat4 ibm = glm::make_mat4(m) * glm::translate(glm::mat4(1.0f), -by);
    std::memcpy(m, glm::value_ptr(ibm), sizeof ibm);
    return true;
}

}  // namespace rig::testing
