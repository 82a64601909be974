// The View panel's Environment section: the environment map lighting the model and the options
// of physically based shading (render/view_options.h), and the debug channel.
#include <algorithm>
#include <array>
#include <filesystem>

#include "ui/panels.h"
#include "ui/widgets.h"

namespace rig {

namespace {

// The section's view options, in its order: the table gives each its type, range and choices;
// the section labels the ones the table leaves to it (options the `render` command has
// as flags only) and probes each as "env:<key>" unless the table names a probe.
struct SectionOption {
    std::string_view key;
    const char* label;
    bool radio;
};
constexpr std::array<SectionOption, 8> kSection{{{"environmentRotation", "Rotation", false},
                                                 {"exposure", "Exposure", false},
                                                 {"toneMapping", "Tone mapping", false},
                                                 {"backgroundMode", "Background", true},
                                                 {"backgroundBlur", "Blur", false},
                                                 {"keyLight", "Key light", false},
                                                 {"groundShadow", "Ground shadow", false},
                                                 {"debugChannel", "Debug channel", false}}};

}  // namespace

bool inEnvironmentSection(std::string_view key) {
    return std::any_of(kSection.begin(), kSection.end(), [&](const SectionOption& o) { return o.key == key; });
}

void drawEnvironmentSection(ViewerState& s, UiProbe* probe) {
    if (!ImGui::CollapsingHeader("Environment", ImGuiTreeNodeFlags_DefaultOpen)) return;
    probeItem(probe, "env:header");
    ViewOptions& v = s.view;
    // The file: its name (the whole path in the tooltip), Choose... and Studio.
    const std::string name =
        v.environment.empty() ? std::string("studio (bundled)") : std::filesystem::path(v.environment).filename().string();
    ImGui::TextWrapped("Map: %s", name.c_str());
    probeItem(probe, "env:file");
    if (probe) probe->texts["env:file"] = name;
    if (!v.environment.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", v.environment.c_str());
    if (ImGui::Button("Choose .hdr...")) {
        s.ui.fileBrowser = true;
        s.ui.browser.forEnvironment = true;
        s.ui.browser.forCompare = false;
    }
    probeItem(probe, "env:choose");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("An equirectangular Radiance .hdr (or drop one on the window)");
    sameLineIfFits(buttonWidth("Studio"));
    ImGui::BeginDisabled(v.environment.empty());
    if (ImGui::Button("Studio")) s.requests.environment = std::string();
    ImGui::EndDisabled();
    probeItem(probe, "env:studio");
    // Sliders and combos leave room for the longest label of the section.
    float labelW = 0.0f;
    for (const SectionOption& so : kSection) {
        const ViewOptionSpec* o = findViewOption(so.key);
        if (o && o->type != ViewOptionType::Flag && !so.radio) labelW = std::max(labelW, ImGui::CalcTextSize(so.label).x);
    }
    labelW += ImGui::GetStyle().ItemInnerSpacing.x;
    for (const SectionOption& so : kSection) {
        const ViewOptionSpec* o = findViewOption(so.key);
        if (!o) continue;
        const std::string probeName = "env:" + std::string(so.key);
        ViewOptionSpec spec = *o;
        spec.label = o->label ? o->label : so.label;
        spec.probe = o->probe ? o->probe : probeName.c_str();
        spec.radio = so.radio;
        if (so.key == "debugChannel") ImGui::Separator();
        // The blur is the environment background's: greyed out over a solid colour.
        ImGui::BeginDisabled(so.key == "backgroundBlur" && v.backgroundMode != BackgroundMode::Environment);
        drawViewOption(spec, v, -labelW, probe);
        ImGui::EndDisabled();
        if (spec.probe != probeName.c_str()) probeItem(probe, probeName);
    }
}

}  // namespace rig
