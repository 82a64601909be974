#include "ui/state_machine_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "anim/control/controller.h"
#include "anim/control/state_machine.h"
#include "ui/widgets.h"

namespace rig {

namespace {

const char* curveName(const Ease& e) {
    switch (e.curve) {
        case EaseCurve::Linear: return "linear";
        case EaseCurve::SmoothStep: return "smoothstep";
        case EaseCurve::CubicIn: return "cubic-in";
        case EaseCurve::CubicOut: return "cubic-out";
        case EaseCurve::CubicInOut: return "cubic-in-out";
        case EaseCurve::Bezier: return "bezier";
    }
    return "?";
}

std::string conditionText(const MachineDef& def, const Condition& c) {
    const MachineParam& p = def.params[c.param];
    if (c.op == CondOp::Trigger) return p.name + " (trigger)";
    const char* op = "?";
    switch (c.op) {
        case CondOp::Greater: op = ">"; break;
        case CondOp::Less: op = "<"; break;
        case CondOp::GreaterEqual: op = ">="; break;
        case CondOp::LessEqual: op = "<="; break;
        case CondOp::Equal: op = "=="; break;
        case CondOp::NotEqual: op = "!="; break;
        case CondOp::Trigger: break;
    }
    char buf[64];
    if (p.type == ParamType::Bool) std::snprintf(buf, sizeof buf, " %s %s", op, c.value != 0.0f ? "true" : "false");
    else std::snprintf(buf, sizeof buf, " %s %.3g", op, c.value);
    return p.name + buf;
}

std::string stateLabel(const SubMachine& m, int32_t s) {
    if (s == MachineTransition::kAny) return "*";
    if (s == MachineTransition::kExit) return "exit";
    return s >= 0 && static_cast<size_t>(s) < m.states.size() ? m.states[s].name : "?";
}

std::string transitionText(const MachineDef& def, const SubMachine& m, const MachineTransition& t) {
    std::string out = stateLabel(m, t.from) + " -> " + stateLabel(m, t.to);
    std::string when;
    for (const Condition& c : t.conditions) when += (when.empty() ? "" : " and ") + conditionText(def, c);
    if (t.exitTime >= 0.0f) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "exit time %.3g", t.exitTime);
        when += (when.empty() ? "" : " and ") + std::string(buf);
    }
    out += "  when " + when;
    if (t.duration > 0.0f) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "  (%.2f s %s%s)", t.duration, curveName(t.ease), t.mode == FadeMode::Frozen ? ", frozen" : "");
        out += buf;
    }
    return out;
}

// One machine's states as boxes in rows; `active` highlighted: green when it is the playing
// (leaf) state, with its loop's phase and, while fading in (`fade` < 1), the cross-fade's
// weight under it; blue when it is a nested state holding the playing one.
void drawStateBoxes(const SubMachine& m, int32_t active, bool leaf, float normalized, float fade, size_t layer,
                    UiProbe* probe) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float avail = ImGui::GetContentRegionAvail().x;
    float x = 0.0f;
    for (size_t i = 0; i < m.states.size(); ++i) {
        const MachineState& st = m.states[i];
        const bool on = static_cast<int32_t>(i) == active;
        const std::string label = st.kind == StateKind::Machine ? st.name + " [machine]" : st.name;
        // Sized by the font (the UI scale); never wider than the panel (a long name is cut inside its box).
        const float font = ImGui::GetFontSize();
        const ImVec2 size(std::min(std::max(5.4f * font, ImGui::CalcTextSize(label.c_str()).x + 16.0f), std::max(avail, 1.0f)),
                          std::round(2.6f * font));
        if (x > 0.0f && x + size.x > avail) x = 0.0f;
        else if (x > 0.0f) ImGui::SameLine();
        x += size.x + ImGui::GetStyle().ItemSpacing.x;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::InvisibleButton(("##state" + std::to_string(layer) + "_" + st.name).c_str(), size);
        probeItem(probe, "machine:state:" + std::to_string(layer) + ":" + st.name);
        if (ImGui::IsItemHovered()) {
            const char* kind = st.kind == StateKind::Clip      ? "clip"
                               : st.kind == StateKind::Blend1D ? "1D blend space"
                               : st.kind == StateKind::Blend2D ? "2D blend space"
                               : st.kind == StateKind::Machine ? "nested machine"
                                                               : "empty (bind pose / layer off)";
            ImGui::SetTooltip("%s: %s", st.name.c_str(), kind);
        }
        const ImVec2 q(p.x + size.x, p.y + size.y);
        const ImU32 fill = on ? (leaf ? IM_COL32(40, 140, 70, 255) : IM_COL32(40, 90, 140, 255)) : IM_COL32(50, 50, 58, 255);
        dl->AddRectFilled(p, q, fill, 5.0f);
        dl->AddRect(p, q, on ? IM_COL32(140, 255, 160, 255) : IM_COL32(110, 110, 120, 255), 5.0f, 0, on ? 2.0f : 1.0f);
        dl->PushClipRect(p, q, true);
        dl->AddText(ImVec2(p.x + 8.0f, p.y + 4.0f), IM_COL32(235, 235, 235, 255), label.c_str());
        dl->PopClipRect();
        if (on && leaf) {
            // Normalized time (this loop's phase) and, while fading in, the cross-fade's weight.
            const float phase = normalized - static_cast<float>(static_cast<int>(normalized));
            dl->AddRectFilled(ImVec2(p.x + 4, q.y - 10), ImVec2(p.x + 4 + (size.x - 8) * phase, q.y - 7), IM_COL32(200, 230, 255, 220));
            if (fade < 1.0f) {
                dl->AddRectFilled(ImVec2(p.x + 4, q.y - 5), ImVec2(p.x + 4 + (size.x - 8) * fade, q.y - 2), IM_COL32(255, 200, 60, 230));
            }
        }
    }
}

}  // namespace

void drawStateMachinePanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open || !s.model) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Machine);
    if (!ImGui::Begin("State Machine", open, panelFlags)) {
        ImGui::End();
        return;
    }
    MachinePanelState& ms = s.machine;
    MachineRequests& q = s.requests.machine;
    if (!ms.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.4f, 0.4f, 1.0f));
        ImGui::TextWrapped("%s", ms.error.c_str());
        ImGui::PopStyleColor();
    }
    if (!ms.runtime) {
        textDisabledWrapped("No state machine. Put <model>.machine.json beside the model, or start with --machine FILE.");
        if (ImGui::Button("Reload")) q.reload = true;
        ImGui::End();
        return;
    }
    const StateMachine& sm = *ms.runtime;
    const MachineDef& def = sm.def();
    textDisabledWrapped("%s", ms.path.c_str());
    if (!ms.active) {
        if (ImGui::Button(fitButton("Drive with the machine###drive", "Drive###drive"))) q.drive = true;
        probeItem(probe, "machine:drive");
    } else {
        if (ImGui::Button(fitButton("Back to the timeline###stop", "Stop###stop"))) q.stop = true;
        probeItem(probe, "machine:stop");
    }
    sameLineIfFits(buttonWidth("Restart"));
    if (ImGui::Button("Restart")) q.restart = true;
    probeItem(probe, "machine:restart");
    sameLineIfFits(buttonWidth("Reload"));
    if (ImGui::Button("Reload")) q.reload = true;
    probeItem(probe, "machine:reload");

    // Parameters.
    if (!def.params.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted("Parameters");
    }
    for (size_t i = 0; i < def.params.size(); ++i) {
        const MachineParam& p = def.params[i];
        const int32_t idx = static_cast<int32_t>(i);
        ImGui::PushID(static_cast<int>(i));
        switch (p.type) {
            case ParamType::Float: {
                float v = sm.value(idx);
                ImGui::SetNextItemWidth(widthBeside(p.name.c_str()));
                if (ImGui::SliderFloat(p.name.c_str(), &v, p.min, p.max, "%.2f")) q.values.emplace_back(idx, v);
                break;
            }
            case ParamType::Bool: {
                bool v = sm.value(idx) != 0.0f;
                if (ImGui::Checkbox(p.name.c_str(), &v)) q.values.emplace_back(idx, v ? 1.0f : 0.0f);
                break;
            }
            case ParamType::Trigger: {
                if (ImGui::Button(p.name.c_str())) q.triggers.push_back(idx);
                if (sm.triggerPending(idx)) {
                    sameLineIfFits(textWidth("(pending)"));
                    ImGui::TextDisabled("(pending)");
                }
                break;
            }
        }
        probeItem(probe, "machine:param:" + p.name);
        ImGui::PopID();
    }

    // Layers: the active path's machines as boxes, and the transitions out of active states.
    for (size_t l = 0; l < sm.layerCount() && sm.started(); ++l) {
        const MachineLayer& L = def.layers[l];
        const Controller* c = ms.controller;
        float weight = 1.0f, fade = 1.0f;
        if (c) {
            weight = L.base ? 1.0f : c->layerWeight(sm.controllerLayer(l));
            fade = L.base && c->fading() ? c->fadeWeight() : 1.0f;
        }
        char head[160];
        std::snprintf(head, sizeof head, "Layer %s (%s%s, weight %.2f)###layer%zu", L.name.c_str(), L.base ? "base" : L.blend == LayerBlend::Additive ? "additive" : "override",
                      L.mask.weights.empty() ? "" : ", masked", weight, l);
        if (!ImGui::CollapsingHeader(head, ImGuiTreeNodeFlags_DefaultOpen)) continue;
        ImGui::PushID(static_cast<int>(l));
        for (int level = 0; level < sm.depth(l); ++level) {
            const SubMachine& m = def.machines[sm.machineAt(l, level)];
            const bool leaf = level == sm.depth(l) - 1;
            if (level > 0) {
                textDisabledWrapped("in %s%s:", m.name.c_str(), sm.exited(l, level) ? " (exited)" : "");
                ImGui::Indent(12.0f * static_cast<float>(level));
            }
            drawStateBoxes(m, sm.stateAt(l, level), leaf, static_cast<float>(sm.normalizedTime(l)), fade, l, probe);
            if (level > 0) ImGui::Unindent(12.0f * static_cast<float>(level));
        }
        if (ImGui::TreeNode("transitions", "Transitions out of the active states")) {
            for (int level = 0; level < sm.depth(l); ++level) {
                const SubMachine& m = def.machines[sm.machineAt(l, level)];
                const int32_t active = sm.stateAt(l, level);
                for (const MachineTransition& t : m.transitions) {
                    if (t.from != active && t.from != MachineTransition::kAny) continue;
                    if (t.from == MachineTransition::kAny && t.to == active) continue;
                    ImGui::Bullet();
                    ImGui::TextWrapped("%s", transitionText(def, m, t).c_str());
                }
            }
            ImGui::TreePop();
        }
        if (ImGui::TreeNode("all", "All transitions")) {
            for (int32_t mi = 0; mi < static_cast<int32_t>(def.machines.size()); ++mi) {
                // This layer's machine and the machines nested in it.
                int32_t top = mi;
                while (def.machines[top].parent >= 0) top = def.machines[top].parent;
                if (top != L.machine) continue;
                const SubMachine& m = def.machines[mi];
                for (const MachineTransition& t : m.transitions) {
                    ImGui::Bullet();
                    ImGui::TextWrapped("%s%s%s", mi == L.machine ? "" : m.name.c_str(), mi == L.machine ? "" : ": ",
                                      transitionText(def, m, t).c_str());
                }
            }
            ImGui::TreePop();
        }
        ImGui::PopID();
    }

    ImGui::Separator();
    ImGui::TextUnformatted("Transition log");
    ImGui::BeginChild("machinelog", ImVec2(0, 6.0f * ImGui::GetTextLineHeightWithSpacing()), true);
    for (const std::string& line : ms.log) ImGui::TextWrapped("%s", line.c_str());
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace rig
