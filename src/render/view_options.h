// ViewOptions: everything that changes how a frame is drawn, shared by the renderer, the
// viewer and `rigview render`; and the view option table, which declares each option once
// (its settings-file key, type, range, help, `render` flag, View panel widget and shortcut).
// The command line, the settings file, the View panel and the shortcuts are built from the
// table; the default is the member's initializer below.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <glm/glm.hpp>

#include "anim/runtime/skinning.h"

namespace rig {

enum class SkinningMode { Gpu, Cpu };
// Which joint names the viewer writes at the joints.
enum class JointNameMode { Selection, All, None };
// The tone curve after exposure (shaders/tonemap.frag's mode numbers).
enum class ToneMapping { None = 0, Neutral = 1, Aces = 2 };
// What fills the frame behind the model.
enum class BackgroundMode { Solid, Environment };
// One material input shown alone instead of the shaded colour (the Khronos sample viewer's
// debug channels).
// The viewer's multisampling of the scene (`render` has --msaa): auto is 4x on a GPU and off on
// a software rasterizer (llvmpipe, SwiftShader...), where 4 samples per pixel cost more than
// the whole frame's shading.
enum class AntiAliasing { Auto, Off, Msaa4 };
enum class DebugChannel { None, BaseColor, Normal, Metallic, Roughness, Occlusion, Emissive, Alpha, Uv0, Uv1 };

struct ViewOptions {
    SkinningMode skinning = SkinningMode::Gpu;
    SkinningMethod method = SkinningMethod::Linear;  // linear blend, stitching, dual quaternion
    int influences = kMaxInfluences;  // blended per vertex: 4 (the first set) or 8 (both; model.h)
    bool wireframe = false;
    bool grid = true;
    bool axes = false;
    bool bounds = false;
    bool bones = false;        // skeleton overlay, drawn on top
    JointNameMode jointNames = JointNameMode::Selection;  // viewer only (ImGui text at the joints)
    bool lighting = true;
    bool textures = true;
    float ambient = 0.35f;     // the grey sky's radiance where no environment is loaded
    glm::vec4 background{0.17f, 0.18f, 0.2f, 1.0f};
    // Physically based shading (render/environment.h, shaders/pbr.frag).
    std::string environment;   // an equirectangular Radiance .hdr; empty: the bundled studio
    float environmentRotation = 0.0f;  // degrees about the up axis
    float exposure = 1.0f;
    ToneMapping toneMapping = ToneMapping::Neutral;
    BackgroundMode backgroundMode = BackgroundMode::Solid;
    float backgroundBlur = 0.5f;       // Environment background: the roughness it is shown at
    bool keyLight = false;             // a directional key light on top of the environment
    bool groundShadow = true;          // a soft contact shadow under the model on the grid
    DebugChannel debugChannel = DebugChannel::None;
    AntiAliasing antiAliasing = AntiAliasing::Auto;  // viewer only
    int highlightJoint = -1;   // skeleton node index drawn highlighted, -1 none (follows the selection)
};

enum class ViewOptionType { Flag, Choice, Number, Color };

// Where the viewer draws an option's widget.
enum class ViewPanelSlot { None, View, Checks };

struct ViewChoice {
    const char* name;   // on the command line, and in the settings file for options saved by name
    const char* label;  // in the viewer
};

// One view option. Exactly one of flag / number / color / (choiceOf, setChoice) is set, the
// one `type` names.
struct ViewOptionSpec {
    const char* key;                      // its name: the settings file's key under "view"
    ViewOptionType type;
    const char* help;                     // one line: `render --help` and the F1 overlay
    bool ViewOptions::*flag = nullptr;
    float ViewOptions::*number = nullptr;
    glm::vec4 ViewOptions::*color = nullptr;  // RGB edited and saved; alpha stays
    int (*choiceOf)(const ViewOptions&) = nullptr;
    void (*setChoice)(ViewOptions&, int) = nullptr;
    std::span<const ViewChoice> choices{};
    bool savedByName = false;             // Choice: the settings file holds the name (else the index)
    float min = 0.0f, max = 0.0f;         // Number: the slider's range; a settings file is clamped to it
    const char* format = "%.3f";          // Number: the slider's format
    const char* cliFlag = nullptr;        // `rigview render`'s flag, e.g. "--wireframe" (not for a Color); nullptr: none
    ViewPanelSlot panel = ViewPanelSlot::None;
    const char* label = nullptr;          // the widget's label
    const char* probe = nullptr;          // the widget's probe name (radio buttons: probe:choice name)
    bool radio = false;                   // Choice: radio buttons on one line (else a combo)
    bool sameLine = false;                // on the line of the option before it
    bool separatorBefore = false;
    const char* shortcut = nullptr;       // one letter key, e.g. "W": toggles a flag, steps a choice
};

// Every view option, in the View panel's order.
std::span<const ViewOptionSpec> viewOptionTable();
// The option whose key is `key`, or nullptr.
const ViewOptionSpec* findViewOption(std::string_view key);

// The choice named `name` (case as written), or -1.
int choiceIndex(const ViewOptionSpec& o, std::string_view name);
// What a shortcut does: a flag flips, a choice steps to the next (after the last: the first).
void stepViewOption(const ViewOptionSpec& o, ViewOptions& v);

// `rigview render`'s starting options: ViewOptions' defaults with every flag that `render`
// takes off (giving the flag turns it on).
ViewOptions renderViewDefaults();

}  // namespace rig
