#include "import/gltf/nodes.h"

#include <algorithm>

#include "import/gltf/accessors.h"

namespace rig::gltf {

namespace {

// Pair glTF node indices with skeleton nodes by walking both trees (see Nodes).
bool mapNodes(const json& doc, const Skeleton& sk, Nodes& out) {
    const json& nodes = doc.contains("nodes") ? doc["nodes"] : json();
    const json& scenes = doc.contains("scenes") ? doc["scenes"] : json();
    if (!nodes.is_array() || !scenes.is_array() || scenes.empty() || sk.size() == 0) return false;
    size_t si = 0;
    if (doc.contains("scene") && doc["scene"].is_number_unsigned()) si = doc["scene"].get<size_t>();
    if (si >= scenes.size() || !scenes[si].is_object() || !scenes[si].contains("nodes")) return false;
    const json& roots = scenes[si]["nodes"];
    if (!roots.is_array() || roots.empty()) return false;
    std::vector<std::vector<int32_t>> children(sk.size());
    for (size_t i = 0; i < sk.size(); ++i) {
        if (sk.parent[i] >= 0) children[sk.parent[i]].push_back(static_cast<int32_t>(i));
    }
    out.nodeOfJson.assign(nodes.size(), -1);
    out.jsonOfNode.assign(sk.size(), -1);
    struct Pair { int64_t json; int32_t node; };
    std::vector<Pair> stack;
    auto childIndices = [&](const json& list, std::vector<int64_t>& idx) {
        idx.clear();
        if (!list.is_array()) return;
        for (const json& c : list) idx.push_back(c.is_number_unsigned() ? static_cast<int64_t>(c.get<size_t>()) : -1);
    };
    std::vector<int64_t> idx;
    childIndices(roots, idx);
    if (idx.size() == 1) {
        stack.push_back({idx[0], 0});
    } else {
        if (children[0].size() != idx.size()) return false;
        for (size_t k = 0; k < idx.size(); ++k) stack.push_back({idx[k], children[0][k]});
    }
    while (!stack.empty()) {
        const Pair p = stack.back();
        stack.pop_back();
        if (p.json < 0 || static_cast<size_t>(p.json) >= nodes.size()) return false;
        const size_t j = static_cast<size_t>(p.json);
        if (out.nodeOfJson[j] >= 0 || nodeName(nodes, j) != sk.names[p.node]) return false;
        out.nodeOfJson[j] = p.node;
        out.jsonOfNode[p.node] = static_cast<int32_t>(j);
        childIndices(nodes[j].is_object() && nodes[j].contains("children") ? nodes[j]["children"] : json(), idx);
        if (idx.size() != children[p.node].size()) return false;
        for (size_t k = 0; k < idx.size(); ++k) stack.push_back({idx[k], children[p.node][k]});
    }
    return true;
}

}  // namespace

Nodes readNodes(const Document& document, const Skeleton& sk) {
    Nodes out;
    if (!document.valid()) return out;
    const json& doc = document.json();
    if (!mapNodes(doc, sk, out)) return Nodes{};
    const json& nodes = doc["nodes"];
    out.skinOfJson.assign(nodes.size(), -1);
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (nodes[n].is_object() && nodes[n].contains("skin") && nodes[n]["skin"].is_number_unsigned()) {
            out.skinOfJson[n] = static_cast<int32_t>(nodes[n]["skin"].get<size_t>());
        }
    }
    if (doc.contains("skins") && doc["skins"].is_array()) {
        for (const json& skin : doc["skins"]) {
            std::vector<int32_t> joints;
            if (skin.is_object() && skin.contains("joints") && skin["joints"].is_array()) {
                for (const json& j : skin["joints"]) {
                    const bool ok = j.is_number_unsigned() && j.get<size_t>() < nodes.size();
                    joints.push_back(ok ? out.nodeOfJson[j.get<size_t>()] : -1);
                }
            }
            out.skinJoints.push_back(std::move(joints));
        }
    }
    if (doc.contains("animations") && doc["animations"].is_array()) {
        for (const json& an : doc["animations"]) {
            std::vector<Nodes::Target> targets;
            const bool ok = an.is_object() && an.contains("channels") && an["channels"].is_array() &&
                            an.contains("samplers") && an["samplers"].is_array();
            if (ok) {
                const json& samplers = an["samplers"];
                for (const json& ch : an["channels"]) {
                    if (!ch.is_object() || !ch.contains("target") || !ch.contains("sampler")) continue;
                    const json& t = ch["target"];
                    if (!t.is_object() || !t.contains("node") || !t["node"].is_number_unsigned()) continue;
                    const size_t jn = t["node"].get<size_t>();
                    if (jn >= nodes.size() || out.nodeOfJson[jn] < 0) continue;
                    const std::string p = t.contains("path") && t["path"].is_string() ? t["path"].get<std::string>() : "";
                    const int k = p == "translation" ? 0 : p == "rotation" ? 1 : p == "scale" ? 2 : -1;
                    if (k < 0 || !ch["sampler"].is_number_unsigned() || ch["sampler"].get<size_t>() >= samplers.size()) continue;
                    const json& sampler = samplers[ch["sampler"].get<size_t>()];
                    if (!sampler.is_object() || !sampler.contains("input")) continue;
                    auto it = std::find_if(targets.begin(), targets.end(),
                                           [&](const Nodes::Target& x) { return x.node == out.nodeOfJson[jn]; });
                    if (it == targets.end()) {
                        targets.emplace_back();
                        it = targets.end() - 1;
                        it->node = out.nodeOfJson[jn];
                        it->first = accessorBound(doc, sampler["input"], "min");
                        it->last = accessorBound(doc, sampler["input"], "max");
                    }
                    it->counts[k] = accessorCount(doc, sampler["input"]);
                    if (it->counts[k] > 0 && sampler.contains("output")) {
                        // CUBICSPLINE outputs hold (in-tangent, value, out-tangent) per key.
                        const bool cubic = sampler.contains("interpolation") && sampler["interpolation"] == "CUBICSPLINE";
                        const size_t last = it->counts[k] - 1;
                        const int n = k == 1 ? 4 : 3;
                        it->hasValues[k] = readFloats(document, sampler["output"], cubic ? 1 : 0, n, it->firstValue[k]) &&
                                           readFloats(document, sampler["output"], cubic ? 3 * last + 1 : last, n, it->lastValue[k]);
                    }
                    it->first = std::min(it->first, accessorBound(doc, sampler["input"], "min"));
                    it->last = std::max(it->last, accessorBound(doc, sampler["input"], "max"));
                }
            }
            out.animationTargets.push_back(std::move(targets));
        }
    }
    out.valid = true;
    return out;
}

}  // namespace rig::gltf
