// The viewer's Dear ImGui panels. One function per panel taking `bool* open`, each in its own
// file (ui/<name>_panel.cpp; the menu bar in ui/menu_bar.cpp, what is drawn over the viewport in
// ui/viewport_overlays.cpp, shared widgets in ui/widgets.h); they read ViewerState and post
// ViewerRequests, never touching time themselves.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <imgui.h>

#include "ui/viewer_state.h"

namespace rig {

// Screen rectangles of named widgets from the last frame (min.x, min.y, max.x, max.y), kept
// when a probe is given: the UI smoke test clicks them like a person would.
struct UiProbe {
    std::map<std::string, ImVec4> rects;
    std::map<std::string, std::string> windows;  // the top-level window each widget is in
    std::map<std::string, ImVec4> visible;       // the part of its window that showed (x0, y0, x1, y1)
    std::map<std::string, std::string> texts;    // what read-only rows said (the Material inspector)
    void recordLastItem(const std::string& name);
};

void drawClipsPanel(ViewerState& s, bool* open, UiProbe* probe);
void drawTimelinePanel(ViewerState& s, bool* open, UiProbe* probe);
void drawHierarchyPanel(ViewerState& s, bool* open, UiProbe* probe);
void drawViewPanel(ViewerState& s, bool* open, UiProbe* probe);
// The View panel's Environment section: the environment map (choose in the file browser, the
// bundled studio, or drop an .hdr on the window), its rotation, exposure, tone mapping,
// background, key light, ground shadow and the debug channel. Probed as "env:<option key>",
// "env:file", "env:choose" and "env:studio".
void drawEnvironmentSection(ViewerState& s, UiProbe* probe);
// Whether the Environment section draws view option `key` (the View panel's list skips it).
bool inEnvironmentSection(std::string_view key);
// The Hierarchy inspector's Material section: the material of a mesh on the selected node
// (or chosen in its list), its factors and each texture slot (file, pixel size, UV set,
// transform, sampler, loaded or why not: ViewerState::textureStatus). Each row is probed as
// "material:<field>" and "texture:<slot>", its text in UiProbe::texts.
void drawMaterialInspector(ViewerState& s, UiProbe* probe);
void drawStatsPanel(ViewerState& s, bool* open);
// Rig checks: colour views, skinning method, bind-pose ghost, onion skin, range of motion,
// and the findings list (clicking one selects its joint or frames its vertices).
void drawChecksPanel(ViewerState& s, bool* open, UiProbe* probe);
// The animation controller: cross-fades, two-clip blends, a partial-skeleton layer on the
// selected joint's subtree, an additive layer, root motion, markers and their events.
void drawBlendPanel(ViewerState& s, bool* open, UiProbe* probe);
// Morph targets of one mesh: a slider per target (override on/off; off: the clip's weight
// shown), and the selected target's weight curve over the current clip with the time marked.
void drawMorphsPanel(ViewerState& s, bool* open, UiProbe* probe);
// The influences of the vertex under the mouse (ViewerState::checks.hoverVertex).
void drawVertexTooltip(const ViewerState& s);
void drawOpenPanel(ViewerState& s, bool* open, UiProbe* probe);
// The loading indicator and the notification strip (the last error, warnings about the model,
// an ignored settings file, an environment map that did not load), inside the viewport's
// rectangle of the docked layout. Each message is probed as "notice:error", "notice:warning",
// "notice:settings", "notice:environment" and its button as "notice:<kind>:dismiss"; the strip
// is the ImGui window "##notices".
void drawStatusOverlay(ViewerState& s, double now, UiProbe* probe);
// Joint names at their projected positions: the selected joint with its parent and children,
// all joints, or none (ViewOptions::jointNames).
// Returns how many names it drew.
int drawJointNames(const ViewerState& s, const std::vector<glm::vec3>& jointWorld, const glm::mat4& viewProj,
                   float width, float height, std::vector<glm::vec4>* placed = nullptr);
// Main menu bar with the panel toggles.
void drawMenuBar(ViewerState& s);

}  // namespace rig
