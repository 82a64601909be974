// The docked layout's arithmetic (ui/layout.h) and the settings file (app/viewer_settings.h),
// without a window: areas for small to 4K windows, splitter clamping, and the settings'
// round trip and rejection of corrupt files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "app/viewer_settings.h"
#include "render/view_options.h"
#include "ui/layout.h"

namespace rig {
namespace {

constexpr float kTop = 19.0f;  // the menu bar at the default font

std::array<bool, kPanelCount> defaultOpen() {
    std::array<bool, kPanelCount> open{};
    for (PanelId id : {PanelId::Open, PanelId::Clips, PanelId::Hierarchy, PanelId::View, PanelId::Checks, PanelId::Stats,
                       PanelId::Timeline}) {
        open[static_cast<int>(id)] = true;
    }
    return open;
}

std::array<bool, kPanelCount> allOpen() {
    std::array<bool, kPanelCount> open{};
    open.fill(true);
    return open;
}

bool overlap(const LayoutRect& a, const LayoutRect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

void expectFits(const LayoutRects& r, const std::array<bool, kPanelCount>& open, float w, float h) {
    const float eps = 1e-3f;
    EXPECT_GE(r.centre.w, kMinViewportShare * w - eps) << w << "x" << h;
    EXPECT_GE(r.centre.h, kMinViewportShare * (h - kTop) - eps) << w << "x" << h;
    EXPECT_GE(r.centre.x, 0.0f);
    EXPECT_LE(r.centre.right(), w + eps);
    EXPECT_GE(r.centre.y, kTop);
    for (int i = 0; i < kPanelCount; ++i) {
        if (!open[i]) continue;
        // Each open panel shows, or is a tab of an area too small to stack them.
        EXPECT_TRUE(r.shown[i] || r.tabbed[static_cast<int>(r.area[i])]) << panelName(static_cast<PanelId>(i));
        if (!r.shown[i]) continue;
        const LayoutRect& p = r.panel[i];
        const char* name = panelName(static_cast<PanelId>(i));
        EXPECT_GT(p.w, 20.0f) << name << " at " << w << "x" << h;
        EXPECT_GT(p.h, 20.0f) << name << " at " << w << "x" << h;
        EXPECT_GE(p.x, -eps) << name;
        EXPECT_GE(p.y, kTop - eps) << name;
        EXPECT_LE(p.right(), w + eps) << name << " at " << w << "x" << h;
        EXPECT_LE(p.bottom(), h + eps) << name << " at " << w << "x" << h;
        EXPECT_FALSE(overlap(p, r.centre)) << name << " covers the viewport at " << w << "x" << h;
        for (int j = i + 1; j < kPanelCount; ++j) {
            if (r.shown[j]) EXPECT_FALSE(overlap(p, r.panel[j])) << name << " / " << panelName(static_cast<PanelId>(j));
        }
    }
}

TEST(Layout, EveryPanelFitsFromSmallWindowsTo4K) {
    const LayoutSettings s;
    for (auto [w, h] : {std::pair{800.0f, 500.0f}, {900.0f, 600.0f}, {1280.0f, 800.0f}, {1600.0f, 900.0f},
                        {3840.0f, 2160.0f}, {320.0f, 240.0f}}) {
        for (const auto& open : {defaultOpen(), allOpen()}) {
            const LayoutRects r = computeLayout(s, open, w, h, kTop);
            expectFits(r, open, w, h);
        }
    }
}

// 1280 x 800 by hand: columns 290 and 300 wide with 4-pixel gaps, the Timeline's strip 170
// high along the window's whole width, under both columns and the viewport; the left column's
// 599 usable pixels (781 less the Timeline's 174 and two gaps) shared 0.7 : 1 : 2.
TEST(Layout, DefaultAt1280x800ByHand) {
    const LayoutRects r = computeLayout(LayoutSettings{}, defaultOpen(), 1280.0f, 800.0f, kTop);
    EXPECT_FLOAT_EQ(r.left.w, 290.0f);
    EXPECT_FLOAT_EQ(r.right.x, 980.0f);
    EXPECT_FLOAT_EQ(r.centre.x, 294.0f);
    EXPECT_FLOAT_EQ(r.centre.w, 682.0f);
    EXPECT_FLOAT_EQ(r.centre.h, 781.0f - 170.0f - 4.0f);
    const LayoutRect& open = r.panel[static_cast<int>(PanelId::Open)];
    const LayoutRect& clips = r.panel[static_cast<int>(PanelId::Clips)];
    const LayoutRect& tree = r.panel[static_cast<int>(PanelId::Hierarchy)];
    EXPECT_FLOAT_EQ(open.h, std::round(599.0f * 0.7f / 3.7f));  // 113.3, whole pixels
    EXPECT_FLOAT_EQ(clips.y, kTop + open.h + 4.0f);
    EXPECT_FLOAT_EQ(tree.bottom(), 800.0f - 170.0f - 4.0f);  // the left column ends above it too
    const LayoutRect& timeline = r.panel[static_cast<int>(PanelId::Timeline)];
    EXPECT_FLOAT_EQ(timeline.x, 0.0f);
    EXPECT_FLOAT_EQ(timeline.w, 1280.0f);
    EXPECT_FLOAT_EQ(timeline.bottom(), 800.0f);
    EXPECT_FLOAT_EQ(r.right.bottom(), 800.0f - 170.0f - 4.0f);  // the right column ends above it
    // Left, right and bottom edges plus the splitters inside the columns (2 left, 2 right).
    EXPECT_EQ(r.splitterCount, 3 + 2 + 2);
}

// Saved sizes too big for the window are scaled down so the viewport keeps 40%.
TEST(Layout, OversizedAreasAreClampedToTheWindow) {
    LayoutSettings s;
    s.leftWidth = 5000.0f;
    s.rightWidth = 5000.0f;
    s.bottomHeight = 5000.0f;
    const LayoutRects r = computeLayout(s, defaultOpen(), 800.0f, 500.0f, kTop);
    EXPECT_NEAR(r.leftWidth + r.rightWidth + 8.0f, 0.6f * 800.0f, 1.0f);  // whole pixels
    EXPECT_NEAR(r.bottomHeight + 4.0f, 0.6f * (500.0f - kTop), 1.0f);
    expectFits(r, defaultOpen(), 800.0f, 500.0f);
}

TEST(Layout, AnAreaWithoutOpenPanelsGivesItsRoomToTheViewport) {
    auto open = defaultOpen();
    for (PanelId id : {PanelId::View, PanelId::Checks, PanelId::Stats}) open[static_cast<int>(id)] = false;
    const LayoutRects r = computeLayout(LayoutSettings{}, open, 1280.0f, 800.0f, kTop);
    EXPECT_FLOAT_EQ(r.rightWidth, 0.0f);
    EXPECT_FLOAT_EQ(r.centre.right(), 1280.0f);
}

TEST(Layout, SplittersAreClamped) {
    LayoutSettings s;
    const auto open = defaultOpen();
    LayoutRects r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    auto find = [&](Splitter::Kind k) {
        for (int i = 0; i < r.splitterCount; ++i) {
            if (r.splitters[i].kind == k) return r.splitters[i];
        }
        ADD_FAILURE() << "no splitter";
        return Splitter{};
    };
    // Left edge 40 px right: 330 wide.
    dragSplitter(s, r, find(Splitter::LeftEdge), 40.0f, 0.0f);
    EXPECT_FLOAT_EQ(s.leftWidth, 330.0f);
    // Far right: stops where the viewport would drop under 40% (768 - 8 for both sides' gaps).
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    dragSplitter(s, r, find(Splitter::LeftEdge), 5000.0f, 0.0f);
    EXPECT_FLOAT_EQ(s.leftWidth, 0.6f * 1280.0f - 8.0f - 300.0f);
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    expectFits(r, open, 1280.0f, 800.0f);
    // Far left: a usable minimum.
    dragSplitter(s, r, find(Splitter::LeftEdge), -5000.0f, 0.0f);
    EXPECT_FLOAT_EQ(s.leftWidth, 60.0f);
    // The bottom edge up by 30: the strip 30 higher.
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    dragSplitter(s, r, find(Splitter::BottomEdge), 0.0f, -30.0f);
    EXPECT_FLOAT_EQ(s.bottomHeight, 200.0f);
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    dragSplitter(s, r, find(Splitter::BottomEdge), 0.0f, -5000.0f);
    EXPECT_FLOAT_EQ(s.bottomHeight, 0.6f * 781.0f - 4.0f);
}

// Between two panels of a column: one grows by the drag, the other shrinks by it, the rest
// stays; neither goes below 40 pixels.
TEST(Layout, SplitterBetweenPanelsMovesTheirBorder) {
    LayoutSettings s;
    const auto open = defaultOpen();
    LayoutRects r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    const int o = static_cast<int>(PanelId::Open), c = static_cast<int>(PanelId::Clips), t = static_cast<int>(PanelId::Hierarchy);
    const Splitter* between = nullptr;
    for (int i = 0; i < r.splitterCount; ++i) {
        if (r.splitters[i].kind == Splitter::BetweenPanels && r.splitters[i].a == PanelId::Open) between = &r.splitters[i];
    }
    ASSERT_NE(between, nullptr);
    EXPECT_EQ(between->b, PanelId::Clips);
    const LayoutRects before = r;
    dragSplitter(s, r, *between, 0.0f, 30.0f);
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    EXPECT_NEAR(r.panel[o].h, before.panel[o].h + 30.0f, 1.0f);  // whole pixels
    EXPECT_NEAR(r.panel[c].h, before.panel[c].h - 30.0f, 1.0f);
    EXPECT_NEAR(r.panel[t].h, before.panel[t].h, 1.0f);
    const LayoutRects mid = r;
    for (int i = 0; i < r.splitterCount; ++i) {
        if (r.splitters[i].kind == Splitter::BetweenPanels && r.splitters[i].a == PanelId::Open) between = &r.splitters[i];
    }
    dragSplitter(s, r, *between, 0.0f, 5000.0f);
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    EXPECT_NEAR(r.panel[c].h, 40.0f, 1.0f);
    EXPECT_NEAR(r.panel[o].h + r.panel[c].h, mid.panel[o].h + mid.panel[c].h, 1.0f);
}

// Eight panels in the right column need far more than an 800 x 500 window's 307 pixels above
// the Timeline: the column shows them as tabs, split in two halves (View, Checks and Blend
// above; Stats, Morphs, Crowd, IK and the folded State Machine below), the chosen panel of each
// half below its strip, the others hidden. So Checks and Stats show together while Blend,
// Crowd and IK are open. The left column (Open and Clips above, the Hierarchy below) too.
TEST(Layout, ACrowdedAreaTurnsToTabsInTwoHalves) {
    const auto open = allOpen();
    const LayoutRects r = computeLayout(LayoutSettings{}, open, 800.0f, 500.0f, kTop);
    const int right = static_cast<int>(Area::Right);
    ASSERT_TRUE(r.tabbed[right]);
    auto shown = [](const LayoutRects& x, PanelId id) { return x.shown[static_cast<int>(id)]; };
    EXPECT_TRUE(shown(r, PanelId::View));  // the first of each half, none chosen
    EXPECT_TRUE(shown(r, PanelId::Stats));
    for (PanelId id : {PanelId::Checks, PanelId::Blend, PanelId::Morphs, PanelId::Crowd, PanelId::Ik}) EXPECT_FALSE(shown(r, id));
    const LayoutRect& view = r.panel[static_cast<int>(PanelId::View)];
    const LayoutRect& stats = r.panel[static_cast<int>(PanelId::Stats)];
    const LayoutRect& upper = r.paneRect[tabGroup(Area::Right, 0)];
    const LayoutRect& lower = r.paneRect[tabGroup(Area::Right, 1)];
    EXPECT_FLOAT_EQ(upper.y, kTop);
    EXPECT_FLOAT_EQ(upper.h, std::floor(0.55f * (500.0f - kTop - 174.0f - 4.0f)));
    EXPECT_FLOAT_EQ(lower.y, upper.bottom() + 4.0f);
    EXPECT_FLOAT_EQ(lower.bottom(), 500.0f - 170.0f - 4.0f);  // above the Timeline
    EXPECT_FLOAT_EQ(view.y, kTop + kTabStripHeight);
    EXPECT_FLOAT_EQ(view.bottom(), upper.bottom());
    EXPECT_FLOAT_EQ(stats.y, lower.y + kTabStripHeight);
    EXPECT_FLOAT_EQ(stats.bottom(), lower.bottom());
    EXPECT_TRUE(r.groupTabs[tabGroup(Area::Right, 0)] && r.groupTabs[tabGroup(Area::Right, 1)]);
    // Checks chosen above, Stats below: both show.
    std::array<PanelId, kTabGroups> active{};
    active.fill(PanelId::Count);
    active[tabGroup(Area::Right, 0)] = PanelId::Checks;
    active[tabGroup(Area::Right, 1)] = PanelId::Stats;
    const LayoutRects t = computeLayout(LayoutSettings{}, open, 800.0f, 500.0f, kTop, 140.0f, &active);
    EXPECT_TRUE(shown(t, PanelId::Checks));
    EXPECT_TRUE(shown(t, PanelId::Stats));
    EXPECT_FALSE(shown(t, PanelId::View));
    expectFits(t, open, 800.0f, 500.0f);
    // The splitter between the halves moves the border and is kept as the upper half's share.
    const Splitter* between = nullptr;
    for (int i = 0; i < t.splitterCount; ++i) {
        if (t.splitters[i].kind == Splitter::BetweenPanes && t.splitters[i].area == Area::Right) between = &t.splitters[i];
    }
    ASSERT_NE(between, nullptr);
    EXPECT_FLOAT_EQ(between->rect.y, upper.bottom());
    LayoutSettings s;
    dragSplitter(s, t, *between, 0.0f, 20.0f);
    const LayoutRects d = computeLayout(s, open, 800.0f, 500.0f, kTop, 140.0f, &active);
    EXPECT_NEAR(d.paneRect[tabGroup(Area::Right, 0)].h, upper.h + 20.0f, 1.0f);
    EXPECT_TRUE(shown(d, PanelId::Checks) && shown(d, PanelId::Stats));
    // Every panel in one half: no split, one strip over the whole column.
    LayoutSettings one;
    one.pane.fill(0);
    const LayoutRects o = computeLayout(one, open, 800.0f, 500.0f, kTop);
    EXPECT_FALSE(o.groupTabs[tabGroup(Area::Right, 1)]);
    EXPECT_TRUE(shown(o, PanelId::View));
    EXPECT_FALSE(shown(o, PanelId::Stats));
    EXPECT_FLOAT_EQ(o.panel[static_cast<int>(PanelId::View)].bottom(), 500.0f - 170.0f - 4.0f);
    // The default right column (View 220 + Checks 220 + Stats 100 + two gaps = 548 pixels,
    // above the Timeline's 174) stacks in 1280 x 800 (607 pixels) but not in 900 x 600.
    EXPECT_FALSE(computeLayout(LayoutSettings{}, defaultOpen(), 1280.0f, 800.0f, kTop).tabbed[right]);
    EXPECT_TRUE(computeLayout(LayoutSettings{}, defaultOpen(), 900.0f, 600.0f, kTop).tabbed[right]);
    EXPECT_TRUE(computeLayout(LayoutSettings{}, defaultOpen(), 800.0f, 500.0f, kTop).tabbed[right]);
    // The left column (100 + 110 + 170 + 8) stacks in 900 x 600 (407 pixels); at 800 x 500 its
    // upper half tabs Open and Clips, the Hierarchy has the lower half to itself.
    EXPECT_FALSE(computeLayout(LayoutSettings{}, defaultOpen(), 900.0f, 600.0f, kTop).tabbed[static_cast<int>(Area::Left)]);
    const LayoutRects small = computeLayout(LayoutSettings{}, defaultOpen(), 800.0f, 500.0f, kTop);
    EXPECT_TRUE(small.tabbed[static_cast<int>(Area::Left)]);
    EXPECT_TRUE(shown(small, PanelId::Open) && shown(small, PanelId::Hierarchy));
    EXPECT_FALSE(small.groupTabs[tabGroup(Area::Left, 1)]);
    EXPECT_FLOAT_EQ(small.panel[static_cast<int>(PanelId::Hierarchy)].y, small.paneRect[tabGroup(Area::Left, 1)].y);
}

// The Timeline's strip is at least as high as it asks (its controls, ruler and two key rows),
// within the viewport's share.
TEST(Layout, TheTimelineKeepsTheHeightItNeeds) {
    LayoutSettings s;
    s.bottomHeight = 60.0f;
    const auto open = defaultOpen();
    EXPECT_FLOAT_EQ(computeLayout(s, open, 800.0f, 500.0f, kTop).bottomHeight, 90.0f);
    EXPECT_FLOAT_EQ(computeLayout(s, open, 800.0f, 500.0f, kTop, 140.0f, nullptr, 1.0f, 230.0f).bottomHeight, 230.0f);
    // Never more than the viewport leaves: 60% of 481 less the gap.
    const LayoutRects r = computeLayout(s, open, 800.0f, 500.0f, kTop, 140.0f, nullptr, 1.0f, 400.0f);
    EXPECT_FLOAT_EQ(r.bottomHeight, std::floor(0.6f * (500.0f - kTop) - 4.0f));
    EXPECT_GE(r.centre.h, kMinViewportShare * (500.0f - kTop) - 1e-3f);
}

// Issue 29: the Timeline has its own strip, never a tab, whatever else is open and wherever
// the settings put it: every panel open (the State Machine moved to the bottom strip), small
// windows, a widened left column, UI scale 1.5. It spans from the left column to the right
// edge, so it keeps at least 40% of the window's width (the viewport's share).
TEST(Layout, TheTimelineAlwaysHasItsOwnStrip) {
    LayoutSettings s;
    s.area[static_cast<int>(PanelId::Machine)] = Area::Bottom;
    s.area[static_cast<int>(PanelId::Timeline)] = Area::Right;  // an old settings file: ignored
    const int tl = static_cast<int>(PanelId::Timeline);
    for (float scale : {1.0f, 1.5f}) {
        for (float left : {290.0f, 600.0f}) {
            s.leftWidth = left;
            for (auto [w, h] : {std::pair{800.0f, 500.0f}, {900.0f, 600.0f}, {1280.0f, 720.0f}, {2560.0f, 1440.0f}}) {
                const std::array<PanelId, kTabGroups> active{PanelId::Clips, PanelId::Checks, PanelId::Count, PanelId::Count, PanelId::Machine, PanelId::Count};
                const LayoutRects r = computeLayout(s, allOpen(), w, h, kTop, 140.0f, &active, scale);
                const std::string where = std::to_string(w) + "x" + std::to_string(h) + " scale " + std::to_string(scale);
                ASSERT_TRUE(r.shown[tl]) << where;
                const LayoutRect& p = r.panel[tl];
                EXPECT_FLOAT_EQ(p.right(), w) << where;
                EXPECT_FLOAT_EQ(p.bottom(), h) << where;
                EXPECT_GE(p.w, kMinViewportShare * w) << where;
                EXPECT_GE(p.h, std::min(90.0f * scale, 0.3f * (h - kTop))) << where;
                // The State Machine: in the strip above, or in the right column where that
                // strip would be too low (a tab there).
                const int m = static_cast<int>(PanelId::Machine);
                EXPECT_TRUE(r.shown[m] || (r.area[m] == Area::Right && r.tabbed[static_cast<int>(Area::Right)])) << where;
                if (r.area[m] == Area::Bottom) EXPECT_GE(r.panel[m].h, 90.0f * scale) << where;
                for (int i = 0; i < kPanelCount; ++i) {
                    if (i != tl && r.shown[i]) EXPECT_FALSE(overlap(p, r.panel[i])) << panelName(static_cast<PanelId>(i)) << " " << where;
                }
                for (int g = 0; g < kTabGroups; ++g) {
                    if (r.groupTabs[g]) EXPECT_FALSE(overlap(p, r.tabStrip[g])) << where;
                }
                EXPECT_GE(r.centre.h, kMinViewportShare * (h - kTop) - 1e-3f) << where;
            }
        }
    }
    // The Timeline's edge and the strip's edge are dragged apart.
    s = LayoutSettings{};
    s.area[static_cast<int>(PanelId::Machine)] = Area::Bottom;
    auto open = defaultOpen();
    open[static_cast<int>(PanelId::Machine)] = true;
    LayoutRects r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    for (int i = 0; i < r.splitterCount; ++i) {
        if (r.splitters[i].kind == Splitter::StripEdge) dragSplitter(s, r, r.splitters[i], 0.0f, -20.0f);
    }
    EXPECT_FLOAT_EQ(s.stripHeight, 190.0f);
    EXPECT_FLOAT_EQ(s.bottomHeight, 170.0f);
    r = computeLayout(s, open, 1280.0f, 800.0f, kTop);
    EXPECT_FLOAT_EQ(r.panel[static_cast<int>(PanelId::Machine)].bottom(), 800.0f - 170.0f - 4.0f);
}

// A panel opened after the first frame becomes the chosen tab of its half of its area.
TEST(Layout, APanelJustOpenedIsTheChosenTab) {
    Layout l;
    auto open = defaultOpen();
    l.setOpen(open);
    EXPECT_EQ(l.activeTab[tabGroup(Area::Right, 0)], PanelId::Count);
    open[static_cast<int>(PanelId::Blend)] = true;
    l.setOpen(open);
    EXPECT_EQ(l.activeTab[tabGroup(Area::Right, 0)], PanelId::Blend);
    open[static_cast<int>(PanelId::Ik)] = true;
    l.setOpen(open);
    EXPECT_EQ(l.activeTab[tabGroup(Area::Right, 1)], PanelId::Ik);
    EXPECT_EQ(l.activeTab[tabGroup(Area::Right, 0)], PanelId::Blend);
    const LayoutRects r = computeLayout(l.settings, l.open, 1280.0f, 800.0f, kTop, 140.0f, &l.activeTab);
    EXPECT_TRUE(r.tabbed[static_cast<int>(Area::Right)]);
    EXPECT_TRUE(r.shown[static_cast<int>(PanelId::Blend)]);
    EXPECT_FALSE(r.shown[static_cast<int>(PanelId::View)]);
}

// At UI scale 1.5 the columns are 1.5 times as wide (290 -> 435, 300 -> 450); a drag of
// 30 window pixels is saved as 20 unscaled ones.
TEST(Layout, SizesFollowTheUiScale) {
    LayoutSettings s;
    const LayoutRects r = computeLayout(s, defaultOpen(), 2560.0f, 1600.0f, 28.0f, 140.0f, nullptr, 1.5f);
    EXPECT_FLOAT_EQ(r.leftWidth, 435.0f);
    EXPECT_FLOAT_EQ(r.rightWidth, 450.0f);
    EXPECT_FLOAT_EQ(r.bottomHeight, 255.0f);
    Splitter edge;
    edge.kind = Splitter::LeftEdge;
    dragSplitter(s, r, edge, 30.0f, 0.0f);
    EXPECT_FLOAT_EQ(s.leftWidth, 310.0f);
}

TEST(ViewerSettings, RoundTrip) {
    ViewerState a;
    a.ui.layout.settings.leftWidth = 333.0f;
    a.ui.layout.settings.split[1] = 0.3f;
    a.ui.layout.settings.pane[static_cast<int>(PanelId::Checks)] = 1;
    a.ui.layout.settings.area[static_cast<int>(PanelId::Stats)] = Area::Left;
    a.ui.layout.settings.weight[static_cast<int>(PanelId::Checks)] = 2.5f;
    a.panels.checks = false;
    a.crowd.panelOpen = true;
    a.view.bones = true;
    a.view.grid = false;
    a.view.skinning = SkinningMode::Cpu;
    a.checks.colorView = ColorView::WeightSum;
    a.checks.onion = true;
    a.checks.onionCount = 4;
    a.ui.uiScale = 1.5f;
    a.ui.inspectorHeight = 140.0f;
    a.camera.azimuthDeg = 71.0f;
    a.camera.distance = 4.25f;
    a.camera.target = glm::vec3(1, 2, 3);
    a.recent = {"/a/b.glb", "/c d/e.fbx"};
    const std::string text = settingsToJson(a);
    ViewerState b;
    bool hasCamera = false;
    std::string why;
    ASSERT_TRUE(applySettingsJson(text, b, hasCamera, why)) << why;
    EXPECT_TRUE(hasCamera);
    EXPECT_FLOAT_EQ(b.ui.layout.settings.leftWidth, 333.0f);
    EXPECT_FLOAT_EQ(b.ui.layout.settings.split[1], 0.3f);
    EXPECT_EQ(b.ui.layout.settings.pane[static_cast<int>(PanelId::Checks)], 1);
    EXPECT_EQ(b.ui.layout.settings.pane[static_cast<int>(PanelId::View)], 0);
    EXPECT_EQ(b.ui.layout.settings.area[static_cast<int>(PanelId::Stats)], Area::Left);
    EXPECT_FLOAT_EQ(b.ui.layout.settings.weight[static_cast<int>(PanelId::Checks)], 2.5f);
    EXPECT_FALSE(b.panels.checks);
    EXPECT_TRUE(b.crowd.panelOpen);
    EXPECT_TRUE(b.view.bones);
    EXPECT_FALSE(b.view.grid);
    EXPECT_EQ(b.view.skinning, SkinningMode::Cpu);
    EXPECT_EQ(b.checks.colorView, ColorView::WeightSum);
    EXPECT_TRUE(b.checks.onion);
    EXPECT_EQ(b.checks.onionCount, 4);
    EXPECT_FLOAT_EQ(b.ui.uiScale, 1.5f);
    EXPECT_FLOAT_EQ(b.ui.inspectorHeight, 140.0f);
    EXPECT_FLOAT_EQ(b.camera.azimuthDeg, 71.0f);
    EXPECT_FLOAT_EQ(b.camera.distance, 4.25f);
    EXPECT_EQ(b.camera.target, glm::vec3(1, 2, 3));
    EXPECT_EQ(b.recent, a.recent);
    EXPECT_EQ(settingsToJson(b), text);
}

// The Hierarchy's splitter (the inspector's height): a file without it (an older one) gives
// the default, a negative value 0 (the panel still keeps the inspector's three lines), and
// "Reset layout" puts the default back.
TEST(ViewerSettings, TheInspectorHeightDefaultsAndResets) {
    const float byDefault = ViewerUiState{}.inspectorHeight;
    ViewerState a;
    a.ui.inspectorHeight = 90.0f;
    std::string text = settingsToJson(a);
    ASSERT_NE(text.find("\"inspector\": 90"), std::string::npos) << text;
    ViewerState b;
    bool hasCamera = false;
    std::string why;
    std::string older = text;
    older.replace(older.find("\"inspector\""), 11, "\"unknown\"");
    b.ui.inspectorHeight = 55.0f;
    ASSERT_TRUE(applySettingsJson(older, b, hasCamera, why)) << why;
    EXPECT_FLOAT_EQ(b.ui.inspectorHeight, byDefault);
    std::string negative = text;
    negative.replace(negative.find("\"inspector\": 90"), 15, "\"inspector\": -90");
    ASSERT_TRUE(applySettingsJson(negative, b, hasCamera, why)) << why;
    EXPECT_FLOAT_EQ(b.ui.inspectorHeight, 0.0f);
    ASSERT_TRUE(applySettingsJson(text, b, hasCamera, why)) << why;
    EXPECT_FLOAT_EQ(b.ui.inspectorHeight, 90.0f);
    resetLayout(b);
    EXPECT_FLOAT_EQ(b.ui.inspectorHeight, byDefault);
}

// Not JSON, another version, a field of the wrong type: nothing changes.
TEST(ViewerSettings, CorruptOrUnknownFilesChangeNothing) {
    ViewerState a;
    a.view.bones = true;
    const std::string good = settingsToJson(a);
    std::string wrongType = good;
    wrongType.replace(wrongType.find("\"bones\": true"), 13, "\"bones\": \"yes\"");
    std::string otherVersion = good;
    otherVersion.replace(otherVersion.find("\"version\": 1"), 12, "\"version\": 99");
    for (const std::string& text : {std::string("{\"version\": 1, \"layout\": {"), std::string("\x00\xff garbage", 10),
                                    std::string("[1,2]"), otherVersion, wrongType}) {
        ViewerState b;
        b.camera.distance = 7.0f;
        const std::string before = settingsToJson(b);
        bool hasCamera = true;
        std::string why;
        EXPECT_FALSE(applySettingsJson(text, b, hasCamera, why)) << text;
        EXPECT_FALSE(why.empty());
        EXPECT_FALSE(hasCamera);
        EXPECT_EQ(settingsToJson(b), before) << text;
    }
}

// The view option table (render/view_options.h): names, flags, probes and keys are each used
// once, and each option is of one kind, in range at its default.
TEST(ViewOptionTable, EachOptionIsDeclaredOnceAndConsistently) {
    std::set<std::string> keys, flags, probes, shortcuts;
    const ViewOptions defaults;
    for (const ViewOptionSpec& o : viewOptionTable()) {
        EXPECT_TRUE(keys.insert(o.key).second) << o.key << " twice";
        EXPECT_NE(std::string(o.help), "") << o.key;
        EXPECT_EQ(findViewOption(o.key), &o);
        if (o.cliFlag) EXPECT_TRUE(flags.insert(o.cliFlag).second) << o.cliFlag << " twice";
        if (o.shortcut) {
            EXPECT_TRUE(shortcuts.insert(o.shortcut).second) << o.shortcut << " twice";
            EXPECT_TRUE(std::string(o.shortcut).size() == 1 && o.shortcut[0] >= 'A' && o.shortcut[0] <= 'Z') << o.key;
        }
        if (o.panel != ViewPanelSlot::None) {
            EXPECT_TRUE(o.label && o.probe) << o.key << " is shown without a label or a probe name";
            if (o.probe) EXPECT_TRUE(probes.insert(o.probe).second) << o.probe << " twice";
        }
        const int kinds = (o.flag != nullptr) + (o.number != nullptr) + (o.color != nullptr) + (o.choiceOf != nullptr);
        EXPECT_EQ(kinds, 1) << o.key;
        switch (o.type) {
            case ViewOptionType::Flag: EXPECT_NE(o.flag, nullptr) << o.key; break;
            case ViewOptionType::Number:
                ASSERT_NE(o.number, nullptr) << o.key;
                EXPECT_LT(o.min, o.max) << o.key;
                EXPECT_GE(defaults.*o.number, o.min) << o.key;
                EXPECT_LE(defaults.*o.number, o.max) << o.key;
                break;
            case ViewOptionType::Color: EXPECT_NE(o.color, nullptr) << o.key; break;
            case ViewOptionType::Choice:
                ASSERT_NE(o.choiceOf, nullptr) << o.key;
                EXPECT_NE(o.setChoice, nullptr) << o.key;
                EXPECT_GE(o.choices.size(), 2u) << o.key;
                for (size_t i = 0; i < o.choices.size(); ++i) EXPECT_EQ(choiceIndex(o, o.choices[i].name), static_cast<int>(i));
                break;
        }
    }
    EXPECT_EQ(findViewOption("no such option"), nullptr);
}

// A value of option `o` other than its default.
ViewOptions otherThanDefault(const ViewOptionSpec& o) {
    ViewOptions v;
    switch (o.type) {
        case ViewOptionType::Flag: v.*o.flag = !(v.*o.flag); break;
        case ViewOptionType::Choice: stepViewOption(o, v); break;
        case ViewOptionType::Number: v.*o.number = v.*o.number == o.max ? o.min : o.max; break;
        case ViewOptionType::Color: v.*o.color = glm::vec4(0.25f, 0.5f, 0.75f, 1.0f); break;
    }
    return v;
}

bool sameValue(const ViewOptionSpec& o, const ViewOptions& a, const ViewOptions& b) {
    switch (o.type) {
        case ViewOptionType::Flag: return a.*o.flag == b.*o.flag;
        case ViewOptionType::Choice: return o.choiceOf(a) == o.choiceOf(b);
        case ViewOptionType::Number: return a.*o.number == b.*o.number;
        case ViewOptionType::Color: return a.*o.color == b.*o.color;
    }
    return false;
}

// Every option of the table is saved under its key and read back; a file without it keeps
// what the viewer has.
TEST(ViewerSettings, EveryViewOptionRoundTripsUnderItsKey) {
    for (const ViewOptionSpec& o : viewOptionTable()) {
        ViewerState a;
        a.view = otherThanDefault(o);
        ASSERT_FALSE(sameValue(o, a.view, ViewOptions{})) << o.key;
        const std::string text = settingsToJson(a);
        EXPECT_NE(text.find(std::string("\"") + o.key + "\":"), std::string::npos) << o.key << " not saved:\n" << text;
        ViewerState b;
        bool hasCamera = false;
        std::string why;
        ASSERT_TRUE(applySettingsJson(text, b, hasCamera, why)) << o.key << ": " << why;
        EXPECT_TRUE(sameValue(o, b.view, a.view)) << o.key << " did not come back";
        EXPECT_EQ(settingsToJson(b), text) << o.key;
    }
}

// The settings file as older rigviews wrote it still reads: the skinning by name, the method
// and the joint names by index; out-of-range values are clamped.
TEST(ViewerSettings, ViewOptionsKeepTheirFileFormat) {
    ViewerState s;
    bool hasCamera = false;
    std::string why;
    ASSERT_TRUE(applySettingsJson(R"({"version": 1, "view": {"skinning": "cpu", "method": 2, "jointNames": 1,
        "ambient": 7.5, "background": [0.5, 0.25, 0.125], "axes": true}})",
                                  s, hasCamera, why))
        << why;
    EXPECT_EQ(s.view.skinning, SkinningMode::Cpu);
    EXPECT_EQ(s.view.method, SkinningMethod::DualQuat);
    EXPECT_EQ(s.view.jointNames, JointNameMode::All);
    EXPECT_FLOAT_EQ(s.view.ambient, 1.0f);
    EXPECT_EQ(s.view.background, glm::vec4(0.5f, 0.25f, 0.125f, 1.0f));
    EXPECT_TRUE(s.view.axes);
    ASSERT_TRUE(applySettingsJson(R"({"version": 1, "view": {"skinning": "magic", "method": 9}})", s, hasCamera, why)) << why;
    EXPECT_EQ(s.view.skinning, SkinningMode::Gpu);
    EXPECT_EQ(s.view.method, SkinningMethod::DualQuat);
}

}  // namespace
}  // namespace rig
