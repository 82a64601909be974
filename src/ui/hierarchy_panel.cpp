// The Hierarchy panel: the node tree, and the selected node's local and world transforms.
#include "ui/panels.h"

#include "ui/widgets.h"

namespace rig {

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

}  // namespace rig
