#include "app/ik_setup.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace rig {

namespace {

constexpr float kDegrees = 3.14159265358979f / 180.0f;

}  // namespace

IkStage* prepareIkStage(ViewerState& s) {
    IkViewState& ik = s.ik;
    if (!s.model || !s.animator) return nullptr;
    const Model& m = *s.model;
    if (ik.forModel != &m || ik.stage.nodeCount() != m.skeleton.size()) {
        ik.forModel = &m;
        ik.stage.reset(m.skeleton);
        ik.guesses = findLimbChains(m.skeleton);
        ik.preset = ik.guesses.empty() ? -1 : 0;
        ik.start = ik.preset >= 0 ? ik.guesses[0].start : -1;
        ik.mid = ik.preset >= 0 ? ik.guesses[0].mid : -1;
        ik.end = ik.preset >= 0 ? ik.guesses[0].end : -1;
        ik.aimJoint = -1;
        for (size_t i = 0; i < m.skeleton.size() && ik.aimJoint < 0; ++i) {
            std::string n = m.skeleton.names[i].substr(m.skeleton.names[i].rfind(':') == std::string::npos ? 0 : m.skeleton.names[i].rfind(':') + 1);
            for (char& ch : n) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            if (n.rfind("head", 0) == 0 && n.find("end") == std::string::npos && n.find("top") == std::string::npos) {
                ik.aimJoint = static_cast<int>(i);
            }
        }
        ik.rebuild = true;
        ik.snapTarget = true;
        ik.dragging = false;
    }
    if (!ik.enabled) return nullptr;
    if (ik.rebuild) {
        ik.rebuild = false;
        ik.stage.reset(m.skeleton);
        ik.status = ik.stage.addTwoBone(ik.start, ik.mid, ik.end) < 0
                        ? "Pick a start joint, a mid joint below it and an end joint below that."
                        : "";
        if (ik.aim) {
            const int32_t a = ik.stage.addAim(ik.aimJoint);
            if (a >= 0) {
                // The model's forward (+Z) and up in the joint's bind-pose frame.
                const glm::mat3 inv = glm::inverse(glm::mat3(m.skeleton.bindPoseModel()[ik.aimJoint]));
                const glm::vec3 up = s.camera.up();
                const glm::vec3 fwd = s.camera.zUp ? glm::vec3(0.0f, -1.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
                const glm::vec3 f = inv * fwd, u = inv * up;
                AimJoint& aj = ik.stage.aim()[a];
                if (glm::length(f) > 0.0f && std::isfinite(f.x)) aj.forward = glm::normalize(f);
                if (glm::length(u) > 0.0f && std::isfinite(u.x)) aj.up = glm::normalize(u);
                aj.pole = up;
            } else if (ik.status.empty()) {
                ik.status = "Pick the joint to aim.";
            }
        }
        ik.snapTarget = true;
    }
    if (ik.stage.twoBone().empty() && ik.stage.aim().empty()) return nullptr;
    if (ik.snapTarget) {
        ik.snapTarget = false;
        const int32_t at = !ik.stage.twoBone().empty() ? ik.stage.twoBone()[0].end : ik.stage.aim()[0].joint;
        ik.target = glm::vec3(s.animator->world()[at][3]);
        if (ik.stage.twoBone().empty()) {
            // Aim only: start half the model's size in front of the aimed joint.
            const glm::vec3 fwd = s.camera.zUp ? glm::vec3(0.0f, -1.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
            ik.target += fwd * (0.5f * std::max(s.bounds.diagonal(), 1e-3f));
        }
    }
    for (AimJoint& aj : ik.stage.aim()) {
        aj.target = ik.target;
        aj.weight = ik.aimWeight;
        aj.limit = ik.aimLimit * kDegrees;
    }
    if (ik.stage.twoBone().empty()) return &ik.stage;
    TwoBoneChain& c = ik.stage.twoBone()[0];
    c.target = ik.target;
    c.weight = ik.weight;
    c.soft = ik.soft;
    c.twist = ik.twist * kDegrees;
    c.poleFromPose = ik.poleFromPose;
    if (glm::length(ik.pole) > 0.0f) c.pole = glm::normalize(ik.pole);
    if (ik.footLock != c.footLock.enabled) {
        c.footLock = FootLockSettings{};
        c.footLock.enabled = ik.footLock;
        c.locked = c.hasPrevious = false;
        c.lockWeight = 0.0f;
        // Ground: the bottom of the clip's bounds along the camera's up axis; contact within
        // 2% of the model's size above the end joint's rest height, slower than 30% of it a second.
        const glm::vec3 up = s.camera.up();
        const float diag = std::max(s.bounds.diagonal(), 1e-3f);
        c.footLock.up = up;
        c.footLock.ground = s.bounds.valid() ? glm::dot(s.bounds.min, up) : 0.0f;
        const float rest = glm::dot(glm::vec3(m.skeleton.bindPoseModel()[c.end][3]), up) - c.footLock.ground;
        c.footLock.height = std::max(rest, 0.0f) + 0.02f * diag;
        c.footLock.speed = 0.3f * diag;
    }
    return &ik.stage;
}

}  // namespace rig
