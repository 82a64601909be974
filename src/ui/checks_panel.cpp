// The Checks panel: colour views and their legend, skinning method, bind-pose ghost, onion
// skin, range of motion, and the findings list.
#include "ui/panels.h"

#include <cstdio>

#include "ui/legend.h"
#include "ui/widgets.h"

namespace rig {

namespace {

// Compare mode: what B is, the largest deviation now and what diffModels found.
void drawCompareSection(ViewerState& s, UiProbe* probe) {
    const CompareState& k = s.compare;
    if (!k.active() && !k.loading) return;
    ImGui::Separator();
    if (k.loading) {
        ImGui::TextWrapped("comparing with %s: loading...", k.loadingPath.c_str());
        return;
    }
    ImGui::TextWrapped("comparing with %s", k.path.c_str());
    probeItem(probe, "compare:path");
    ImGui::TextWrapped("posed: %s", k.clip.empty() ? "bind pose (no clip of this name)" : k.clip.c_str());
    if (k.maxVertex >= 0) {
        ImGui::TextWrapped("max deviation %.3f mm: %s vertex %d (%s)", k.maxMm, k.maxMesh.c_str(), k.maxVertex,
                           k.maxJoint.c_str());
    } else {
        ImGui::TextWrapped("max deviation %.3f mm", k.maxMm);
    }
    probeItem(probe, "compare:max");
    if (!k.differs) {
        ImGui::TextUnformatted("diff: no differences");
    } else {
        ImGui::TextWrapped("diff: joints %zu added, %zu removed, %zu renamed, %zu reparented; %zu bind poses moved; "
                           "weights changed in %zu meshes; %zu meshes changed; clips %zu added, %zu removed, "
                           "%zu retimed, %zu moving differently",
                           k.jointsAdded, k.jointsRemoved, k.jointsRenamed, k.jointsReparented, k.bindPosesMoved,
                           k.weightsChanged, k.meshesChanged, k.clipsAdded, k.clipsRemoved, k.clipsRetimed, k.clipsMoving);
    }
    probeItem(probe, "compare:summary");
    if (ImGui::Button("Stop comparing")) s.requests.stopCompare = true;
    probeItem(probe, "compare:stop");
}

}  // namespace

void drawChecksPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Checks);
    if (ImGui::Begin("Checks", open, panelFlags)) {
        probeItem(probe, "checks");
        CheckViewState& c = s.checks;
        int view = static_cast<int>(c.colorView);
        ImGui::SetNextItemWidth(-90);
        if (ImGui::Combo("Colours", &view,
                         "material\0joint weight\0influence count\0weight sum\0unweighted\0truncation error\0deviation (compare)\0")) {
            c.colorView = static_cast<ColorView>(view);
        }
        probeItem(probe, "colorview");
        {
            LegendInputs in;
            if (s.model && s.selectedJoint >= 0 && static_cast<size_t>(s.selectedJoint) < s.model->skeleton.size()) {
                in.jointName = s.model->skeleton.names[s.selectedJoint];
            }
            in.truncationMax = c.truncationMax;
            in.flagged = s.ui.flaggedVertices;
            in.comparing = s.compare.active() && !s.compare.loading;
            in.deviationMaxMm = s.compare.maxMm;
            in.unmatched = s.compare.unmatched;
            drawLegend(legendFor(c.colorView, in));
            probeItem(probe, "legend");
        }
        drawCompareSection(s, probe);
        // The view options placed here (the skinning method).
        for (const ViewOptionSpec& o : viewOptionTable()) {
            if (o.panel == ViewPanelSlot::Checks) drawViewOption(o, s.view, -90, probe);
        }
        ImGui::Checkbox("Bind pose ghost", &c.bindGhost);
        probeItem(probe, "bindghost");
        ImGui::Checkbox("Onion skin", &c.onion);
        probeItem(probe, "onion");
        if (c.onion) {
            ImGui::SetNextItemWidth(-90);
            ImGui::SliderInt("ghosts", &c.onionCount, 1, 5);
            ImGui::SetNextItemWidth(-90);
            ImGui::SliderFloat("step (s)", &c.onionStep, 0.02f, 0.5f, "%.2f");
            const glm::vec4 past = onionTint(-1, c.onionCount), future = onionTint(1, c.onionCount);
            ImGui::TextColored(ImVec4(past.r, past.g, past.b, 1.0f), "%d past", c.onionCount);
            ImGui::SameLine();
            ImGui::TextColored(ImVec4(future.r, future.g, future.b, 1.0f), "%d future", c.onionCount);
            ImGui::SameLine();
            ImGui::TextDisabled("every %.2f s", c.onionStep);
        }
        ImGui::Checkbox("Range of motion", &c.rom);
        probeItem(probe, "rom");
        if (c.rom) {
            ImGui::SameLine();
            ImGui::Checkbox("all joints", &c.romAll);
            ImGui::SetNextItemWidth(-90);
            ImGui::SliderFloat("degrees", &c.romDegrees, 5.0f, 180.0f, "%.0f");
            if (c.romJoint >= 0 && s.model) {
                ImGui::Text("%s about its %c axis", s.model->skeleton.names[c.romJoint].c_str(), "XYZ"[c.romAxis]);
            } else {
                ImGui::TextDisabled("Select a joint, or tick all joints.");
            }
        }
        ImGui::Separator();
        ImGui::Text("%zu findings", c.report.findings.size());
        ImGui::BeginChild("findings", ImVec2(0, 0), true);
        for (size_t i = 0; i < c.report.findings.size(); ++i) {
            const Finding& f = c.report.findings[i];
            const ImVec4 col = f.severity == Severity::Error   ? ImVec4(1, 0.35f, 0.35f, 1)
                               : f.severity == Severity::Warning ? ImVec4(1, 0.8f, 0.3f, 1)
                                                                 : ImVec4(0.6f, 0.8f, 1, 1);
            ImGui::PushStyleColor(ImGuiCol_Text, col);
            char label[96];
            std::snprintf(label, sizeof label, "%s##finding%zu", f.code.c_str(), i);
            if (ImGui::Selectable(label)) s.requests.focusFinding = static_cast<int>(i);
            ImGui::PopStyleColor();
            probeItem(probe, "finding:" + f.code);
            // The message under its code, wrapped to the panel (not a tooltip).
            ImGui::Indent();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(f.message.c_str());
            ImGui::PopTextWrapPos();
            ImGui::Unindent();
        }
        ImGui::EndChild();
    }
    ImGui::End();
}

}  // namespace rig
