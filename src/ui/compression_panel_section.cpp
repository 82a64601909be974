#include "ui/compression_panel_section.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "ui/widgets.h"

namespace rig {

void drawCompressionSection(ViewerState& s, UiProbe* probe) {
    CompressionViewState& c = s.compression;
    if (!s.model || s.model->clips.empty()) return;
    ImGui::Checkbox("Compressed", &c.enabled);
    if (probe) probe->recordLastItem("compressed");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play the clips compressed (as rigview compress): the error shows on the character");
    // The tolerance field (its - and + buttons included) beside it where it fits, else below.
    const float field = std::round(5.0f * ImGui::GetFontSize()) + 2.0f * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
    sameLineIfFits(field + ImGui::GetStyle().ItemInnerSpacing.x + textWidth("mm"));
    // (On a line of its own in a narrow panel: no wider than the line.)
    const float room = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemInnerSpacing.x - textWidth("mm");
    ImGui::SetNextItemWidth(std::max(std::min(field, room), 2.0f * ImGui::GetFrameHeight() + ImGui::GetFontSize() * 2.0f));
    float mm = c.toleranceMm;
    if (ImGui::InputFloat("mm##compressTolerance", &mm, 0.05f, 0.5f, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) {
        c.toleranceMm = mm < 0.0f ? 0.0f : (mm > 1000.0f ? 1000.0f : mm);
    }
    if (probe) probe->recordLastItem("compressed:tolerance");
    if (c.building) textDisabledWrapped("compressing the clips...");
    if (!c.error.empty()) ImGui::TextWrapped("compression: %s", c.error.c_str());
}

void drawCompressionStats(const ViewerState& s) {
    const CompressionViewState& c = s.compression;
    if (!c.active) return;
    const double ratio = c.compressedBytes ? static_cast<double>(c.plainBytes) / static_cast<double>(c.compressedBytes) : 0.0;
    ImGui::TextWrapped("clips compressed at %.3f mm: %zu bytes (plain %zu, %.1fx smaller), max error %.4f mm", c.activeToleranceMm,
                       c.compressedBytes, c.plainBytes, ratio, c.maxErrorMm);
}

}  // namespace rig
