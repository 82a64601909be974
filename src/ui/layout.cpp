#include "ui/layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "ui/widgets.h"

namespace rig {

namespace {

constexpr const char* kNames[kPanelCount] = {"Open",   "Clips", "Hierarchy", "View",  "Checks",        "Stats",
                                              "Timeline", "Blend", "Morphs", "Crowd", "State Machine", "IK"};
constexpr float kMinBottom = 90.0f;   // smallest strip height the person can drag to
constexpr float kMinPanel = 40.0f;    // smallest panel length in a stack when dragging
constexpr float kMinPane = 100.0f;    // smallest half of a tabbed column: a tab strip and a few lines

bool isColumn(Area a) { return a != Area::Bottom; }

// Heights in a column (the panel's usual content without scrolling much), widths in the strip.
constexpr float kMinColumn[kPanelCount] = {100, 110, 170, 220, 220, 100, 110, 560, 300, 220, 200, 260};
constexpr float kMinStrip = 300.0f;

}  // namespace

const char* panelName(PanelId id) {
    const int i = static_cast<int>(id);
    return i >= 0 && i < kPanelCount ? kNames[i] : "?";
}

const char* areaName(Area a) {
    switch (a) {
        case Area::Left: return "left";
        case Area::Right: return "right";
        case Area::Bottom: return "bottom";
    }
    return "?";
}

float panelMinLength(PanelId id, Area a) {
    const int i = static_cast<int>(id);
    if (i < 0 || i >= kPanelCount) return 0.0f;
    return isColumn(a) ? kMinColumn[i] : kMinStrip;
}

void Layout::setOpen(const std::array<bool, kPanelCount>& now) {
    for (int i = 0; i < kPanelCount; ++i) {
        if (!started || !now[i] || wasOpen[i] || i == static_cast<int>(PanelId::Timeline)) continue;
        // The area it shows in last frame (a bottom panel may be in the right column).
        const Area a = rects.width > 0.0f ? rects.area[i] : settings.area[i];
        const int pane = rects.width > 0.0f ? rects.pane[i] : isColumn(a) ? std::clamp(settings.pane[i], 0, 1) : 0;
        activeTab[tabGroup(a, pane)] = static_cast<PanelId>(i);
    }
    open = now;
    wasOpen = now;
    started = true;
}

LayoutSettings::LayoutSettings() {
    for (int i = 0; i < kPanelCount; ++i) {
        area[i] = Area::Right;
        weight[i] = 1.0f;
    }
    auto set = [&](PanelId id, Area a, float w) {
        area[static_cast<int>(id)] = a;
        weight[static_cast<int>(id)] = w;
    };
    set(PanelId::Open, Area::Left, 0.7f);
    set(PanelId::Clips, Area::Left, 1.0f);
    set(PanelId::Hierarchy, Area::Left, 2.0f);
    set(PanelId::View, Area::Right, 1.6f);
    set(PanelId::Checks, Area::Right, 1.6f);
    set(PanelId::Stats, Area::Right, 0.8f);
    set(PanelId::Blend, Area::Right, 2.0f);
    set(PanelId::Morphs, Area::Right, 1.5f);
    set(PanelId::Crowd, Area::Right, 1.0f);
    set(PanelId::Ik, Area::Right, 1.5f);
    set(PanelId::Timeline, Area::Bottom, 2.0f);
    set(PanelId::Machine, Area::Bottom, 1.2f);
    // The halves of a tabbed column: what is watched (Stats, the Hierarchy) below what is set.
    for (PanelId id : {PanelId::Hierarchy, PanelId::Stats, PanelId::Morphs, PanelId::Crowd, PanelId::Machine, PanelId::Ik}) {
        pane[static_cast<int>(id)] = 1;
    }
}

void Layout::place(float width, float height, float top, float scale) {
    rects = computeLayout(settings, open, width, height, top, 140.0f, &activeTab, scale, timelineNeed);
    fitTabStrips(rects, tabStripNeed);
}

LayoutRects computeLayout(const LayoutSettings& s, const std::array<bool, kPanelCount>& open, float width,
                          float height, float top, float minSide, const std::array<PanelId, kTabGroups>* activeTab,
                          float scale, float timelineMin) {
    LayoutRects r;
    scale = std::isfinite(scale) && scale > 0.0f ? scale : 1.0f;
    r.scale = scale;
    minSide *= scale;
    width = std::max(width, 1.0f);
    height = std::max(height, top + 1.0f);
    r.width = width;
    r.height = height;
    r.top = top;
    const float availH = height - top;
    const int tl = static_cast<int>(PanelId::Timeline);
    auto finite = [](float v, float d) { return std::isfinite(v) ? v : d; };
    // The Timeline's strip first (under the viewport and the right column), then the strip of
    // other bottom panels (under the viewport, between the columns): together at most 60% of
    // the height. Where the Timeline leaves that strip less than its usable minimum, its
    // panels join the right column instead (they never take the Timeline's room).
    const bool useT = open[tl];
    const float maxBoth = std::max(0.0f, (1.0f - kMinViewportShare) * availH);
    const float maxT = std::max(0.0f, maxBoth - kLayoutGap);
    const float minT = std::min(std::max(kMinBottom * scale, finite(timelineMin, 0.0f)), maxT);
    const float th = useT ? std::floor(std::clamp(finite(s.bottomHeight, 170.0f) * scale, minT, std::max(minT, maxT))) : 0.0f;
    const float gapT = useT ? kLayoutGap : 0.0f;
    const float maxB = std::max(0.0f, maxBoth - th - gapT - kLayoutGap);
    const bool fold = maxB < kMinBottom * scale;
    bool used[3] = {false, false, false};
    for (int i = 0; i < kPanelCount; ++i) {
        r.area[i] = s.area[i] == Area::Bottom && fold ? Area::Right : s.area[i];
        r.pane[i] = isColumn(r.area[i]) ? std::clamp(s.pane[i], 0, 1) : 0;
        if (open[i] && i != tl) used[static_cast<int>(r.area[i])] = true;
    }
    const bool useL = used[static_cast<int>(Area::Left)], useR = used[static_cast<int>(Area::Right)];
    const bool useB = used[static_cast<int>(Area::Bottom)];
    auto inAreaNow = [&](int i, Area a) { return i != tl && r.area[i] == a; };

    // Columns: each at least min(minSide, its share of what the viewport leaves), together at
    // most 60% of the width (gaps included).
    const int columns = (useL ? 1 : 0) + (useR ? 1 : 0);
    const float maxSides = std::max(0.0f, (1.0f - kMinViewportShare) * width - kLayoutGap * static_cast<float>(columns));
    const float minCol = columns > 0 ? std::min(minSide, maxSides / static_cast<float>(columns)) : 0.0f;
    float lw = useL ? std::clamp(finite(s.leftWidth, 290.0f) * scale, minCol, std::max(minCol, maxSides)) : 0.0f;
    float rw = useR ? std::clamp(finite(s.rightWidth, 300.0f) * scale, minCol, std::max(minCol, maxSides)) : 0.0f;
    if (lw + rw > maxSides && lw + rw > 0.0f) {
        const float k = maxSides / (lw + rw);
        lw *= k;
        rw *= k;
    }
    // Whole pixels (ImGui puts windows at whole pixels).
    lw = std::floor(lw);
    rw = std::floor(rw);
    const float gapL = useL ? kLayoutGap : 0.0f, gapR = useR ? kLayoutGap : 0.0f;
    const float cx = lw + gapL, cw = std::max(1.0f, width - lw - rw - gapL - gapR);
    const float minB = std::min(kMinBottom * scale, maxB);
    const float bh = useB ? std::floor(std::clamp(finite(s.stripHeight, 170.0f) * scale, minB, std::max(minB, maxB))) : 0.0f;
    const float gapB = useB ? kLayoutGap : 0.0f;
    const float aboveT = availH - th - gapT;  // the right column and the viewport end here

    r.leftWidth = lw;
    r.rightWidth = rw;
    r.bottomHeight = th;
    r.stripHeight = bh;
    r.left = {0.0f, top, lw, useL ? std::max(1.0f, aboveT) : 0.0f};
    r.right = {width - rw, top, rw, useR ? std::max(1.0f, aboveT) : 0.0f};
    r.centre = {cx, top, cw, std::max(1.0f, std::floor(aboveT - bh - gapB))};
    r.bottom = {cx, r.centre.bottom() + gapB, useB ? cw : 0.0f, bh};
    r.timeline = {0.0f, height - th, useT ? width : 0.0f, th};
    if (useT) {
        r.panel[tl] = r.timeline;
        r.shown[tl] = true;
    }

    auto addSplitter = [&](Splitter::Kind k, LayoutRect rect, PanelId a = PanelId::Count, PanelId b = PanelId::Count,
                           float span = 0.0f, Area area = Area::Left) {
        Splitter& sp = r.splitters[r.splitterCount++];
        sp.area = area;
        sp.kind = k;
        sp.rect = rect;
        sp.a = a;
        sp.b = b;
        sp.span = span;
    };
    if (useL) addSplitter(Splitter::LeftEdge, {lw, top, kLayoutGap, r.left.h});
    if (useR) addSplitter(Splitter::RightEdge, {width - rw - kLayoutGap, top, kLayoutGap, r.right.h});
    if (useB) addSplitter(Splitter::StripEdge, {cx, r.centre.bottom(), cw, kLayoutGap});
    if (useT) addSplitter(Splitter::BottomEdge, {0.0f, r.timeline.y - kLayoutGap, r.timeline.w, kLayoutGap});

    // The open panels of each area share it by weight, in PanelId order.
    for (Area a : {Area::Left, Area::Right, Area::Bottom}) {
        const LayoutRect& ar = a == Area::Left ? r.left : a == Area::Right ? r.right : r.bottom;
        int n = 0;
        float total = 0.0f, needed = 0.0f;
        for (int i = 0; i < kPanelCount; ++i) {
            if (open[i] && inAreaNow(i, a)) {
                ++n;
                total += std::clamp(finite(s.weight[i], 1.0f), 0.05f, 20.0f);
                needed += panelMinLength(static_cast<PanelId>(i), a) * scale;
            }
        }
        if (n == 0) continue;
        const float length = isColumn(a) ? ar.h : ar.w;
        if (n > 1 && needed + kLayoutGap * static_cast<float>(n - 1) > length) {
            // Too many to stack: tabs. A column with open panels in both halves is split between
            // them; in each half the chosen panel (if open) or the first open one shows.
            const int ai = static_cast<int>(a);
            r.tabbed[ai] = true;
            int inPane[2] = {0, 0};
            for (int i = 0; i < kPanelCount; ++i) {
                if (open[i] && inAreaNow(i, a)) ++inPane[r.pane[i]];
            }
            // (Halves too low for a tab strip and a few lines of a panel are not made.)
            const float usable = std::max(2.0f, ar.h - kLayoutGap);
            if (inPane[0] > 0 && inPane[1] > 0 && usable >= 2.0f * kMinPane * scale) {
                const int col = a == Area::Left ? 0 : 1;
                const float minPane = kMinPane * scale;
                const float h0 = std::floor(std::clamp(finite(s.split[col], 0.5f) * usable, minPane, usable - minPane));
                r.paneRect[tabGroup(a, 0)] = {ar.x, ar.y, ar.w, h0};
                r.paneRect[tabGroup(a, 1)] = {ar.x, ar.y + h0 + kLayoutGap, ar.w, ar.bottom() - (ar.y + h0 + kLayoutGap)};
                addSplitter(Splitter::BetweenPanes, {ar.x, ar.y + h0, ar.w, kLayoutGap}, PanelId::Count, PanelId::Count, usable, a);
            } else {
                for (int i = 0; i < kPanelCount; ++i) {  // one tab group: the upper half's
                    if (inAreaNow(i, a)) r.pane[i] = 0;
                }
                inPane[0] += inPane[1];
                inPane[1] = 0;
                r.paneRect[tabGroup(a, 0)] = ar;
            }
            for (int pane = 0; pane < 2; ++pane) {
                if (inPane[pane] == 0) continue;
                const int g = tabGroup(a, pane);
                const LayoutRect& pr = r.paneRect[g];
                auto inGroup = [&](int i) { return i >= 0 && i < kPanelCount && open[i] && inAreaNow(i, a) && r.pane[i] == pane; };
                int show = -1;
                if (activeTab && inGroup(static_cast<int>((*activeTab)[g]))) show = static_cast<int>((*activeTab)[g]);
                for (int i = 0; i < kPanelCount && show < 0; ++i) {
                    if (inGroup(i)) show = i;
                }
                r.groupTabs[g] = inPane[pane] > 1;
                const float strip = r.groupTabs[g] ? std::min(std::round(kTabStripHeight * scale), 0.5f * pr.h) : 0.0f;
                if (r.groupTabs[g]) r.tabStrip[g] = {pr.x, pr.y, pr.w, strip};
                r.panel[show] = {pr.x, pr.y + strip, pr.w, std::max(1.0f, pr.h - strip)};
                r.shown[show] = true;
            }
            continue;
        }
        const float usable = std::max(static_cast<float>(n), length - kLayoutGap * static_cast<float>(n - 1));
        float pos = isColumn(a) ? ar.y : ar.x;
        int prev = -1;
        for (int i = 0; i < kPanelCount; ++i) {
            if (!open[i] || !inAreaNow(i, a)) continue;
            const float len = usable * std::clamp(finite(s.weight[i], 1.0f), 0.05f, 20.0f) / total;
            if (prev >= 0) {
                const float g = std::round(pos - kLayoutGap);
                const LayoutRect gap = isColumn(a) ? LayoutRect{ar.x, g, ar.w, kLayoutGap} : LayoutRect{g, ar.y, kLayoutGap, ar.h};
                addSplitter(Splitter::BetweenPanels, gap, static_cast<PanelId>(prev), static_cast<PanelId>(i), usable);
            }
            const float start = std::round(pos), end = std::round(pos + len);
            r.panel[i] = isColumn(a) ? LayoutRect{ar.x, start, ar.w, end - start} : LayoutRect{start, ar.y, end - start, ar.h};
            r.shown[i] = true;
            pos += len + kLayoutGap;
            prev = i;
        }
    }
    return r;
}

void dragSplitter(LayoutSettings& s, const LayoutRects& r, const Splitter& sp, float dx, float dy) {
    // Sizes are clamped in window pixels and saved unscaled (divided by the UI scale).
    const float maxSides = (1.0f - kMinViewportShare) * r.width - 2.0f * kLayoutGap;
    const float maxB = (1.0f - kMinViewportShare) * (r.height - r.top) - kLayoutGap;
    const float k = r.scale > 0.0f ? r.scale : 1.0f;
    const float minCol = 60.0f * k, minB = kMinBottom * 0.5f * k;
    switch (sp.kind) {
        case Splitter::LeftEdge:
            s.leftWidth = std::clamp(r.leftWidth + dx, minCol, std::max(minCol, maxSides - r.rightWidth)) / k;
            break;
        case Splitter::RightEdge:
            s.rightWidth = std::clamp(r.rightWidth - dx, minCol, std::max(minCol, maxSides - r.leftWidth)) / k;
            break;
        case Splitter::BottomEdge:
            s.bottomHeight = std::clamp(r.bottomHeight - dy, minB, std::max(minB, maxB - (r.stripHeight > 0.0f ? r.stripHeight + kLayoutGap : 0.0f))) / k;
            break;
        case Splitter::StripEdge: {
            const float room = maxB - (r.bottomHeight > 0.0f ? r.bottomHeight + kLayoutGap : 0.0f);
            s.stripHeight = std::clamp(r.stripHeight - dy, minB, std::max(minB, room)) / k;
            break;
        }
        case Splitter::BetweenPanes: {
            const int col = sp.area == Area::Left ? 0 : 1;
            const float h0 = r.paneRect[tabGroup(sp.area, 0)].h;
            if (sp.span <= 0.0f) return;
            s.split[col] = std::clamp((h0 + dy) / sp.span, 0.1f, 0.9f);
            break;
        }
        case Splitter::BetweenPanels: {
            const int a = static_cast<int>(sp.a), b = static_cast<int>(sp.b);
            if (a < 0 || a >= kPanelCount || b < 0 || b >= kPanelCount) return;
            if (a == static_cast<int>(PanelId::Timeline) || b == static_cast<int>(PanelId::Timeline)) return;
            const bool column = isColumn(r.area[a]);
            const float la = column ? r.panel[a].h : r.panel[a].w, lb = column ? r.panel[b].h : r.panel[b].w;
            const float both = la + lb;
            if (both <= 0.0f) return;
            const float lo = std::min(kMinPanel, 0.5f * both);
            const float na = std::clamp(la + (column ? dy : dx), lo, both - lo);
            const float wsum = s.weight[a] + s.weight[b];
            s.weight[a] = wsum * na / both;
            s.weight[b] = wsum - s.weight[a];
            break;
        }
    }
}

int placePanel(const Layout& layout, PanelId id) {
    const int i = static_cast<int>(id);
    const LayoutRect& rc = layout.rects.panel[i];
    if (i < 0 || i >= kPanelCount || !layout.open[i] || !layout.rects.shown[i] || rc.w <= 0.0f || rc.h <= 0.0f) {
        // A panel the layout was not told is open: float it in the middle of the viewport.
        const LayoutRect& c = layout.rects.centre;
        ImGui::SetNextWindowPos(ImVec2(c.x + c.w * 0.5f, c.y + c.h * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
        ImGui::SetNextWindowSize(ImVec2(std::min(320.0f, c.w), std::min(300.0f, c.h)), ImGuiCond_Appearing);
        return ImGuiWindowFlags_NoSavedSettings;
    }
    ImGui::SetNextWindowPos(ImVec2(rc.x, rc.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(rc.w, rc.h), ImGuiCond_Always);
    return ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
           ImGuiWindowFlags_NoSavedSettings;
}

void fitTabStrips(LayoutRects& r, const std::array<float, kTabGroups>& need) {
    for (int g = 0; g < kTabGroups; ++g) {
        if (!r.groupTabs[g]) continue;
        LayoutRect& strip = r.tabStrip[g];
        const LayoutRect& pr = r.paneRect[g];
        const float h = std::round(std::min(std::max(strip.h, need[g]), 0.5f * pr.h));
        if (h == strip.h) continue;
        strip.h = h;
        for (int i = 0; i < kPanelCount; ++i) {
            if (!r.shown[i] || i == static_cast<int>(PanelId::Timeline) || tabGroup(r.area[i], r.pane[i]) != g) continue;
            r.panel[i].y = pr.y + h;
            r.panel[i].h = std::max(1.0f, pr.h - h);
        }
    }
}

void drawTabStrips(Layout& layout, UiProbe* probe) {
    for (int g = 0; g < kTabGroups; ++g) {
        if (!layout.rects.groupTabs[g]) continue;
        const LayoutRect& rc = layout.rects.tabStrip[g];
        char name[24];
        std::snprintf(name, sizeof name, "##tabs%d", g);
        ImGui::SetNextWindowPos(ImVec2(rc.x, rc.y), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(rc.w, rc.h), ImGuiCond_Always);
        const ImVec2 pad(4.0f, 4.0f);
        ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, pad);
        ImGui::Begin(name, nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                         ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoScrollWithMouse);
        const ImGuiStyle& st = ImGui::GetStyle();
        const float avail = rc.w - 2.0f * pad.x;
        float x = 0.0f;
        int rows = 1;
        for (int i = 0; i < kPanelCount; ++i) {
            if (!layout.open[i] || i == static_cast<int>(PanelId::Timeline) || tabGroup(layout.rects.area[i], layout.rects.pane[i]) != g) {
                continue;
            }
            // A row of tabs wraps where the next one does not fit; the shown panel's tab is lit.
            const float w = ImGui::CalcTextSize(kNames[i]).x + 2.0f * st.FramePadding.x;
            if (x > 0.0f && x + st.ItemSpacing.x + w <= avail) {
                ImGui::SameLine();
                x += st.ItemSpacing.x + w;
            } else {
                if (x > 0.0f) ++rows;
                x = w;
            }
            const bool shown = layout.rects.shown[i];
            ImGui::PushStyleColor(ImGuiCol_Button, st.Colors[shown ? ImGuiCol_TabActive : ImGuiCol_Tab]);
            ImGui::PushStyleColor(ImGuiCol_ButtonHovered, st.Colors[ImGuiCol_TabHovered]);
            ImGui::PushStyleColor(ImGuiCol_ButtonActive, st.Colors[ImGuiCol_TabActive]);
            if (ImGui::Button(kNames[i])) layout.activeTab[g] = static_cast<PanelId>(i);
            ImGui::PopStyleColor(3);
            probeItem(probe, std::string("tab:") + kNames[i]);
            if (isColumn(layout.rects.area[i]) && ImGui::BeginPopupContextItem()) {
                const int other = 1 - std::clamp(layout.settings.pane[i], 0, 1);
                if (ImGui::MenuItem(other == 0 ? "Move to the upper half" : "Move to the lower half")) {
                    layout.settings.pane[i] = other;
                    layout.activeTab[tabGroup(layout.rects.area[i], other)] = static_cast<PanelId>(i);
                }
                probeItem(probe, "tab:move");
                ImGui::EndPopup();
            }
        }
        layout.tabStripNeed[g] = std::ceil(2.0f * pad.y + static_cast<float>(rows) * ImGui::GetFrameHeight() +
                                           static_cast<float>(rows - 1) * st.ItemSpacing.y + 1.0f);
        ImGui::End();
        ImGui::PopStyleVar(2);
    }
}

void drawSplitters(Layout& layout) {
    const LayoutRects r = layout.rects;  // dragging changes the settings, not this frame's rects
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    for (int k = 0; k < r.splitterCount; ++k) {
        const Splitter& sp = r.splitters[k];
        if (sp.rect.w <= 0.0f || sp.rect.h <= 0.0f) continue;
        char name[24];
        std::snprintf(name, sizeof name, "##splitter%d", k);
        ImGui::SetNextWindowPos(ImVec2(sp.rect.x, sp.rect.y), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(sp.rect.w, sp.rect.h), ImGuiCond_Always);
        ImGui::Begin(name, nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
        ImGui::InvisibleButton("##grab", ImVec2(sp.rect.w, sp.rect.h));
        const bool horizontalBar = sp.kind == Splitter::BottomEdge || sp.kind == Splitter::StripEdge || sp.kind == Splitter::BetweenPanes ||
                                   (sp.kind == Splitter::BetweenPanels && layout.rects.area[static_cast<int>(sp.a)] != Area::Bottom);
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
            ImGui::SetMouseCursor(horizontalBar ? ImGuiMouseCursor_ResizeNS : ImGuiMouseCursor_ResizeEW);
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(sp.rect.x, sp.rect.y), ImVec2(sp.rect.right(), sp.rect.bottom()),
                                                      ImGui::GetColorU32(ImGuiCol_SeparatorHovered));
        }
        if (ImGui::IsItemActive()) {
            const ImVec2 d = ImGui::GetIO().MouseDelta;
            if (d.x != 0.0f || d.y != 0.0f) dragSplitter(layout.settings, r, sp, d.x, d.y);
        }
        ImGui::End();
    }
    ImGui::PopStyleVar(3);
}

void drawLayoutMenu(Layout& layout) {
    for (int i = 0; i < kPanelCount; ++i) {
        if (i == static_cast<int>(PanelId::Timeline)) continue;  // always in its own strip
        if (ImGui::BeginMenu(kNames[i])) {
            for (Area a : {Area::Left, Area::Right, Area::Bottom}) {
                const char* label = a == Area::Left ? "Left column" : a == Area::Right ? "Right column" : "Bottom strip";
                if (ImGui::MenuItem(label, nullptr, layout.settings.area[i] == a)) layout.settings.area[i] = a;
            }
            // Its half of a column, where the column is too crowded to stack and shows tabs.
            ImGui::Separator();
            ImGui::BeginDisabled(layout.settings.area[i] == Area::Bottom);
            for (int pane = 0; pane < 2; ++pane) {
                if (ImGui::MenuItem(pane == 0 ? "Upper half (with tabs)" : "Lower half (with tabs)", nullptr,
                                    layout.settings.pane[i] == pane)) {
                    layout.settings.pane[i] = pane;
                }
            }
            ImGui::EndDisabled();
            ImGui::EndMenu();
        }
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) layout.resetRequested = true;
}

}  // namespace rig
