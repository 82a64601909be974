// File > Playblast...: the dialog. It edits PlayblastState's fields and posts start / cancel;
// app/viewer_playblast does the rendering and fills in the progress.
#include "ui/playblast_dialog.h"

#include <algorithm>
#include <cstdio>

#include "ui/widgets.h"

namespace rig {

void drawPlayblastDialog(ViewerState& s, UiProbe* probe) {
    PlayblastState& p = s.playblast;
    if (!p.open) return;
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.35f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Playblast", &p.open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
        const Model* m = s.model.get();
        const bool hasClips = m && !m->clips.empty();
        if (!hasClips) {
            ImGui::TextUnformatted("The model on screen has no clip to play.");
        } else {
            p.clip = std::clamp(p.clip, 0, static_cast<int>(m->clips.size()) - 1);
            const Clip& clip = m->clips[static_cast<size_t>(p.clip)];
            const float fieldWidth = 14.0f * ImGui::GetFontSize();
            ImGui::BeginDisabled(p.running);
            ImGui::SetNextItemWidth(fieldWidth);
            if (ImGui::BeginCombo("Clip", clip.name.c_str())) {
                for (size_t i = 0; i < m->clips.size(); ++i) {
                    char label[300];
                    std::snprintf(label, sizeof label, "%s##%zu", m->clips[i].name.c_str(), i);
                    if (ImGui::Selectable(label, static_cast<int>(i) == p.clip) && static_cast<int>(i) != p.clip) {
                        p.clip = static_cast<int>(i);
                        p.from = 0.0f;
                        p.to = m->clips[i].duration;
                    }
                }
                ImGui::EndCombo();
            }
            probeItem(probe, "playblast:clip");
            ImGui::SetNextItemWidth(fieldWidth);
            ImGui::InputFloat("From (s)", &p.from, 0.1f, 1.0f, "%.3f");
            probeItem(probe, "playblast:from");
            ImGui::SetNextItemWidth(fieldWidth);
            ImGui::InputFloat("To (s)", &p.to, 0.1f, 1.0f, "%.3f");
            probeItem(probe, "playblast:to");
            ImGui::SameLine();
            ImGui::TextDisabled("clip: 0 - %.3f s", clip.duration);
            ImGui::SetNextItemWidth(fieldWidth);
            ImGui::InputFloat("Frames per second", &p.fps, 1.0f, 10.0f, "%.2f");
            probeItem(probe, "playblast:fps");
            int size[2] = {p.width, p.height};
            ImGui::SetNextItemWidth(fieldWidth);
            if (ImGui::InputInt2("Size (pixels)", size)) {
                p.width = std::clamp(size[0], 16, 8192);
                p.height = std::clamp(size[1], 16, 8192);
            }
            probeItem(probe, "playblast:size");
            char buf[1024];
            std::snprintf(buf, sizeof buf, "%s", p.output.c_str());
            ImGui::SetNextItemWidth(2.0f * fieldWidth);
            if (ImGui::InputText("Output", buf, sizeof buf)) p.output = buf;
            probeItem(probe, "playblast:output");
            ImGui::TextDisabled(".mp4 (H.264), .gif, or PNG frames: name_%%04d.png");
            ImGui::Checkbox("Frame the whole range", &p.frameRange);
            probeItem(probe, "playblast:frame");
            if (ImGui::IsItemHovered()) {
                ImGui::SetTooltip("On: the camera at the view's angles, framed so the model stays in view over the whole "
                                  "range (as rigview render frames it). Off: the view's camera as it is now.");
            }
            ImGui::TextDisabled("With the view's look (lighting, grid, bones...).");
            if (ImGui::Button("Render")) p.start = true;
            probeItem(probe, "playblast:render");
            ImGui::EndDisabled();
        }
        if (p.running) {
            const float fraction = p.total ? static_cast<float>(p.done) / static_cast<float>(p.total) : 0.0f;
            char text[64];
            std::snprintf(text, sizeof text, "%zu / %zu frames", p.done, p.total);
            ImGui::ProgressBar(fraction, ImVec2(14.0f * ImGui::GetFontSize(), 0.0f), text);
            probeItem(probe, "playblast:progress");
            ImGui::SameLine();
            if (ImGui::Button("Cancel")) p.cancel = true;
            probeItem(probe, "playblast:cancel");
        }
        if (!p.result.empty()) {
            if (p.failed) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 28.0f * ImGui::GetFontSize());
            ImGui::TextUnformatted(p.result.c_str());
            ImGui::PopTextWrapPos();
            if (p.failed) ImGui::PopStyleColor();
        }
    }
    ImGui::End();
}

}  // namespace rig
