#include "import/gltf/clips.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "anim/offline/clip_tools.h"

namespace rig::gltf {

namespace {

constexpr size_t kMaxExamples = 10;

const json* member(const json& o, const char* key) {
    if (!o.is_object()) return nullptr;
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

void noteCurve(CurveStats& cs, const std::string& channel) {
    if (cs.examples.size() < kMaxExamples && (cs.examples.empty() || cs.examples.back() != channel)) cs.examples.push_back(channel);
}

// One node channel (path 0 translation, 1 rotation, 2 scale) from its sampler: the file's key
// times, its values (CUBICSPLINE: each key's value, played linearly; quantized rotations
// dequantized), STEP where it says so. Non-finite keys dropped, unsorted keys sorted, both counted.
Channel readChannel(const Document& document, const json& sampler, int path, const std::string& name, Clip& clip,
                    ImportStats& stats) {
    Channel ch;
    AccessorData in, out;
    const json* input = member(sampler, "input");
    const json* output = member(sampler, "output");
    if (!input || !output || !input->is_number_unsigned() || !output->is_number_unsigned()) return ch;
    if (!resolveAccessor(document, input->get<size_t>(), in) || !resolveAccessor(document, output->get<size_t>(), out)) return ch;
    const json* mode = member(sampler, "interpolation");
    const std::string interpolation = mode && mode->is_string() ? mode->get<std::string>() : "LINEAR";
    const size_t perKey = interpolation == "CUBICSPLINE" ? 3 : 1;
    const int n = path == 1 ? 4 : 3;
    if (in.components != 1 || out.components != n || in.count == 0 || out.count < in.count * perKey) return ch;
    std::vector<float> times(in.count), values(out.count * n);
    decodeFloats(in, 1, times.data());
    decodeFloats(out, n, values.data());
    CurveStats& cs = clip.curveStats;
    struct Key {
        float t;
        size_t at;
    };
    std::vector<Key> keys;
    keys.reserve(in.count);
    for (size_t k = 0; k < in.count; ++k) {
        const size_t at = (k * perKey + perKey / 2) * n;
        bool ok = std::isfinite(times[k]);
        for (int c = 0; c < n; ++c) ok = ok && std::isfinite(values[at + c]);
        if (!ok) {
            ++stats.nonFiniteKeys;
            ++cs.nonFiniteKeys;
            noteCurve(cs, name);
            continue;
        }
        if (path == 1 && isNonUnitRotation(values[at], values[at + 1], values[at + 2], values[at + 3])) {
            ++cs.nonUnitRotationKeys;
            noteCurve(cs, name);
        }
        keys.push_back({times[k], at});
    }
    if (!std::is_sorted(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.t < b.t; })) {
        ++stats.unsortedKeyChannels;
        ++cs.unsortedChannels;
        noteCurve(cs, name);
        std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.t < b.t; });
    }
    for (size_t i = 1; i < keys.size(); ++i) {
        if (keys[i].t == keys[i - 1].t) {
            ++cs.duplicateKeyTimes;
            noteCurve(cs, name);
        }
    }
    ch.count = static_cast<uint32_t>(keys.size());
    if (ch.count == 0) return ch;
    ch.interpolation = interpolation == "STEP" ? Interpolation::Step : Interpolation::Linear;
    for (size_t i = 0; i < keys.size(); ++i) times[i] = keys[i].t;
    ch.times = clip.addTimes(times.data(), ch.count);
    if (path == 1) {
        ch.values = static_cast<uint32_t>(clip.quatKeys.size());
        for (const Key& k : keys) {
            const float* v = &values[k.at];
            glm::quat q(v[3], v[0], v[1], v[2]);
            const float len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
            clip.quatKeys.push_back(len > 0.0f && std::isfinite(len) ? q / len : q);
        }
    } else {
        ch.values = static_cast<uint32_t>(clip.vec3Keys.size());
        for (const Key& k : keys) clip.vec3Keys.emplace_back(values[k.at], values[k.at + 1], values[k.at + 2]);
    }
    return ch;
}

}  // namespace

void noteSharedName(const Skeleton& sk, const NodesByName& byName, int32_t node, const std::string& usedBy, const char* rule,
                    ImportStats& stats) {
    const auto it = byName.find(sk.names[node]);
    if (it == byName.end() || it->second.size() < 2) return;
    for (const NameBinding& b : stats.nameBindings) {
        if (b.name == sk.names[node] && b.chosen == node && b.rule == rule) return;
    }
    stats.nameBindings.push_back({sk.names[node], usedBy, it->second, node, rule, true});
}

Clip readClip(const Document& document, const json& anim, size_t a, const std::vector<int32_t>& nodeOfJson,
              const NodesByName& byName, Model& model) {
    const Skeleton& sk = model.skeleton;
    ImportStats& stats = model.stats;
    Clip clip;
    const json* name = member(anim, "name");
    clip.name = name && !name->get<std::string>().empty() ? name->get<std::string>() : "clip" + std::to_string(a);
    clip.ticksPerSecond = 1.0;  // glTF key times are seconds
    clip.trackOfNode.assign(sk.size(), -1);
    const json* channels = member(anim, "channels");
    const json* samplers = member(anim, "samplers");
    // The sampler of each (node, path); a later channel for the same pair replaces an earlier one.
    std::vector<std::array<const json*, 3>> of(sk.size(), {nullptr, nullptr, nullptr});
    std::vector<int32_t> order;
    for (size_t c = 0; channels && c < channels->size(); ++c) {
        const json& ch = (*channels)[c];
        const json* target = member(ch, "target");
        const json* node = target ? member(*target, "node") : nullptr;
        const json* path = target ? member(*target, "path") : nullptr;
        const size_t s = unsignedOr(ch, "sampler", SIZE_MAX);
        if (!path || !path->is_string() || !samplers || s >= samplers->size() || !(*samplers)[s].is_object()) continue;
        const std::string p = path->get<std::string>();
        const int k = p == "translation" ? 0 : p == "rotation" ? 1 : p == "scale" ? 2 : -1;
        if (k < 0) continue;  // weights: gltf/morphs
        const int32_t n = node && node->is_number_unsigned() && node->get<size_t>() < nodeOfJson.size() ? nodeOfJson[node->get<size_t>()] : -1;
        if (n < 0) {
            ++stats.skippedChannels;
            if (stats.skippedChannelNames.size() < kMaxExamples) {
                const json* nodes = member(document.json(), "nodes");
                stats.skippedChannelNames.push_back(node && node->is_number_unsigned() && nodes ? nodeName(*nodes, node->get<size_t>()) : "");
            }
            continue;
        }
        if (of[n][k]) ++stats.duplicateChannels;
        if (!of[n][0] && !of[n][1] && !of[n][2]) order.push_back(n);
        of[n][k] = &(*samplers)[s];
    }
    std::sort(order.begin(), order.end());
    const std::string label = "channel of clip '" + clip.name + "'";
    for (int32_t n : order) {
        Track tr;
        tr.node = n;
        Channel* slots[3] = {&tr.translation, &tr.rotation, &tr.scale};
        static const char* kPath[3] = {".translation", ".rotation", ".scale"};
        for (int k = 0; k < 3; ++k) {
            if (of[n][k]) *slots[k] = readChannel(document, *of[n][k], k, sk.names[n] + kPath[k], clip, stats);
        }
        if (!tr.translation.count && !tr.rotation.count && !tr.scale.count) continue;
        noteSharedName(sk, byName, n, label, "glTF channel target.node", stats);
        clip.trackOfNode[n] = static_cast<int32_t>(clip.tracks.size());
        clip.tracks.push_back(tr);
    }
    bool any = false;
    float first = 0.0f, last = 0.0f;
    for (const Track& t : clip.tracks) {
        for (const Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
            if (!ch->count) continue;
            const float b = clip.times[ch->times], e = clip.times[ch->times + ch->count - 1];
            first = any ? std::min(first, b) : b;
            last = any ? std::max(last, e) : e;
            any = true;
        }
    }
    clip.startTime = first;
    clip.duration = std::max(last, 0.0f);
    clip.sampleRate = keySampleRate(clip);
    return clip;
}

}  // namespace rig::gltf
