#include "import/influences.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rig {

namespace {

constexpr size_t kMaxExamples = 10;  // example vertices kept per statistic

void addExample(std::vector<uint32_t>& list, uint32_t v) {
    if (list.size() < kMaxExamples) list.push_back(v);
}

}  // namespace

void keepStrongestInfluences(Mesh& mesh, size_t v, std::span<Influence> inf) {
    for (size_t i = 1; i < inf.size(); ++i) {
        const Influence x = inf[i];
        size_t k = i;
        for (; k > 0 && (x.weight > inf[k - 1].weight || (x.weight == inf[k - 1].weight && x.slot < inf[k - 1].slot)); --k) {
            inf[k] = inf[k - 1];
        }
        inf[k] = x;
    }
    WeightStats& ws = mesh.weightStats;
    const uint32_t vi = static_cast<uint32_t>(v);
    ws.maxInfluences = std::max<uint32_t>(ws.maxInfluences, static_cast<uint32_t>(inf.size()));
    mesh.originalInfluenceCount[v] = static_cast<uint8_t>(std::min<size_t>(inf.size(), 255));
    if (inf.empty()) {
        ++ws.unweightedVertices;
        addExample(ws.unweightedExamples, vi);
        mesh.weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);  // the rigid slot: follows the node
        return;
    }
    double sum = 0.0;
    for (const Influence& i : inf) sum += i.weight;
    mesh.originalWeightSum[v] = static_cast<float>(sum);
    const float err = static_cast<float>(std::fabs(sum - 1.0));
    ws.worstSumError = std::max(ws.worstSumError, err);
    if (err > 1e-3f) {
        ++ws.unnormalizedVertices;
        addExample(ws.unnormalizedExamples, vi);
    }
    if (inf.size() > static_cast<size_t>(kMaxInfluences)) {
        ++ws.truncatedVertices;
        addExample(ws.truncatedExamples, vi);
        FullInfluences full;
        full.vertex = vi;
        for (const Influence& i : inf) full.influences.emplace_back(static_cast<uint16_t>(i.slot), i.weight);
        mesh.truncated.push_back(std::move(full));
        inf = inf.first(kMaxInfluences);
    }
    float kept = 0.0f;
    for (const Influence& i : inf) kept += i.weight;
    for (size_t k = 0; k < static_cast<size_t>(kMaxInfluences); ++k) {
        mesh.joints[v][k] = static_cast<uint16_t>(inf[k < inf.size() ? k : 0].slot);
        if (k < inf.size()) mesh.weights[v][static_cast<int>(k)] = inf[k].weight / kept;
    }
}

}  // namespace rig
