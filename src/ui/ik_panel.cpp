#include "ui/ik_panel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "ui/widgets.h"

namespace rig {

namespace {

// A combo over the skeleton's nodes; true when the pick changed.
bool jointCombo(const char* label, const Skeleton& sk, int& joint, UiProbe* probe, const std::string& probeName) {
    const bool valid = joint >= 0 && static_cast<size_t>(joint) < sk.size();
    bool changed = false;
    if (ImGui::BeginCombo(label, valid ? sk.names[joint].c_str() : "(none)")) {
        for (size_t i = 0; i < sk.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(sk.names[i].empty() ? "(unnamed)" : sk.names[i].c_str(), joint == static_cast<int>(i))) {
                joint = static_cast<int>(i);
                changed = true;
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    probeItem(probe, probeName);
    return changed;
}

glm::mat4 viewProjection(const ViewerState& s, float width, float height) {
    const float aspect = height > 0.0f ? width / height : 1.0f;
    return s.camera.projection(aspect) * s.camera.view();
}

}  // namespace

void drawIkPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Ik);
    if (!ImGui::Begin("IK", open, panelFlags)) {
        ImGui::End();
        return;
    }
    if (!s.model) {
        ImGui::TextUnformatted("No model.");
        ImGui::End();
        return;
    }
    IkViewState& ik = s.ik;
    const Skeleton& sk = s.model->skeleton;
    // Combos, sliders and fields leave room for the longest of their labels.
    ImGui::PushItemWidth(widthBeside("Aim weight"));
    if (ImGui::Checkbox("IK on", &ik.enabled) && ik.enabled) ik.snapTarget = true;
    probeItem(probe, "ik:enabled");
    const bool presetValid = ik.preset >= 0 && static_cast<size_t>(ik.preset) < ik.guesses.size();
    if (ImGui::BeginCombo("Chain", presetValid ? ik.guesses[ik.preset].label.c_str() : "custom")) {
        for (size_t i = 0; i < ik.guesses.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(ik.guesses[i].label.c_str(), ik.preset == static_cast<int>(i))) {
                ik.preset = static_cast<int>(i);
                ik.start = ik.guesses[i].start;
                ik.mid = ik.guesses[i].mid;
                ik.end = ik.guesses[i].end;
                ik.rebuild = true;
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    probeItem(probe, "ik:chain");
    if (ik.guesses.empty()) textDisabledWrapped("No leg or arm found by joint names: pick the joints.");
    bool edited = jointCombo("Start", sk, ik.start, probe, "ik:start");
    edited = jointCombo("Mid", sk, ik.mid, probe, "ik:mid") || edited;
    edited = jointCombo("End", sk, ik.end, probe, "ik:end") || edited;
    if (edited) {
        ik.preset = -1;
        ik.rebuild = true;
    }
    ImGui::SliderFloat("Weight", &ik.weight, 0.0f, 1.0f);
    probeItem(probe, "ik:weight");
    ImGui::SliderFloat("Soft from", &ik.soft, 0.5f, 1.0f, "%.2f of the chain");
    ImGui::SliderFloat("Twist", &ik.twist, -180.0f, 180.0f, "%.0f deg");
    ImGui::Checkbox(fitCheck("Pole from the pose###polepose", "Pole from pose###polepose"), &ik.poleFromPose);
    if (!ik.poleFromPose) ImGui::DragFloat3("Pole", &ik.pole.x, 0.01f);
    const float step = std::max(s.bounds.diagonal(), 1e-3f) * 0.002f;
    ImGui::DragFloat3("Target", &ik.target.x, step);
    probeItem(probe, "ik:target");
    if (ImGui::Button(fitButton("Target to end joint###snap", "To end joint###snap"))) ik.snapTarget = true;
    probeItem(probe, "ik:snap");
    if (ImGui::Checkbox(fitCheck("Look at the target###aim", "Look at target###aim"), &ik.aim)) ik.rebuild = true;
    probeItem(probe, "ik:aim");
    if (ik.aim) {
        if (jointCombo("Aim joint", sk, ik.aimJoint, probe, "ik:aimjoint")) ik.rebuild = true;
        ImGui::SliderFloat("Aim weight", &ik.aimWeight, 0.0f, 1.0f);
        ImGui::SliderFloat("Aim limit", &ik.aimLimit, 1.0f, 180.0f, "%.0f deg");
    }
    ImGui::Checkbox("Foot lock", &ik.footLock);
    probeItem(probe, "ik:footlock");
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Pin the end joint where it touches the ground (near its rest height, slow), release smoothly");
    }
    if (!ik.status.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.3f, 1.0f));
        ImGui::TextWrapped("%s", ik.status.c_str());
        ImGui::PopStyleColor();
    } else if (ik.enabled && !ik.stage.aim().empty() && ik.stage.twoBone().empty()) {
        ImGui::TextUnformatted(ik.stage.aim()[0].reached ? "aimed" : "aim limited");
    } else if (ik.enabled && !ik.stage.twoBone().empty()) {
        const TwoBoneChain& c = ik.stage.twoBone()[0];
        ImGui::TextWrapped("%s%s", c.reached ? "reached" : "not reached", c.footLock.enabled ? (c.locked ? ", foot locked" : ", foot free") : "");
    }
    textDisabledWrapped("Drag the yellow cross in the viewport to move the target.");
    ImGui::PopItemWidth();
    ImGui::End();
}

bool handleIkMouse(ViewerState& s, float width, float height) {
    IkViewState& ik = s.ik;
    ik.hover = false;
    const bool any = !ik.stage.twoBone().empty() || !ik.stage.aim().empty();
    if (!ik.enabled || !s.model || !any || ik.footLock || s.crowd.enabled || width <= 0.0f || height <= 0.0f) {
        ik.dragging = false;
        return false;
    }
    const ImGuiIO& io = ImGui::GetIO();
    const glm::mat4 viewProj = viewProjection(s, width, height);
    if (!ik.dragging) {
        glm::vec2 p;
        if (io.WantCaptureMouse || !projectToScreen(viewProj, ik.target, width, height, p)) return false;
        ik.hover = glm::length(glm::vec2(io.MousePos.x, io.MousePos.y) - p) < 12.0f;
        if (!ik.hover || !ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return false;
        ik.dragging = true;
    }
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        ik.dragging = false;
        return false;
    }
    // The mouse ray, met with the plane through the target facing the camera.
    const glm::mat4 inv = glm::inverse(viewProj);
    const float x = 2.0f * io.MousePos.x / width - 1.0f, y = 1.0f - 2.0f * io.MousePos.y / height;
    glm::vec4 a = inv * glm::vec4(x, y, -1.0f, 1.0f), b = inv * glm::vec4(x, y, 1.0f, 1.0f);
    if (a.w == 0.0f || b.w == 0.0f) return true;
    const glm::vec3 near = glm::vec3(a) / a.w, dir = glm::vec3(b) / b.w - near;
    const glm::vec3 n = s.camera.eye() - s.camera.target;
    const float denom = glm::dot(dir, n);
    if (std::fabs(denom) > 1e-12f) {
        const float t = glm::dot(ik.target - near, n) / denom;
        const glm::vec3 p = near + dir * t;
        if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) ik.target = p;
    }
    return true;
}

void drawIkGizmo(const ViewerState& s, float width, float height) {
    const IkViewState& ik = s.ik;
    if (!ik.enabled || !s.model || !s.animator || (ik.stage.twoBone().empty() && ik.stage.aim().empty())) return;
    if (ik.stage.nodeCount() != s.animator->world().size()) return;  // made for another model
    const glm::mat4 viewProj = viewProjection(s, width, height);
    const std::vector<glm::mat4>& world = s.animator->world();
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    auto screen = [&](const glm::vec3& p, ImVec2& out) {
        glm::vec2 q;
        if (!projectToScreen(viewProj, p, width, height, q)) return false;
        out = ImVec2(q.x, q.y);
        return true;
    };
    // Aim joints: a green line along the aimed axis, as long as the distance to the target.
    for (const AimJoint& aj : ik.stage.aim()) {
        const glm::vec3 p(world[aj.joint][3]);
        const glm::vec3 f = glm::mat3(world[aj.joint]) * aj.forward;
        ImVec2 a0, a1;
        if (glm::length(f) > 0.0f && screen(p, a0) && screen(p + glm::normalize(f) * glm::length(ik.target - p), a1)) {
            dl->AddLine(a0, a1, IM_COL32(90, 255, 120, 255), 1.5f);
        }
    }
    if (ik.stage.twoBone().empty()) {
        ImVec2 t;
        if (screen(ik.target, t)) {
            const float r = ik.dragging || ik.hover ? 10.0f : 7.0f;
            dl->AddLine(ImVec2(t.x - r, t.y), ImVec2(t.x + r, t.y), IM_COL32(255, 220, 0, 255), 2.0f);
            dl->AddLine(ImVec2(t.x, t.y - r), ImVec2(t.x, t.y + r), IM_COL32(255, 220, 0, 255), 2.0f);
            dl->AddCircle(t, r, IM_COL32(255, 220, 0, 255), 16, 1.5f);
        }
        return;
    }
    const TwoBoneChain& c = ik.stage.twoBone()[0];
    const glm::vec3 js(world[c.start][3]), jm(world[c.mid][3]), je(world[c.end][3]);
    ImVec2 a, b, e;
    if (screen(js, a) && screen(jm, b) && screen(je, e)) {
        dl->AddLine(a, b, IM_COL32(120, 220, 255, 255), 2.0f);
        dl->AddLine(b, e, IM_COL32(120, 220, 255, 255), 2.0f);
    }
    // The pole: from the mid joint, half the chain long.
    const float len = 0.5f * (glm::length(jm - js) + glm::length(je - jm));
    ImVec2 p0, p1;
    if (screen(jm, p0) && screen(jm + c.usedPole * len, p1)) {
        dl->AddLine(p0, p1, IM_COL32(255, 80, 220, 255), 2.0f);
        dl->AddCircleFilled(p1, 3.0f, IM_COL32(255, 80, 220, 255));
    }
    ImVec2 t;
    const glm::vec3 target = c.footLock.enabled ? c.usedTarget : ik.target;
    if (screen(target, t)) {
        const float r = ik.dragging || ik.hover ? 10.0f : 7.0f;
        const ImU32 col = ik.dragging ? IM_COL32(255, 255, 120, 255) : IM_COL32(255, 220, 0, 255);
        dl->AddLine(ImVec2(t.x - r, t.y), ImVec2(t.x + r, t.y), col, 2.0f);
        dl->AddLine(ImVec2(t.x, t.y - r), ImVec2(t.x, t.y + r), col, 2.0f);
        dl->AddCircle(t, r, col, 16, 1.5f);
        if (!c.reached && screen(je, e)) dl->AddLine(e, t, IM_COL32(255, 90, 60, 200), 1.0f);
    }
}

}  // namespace rig
