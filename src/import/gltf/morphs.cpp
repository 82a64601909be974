#include "import/gltf/morphs.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "import/gltf/accessors.h"

namespace rig::gltf {

namespace {

int applyMorphsUnchecked(const Document& document, Model& model) {
    bool anyTargets = false;
    for (const Mesh& m : model.meshes) anyTargets = anyTargets || !m.morphTargets.empty();
    const json* nodesAt = arrayMember(document, "nodes");
    const json* meshesAt = arrayMember(document, "meshes");
    if (!anyTargets || !nodesAt || !meshesAt) return 0;
    const json& doc = document.json();
    const json& nodes = *nodesAt;
    const json& meshes = *meshesAt;
    // The rigview meshes (with morph targets) that glTF node n's mesh became.
    auto meshesOfNode = [&](size_t n, std::vector<size_t>& out) -> const json* {
        out.clear();
        if (n >= nodes.size() || !nodes[n].is_object() || !nodes[n].contains("mesh") || !nodes[n]["mesh"].is_number_unsigned()) return nullptr;
        const size_t gm = nodes[n]["mesh"].get<size_t>();
        if (gm >= meshes.size() || !meshes[gm].is_object()) return nullptr;
        const int32_t node = model.skeleton.find(nodeName(nodes, n));
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            if (model.meshes[m].node == node && node >= 0 && !model.meshes[m].morphTargets.empty()) out.push_back(m);
        }
        return &meshes[gm];
    };
    std::vector<size_t> targetsOf;
    for (size_t n = 0; n < nodes.size(); ++n) {
        const json* gm = meshesOfNode(n, targetsOf);
        if (!gm) continue;
        std::vector<std::string> names;
        if (gm->contains("extras") && (*gm)["extras"].is_object() && (*gm)["extras"].contains("targetNames") &&
            (*gm)["extras"]["targetNames"].is_array()) {
            for (const json& t : (*gm)["extras"]["targetNames"]) names.push_back(t.is_string() ? t.get<std::string>() : "");
        } else if (gm->contains("primitives") && (*gm)["primitives"].is_array() && !(*gm)["primitives"].empty()) {
            const json& prim = (*gm)["primitives"][0];
            const json& accessors = doc.contains("accessors") ? doc["accessors"] : json();
            if (prim.is_object() && prim.contains("targets") && prim["targets"].is_array() && accessors.is_array()) {
                for (const json& t : prim["targets"]) {
                    std::string name;
                    if (t.is_object() && t.contains("POSITION") && t["POSITION"].is_number_unsigned()) {
                        const size_t a = t["POSITION"].get<size_t>();
                        const json* n = a < accessors.size() && accessors[a].is_object() && accessors[a].contains("name") ? &accessors[a]["name"] : nullptr;
                        if (n && n->is_string()) name = n->get<std::string>();
                    }
                    names.push_back(name);
                }
            }
        }
        for (size_t m : targetsOf) {
            Mesh& mesh = model.meshes[m];
            if (names.size() != mesh.morphTargets.size()) continue;
            for (size_t t = 0; t < names.size(); ++t) {
                if (!names[t].empty()) mesh.morphTargets[t].name = names[t];
            }
        }
    }

    int read = 0;
    auto each = [&](Clip& clip, const json& ch, const json& sampler) {
        if (!ch.contains("target")) return;
        const json& target = ch["target"];
        if (!target.is_object() || !target.contains("path") || target["path"] != "weights" || !target.contains("node") ||
            !target["node"].is_number_unsigned()) return;
        if (!sampler.contains("input") || !sampler.contains("output") || !sampler["input"].is_number_unsigned() ||
            !sampler["output"].is_number_unsigned()) return;
        const std::string mode = sampler.contains("interpolation") && sampler["interpolation"].is_string() ? sampler["interpolation"].get<std::string>() : "LINEAR";
        const WeightInterpolation interp = mode == "STEP" ? WeightInterpolation::Step
                                           : mode == "CUBICSPLINE" ? WeightInterpolation::CubicSpline
                                                                   : WeightInterpolation::Linear;
        if (!meshesOfNode(target["node"].get<size_t>(), targetsOf) || targetsOf.empty()) return;
        std::vector<float> times, values;
        if (!readScalars(document, sampler["input"].get<size_t>(), times) ||
            !readScalars(document, sampler["output"].get<size_t>(), values)) return;
        const size_t perKey = interp == WeightInterpolation::CubicSpline ? 3 : 1;
        if (times.empty() || values.size() % (times.size() * perKey) != 0) return;
        const uint32_t nt = static_cast<uint32_t>(values.size() / (times.size() * perKey));
        bool finiteKeys = std::is_sorted(times.begin(), times.end());
        for (float v : times) finiteKeys = finiteKeys && std::isfinite(v);
        for (float v : values) finiteKeys = finiteKeys && std::isfinite(v);
        if (!finiteKeys) return;
        for (size_t m : targetsOf) {
            if (model.meshes[m].morphTargets.size() != nt) continue;
            MorphTrack track;
            track.mesh = static_cast<int32_t>(m);
            track.targets = nt;
            track.count = static_cast<uint32_t>(times.size());
            track.interpolation = interp;
            track.times = clip.addTimes(times.data(), track.count);
            track.values = static_cast<uint32_t>(clip.morphKeys.size());
            clip.morphKeys.insert(clip.morphKeys.end(), values.begin(), values.end());
            auto it = std::find_if(clip.morphTracks.begin(), clip.morphTracks.end(),
                                   [&](const MorphTrack& t) { return t.mesh == track.mesh; });
            if (it != clip.morphTracks.end()) {
                *it = track;
            } else {
                clip.morphTracks.push_back(track);
            }
            ++read;
        }
    };
    auto done = [](Clip& clip) {
        std::sort(clip.morphTracks.begin(), clip.morphTracks.end(),
                  [](const MorphTrack& x, const MorphTrack& y) { return x.mesh < y.mesh; });
        extendClipRangeToMorphs(clip);
    };
    forEachChannel(doc, model, each, done);
    return read;
}

}  // namespace

int applyMorphs(const Document& doc, Model& model) {
    // JSON of the wrong type where Assimp did not look (a numeric accessor name, a string
    // byteStride) makes nlohmann::json throw: the refinement is then skipped, as for a file
    // that cannot be read. Each track is replaced whole, so what was done before stays valid.
    try {
        return applyMorphsUnchecked(doc, model);
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
}

}  // namespace rig::gltf
