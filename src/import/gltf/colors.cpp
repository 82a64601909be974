#include "import/gltf/colors.h"

#include <vector>

#include "import/gltf/accessors.h"

namespace rig::gltf {

int applyColorAlpha(const Document& document, const Nodes& nodes, Model& model) {
    if (!document.valid() || !nodes.valid) return 0;
    const json& doc = document.json();
    const auto gltfNodes = doc.find("nodes"), meshes = doc.find("meshes"), accessors = doc.find("accessors");
    if (gltfNodes == doc.end() || meshes == doc.end() || accessors == doc.end() || !gltfNodes->is_array() ||
        !meshes->is_array() || !accessors->is_array()) {
        return 0;
    }
    int set = 0;
    for (size_t n = 0; n < gltfNodes->size() && n < nodes.nodeOfJson.size(); ++n) {
        const int32_t node = nodes.nodeOfJson[n];
        const size_t gm = unsignedOr((*gltfNodes)[n], "mesh", SIZE_MAX);
        if (node < 0 || gm >= meshes->size() || !(*meshes)[gm].is_object()) continue;
        const json& prims = (*meshes)[gm].contains("primitives") ? (*meshes)[gm]["primitives"] : json();
        if (!prims.is_array()) continue;
        // The primitives Assimp turns into triangle meshes (the others are dropped), in order:
        // whether each has a VEC3 COLOR_0.
        std::vector<bool> rgb;
        for (const json& p : prims) {
            const size_t mode = unsignedOr(p, "mode", 4);
            if (mode < 4 || mode > 6) continue;
            bool vec3 = false;
            if (p.is_object() && p.contains("attributes") && p["attributes"].is_object()) {
                const size_t a = unsignedOr(p["attributes"], "COLOR_0", SIZE_MAX);
                vec3 = a < accessors->size() && (*accessors)[a].is_object() && (*accessors)[a].value("type", "") == "VEC3";
            }
            rgb.push_back(vec3);
        }
        std::vector<Mesh*> mine;
        for (Mesh& m : model.meshes)
            if (m.node == node) mine.push_back(&m);
        if (mine.size() != rgb.size()) continue;
        for (size_t i = 0; i < mine.size(); ++i) {
            if (!rgb[i] || mine[i]->colors.empty()) continue;
            for (glm::vec4& c : mine[i]->colors) c.a = 1.0f;
            ++set;
        }
    }
    return set;
}

}  // namespace rig::gltf
