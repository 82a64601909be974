#include "import/gltf/keys.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "import/gltf/accessors.h"

namespace rig::gltf {

namespace {

// The channel of `clip` that glTF animation channel `ch` drives (translation, rotation or
// scale of a node with a track; one with no keys only where `allowEmpty`), or nullptr.
// Targets by index where the tree maps (two nodes may share a name), by name otherwise.
Channel* targetChannel(const json& ch, const json& nodes, const Nodes& map, const Skeleton& sk, Clip& clip,
                       bool allowEmpty = false) {
    if (!ch.is_object() || !ch.contains("target")) return nullptr;
    const json& target = ch["target"];
    const size_t jn = unsignedOr(target, "node", SIZE_MAX);
    if (jn == SIZE_MAX) return nullptr;
    const int32_t node = map.valid ? (jn < map.nodeOfJson.size() ? map.nodeOfJson[jn] : -1) : sk.find(nodeName(nodes, jn));
    if (node < 0 || static_cast<size_t>(node) >= clip.trackOfNode.size() || clip.trackOfNode[node] < 0) return nullptr;
    Track& tr = clip.tracks[clip.trackOfNode[node]];
    const std::string p = target.contains("path") && target["path"].is_string() ? target["path"].get<std::string>() : "";
    Channel* c = p == "translation" ? &tr.translation : p == "rotation" ? &tr.rotation : p == "scale" ? &tr.scale : nullptr;
    return c && (c->count || allowEmpty) ? c : nullptr;
}

int applyNodeKeysUnchecked(const Document& document, const Nodes& map, Model& model) {
    const json* nodes = arrayMember(document, "nodes");
    if (!nodes) return 0;
    const json& doc = document.json();
    int restored = 0;
    bool changed = false;  // in the current clip
    // Non-unit rotation keys of the current clip, from the file's own values (Assimp's count
    // is of its reading: noise for quantized keys); false where a rotation channel was not read.
    uint32_t nonUnit = 0;
    bool allRotationsRead = true;
    std::vector<std::string> nonUnitNames;
    std::vector<float> times;
    std::vector<glm::quat> rotations;
    auto each = [&](Clip& clip, const json& ch, const json& sampler) {
        const bool isRotation = ch.contains("target") && ch["target"].is_object() && ch["target"].contains("path") &&
                                ch["target"]["path"] == "rotation";
        const json& input = sampler.contains("input") ? sampler["input"] : json();
        const json& output = sampler.contains("output") ? sampler["output"] : json();
        const uint32_t count = accessorCount(doc, input);
        const bool cubic = sampler.contains("interpolation") && sampler["interpolation"] == "CUBICSPLINE";
        // Quantized rotations: Assimp copies their bytes into floats, so its keys are noise (and
        // some, or all, dropped as non-finite); they are read again here.
        const size_t outputType = output.is_number_unsigned() && doc.contains("accessors") && doc["accessors"].is_array() &&
                                          output.get<size_t>() < doc["accessors"].size()
                                      ? unsignedOr(doc["accessors"][output.get<size_t>()], "componentType", 0)
                                      : 0;
        const bool quantized = isRotation && (outputType == 5120 || outputType == 5121 || outputType == 5122 || outputType == 5123);
        Channel* c = targetChannel(ch, *nodes, map, model.skeleton, clip, quantized);
        if (!c || c->times + static_cast<size_t>(c->count) > clip.times.size()) {
            allRotationsRead = allRotationsRead && !isRotation;
            return;
        }
        // Every key's value (CUBICSPLINE: the middle of in-tangent, value, out-tangent).
        const size_t perKey = cubic ? 3 : 1;
        const bool outputFits = count > 0 && count <= (1u << 24) && accessorCount(doc, output) == perKey * count;
        if (isRotation) {
            bool read = outputFits;
            uint32_t found = 0;
            for (uint32_t k = 0; k < count && read; ++k) {
                float q[4];
                read = readRotation(document, output, perKey * k + perKey / 2, q);
                found += read && isNonUnitRotation(q[0], q[1], q[2], q[3]);
            }
            allRotationsRead = allRotationsRead && read;
            if (read && found) {
                nonUnit += found;
                for (const Track& t : clip.tracks) {
                    if (&t.rotation == c) nonUnitNames.push_back(model.skeleton.names[t.node] + ".rotation");
                }
            }
        }
        // CUBICSPLINE: Assimp's keys are the values (played linearly); only quantized ones are
        // read again, the same way.
        if (count == 0 || count > (1u << 24) || (cubic && !quantized)) return;
        if (!quantized && count != c->count) return;
        times.resize(count);
        bool ok = true;
        for (uint32_t k = 0; k < count && ok; ++k) {
            ok = readFloats(document, input, k, 1, &times[k]) && std::isfinite(times[k]) && (k == 0 || times[k] > times[k - 1]);
            if (ok && !quantized) {
                const float had = clip.times[c->times + k];
                ok = std::fabs(times[k] - had) <= 1e-4f + 1e-6f * std::fabs(had);
            }
        }
        if (quantized) {
            rotations.resize(count);
            for (uint32_t k = 0; k < count && ok; ++k) {
                float q[4];
                ok = outputFits && readRotation(document, output, perKey * k + perKey / 2, q);
                const glm::quat r(q[3], q[0], q[1], q[2]);
                ok = ok && glm::length(r) > 0.5f;
                if (ok) rotations[k] = glm::normalize(r);
            }
        }
        if (!ok) return;
        c->times = clip.addTimes(times.data(), count);
        if (quantized) {
            // The keys of Assimp's reading that import dropped as non-finite were noise too.
            const uint32_t dropped = std::min({count > c->count ? count - c->count : 0u, clip.curveStats.nonFiniteKeys,
                                               model.stats.nonFiniteKeys});
            clip.curveStats.nonFiniteKeys -= dropped;
            model.stats.nonFiniteKeys -= dropped;
            c->values = static_cast<uint32_t>(clip.quatKeys.size());
            clip.quatKeys.insert(clip.quatKeys.end(), rotations.begin(), rotations.end());
            c->count = count;
        }
        changed = true;
        ++restored;
    };
    auto done = [&](Clip& clip) {
        CurveStats& cs = clip.curveStats;
        cs.nonUnitRotationKeys = allRotationsRead ? nonUnit : std::max(cs.nonUnitRotationKeys, nonUnit);
        for (const std::string& n : nonUnitNames) {
            if (cs.examples.size() < 10 && std::find(cs.examples.begin(), cs.examples.end(), n) == cs.examples.end()) {
                cs.examples.push_back(n);
            }
        }
        nonUnit = 0;
        allRotationsRead = true;
        nonUnitNames.clear();
        if (!changed) return;
        changed = false;
        // The clip's range from its channels' first and last keys, as import computed it.
        float first = std::numeric_limits<float>::infinity(), last = -first;
        for (const Track& t : clip.tracks) {
            for (const Channel* c : {&t.translation, &t.rotation, &t.scale}) {
                if (c->count == 0) continue;
                first = std::min(first, clip.times[c->times]);
                last = std::max(last, clip.times[c->times + c->count - 1]);
            }
        }
        if (first <= last) {
            clip.startTime = first;
            clip.duration = last;
        }
    };
    forEachChannel(doc, model, each, done);
    return restored;
}

}  // namespace

int applyStepInterpolation(const Document& document, const Nodes& map, Model& model) {
    const json* nodes = arrayMember(document, "nodes");
    if (!nodes) return 0;
    int marked = 0;
    auto each = [&](Clip& clip, const json& ch, const json& sampler) {
        if (!sampler.contains("interpolation") || sampler["interpolation"] != "STEP") return;
        Channel* c = targetChannel(ch, *nodes, map, model.skeleton, clip);
        if (!c) return;
        c->interpolation = Interpolation::Step;
        ++marked;
    };
    forEachChannel(document.json(), model, each, [](Clip&) {});
    return marked;
}

int applyNodeKeys(const Document& doc, const Nodes& nodes, Model& model) {
    // JSON of the wrong type where Assimp did not look makes nlohmann::json throw: the
    // refinement is then skipped, as for a file that cannot be read.
    try {
        return applyNodeKeysUnchecked(doc, nodes, model);
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
}

}  // namespace rig::gltf
