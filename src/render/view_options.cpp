// The view option table (render/view_options.h): each option declared once.
#include "render/view_options.h"

#include <algorithm>
#include <array>
#include <type_traits>

namespace rig {

namespace {

constexpr std::array kSkinningChoices{ViewChoice{"gpu", "GPU"}, ViewChoice{"cpu", "CPU"}};
constexpr std::array kMethodChoices{ViewChoice{"linear", "linear blend"}, ViewChoice{"stitch", "stitching (1 bone)"},
                                    ViewChoice{"dualquat", "dual quaternion"}};
constexpr std::array kInfluenceChoices{ViewChoice{"4", "4"}, ViewChoice{"8", "8"}};
constexpr int influencesChoice(const ViewOptions& v) { return v.influences > kMaxInfluences ? 1 : 0; }
constexpr void setInfluencesChoice(ViewOptions& v, int i) { v.influences = i == 1 ? kMostInfluences : kMaxInfluences; }
constexpr std::array kToneMappingChoices{ViewChoice{"none", "none (clamp)"}, ViewChoice{"neutral", "Khronos PBR Neutral"},
                                         ViewChoice{"aces", "ACES filmic"}};
constexpr std::array kBackgroundChoices{ViewChoice{"solid", "solid colour"}, ViewChoice{"environment", "environment"}};
constexpr std::array kDebugChoices{ViewChoice{"none", "none (shaded)"}, ViewChoice{"base-color", "base colour"},
                                   ViewChoice{"normal", "normal"},      ViewChoice{"metallic", "metallic"},
                                   ViewChoice{"roughness", "roughness"}, ViewChoice{"occlusion", "occlusion"},
                                   ViewChoice{"emissive", "emissive"},  ViewChoice{"alpha", "alpha"},
                                   ViewChoice{"uv0", "UV set 0"},       ViewChoice{"uv1", "UV set 1"}};
constexpr std::array kAntiAliasingChoices{ViewChoice{"auto", "auto"}, ViewChoice{"off", "off"},
                                          ViewChoice{"msaa4", "4x MSAA"}};
constexpr std::array kJointNameChoices{ViewChoice{"selection", "selection"}, ViewChoice{"all", "all"},
                                       ViewChoice{"none", "none"}};

// A choice stored as the enum `E` in member `M`, seen as its index.
template <auto M>
constexpr int choiceOf(const ViewOptions& v) {
    return static_cast<int>(v.*M);
}
template <auto M, size_t N>
constexpr void setChoice(ViewOptions& v, int i) {
    using E = std::remove_cvref_t<decltype(v.*M)>;
    v.*M = static_cast<E>(std::clamp(i, 0, static_cast<int>(N) - 1));
}

// In the View panel's order.
constexpr ViewOptionSpec kViewOptions[] = {
    {.key = "skinning", .type = ViewOptionType::Choice, .help = "gpu (vertex shader) or cpu (reference path)",
     .choiceOf = choiceOf<&ViewOptions::skinning>, .setChoice = setChoice<&ViewOptions::skinning, kSkinningChoices.size()>,
     .choices = kSkinningChoices, .savedByName = true, .cliFlag = "--skinning",
     .panel = ViewPanelSlot::View, .label = "Skinning", .probe = "skin", .radio = true},
    {.key = "influences", .type = ViewOptionType::Choice,
     .help = "Influences blended per vertex: 4 (the strongest; the default) or 8 (as Blender and the file have up to 8)",
     .choiceOf = influencesChoice, .setChoice = setInfluencesChoice, .choices = kInfluenceChoices, .savedByName = true,
     .panel = ViewPanelSlot::View, .label = "Influences", .probe = "influences", .radio = true},
    {.key = "bones", .type = ViewOptionType::Flag, .help = "Draw the skeleton on top", .flag = &ViewOptions::bones,
     .cliFlag = "--bones", .panel = ViewPanelSlot::View, .label = "Bones (B)", .probe = "bones", .shortcut = "B"},
    {.key = "jointNames", .type = ViewOptionType::Choice, .help = "Joint names: the selection and its neighbours, all, or none",
     .choiceOf = choiceOf<&ViewOptions::jointNames>, .setChoice = setChoice<&ViewOptions::jointNames, kJointNameChoices.size()>,
     .choices = kJointNameChoices, .panel = ViewPanelSlot::View, .label = "Names (N)", .probe = "names", .shortcut = "N"},
    {.key = "grid", .type = ViewOptionType::Flag, .help = "Draw the ground grid", .flag = &ViewOptions::grid,
     .cliFlag = "--grid", .panel = ViewPanelSlot::View, .label = "Grid (G)", .probe = "grid", .shortcut = "G"},
    {.key = "wireframe", .type = ViewOptionType::Flag, .help = "Draw triangles as lines", .flag = &ViewOptions::wireframe,
     .cliFlag = "--wireframe", .panel = ViewPanelSlot::View, .label = "Wireframe (W)", .probe = "wireframe", .shortcut = "W"},
    {.key = "axes", .type = ViewOptionType::Flag, .help = "Draw the world axes", .flag = &ViewOptions::axes,
     .panel = ViewPanelSlot::View, .label = "Axes", .probe = "axes"},
    {.key = "bounds", .type = ViewOptionType::Flag, .help = "Draw the clip's bounding box", .flag = &ViewOptions::bounds,
     .panel = ViewPanelSlot::View, .label = "Bounding box", .probe = "bounds"},
    {.key = "lighting", .type = ViewOptionType::Flag, .help = "Shade with the lights (off: the base colour only)",
     .flag = &ViewOptions::lighting, .panel = ViewPanelSlot::View, .label = "Lighting", .probe = "lighting",
     .separatorBefore = true},
    {.key = "keyLight", .type = ViewOptionType::Flag, .help = "A directional key light on top of the environment",
     .flag = &ViewOptions::keyLight, .cliFlag = "--key-light", .panel = ViewPanelSlot::View, .label = "Key light",
     .probe = "keyLight", .sameLine = true},
    {.key = "textures", .type = ViewOptionType::Flag, .help = "Draw the materials' textures", .flag = &ViewOptions::textures,
     .panel = ViewPanelSlot::View, .label = "Textures", .probe = "textures"},
    {.key = "groundShadow", .type = ViewOptionType::Flag, .help = "A soft contact shadow under the model on the ground",
     .flag = &ViewOptions::groundShadow, .cliFlag = "--ground-shadow", .panel = ViewPanelSlot::View,
     .label = "Ground shadow", .probe = "groundShadow", .sameLine = true},
    {.key = "ambient", .type = ViewOptionType::Number, .help = "Sky radiance where no environment is loaded",
     .number = &ViewOptions::ambient, .min = 0.0f, .max = 1.0f, .panel = ViewPanelSlot::View, .label = "Ambient",
     .probe = "ambient"},
    {.key = "toneMapping", .type = ViewOptionType::Choice, .help = "Tone mapping: none, neutral (Khronos PBR Neutral) or aces",
     .choiceOf = choiceOf<&ViewOptions::toneMapping>,
     .setChoice = setChoice<&ViewOptions::toneMapping, kToneMappingChoices.size()>, .choices = kToneMappingChoices,
     .savedByName = true, .cliFlag = "--tonemap"},
    {.key = "exposure", .type = ViewOptionType::Number, .help = "Exposure: the colour's factor before tone mapping",
     .number = &ViewOptions::exposure, .min = 0.0f, .max = 16.0f, .cliFlag = "--exposure"},
    {.key = "environmentRotation", .type = ViewOptionType::Number, .help = "Environment rotation in degrees about the up axis",
     .number = &ViewOptions::environmentRotation, .min = -360.0f, .max = 360.0f, .format = "%.1f",
     .cliFlag = "--env-rotation"},
    {.key = "backgroundMode", .type = ViewOptionType::Choice, .help = "Background: the solid colour or the environment",
     .choiceOf = choiceOf<&ViewOptions::backgroundMode>,
     .setChoice = setChoice<&ViewOptions::backgroundMode, kBackgroundChoices.size()>, .choices = kBackgroundChoices,
     .savedByName = true},
    {.key = "backgroundBlur", .type = ViewOptionType::Number, .help = "Environment background blur (the roughness it is shown at)",
     .number = &ViewOptions::backgroundBlur, .min = 0.0f, .max = 1.0f},
    {.key = "debugChannel", .type = ViewOptionType::Choice,
     .help = "Show one material input instead of the shading: base-color, normal, metallic, roughness, occlusion, emissive, alpha, uv0, uv1",
     .choiceOf = choiceOf<&ViewOptions::debugChannel>,
     .setChoice = setChoice<&ViewOptions::debugChannel, kDebugChoices.size()>, .choices = kDebugChoices,
     .savedByName = true, .cliFlag = "--debug-channel"},
    {.key = "background", .type = ViewOptionType::Color, .help = "Background colour", .color = &ViewOptions::background,
     .panel = ViewPanelSlot::View, .label = "Background", .probe = "background"},
    {.key = "antiAliasing", .type = ViewOptionType::Choice,
     .help = "Anti-aliasing of the scene: auto (4x MSAA on a GPU, off on a software renderer), off or msaa4",
     .choiceOf = choiceOf<&ViewOptions::antiAliasing>,
     .setChoice = setChoice<&ViewOptions::antiAliasing, kAntiAliasingChoices.size()>, .choices = kAntiAliasingChoices,
     .savedByName = true, .panel = ViewPanelSlot::View, .label = "Anti-aliasing", .probe = "antiAliasing"},
    {.key = "method", .type = ViewOptionType::Choice,
     .help = "Skinning method: linear blend, stitching (each vertex follows its strongest bone) or dual quaternion",
     .choiceOf = choiceOf<&ViewOptions::method>, .setChoice = setChoice<&ViewOptions::method, kMethodChoices.size()>,
     .choices = kMethodChoices, .panel = ViewPanelSlot::Checks, .label = "Skinning", .probe = "method"},
};

}  // namespace

std::span<const ViewOptionSpec> viewOptionTable() { return kViewOptions; }

const ViewOptionSpec* findViewOption(std::string_view key) {
    for (const ViewOptionSpec& o : kViewOptions) {
        if (key == o.key) return &o;
    }
    return nullptr;
}

int choiceIndex(const ViewOptionSpec& o, std::string_view name) {
    for (size_t i = 0; i < o.choices.size(); ++i) {
        if (name == o.choices[i].name) return static_cast<int>(i);
    }
    return -1;
}

void stepViewOption(const ViewOptionSpec& o, ViewOptions& v) {
    if (o.type == ViewOptionType::Flag) {
        v.*o.flag = !(v.*o.flag);
    } else if (o.type == ViewOptionType::Choice) {
        o.setChoice(v, (o.choiceOf(v) + 1) % static_cast<int>(o.choices.size()));
    }
}

ViewOptions renderViewDefaults() {
    ViewOptions v;
    for (const ViewOptionSpec& o : kViewOptions) {
        if (o.type == ViewOptionType::Flag && o.cliFlag) v.*o.flag = false;
    }
    return v;
}

}  // namespace rig
