// The Stats panel: frame time, palette update time, the model's draw time (CPU and GPU), the model's sizes, the GL renderer.
#include "ui/panels.h"

#include "ui/compression_panel_section.h"
#include "ui/crowd_panel.h"

namespace rig {

void drawStatsPanel(ViewerState& s, bool* open) {
    if (!*open) return;
    const int panelFlags = placePanel(s.ui.layout, PanelId::Stats);
    if (ImGui::Begin("Stats", open, panelFlags)) {
        ImGui::TextWrapped("%.1f fps, %.2f ms per frame", s.stats.fps, s.stats.frameMs);
        ImGui::TextWrapped("palette update %.2f us", s.stats.paletteUs);
        // The model's draw: the renderer's calls on the CPU, and what the GPU took (timer query).
        if (s.stats.drawGpuMs >= 0.0f) {
            ImGui::TextWrapped("draw %.2f ms CPU, %.2f ms GPU", s.stats.drawCpuMs, s.stats.drawGpuMs);
        } else {
            ImGui::TextWrapped("draw %.2f ms CPU", s.stats.drawCpuMs);
        }
        if (s.model) {
            size_t verts = 0, tris = 0;
            for (const Mesh& m : s.model->meshes) {
                verts += m.vertexCount();
                tris += m.triangleCount();
            }
            ImGui::TextWrapped("%zu meshes, %zu vertices, %zu triangles", s.model->meshes.size(), verts, tris);
            ImGui::TextWrapped("%zu nodes, %zu joints, %zu clips", s.model->skeleton.size(), s.joints.size(),
                               s.model->clips.size());
        }
        ImGui::TextWrapped("%s", s.stats.glRenderer.c_str());
        // What the Anti-aliasing option gave (auto: off on a software renderer, 4x MSAA on a GPU).
        const bool autoAa = s.view.antiAliasing == AntiAliasing::Auto;
        if (s.stats.sceneSamples > 1) {
            ImGui::TextWrapped("anti-aliasing %dx MSAA%s", s.stats.sceneSamples, autoAa ? " (auto)" : "");
        } else {
            ImGui::TextWrapped("anti-aliasing off%s", autoAa && s.stats.softwareRenderer ? " (auto: software renderer)" : "");
        }
        drawCrowdStats(s);
        drawCompressionStats(s);
    }
    ImGui::End();
}

}  // namespace rig
