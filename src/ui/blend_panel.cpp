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
            ImGui::TextDisabled("This model has no clips.");
            ImGui::End();
            return;
        }
        if (!b.active) {
            if (ImGui::Button("Drive with the controller")) q.start = true;
            probeItem(probe, "blend:start");
            ImGui::TextDisabled("The timeline plays one clip; the controller blends.");
            ImGui::End();
            return;
        }
        if (ImGui::Button("Back to the timeline")) q.stop = true;
        ImGui::Separator();
        ImGui::TextUnformatted("Cross-fade");
        ImGui::SetNextItemWidth(-110);
        clipCombo("to clip##fade", m, &b.fadeTarget);
        ImGui::SetNextItemWidth(-110);
        ImGui::SliderFloat("seconds##fade", &b.fadeSeconds, 0.0f, 3.0f, "%.2f");
        ImGui::RadioButton("smooth", &b.fadeMode, 0);
        ImGui::SameLine();
        ImGui::RadioButton("frozen", &b.fadeMode, 1);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1);
        ImGui::Combo("##ease", &b.ease, "linear\0smoothstep\0cubic in\0cubic out\0cubic in-out\0");
        if (ImGui::Button("Cross-fade")) q.crossFade = true;
        probeItem(probe, "blend:crossfade");
        ImGui::Separator();
        ImGui::TextUnformatted("Two-clip blend (phase-synced)");
        ImGui::SetNextItemWidth(-110);
        clipCombo("A##blend", m, &b.blendA);
        ImGui::SetNextItemWidth(-110);
        clipCombo("B##blend", m, &b.blendB);
        if (ImGui::Button("Blend A..B")) q.blend = true;
        probeItem(probe, "blend:blend");
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1);
        if (ImGui::SliderFloat("##param", &b.blendParam, 0.0f, 1.0f, "A %.2f B")) q.blendParam = b.blendParam;
        probeItem(probe, "blend:param");
        ImGui::Separator();
        ImGui::TextUnformatted("Partial skeleton (selected joint's subtree)");
        ImGui::SetNextItemWidth(-110);
        clipCombo("clip##mask", m, &b.maskClip);
        ImGui::SetNextItemWidth(-110);
        if (ImGui::SliderFloat("weight##mask", &b.maskWeight, 0.0f, 1.0f)) q.maskWeight = b.maskWeight;
        if (ImGui::Button(s.selectedJoint >= 0 ? "Play on subtree" : "Select a joint first")) q.mask = s.selectedJoint >= 0;
        probeItem(probe, "blend:mask");
        ImGui::SameLine();
        if (ImGui::Button("Off##mask")) q.maskOff = true;
        if (b.maskJoint >= 0) ImGui::TextDisabled("masked from %s", m.skeleton.names[b.maskJoint].c_str());
        ImGui::Separator();
        ImGui::TextUnformatted("Additive (source - reference)");
        ImGui::SetNextItemWidth(-110);
        clipCombo("source##add", m, &b.addSource);
        ImGui::SetNextItemWidth(-110);
        clipCombo("reference##add", m, &b.addReference);
        ImGui::SetNextItemWidth(-110);
        if (ImGui::SliderFloat("weight##add", &b.addWeight, 0.0f, 2.0f)) q.addWeight = b.addWeight;
        if (ImGui::Button("Add layer")) q.additive = true;
        probeItem(probe, "blend:additive");
        ImGui::SameLine();
        if (ImGui::Button("Off##add")) q.additiveOff = true;
        ImGui::Separator();
        ImGui::TextUnformatted("Root motion and events");
        if (ImGui::Checkbox("In place", &b.inPlace)) q.rootMotion = true;
        probeItem(probe, "blend:inplace");
        ImGui::SameLine();
        ImGui::Checkbox("Show root path", &b.showRootPath);
        if (ImGui::Button("Marker at current time")) q.addMarker = true;
        probeItem(probe, "blend:marker");
        for (const std::string& e : b.eventLog) ImGui::TextDisabled("%s", e.c_str());
    }
    ImGui::End();
}

}  // namespace rig
