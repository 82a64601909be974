// Viewer: what the mouse picks in the viewport (the vertex under the cursor in a colour view,
// the joint clicked, else the mesh clicked), the selected node's meshes outlined, and a finding
// focused from the Checks panel (its clip, joint, colour view and vertices framed).
#include <algorithm>

#include "anim/runtime/skinning.h"
#include "app/viewer.h"
#include "ui/timeline_panel.h"

#include <glm/gtc/quaternion.hpp>

namespace rig {

void Viewer::skinForPicking(size_t mesh) {
    const Mesh& m = state_.model->meshes[mesh];
    const Animator& anim = *state_.animator;
    scratch_.resize(m.vertexCount());
    skinMesh(m, anim.palette().data() + anim.paletteOffset(mesh), anim.meshMorphWeights(mesh), scratch_.data(), nullptr,
             state_.view.method, state_.view.influences);
}

void Viewer::pickVertex(const glm::mat4& viewProj, float w, float h) {
    CheckViewState& c = state_.checks;
    c.hoverMesh = c.hoverVertex = -1;
    const ImGuiIO& io = ImGui::GetIO();
    if (c.colorView == ColorView::None || io.WantCaptureMouse || ImGui::IsAnyMouseDown()) return;
    const Model& m = *state_.model;
    const Animator& anim = *state_.animator;
    float best = 12.0f * 12.0f;
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        skinForPicking(i);
        const glm::mat4 mvp = viewProj * anim.skinToModel(i);
        for (size_t v = 0; v < scratch_.size(); ++v) {
            glm::vec2 s;
            if (!projectToScreen(mvp, scratch_[v], w, h, s)) continue;
            const float d = (s.x - io.MousePos.x) * (s.x - io.MousePos.x) + (s.y - io.MousePos.y) * (s.y - io.MousePos.y);
            if (d < best) {
                best = d;
                c.hoverMesh = static_cast<int>(i);
                c.hoverVertex = static_cast<int>(v);
            }
        }
    }
}

void Viewer::clickSelectJoint(const glm::mat4& viewProj, float w, float h) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureMouse) return;
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) pressPos_ = io.MousePos;
    if (!ImGui::IsMouseReleased(ImGuiMouseButton_Left)) return;
    const float dx = io.MousePos.x - pressPos_.x, dy = io.MousePos.y - pressPos_.y;
    if (dx * dx + dy * dy > 9.0f) return;  // that was an orbit drag, not a click
    const std::vector<glm::vec3>& joints = renderer_->jointPositions();
    float best = 14.0f * 14.0f;
    int pick = -1;
    for (int32_t j : state_.joints) {
        glm::vec2 s;
        if (!projectToScreen(viewProj, joints[j], w, h, s)) continue;
        const float d = (s.x - io.MousePos.x) * (s.x - io.MousePos.x) + (s.y - io.MousePos.y) * (s.y - io.MousePos.y);
        if (d < best) {
            best = d;
            pick = j;
        }
    }
    // No joint there: the mesh under the cursor selects the node it hangs from (and so is outlined).
    if (pick < 0) {
        const int mesh = meshUnder(viewProj, w, h, io.MousePos);
        if (mesh >= 0) pick = state_.model->meshes[static_cast<size_t>(mesh)].node;
    }
    if (pick >= 0) {
        state_.selectedJoint = pick;
        state_.ui.scrollToSelection = true;  // the Hierarchy shows it
    }
}

int Viewer::meshUnder(const glm::mat4& viewProj, float w, float h, ImVec2 at) {
    // The posed triangles (CPU skinning, the GPU path's reference) projected to the screen; of
    // those that hold the point, the nearest.
    const Model& m = *state_.model;
    const Animator& anim = *state_.animator;
    int best = -1;
    float bestDepth = 2.0f;
    std::vector<glm::vec3> screen;  // x, y in pixels, z depth in NDC (> 1: behind the camera)
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh& mesh = m.meshes[i];
        skinForPicking(i);
        const glm::mat4 mvp = viewProj * anim.skinToModel(i);
        screen.resize(scratch_.size());
        for (size_t v = 0; v < scratch_.size(); ++v) {
            const glm::vec4 c = mvp * glm::vec4(scratch_[v], 1.0f);
            screen[v] = c.w > 1e-6f ? glm::vec3((c.x / c.w * 0.5f + 0.5f) * w, (0.5f - c.y / c.w * 0.5f) * h, c.z / c.w)
                                    : glm::vec3(0.0f, 0.0f, 3.0f);
        }
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const glm::vec3 &a = screen[mesh.indices[t]], &b = screen[mesh.indices[t + 1]], &c = screen[mesh.indices[t + 2]];
            if (a.z > 1.0f || b.z > 1.0f || c.z > 1.0f) continue;
            const float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
            if (std::abs(area) < 1e-12f) continue;
            const float u = ((b.x - at.x) * (c.y - at.y) - (b.y - at.y) * (c.x - at.x)) / area;
            const float v = ((c.x - at.x) * (a.y - at.y) - (c.y - at.y) * (a.x - at.x)) / area;
            if (u < 0.0f || v < 0.0f || u + v > 1.0f) continue;
            const float depth = u * a.z + v * b.z + (1.0f - u - v) * c.z;
            if (depth < bestDepth) {
                bestDepth = depth;
                best = static_cast<int>(i);
            }
        }
    }
    return best;
}

void Viewer::drawSelectionOutline(int w, int h) {
    // Blender's colour for the active selection; as wide as two pixels of the UI's scale.
    const Model& m = *state_.model;
    outlined_.clear();
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        if (state_.selectedJoint >= 0 && m.meshes[i].node == state_.selectedJoint) outlined_.push_back(i);
    }
    if (outlined_.empty()) return;
    const float px = 2.0f * std::max(1.0f, state_.ui.uiScale * state_.ui.contentScale);
    renderer_->drawOutline(*gpu_, *state_.animator, state_.camera, state_.view, w, h, outlined_,
                           glm::vec4(1.0f, 0.6f, 0.1f, 1.0f), px);
}

void Viewer::focusFinding(int index) {
    CheckViewState& c = state_.checks;
    if (!state_.model || index < 0 || static_cast<size_t>(index) >= c.report.findings.size()) return;
    const Finding& f = c.report.findings[index];
    const Model& m = *state_.model;
    if (f.clip >= 0 && static_cast<size_t>(f.clip) < m.clips.size() && f.clip != state_.clip) state_.requests.selectClip = f.clip;
    if (f.joint >= 0 && static_cast<size_t>(f.joint) < m.skeleton.size()) {
        state_.selectedJoint = f.joint;
        state_.ui.scrollToSelection = true;
        state_.view.bones = true;
    }
    // A finding about a joint's motion in a clip (a jump, a flip, a seam, keys at one time)
    // opens the Curves view on that joint's rotation at the time it happens, paused there.
    const bool motion = f.code == "sudden-rotation-jump" || f.code == "quaternion-sign-flip" || f.code == "loop-seam" ||
                        f.code == "duplicate-key-times";
    if (motion && f.clip >= 0 && static_cast<size_t>(f.clip) < m.clips.size() && f.joint >= 0 &&
        static_cast<size_t>(f.joint) < m.skeleton.size()) {
        const Clip& clip = m.clips[f.clip];
        double at = clip.startTime;
        const int track = static_cast<size_t>(f.joint) < clip.trackOfNode.size() ? clip.trackOfNode[f.joint] : -1;
        if (f.code == "loop-seam") {
            at = clip.duration;
        } else if (track >= 0) {
            const Channel& ch = clip.tracks[track].rotation;
            const float* times = clip.times.data() + ch.times;
            float worst = -1.0f;
            for (uint32_t k = 1; k < ch.count; ++k) {
                const glm::quat a = clip.quatKeys[ch.values + k - 1], b = clip.quatKeys[ch.values + k];
                // A flip: the sign turns (dot < 0); a jump: the largest turn; duplicate keys: equal times.
                const float d = glm::dot(a, b);
                const float measure = f.code == "quaternion-sign-flip" ? -d
                                      : f.code == "duplicate-key-times" ? (times[k] == times[k - 1] ? 1.0f : -1.0f)
                                                                         : 1.0f - std::abs(d);
                if (measure > worst) {
                    worst = measure;
                    at = times[k];
                }
            }
        }
        TimelineState& tl = state_.timeline;
        tl.curves = true;
        tl.curveFamily = 1;
        state_.ui.layout.settings.bottomHeight = std::max(state_.ui.layout.settings.bottomHeight, kCurvesStripHeight);
        const double span = std::max(0.5, 0.1 * (clip.duration - clip.startTime));
        tl.viewStart = std::max<double>(clip.startTime, at - 0.5 * span);
        tl.viewEnd = tl.viewStart + span;
        if (tl.playing || f.clip != state_.clip) state_.requests.togglePlay = true;  // paused there
        state_.requests.seek = at;
    }
    // Pick the colour view that shows the problem.
    if (f.code == "weights-not-normalized") c.colorView = ColorView::WeightSum;
    if (f.code == "too-many-influences") c.colorView = ColorView::TruncationError;
    if (f.code == "unweighted-vertices") c.colorView = ColorView::Unweighted;
    if (f.code == "joint-influences-nothing" || f.code == "bind-pose-mismatch") c.colorView = ColorView::JointWeight;
    // Frame the example vertices (posed as now).
    if (f.mesh >= 0 && static_cast<size_t>(f.mesh) < m.meshes.size() && !f.examples.empty()) {
        const Mesh& mesh = m.meshes[f.mesh];
        scratch_.resize(mesh.vertexCount());
        skinMesh(mesh, state_.animator->palette().data() + state_.animator->paletteOffset(f.mesh), state_.animator->meshMorphWeights(f.mesh), scratch_.data(), nullptr,
                 SkinningMethod::Linear, state_.view.influences);
        Bounds b;
        for (int64_t v : f.examples) {
            if (v >= 0 && static_cast<size_t>(v) < scratch_.size()) {
                b.add(glm::vec3(state_.animator->skinToModel(f.mesh) * glm::vec4(scratch_[v], 1.0f)));
            }
        }
        if (b.valid()) {
            const float pad = std::max(state_.bounds.diagonal() * 0.05f, 1e-4f);
            b.add(b.min - glm::vec3(pad));
            b.add(b.max + glm::vec3(pad));
            const ImGuiIO& io = ImGui::GetIO();
            state_.camera.frame(b, io.DisplaySize.x / std::max(io.DisplaySize.y, 1.0f), 1.3f);
        }
    }
}

}  // namespace rig
