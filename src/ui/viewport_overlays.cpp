// What the viewer draws over the viewport: the loading indicator and the notification strip,
// joint names at the joints, and the tooltip of the vertex under the mouse.
#include "ui/panels.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/widgets.h"
#include "import/import_options.h"

namespace rig {

namespace {

// One message of the notification strip: its text (wrapped to the strip), a second line in
// grey when there is one, and a Dismiss button that clears it, first: beside the text in a
// strip wide enough, on its own line above it in a narrow one (the text keeps the width).
void drawNotice(const char* id, ImU32 color, std::string& text, std::string* note, UiProbe* probe) {
    ImGui::PushID(id);
    const bool besideText = ImGui::GetContentRegionAvail().x > 30.0f * ImGui::GetFontSize();
    auto dismiss = [&] {
        if (ImGui::SmallButton("Dismiss")) {
            text.clear();
            if (note) note->clear();
        }
        probeItem(probe, std::string("notice:") + id + ":dismiss");
    };
    dismiss();
    if (besideText) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    if (note && !note->empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", note->c_str());
        ImGui::PopStyleColor();
    }
    ImGui::EndGroup();
    probeItem(probe, std::string("notice:") + id);
    ImGui::PopID();
}

}  // namespace

void drawStatusOverlay(ViewerState& s, double now, UiProbe* probe) {
    // Both sit in the viewport's rectangle as the docked layout left it, so they never cover
    // a panel, the Timeline or the path field where a name is corrected.
    const LayoutRect& c = s.ui.layout.rects.centre;
    if (probe && !s.loading) probe->texts.erase("loading");
    if (s.loading) {
        ImGui::SetNextWindowPos(ImVec2(c.x + c.w * 0.5f, c.y + c.h * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::Begin("##loading", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
        const double elapsed = now - s.loadingSince;
        ImGui::Text("Loading %s  (%.1f s)", s.loadingPath.c_str(), elapsed);
        // The stage (import/import_options.h: reading, parsing, converting, receiving, checking,
        // uploading), with its fraction where one is known (receiving); else an indeterminate bar.
        const bool staged = s.loadingStage >= 0 && s.loadingStage <= static_cast<int>(kLastImportStage);
        if (staged) ImGui::TextDisabled("%s", importStageName(static_cast<ImportStage>(s.loadingStage)));
        if (probe) probe->texts["loading"] = staged ? importStageName(static_cast<ImportStage>(s.loadingStage)) : "";
        const float bar = s.loadingFraction >= 0.0f ? std::min(s.loadingFraction, 1.0f) : static_cast<float>(std::fmod(elapsed, 1.2) / 1.2);
        ImGui::ProgressBar(bar, ImVec2(std::min(300.0f, std::max(1.0f, c.w - 40.0f)), 0), "");
        // Stops the import (its worker process is killed); the model on screen stays.
        if (ImGui::Button("Cancel (Esc)")) s.requests.cancelLoad = true;
        probeItem(probe, "loading:cancel");
        ImGui::End();
    }
    // The notification strip: work in progress (an environment being prefiltered), errors,
    // warnings about the model and a settings file that was ignored, stacked at the bottom of the viewport (above the Timeline's strip), as wide as
    // the viewport less a margin, the text wrapped to it; taller than half the viewport, it
    // scrolls. Each message has its own Dismiss.
    if (probe) {
        if (s.progress.empty()) {
            probe->texts.erase("progress");
        } else {
            probe->texts["progress"] = s.progress;
        }
    }
    if (s.error.empty() && s.warning.empty() && s.settingsProblem.empty() && s.environmentError.empty() && s.progress.empty()) {
        return;
    }
    const float margin = std::floor(0.5f * ImGui::GetFontSize());
    const float w = std::max(1.0f, c.w - 2.0f * margin);
    const float maxH = std::max(1.0f, std::min(c.h - 2.0f * margin, std::max(0.5f * c.h, 3.0f * ImGui::GetFrameHeightWithSpacing())));
    ImGui::SetNextWindowPos(ImVec2(c.x + margin, c.y + c.h - margin), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0.0f), ImVec2(w, maxH));
    ImGui::SetNextWindowBgAlpha(0.92f);
    ImGui::Begin("##notices", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
    if (!s.progress.empty()) ImGui::TextDisabled("%s", s.progress.c_str());  // goes when the work ends
    if (!s.error.empty()) drawNotice("error", IM_COL32(255, 130, 120, 255), s.error, &s.errorNote, probe);
    if (!s.warning.empty()) drawNotice("warning", IM_COL32(255, 205, 100, 255), s.warning, nullptr, probe);
    if (!s.settingsProblem.empty()) drawNotice("settings", IM_COL32(255, 205, 100, 255), s.settingsProblem, nullptr, probe);
    if (!s.environmentError.empty()) drawNotice("environment", IM_COL32(255, 205, 100, 255), s.environmentError, nullptr, probe);
    ImGui::End();
}

int drawJointNames(const ViewerState& s, const std::vector<glm::vec3>& jointWorld, const glm::mat4& viewProj,
                   float width, float height, std::vector<glm::vec4>* placed) {
    if (placed) placed->clear();
    if (!s.model || s.view.jointNames == JointNameMode::None) return 0;
    int drawn = 0;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const Skeleton& sk = s.model->skeleton;
    // Labels that would overlap one already placed are left out (thinned), the selected joint's
    // placed first so it is always shown.
    static thread_local std::vector<glm::vec4> taken;
    taken.clear();
    auto label = [&](int32_t j, ImU32 color) {
        if (j < 0 || static_cast<size_t>(j) >= jointWorld.size()) return;
        glm::vec2 at;
        if (!projectToScreen(viewProj, jointWorld[j], width, height, at)) return;
        const char* name = sk.names[j].empty() ? "(unnamed)" : sk.names[j].c_str();
        const ImVec2 sz = ImGui::CalcTextSize(name);
        const glm::vec4 r(at.x + 3, at.y - 7, at.x + 5 + sz.x, at.y - 7 + sz.y);
        for (const glm::vec4& t : taken) {
            if (r.x < t.z && t.x < r.z && r.y < t.w && t.y < r.w) return;
        }
        taken.push_back(r);
        dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.z, r.w), IM_COL32(0, 0, 0, 140), 2.0f);
        dl->AddText(ImVec2(at.x + 4, at.y - 7), color, name);
        ++drawn;
    };
    if (s.selectedJoint >= 0 && static_cast<size_t>(s.selectedJoint) < sk.size()) label(s.selectedJoint, IM_COL32(255, 230, 60, 255));
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
    if (placed) *placed = taken;
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
        // The influences skinning blends (4, or 8 with the second set), as it weights them.
        const bool eight = blendsSecondSet(m, s.view.influences);
        const int n = eight ? kMostInfluences : kMaxInfluences;
        float sum = 0.0f;
        for (int k = 0; k < n; ++k) sum += k < kMaxInfluences ? m.weights[v][k] : m.weights2[v][k - kMaxInfluences];
        for (int k = 0; k < n; ++k) {
            const bool second = k >= kMaxInfluences;
            const float w = second ? m.weights2[v][k - kMaxInfluences] : m.weights[v][k];
            const uint16_t slot = second ? m.joints2[v][k - kMaxInfluences] : m.joints[v][k];
            if (w <= 0.0f || !(sum > 0.0f)) continue;
            const char* name = slot < m.skin.joints.size() ? s.model->skeleton.names[m.skin.joints[slot]].c_str() : "(mesh node)";
            ImGui::Text("%-24s %.4f", name, w / sum);
        }
        if (v < m.originalInfluenceCount.size()) {
            ImGui::TextDisabled("in the file: %d influences, sum %.4f", m.originalInfluenceCount[v], m.originalWeightSum[v]);
        }
    }
    ImGui::EndTooltip();
}

}  // namespace rig
