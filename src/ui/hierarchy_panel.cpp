// The Hierarchy panel: the node tree (a click selects a node, Ctrl + click adds one to the
// selection, Shift + click a run of them), the selected node's local and world transforms, and
// the material of a mesh on it (ui/material_inspector.cpp).
#include "ui/panels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/widgets.h"

namespace rig {

namespace {

// Every node in the tree's order (depth first from the roots, children in order).
void treeOrder(const ViewerState& s, std::vector<int32_t>& out) {
    const Model& m = *s.model;
    std::vector<int32_t> stack;
    for (size_t i = m.skeleton.size(); i-- > 0;) {
        if (m.skeleton.parent[i] < 0) stack.push_back(static_cast<int32_t>(i));
    }
    while (!stack.empty()) {
        const int32_t n = stack.back();
        stack.pop_back();
        out.push_back(n);
        if (static_cast<size_t>(n) >= s.children.size()) continue;
        for (auto it = s.children[n].rbegin(); it != s.children[n].rend(); ++it) stack.push_back(*it);
    }
}

// A click on node `node` in the tree: alone it selects the node; with Ctrl it adds the node to
// the selection (or takes it out); with Shift it selects every node from the selected one to it
// in the tree's order. The node clicked becomes the selected joint (the inspector's).
void clickNode(ViewerState& s, int32_t node) {
    const ImGuiIO& io = ImGui::GetIO();
    std::vector<int32_t> sel = s.jointSelection();
    if (io.KeyCtrl && !sel.empty()) {
        const auto it = std::find(sel.begin(), sel.end(), node);
        if (it != sel.end()) {
            sel.erase(it);
        } else {
            sel.insert(sel.begin(), node);
        }
    } else if (io.KeyShift && !sel.empty()) {
        std::vector<int32_t> order;
        treeOrder(s, order);
        const auto a = std::find(order.begin(), order.end(), sel.front()), b = std::find(order.begin(), order.end(), node);
        sel.clear();
        if (a != order.end() && b != order.end()) {
            sel.push_back(node);
            for (auto i = std::min(a, b); i <= std::max(a, b); ++i) {
                if (*i != node) sel.push_back(*i);
            }
        } else {
            sel.push_back(node);
        }
    } else {
        sel.assign(1, node);
    }
    s.selectedJoint = sel.empty() ? -1 : sel.front();
    s.moreJoints.assign(sel.empty() ? sel.end() : sel.begin() + 1, sel.end());
    s.moreJointsWith = s.selectedJoint;
    s.moreJointsModel = s.model.get();
}

// Levels of the tree drawn: a chain deeper than this (a file may nest 100,000 nodes) ends in one
// line, so that drawing it neither recurses past the stack nor indents off the panel.
constexpr int kMaxTreeDepth = 256;

void drawNodeTree(ViewerState& s, const std::vector<std::vector<int32_t>>& children, int32_t node, const std::vector<int32_t>& sel,
                  UiProbe* probe, int depth = 0) {
    const Model& m = *s.model;
    if (depth >= kMaxTreeDepth) {
        ImGui::TextDisabled("(deeper nodes not shown: pick one in the viewport)");
        return;
    }
    const bool leaf = children[node].empty();
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth |
                               ImGuiTreeNodeFlags_DefaultOpen;
    if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
    if (std::find(sel.begin(), sel.end(), node) != sel.end()) flags |= ImGuiTreeNodeFlags_Selected;
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
    if (ImGui::IsItemClicked()) clickNode(s, node);
    probeItem(probe, "node:" + m.skeleton.names[node]);
    if (node == s.selectedJoint && s.ui.scrollToSelection) {
        ImGui::SetScrollHereY(0.5f);
        s.ui.scrollToSelection = false;
    }
    if (opened && !leaf) {
        for (int32_t c : children[node]) drawNodeTree(s, children, c, sel, probe, depth + 1);
        ImGui::TreePop();
    }
}

// `head` and then `n` numbers of one width, on one line where they fit, else wrapped at the
// panel's edge (every line wraps at the same number, so the columns stay aligned).
void numberRow(const char* head, const float* v, int n) {
    ImGui::TextUnformatted(head);
    for (int i = 0; i < n; ++i) {
        char piece[32];
        std::snprintf(piece, sizeof piece, "% 8.3f", v[i]);
        sameLineIfFits(textWidth(piece));
        ImGui::TextUnformatted(piece);
    }
}

}  // namespace

void drawHierarchyPanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Hierarchy);
    if (ImGui::Begin("Hierarchy", open, panelFlags)) {
        if (s.model) {
            const Model& m = *s.model;
            // The tree and the inspector share the panel: a splitter between them, the tree
            // keeps at least five rows and the inspector three lines (both scroll inside).
            const ImGuiStyle& st = ImGui::GetStyle();
            const float scale = std::max(0.5f, s.ui.appliedScale);
            const float line = ImGui::GetTextLineHeightWithSpacing();
            const float splitH = std::round(6.0f * scale);
            const float avail = ImGui::GetContentRegionAvail().y;
            // Five node rows and the search line.
            const float minTree = 5.0f * ImGui::GetFontSize() + 4.0f * st.ItemSpacing.y + 2.0f * st.WindowPadding.y + 2.0f +
                                  ImGui::GetFrameHeightWithSpacing();
            const float minInspector = 3.0f * line + 2.0f * st.WindowPadding.y;
            float inspector = std::round(s.ui.inspectorHeight * scale);
            inspector = std::min(inspector, avail - minTree - splitH - st.ItemSpacing.y * 2.0f);
            inspector = std::max(inspector, std::min(minInspector, std::max(0.0f, avail - minTree - splitH)));
            // A panel too low for both: the inspector keeps a line where the room allows.
            inspector = std::max(inspector, std::min(line + st.WindowPadding.y, 0.4f * (avail - splitH)));
            const float treeH = std::max(1.0f, avail - inspector - splitH - 2.0f * st.ItemSpacing.y);
            ImGui::BeginChild("tree", ImVec2(0, treeH), true, ImGuiWindowFlags_HorizontalScrollbar);
            if (s.ui.hierarchyModel != static_cast<const void*>(&m)) {
                // Another model: its tree starts at the top (a kept selection scrolls to itself below).
                s.ui.hierarchyModel = &m;
                ImGui::SetScrollX(0.0f);
                ImGui::SetScrollY(0.0f);
            }
            // Search (the tree's first line): the nodes whose name holds the text (any case),
            // listed flat; Enter selects the first.
            ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x));
            const bool searchEnter = ImGui::InputTextWithHint("##nodesearch", "search nodes", s.ui.hierarchySearch,
                                                              sizeof s.ui.hierarchySearch, ImGuiInputTextFlags_EnterReturnsTrue);
            probeItem(probe, "hierarchy:search");
            std::string search = s.ui.hierarchySearch;
            std::transform(search.begin(), search.end(), search.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            ImGui::PushStyleVar(ImGuiStyleVar_IndentSpacing, ImGui::GetFontSize() * 0.8f);  // deep rigs stay readable
            const std::vector<int32_t> sel = s.jointSelection();  // drawn selected (Ctrl / Shift + click)
            if (!search.empty()) {
                bool first = true;
                s.ui.hierarchyMatches = 0;
                for (size_t i = 0; i < m.skeleton.size(); ++i) {
                    std::string name = m.skeleton.names[i];
                    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
                    if (name.find(search) == std::string::npos) continue;
                    const int node = static_cast<int>(i);
                    const bool clicked = ImGui::Selectable((m.skeleton.names[i] + "##found" + std::to_string(i)).c_str(),
                                                           std::find(sel.begin(), sel.end(), node) != sel.end());
                    probeItem(probe, "node:" + m.skeleton.names[i]);
                    if (clicked) clickNode(s, node);
                    if (searchEnter && first) s.selectedJoint = node;
                    ++s.ui.hierarchyMatches;
                    first = false;
                }
                if (first) ImGui::TextDisabled("no node's name holds \"%s\"", s.ui.hierarchySearch);
            } else {
                s.ui.hierarchyMatches = -1;
                for (size_t i = 0; i < m.skeleton.size(); ++i) {
                    if (m.skeleton.parent[i] < 0 && s.children.size() == m.skeleton.size()) drawNodeTree(s, s.children, static_cast<int32_t>(i), sel, probe);
                }
            }
            ImGui::PopStyleVar();
            probeItem(probe, "hierarchy:last");
            if (probe) {
                const ImVec2 a = ImGui::GetWindowPos(), sz = ImGui::GetWindowSize();
                probe->rects["hierarchy:tree"] = ImVec4(a.x, a.y, a.x + sz.x, a.y + sz.y);
            }
            ImGui::EndChild();
            // The splitter: drag it to give the tree or the inspector more room.
            ImGui::InvisibleButton("##inspectorsplit", ImVec2(std::max(1.0f, ImGui::GetContentRegionAvail().x), splitH));
            probeItem(probe, "hierarchy:splitter");
            if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
                ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
                ImGui::GetWindowDrawList()->AddRectFilled(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                                          ImGui::GetColorU32(ImGuiCol_SeparatorHovered));
            }
            if (ImGui::IsItemActive() && ImGui::GetIO().MouseDelta.y != 0.0f) {
                const float want = inspector - ImGui::GetIO().MouseDelta.y;
                const float most = std::max(minInspector, avail - minTree - splitH);
                s.ui.inspectorHeight = std::clamp(want, minInspector, most) / scale;
            }
            ImGui::BeginChild("inspector", ImVec2(0, 0), false);
            if (probe) {
                const ImVec2 a = ImGui::GetWindowPos(), sz = ImGui::GetWindowSize();
                probe->rects["hierarchy:inspector"] = ImVec4(a.x, a.y, a.x + sz.x, a.y + sz.y);
            }
            // Inspector.
            const int j = s.selectedJoint;
            if (j >= 0 && static_cast<size_t>(j) < m.skeleton.size() && s.animator) {
                ImGui::TextWrapped("%s (node %d, parent %d)", m.skeleton.names[j].c_str(), j, m.skeleton.parent[j]);
                const Clip* clip = s.bindPose ? nullptr : currentClip(s);
                const bool animated = clip && clip->trackOfNode[j] >= 0;
                const bool skinBind = s.bindPose && !s.filePose;
                const Transform& t = animated ? s.animator->local()[j]
                                              : skinBind ? m.skeleton.bindPoseLocalSqt()[j] : m.skeleton.bindLocalSqt[j];
                // Sized to fit the panel (no clipped columns): 3 decimals, widths from the text.
                ImGui::TextWrapped("local %s, R as xyzw", animated ? "(animated)" : skinBind ? "(bind pose)" : "(file pose)");
                const float tv[3] = {t.translation.x, t.translation.y, t.translation.z};
                const float rv[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
                const float sv[3] = {t.scale.x, t.scale.y, t.scale.z};
                numberRow("T", tv, 3);
                numberRow("R", rv, 4);
                numberRow("S", sv, 3);
                const glm::mat4& w = s.animator->world()[j];
                ImGui::Text("world");
                for (int r = 0; r < 4; ++r) {
                    const float row[4] = {w[0][r], w[1][r], w[2][r], w[3][r]};
                    numberRow(" ", row, 4);
                }
                if (ImGui::Button("Clear selection")) s.selectedJoint = -1;
            } else {
                textDisabledWrapped("Select a node to inspect it.");
            }
            drawMaterialInspector(s, probe);
            ImGui::EndChild();
        }
    }
    ImGui::End();
}

}  // namespace rig
