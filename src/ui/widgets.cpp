#include "ui/widgets.h"

#include <cstdarg>

#include <glm/gtc/type_ptr.hpp>
#include <imgui_internal.h>

namespace rig {

void UiProbe::recordLastItem(const std::string& name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rects[name] = ImVec4(a.x, a.y, b.x, b.y);
    // The panel it is in, with what of it shows (tests scroll a panel to a widget below).
    const ImGuiWindow* w = ImGui::GetCurrentWindowRead();
    if (w && w->RootWindow) {
        const ImGuiWindow* root = w->RootWindow;
        windows[name] = root->Name;
        const ImVec4 clip(w->ClipRect.Min.x, w->ClipRect.Min.y, w->ClipRect.Max.x, w->ClipRect.Max.y);
        visible[name] = clip;
    }
}

void probeItem(UiProbe* probe, const std::string& name) {
    if (probe) probe->recordLastItem(name);
}

void sameLineIfFits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float textWidth(const char* label) { return ImGui::CalcTextSize(label, nullptr, true).x; }

float buttonWidth(const char* label) { return textWidth(label) + 2.0f * ImGui::GetStyle().FramePadding.x; }

float checkWidth(const char* label) {
    const float text = textWidth(label);
    return ImGui::GetFrameHeight() + (text > 0.0f ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

const char* fitButton(const char* label, const char* shorter) {
    return buttonWidth(label) <= ImGui::GetContentRegionAvail().x ? label : shorter;
}

const char* fitCheck(const char* label, const char* shorter) {
    return checkWidth(label) <= ImGui::GetContentRegionAvail().x ? label : shorter;
}

float widthBeside(const char* label) {
    const float text = textWidth(label);
    return text > 0.0f ? -(text + ImGui::GetStyle().ItemInnerSpacing.x) : -FLT_MIN;
}

void textDisabledWrapped(const char* fmt, ...) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    va_list args;
    va_start(args, fmt);
    ImGui::TextWrappedV(fmt, args);
    va_end(args);
    ImGui::PopStyleColor();
}

const Clip* currentClip(const ViewerState& s) {
    if (!s.model || s.clip < 0 || static_cast<size_t>(s.clip) >= s.model->clips.size()) return nullptr;
    return &s.model->clips[s.clip];
}

namespace {

bool choiceLabel(void* data, int i, const char** out) {
    *out = static_cast<const ViewOptionSpec*>(data)->choices[static_cast<size_t>(i)].label;
    return true;
}

bool drawChoice(const ViewOptionSpec& o, ViewOptions& v, float itemWidth, UiProbe* probe) {
    int value = o.choiceOf(v);
    bool changed = false;
    if (o.radio) {
        ImGui::TextUnformatted(o.label);
        for (size_t i = 0; i < o.choices.size(); ++i) {
            sameLineIfFits(checkWidth(o.choices[i].label));
            changed |= ImGui::RadioButton(o.choices[i].label, &value, static_cast<int>(i));
            probeItem(probe, std::string(o.probe) + ":" + o.choices[i].name);
        }
    } else {
        ImGui::SetNextItemWidth(itemWidth);
        changed = ImGui::Combo(o.label, &value, choiceLabel, const_cast<ViewOptionSpec*>(&o), static_cast<int>(o.choices.size()));
        probeItem(probe, o.probe);
    }
    if (changed) o.setChoice(v, value);
    return changed;
}

}  // namespace

bool drawViewOption(const ViewOptionSpec& o, ViewOptions& v, float itemWidth, UiProbe* probe) {
    bool changed = false;
    switch (o.type) {
        case ViewOptionType::Flag:
            changed = ImGui::Checkbox(o.label, &(v.*o.flag));
            break;
        case ViewOptionType::Choice:
            return drawChoice(o, v, itemWidth, probe);
        case ViewOptionType::Number:
            ImGui::SetNextItemWidth(itemWidth);
            changed = ImGui::SliderFloat(o.label, &(v.*o.number), o.min, o.max, o.format);
            break;
        case ViewOptionType::Color:
            ImGui::SetNextItemWidth(itemWidth);
            changed = ImGui::ColorEdit3(o.label, glm::value_ptr(v.*o.color));
            break;
    }
    probeItem(probe, o.probe);
    return changed;
}

}  // namespace rig
