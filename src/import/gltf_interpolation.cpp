#include "import/gltf_interpolation.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

namespace rig {

namespace {

using nlohmann::json;

bool readJson(const std::string& bytes, bool glb, json& out) {
    std::string text;
    if (glb) {
        // Header (magic, version, length) then chunk 0: length, type "JSON", data.
        if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return false;
        uint32_t len = 0;
        std::memcpy(&len, bytes.data() + 12, 4);
        if (bytes.compare(16, 4, "JSON") != 0 || 20ull + len > bytes.size()) return false;
        text = bytes.substr(20, len);
    } else {
        text = bytes;
    }
    out = json::parse(text, nullptr, /*allow_exceptions=*/false);
    return !out.is_discarded() && out.is_object();
}

// The name Assimp gives glTF node n: its "name", or "nodes[n]" when it has none.
std::string nodeName(const json& nodes, size_t n) {
    if (n < nodes.size() && nodes[n].is_object() && nodes[n].contains("name") && nodes[n]["name"].is_string()) {
        const std::string name = nodes[n]["name"].get<std::string>();
        if (!name.empty()) return name;
    }
    return "nodes[" + std::to_string(n) + "]";
}

}  // namespace

int applyGltfStepInterpolation(const std::string& path, Model& model) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".gltf" && ext != ".glb") return 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) return 0;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return applyGltfStepInterpolationToBytes(bytes, ext == ".glb", model);
}

int applyGltfStepInterpolationToBytes(const std::string& bytes, bool glb, Model& model) {
    json doc;
    if (!readJson(bytes, glb, doc)) return 0;
    const json& anims = doc.contains("animations") ? doc["animations"] : json();
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    if (!anims.is_array() || !nodes.is_array() || anims.size() != model.clips.size()) return 0;
    int marked = 0;
    for (size_t a = 0; a < anims.size(); ++a) {
        const json& an = anims[a];
        if (!an.is_object() || !an.contains("channels") || !an.contains("samplers")) continue;
        const json& channels = an["channels"];
        const json& samplers = an["samplers"];
        if (!channels.is_array() || !samplers.is_array()) continue;
        Clip& clip = model.clips[a];
        for (const json& ch : channels) {
            if (!ch.is_object() || !ch.contains("sampler") || !ch.contains("target")) continue;
            const json& s = ch["sampler"];
            const json& target = ch["target"];
            if (!s.is_number_unsigned() || s.get<size_t>() >= samplers.size()) continue;
            const json& sampler = samplers[s.get<size_t>()];
            if (!sampler.is_object() || !sampler.contains("interpolation") || sampler["interpolation"] != "STEP") continue;
            if (!target.is_object() || !target.contains("node") || !target["node"].is_number_unsigned()) continue;
            const int32_t node = model.skeleton.find(nodeName(nodes, target["node"].get<size_t>()));
            if (node < 0 || static_cast<size_t>(node) >= clip.trackOfNode.size() || clip.trackOfNode[node] < 0) continue;
            Track& tr = clip.tracks[clip.trackOfNode[node]];
            const std::string p = target.contains("path") && target["path"].is_string() ? target["path"].get<std::string>() : "";
            Channel* c = p == "translation" ? &tr.translation : p == "rotation" ? &tr.rotation : p == "scale" ? &tr.scale : nullptr;
            if (!c || !c->count) continue;
            c->interpolation = Interpolation::Step;
            ++marked;
        }
    }
    return marked;
}

}  // namespace rig
