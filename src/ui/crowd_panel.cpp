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
        if (ImGui::Checkbox("Show crowd", &c.enabled) && c.enabled) c.frameRequested = true;
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
            ImGui::TextWrapped("%zu drawn, %zu culled", c.drawn, c.culled);
            ImGui::TextWrapped("update %.2f ms, draw %.2f ms", c.updateMs, c.drawMs);
        }
    }
    ImGui::End();
}

void drawCrowdStats(const ViewerState& s) {
    const CrowdState& c = s.crowd;
    if (!c.enabled) return;
    ImGui::Separator();
    ImGui::TextWrapped("crowd: %zu drawn, %zu culled", c.drawn, c.culled);
    ImGui::TextWrapped("update %.2f ms, draw %.2f ms", c.updateMs, c.drawMs);
    if (c.gpuMs >= 0.0f) ImGui::TextWrapped("GPU draw %.2f ms", c.gpuMs);
}

}  // namespace rig
