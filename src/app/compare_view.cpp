#include "app/compare_view.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>

#include "anim/runtime/skinning.h"
#include "app/command_util.h"
#include "platform/import_worker.h"
#include "ui/legend.h"

namespace rig {

CompareView::~CompareView() {
    cancel_ = true;
    if (pending_.valid()) pending_.wait();
    anim_.reset();  // before the model it poses goes
}

void CompareView::startQueued(ViewerState& s, bool modelLoading) {
    if (queued_.empty() || !s.model || modelLoading || pending_.valid()) return;
    start(s, queued_);
    queued_.clear();
}

void CompareView::start(ViewerState& s, const std::string& path) {
    s.compare.loading = true;
    s.compare.loadingPath = path;
    cancel_ = false;
    const std::shared_ptr<const Model> a = s.model;
    // The same import as the model's (options, isolated worker); the diff of the two versions
    // is computed once, there too, off the UI thread.
    pending_ = std::async(std::launch::async, [this, path, a] {
        Loaded l{std::move(importIsolated(path, {}, import_, &cancel_).model), RigDiff{}};
        if (l.model && a) {
            DiffOptions o;
            o.metresPerUnitA = cmd::metresPerModelUnit(*a);
            o.metresPerUnitB = cmd::metresPerModelUnit(l.model.value());
            l.diff = diffModels(*a, l.model.value(), o);
        }
        return l;
    });
}

void CompareView::applyResult(ViewerState& s) {
    if (!pending_.valid() || pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    Loaded loaded = pending_.get();
    CompareState& k = s.compare;
    const std::string path = k.loadingPath;
    k.loading = false;
    if (cancel_) return;  // stopped while it loaded
    if (!loaded.model) {
        // As a failed load: one line naming the file; what was compared before stays.
        const std::string& msg = loaded.model.error().message;
        s.error = "compare: " + (msg.find(path) == std::string::npos ? path + ": " + msg : msg);
        return;
    }
    auto model = std::make_shared<const Model>(std::move(loaded.model.value()));
    auto gpu = GpuModel::create(*model);
    if (!gpu) {
        s.error = "compare: " + path + ": " + gpu.error().message;
        return;
    }
    anim_.reset();  // before the model it poses goes
    gpu_ = std::move(gpu.value());
    model_ = model;
    anim_ = std::make_unique<Animator>(*model);
    matchedFor_ = nullptr;
    key_ = Key{};
    const RigDiff& d = loaded.diff;
    k = CompareState{};
    k.path = path;
    k.differs = d.differs();
    k.jointsAdded = d.jointsAdded.size();
    k.jointsRemoved = d.jointsRemoved.size();
    k.jointsRenamed = d.jointsRenamed.size();
    k.jointsReparented = d.jointsReparented.size();
    k.bindPosesMoved = d.bindPoseMoved.size();
    k.weightsChanged = d.weightsChanged.size();
    k.meshesChanged = d.meshesChanged.size() + d.meshesAdded.size() + d.meshesRemoved.size();
    k.clipsAdded = d.clipsAdded.size();
    k.clipsRemoved = d.clipsRemoved.size();
    k.clipsRetimed = d.clipsRetimed.size();
    k.clipsMoving = d.clipMotion.size();
    s.checks.colorView = ColorView::Deviation;
    s.checks.colorsForModel = nullptr;  // repaint
    s.ui.status = "comparing with " + path;
    s.ui.statusUntil = glfwGetTime() + 3.0;
}

void CompareView::waitForLoad(ViewerState& s) {
    if (pending_.valid()) pending_.wait();
    applyResult(s);
}

void CompareView::stop(ViewerState& s) {
    queued_.clear();
    if (pending_.valid()) cancel_ = true;  // its result is dropped when it comes
    gpu_.reset();
    anim_.reset();
    model_.reset();
    matchedFor_ = nullptr;
    const bool loading = s.compare.loading;
    const std::string loadingPath = s.compare.loadingPath;
    s.compare = CompareState{};
    s.compare.loading = loading;
    s.compare.loadingPath = loadingPath;
    if (s.checks.colorView == ColorView::Deviation) s.checks.colorView = ColorView::None;
    s.checks.colorsForModel = nullptr;
}

void CompareView::drawGhost(Renderer& renderer, const ViewerState& s, int width, int height) {
    if (!gpu_ || !anim_) return;
    renderer.drawGhost(*gpu_, *anim_, s.camera, s.view, width, height, glm::vec4(0.3f, 1.0f, 0.75f, 0.3f));
}

void CompareView::update(ViewerState& s, GpuModel& gpuA) {
    if (!model_ || !anim_ || !s.model || !s.animator) return;
    const Model& a = *s.model;
    const Model& b = *model_;
    const double sa = cmd::metresPerModelUnit(a), sb = cmd::metresPerModelUnit(b);
    if (matchedFor_ != &a) {
        // rig_diff's matchers: meshes by name, vertices by bind position (per vertex of A).
        meshOfA_ = matchMeshes(a, b);
        vertexOfA_.assign(a.meshes.size(), {});
        for (size_t i = 0; i < a.meshes.size(); ++i) {
            if (meshOfA_[i] >= 0) vertexOfA_[i] = matchVertices(b.meshes[static_cast<size_t>(meshOfA_[i])], sb, a.meshes[i], sa);
        }
        matchedFor_ = &a;
        key_ = Key{};
    }
    // B's pose: the clip A plays, by name, at the time A is at; else A's still pose or B's bind pose.
    Key key;
    key.still = s.bindPose || s.clip < 0 || static_cast<size_t>(s.clip) >= a.clips.size();
    const int32_t clipB = key.still ? -1 : b.findClip(a.clips[static_cast<size_t>(s.clip)].name);
    key.clip = key.still ? (s.bindPose ? s.stillPose() : kBindPose) : clipB;
    key.time = key.still ? 0.0 : s.timeline.time;  // A moves even where B has no such clip
    key.shown = s.checks.colorView == ColorView::Deviation;
    key.influences = s.view.influences;
    if (clipB >= 0) {
        anim_->evaluate(clipB, static_cast<float>(key.time));
    } else {
        anim_->evaluate(key.still ? key.clip : kBindPose, 0.0f);
    }
    CompareState& k = s.compare;
    k.clip = clipB >= 0 ? b.clips[static_cast<size_t>(clipB)].name : "";
    // A's pose also moves without its clock (IK, blend weights, a range-of-motion sweep): its palettes say.
    const std::vector<glm::mat4>& paletteA = s.animator->palette();
    const bool sameA = paletteA_.size() == paletteA.size() && std::equal(paletteA.begin(), paletteA.end(), paletteA_.begin());
    if (key == key_ && sameA) return;
    key_ = key;
    paletteA_ = paletteA;
    // Both skinned on the CPU (skinMesh, the shader's reference), compared in metres.
    const Animator& animA = *s.animator;
    const Animator& animB = *anim_;
    std::vector<std::vector<float>>& mm = k.deviationMm;
    mm.assign(a.meshes.size(), {});
    k.maxMm = 0.0;
    k.maxVertex = -1;
    k.maxMesh.clear();
    k.maxJoint.clear();
    k.unmatched = 0;
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        const Mesh& ma = a.meshes[i];
        mm[i].assign(ma.vertexCount(), -1.0f);
        const int32_t bi = meshOfA_[i];
        if (bi < 0) {
            k.unmatched += ma.vertexCount();
            continue;
        }
        const Mesh& mb = b.meshes[static_cast<size_t>(bi)];
        scratchA_.resize(ma.vertexCount());
        scratchB_.resize(mb.vertexCount());
        skinMesh(ma, animA.palette().data() + animA.paletteOffset(i), animA.meshMorphWeights(i), scratchA_.data(), nullptr,
                 s.view.method, s.view.influences);
        skinMesh(mb, animB.palette().data() + animB.paletteOffset(static_cast<size_t>(bi)),
                 animB.meshMorphWeights(static_cast<size_t>(bi)), scratchB_.data(), nullptr, s.view.method, s.view.influences);
        const glm::dmat4 wa(animA.skinToModel(i)), wb(animB.skinToModel(static_cast<size_t>(bi)));
        const std::vector<int32_t>& match = vertexOfA_[i];
        for (size_t v = 0; v < ma.vertexCount(); ++v) {
            if (v >= match.size() || match[v] < 0) {
                ++k.unmatched;
                continue;
            }
            const glm::dvec3 qa = glm::dvec3(wa * glm::dvec4(glm::dvec3(scratchA_[v]), 1.0)) * sa;
            const glm::dvec3 qb = glm::dvec3(wb * glm::dvec4(glm::dvec3(scratchB_[static_cast<size_t>(match[v])]), 1.0)) * sb;
            const double d = glm::length(qa - qb) * 1e3;
            mm[i][v] = static_cast<float>(d);
            if (d > k.maxMm) {
                k.maxMm = d;
                k.maxVertex = static_cast<int>(v);
                k.maxMesh = ma.name;
                int32_t node = ma.node;
                if (ma.skinned && v < ma.weights.size()) {
                    const uint32_t slot = strongestSlot(ma, v);
                    if (slot < ma.skin.joints.size()) node = ma.skin.joints[slot];
                }
                k.maxJoint = node >= 0 && static_cast<size_t>(node) < a.skeleton.size() ? a.skeleton.names[node] : "";
            }
        }
    }
    if (!key.shown) return;
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        std::vector<glm::vec4> colors(mm[i].size(), kUnmatchedColor);
        for (size_t v = 0; v < mm[i].size(); ++v) {
            if (mm[i][v] >= 0.0f) colors[v] = heatColor(k.maxMm > 0.0 ? static_cast<float>(mm[i][v] / k.maxMm) : 0.0f);
        }
        gpuA.setVertexColors(i, colors);
    }
}

}  // namespace rig
