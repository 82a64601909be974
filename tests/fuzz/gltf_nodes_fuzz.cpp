// libFuzzer target for rigview's own reading of glTF JSON (src/import/gltf/nodes and keys, on the file's gltf::Document):
// the node tree walked beside the skeleton, skins, animation targets, accessor bounds, base64
// buffers and key values, and the STEP marking. The input is a .gltf's text; a skeleton is
// built from it the way Assimp 5.2.5 builds its tree (scene roots, "ROOT" over several,
// children in order), so well-formed inputs reach every reader. Beyond "no crash, hang or
// leak" it checks that every index handed back is in range (a broken one aborts).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "import/gltf/document.h"
#include "import/gltf/keys.h"
#include "import/gltf/nodes.h"

namespace {

using nlohmann::json;

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "gltf_nodes_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

std::string nameOf(const json& nodes, size_t n) {
    if (n < nodes.size() && nodes[n].is_object() && nodes[n].contains("name") && nodes[n]["name"].is_string() &&
        !nodes[n]["name"].get<std::string>().empty()) {
        return nodes[n]["name"].get<std::string>();
    }
    return "nodes[" + std::to_string(n) + "]";
}

// The skeleton Assimp would build (bounded: no node visited twice, at most 4096 nodes).
rig::Skeleton skeletonOf(const json& doc) {
    rig::Skeleton sk;
    if (!doc.is_object() || !doc.contains("nodes") || !doc["nodes"].is_array() || !doc.contains("scenes") ||
        !doc["scenes"].is_array() || doc["scenes"].empty() || !doc["scenes"][0].is_object() ||
        !doc["scenes"][0].contains("nodes") || !doc["scenes"][0]["nodes"].is_array()) {
        return sk;
    }
    const json& nodes = doc["nodes"];
    const json& roots = doc["scenes"][0]["nodes"];
    std::vector<uint8_t> seen(nodes.size(), 0);
    struct Item { size_t json; int32_t parent; };
    std::vector<Item> stack;
    auto push = [&](const json& list, int32_t parent) {
        for (size_t k = list.size(); k-- > 0;)
            if (list[k].is_number_unsigned() && list[k].get<size_t>() < nodes.size()) stack.push_back({list[k].get<size_t>(), parent});
    };
    if (roots.size() != 1) {
        sk.names.push_back("ROOT");
        sk.parent.push_back(-1);
        push(roots, 0);
    } else {
        push(roots, -1);
    }
    while (!stack.empty() && sk.size() < 4096) {
        const Item it = stack.back();
        stack.pop_back();
        if (seen[it.json]) continue;
        seen[it.json] = 1;
        const int32_t index = static_cast<int32_t>(sk.size());
        sk.names.push_back(nameOf(nodes, it.json));
        sk.parent.push_back(it.parent);
        if (nodes[it.json].is_object() && nodes[it.json].contains("children") && nodes[it.json]["children"].is_array())
            push(nodes[it.json]["children"], index);
    }
    sk.bindLocal.assign(sk.size(), glm::mat4(1.0f));
    sk.bindLocalSqt.assign(sk.size(), rig::Transform{});
    sk.computeBindModel();
    return sk;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = "fuzz.gltf";
    const json doc = json::parse(data, data + size, nullptr, false);
    rig::Model model;
    model.skeleton = skeletonOf(doc);
    const size_t n = model.skeleton.size();
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const rig::gltf::Document document(path, bytes);
    const rig::gltf::Nodes g = rig::gltf::readNodes(document, model.skeleton);
    if (g.valid) {
        require(g.jsonOfNode.size() == n, "jsonOfNode size");
        for (int32_t v : g.nodeOfJson) require(v >= -1 && v < static_cast<int32_t>(n), "nodeOfJson out of range");
        for (const auto& joints : g.skinJoints)
            for (int32_t v : joints) require(v >= -1 && v < static_cast<int32_t>(n), "skin joint out of range");
        for (const auto& targets : g.animationTargets)
            for (const auto& t : targets) require(t.node >= 0 && t.node < static_cast<int32_t>(n), "target out of range");
        // One clip per animation with a track on every node, so STEP marking reaches its writes.
        for (size_t a = 0; a < g.animationTargets.size(); ++a) {
            rig::Clip clip;
            clip.trackOfNode.assign(n, -1);
            model.clips.push_back(std::move(clip));
        }
    }
    rig::gltf::applyStepInterpolation(document, g, model);
    return 0;
}
