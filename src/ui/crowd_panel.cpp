#include "ui/crowd_panel.h"

#include <algorithm>

#include "ui/widgets.h"

namespace rig {

namespace {

void probe(UiProbe* p, const char* name) {
    if (p) p->recordLastItem(name);
}

}  // namespace

void drawCrowdPanel(ViewerState& s, UiProbe* p) {
    CrowdState& c = s.crowd;
    if (!c.panelOpen) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Crowd);
    if (ImGui::Begin("Crowd", &c.panelOpen, panelFlags)) {
        if (ImGui::Checkbox("Show crowd", &c.enabled)) {
            // On: frame what the crowd draws; off: frame the single model again.
            if (c.enabled) c.frameRequested = true;
            else s.requests.frameModel = true;
        }
        probe(p, "crowd:on");
        ImGui::SetNextItemWidth(widthBeside("phase spread"));
        if (ImGui::SliderInt("instances", &c.instances, 1, 10000, "%d", ImGuiSliderFlags_Logarithmic)) {
            c.frameRequested = true;
        }
        probe(p, "crowd:instances");
        c.instances = std::clamp(c.instances, 1, 10000);
        ImGui::SetNextItemWidth(widthBeside("phase spread"));
        if (ImGui::DragFloat("spacing", &c.spacing, 0.01f, 0.0f, 1e4f, "%.2f")) c.frameRequested = true;
        c.spacing = std::max(c.spacing, 0.0f);
        int clips = static_cast<int>(c.clips);
        const char* names[] = {"all the same", "cycle through clips", "random"};
        ImGui::SetNextItemWidth(widthBeside("phase spread"));
        if (ImGui::Combo("clips", &clips, names, 3)) c.clips = static_cast<CrowdClips>(clips);
        probe(p, "crowd:clips");
        ImGui::SetNextItemWidth(widthBeside("phase spread"));
        ImGui::SliderFloat("phase spread", &c.phaseSpread, 0.0f, 1.0f, "%.2f");
        ImGui::SetNextItemWidth(widthBeside("phase spread"));
        ImGui::SliderFloat("rate spread", &c.rateSpread, 0.0f, 1.0f, "%.2f");
        ImGui::SetNextItemWidth(widthBeside("phase spread"));
        ImGui::SliderInt("threads", &c.threads, 1, 16);
        bool budgeted = c.budgeted;
        if (ImGui::Checkbox(fitCheck("keep within frame budget###budget", "frame budget###budget"), &budgeted)) {
            // Unticked where the whole crowd would take over a second a frame: asked first.
            if (!budgeted && c.enabled && c.unbudgetedMs() > kCrowdAskAboveMs) {
                c.askUnbudgeted = true;
            } else {
                c.budgeted = budgeted;
            }
        }
        probe(p, "crowd:budgeted");
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("pose and draw only the instances nearest the grid's centre that fit %.0f ms a frame",
                              kCrowdBudgetMs);
        }
        if (c.askUnbudgeted) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.3f, 1));
            ImGui::TextWrapped("All %d instances would take about %.1f s a frame here; the window would answer that slowly.",
                               c.instances, c.unbudgetedMs() / 1000.0f);
            ImGui::PopStyleColor();
            probe(p, "crowd:ask");
            if (ImGui::Button("Draw all anyway")) {
                c.budgeted = false;
                c.askUnbudgeted = false;
            }
            probe(p, "crowd:ask:all");
            ImGui::SameLine();
            if (ImGui::Button("Keep the budget")) c.askUnbudgeted = false;
            probe(p, "crowd:ask:keep");
        }
        if (ImGui::Button("Frame crowd")) c.frameRequested = true;
        textDisabledWrapped("instanced: one draw per mesh; linear blend");
        if (c.linearFallback) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.3f, 1));
            ImGui::TextWrapped("dual quaternions: drawn with linear blend");
            ImGui::PopStyleColor();
        }
        if (c.problem) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.4f, 1));
            ImGui::TextWrapped("%s", c.problem);
            ImGui::PopStyleColor();
        }
        if (c.enabled) {  // the Stats panel shows these too
            if (c.capped()) {
                ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.3f, 1));
                ImGui::TextWrapped("drawing %zu of %d instances (frame budget)", c.posed, c.instances);
                ImGui::PopStyleColor();
                probe(p, "crowd:budget-note");
            }
            ImGui::TextWrapped("%zu drawn (%zu at low detail), %zu culled", c.drawn, c.lowDetail, c.culled);
            ImGui::TextWrapped("update %.2f ms, draw %.2f ms", c.updateMs, c.drawMs);
        }
    }
    ImGui::End();
}

void drawCrowdBudgetNote(const ViewerState& s, UiProbe* p) {
    const CrowdState& c = s.crowd;
    if (!c.enabled || !c.capped()) return;
    const LayoutRect& v = s.ui.layout.rects.centre;
    ImGui::SetNextWindowPos(ImVec2(v.x + 8.0f, v.y + 8.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.6f);
    const int flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoSavedSettings |
                      ImGuiWindowFlags_NoInputs;  // the camera still turns under it
    if (ImGui::Begin("##crowd-budget", nullptr, flags)) {
        ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "drawing %zu of %d instances (frame budget)", c.posed, c.instances);
        probe(p, "crowd:viewport-note");
    }
    ImGui::End();
}

void drawCrowdStats(const ViewerState& s) {
    const CrowdState& c = s.crowd;
    if (!c.enabled) return;
    ImGui::Separator();
    ImGui::TextWrapped("crowd: %zu of %d posed, %zu drawn (%zu at low detail), %zu culled", c.posed, c.instances, c.drawn,
                       c.lowDetail, c.culled);
    ImGui::TextWrapped("update %.2f ms, draw %.2f ms", c.updateMs, c.drawMs);
    if (c.budgeted) ImGui::TextWrapped("crowd %.1f ms of a %.0f ms budget", c.updateMs + c.drawMs, kCrowdBudgetMs);
    if (c.gpuMs >= 0.0f) ImGui::TextWrapped("GPU draw %.2f ms", c.gpuMs);
}

}  // namespace rig
