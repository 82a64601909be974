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
    {.key = "headlight", .type = ViewOptionType::Flag, .help = "A light that follows the camera",
     .flag = &ViewOptions::headlight, .panel = ViewPanelSlot::View, .label = "Headlight", .probe = "headlight",
     .sameLine = true},
    {.key = "textures", .type = ViewOptionType::Flag, .help = "Draw the materials' textures", .flag = &ViewOptions::textures,
     .panel = ViewPanelSlot::View, .label = "Textures", .probe = "textures"},
    {.key = "ambient", .type = ViewOptionType::Number, .help = "Ambient light", .number = &ViewOptions::ambient,
     .min = 0.0f, .max = 1.0f, .panel = ViewPanelSlot::View, .label = "Ambient", .probe = "ambient"},
    {.key = "background", .type = ViewOptionType::Color, .help = "Background colour", .color = &ViewOptions::background,
     .panel = ViewPanelSlot::View, .label = "Background", .probe = "background"},
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
