// What the viewer draws over the viewport: the loading indicator and error banners, joint
// names at the joints, and the tooltip of the vertex under the mouse.
#include "ui/panels.h"

#include <cmath>

namespace rig {

void drawStatusOverlay(ViewerState& s, double now) {
    const ImGuiIO& io = ImGui::GetIO();
    if (s.loading) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::Begin("##loading", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
        const double elapsed = now - s.loadingSince;
        ImGui::Text("Loading %s  (%.1f s)", s.loadingPath.c_str(), elapsed);
        // An indeterminate bar: Assimp gives no reliable fraction.
        const float phase = static_cast<float>(std::fmod(elapsed, 1.2) / 1.2);
        ImGui::ProgressBar(phase, ImVec2(300, 0), "");
        ImGui::End();
    }
    // Errors and warnings sit at the bottom of the viewport, above the timeline, so they never
    // cover the path field (top) or the file browser where the name is corrected.
    const float bannerY = io.DisplaySize.y - 140.0f;
    if (!s.error.empty()) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, bannerY), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(120, 30, 30, 235));
        ImGui::Begin("##error", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoFocusOnAppearing);
        ImGui::TextUnformatted(s.error.c_str());
        if (s.model) ImGui::TextDisabled("Still showing the last good model: %s", s.path.c_str());
        if (ImGui::Button("Dismiss")) s.error.clear();
        ImGui::End();
        ImGui::PopStyleColor();
    }
    if (!s.warning.empty() && s.error.empty()) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, bannerY), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(120, 90, 20, 235));
        ImGui::Begin("##warning", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
        ImGui::TextUnformatted(s.warning.c_str());
        if (ImGui::Button("Dismiss##warning")) s.warning.clear();
        ImGui::End();
        ImGui::PopStyleColor();
    }
}

int drawJointNames(const ViewerState& s, const std::vector<glm::vec3>& jointWorld, const glm::mat4& viewProj,
                   float width, float height) {
    if (!s.model || s.view.jointNames == JointNameMode::None) return 0;
    int drawn = 0;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const Skeleton& sk = s.model->skeleton;
    auto label = [&](int32_t j, ImU32 color) {
        if (j < 0 || static_cast<size_t>(j) >= jointWorld.size()) return;
        glm::vec2 at;
        if (!projectToScreen(viewProj, jointWorld[j], width, height, at)) return;
        const char* name = sk.names[j].empty() ? "(unnamed)" : sk.names[j].c_str();
        const ImVec2 sz = ImGui::CalcTextSize(name);
        dl->AddRectFilled(ImVec2(at.x + 3, at.y - 7), ImVec2(at.x + 5 + sz.x, at.y - 7 + sz.y), IM_COL32(0, 0, 0, 140), 2.0f);
        dl->AddText(ImVec2(at.x + 4, at.y - 7), color, name);
        ++drawn;
    };
    if (s.view.jointNames == JointNameMode::All) {
        for (int32_t j : s.joints) {
            if (j != s.selectedJoint) label(j, IM_COL32(230, 230, 230, 220));
        }
    } else if (s.selectedJoint >= 0 && static_cast<size_t>(s.selectedJoint) < sk.size()) {
        // The selection and its neighbours only: readable on a full skeleton.
        label(sk.parent[s.selectedJoint], IM_COL32(170, 200, 255, 230));
        if (static_cast<size_t>(s.selectedJoint) < s.children.size()) {
            for (int32_t c : s.children[s.selectedJoint]) label(c, IM_COL32(170, 255, 190, 230));
        }
    }
    if (s.selectedJoint >= 0 && static_cast<size_t>(s.selectedJoint) < sk.size()) label(s.selectedJoint, IM_COL32(255, 230, 60, 255));
    return drawn;
}

void drawVertexTooltip(const ViewerState& s) {
    const CheckViewState& c = s.checks;
    if (!s.model || c.hoverMesh < 0 || c.hoverVertex < 0) return;
    const Mesh& m = s.model->meshes[c.hoverMesh];
    const size_t v = static_cast<size_t>(c.hoverVertex);
    ImGui::BeginTooltip();
    ImGui::Text("%s vertex %zu", m.name.c_str(), v);
    if (!m.skinned) {
        ImGui::TextDisabled("not skinned: follows %s", s.model->skeleton.names[m.node].c_str());
    } else {
        const auto& j = m.joints[v];
        const glm::vec4& w = m.weights[v];
        for (int k = 0; k < kMaxInfluences; ++k) {
            if (w[k] <= 0.0f) continue;
            const char* name = j[k] < m.skin.joints.size() ? s.model->skeleton.names[m.skin.joints[j[k]]].c_str() : "(mesh node)";
            ImGui::Text("%-24s %.4f", name, w[k]);
        }
        if (v < m.originalInfluenceCount.size()) {
            ImGui::TextDisabled("in the file: %d influences, sum %.4f", m.originalInfluenceCount[v], m.originalWeightSum[v]);
        }
    }
    ImGui::EndTooltip();
}

}  // namespace rig
