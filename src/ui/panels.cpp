#include "ui/panels.h"

#include "ui/compression_panel_section.h"
#include "ui/crowd_panel.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/gtc/type_ptr.hpp>

#include "ui/legend.h"
#include "ui/timeline_panel.h"

namespace rig {

void UiProbe::recordLastItem(const std::string& name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rects[name] = ImVec4(a.x, a.y, b.x, b.y);
}

namespace {

void probeItem(UiProbe* probe, const std::string& name) {
    if (probe) probe->recordLastItem(name);
}

const Clip* currentClip(const ViewerState& s) {
    if (!s.model || s.clip < 0 || static_cast<size_t>(s.clip) >= s.model->clips.size()) return nullptr;
    return &s.model->clips[s.clip];
}

}  // namespace

void drawMenuBar(ViewerState& s) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("Panels")) {
        ImGui::MenuItem("Open", nullptr, &s.panels.open);
        ImGui::MenuItem("Clips", nullptr, &s.panels.clips);
        ImGui::MenuItem("Timeline", nullptr, &s.panels.timeline);
        ImGui::MenuItem("Hierarchy", nullptr, &s.panels.hierarchy);
        ImGui::MenuItem("View", nullptr, &s.panels.view);
        ImGui::MenuItem("Stats", nullptr, &s.panels.stats);
        ImGui::MenuItem("Checks", nullptr, &s.panels.checks);
        ImGui::MenuItem("Blend", nullptr, &s.panels.blend);
        ImGui::MenuItem("Morphs", nullptr, &s.panels.morphs);
        ImGui::MenuItem("Crowd", nullptr, &s.crowd.panelOpen);
        ImGui::MenuItem("IK", nullptr, &s.panels.ik);
        ImGui::MenuItem("State Machine", nullptr, &s.panels.machine);
        ImGui::Separator();
        if (ImGui::BeginMenu("Layout")) {
            drawLayoutMenu(s.ui.layout);
            ImGui::EndMenu();
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open...", "Ctrl+O")) s.ui.fileBrowser = true;
        if (ImGui::MenuItem("Next file in folder", "PageDown", false, !s.path.empty())) s.requests.nextFile = 1;
        if (ImGui::MenuItem("Previous file in folder", "PageUp", false, !s.path.empty())) s.requests.nextFile = -1;
        if (ImGui::MenuItem("Screenshot", "F12")) s.requests.screenshot = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Camera")) {
        if (ImGui::MenuItem("Frame model", "F")) s.requests.frameModel = true;
        if (ImGui::MenuItem("Reset", nullptr)) s.requests.resetCamera = true;
        ImGui::MenuItem("Z up", nullptr, &s.camera.zUp);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("Shortcuts", "F1", &s.ui.help);
        ImGui::MenuItem("About rigview", nullptr, &s.ui.about);
        ImGui::EndMenu();
    }
    ImGui::TextDisabled("  %s", s.path.empty() ? "(no model)" : s.path.c_str());
    ImGui::EndMainMenuBar();
}

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
                ImGui::SameLine(180);
                if (share > 0.0f && share < 1.0f) ImGui::TextDisabled("%.2f s  %.0f%%", c.duration, 100.0f * share);
                else ImGui::TextDisabled("%.2f s", c.duration);
            }
        }
        drawCompressionSection(s, probe);
        ImGui::Checkbox("Bind pose", &s.bindPose);
        probeItem(probe, "bindpose");
        if (s.bindPose) {
            // The pose the skin was bound in (inverse bind matrices), or the nodes' defaults.
            ImGui::SameLine();
            int which = s.filePose ? 1 : 0;
            ImGui::RadioButton("skin", &which, 0);
            probeItem(probe, "bindpose:skin");
            ImGui::SameLine();
            ImGui::RadioButton("file pose", &which, 1);
            probeItem(probe, "bindpose:file");
            s.filePose = which == 1;
        }
    }
    ImGui::End();
}

void drawTimelinePanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Timeline);
    if (ImGui::Begin("Timeline", open, panelFlags)) {
        drawTimelineContent(s, probe);
    }
    ImGui::End();
}

namespace {

void drawNodeTree(ViewerState& s, const std::vector<std::vector<int32_t>>& children, int32_t node, UiProbe* probe) {
    const Model& m = *s.model;
    const bool leaf = children[node].empty();
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth |
                               ImGuiTreeNodeFlags_DefaultOpen;
    if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
    if (node == s.selectedJoint) flags |= ImGuiTreeNodeFlags_Selected;
    if (s.ui.scrollToSelection && !leaf && s.selectedJoint >= 0) {
        // Open the path down to a joint picked elsewhere (viewport, findings).
        for (int32_t a = m.skeleton.parent[s.selectedJoint]; a >= 0; a = m.skeleton.parent[a]) {
            if (a == node) {
                ImGui::SetNextItemOpen(true);
                break;
            }
        }
    }
    const bool opened = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(node) + 1), flags, "%s",
                                          m.skeleton.names[node].empty() ? "(unnamed)" : m.skeleton.names[node].c_str());
    if (ImGui::IsItemClicked()) s.selectedJoint = node;
    probeItem(probe, "node:" + m.skeleton.names[node]);
    if (node == s.selectedJoint && s.ui.scrollToSelection) {
        ImGui::SetScrollHereY(0.5f);
        s.ui.scrollToSelection = false;
    }
    if (opened && !leaf) {
        for (int32_t c : children[node]) drawNodeTree(s, children, c, probe);
        ImGui::TreePop();
    }
}

}  // namespace

void drawHierarchyPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Hierarchy);
    if (ImGui::Begin("Hierarchy", open, panelFlags)) {
        if (s.model) {
            const Model& m = *s.model;
            ImGui::BeginChild("tree", ImVec2(0, -220), true, ImGuiWindowFlags_HorizontalScrollbar);
            ImGui::PushStyleVar(ImGuiStyleVar_IndentSpacing, ImGui::GetFontSize() * 0.8f);  // deep rigs stay readable
            for (size_t i = 0; i < m.skeleton.size(); ++i) {
                if (m.skeleton.parent[i] < 0 && s.children.size() == m.skeleton.size()) drawNodeTree(s, s.children, static_cast<int32_t>(i), probe);
            }
            ImGui::PopStyleVar();
            probeItem(probe, "hierarchy:last");
            if (probe) {
                const ImVec2 a = ImGui::GetWindowPos(), sz = ImGui::GetWindowSize();
                probe->rects["hierarchy:tree"] = ImVec4(a.x, a.y, a.x + sz.x, a.y + sz.y);
            }
            ImGui::EndChild();
            // Inspector.
            const int j = s.selectedJoint;
            if (j >= 0 && static_cast<size_t>(j) < m.skeleton.size() && s.animator) {
                ImGui::Text("%s (node %d, parent %d)", m.skeleton.names[j].c_str(), j, m.skeleton.parent[j]);
                const Clip* clip = s.bindPose ? nullptr : currentClip(s);
                const bool animated = clip && clip->trackOfNode[j] >= 0;
                const bool skinBind = s.bindPose && !s.filePose;
                const Transform& t = animated ? s.animator->local()[j]
                                              : skinBind ? m.skeleton.bindPoseLocalSqt()[j] : m.skeleton.bindLocalSqt[j];
                // Sized to fit the panel (no clipped columns): 3 decimals, widths from the text.
                ImGui::Text("local %s, R as xyzw", animated ? "(animated)" : skinBind ? "(bind pose)" : "(file pose)");
                ImGui::Text("T % .3f % .3f % .3f", t.translation.x, t.translation.y, t.translation.z);
                ImGui::Text("R % .3f % .3f % .3f % .3f", t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w);
                ImGui::Text("S % .3f % .3f % .3f", t.scale.x, t.scale.y, t.scale.z);
                const glm::mat4& w = s.animator->world()[j];
                ImGui::Text("world");
                for (int r = 0; r < 4; ++r) ImGui::Text("% 7.3f % 7.3f % 7.3f % 8.3f", w[0][r], w[1][r], w[2][r], w[3][r]);
                if (ImGui::Button("Clear selection")) s.selectedJoint = -1;
            } else {
                ImGui::TextDisabled("Select a node to inspect it.");
            }
        }
    }
    ImGui::End();
}

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

void drawStatsPanel(ViewerState& s, bool* open) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Stats);
    if (ImGui::Begin("Stats", open, panelFlags)) {
        ImGui::Text("%.1f fps, %.2f ms per frame", s.stats.fps, s.stats.frameMs);
        ImGui::Text("palette update %.2f us", s.stats.paletteUs);
        if (s.model) {
            size_t verts = 0, tris = 0;
            for (const Mesh& m : s.model->meshes) {
                verts += m.vertexCount();
                tris += m.triangleCount();
            }
            ImGui::TextWrapped("%zu meshes, %zu vertices, %zu triangles", s.model->meshes.size(), verts, tris);
            ImGui::TextWrapped("%zu nodes, %zu joints, %zu clips", s.model->skeleton.size(), s.joints.size(),
                               s.model->clips.size());
        }
        ImGui::TextWrapped("%s", s.stats.glRenderer.c_str());
        drawCrowdStats(s);
        drawCompressionStats(s);
    }
    ImGui::End();
}

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
    ImGui::TextDisabled("override | weight | target (click to plot)");
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
        ImGui::SetNextItemWidth(110.0f);
        ImGui::BeginDisabled(!on);
        if (ImGui::SliderFloat("##w", &w, 0.0f, 1.0f, "%.3f") && on) {
            s.requests.morph = MorphRequest{p.mesh, static_cast<int>(t), w};
        }
        ImGui::EndDisabled();
        probeItem(probe, "morph-slider:" + mesh.morphTargets[t].name);
        ImGui::SameLine();
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
    ImGui::Text("'%s' in '%s' (%u keys, %s)", mesh.morphTargets[p.target].name.c_str(), clip->name.c_str(), track->count, interp);
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 90.0f);
    ImGui::PlotLines("##curve", p.curve.data(), static_cast<int>(p.curve.size()), 0, nullptr, lo, hi, size);
    probeItem(probe, "morph-curve");
    // The current time: a vertical line over the plot.
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float now = static_cast<float>(s.timeline.time);
    const float f = end > start ? std::clamp((now - start) / (end - start), 0.0f, 1.0f) : 0.0f;
    const float x = a.x + f * (b.x - a.x);
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 200, 60, 255), 2.0f);
    ImGui::Text("t = %.3f s   weight now %.3f", now, weights[p.target]);
    ImGui::End();
}

void drawChecksPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Checks);
    if (ImGui::Begin("Checks", open, panelFlags)) {
        probeItem(probe, "checks");
        CheckViewState& c = s.checks;
        int view = static_cast<int>(c.colorView);
        ImGui::SetNextItemWidth(-90);
        if (ImGui::Combo("Colours", &view,
                         "material\0joint weight\0influence count\0weight sum\0unweighted\0truncation error\0")) {
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
            drawLegend(legendFor(c.colorView, in));
            probeItem(probe, "legend");
        }
        int method = static_cast<int>(s.view.method);
        ImGui::SetNextItemWidth(-90);
        if (ImGui::Combo("Skinning", &method, "linear blend\0stitching (1 bone)\0dual quaternion\0")) {
            s.view.method = static_cast<SkinningMethod>(method);
        }
        probeItem(probe, "method");
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

void drawVertexTooltip(const ViewerState& s) {
    const CheckViewState& c = s.checks;
    if (!s.model || c.hoverMesh < 0 || c.hoverVertex < 0) return;
    const Mesh& m = s.model->meshes[c.hoverMesh];
    const size_t v = static_cast<size_t>(c.hoverVertex);
    ImGui::BeginTooltip();
    ImGui::Text("%s vertex %zu", m.name.c_str(), v);
    if (!m.skinned) {
        ImGui::TextDisabled("not skinned: follows %s", s.model->skeleton.names[m.node].c_str());
    } else {
        const auto& j = m.joints[v];
        const glm::vec4& w = m.weights[v];
        for (int k = 0; k < kMaxInfluences; ++k) {
            if (w[k] <= 0.0f) continue;
            const char* name = j[k] < m.skin.joints.size() ? s.model->skeleton.names[m.skin.joints[j[k]]].c_str() : "(mesh node)";
            ImGui::Text("%-24s %.4f", name, w[k]);
        }
        if (v < m.originalInfluenceCount.size()) {
            ImGui::TextDisabled("in the file: %d influences, sum %.4f", m.originalInfluenceCount[v], m.originalWeightSum[v]);
        }
    }
    ImGui::EndTooltip();
}

void drawOpenPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Open);
    if (ImGui::Begin("Open", open, panelFlags)) {
        if (ImGui::Button("Browse...")) s.ui.fileBrowser = true;
        probeItem(probe, "browse");
        ImGui::SameLine();
        char buf[1024];
        std::snprintf(buf, sizeof buf, "%s", s.pathField.c_str());
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Open Recent").x - 5.0f * ImGui::GetStyle().ItemSpacing.x -
                                ImGui::GetFrameHeight());
        const bool enter = ImGui::InputText("##path", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
        s.pathField = buf;
        probeItem(probe, "path");
        ImGui::SameLine();
        if ((ImGui::Button("Open") || enter) && !s.pathField.empty()) s.requests.open = s.pathField;
        probeItem(probe, "open");
        ImGui::SameLine();
        if (ImGui::BeginCombo("Recent", "Recent", ImGuiComboFlags_NoPreview)) {
            for (const std::string& r : s.recent) {
                if (ImGui::Selectable(r.c_str())) {
                    s.pathField = r;
                    s.requests.open = r;
                }
            }
            ImGui::EndCombo();
        }
        if (ImGui::Button("Add its clips to this model") && !s.pathField.empty()) s.requests.addAnim = s.pathField;
        probeItem(probe, "addanim");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("The other file's clips, bound to this model's joints by name");
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("Or drop a file on the window. Ctrl+O browses, PageDown / PageUp step through the folder.");
        ImGui::PopStyleColor();
    }
    ImGui::End();
}

void drawStatusOverlay(ViewerState& s, double now) {
    const ImGuiIO& io = ImGui::GetIO();
    if (s.loading) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::Begin("##loading", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
        const double elapsed = now - s.loadingSince;
        ImGui::Text("Loading %s  (%.1f s)", s.loadingPath.c_str(), elapsed);
        // An indeterminate bar: Assimp gives no reliable fraction.
        const float phase = static_cast<float>(std::fmod(elapsed, 1.2) / 1.2);
        ImGui::ProgressBar(phase, ImVec2(300, 0), "");
        ImGui::End();
    }
    // Errors and warnings sit at the bottom of the viewport, above the timeline, so they never
    // cover the path field (top) or the file browser where the name is corrected.
    const float bannerY = io.DisplaySize.y - 140.0f;
    if (!s.error.empty()) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, bannerY), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(120, 30, 30, 235));
        ImGui::Begin("##error", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoFocusOnAppearing);
        ImGui::TextUnformatted(s.error.c_str());
        if (s.model) ImGui::TextDisabled("Still showing the last good model: %s", s.path.c_str());
        if (ImGui::Button("Dismiss")) s.error.clear();
        ImGui::End();
        ImGui::PopStyleColor();
    }
    if (!s.warning.empty() && s.error.empty()) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, bannerY), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(120, 90, 20, 235));
        ImGui::Begin("##warning", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
        ImGui::TextUnformatted(s.warning.c_str());
        if (ImGui::Button("Dismiss##warning")) s.warning.clear();
        ImGui::End();
        ImGui::PopStyleColor();
    }
}

int drawJointNames(const ViewerState& s, const std::vector<glm::vec3>& jointWorld, const glm::mat4& viewProj,
                   float width, float height) {
    if (!s.model || s.ui.jointNameMode == 2) return 0;
    int drawn = 0;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const Skeleton& sk = s.model->skeleton;
    auto label = [&](int32_t j, ImU32 color) {
        if (j < 0 || static_cast<size_t>(j) >= jointWorld.size()) return;
        glm::vec2 at;
        if (!projectToScreen(viewProj, jointWorld[j], width, height, at)) return;
        const char* name = sk.names[j].empty() ? "(unnamed)" : sk.names[j].c_str();
        const ImVec2 sz = ImGui::CalcTextSize(name);
        dl->AddRectFilled(ImVec2(at.x + 3, at.y - 7), ImVec2(at.x + 5 + sz.x, at.y - 7 + sz.y), IM_COL32(0, 0, 0, 140), 2.0f);
        dl->AddText(ImVec2(at.x + 4, at.y - 7), color, name);
        ++drawn;
    };
    if (s.ui.jointNameMode == 1) {
        for (int32_t j : s.joints) {
            if (j != s.selectedJoint) label(j, IM_COL32(230, 230, 230, 220));
        }
    } else if (s.selectedJoint >= 0 && static_cast<size_t>(s.selectedJoint) < sk.size()) {
        // The selection and its neighbours only: readable on a full skeleton.
        label(sk.parent[s.selectedJoint], IM_COL32(170, 200, 255, 230));
        if (static_cast<size_t>(s.selectedJoint) < s.children.size()) {
            for (int32_t c : s.children[s.selectedJoint]) label(c, IM_COL32(170, 255, 190, 230));
        }
    }
    if (s.selectedJoint >= 0 && static_cast<size_t>(s.selectedJoint) < sk.size()) label(s.selectedJoint, IM_COL32(255, 230, 60, 255));
    return drawn;
}

}  // namespace rig
