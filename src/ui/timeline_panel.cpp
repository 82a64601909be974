// The Timeline panel's content: transport, loop mode and speed, and a frame ruler with zoom
// and pan, the current-frame marker, the preview range, markers (added with M or the ruler's
// right-click menu, dragged, renamed, deleted), key diamonds (summary row, selected joint),
// and the dope sheet: the selected joint's T / R / S channels, then a row per joint (folding
// by hierarchy) and per keyed morph target. It reads what plays from
// ViewerState::timeline (copied from the controller each frame) and posts requests.
#include "ui/timeline_panel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

#include <imgui_internal.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/control/controller.h"
#include "ui/widgets.h"

namespace rig {

namespace {

const char* loopModeName(LoopMode m) {
    switch (m) {
        case LoopMode::Loop: return "loop";
        case LoopMode::Once: return "once";
        case LoopMode::PingPong: return "ping-pong";
    }
    return "loop";
}

// Add the sorted keys of one channel to `out` (unsorted; deduplicated later).
void addChannelKeys(const Clip& clip, const Channel& ch, std::vector<float>& out) {
    for (uint32_t k = 0; k < ch.count; ++k) out.push_back(clip.times[ch.times + k]);
}

void sortUnique(std::vector<float>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

// The visible span of the ruler in seconds.
struct RulerView {
    double t0 = 0.0, t1 = 1.0;
    float x0 = 0.0f, x1 = 1.0f;
    double toTime(float x) const { return t0 + (static_cast<double>(x) - x0) / std::max(1.0f, x1 - x0) * (t1 - t0); }
    float toX(double t) const { return x0 + static_cast<float>((t - t0) / (t1 - t0)) * (x1 - x0); }
};

// Diamonds at sorted key times [first, last) in view, one per pixel column at most: after
// drawing one, jump (binary search) to the first key of the next column, so a clip of
// 100k keys costs about one search per column drawn, not one step per key.
void drawKeys(ImDrawList* dl, const RulerView& v, const float* first, const float* last, float y, float r, ImU32 col) {
    const float* it = std::lower_bound(first, last, static_cast<float>(v.t0) - 1e-6f);
    const double perPixel = (v.t1 - v.t0) / std::max(1.0f, v.x1 - v.x0);
    while (it != last && *it <= v.t1 + 1e-6) {
        const float x = v.toX(*it);
        dl->AddQuadFilled(ImVec2(x, y - r), ImVec2(x + r, y), ImVec2(x, y + r), ImVec2(x - r, y), col);
        const float next = static_cast<float>(*it + perPixel);
        it = std::upper_bound(it, last, next);
    }
}

// Frames between labelled ticks: 1, 2, 5, 10, 20, 50 ... so labels are at least `minPx` apart.
int tickStep(double pxPerFrame, float minPx) {
    int step = 1;
    for (int mag = 1; mag < 100000000; mag *= 10) {
        for (int m : {1, 2, 5}) {
            step = m * mag;
            if (step * pxPerFrame >= minPx) return step;
        }
    }
    return step;
}

// `name` shortened in the middle to fit `width` pixels ("shoulder.L" -> "sho..r.L"): both ends
// stay, where names differ (a prefix, a side suffix).
std::string elideMiddle(const std::string& name, float width) {
    if (ImGui::CalcTextSize(name.c_str()).x <= width) return name;
    size_t lo = 0, hi = name.size();
    std::string best = "..";
    while (lo < hi) {  // the most characters kept that fit
        const size_t n = (lo + hi + 1) / 2;
        const std::string t = name.substr(0, (n + 1) / 2) + ".." + name.substr(name.size() - n / 2);
        if (ImGui::CalcTextSize(t.c_str()).x <= width) {
            best = t;
            lo = n;
        } else {
            hi = n - 1;
        }
    }
    return best;
}

// Whether the values of a channel change between keys k-1 and k (beyond what a person sees).
bool keyChanges(const Clip& clip, const Channel& ch, bool rotation, uint32_t k) {
    if (rotation) {
        const glm::quat a = clip.quatKeys[ch.values + k - 1], b = clip.quatKeys[ch.values + k];
        return std::abs(glm::dot(a, b)) < 1.0f - 1e-7f;
    }
    const glm::vec3 d = clip.vec3Keys[ch.values + k] - clip.vec3Keys[ch.values + k - 1];
    return glm::dot(d, d) > 1e-12f;
}

// A row whose keys are closer than their diamonds (a channel keyed on every frame: mocap) as
// a band over the keyed span, bright where the values change from key to key and dim where they
// hold, one mark per pixel column at most; false (nothing drawn) when the diamonds fit.
bool drawKeyBand(ImDrawList* dl, const RulerView& v, const Clip& clip, const Track& tr, const float* first, const float* last,
                 float y, float r, ImU32 col) {
    if (last - first < 3) return false;
    const double perPixel = (v.t1 - v.t0) / std::max(1.0f, v.x1 - v.x0);
    const double span = static_cast<double>(*(last - 1)) - *first;
    if (span / static_cast<double>(last - first - 1) > 2.5 * r * perPixel) return false;  // the diamonds fit
    const float xa = std::max(v.x0, v.toX(*first)), xb = std::min(v.x1, v.toX(*(last - 1)));
    if (xb < xa) return true;
    const ImU32 dim = (col & 0x00FFFFFFu) | 0x50000000u;
    dl->AddRectFilled(ImVec2(xa, y - r * 0.6f), ImVec2(xb + 1.0f, y + r * 0.6f), dim);
    const Channel* chans[3] = {&tr.translation, &tr.rotation, &tr.scale};
    float lastX = -1e9f;
    for (int c = 0; c < 3; ++c) {
        const Channel& ch = *chans[c];
        if (ch.count < 2) continue;
        const float* times = clip.times.data() + ch.times;
        uint32_t k = static_cast<uint32_t>(std::lower_bound(times, times + ch.count, static_cast<float>(v.t0)) - times);
        k = std::max<uint32_t>(k, 1);
        for (; k < ch.count && times[k - 1] <= v.t1; ++k) {
            if (!keyChanges(clip, ch, c == 1, k)) continue;
            const float x0 = v.toX(times[k - 1]), x1 = std::max(v.toX(times[k]), x0 + 1.0f);
            if (c == 0 || x0 > lastX) dl->AddRectFilled(ImVec2(x0, y - r * 0.6f), ImVec2(x1, y + r * 0.6f), col);
            lastX = std::max(lastX, x1);
        }
        lastX = -1e9f;
    }
    return true;
}

constexpr size_t kMaxCurvePoints = 20000;

// Euler angles (degrees, x y z as glm's eulerAngles gives them) of each key, each angle kept
// continuous with the key before (+-360), so a wrap is not drawn as a jump but a flip is.
void eulerKeys(const Clip& clip, const Channel& ch, std::vector<glm::vec3>& out) {
    out.resize(ch.count);
    for (uint32_t k = 0; k < ch.count; ++k) {
        glm::vec3 e = glm::degrees(glm::eulerAngles(clip.quatKeys[ch.values + k]));
        if (k > 0) {
            for (int c = 0; c < 3; ++c) {
                while (e[c] - out[k - 1][c] > 180.0f) e[c] -= 360.0f;
                while (e[c] - out[k - 1][c] < -180.0f) e[c] += 360.0f;
            }
        }
        out[k] = e;
    }
}

// The colour of component `c` of the `j`th of `n` joints' curves: x red, y green, z blue (w
// white) for one joint; for several, a hue per joint and a shade per component.
ImU32 curveColour(int j, int n, int c) {
    static const ImU32 kOne[4] = {IM_COL32(235, 95, 95, 255), IM_COL32(110, 220, 110, 255), IM_COL32(100, 150, 255, 255),
                                  IM_COL32(220, 220, 220, 255)};
    if (n <= 1) return kOne[c & 3];
    const float hue = std::fmod(0.02f + 0.61803f * static_cast<float>(j), 1.0f);
    static const float kSat[4] = {0.75f, 0.45f, 0.9f, 0.2f}, kVal[4] = {1.0f, 1.0f, 0.72f, 0.9f};
    return ImColor::HSV(hue, kSat[c & 3], kVal[c & 3]);
}

constexpr int kMaxCurveJoints = 8;

// The Curves view: the channel family of the selected joints (the selected one and those
// Ctrl / Shift-clicked with it in the Hierarchy, at most kMaxCurveJoints) as one curve per
// joint and component through its keys (drawn as points where they are apart), each coloured,
// named in a legend above and labelled at its right end where the label has room; the value
// axis fitted to the keys in view, with the ruler's time axis (zoom and pan), the playhead and
// the clip's markers.
void drawCurves(ViewerState& s, const RulerView& v, const Clip* clip, const std::vector<Marker>* markers, float k, UiProbe* probe) {
    TimelineState& tl = s.timeline;
    tl.curvePoints.clear();
    ImGui::RadioButton("location", &tl.curveFamily, 0);
    probeItem(probe, "curves:location");
    sameLineIfFits(ImGui::CalcTextSize("rotation").x + ImGui::GetFrameHeight());
    ImGui::RadioButton("rotation", &tl.curveFamily, 1);
    probeItem(probe, "curves:rotation");
    sameLineIfFits(ImGui::CalcTextSize("scale").x + ImGui::GetFrameHeight());
    ImGui::RadioButton("scale", &tl.curveFamily, 2);
    probeItem(probe, "curves:scale");
    if (tl.curveFamily == 1) {
        sameLineIfFits(ImGui::CalcTextSize("quaternion").x + ImGui::GetFrameHeight());
        ImGui::Checkbox("quaternion", &tl.curveQuaternion);
        probeItem(probe, "curves:quaternion");
    }
    const Model& m = *s.model;
    const int comps = tl.curveFamily == 1 && tl.curveQuaternion ? 4 : 3;
    static const char* kComp[4] = {"x", "y", "z", "w"};
    // The joints to draw: selected and keyed in this clip.
    const std::vector<int32_t> selection = s.jointSelection();
    std::vector<int32_t> joints;
    for (int32_t j : selection) {
        if (clip && static_cast<size_t>(j) < clip->trackOfNode.size() && clip->trackOfNode[j] >= 0 &&
            static_cast<int>(joints.size()) < kMaxCurveJoints) {
            joints.push_back(j);
        }
    }
    const int nj = static_cast<int>(joints.size());
    // The legend: a swatch and a name per curve, wrapping at the panel's edge.
    tl.curveLegend.clear();
    if (nj <= 1) {
        const char* units = tl.curveFamily == 1 && tl.curveQuaternion ? "x y z w" : tl.curveFamily == 1 ? "x y z (degrees)" : "x y z";
        sameLineIfFits(ImGui::CalcTextSize(units).x);
        ImGui::TextDisabled("%s", units);
    }
    const float sw = std::round(ImGui::GetFontSize() * 0.7f);
    for (int ji = 0; ji < nj && nj > 1; ++ji) {
        for (int c = 0; c < comps; ++c) {
            const std::string label = m.skeleton.names[joints[ji]] + " " + kComp[c];
            sameLineIfFits(sw + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float y = p.y + 0.5f * (ImGui::GetTextLineHeight() - sw);
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sw, y + sw), curveColour(ji, nj, c));
            ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
            ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
            ImGui::TextUnformatted(label.c_str());
            probeItem(probe, "curves:legend:" + std::to_string(joints[ji]) + ":" + kComp[c]);
            tl.curveLegend.push_back(label);
        }
    }
    if (nj > 1 && tl.curveFamily == 1) {
        sameLineIfFits(ImGui::CalcTextSize(tl.curveQuaternion ? "(quaternion)" : "(degrees)").x);
        ImGui::TextDisabled("%s", tl.curveQuaternion ? "(quaternion)" : "(degrees)");
    }
    if (static_cast<int>(selection.size()) > nj && nj == kMaxCurveJoints) {
        sameLineIfFits(ImGui::CalcTextSize("(the first 8 of 888 joints)").x);
        ImGui::TextDisabled("(the first %d of %zu joints)", kMaxCurveJoints, selection.size());
    }
    const float h = std::max(std::round(80.0f * k), ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##curves", ImVec2(std::max(1.0f, ImGui::GetContentRegionAvail().x), h));
    probeItem(probe, "curves");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float top = origin.y + 4.0f, bottom = origin.y + h - 4.0f;
    dl->AddRectFilled(ImVec2(v.x0, origin.y), ImVec2(v.x1, origin.y + h), IM_COL32(30, 30, 34, 255));
    tl.curveTop = top;
    tl.curveBottom = bottom;
    if (nj == 0) {
        dl->AddText(ImVec2(origin.x, top), IM_COL32(150, 150, 155, 255),
                    selection.empty() ? "select a joint to see its curves (Ctrl + click in the Hierarchy for more)"
                                      : selection.size() == 1 ? "this joint has no keys in this clip" : "these joints have no keys in this clip");
        return;
    }
    // Per joint: its channel, key times, the keys in view (one either side, so the curve reaches
    // the edges) and, for Euler angles, its keys' angles.
    struct Curve {
        const Channel* ch = nullptr;
        const float* times = nullptr;
        uint32_t first = 0, last = 0;
        std::vector<glm::vec3> euler;
    };
    std::vector<Curve> curves(static_cast<size_t>(nj));
    for (int ji = 0; ji < nj; ++ji) {
        Curve& cv = curves[static_cast<size_t>(ji)];
        const Track& tr = clip->tracks[clip->trackOfNode[joints[ji]]];
        cv.ch = tl.curveFamily == 0 ? &tr.translation : tl.curveFamily == 1 ? &tr.rotation : &tr.scale;
        cv.times = clip->times.data() + cv.ch->times;
        cv.first = static_cast<uint32_t>(std::max<std::ptrdiff_t>(
            0, std::lower_bound(cv.times, cv.times + cv.ch->count, static_cast<float>(v.t0)) - cv.times - 1));
        cv.last = static_cast<uint32_t>(std::min<std::ptrdiff_t>(
            cv.ch->count, std::upper_bound(cv.times, cv.times + cv.ch->count, static_cast<float>(v.t1)) - cv.times + 1));
        if (tl.curveFamily == 1 && !tl.curveQuaternion) eulerKeys(*clip, *cv.ch, cv.euler);
    }
    auto value = [&](const Curve& cv, uint32_t key, int c) -> float {
        if (tl.curveFamily != 1) return clip->vec3Keys[cv.ch->values + key][c];
        if (!tl.curveQuaternion) return cv.euler[key][c];
        const glm::quat& q = clip->quatKeys[cv.ch->values + key];
        return c == 0 ? q.x : c == 1 ? q.y : c == 2 ? q.z : q.w;
    };
    float lo = std::numeric_limits<float>::max(), hi = -std::numeric_limits<float>::max();
    for (const Curve& cv : curves) {
        for (uint32_t key = cv.first; key < cv.last; ++key) {
            for (int c = 0; c < comps; ++c) {
                lo = std::min(lo, value(cv, key, c));
                hi = std::max(hi, value(cv, key, c));
            }
        }
    }
    if (!(hi >= lo)) return;
    const float pad = std::max((hi - lo) * 0.08f, tl.curveFamily == 1 && !tl.curveQuaternion ? 1.0f : 1e-4f);
    lo -= pad;
    hi += pad;
    tl.curveMin = lo;
    tl.curveMax = hi;
    auto toY = [&](float val) { return bottom - (val - lo) / (hi - lo) * (bottom - top); };
    // Value grid: the ends and zero where it is in view.
    char text[32];
    for (float g : {lo + pad, hi - pad, 0.0f}) {
        if (g < lo || g > hi) continue;
        dl->AddLine(ImVec2(v.x0, toY(g)), ImVec2(v.x1, toY(g)), IM_COL32(60, 60, 66, 255));
        std::snprintf(text, sizeof text, "%.4g", g);
        dl->AddText(ImVec2(origin.x, toY(g) - ImGui::GetFontSize() * 0.5f), IM_COL32(150, 150, 155, 255), text);
    }
    dl->PushClipRect(ImVec2(v.x0, origin.y), ImVec2(v.x1, origin.y + h), true);
    if (markers) {
        for (const Marker& mk : *markers) dl->AddLine(ImVec2(v.toX(mk.time), top), ImVec2(v.toX(mk.time), bottom), IM_COL32(230, 170, 60, 160));
    }
    const float dot = std::max(1.5f, 2.0f * k);
    const double perPixel = (v.t1 - v.t0) / std::max(1.0f, v.x1 - v.x0);
    std::vector<ImVec4> labelBoxes;  // labels drawn, so none is drawn over another
    for (int ji = 0; ji < nj; ++ji) {
        const Curve& cv = curves[static_cast<size_t>(ji)];
        const bool spaced = cv.last - cv.first < 2 ||
                            (cv.times[cv.last - 1] - cv.times[cv.first]) / (cv.last - cv.first - 1) > 4.0 * perPixel;
        for (int c = 0; c < comps; ++c) {
            const ImU32 col = curveColour(ji, nj, c);
            ImVec2 prev, end(-1e9f, 0.0f);
            for (uint32_t key = cv.first; key < cv.last; ++key) {
                const float val = value(cv, key, c);
                const ImVec2 p(v.toX(cv.times[key]), toY(val));
                if (key > cv.first) dl->AddLine(prev, p, col, 1.5f);
                if (spaced) dl->AddRectFilled(ImVec2(p.x - dot, p.y - dot), ImVec2(p.x + dot, p.y + dot), col);
                if (tl.curvePoints.size() < kMaxCurvePoints && cv.times[key] >= v.t0 && cv.times[key] <= v.t1) {
                    tl.curvePoints.push_back(TimelineState::CurvePoint{c, cv.times[key], val, p.x, p.y, joints[ji]});
                }
                if (p.x <= v.x1) end = p;
                prev = p;
            }
            if (nj < 2 || end.x < v.x0) continue;
            // Its name at its right end, inside the plot, where no other label is.
            const std::string label = m.skeleton.names[joints[ji]] + " " + kComp[c];
            const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
            const ImVec2 at(std::max(v.x0, std::min(end.x, v.x1) - ts.x - 3.0f), std::clamp(end.y - ts.y - 1.0f, top, bottom - ts.y));
            const ImVec4 box(at.x, at.y, at.x + ts.x, at.y + ts.y);
            bool free = true;
            for (const ImVec4& o : labelBoxes) free = free && (box.z <= o.x || o.z <= box.x || box.w <= o.y || o.w <= box.y);
            if (!free) continue;
            labelBoxes.push_back(box);
            dl->AddText(at, col, label.c_str());
        }
    }
    const float cx = v.toX(tl.time);
    dl->AddLine(ImVec2(cx, origin.y), ImVec2(cx, origin.y + h), IM_COL32(80, 160, 255, 255), 2.0f);
    dl->PopClipRect();
}

// One row of the dope sheet: a skeleton node (indented `depth` levels) or a morph target.
struct DopeRow {
    int node = -1;
    int depth = 0;
    int mesh = -1, target = -1;  // a morph target's row
};

// The dope sheet's rows: every skeleton node depth-first from the roots (a folded node's
// subtree left out), then a row per morph target the clip keys.
bool holdsText(const std::string& name, const std::string& lowerFilter) {
    if (lowerFilter.empty()) return true;
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return n.find(lowerFilter) != std::string::npos;
}

void dopeRows(const ViewerState& s, const Clip* clip, std::vector<DopeRow>& rows) {
    const Model& m = *s.model;
    const std::vector<char>& folded = s.timeline.collapsed;
    std::string filter = s.timeline.filter;
    std::transform(filter.begin(), filter.end(), filter.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!filter.empty()) {
        // Filtered: the matching nodes, in hierarchy order, unindented (folding aside).
        for (size_t i = 0; i < m.skeleton.size(); ++i) {
            if (holdsText(m.skeleton.names[i], filter)) rows.push_back(DopeRow{static_cast<int>(i), 0});
        }
        if (!clip) return;
        for (const MorphTrack& mt : clip->morphTracks) {
            if (mt.mesh < 0 || static_cast<size_t>(mt.mesh) >= m.meshes.size() || mt.count == 0) continue;
            for (uint32_t t = 0; t < mt.targets && t < m.meshes[mt.mesh].morphTargets.size(); ++t) {
                if (holdsText(m.meshes[mt.mesh].morphTargets[t].name, filter)) rows.push_back(DopeRow{-1, 0, mt.mesh, static_cast<int>(t)});
            }
        }
        return;
    }
    std::vector<std::pair<int, int>> stack;  // node, depth
    for (int i = static_cast<int>(m.skeleton.size()) - 1; i >= 0; --i) {
        if (m.skeleton.parent[i] < 0) stack.emplace_back(i, 0);
    }
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        rows.push_back(DopeRow{node, depth});
        if (static_cast<size_t>(node) >= s.children.size() || folded[node]) continue;
        const std::vector<int32_t>& kids = s.children[node];
        for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.emplace_back(*it, depth + 1);
    }
    if (!clip) return;
    for (const MorphTrack& mt : clip->morphTracks) {
        if (mt.mesh < 0 || static_cast<size_t>(mt.mesh) >= m.meshes.size() || mt.count == 0) continue;
        for (uint32_t t = 0; t < mt.targets; ++t) rows.push_back(DopeRow{-1, 0, mt.mesh, static_cast<int>(t)});
    }
}

// Every joint's keys, a row each under the fixed rows, indented by hierarchy with an arrow
// that folds a joint's children; then the clip's morph targets. The rows scroll in their own
// area and only the visible ones are drawn (ImGuiListClipper). Clicking a joint's row selects it.
void drawDopeSheet(ViewerState& s, const RulerView& v, const Clip* clip, float rowH, float keyR, UiProbe* probe) {
    TimelineState& tl = s.timeline;
    const Model& m = *s.model;
    if (tl.collapsed.size() != m.skeleton.size()) tl.collapsed.assign(m.skeleton.size(), 0);
    std::vector<DopeRow> rows;
    dopeRows(s, clip, rows);
    tl.rowCount = static_cast<int>(rows.size());
    // Room for the blend rows below it, at least four rows, at most every row.
    const ImGuiStyle& style = ImGui::GetStyle();
    const int below = s.blend.active || s.machine.active ? static_cast<int>(s.blend.rows.size()) : 0;
    const float room = ImGui::GetContentRegionAvail().y - below * (ImGui::GetFrameHeight() + style.ItemSpacing.y) - style.ItemSpacing.y;
    const float listH = std::min(std::max<size_t>(rows.size(), 1) * rowH, std::max(4.0f * rowH, room));
    ImGui::BeginChild("##dopesheet", ImVec2(0.0f, listH), false);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float indentW = std::round(rowH * 0.8f);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows.size()), rowH);
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const DopeRow& r = rows[i];
            const ImVec2 p = ImGui::GetCursorScreenPos();
            ImGui::PushID(i);
            const bool joint = r.node >= 0;
            const std::string id = joint ? "joint:" + std::to_string(r.node)
                                         : "morph:" + std::to_string(r.mesh) + ":" + std::to_string(r.target);
            tl.rowsDrawn.push_back(id);
            const float indent = r.depth * indentW;
            if (joint && r.node == s.selectedJoint) {
                dl->AddRectFilled(p, ImVec2(v.x1, p.y + rowH), IM_COL32(70, 70, 40, 255));
            }
            if (joint && static_cast<size_t>(r.node) < s.children.size() && !s.children[r.node].empty()) {
                ImGui::SetCursorScreenPos(ImVec2(p.x + indent, p.y));
                if (ImGui::InvisibleButton("##fold", ImVec2(rowH, rowH))) tl.collapsed[r.node] = !tl.collapsed[r.node];
                probeItem(probe, "dope:fold:" + std::to_string(r.node));
                ImGui::RenderArrow(dl, ImVec2(p.x + indent + rowH * 0.1f, p.y + rowH * 0.1f), IM_COL32(190, 190, 195, 255),
                                   tl.collapsed[r.node] ? ImGuiDir_Right : ImGuiDir_Down, rowH / ImGui::GetFontSize() * 0.8f);
            }
            const float nameX = p.x + indent + rowH;
            ImGui::SetCursorScreenPos(ImVec2(nameX, p.y));
            ImGui::InvisibleButton("##row", ImVec2(std::max(1.0f, v.x0 - nameX), rowH));
            if (ImGui::IsItemClicked() && joint) s.selectedJoint = r.node;
            probeItem(probe, "dope:" + id);
            const std::string& full = joint ? m.skeleton.names[r.node] : m.meshes[r.mesh].morphTargets[r.target].name;
            const std::string name = elideMiddle(full.empty() ? std::string("(unnamed)") : full, v.x0 - 4.0f - nameX);
            if (name != full && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", full.c_str());
            tl.labelsDrawn.push_back(name);
            dl->PushClipRect(ImVec2(nameX, p.y), ImVec2(v.x0 - 2.0f, p.y + rowH), true);
            dl->AddText(ImVec2(nameX, p.y + (rowH - ImGui::GetFontSize()) * 0.5f),
                        joint ? IM_COL32(190, 190, 195, 255) : IM_COL32(230, 160, 230, 255), name.c_str());
            dl->PopClipRect();
            dl->PushClipRect(ImVec2(v.x0, p.y), ImVec2(v.x1, p.y + rowH), true);
            const float y = p.y + rowH * 0.5f;
            const bool tracked = clip && joint && static_cast<size_t>(r.node) < clip->trackOfNode.size() && clip->trackOfNode[r.node] >= 0;
            if (joint && static_cast<size_t>(r.node) < s.keyTimes.perNode.size()) {
                const std::vector<float>& keys = s.keyTimes.perNode[r.node];
                if (tracked && drawKeyBand(dl, v, *clip, clip->tracks[clip->trackOfNode[r.node]], keys.data(), keys.data() + keys.size(),
                                           y, keyR, IM_COL32(200, 200, 200, 235))) {
                    ++tl.bandRows;
                } else {
                    drawKeys(dl, v, keys.data(), keys.data() + keys.size(), y, keyR, IM_COL32(200, 200, 200, 220));
                }
            } else if (!joint && clip) {
                for (const MorphTrack& mt : clip->morphTracks) {
                    if (mt.mesh != r.mesh) continue;
                    const float* first = clip->times.data() + mt.times;
                    drawKeys(dl, v, first, first + mt.count, y, keyR, IM_COL32(230, 160, 230, 255));
                }
            }
            dl->PopClipRect();
            ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + rowH));
            ImGui::PopID();
        }
    }
    clipper.End();
    ImGui::EndChild();
}

}  // namespace

void refreshKeyTimes(ViewerState& s) {
    KeyTimesCache& k = s.keyTimes;
    const int clip = s.timeline.clip;
    if (k.model == s.model.get() && k.clip == clip) return;
    k.model = s.model.get();
    k.clip = clip;
    k.all.clear();
    k.perNode.clear();
    if (!s.model || clip < 0 || static_cast<size_t>(clip) >= s.model->clips.size()) return;
    const Clip& c = s.model->clips[clip];
    k.perNode.assign(s.model->skeleton.size(), {});
    for (size_t node = 0; node < k.perNode.size() && node < c.trackOfNode.size(); ++node) {
        const int32_t t = c.trackOfNode[node];
        if (t < 0) continue;
        const Track& tr = c.tracks[t];
        std::vector<float>& keys = k.perNode[node];
        addChannelKeys(c, tr.translation, keys);
        addChannelKeys(c, tr.rotation, keys);
        addChannelKeys(c, tr.scale, keys);
        sortUnique(keys);
        k.all.insert(k.all.end(), keys.begin(), keys.end());
    }
    sortUnique(k.all);
}

double adjacentKey(const std::vector<float>& keys, double t, int direction) {
    const double eps = 1e-5;
    if (direction > 0) {
        auto it = std::upper_bound(keys.begin(), keys.end(), static_cast<float>(t + eps));
        while (it != keys.end() && *it <= t + eps) ++it;
        return it != keys.end() ? *it : std::numeric_limits<double>::quiet_NaN();
    }
    if (direction < 0) {
        auto it = std::lower_bound(keys.begin(), keys.end(), static_cast<float>(t - eps));
        while (it != keys.begin() && *(it - 1) >= t - eps) --it;
        return it != keys.begin() ? *(it - 1) : std::numeric_limits<double>::quiet_NaN();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

void drawTimelineContent(ViewerState& s, UiProbe* probe) {
    TimelineState& tl = s.timeline;
    ViewerRequests& q = s.requests;
    const ImGuiIO& io = ImGui::GetIO();
    const float k = ImGui::GetFontSize() / 13.0f;  // fixed widths follow the UI scale

    // --- Transport, loop mode, speed ---------------------------------------------------
    if (ImGui::Button("|<")) q.jumpStart = true;
    probeItem(probe, "start");
    ImGui::SameLine();
    if (ImGui::Button("<")) q.step = -1;
    probeItem(probe, "stepback");
    ImGui::SameLine();
    if (ImGui::Button(tl.playing ? "Pause" : "Play", ImVec2(std::round(60 * k), 0))) q.togglePlay = true;
    probeItem(probe, "play");
    ImGui::SameLine();
    if (ImGui::Button(">")) q.step = 1;
    probeItem(probe, "stepforward");
    ImGui::SameLine();
    if (ImGui::Button(">|")) q.jumpEnd = true;
    probeItem(probe, "end");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::round(100 * k));
    int mode = static_cast<int>(tl.mode);
    if (ImGui::Combo("##loop", &mode, "loop\0once\0ping-pong\0")) q.loopMode = static_cast<LoopMode>(mode);
    probeItem(probe, "loopmode");
    for (float preset : {0.25f, 0.5f, 1.0f, 2.0f}) {
        char label[32];
        std::snprintf(label, sizeof label, "%gx", preset);
        sameLineIfFits(buttonWidth(label));
        const bool on = std::abs(tl.rate - preset) < 1e-4f;
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::SmallButton(label)) q.rate = preset;
        if (on) ImGui::PopStyleColor();
        probeItem(probe, std::string("speed:") + label);
    }
    sameLineIfFits(std::round(90 * k));
    ImGui::SetNextItemWidth(std::round(90 * k));
    float rate = tl.rate;
    if (ImGui::SliderFloat("##speed", &rate, -2.0f, 2.0f, "%.2fx")) q.rate = rate;
    probeItem(probe, "speed");
    if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) q.rate = 1.0f;  // right click: back to 1x
    sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("dope sheet").x);
    ImGui::Checkbox("dope sheet", &tl.dopeSheet);
    probeItem(probe, "dopesheet");
    // The curves box where it fits on this line (a narrow strip keeps its rows for the ruler;
    // Panels > Timeline curves turns them on there). Turned on, the Timeline's strip grows to
    // give the curves room (the layout clamps it).
    const float curvesW = buttonWidth("curves");
    const float lineEnd = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + curvesW <= lineEnd) {
        ImGui::SameLine();
        if (ImGui::Checkbox("curves", &tl.curves) && tl.curves) {
            s.ui.layout.settings.bottomHeight = std::max(s.ui.layout.settings.bottomHeight, kCurvesStripHeight);
        }
        probeItem(probe, "curves:on");
    }
    if (tl.dopeSheet) {  // its filter: the rows whose name holds the text
        const float filterW = std::round(110.0f * ImGui::GetFontSize() / 13.0f);
        sameLineIfFits(filterW);
        ImGui::SetNextItemWidth(filterW);
        ImGui::InputTextWithHint("##dopefilter", "filter rows", tl.filter, sizeof tl.filter);
        probeItem(probe, "dope:filter");
    }

    // Preview range fields (frames) and the view's zoom.
    const float fps = tl.sampleRate > 0.0f ? tl.sampleRate : 30.0f;
    // The frame field (type a frame number), first on the line above the ruler: it stays in
    // view in a low panel.
    int frame = tl.frame;
    ImGui::SetNextItemWidth(std::round(120 * k));
    if (ImGui::InputInt("frame", &frame, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue)) {
        q.seek = std::clamp(frame, tl.firstFrame, tl.lastFrame) / static_cast<double>(fps);
    }
    probeItem(probe, "frame");
    sameLineIfFits(std::round(140 * k) + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("range").x);
    int range[2] = {tl.hasRange ? static_cast<int>(std::lround(tl.rangeStart * fps)) : tl.firstFrame,
                    tl.hasRange ? static_cast<int>(std::lround(tl.rangeEnd * fps)) : tl.lastFrame};
    ImGui::SetNextItemWidth(std::round(140 * k));
    if (ImGui::InputInt2("range", range, ImGuiInputTextFlags_EnterReturnsTrue)) {
        const int a = std::clamp(std::min(range[0], range[1]), tl.firstFrame, tl.lastFrame);
        const int b = std::clamp(std::max(range[0], range[1]), tl.firstFrame, tl.lastFrame);
        if (b > a) q.previewRange = std::make_pair(a / static_cast<double>(fps), b / static_cast<double>(fps));
    }
    probeItem(probe, "rangefields");
    sameLineIfFits(buttonWidth("clear range"));
    if (ImGui::SmallButton("clear range")) q.clearPreviewRange = true;
    probeItem(probe, "clearrange");
    sameLineIfFits(buttonWidth("fit"));
    if (ImGui::SmallButton("fit")) tl.viewStart = tl.viewEnd = 0.0;
    probeItem(probe, "fit");
    if (tl.markersModified) {
        sameLineIfFits(buttonWidth("save markers"));
        if (ImGui::SmallButton("save markers")) q.saveMarkers = true;
        probeItem(probe, "marker:save");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+S: to <model file>.markers.json, read whenever the model opens");
    }
    if (tl.driver || s.model) {
        char fade[48] = "";
        if (tl.fading) std::snprintf(fade, sizeof fade, "  fade %.2f", tl.fade);
        // The status in pieces that wrap whole (a narrow panel never splits a number).
        char pieces[4][160];
        std::snprintf(pieces[0], sizeof pieces[0], "%s", tl.name.c_str());
        std::snprintf(pieces[1], sizeof pieces[1], "%.3f / %.3f s", tl.time, tl.end);
        std::snprintf(pieces[2], sizeof pieces[2], "frame %d / %d at %.4g fps", tl.frame, tl.lastFrame, fps);
        std::snprintf(pieces[3], sizeof pieces[3], "%s  %.2fx  phase %.2f%s", loopModeName(tl.mode), tl.rate, tl.phase, fade);
        for (const char* piece : pieces) {
            sameLineIfFits(ImGui::CalcTextSize(piece).x);
            ImGui::TextUnformatted(piece);
        }
    } else {
        ImGui::SameLine();
    }
    probeItem(probe, "status");

    // --- Ruler and key rows --------------------------------------------------------------
    refreshKeyTimes(s);
    const double len = tl.end - tl.start;
    RulerView v;
    if (tl.viewEnd > tl.viewStart) {
        v.t0 = tl.viewStart;
        v.t1 = tl.viewEnd;
    } else {
        v.t0 = tl.start;
        v.t1 = tl.end > tl.start ? tl.end : tl.start + 1.0;
    }
    const Clip* clip = s.model && tl.clip >= 0 && static_cast<size_t>(tl.clip) < s.model->clips.size()
                           ? &s.model->clips[tl.clip]
                           : nullptr;
    const int joint = s.selectedJoint;
    const bool jointKeys = joint >= 0 && static_cast<size_t>(joint) < s.keyTimes.perNode.size() &&
                           !s.keyTimes.perNode[joint].empty();
    const float rulerH = std::round(22.0f * k), rowH = std::round(12.0f * k);
    int rows = 1 + (jointKeys ? 1 : 0);  // summary, selected joint
    if (tl.dopeSheet && jointKeys) rows += 3;
    tl.nameWidth = std::clamp(tl.nameWidth, 40.0f, std::max(40.0f, 0.6f * ImGui::GetContentRegionAvail().x / k));
    const float labelW = std::round(tl.nameWidth * k);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x - labelW);
    const float height = rulerH + rows * rowH;
    // The panel's height that shows everything above the ruler, the ruler and two key rows at
    // this width: the layout keeps the Timeline's strip at least this high.
    s.ui.layout.timelineNeed = std::ceil(ImGui::GetCursorPosY() + rulerH + 2.0f * rowH + ImGui::GetStyle().WindowPadding.y + 2.0f);
    v.x0 = origin.x + labelW;
    v.x1 = v.x0 + width;
    tl.rulerLeft = v.x0;
    tl.rulerWidth = width;

    // Markers of the clip (ViewerState::clipMarkers: what the controller plays), their handles
    // on the ruler's lower part.
    const float top = origin.y, bottom = origin.y + height;
    const std::vector<Marker>* markers =
        tl.clip >= 0 && static_cast<size_t>(tl.clip) < s.clipMarkers.size() ? &s.clipMarkers[tl.clip] : nullptr;
    if (!markers) tl.markerDrag = tl.markerMenu = tl.markerRename = -1;
    const int markerCount = markers ? static_cast<int>(markers->size()) : 0;
    auto markerX = [&](int i) { return v.toX(i == tl.markerDrag ? tl.markerDragTime : (*markers)[i].time); };
    const float handleR = std::round(5.0f * k);
    auto markerAt = [&](ImVec2 p) {
        int best = -1;
        float bestD = handleR + 2.0f;
        if (p.y < top + rulerH * 0.35f || p.y > top + rulerH) return -1;
        for (int i = 0; i < markerCount; ++i) {
            const float d = std::abs(markerX(i) - p.x);
            if (d <= bestD) best = i, bestD = d;
        }
        return best;
    };
    auto postMarker = [&](MarkerEdit::Kind kind, int index, float time, std::string name) {
        q.markerEdits.push_back(MarkerEdit{kind, tl.clip, index, time, std::move(name)});
    };
    // Renaming a marker: a text field in a small window of its own just above the ruler at the
    // marker, so it is drawn over everything (the ruler's own drawing came over a field placed
    // in the panel), focused with the old name selected: what is typed replaces it. Enter or a
    // click elsewhere keeps the name, Esc cancels.
    if (tl.markerRename >= markerCount) tl.markerRename = -1;
    if (tl.markerRename >= 0) {
        const float fieldW = std::round(140.0f * k);
        const ImVec2 pad = ImGui::GetStyle().WindowPadding;
        const float winH = ImGui::GetFrameHeight() + 2.0f * pad.y;
        ImGui::SetNextWindowPos(ImVec2(std::clamp(markerX(tl.markerRename) - pad.x, v.x0, std::max(v.x0, v.x1 - fieldW - 2.0f * pad.x)),
                                       std::max(0.0f, top - winH)));
        ImGui::SetNextWindowSize(ImVec2(fieldW + 2.0f * pad.x, winH));
        if (tl.markerRenameFocus) ImGui::SetNextWindowFocus();
        ImGui::Begin("##markerrename", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_NoFocusOnAppearing);
        ImGui::SetNextItemWidth(fieldW);
        if (tl.markerRenameFocus) ImGui::SetKeyboardFocusHere();
        tl.markerRenameFocus = false;
        const bool enter = ImGui::InputText("##markername", tl.markerName, sizeof tl.markerName,
                                            ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
        probeItem(probe, "marker:name");
        if ((enter || ImGui::IsItemDeactivatedAfterEdit()) && tl.markerName[0] != '\0') {
            postMarker(MarkerEdit::Kind::Rename, tl.markerRename, 0.0f, tl.markerName);
        }
        if (enter || ImGui::IsItemDeactivated()) tl.markerRename = -1;
        ImGui::End();
    }

    ImGui::SetCursorScreenPos(ImVec2(v.x0, origin.y));
    ImGui::InvisibleButton("##ruler", ImVec2(width, height),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    probeItem(probe, "scrub");
    ImGui::SetItemUsingMouseWheel();  // the wheel zooms the ruler, not scrolls the panel
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    auto snap = [&](double t) { return std::clamp(std::round(t * fps) / fps, tl.start, std::max(tl.start, tl.end)); };
    if (len > 0.0) {
        // Zoom about the cursor (wheel, Ctrl+wheel alike), pan with the middle button.
        if (hovered && io.MouseWheel != 0.0f) {
            const double at = v.toTime(io.MousePos.x);
            const double f = std::pow(0.8, static_cast<double>(io.MouseWheel));
            double span = std::clamp((v.t1 - v.t0) * f, 4.0 / fps, len);
            double a = at - (at - v.t0) * span / (v.t1 - v.t0);
            a = std::clamp(a, tl.start, tl.end - span);
            tl.viewStart = a;
            tl.viewEnd = a + span;
            if (span >= len - 1e-9) tl.viewStart = tl.viewEnd = 0.0;
        }
        if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.0f)) {
            const double span = v.t1 - v.t0;
            double a = v.t0 - io.MouseDelta.x / std::max(1.0f, width) * span;
            a = std::clamp(a, tl.start, tl.end - span);
            if (span < len) {
                tl.viewStart = a;
                tl.viewEnd = a + span;
            }
        }
        // Left: scrub (the current-frame marker follows the mouse); Shift + left: draw a
        // preview range.
        // A marker's handle: drag it (to whole frames); a click on it goes to it.
        if (ImGui::IsItemActivated() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            tl.rangeDrag = io.KeyShift;
            tl.rangeDragFrom = snap(v.toTime(io.MousePos.x));
            tl.markerDrag = io.KeyShift ? -1 : markerAt(io.MousePos);
            if (tl.markerDrag >= 0) tl.markerDragTime = (*markers)[tl.markerDrag].time;
        }
        if (active && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            const double t = snap(v.toTime(io.MousePos.x));
            if (tl.markerDrag >= 0) {
                if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) tl.markerDragTime = t;
            } else if (tl.rangeDrag) {
                if (std::abs(t - tl.rangeDragFrom) > 0.5 / fps) q.previewRange = std::make_pair(tl.rangeDragFrom, t);
            } else {
                q.seek = t;
            }
        }
        if (!active) tl.rangeDrag = false;
    }
    if (!active && tl.markerDrag >= 0) {
        if (tl.markerDrag < markerCount) {
            const float from = (*markers)[tl.markerDrag].time;
            if (std::abs(tl.markerDragTime - from) > 1e-6) {
                postMarker(MarkerEdit::Kind::Move, tl.markerDrag, static_cast<float>(tl.markerDragTime), "");
            } else {
                q.seek = from;
            }
        }
        tl.markerDrag = -1;
    }
    // Right click: a marker's menu (rename, delete), else adding one.
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
        tl.markerMenu = markerAt(io.MousePos);
        ImGui::OpenPopup("##markermenu");
    }
    if (ImGui::BeginPopup("##markermenu")) {
        if (tl.markerMenu >= 0 && tl.markerMenu < markerCount) {
            ImGui::TextDisabled("%s", (*markers)[tl.markerMenu].name.c_str());
            if (ImGui::MenuItem("Rename")) {
                tl.markerRename = tl.markerMenu;
                std::snprintf(tl.markerName, sizeof tl.markerName, "%s", (*markers)[tl.markerMenu].name.c_str());
                tl.markerRenameFocus = true;
            }
            probeItem(probe, "marker:rename");
            if (ImGui::MenuItem("Delete")) postMarker(MarkerEdit::Kind::Delete, tl.markerMenu, 0.0f, "");
            probeItem(probe, "marker:delete");
        } else {
            if (ImGui::MenuItem("Add marker at the current frame", "M")) q.markerEdits.push_back(MarkerEdit{});
            probeItem(probe, "marker:add");
        }
        ImGui::EndPopup();
    }

    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(v.x0, top), ImVec2(v.x1, bottom), IM_COL32(30, 30, 34, 255));
    dl->AddRectFilled(ImVec2(v.x0, top), ImVec2(v.x1, top + rulerH), IM_COL32(45, 45, 52, 255));
    dl->PushClipRect(ImVec2(v.x0, top), ImVec2(v.x1, bottom), true);
    // Outside the motion, and outside the preview range: darker.
    const ImU32 shade = IM_COL32(0, 0, 0, 110);
    const double r0 = tl.hasRange ? tl.rangeStart : tl.start, r1 = tl.hasRange ? tl.rangeEnd : tl.end;
    if (r0 > v.t0) dl->AddRectFilled(ImVec2(v.x0, top), ImVec2(v.toX(r0), bottom), shade);
    if (r1 < v.t1) dl->AddRectFilled(ImVec2(v.toX(r1), top), ImVec2(v.x1, bottom), shade);
    if (tl.hasRange) {
        for (double e : {tl.rangeStart, tl.rangeEnd}) {
            const float x = v.toX(e);
            dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), IM_COL32(255, 160, 60, 230), 2.0f);
        }
    }
    // Frame ticks: a labelled tick every `step` frames (labels >= 60 px apart), minor ticks
    // in between where they are at least 6 px apart.
    const double pxPerFrame = (v.x1 - v.x0) / std::max(1e-9, (v.t1 - v.t0) * fps);
    const int step = tickStep(pxPerFrame, 60.0f);
    const int minor = step >= 5 && step / 5 * pxPerFrame >= 6.0 ? step / 5 : (step >= 2 && pxPerFrame * step / 2 >= 6.0 ? step / 2 : step);
    const long f0 = static_cast<long>(std::floor(v.t0 * fps / minor)) * minor;
    const long f1 = static_cast<long>(std::ceil(v.t1 * fps));
    for (long f = f0; f <= f1; f += minor) {
        const float x = v.toX(f / static_cast<double>(fps));
        if (x < v.x0 - 1 || x > v.x1 + 1) continue;
        const bool major = f % step == 0;
        dl->AddLine(ImVec2(x, top + (major ? 0.0f : rulerH * 0.6f)), ImVec2(x, top + rulerH), IM_COL32(150, 150, 160, 255));
        if (major) {
            char num[24];
            std::snprintf(num, sizeof num, "%ld", f);
            dl->AddText(ImVec2(x + 3, top + 1), IM_COL32(210, 210, 215, 255), num);
            dl->AddLine(ImVec2(x, top + rulerH), ImVec2(x, bottom), IM_COL32(60, 60, 68, 255));
        }
    }
    // Markers: a handle and a line each; a name only where it fits before the next marker
    // (else the handle's tooltip shows it).
    for (int i = 0; i < markerCount; ++i) {
        const float x = markerX(i);
        const std::string& name = (*markers)[i].name;
        const std::string handle = "marker:" + std::to_string(i), label = "markerlabel:" + std::to_string(i);
        if (probe) probe->rects.erase(label);
        if (x < v.x0 - handleR || x > v.x1 + handleR) {
            if (probe) probe->rects.erase(handle);
            continue;
        }
        const ImU32 col = i == tl.markerDrag ? IM_COL32(255, 255, 255, 255) : IM_COL32(120, 220, 255, 255);
        dl->AddLine(ImVec2(x, top + rulerH), ImVec2(x, bottom), IM_COL32(120, 220, 255, 90));
        dl->AddTriangleFilled(ImVec2(x - handleR, top + rulerH - 1.6f * handleR), ImVec2(x + handleR, top + rulerH - 1.6f * handleR),
                              ImVec2(x, top + rulerH), col);
        if (probe) probe->rects[handle] = ImVec4(x - handleR, top + rulerH * 0.35f, x + handleR, top + rulerH);
        float limit = v.x1;
        for (int j = 0; j < markerCount; ++j) {
            const float xj = markerX(j);
            if (j != i && xj >= x && (xj > x || j > i)) limit = std::min(limit, xj - handleR - 2.0f);
        }
        const ImVec2 ts = ImGui::CalcTextSize(name.c_str());
        const ImVec2 at(x + handleR + 1.0f, top + rulerH - 1.6f * handleR - ts.y * 0.5f);
        if (at.x + ts.x <= limit) {
            dl->AddText(at, col, name.c_str());
            if (probe) probe->rects[label] = ImVec4(at.x, at.y, at.x + ts.x, at.y + ts.y);
        }
    }
    for (int i = markerCount;; ++i) {  // handles of markers that are gone
        if (!probe || !probe->rects.erase("marker:" + std::to_string(i))) break;
        probe->rects.erase("markerlabel:" + std::to_string(i));
    }
    if (hovered && tl.markerDrag < 0 && !ImGui::IsPopupOpen("##markermenu")) {
        const int i = markerAt(io.MousePos);
        if (i >= 0) ImGui::SetTooltip("%s  (frame %ld)", (*markers)[i].name.c_str(), std::lround((*markers)[i].time * fps));
    }
    // Key rows: every joint (summary), the selected joint, its channels.
    float y = top + rulerH + rowH * 0.5f;
    const float keyR = 4.0f;
    const char* labels[5] = {};
    int labelCount = 0;
    if (!s.keyTimes.all.empty()) {
        drawKeys(dl, v, s.keyTimes.all.data(), s.keyTimes.all.data() + s.keyTimes.all.size(), y, keyR,
                 IM_COL32(200, 200, 200, 220));
    }
    labels[labelCount++] = ("all joints");
    if (jointKeys) {
        y += rowH;
        const std::vector<float>& k = s.keyTimes.perNode[joint];
        drawKeys(dl, v, k.data(), k.data() + k.size(), y, keyR, IM_COL32(255, 210, 60, 255));
        labels[labelCount++] = (s.model->skeleton.names[joint].c_str());
        if (tl.dopeSheet && clip) {
            const Track& tr = clip->tracks[clip->trackOfNode[joint]];
            const Channel* chans[3] = {&tr.translation, &tr.rotation, &tr.scale};
            const ImU32 cols[3] = {IM_COL32(255, 110, 110, 255), IM_COL32(110, 255, 140, 255), IM_COL32(120, 160, 255, 255)};
            const char* names[3] = {"  location", "  rotation", "  scale"};
            for (int c = 0; c < 3; ++c) {
                y += rowH;
                const float* first = clip->times.data() + chans[c]->times;
                drawKeys(dl, v, first, first + chans[c]->count, y, keyR * 0.8f, cols[c]);
                labels[labelCount++] = (names[c]);
            }
        }
    }
    // The current frame.
    const float cx = v.toX(tl.time);
    dl->AddLine(ImVec2(cx, top), ImVec2(cx, bottom), IM_COL32(80, 160, 255, 255), 2.0f);
    char cur[24];
    std::snprintf(cur, sizeof cur, "%d", tl.frame);
    const ImVec2 ts = ImGui::CalcTextSize(cur);
    dl->AddRectFilled(ImVec2(cx - ts.x * 0.5f - 3, top), ImVec2(cx + ts.x * 0.5f + 3, top + ts.y + 2), IM_COL32(50, 110, 220, 255), 3.0f);
    dl->AddText(ImVec2(cx - ts.x * 0.5f, top + 1), IM_COL32(255, 255, 255, 255), cur);
    dl->PopClipRect();
    // Row labels on the left, elided in the middle to the name column (the full name on hover).
    float ly = top + rulerH;
    const ImVec2 mousePos = ImGui::GetIO().MousePos;
    for (int i = 0; i < labelCount; ++i) {
        const std::string label = elideMiddle(labels[i], labelW - 6.0f);
        dl->AddText(ImVec2(origin.x, ly), IM_COL32(190, 190, 195, 255), label.c_str());
        if (label != labels[i] && mousePos.x >= origin.x && mousePos.x < origin.x + labelW && mousePos.y >= ly &&
            mousePos.y < ly + rowH && ImGui::IsWindowHovered()) {
            ImGui::SetTooltip("%s", labels[i]);
        }
        ly += rowH;
    }
    // The name column's edge: drag it to widen the names (kept in the settings).
    ImGui::SetCursorScreenPos(ImVec2(origin.x + labelW - 4.0f, top));
    ImGui::InvisibleButton("##namesplit", ImVec2(6.0f, std::max(1.0f, bottom - top)));
    probeItem(probe, "timeline:names");
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive() && ImGui::GetIO().MouseDelta.x != 0.0f) tl.nameWidth += ImGui::GetIO().MouseDelta.x / k;
    dl->AddLine(ImVec2(origin.x + labelW - 2.0f, top + rulerH), ImVec2(origin.x + labelW - 2.0f, bottom),
                ImGui::IsItemHovered() || ImGui::IsItemActive() ? IM_COL32(120, 160, 230, 255) : IM_COL32(70, 70, 75, 255));
    ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom + 4));
    ImGui::Dummy(ImVec2(0.0f, 0.0f));
    tl.rowsDrawn.clear();
    tl.labelsDrawn.clear();
    tl.bandRows = 0;
    tl.rowCount = 0;
    if (tl.curves && s.model) {
        drawCurves(s, v, clip, markers, k, probe);
    } else if (tl.dopeSheet && s.model) {
        drawDopeSheet(s, v, clip, rowH, keyR, probe);
    }
    if (s.blend.active || s.machine.active) {
        // What the controller plays: each motion and layer with its phase and weight.
        for (const BlendState::Row& r : s.blend.rows) {
            char overlay[200];
            std::snprintf(overlay, sizeof overlay, "%s  weight %.2f", r.label.c_str(), r.weight);
            ImGui::ProgressBar(r.phase, ImVec2(-1, 0), overlay);
        }
    }
}

void drawTimelinePanel(ViewerState& s, bool* open, UiProbe* probe) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Timeline);
    if (ImGui::Begin("Timeline", open, panelFlags)) {
        drawTimelineContent(s, probe);
    }
    ImGui::End();
}

}  // namespace rig
