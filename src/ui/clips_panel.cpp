// The Clips panel: the model's clips (what plays highlighted), bind pose or file pose.
#include "ui/panels.h"

#include <cstdio>

#include "ui/compression_panel_section.h"
#include "ui/widgets.h"

namespace rig {

void drawClipsPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Clips);
    if (ImGui::Begin("Clips", open, panelFlags)) {
        if (!s.model || s.model->clips.empty()) {
            ImGui::TextDisabled("This model has no clips (bind pose).");
        } else {
            for (size_t i = 0; i < s.model->clips.size(); ++i) {
                const Clip& c = s.model->clips[i];
                char label[256];
                std::snprintf(label, sizeof label, "%s##clip%zu", c.name.c_str(), i);
                // Highlighted: what plays now (a blend space's clips, each by its weight).
                const float share = i < s.timeline.clipShare.size() ? s.timeline.clipShare[i] : 0.0f;
                if (ImGui::Selectable(label, share > 0.0f)) s.requests.selectClip = static_cast<int>(i);
                probeItem(probe, "clip:" + c.name);
                // The duration at the panel's right edge, or under the name where both do not fit.
                char duration[64];
                if (share > 0.0f && share < 1.0f) std::snprintf(duration, sizeof duration, "%.2f s  %.0f%%", c.duration, 100.0f * share);
                else std::snprintf(duration, sizeof duration, "%.2f s", c.duration);
                const float column = ImGui::GetWindowContentRegionMax().x - textWidth(duration);
                const float nameEnd = ImGui::GetItemRectMin().x - ImGui::GetWindowPos().x + textWidth(c.name.c_str());
                const bool beside = column >= nameEnd + ImGui::GetStyle().ItemSpacing.x;
                if (beside) ImGui::SameLine(column);
                else ImGui::Indent();
                ImGui::TextDisabled("%s", duration);
                if (!beside) ImGui::Unindent();
            }
        }
        drawCompressionSection(s, probe);
        ImGui::Checkbox("Bind pose", &s.bindPose);
        probeItem(probe, "bindpose");
        if (s.bindPose) {
            // The pose the skin was bound in (inverse bind matrices), or the nodes' defaults.
            int which = s.filePose ? 1 : 0;
            sameLineIfFits(checkWidth("skin"));
            ImGui::RadioButton("skin", &which, 0);
            probeItem(probe, "bindpose:skin");
            sameLineIfFits(checkWidth("file pose"));
            ImGui::RadioButton("file pose", &which, 1);
            probeItem(probe, "bindpose:file");
            s.filePose = which == 1;
        }
    }
    ImGui::End();
}

}  // namespace rig
