// The Blend panel: the animation controller's cross-fades, two-clip blends, partial-skeleton
// and additive layers, root motion and markers.
#include "ui/panels.h"

#include "ui/widgets.h"

namespace rig {

namespace {

bool clipCombo(const char* label, const Model& m, int* clip) {
    const char* preview = *clip >= 0 && static_cast<size_t>(*clip) < m.clips.size() ? m.clips[*clip].name.c_str() : "-";
    bool changed = false;
    if (ImGui::BeginCombo(label, preview)) {
        for (size_t i = 0; i < m.clips.size(); ++i) {
            if (ImGui::Selectable(m.clips[i].name.c_str(), static_cast<int>(i) == *clip)) {
                *clip = static_cast<int>(i);
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

void drawBlendPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open || !s.model) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Blend);
    if (ImGui::Begin("Blend", open, panelFlags)) {
        BlendState& b = s.blend;
        BlendRequests& q = s.requests.blend;
        const Model& m = *s.model;
        if (m.clips.empty()) {
            textDisabledWrapped("This model has no clips.");
            ImGui::End();
            return;
        }
        if (!b.active) {
            if (ImGui::Button(fitButton("Drive with the controller###drive", "Drive###drive"))) q.start = true;
            probeItem(probe, "blend:start");
            textDisabledWrapped("The timeline plays one clip; the controller blends.");
            ImGui::End();
            return;
        }
        if (ImGui::Button(fitButton("Back to the timeline###stop", "Stop###stop"))) q.stop = true;
        // Combos and sliders leave room for the longest of their labels.
        const float labelW = widthBeside("reference");
        ImGui::Separator();
        ImGui::TextWrapped("Cross-fade");
        ImGui::SetNextItemWidth(labelW);
        clipCombo("to clip##fade", m, &b.fadeTarget);
        ImGui::SetNextItemWidth(labelW);
        ImGui::SliderFloat("seconds##fade", &b.fadeSeconds, 0.0f, 3.0f, "%.2f");
        ImGui::RadioButton("smooth", &b.fadeMode, 0);
        sameLineIfFits(checkWidth("frozen"));
        ImGui::RadioButton("frozen", &b.fadeMode, 1);
        sameLineIfFits(buttonWidth("cubic in-out") + ImGui::GetFrameHeight());
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::Combo("##ease", &b.ease, "linear\0smoothstep\0cubic in\0cubic out\0cubic in-out\0");
        if (ImGui::Button("Cross-fade")) q.crossFade = true;
        probeItem(probe, "blend:crossfade");
        ImGui::Separator();
        ImGui::TextWrapped("Two-clip blend (phase-synced)");
        ImGui::SetNextItemWidth(labelW);
        clipCombo("A##blend", m, &b.blendA);
        ImGui::SetNextItemWidth(labelW);
        clipCombo("B##blend", m, &b.blendB);
        if (ImGui::Button("Blend A..B")) q.blend = true;
        probeItem(probe, "blend:blend");
        sameLineIfFits(buttonWidth("A 0.00 B"));
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::SliderFloat("##param", &b.blendParam, 0.0f, 1.0f, "A %.2f B")) q.blendParam = b.blendParam;
        probeItem(probe, "blend:param");
        ImGui::Separator();
        ImGui::TextWrapped("Partial skeleton (selected joint's subtree)");
        ImGui::SetNextItemWidth(labelW);
        clipCombo("clip##mask", m, &b.maskClip);
        ImGui::SetNextItemWidth(labelW);
        if (ImGui::SliderFloat("weight##mask", &b.maskWeight, 0.0f, 1.0f)) q.maskWeight = b.maskWeight;
        if (ImGui::Button(s.selectedJoint >= 0 ? fitButton("Play on subtree###mask", "Play###mask") : fitButton("Select a joint first###mask", "No joint###mask"))) q.mask = s.selectedJoint >= 0;
        probeItem(probe, "blend:mask");
        sameLineIfFits(buttonWidth("Off"));
        if (ImGui::Button("Off##mask")) q.maskOff = true;
        if (b.maskJoint >= 0) textDisabledWrapped("masked from %s", m.skeleton.names[b.maskJoint].c_str());
        ImGui::Separator();
        ImGui::TextWrapped("Additive (source - reference)");
        ImGui::SetNextItemWidth(labelW);
        clipCombo("source##add", m, &b.addSource);
        ImGui::SetNextItemWidth(labelW);
        clipCombo("reference##add", m, &b.addReference);
        ImGui::SetNextItemWidth(labelW);
        if (ImGui::SliderFloat("weight##add", &b.addWeight, 0.0f, 2.0f)) q.addWeight = b.addWeight;
        if (ImGui::Button("Add layer")) q.additive = true;
        probeItem(probe, "blend:additive");
        sameLineIfFits(buttonWidth("Off"));
        if (ImGui::Button("Off##add")) q.additiveOff = true;
        ImGui::Separator();
        ImGui::TextWrapped("Root motion and events");
        if (ImGui::Checkbox("In place", &b.inPlace)) q.rootMotion = true;
        probeItem(probe, "blend:inplace");
        sameLineIfFits(checkWidth("Show root path"));
        ImGui::Checkbox("Show root path", &b.showRootPath);
        if (ImGui::Button(fitButton("Marker at current time###marker", "Marker###marker"))) q.addMarker = true;
        probeItem(probe, "blend:marker");
        for (const std::string& e : b.eventLog) textDisabledWrapped("%s", e.c_str());
    }
    ImGui::End();
}

}  // namespace rig
