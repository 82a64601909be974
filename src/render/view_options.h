// ViewOptions: everything that changes how a frame is drawn, declared once and shared by
// the renderer, the viewer's View panel and `rigview render`.
#pragma once

#include <glm/glm.hpp>

#include "anim/runtime/skinning.h"

namespace rig {

enum class SkinningMode { Gpu, Cpu };

struct ViewOptions {
    SkinningMode skinning = SkinningMode::Gpu;
    SkinningMethod method = SkinningMethod::Linear;  // linear blend, stitching, dual quaternion
    bool wireframe = false;
    bool grid = true;
    bool axes = false;
    bool bounds = false;
    bool bones = false;        // skeleton overlay, drawn on top
    bool jointNames = false;   // viewer only (ImGui text at the joints)
    bool lighting = true;
    bool headlight = true;
    bool textures = true;
    float ambient = 0.35f;
    glm::vec4 background{0.17f, 0.18f, 0.2f, 1.0f};
    int highlightJoint = -1;   // skeleton node index drawn highlighted, -1 none
};

}  // namespace rig
