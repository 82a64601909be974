// The View panel: skinning, overlays, lighting, background, UI scale and the camera.
#include "ui/panels.h"

#include <glm/gtc/type_ptr.hpp>

#include "ui/widgets.h"

namespace rig {

void drawViewPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::View);
    if (ImGui::Begin("View", open, panelFlags)) {
        ViewOptions& v = s.view;
        int skin = v.skinning == SkinningMode::Gpu ? 0 : 1;
        ImGui::Text("Skinning");
        ImGui::SameLine();
        if (ImGui::RadioButton("GPU", &skin, 0)) v.skinning = SkinningMode::Gpu;
        probeItem(probe, "skin:gpu");
        ImGui::SameLine();
        if (ImGui::RadioButton("CPU", &skin, 1)) v.skinning = SkinningMode::Cpu;
        probeItem(probe, "skin:cpu");
        ImGui::Checkbox("Wireframe (W)", &v.wireframe);
        probeItem(probe, "wireframe");
        ImGui::Checkbox("Bones (B)", &v.bones);
        probeItem(probe, "bones");
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Names (N)").x - ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::Combo("Names (N)", &s.ui.jointNameMode, "selection\0all\0none\0");
        probeItem(probe, "names");
        ImGui::Checkbox("Grid (G)", &v.grid);
        probeItem(probe, "grid");
        ImGui::Checkbox("Axes", &v.axes);
        probeItem(probe, "axes");
        ImGui::Checkbox("Bounding box", &v.bounds);
        probeItem(probe, "bounds");
        ImGui::Separator();
        ImGui::Checkbox("Lighting", &v.lighting);
        ImGui::SameLine();
        ImGui::Checkbox("Headlight", &v.headlight);
        ImGui::Checkbox("Textures", &v.textures);
        // Labels sized to their text (no "Backgrour").
        const float labelW = ImGui::CalcTextSize("Background").x + ImGui::GetStyle().ItemInnerSpacing.x;
        ImGui::SetNextItemWidth(-labelW);
        ImGui::SliderFloat("Ambient", &v.ambient, 0.0f, 1.0f);
        ImGui::SetNextItemWidth(-labelW);
        ImGui::ColorEdit3("Background", glm::value_ptr(v.background));
        probeItem(probe, "background");
        ImGui::SetNextItemWidth(-labelW);
        ImGui::SliderFloat("UI scale", &s.ui.uiScale, 0.75f, 3.0f, "%.2fx");
        probeItem(probe, "uiscale");
        ImGui::Separator();
        ImGui::Checkbox("Z up", &s.camera.zUp);
        if (ImGui::Button("Frame (F)")) s.requests.frameModel = true;
        ImGui::SameLine();
        if (ImGui::Button("Reset camera")) s.requests.resetCamera = true;
    }
    ImGui::End();
}

}  // namespace rig
