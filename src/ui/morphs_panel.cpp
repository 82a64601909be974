// The Morphs panel: morph target weights of one mesh, and one target's weight curve.
#include "ui/panels.h"

#include <algorithm>
#include <cmath>

#include "ui/widgets.h"

namespace rig {

void drawMorphsPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Morphs);
    if (!ImGui::Begin("Morphs", open, panelFlags)) {
        ImGui::End();
        return;
    }
    probeItem(probe, "morphs");
    const Model* model = s.model.get();
    MorphPanelState& p = s.morphs;
    if (!model || !s.animator) {
        ImGui::TextDisabled("No model.");
        ImGui::End();
        return;
    }
    auto hasTargets = [&](int m) {
        return m >= 0 && static_cast<size_t>(m) < model->meshes.size() && !model->meshes[m].morphTargets.empty();
    };
    if (!hasTargets(p.mesh)) {
        p.mesh = -1;
        for (size_t m = 0; m < model->meshes.size() && p.mesh < 0; ++m) {
            if (hasTargets(static_cast<int>(m))) p.mesh = static_cast<int>(m);
        }
        p.target = 0;
    }
    if (p.mesh < 0) {
        ImGui::TextWrapped("No morph targets in this model (glTF morph targets and FBX blend shapes are read).");
        ImGui::End();
        return;
    }
    ImGui::SetNextItemWidth(widthBeside("mesh"));
    if (ImGui::BeginCombo("mesh", model->meshes[p.mesh].name.c_str())) {
        for (size_t m = 0; m < model->meshes.size(); ++m) {
            if (!hasTargets(static_cast<int>(m))) continue;
            ImGui::PushID(static_cast<int>(m));
            if (ImGui::Selectable(model->meshes[m].name.c_str(), p.mesh == static_cast<int>(m))) {
                p.mesh = static_cast<int>(m);
                p.target = 0;
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    const Mesh& mesh = model->meshes[p.mesh];
    const size_t nt = mesh.morphTargets.size();
    p.target = std::clamp(p.target, 0, static_cast<int>(nt) - 1);
    const float* weights = s.animator->meshMorphWeights(static_cast<size_t>(p.mesh));
    bool anyOverride = false;
    textDisabledWrapped("override | weight | target (click to plot)");
    for (size_t t = 0; t < nt; ++t) {
        ImGui::PushID(static_cast<int>(t));
        const float held = s.animator->morphOverride(static_cast<size_t>(p.mesh), t);
        bool on = !std::isnan(held);
        anyOverride = anyOverride || on;
        if (ImGui::Checkbox("##on", &on)) {
            s.requests.morph = MorphRequest{p.mesh, static_cast<int>(t), on ? weights[t] : std::nanf("")};
        }
        probeItem(probe, "morph-override:" + mesh.morphTargets[t].name);
        ImGui::SameLine();
        float w = weights[t];
        // The slider shrinks in a narrow panel; the target's name goes below it where it does not fit.
        const float sliderW = std::max(ImGui::GetFrameHeight(), std::min(std::round(7.0f * ImGui::GetFontSize()),
                                        ImGui::GetContentRegionAvail().x));
        ImGui::SetNextItemWidth(sliderW);
        ImGui::BeginDisabled(!on);
        if (ImGui::SliderFloat("##w", &w, 0.0f, 1.0f, "%.3f") && on) {
            s.requests.morph = MorphRequest{p.mesh, static_cast<int>(t), w};
        }
        ImGui::EndDisabled();
        probeItem(probe, "morph-slider:" + mesh.morphTargets[t].name);
        sameLineIfFits(textWidth(mesh.morphTargets[t].name.c_str()));
        if (ImGui::Selectable(mesh.morphTargets[t].name.c_str(), p.target == static_cast<int>(t))) p.target = static_cast<int>(t);
        ImGui::PopID();
    }
    ImGui::BeginDisabled(!anyOverride);
    if (ImGui::Button("Release all")) s.requests.releaseMorphs = true;
    ImGui::EndDisabled();
    probeItem(probe, "morph-release");

    // The selected target's weight over the current clip, sampled when the choice changes.
    const Clip* clip = currentClip(s);
    const MorphTrack* track = nullptr;
    if (clip) {
        for (const MorphTrack& tr : clip->morphTracks) {
            if (tr.mesh == p.mesh && tr.targets == nt) track = &tr;
        }
    }
    ImGui::Separator();
    if (!track) {
        ImGui::TextWrapped("%s", clip ? "The current clip does not animate this mesh's weights." : "No clip playing.");
        ImGui::End();
        return;
    }
    const float start = clip->startTime, end = std::max(clip->duration, clip->startTime);
    if (p.curveForModel != model || p.curveForMesh != p.mesh || p.curveForTarget != p.target || p.curveForClip != s.clip) {
        constexpr int kSamples = 200;
        p.curve.assign(kSamples, 0.0f);
        p.scratch.assign(nt, 0.0f);
        uint32_t cursor = 0;
        for (int i = 0; i < kSamples; ++i) {
            const float t = start + (end - start) * static_cast<float>(i) / (kSamples - 1);
            sampleMorphTrack(*clip, *track, t, cursor, p.scratch.data());
            p.curve[i] = p.scratch[p.target];
        }
        p.curveForModel = model;
        p.curveForMesh = p.mesh;
        p.curveForTarget = p.target;
        p.curveForClip = s.clip;
    }
    float lo = 0.0f, hi = 1.0f;
    for (float v : p.curve) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const char* interp = track->interpolation == WeightInterpolation::Step          ? "step"
                         : track->interpolation == WeightInterpolation::CubicSpline ? "cubic spline"
                                                                                    : "linear";
    ImGui::TextWrapped("'%s' in '%s' (%u keys, %s)", mesh.morphTargets[p.target].name.c_str(), clip->name.c_str(), track->count, interp);
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 90.0f);
    ImGui::PlotLines("##curve", p.curve.data(), static_cast<int>(p.curve.size()), 0, nullptr, lo, hi, size);
    probeItem(probe, "morph-curve");
    // The current time: a vertical line over the plot.
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float now = static_cast<float>(s.timeline.time);
    const float f = end > start ? std::clamp((now - start) / (end - start), 0.0f, 1.0f) : 0.0f;
    const float x = a.x + f * (b.x - a.x);
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 200, 60, 255), 2.0f);
    ImGui::TextWrapped("t = %.3f s   weight now %.3f", now, weights[p.target]);
    ImGui::End();
}

}  // namespace rig
