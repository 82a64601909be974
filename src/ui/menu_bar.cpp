// The main menu bar: panel toggles and layouts, files, camera, help.
#include "ui/panels.h"
#include "ui/timeline_panel.h"

namespace rig {

void drawMenuBar(ViewerState& s) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("Panels")) {
        ImGui::MenuItem("Open", nullptr, &s.panels.open);
        ImGui::MenuItem("Clips", nullptr, &s.panels.clips);
        ImGui::MenuItem("Timeline", nullptr, &s.panels.timeline);
        if (ImGui::MenuItem("Timeline curves", nullptr, &s.timeline.curves) && s.timeline.curves) {
            s.panels.timeline = true;
            s.ui.layout.settings.bottomHeight = std::max(s.ui.layout.settings.bottomHeight, kCurvesStripHeight);
        }
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
        if (ImGui::MenuItem("Open...", "Ctrl+O")) {
            s.ui.fileBrowser = true;
            s.ui.browser.forEnvironment = false;
        }
        if (ImGui::MenuItem("Next file in folder", "PageDown", false, !s.path.empty())) s.requests.nextFile += 1;
        if (ImGui::MenuItem("Previous file in folder", "PageUp", false, !s.path.empty())) s.requests.nextFile -= 1;
        if (ImGui::MenuItem("Compare with...", nullptr, false, !s.path.empty())) {
            s.ui.fileBrowser = true;
            s.ui.browser.forCompare = true;
            s.ui.browser.forEnvironment = false;
        }
        if (ImGui::MenuItem("Stop comparing", nullptr, false, s.compare.active() || s.compare.loading)) {
            s.requests.stopCompare = true;
        }
        if (ImGui::MenuItem("Screenshot", "F12")) s.requests.screenshot = true;
        if (ImGui::MenuItem("Playblast...", nullptr, false, s.model && !s.model->clips.empty())) {
            if (!s.playblast.running) s.playblast.prefill = true;
            s.playblast.open = true;
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) s.requests.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Camera")) {
        if (ImGui::MenuItem("Frame model", "F")) s.requests.frameModel = true;
        if (ImGui::MenuItem("Reset", nullptr)) s.requests.resetCamera = true;
        if (ImGui::BeginMenu("Up axis")) {
            if (ImGui::MenuItem("Y up", nullptr, !s.camera.zUp)) s.requests.zUp = false;
            if (ImGui::MenuItem("Z up", nullptr, s.camera.zUp)) s.requests.zUp = true;
            ImGui::EndMenu();
        }
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

}  // namespace rig
