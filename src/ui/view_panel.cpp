// The View panel: the view options (render/view_options.h) in the table's order, the UI scale,
// the camera, and the Environment section (ui/environment_section.cpp).
#include "ui/panels.h"

#include <algorithm>

#include "ui/widgets.h"

namespace rig {

void drawViewPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::View);
    if (ImGui::Begin("View", open, panelFlags)) {
        // Combos, sliders and colours leave room for the longest of their labels (no "Backgrour").
        float labelW = ImGui::CalcTextSize("UI scale").x;
        for (const ViewOptionSpec& o : viewOptionTable()) {
            if (o.panel == ViewPanelSlot::View && o.type != ViewOptionType::Flag && !o.radio && !inEnvironmentSection(o.key)) {
                labelW = std::max(labelW, ImGui::CalcTextSize(o.label).x);
            }
        }
        labelW += ImGui::GetStyle().ItemInnerSpacing.x;
        for (const ViewOptionSpec& o : viewOptionTable()) {
            if (o.panel != ViewPanelSlot::View || inEnvironmentSection(o.key)) continue;
            if (o.separatorBefore) ImGui::Separator();
            if (o.sameLine) sameLineIfFits(checkWidth(o.label));
            drawViewOption(o, s.view, -labelW, probe);
        }
        ImGui::SetNextItemWidth(-labelW);
        ImGui::SliderFloat("UI scale", &s.ui.uiScale, 0.75f, 3.0f, "%.2fx");
        probeItem(probe, "uiscale");
        ImGui::Separator();
        bool zUp = s.camera.zUp;
        if (ImGui::Checkbox(fitCheck("Z up (this file)###zup", "Z up###zup"), &zUp)) s.requests.zUp = zUp;
        probeItem(probe, "zup");
        if (!s.ui.upAxisSource.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("Up axis: %s", s.ui.upAxisSource.c_str());
        if (ImGui::Button("Frame (F)")) s.requests.frameModel = true;
        sameLineIfFits(buttonWidth("Reset camera"));
        if (ImGui::Button("Reset camera")) s.requests.resetCamera = true;
        drawEnvironmentSection(s, probe);
    }
    ImGui::End();
}

}  // namespace rig
