// The viewer's docked layout (issues 11, 29 and 44): the window below the menu bar is split into
// a left column and a right column, the Timeline's own strip along the bottom (the window's
// whole width, under both columns and the viewport), a strip of other bottom panels under the
// viewport, and the centre viewport. The Timeline is never shared with another panel nor a tab:
// it always shows while open, at least as high as its controls, ruler and two key rows need
// (Layout::timelineNeed, measured as it draws). Every other panel belongs to one of the three
// side areas; the open panels of an area share it (stacked top to bottom in the columns, side
// by side in the bottom strip), so every panel lies inside the window with a positive size
// whatever the window's size. Area sizes follow the window: they are clamped so the viewport
// keeps at least 40% of the window's width and of the height below the menu bar. Splitters
// between the areas (and between the panels of an area) are dragged to resize.
// An area too small to stack its open panels at their usable sizes (panelMinLength) shows
// them as tabs: a tab strip at its top, the chosen panel below it, the others hidden until
// chosen (a panel just opened is chosen). A tabbed column is split in two halves, upper and
// lower (each panel's half is a setting: the Layout menu or a tab's right-click menu moves it),
// with a splitter between them, so two panels (Stats and Checks, say) show at once; each half
// with two or more panels has its own tabs. The tabs wrap onto more rows where they do not fit
// the area's width (no tab is cut or scrolled away); the strip grows to hold them.
// Panels are placed every frame (ImGuiCond_Always): nothing floats off-screen.
#pragma once

#include <array>
#include <string>

namespace rig {

struct UiProbe;

enum class PanelId { Open, Clips, Hierarchy, View, Checks, Stats, Timeline, Blend, Morphs, Crowd, Machine, Ik, Count };
constexpr int kPanelCount = static_cast<int>(PanelId::Count);
enum class Area { Left, Right, Bottom };

// Name used in the settings file and the menus ("State Machine", "IK", ...).
const char* panelName(PanelId id);
const char* areaName(Area a);  // "left", "right", "bottom"
// A tabbed area's tab groups: the upper half of a column (or the whole bottom strip) is group
// `area`, the lower half of a column `area + 3`.
constexpr int kTabGroups = 6;
constexpr int tabGroup(Area a, int pane) { return static_cast<int>(a) + 3 * pane; }
// The height (width in the bottom strip) a panel needs to be of use when stacked.
float panelMinLength(PanelId id, Area a);

struct LayoutRect {
    float x = 0, y = 0, w = 0, h = 0;
    float right() const { return x + w; }
    float bottom() const { return y + h; }
    bool contains(float px, float py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

// What the person chose (saved in the settings file): area sizes in pixels (clamped to the
// window when used), each panel's area and its share of that area.
struct LayoutSettings {
    // bottomHeight: the Timeline's strip; stripHeight: the strip of other bottom panels.
    float leftWidth = 290.0f, rightWidth = 300.0f, bottomHeight = 170.0f, stripHeight = 170.0f;
    std::array<Area, kPanelCount> area{};
    std::array<float, kPanelCount> weight{};  // relative size within its area (> 0)
    std::array<int, kPanelCount> pane{};      // in a tabbed column: 0 the upper half, 1 the lower
    // A tabbed column's upper half's share (left, right): the Hierarchy below keeps five rows.
    std::array<float, 2> split{0.33f, 0.55f};
    LayoutSettings();  // the default layout
};

// A draggable border: between two areas, or between two neighbouring panels of one area.
struct Splitter {
    // BottomEdge: the Timeline's top edge; StripEdge: the top of the other bottom panels' strip;
    // BetweenPanes: between the upper and lower halves of a tabbed column (`area`).
    enum Kind { LeftEdge, RightEdge, BottomEdge, BetweenPanels, StripEdge, BetweenPanes } kind = LeftEdge;
    Area area = Area::Left;        // BetweenPanes: the column
    LayoutRect rect;               // the grab handle (the gap between the two sides)
    PanelId a = PanelId::Count, b = PanelId::Count;  // BetweenPanels: the panels before / after
    float span = 0.0f;             // BetweenPanels, BetweenPanes: the length they share (pixels)
};

constexpr float kLayoutGap = 4.0f;      // between areas and between panels (the splitters)
constexpr float kMinViewportShare = 0.4f;
constexpr float kTabStripHeight = 26.0f;

struct LayoutRects {
    LayoutRect left, right, bottom, centre;   // areas (an empty area has zero width / height)
    LayoutRect timeline;                      // the Timeline's strip (zero height when closed)
    std::array<LayoutRect, kPanelCount> panel{};
    std::array<bool, kPanelCount> shown{};     // open and not hidden behind another tab
    std::array<Area, kPanelCount> area{};      // where each panel is this frame (a bottom panel
                                               // joins the right column when the strip is too low)
    std::array<int, kPanelCount> pane{};       // the half of a column each panel is in (0 in the strip)
    std::array<bool, 3> tabbed{};              // per Area
    std::array<LayoutRect, kTabGroups> paneRect{};  // per tab group of a tabbed area (tabGroup)
    std::array<bool, kTabGroups> groupTabs{};  // per tab group: it shows a tab strip (2+ panels)
    std::array<LayoutRect, kTabGroups> tabStrip{};  // per tab group, where groupTabs
    std::array<Splitter, 5 + kPanelCount> splitters{};
    int splitterCount = 0;
    float leftWidth = 0, rightWidth = 0, bottomHeight = 0, stripHeight = 0;  // as used (clamped)
    float width = 0, height = 0, top = 0;                    // the window it was computed for
    float scale = 1.0f;                                      // the UI scale it was computed at
};

// The areas and panel rectangles for a window of `width` x `height` whose top `top` pixels
// are the menu bar, `open[i]` saying which panels show. `minSide` is the smallest column
// width / strip height the person can drag an area to (smaller windows shrink it further).
// `activeTab` (per tab group, may be null): the panel a tab group shows (else its first open one).
// `scale` (the UI scale: fonts and widgets) multiplies the saved sizes and the minimums, so a
// larger UI gets wider columns; the settings stay in unscaled pixels. `timelineMin`: the
// Timeline's strip is at least this high (window pixels) while the viewport keeps its share.
LayoutRects computeLayout(const LayoutSettings& s, const std::array<bool, kPanelCount>& open, float width,
                          float height, float top, float minSide = 140.0f,
                          const std::array<PanelId, kTabGroups>* activeTab = nullptr, float scale = 1.0f,
                          float timelineMin = 0.0f);

// Dragging splitter `sp` by (dx, dy) pixels changes `s` (the widths / heights as they were
// used in `r`, so a drag from a clamped state starts where the border is drawn).
void dragSplitter(LayoutSettings& s, const LayoutRects& r, const Splitter& sp, float dx, float dy);

// The layout in the UI: settings, what was computed for this frame, and which panels are open.
struct Layout {
    LayoutSettings settings;
    LayoutRects rects;
    std::array<bool, kPanelCount> open{};
    std::array<PanelId, kTabGroups> activeTab{PanelId::Count, PanelId::Count, PanelId::Count,
                                              PanelId::Count, PanelId::Count, PanelId::Count};
    std::array<bool, kPanelCount> wasOpen{};
    bool started = false;
    // Sets `open` for this frame; a panel that just opened becomes its area's chosen tab.
    void setOpen(const std::array<bool, kPanelCount>& now);
    bool shows(PanelId id) const { return rects.shown[static_cast<int>(id)]; }
    bool resetRequested = false;   // "Reset layout": the viewer puts defaults back
    // Per tab group: the height its tab strip needs for its rows of tabs (drawTabStrips
    // measures it with the fonts; fitTabStrips applies it from the next frame). 0: one row.
    std::array<float, kTabGroups> tabStripNeed{};
    // The Timeline's height (window pixels) that shows its controls, its ruler and two key rows
    // at its width (the Timeline measures it as it draws; used from the next frame).
    float timelineNeed = 0.0f;
    // This frame's rects for a window of `width` x `height` under a menu bar `top` high.
    void place(float width, float height, float top, float scale);
};

// Grows each tab group's strip in `r` to `need` pixels (at most half its half of the area) and
// moves the group's shown panel below it.
void fitTabStrips(LayoutRects& r, const std::array<float, kTabGroups>& need);

// Places panel `id` for the ImGui::Begin that follows (position and size, every frame) and
// returns the window flags a docked panel takes (no move / resize / collapse).
int placePanel(const Layout& layout, PanelId id);
// The tab strips of tabbed areas (choosing a tab shows that panel from the next frame), as
// rows of tab buttons wrapped at the strip's width; a tab's right-click menu moves its panel
// to the column's other half.
// Probed as "tab:<panel name>".
void drawTabStrips(Layout& layout, UiProbe* probe = nullptr);
// The splitters as thin invisible ImGui windows: dragging one changes the settings (applied
// from the next frame). Call once per frame after the panels.
void drawSplitters(Layout& layout);
// The menu's "Layout" entries: each panel's area and half of a column, and "Reset layout".
void drawLayoutMenu(Layout& layout);

}  // namespace rig
