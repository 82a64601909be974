// checkModel: every family of checks on one model, in a fixed order, then the findings sorted
// by severity (stable: within a severity they keep that order). The families are in
// mesh_checks.cpp, node_checks.cpp and clip_checks.cpp; the import's own findings are here.
#include "check/diagnostics.h"

#include <algorithm>
#include <limits>

#include "check/check_context.h"

namespace rig {

Severity Report::worst() const {
    Severity w = Severity::Info;
    for (const Finding& f : findings) {
        if (static_cast<int>(f.severity) > static_cast<int>(w)) w = f.severity;
    }
    return w;
}

namespace {

using namespace checks;

// Nodes whose bind transform matters to the rig (the bind-pose scale checks look at these only):
// skin joints, skinned-mesh nodes and animated nodes, with their ancestors.
std::vector<uint8_t> relevantNodes(const Model& model) {
    const Skeleton& sk = model.skeleton;
    std::vector<uint8_t> rel(sk.size(), 0);
    auto mark = [&](int32_t n) {
        while (n >= 0 && static_cast<size_t>(n) < sk.size() && !rel[n]) {
            rel[n] = 1;
            n = sk.parent[n];
        }
    };
    for (const Mesh& m : model.meshes) {
        if (!m.skinned) continue;
        mark(m.node);
        for (int32_t j : m.skin.joints) mark(j);
    }
    for (const Clip& c : model.clips)
        for (const Track& t : c.tracks) mark(t.node);
    return rel;
}

// ---------------------------------------------------------------------------------------
// Import: what the format cannot give, and what import repaired.

void checkImport(Context& cx) {
    const ImportStats& s = cx.model.stats;
    if (!s.formatLimitation.empty()) {
        add(cx, makeFinding(CheckCode::BlendNotSupported, s.formatLimitation, 1, "file", {}, {}));
    }
    for (CheckCode code : {CheckCode::RepairedKeys, CheckCode::RepairedChannels}) {
        std::vector<std::string> what;
        for (const ImportRepair& rep : s.repairs) {
            if (rep.code == codeInfo(code).code) what.push_back(rep.what);
        }
        if (what.empty()) continue;
        std::string msg = "Assimp's validation refused the file; rigview repaired it: ";
        for (size_t i = 0; i < what.size(); ++i) msg += (i ? "; " : "") + what[i];
        add(cx, makeFinding(code, msg, what.size(), "repairs"));
    }
}

}  // namespace

float rigSize(const Model& model) {
    const Skeleton& sk = model.skeleton;
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    auto grow = [&](const glm::vec3& p) {
        if (!finiteVec(p)) return;
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    };
    for (int32_t j : model.jointNodes()) {
        if (static_cast<size_t>(j) < sk.bindModel.size()) grow(glm::vec3(sk.bindModel[j][3]));
    }
    for (const Mesh& m : model.meshes) {
        if (m.node < 0 || static_cast<size_t>(m.node) >= sk.bindModel.size()) continue;
        const glm::mat4& w = sk.bindModel[m.node];
        for (const glm::vec3& p : m.positions) grow(glm::vec3(w * glm::vec4(p, 1.0f)));
    }
    if (!(hi.x >= lo.x)) return 1.0f;
    const float d = glm::length(hi - lo);
    return d > 0.0f && std::isfinite(d) ? d : 1.0f;
}

Report checkModel(const Model& model) { return checkModel(model, CheckSettings{}); }

Report checkModel(const Model& model, const CheckSettings& settings) {
    Report r;
    Context cx{model, settings, r};
    cx.rigSize = rigSize(model);
    cx.relevant = relevantNodes(model);
    checkMeshes(cx);
    checkNonFinite(cx);
    checkNames(cx);
    checkBindTransforms(cx);
    checkTextures(cx);
    checkResources(cx);
    checkClips(cx);
    checkImport(cx);
    std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
        return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    });
    return r;
}

}  // namespace rig
