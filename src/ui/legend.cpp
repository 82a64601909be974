#include "ui/legend.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "check/vertex_views.h"

namespace rig {

glm::vec4 heatColor(float x) {
    x = std::clamp(x, 0.0f, 1.0f);
    const glm::vec3 stops[4] = {{0.15f, 0.3f, 1.0f}, {0.2f, 0.9f, 0.3f}, {1.0f, 0.9f, 0.2f}, {1.0f, 0.1f, 0.1f}};
    const float f = x * 3.0f;
    const int i = std::min(static_cast<int>(f), 2);
    return glm::vec4(glm::mix(stops[i], stops[i + 1], f - static_cast<float>(i)), 1.0f);
}

glm::vec4 influenceCountColor(uint8_t n) {
    static const glm::vec4 cols[6] = {{1, 0, 1, 1},       {0.2f, 0.4f, 1, 1},  {0.2f, 0.9f, 0.3f, 1},
                                      {1, 0.9f, 0.2f, 1}, {1, 0.55f, 0.1f, 1}, {1, 0.1f, 0.1f, 1}};
    return cols[std::min<int>(n, 5)];
}

glm::vec4 weightSumColor(float error) { return heatColor(0.4f + 0.6f * std::min(error, 1.0f)); }

glm::vec4 onionTint(int k, int count) {
    const int n = std::max(count, 1);
    const float fade = 0.28f * (1.0f - static_cast<float>(std::min(std::abs(k), n) - 1) / static_cast<float>(n));
    return k < 0 ? glm::vec4(0.25f, 0.9f, 0.35f, fade) : glm::vec4(0.95f, 0.3f, 0.85f, fade);
}

std::vector<glm::vec4> colorViewColors(ColorView view, const Mesh& mesh, int joint, const std::vector<float>& truncation,
                                       float truncationMax, std::vector<uint32_t>& flagged) {
    std::vector<glm::vec4> colors(mesh.vertexCount(), kNeutralVertexColor);
    switch (view) {
        case ColorView::JointWeight: {
            if (joint < 0) break;
            const std::vector<float> w = jointWeights(mesh, joint);
            for (size_t v = 0; v < w.size() && v < colors.size(); ++v) colors[v] = w[v] > 0.0f ? heatColor(w[v]) : kNoWeightColor;
            break;
        }
        case ColorView::InfluenceCount: {
            const std::vector<uint8_t> n = influenceCounts(mesh);
            for (size_t v = 0; v < n.size() && v < colors.size(); ++v) {
                colors[v] = influenceCountColor(n[v]);
                if (mesh.skinned && (n[v] == 0 || n[v] > 4)) flagged.push_back(static_cast<uint32_t>(v));
            }
            break;
        }
        case ColorView::WeightSum: {
            const std::vector<float> e = weightSumError(mesh);
            for (size_t v = 0; v < e.size() && v < colors.size(); ++v) {
                if (e[v] > kWeightSumTolerance) {
                    colors[v] = weightSumColor(e[v]);
                    flagged.push_back(static_cast<uint32_t>(v));
                }
            }
            break;
        }
        case ColorView::Unweighted: {
            const std::vector<uint8_t> n = influenceCounts(mesh);
            for (size_t v = 0; v < n.size() && v < colors.size(); ++v) {
                if (mesh.skinned && n[v] == 0) {
                    colors[v] = kUnweightedColor;
                    flagged.push_back(static_cast<uint32_t>(v));
                }
            }
            break;
        }
        case ColorView::TruncationError:
            for (size_t v = 0; v < truncation.size() && v < colors.size(); ++v) {
                if (truncation[v] > 0.0f) colors[v] = heatColor(truncationMax > 0.0f ? truncation[v] / truncationMax : 0.0f);
            }
            break;
        case ColorView::None:
        case ColorView::Deviation:
            break;
    }
    return colors;
}

namespace {

std::string num(float v, const char* fmt = "%.3g") {
    char buf[32];
    std::snprintf(buf, sizeof buf, fmt, static_cast<double>(v));
    return buf;
}

}  // namespace

Legend legendFor(ColorView view, const LegendInputs& in) {
    Legend l;
    switch (view) {
        case ColorView::None:
            break;
        case ColorView::JointWeight:
            l.title = in.jointName.empty() ? "joint weight (select a joint)" : "weight of " + in.jointName;
            l.gradient = true;
            for (int k = 0; k <= 4; ++k) l.entries.push_back({heatColor(k / 4.0f), num(k / 4.0f, "%.2f")});
            if (in.jointName.empty()) {
                l.entries = {{kNeutralVertexColor, "no joint selected"}};
                l.gradient = false;
                l.note = "click a joint or pick one in the Hierarchy";
            } else {
                l.swatches = {{kNoWeightColor, "not moved by it"}};
            }
            break;
        case ColorView::InfluenceCount: {
            l.title = "influences per vertex";
            const char* names[6] = {"0", "1", "2", "3", "4", ">4"};
            for (uint8_t n = 0; n < 6; ++n) l.entries.push_back({influenceCountColor(n), names[n]});
            l.note = std::to_string(in.flagged) + " vertices with 0 or more than 4 (points on top)";
            break;
        }
        case ColorView::WeightSum:
            l.title = "|weight sum - 1|";
            l.gradient = true;
            // Painted from the tolerance (heat 0.4) up to 1 and beyond (heat 1).
            for (int k = 0; k <= 3; ++k) {
                const float e = k == 0 ? kWeightSumTolerance : k / 3.0f;
                l.entries.push_back({weightSumColor(e), k == 3 ? ">=1" : num(e)});
            }
            l.swatches = {{kNeutralVertexColor, "within " + num(kWeightSumTolerance)}};
            l.note = std::to_string(in.flagged) + " off (points on top)";
            break;
        case ColorView::Unweighted:
            l.title = "unweighted vertices";
            l.entries = {{kUnweightedColor, "no weight"}, {kNeutralVertexColor, "weighted"}};
            l.note = std::to_string(in.flagged) + " unweighted (points on top, seen through the mesh)";
            break;
        case ColorView::TruncationError:
            l.title = "4-influence truncation error (model units)";
            if (!(in.truncationMax > 0.0f)) {
                l.entries = {{kNeutralVertexColor, "none"}};
                l.note = "no truncation: max 0.000";
            } else {
                l.gradient = true;
                for (int k = 0; k <= 4; ++k) l.entries.push_back({heatColor(k / 4.0f), num(in.truncationMax * k / 4.0f)});
                l.swatches = {{kNeutralVertexColor, "exact (4 or fewer)"}};
                l.note = "max " + num(in.truncationMax, "%.4g");
            }
            break;
        case ColorView::Deviation:
            l.title = "deviation from the compared model (mm)";
            if (!in.comparing) {
                l.entries = {{kNeutralVertexColor, "not comparing"}};
                l.note = "File > Compare with... opens a model to compare with";
            } else if (!(in.deviationMaxMm > 0.0)) {
                l.entries = {{heatColor(0.0f), "0"}, {kUnmatchedColor, "unmatched"}};
                l.note = "no deviation: max 0.000 mm";
            } else {
                l.gradient = true;
                const float mx = static_cast<float>(in.deviationMaxMm);
                for (int k = 0; k <= 4; ++k) l.entries.push_back({heatColor(k / 4.0f), num(mx * k / 4.0f)});
                l.swatches = {{kUnmatchedColor, "unmatched"}};
                l.note = "max " + num(mx, "%.4g") + " mm";
            }
            if (in.comparing) {
                l.note += "; " + std::to_string(in.unmatched) + " unmatched";
            }
            break;
    }
    return l;
}

void drawLegend(const Legend& l) {
    if (l.title.empty()) return;
    ImGui::TextUnformatted(l.title.c_str());
    auto col = [](const glm::vec4& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a)); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float h = ImGui::GetTextLineHeight();
    if (l.gradient && l.entries.size() >= 2) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float lastW = ImGui::CalcTextSize(l.entries.back().label.c_str()).x;
        const float w = std::max(40.0f, ImGui::GetContentRegionAvail().x - 0.5f * lastW - 4.0f);
        const size_t n = l.entries.size();
        for (size_t i = 0; i + 1 < n; ++i) {
            const float x0 = p.x + w * static_cast<float>(i) / static_cast<float>(n - 1);
            const float x1 = p.x + w * static_cast<float>(i + 1) / static_cast<float>(n - 1);
            // Subdivide so the bar follows the colour ramp, not a straight RGB mix.
            for (int s = 0; s < 8; ++s) {
                const float a = x0 + (x1 - x0) * s / 8.0f, b = x0 + (x1 - x0) * (s + 1) / 8.0f;
                const glm::vec4 ca = glm::mix(l.entries[i].color, l.entries[i + 1].color, s / 8.0f);
                const glm::vec4 cb = glm::mix(l.entries[i].color, l.entries[i + 1].color, (s + 1) / 8.0f);
                dl->AddRectFilledMultiColor(ImVec2(a, p.y), ImVec2(b, p.y + h), col(ca), col(cb), col(cb), col(ca));
            }
        }
        for (size_t i = 0; i < n; ++i) {
            const float x = p.x + w * static_cast<float>(i) / static_cast<float>(n - 1);
            const float tw = ImGui::CalcTextSize(l.entries[i].label.c_str()).x;
            const float tx = i == 0 ? x : std::min(x - 0.5f * tw, p.x + w + 0.5f * lastW - tw);
            dl->AddLine(ImVec2(x, p.y + h), ImVec2(x, p.y + h + 3), IM_COL32(220, 220, 220, 255));
            dl->AddText(ImVec2(tx, p.y + h + 3), IM_COL32(220, 220, 220, 255), l.entries[i].label.c_str());
        }
        ImGui::Dummy(ImVec2(w, 2.0f * h + 4.0f));
    }
    const std::vector<LegendEntry>& swatches = l.gradient && l.entries.size() >= 2 ? l.swatches : l.entries;
    for (size_t i = 0; i < swatches.size(); ++i) {
        if (i) ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(p, ImVec2(p.x + h, p.y + h), col(swatches[i].color));
        ImGui::Dummy(ImVec2(h, h));
        ImGui::SameLine(0.0f, 3.0f);
        ImGui::TextUnformatted(swatches[i].label.c_str());
    }
    if (!l.note.empty()) ImGui::TextWrapped("%s", l.note.c_str());
}

}  // namespace rig
