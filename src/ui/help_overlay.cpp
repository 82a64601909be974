#include "ui/help_overlay.h"

#include <algorithm>

#include "ui/shortcuts.h"

namespace rig {

void drawHelpOverlay(ViewerState& s, UiProbe* probe) {
    if (!s.ui.help) return;
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.92f);
    if (ImGui::Begin("Shortcuts (F1 or ? to close)", &s.ui.help,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        if (probe) probe->recordLastItem("help");
        float keyWidth = 0.0f;
        for (const Shortcut& k : shortcuts()) keyWidth = std::max(keyWidth, ImGui::CalcTextSize(k.keys).x);
        for (const MouseGesture& g : mouseGestures()) keyWidth = std::max(keyWidth, ImGui::CalcTextSize(g.gesture).x);
        keyWidth += 2.0f * ImGui::GetStyle().ItemSpacing.x;
        ImGui::TextDisabled("Keys (when no text field has the focus)");
        for (const Shortcut& k : shortcuts()) {
            ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", k.keys);
            ImGui::SameLine(keyWidth);
            ImGui::TextUnformatted(k.what);
        }
        ImGui::Separator();
        ImGui::TextDisabled("Mouse");
        for (const MouseGesture& g : mouseGestures()) {
            ImGui::TextColored(ImVec4(0.6f, 0.85f, 1.0f, 1.0f), "%s", g.gesture);
            ImGui::SameLine(keyWidth);
            ImGui::TextUnformatted(g.what);
        }
    }
    ImGui::End();
}

void drawAbout(ViewerState& s, const AboutInfo& info) {
    if (!s.ui.about) return;
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("About rigview", &s.ui.about, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
        ImGui::Text("rigview %s", info.version.c_str());
        ImGui::TextDisabled("Rigged, animated 3D models: view, check, render.");
        ImGui::Separator();
        ImGui::Text("Assimp   %s", info.assimp.c_str());
        ImGui::Text("Dear ImGui %s", info.imgui.c_str());
        ImGui::Text("GLFW     %s", info.glfw.c_str());
        ImGui::Text("OpenGL   %s", info.gl.c_str());
        ImGui::Text("UI scale %.2f (setting %.2f x monitor %.2f)", s.ui.uiScale * s.ui.contentScale, s.ui.uiScale,
                    s.ui.contentScale);
    }
    ImGui::End();
}

void drawStatusLine(const ViewerState& s, double now) {
    if (s.ui.status.empty() || now > s.ui.statusUntil) return;
    // At the top of the viewport between the panels, where no panel covers it and the
    // notification strip at the viewport's bottom does not meet it.
    const LayoutRect& c = s.ui.layout.rects.centre;
    const ImGuiIO& io = ImGui::GetIO();
    const bool laidOut = c.w > 0.0f && c.h > 0.0f;
    const ImVec2 at = laidOut ? ImVec2(c.x + 0.5f * c.w, c.y + 6.0f) : ImVec2(io.DisplaySize.x * 0.5f, 6.0f);
    ImGui::SetNextWindowPos(at, ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    if (laidOut) ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(std::max(c.w - 12.0f, 60.0f), c.h));
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("##statusline", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    ImGui::PushTextWrapPos(laidOut ? ImGui::GetCursorPosX() + std::max(c.w - 28.0f, 40.0f) : 0.0f);
    ImGui::TextUnformatted(s.ui.status.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
}

}  // namespace rig
