// The Open panel: a path field, the file browser, recent files, and adding another file's clips.
#include "ui/panels.h"

#include <cstdio>

#include "ui/widgets.h"

namespace rig {

void drawOpenPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Open);
    if (ImGui::Begin("Open", open, panelFlags)) {
        // The path field takes the panel's whole width; the buttons go on the line below.
        char buf[1024];
        std::snprintf(buf, sizeof buf, "%s", s.pathField.c_str());
        ImGui::SetNextItemWidth(-FLT_MIN);
        const bool enter = ImGui::InputTextWithHint("##path", "model file path", buf, sizeof buf,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
        s.pathField = buf;
        probeItem(probe, "path");
        if ((ImGui::Button("Open") || enter) && !s.pathField.empty()) s.requests.open = s.pathField;
        probeItem(probe, "open");
        sameLineIfFits(buttonWidth("Browse..."));
        if (ImGui::Button("Browse...")) s.ui.fileBrowser = true;
        probeItem(probe, "browse");
        sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + textWidth("Recent"));
        if (ImGui::BeginCombo("Recent", "Recent", ImGuiComboFlags_NoPreview)) {
            for (const std::string& r : s.recent) {
                if (ImGui::Selectable(r.c_str())) {
                    s.pathField = r;
                    s.requests.open = r;
                }
            }
            ImGui::EndCombo();
        }
        // The long label where it fits, a short one in a narrow panel (never a clipped label).
        const char* add = "Add its clips to this model";
        if (ImGui::CalcTextSize(add).x + 2.0f * ImGui::GetStyle().FramePadding.x > ImGui::GetContentRegionAvail().x) add = "Add its clips";
        if (ImGui::Button(add) && !s.pathField.empty()) s.requests.addAnim = s.pathField;
        probeItem(probe, "addanim");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("The other file's clips, bound to this model's joints by name");
        // Another file to compare with is chosen in the file browser (the path field holds what
        // was opened last, which would compare the model with itself).
        ImGui::BeginDisabled(s.path.empty());
        if (ImGui::Button("Compare with...")) {
            s.ui.fileBrowser = true;
            s.ui.browser.forCompare = true;
            s.ui.browser.forEnvironment = false;
        }
        ImGui::EndDisabled();
        probeItem(probe, "compare");
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
            ImGui::SetTooltip("Choose another file: drawn as a ghost over this model at the same time, this model "
                              "coloured by how far each vertex is from it");
        }
        if (s.compare.active() || s.compare.loading) {
            sameLineIfFits(buttonWidth("Stop comparing"));
            if (ImGui::Button("Stop comparing")) s.requests.stopCompare = true;
            probeItem(probe, "stopcompare");
        }
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("Or drop a file on the window. Ctrl+O browses, PageDown / PageUp step through the folder.");
        ImGui::PopStyleColor();
    }
    ImGui::End();
}

}  // namespace rig
