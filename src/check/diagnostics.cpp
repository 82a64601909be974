#include "check/diagnostics.h"

#include <cmath>
#include <cstdio>

namespace rig {

const char* severityName(Severity s) {
    switch (s) {
        case Severity::Info: return "info";
        case Severity::Warning: return "warning";
        case Severity::Error: return "error";
    }
    return "info";
}

Severity Report::worst() const {
    Severity w = Severity::Info;
    for (const Finding& f : findings) {
        if (static_cast<int>(f.severity) > static_cast<int>(w)) w = f.severity;
    }
    return w;
}

namespace {

std::vector<int64_t> toExamples(const std::vector<uint32_t>& v) {
    return std::vector<int64_t>(v.begin(), v.end());
}

std::string meshLabel(const Mesh& m, size_t i) {
    return "mesh " + std::to_string(i) + " '" + m.name + "'";
}

void checkMeshes(const Model& model, Report& r) {
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        const Mesh& m = model.meshes[i];
        const std::string label = meshLabel(m, i);
        if (!m.skinned) continue;
        const WeightStats& ws = m.weightStats;
        if (ws.unnormalizedVertices) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.4g", ws.worstSumError);
            r.findings.push_back({"weights-not-normalized", Severity::Warning,
                                  label + ": " + std::to_string(ws.unnormalizedVertices) +
                                      " vertices have weights that do not sum to 1 (worst off by " + buf +
                                      "); renormalized on import",
                                  ws.unnormalizedVertices, label + " vertices", toExamples(ws.unnormalizedExamples), {}});
        }
        if (ws.truncatedVertices) {
            r.findings.push_back({"too-many-influences", Severity::Warning,
                                  label + ": " + std::to_string(ws.truncatedVertices) +
                                      " vertices have more than 4 influences (up to " +
                                      std::to_string(ws.maxInfluences) + "); the 4 strongest are kept",
                                  ws.truncatedVertices, label + " vertices", toExamples(ws.truncatedExamples), {}});
        }
        if (ws.unweightedVertices) {
            r.findings.push_back({"unweighted-vertices", Severity::Warning,
                                  label + ": " + std::to_string(ws.unweightedVertices) + " of " +
                                      std::to_string(m.vertexCount()) +
                                      " vertices carry no weight; they follow the mesh's node rigidly",
                                  ws.unweightedVertices, label + " vertices", toExamples(ws.unweightedExamples), {}});
        }
        if (ws.invalidWeights) {
            r.findings.push_back({"invalid-weights", Severity::Error,
                                  label + ": " + std::to_string(ws.invalidWeights) +
                                      " weights are NaN, infinite, negative or name a vertex that does not exist; dropped",
                                  ws.invalidWeights, label, {}, {}});
        }
        if (!m.missingBones.empty()) {
            r.findings.push_back({"bone-missing-from-hierarchy", Severity::Error,
                                  label + ": " + std::to_string(m.missingBones.size()) +
                                      " bones name no node of the hierarchy; their weights are dropped",
                                  m.missingBones.size(), label + " bones", {}, m.missingBones});
        }
        uint64_t computed = 0;
        std::vector<std::string> names;
        for (size_t j = 0; j < m.skin.joints.size(); ++j) {
            if (!m.skin.offsetComputed[j]) continue;
            ++computed;
            if (names.size() < 10) names.push_back(model.skeleton.names[m.skin.joints[j]]);
        }
        if (computed) {
            r.findings.push_back({"offset-matrix-computed", Severity::Warning,
                                  label + ": " + std::to_string(computed) +
                                      " bones have a singular or non-finite offset matrix; computed from the bind pose",
                                  computed, label + " bones", {}, names});
        }
        if (m.skin.joints.size() > 65535) {
            r.findings.push_back({"too-many-joints", Severity::Error,
                                  label + ": more than 65535 joints in one skin", m.skin.joints.size(), label, {}, {}});
        }
    }
}

bool finiteMat(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k)
            if (!std::isfinite(m[c][k])) return false;
    return true;
}

void checkNonFinite(const Model& model, Report& r) {
    uint64_t nodes = 0;
    std::vector<int64_t> examples;
    for (size_t i = 0; i < model.skeleton.size(); ++i) {
        if (finiteMat(model.skeleton.bindLocal[i])) continue;
        ++nodes;
        if (examples.size() < 10) examples.push_back(static_cast<int64_t>(i));
    }
    if (nodes) {
        r.findings.push_back({"non-finite-node-transform", Severity::Error,
                              std::to_string(nodes) + " nodes have NaN or infinite transforms", nodes,
                              "nodes", examples, {}});
    }
    if (model.stats.nonFiniteVertices) {
        r.findings.push_back({"non-finite-vertices", Severity::Error,
                              std::to_string(model.stats.nonFiniteVertices) +
                                  " vertex positions or normals are NaN or infinite",
                              model.stats.nonFiniteVertices, "vertices", {}, {}});
    }
    if (model.stats.nonFiniteKeys) {
        r.findings.push_back({"non-finite-keys", Severity::Error,
                              std::to_string(model.stats.nonFiniteKeys) +
                                  " animation keys have a NaN or infinite time or value; dropped",
                              model.stats.nonFiniteKeys, "keys", {}, {}});
    }
}

void checkClips(const Model& model, Report& r) {
    const ImportStats& s = model.stats;
    if (s.skippedChannels) {
        r.findings.push_back({"channel-missing-node", Severity::Warning,
                              std::to_string(s.skippedChannels) +
                                  " animation channels name a node that does not exist; skipped",
                              s.skippedChannels, "channels", {}, s.skippedChannelNames});
    }
    if (s.duplicateChannels) {
        r.findings.push_back({"duplicate-channel", Severity::Warning,
                              std::to_string(s.duplicateChannels) +
                                  " channels animate a node that another channel of the same clip already animates; the first is used",
                              s.duplicateChannels, "channels", {}, {}});
    }
    if (s.unsortedKeyChannels) {
        r.findings.push_back({"keys-out-of-order", Severity::Warning,
                              std::to_string(s.unsortedKeyChannels) + " channels have keys out of time order; sorted",
                              s.unsortedKeyChannels, "channels", {}, {}});
    }
    std::vector<int64_t> empty, zero, noTps;
    std::vector<std::string> emptyNames, zeroNames, noTpsNames;
    for (size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& c = model.clips[i];
        if (c.tracks.empty()) {
            empty.push_back(static_cast<int64_t>(i));
            emptyNames.push_back(c.name);
        } else if (!(c.duration > 0.0f)) {
            zero.push_back(static_cast<int64_t>(i));
            zeroNames.push_back(c.name);
        }
        if (!c.ticksPerSecondFromFile) {
            noTps.push_back(static_cast<int64_t>(i));
            noTpsNames.push_back(c.name);
        }
    }
    if (!empty.empty()) {
        r.findings.push_back({"clip-without-channels", Severity::Warning,
                              std::to_string(empty.size()) + " clips animate no node of the model",
                              empty.size(), "clips", empty, emptyNames});
    }
    if (!zero.empty()) {
        r.findings.push_back({"clip-zero-length", Severity::Warning,
                              std::to_string(zero.size()) + " clips have zero duration (all keys at one time)",
                              zero.size(), "clips", zero, zeroNames});
    }
    if (!noTps.empty()) {
        r.findings.push_back({"clip-no-ticks-per-second", Severity::Info,
                              std::to_string(noTps.size()) +
                                  " clips give no ticks per second; 25 ticks per second assumed",
                              noTps.size(), "clips", noTps, noTpsNames});
    }
}

}  // namespace

Report checkModel(const Model& model) {
    Report r;
    checkMeshes(model, r);
    checkNonFinite(model, r);
    checkClips(model, r);
    return r;
}

}  // namespace rig
