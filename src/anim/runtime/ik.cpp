#include "anim/runtime/ik.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "anim/runtime/ik_aim_job.h"
#include "anim/runtime/ik_two_bone_job.h"
#include "anim/runtime/ik_util.h"

namespace rig {

namespace {

bool isAncestor(std::span<const int32_t> parent, int32_t ancestor, int32_t node) {
    for (int32_t p = node >= 0 && static_cast<size_t>(node) < parent.size() ? parent[node] : -1; p >= 0; p = parent[p]) {
        if (p == ancestor) return true;
    }
    return false;
}

// Lower case, without any "prefix:" and without '_', '.', ' ', '-'.
std::string normalizedName(const std::string& name) {
    const size_t colon = name.rfind(':');
    std::string out;
    for (size_t i = colon == std::string::npos ? 0 : colon + 1; i < name.size(); ++i) {
        const char ch = name[i];
        if (ch == '_' || ch == '.' || ch == ' ' || ch == '-') continue;
        out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    }
    return out;
}

bool hasAny(const std::string& s, std::initializer_list<const char*> words) {
    for (const char* w : words) {
        if (s.find(w) != std::string::npos) return true;
    }
    return false;
}

}  // namespace

std::vector<ChainGuess> findLimbChains(const Skeleton& sk) {
    std::vector<ChainGuess> out;
    std::vector<std::string> names(sk.size());
    for (size_t i = 0; i < sk.size(); ++i) names[i] = normalizedName(i < sk.names.size() ? sk.names[i] : std::string());
    for (int kind = 0; kind < 2; ++kind) {
        for (size_t e = 0; e < sk.size(); ++e) {
            const std::string& en = names[e];
            const bool isEnd = kind == 0 ? hasAny(en, {"foot", "ankle"}) && !hasAny(en, {"toe"})
                                         : hasAny(en, {"hand", "wrist"}) && !hasAny(en, {"finger", "thumb", "index", "middle", "ring", "pinky"});
            if (!isEnd) continue;
            auto isMid = [&](const std::string& n) {
                if (hasAny(n, {"twist", "roll"})) return false;
                return kind == 0 ? hasAny(n, {"leg", "calf", "shin", "knee", "tibia"}) && !hasAny(n, {"upleg", "upperleg", "thigh"})
                                 : hasAny(n, {"forearm", "lowerarm", "elbow"});
            };
            auto isStart = [&](const std::string& n) {
                if (hasAny(n, {"twist", "roll"})) return false;
                return kind == 0 ? hasAny(n, {"upleg", "upperleg", "thigh", "femur"})
                                 : hasAny(n, {"arm"}) && !hasAny(n, {"forearm", "lowerarm"});
            };
            int32_t mid = -1, start = -1;
            int32_t p = sk.parent[e];
            for (int hop = 0; hop < 3 && p >= 0 && mid < 0; ++hop, p = sk.parent[p]) {
                if (isMid(names[p])) mid = p;
            }
            if (mid < 0) continue;
            p = sk.parent[mid];
            for (int hop = 0; hop < 3 && p >= 0 && start < 0; ++hop, p = sk.parent[p]) {
                if (isStart(names[p])) start = p;
            }
            if (start < 0) continue;
            ChainGuess g;
            g.label = std::string(kind == 0 ? "leg: " : "arm: ") + (e < sk.names.size() ? sk.names[e] : std::to_string(e));
            g.start = start;
            g.mid = mid;
            g.end = static_cast<int32_t>(e);
            out.push_back(std::move(g));
        }
    }
    return out;
}

void IkStage::reset(const Skeleton& sk) {
    parent_ = sk.parent;
    bindModel_ = sk.bindModel.size() == sk.size() ? sk.bindModel : std::vector<glm::mat4>(sk.size(), glm::mat4(1.0f));
    clear();
}

void IkStage::clear() {
    twoBone_.clear();
    aim_.clear();
}

int32_t IkStage::addTwoBone(int32_t start, int32_t mid, int32_t end) {
    const int32_t n = static_cast<int32_t>(parent_.size());
    if (start < 0 || mid < 0 || end < 0 || start >= n || mid >= n || end >= n) return -1;
    if (!isAncestor(parent_, start, mid) || !isAncestor(parent_, mid, end)) return -1;
    TwoBoneChain c;
    c.start = start;
    c.mid = mid;
    c.end = end;
    const glm::vec3 s(bindModel_[start][3]), m(bindModel_[mid][3]), e(bindModel_[end][3]);
    // The hinge: the bind pose's bend (u x v at the mid joint), in the mid joint's space.
    const glm::vec3 bend = glm::cross(s - m, e - m);
    const float scale = std::max(glm::length(s - m) * glm::length(e - m), 1e-30f);
    if (glm::length(bend) > 1e-4f * scale) {
        const glm::mat3 a(bindModel_[mid]);
        const float det = glm::determinant(a);
        if (std::isfinite(det) && std::fabs(det) > 1e-30f) {
            const glm::vec3 axis = glm::inverse(a) * bend;
            if (ik::finite(axis) && glm::length(axis) > 0.0f) c.midAxis = glm::normalize(axis);
        }
        // The default pole: the bind pose's bend direction.
        const glm::vec3 se = e - s;
        const glm::vec3 off = (m - s) - se * (glm::dot(m - s, se) / std::max(glm::dot(se, se), 1e-30f));
        if (glm::length(off) > 0.0f) c.pole = glm::normalize(off);
    }
    c.target = e;
    c.usedTarget = e;
    c.startSubtree = subtreeOf(parent_, start);
    c.midSubtree = subtreeOf(parent_, mid);
    twoBone_.push_back(std::move(c));
    return static_cast<int32_t>(twoBone_.size() - 1);
}

int32_t IkStage::addAim(int32_t joint) {
    if (joint < 0 || static_cast<size_t>(joint) >= parent_.size()) return -1;
    AimJoint a;
    a.joint = joint;
    a.target = glm::vec3(bindModel_[joint][3]) + glm::vec3(0.0f, 0.0f, 1.0f);
    a.subtree = subtreeOf(parent_, joint);
    aim_.push_back(std::move(a));
    return static_cast<int32_t>(aim_.size() - 1);
}

void IkStage::runTwoBone(TwoBoneChain& c, std::span<glm::mat4> model) {
    const glm::vec3 s(model[c.start][3]), m(model[c.mid][3]), e(model[c.end][3]);
    glm::vec3 target = c.target;
    float weight = c.weight;
    if (c.footLock.enabled) {
        const FootLockSettings& f = c.footLock;
        const float ul = glm::length(f.up);
        const glm::vec3 up = ul > 0.0f && std::isfinite(ul) ? f.up / ul : glm::vec3(0.0f, 1.0f, 0.0f);
        const glm::vec3 world = e + offset_;
        const float h = glm::dot(world, up) - f.ground;
        const float speed = c.hasPrevious && dt_ > 0.0f ? glm::length(world - c.previous) / dt_ : INFINITY;
        const bool contact = h < f.height && speed < f.speed;
        const bool held = dt_ <= 0.0f && c.hasPrevious;  // no time passed (paused): the lock holds
        if (!held && contact && !c.locked) {
            c.lockPosition = world - up * std::min(h, 0.0f);  // never below the ground
            c.locked = true;
        } else if (!held && !contact) {
            c.locked = false;
        }
        const float step = f.blend > 0.0f ? dt_ / f.blend : 1.0f;
        c.lockWeight = std::clamp(c.lockWeight + (c.locked ? step : -step), 0.0f, 1.0f);
        c.previous = world;
        c.hasPrevious = dt_ > 0.0f || c.hasPrevious;
        target = c.lockPosition - offset_;
        weight *= c.lockWeight;
    }
    glm::vec3 pole = c.pole;
    if (c.poleFromPose) {
        const glm::vec3 se = e - s;
        const glm::vec3 off = (m - s) - se * (glm::dot(m - s, se) / std::max(glm::dot(se, se), 1e-30f));
        const float ol = glm::length(off);
        if (ol > 1e-4f * std::max(glm::length(m - s), 1e-30f) && std::isfinite(ol)) pole = off / ol;
    }
    c.usedPole = pole;
    c.usedTarget = target;
    c.usedWeight = weight;
    glm::quat rs, rm;
    IKTwoBoneJob job;
    job.startJoint = &model[c.start];
    job.midJoint = &model[c.mid];
    job.endJoint = &model[c.end];
    job.target = target;
    job.pole = pole;
    job.midAxis = c.midAxis;
    job.weight = weight;
    job.soft = c.soft;
    job.twist = c.twist;
    job.startRotation = &rs;
    job.midRotation = &rm;
    job.reached = &c.reached;
    job.run();
    // Mid first (about its own position), then the whole chain about the start joint.
    rotateSubtree(c.midSubtree, m, rm, model);
    rotateSubtree(c.startSubtree, s, rs, model);
}

bool IkStage::run(std::span<glm::mat4> model) {
    if (model.size() != parent_.size()) return false;
    if (!enabled) return true;
    for (TwoBoneChain& c : twoBone_) {
        if (c.enabled) runTwoBone(c, model);
    }
    for (AimJoint& a : aim_) {
        if (!a.enabled) continue;
        glm::quat r;
        IKAimJob job;
        job.joint = &model[a.joint];
        job.target = a.target;
        job.forward = a.forward;
        job.up = a.up;
        job.pole = a.pole;
        job.offset = a.offset;
        job.twist = a.twist;
        job.weight = a.weight;
        job.limit = a.limit;
        job.rotation = &r;
        job.reached = &a.reached;
        job.run();
        rotateSubtree(a.subtree, glm::vec3(model[a.joint][3]), r, model);
    }
    return true;
}

}  // namespace rig
