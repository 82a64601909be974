#include "ui/widgets.h"

namespace rig {

void UiProbe::recordLastItem(const std::string& name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rects[name] = ImVec4(a.x, a.y, b.x, b.y);
}

void probeItem(UiProbe* probe, const std::string& name) {
    if (probe) probe->recordLastItem(name);
}

const Clip* currentClip(const ViewerState& s) {
    if (!s.model || s.clip < 0 || static_cast<size_t>(s.clip) >= s.model->clips.size()) return nullptr;
    return &s.model->clips[s.clip];
}

}  // namespace rig
