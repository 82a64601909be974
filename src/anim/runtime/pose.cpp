#include "anim/runtime/pose.h"

#include "anim/runtime/isa.h"

#include "anim/runtime/ik.h"
#include "anim/runtime/local_to_model_job.h"
#include "anim/runtime/sampling_job.h"
#include "anim/runtime/skinning_matrix_job.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace rig {

glm::mat4 safeAffineInverse(const glm::mat4& m) {
    const glm::mat3 a(m);
    const float det = glm::determinant(a);
    if (!std::isfinite(det) || std::fabs(det) < 1e-30f) return glm::mat4(1.0f);
    const glm::mat3 ai = glm::inverse(a);
    glm::mat4 r(ai);
    r[3] = glm::vec4(-(ai * glm::vec3(m[3])), 1.0f);
    return r;
}

namespace {

bool isIdentity(const glm::mat4& m) {
    return m == glm::mat4(1.0f);
}

// A rigid motion: orthonormal axes (to 1e-6), right-handed, affine last row. Dual quaternion
// skinning drops scale and shear from each palette entry, so a mesh node's world matrix may
// leave the palette (model-space palette) only when it has none to within what rounding of a
// unit quaternion's matrix leaves (about 1e-7).
bool isRigid(const glm::mat4& m) {
    if (m[0][3] != 0.0f || m[1][3] != 0.0f || m[2][3] != 0.0f || m[3][3] != 1.0f) return false;
    const glm::vec3 x(m[0]), y(m[1]), z(m[2]), t(m[3]);
    if (!std::isfinite(glm::dot(x + y + z, x + y + z)) || !std::isfinite(glm::dot(t, t))) return false;
    constexpr float kTol = 2e-6f;
    const bool unit = std::fabs(glm::dot(x, x) - 1.0f) <= kTol && std::fabs(glm::dot(y, y) - 1.0f) <= kTol &&
                      std::fabs(glm::dot(z, z) - 1.0f) <= kTol;
    const bool orthogonal =
        std::fabs(glm::dot(x, y)) <= kTol && std::fabs(glm::dot(x, z)) <= kTol && std::fabs(glm::dot(y, z)) <= kTol;
    return unit && orthogonal && glm::dot(glm::cross(x, y), z) > 0.0f;
}

}  // namespace

Animator::Animator(const Model& model, AnimatorUse use)
    : model_(&model), order_(model.skeleton.parent), posesOnly_(use == AnimatorUse::PosesOnly) {
    const Skeleton& sk = model.skeleton;
    local_ = sk.bindLocalSqt;
    world_ = sk.bindModel;
    useLocal_.assign(sk.size(), 0);
    poseMask_.assign(sk.size(), 0);
    steadyMask_.assign(sk.size(), 0);
    steadyLocal_ = sk.bindLocal;
    liveMask_.assign(sk.size(), 0);
    liveOrder_ = order_;  // its capacity: assignPartial allocates nothing
    roots_.assign(sk.size(), -1);
    rootOrder_ = JointOrder(roots_);
    changedOrder_ = rootOrder_;  // its capacity
    // Slots: one per skin and node (meshes hanging from the same node with the same joints
    // and inverse binds share the first one's); then groups of slots with the same skin
    // (BCN_Epileptic's three meshes on three nodes), whose palettes are shared while their
    // nodes stay out of the palette (updatePalettes).
    ownerOf_.assign(model.meshes.size(), -1);
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        if (!mesh.skinned) continue;
        for (size_t k = 0; k < paletteOwners_.size() && ownerOf_[m] < 0; ++k) {
            const Mesh& o = model.meshes[paletteOwners_[k]];
            if (o.node == mesh.node && o.skin.joints == mesh.skin.joints && o.skin.inverseBind == mesh.skin.inverseBind) {
                ownerOf_[m] = static_cast<int32_t>(k);
            }
        }
        if (ownerOf_[m] >= 0) continue;
        ownerOf_[m] = static_cast<int32_t>(paletteOwners_.size());
        paletteOwners_.push_back(m);
        corrections_.emplace_back();
        jointRanges_.emplace_back(mesh.skin.joints);
    }
    const size_t slots = paletteOwners_.size();
    std::vector<uint8_t> rigidUse(slots, 0);
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        if (ownerOf_[m] >= 0 && usesRigidSlot(model.meshes[m])) rigidUse[ownerOf_[m]] = 1;
    }
    leaderOf_.resize(slots);
    for (size_t k = 0; k < slots; ++k) {
        leaderOf_[k] = static_cast<uint32_t>(k);
        if (rigidUse[k]) continue;  // its rigid slot is its own node's
        const Skin& skin = model.meshes[paletteOwners_[k]].skin;
        for (size_t l = 0; l < k; ++l) {
            const Skin& o = model.meshes[paletteOwners_[l]].skin;
            if (leaderOf_[l] == l && o.joints == skin.joints && o.inverseBind == skin.inverseBind) {
                leaderOf_[k] = static_cast<uint32_t>(l);
                break;
            }
        }
    }
    // The leaders' palettes first (every group shared), then the other slots' own.
    slotOffset_.assign(slots, 0);
    uint32_t off = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t k = 0; k < slots; ++k) {
            if ((leaderOf_[k] == k) != (pass == 0)) continue;
            slotOffset_[k] = off;
            off += static_cast<uint32_t>(model.meshes[paletteOwners_[k]].skin.paletteSize());
        }
        if (pass == 0) sharedSize_ = off;
    }
    grouped_.assign(slots, 0);
    for (size_t k = 0; k < slots; ++k) {
        if (leaderOf_[k] != k) grouped_[k] = grouped_[leaderOf_[k]] = 1;
    }
    for (size_t k = 0; k < slots; ++k) {
        if (leaderOf_[k] != k || !grouped_[k]) continue;
        groupStart_.push_back(static_cast<uint32_t>(groupMembers_.size()));
        for (size_t s = k; s < slots; ++s) {
            if (leaderOf_[s] == k) groupMembers_.push_back(static_cast<uint32_t>(s));
        }
    }
    groupStart_.push_back(static_cast<uint32_t>(groupMembers_.size()));
    paletteOffset_.assign(model.meshes.size(), 0);
    uint32_t shared = 0;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        paletteOffset_[m] = ownerOf_[m] >= 0 ? slotOffset_[leaderOf_[ownerOf_[m]]] : shared;
        if (ownerOf_[m] >= 0) shared = std::max(shared, paletteOffset_[m] + static_cast<uint32_t>(model.meshes[m].skin.paletteSize()));
    }
    paletteInUse_ = sharedSize_;
    palette_.assign(off, glm::mat4(1.0f));
    paletteFresh_.assign(slots, 0);
    liveRunStart_.assign(slots + 1, 0);
    size_t slotJoints = 0;
    for (size_t k = 0; k < slots; ++k) slotJoints += model.meshes[paletteOwners_[k]].skin.joints.size();
    liveRuns_.reserve(2 * slotJoints);  // at most one run per joint: assigned without allocating
    // Per clip: nothing for an Animator that only poses (it samples no clip).
    size_t maxTracks = 0, maxMorphTracks = 0;
    if (!posesOnly_) {
        for (const Clip& c : model.clips) maxTracks = std::max(maxTracks, c.tracks.size());
        plans_.reserve(model.clips.size());
        for (const Clip& c : model.clips) plans_.push_back(buildSamplingPlan(c, sk.size()));
        for (const Clip& c : model.clips) maxMorphTracks = std::max(maxMorphTracks, c.morphTracks.size());
    }
    cursors_.assign(3 * maxTracks, 0);
    morphOffset_.assign(model.meshes.size(), 0);
    uint32_t morphs = 0;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        morphOffset_[m] = morphs;
        morphs += static_cast<uint32_t>(model.meshes[m].morphTargets.size());
    }
    morphWeights_.assign(morphs, 0.0f);
    morphOverride_.assign(morphs, std::numeric_limits<float>::quiet_NaN());
    morphCursors_.assign(maxMorphTracks, 0);
    evaluateMorphs(-1, 0.0f);
}

void sampleMorphWeights(const Model& model, int32_t clipIndex, float t, uint32_t* cursors, float* out) {
    const Clip* clip = clipIndex >= 0 && static_cast<size_t>(clipIndex) < model.clips.size() ? &model.clips[clipIndex] : nullptr;
    const size_t tracks = clip ? clip->morphTracks.size() : 0;
    size_t k = 0;
    float* w = out;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        const size_t nt = mesh.morphTargets.size();
        for (size_t i = 0; i < nt; ++i) w[i] = i < mesh.morphDefaultWeights.size() ? mesh.morphDefaultWeights[i] : 0.0f;
        // Tracks are sorted by mesh: those of mesh m come next.
        while (k < tracks && clip->morphTracks[k].mesh < static_cast<int32_t>(m)) ++k;
        for (; k < tracks && clip->morphTracks[k].mesh == static_cast<int32_t>(m); ++k) {
            const MorphTrack& tr = clip->morphTracks[k];
            if (tr.targets == nt) sampleMorphTrack(*clip, tr, t, cursors[k], w);
        }
        w += nt;
    }
}

size_t morphWeightCount(const Model& model) {
    size_t n = 0;
    for (const Mesh& m : model.meshes) n += m.morphTargets.size();
    return n;
}

void Animator::evaluateMorphs(int32_t clipIndex, float t) {
    if (morphWeights_.empty()) return;
    if (clipIndex != lastMorphClip_) {
        std::fill(morphCursors_.begin(), morphCursors_.end(), 0u);
        lastMorphClip_ = clipIndex;
    }
    sampleMorphWeights(*model_, clipIndex, t, morphCursors_.data(), morphWeights_.data());
    setMorphWeights(morphWeights_.data());
}

void Animator::setMorphWeights(const float* weights) {
    float* w = morphWeights_.data();
    const float* ov = morphOverride_.data();
    for (size_t i = 0; i < morphWeights_.size(); ++i) w[i] = std::isnan(ov[i]) ? weights[i] : ov[i];
}

void Animator::setMorphOverride(size_t mesh, size_t target, float weight) {
    if (mesh >= model_->meshes.size() || target >= model_->meshes[mesh].morphTargets.size()) return;
    morphOverride_[morphOffset_[mesh] + target] = std::isinf(weight) ? std::numeric_limits<float>::quiet_NaN() : weight;
}

void Animator::clearMorphOverrides() {
    std::fill(morphOverride_.begin(), morphOverride_.end(), std::numeric_limits<float>::quiet_NaN());
}

float Animator::morphOverride(size_t mesh, size_t target) const {
    if (mesh >= model_->meshes.size() || target >= model_->meshes[mesh].morphTargets.size()) {
        return std::numeric_limits<float>::quiet_NaN();
    }
    return morphOverride_[morphOffset_[mesh] + target];
}

void Animator::evaluate(int32_t clipIndex, float t) {
    if (posesOnly_ && clipIndex >= 0) clipIndex = kBindPose;  // no cursors to sample with
    if (clipIndex != lastClip_) {
        std::fill(cursors_.begin(), cursors_.end(), 0u);
        lastClip_ = clipIndex;
    }
    evaluateWith(clipIndex, t, cursors_.data(), palette_.data(), nullptr, corrections_.data(), &compressedSampler_);
    evaluateMorphs(clipIndex >= 0 && static_cast<size_t>(clipIndex) < model_->clips.size() ? clipIndex : -1, t);
}

void Animator::evaluateInto(int32_t clipIndex, float t, const InstanceBuffers& out) {
    if (posesOnly_ && clipIndex >= 0) clipIndex = kBindPose;
    if (out.cursors.size() != cursors_.size() || out.skins.size() != corrections_.size() ||
        out.rows.size() != instanceRows()) {
        return;
    }
    evaluateWith(clipIndex, t, out.cursors.data(), nullptr, out.rows.data(), out.skins.data(), nullptr);
    glm::vec4* meshRows = out.rows.data() + 3 * sharedSize_;
    for (size_t m = 0; m < model_->meshes.size(); ++m) {
        const int32_t k = ownerOf_[m];
        const bool modelSpace = k >= 0 && (out.skins[k].modelSpace || grouped_[k]);
        storeAffineRows(modelSpace ? identity_ : world_[model_->meshes[m].node], meshRows + 3 * m);
    }
}

void Animator::setCompressedClips(const CompressedClipSet* set) {
    compressed_ = set && set->skeletonSize == model_->skeleton.size() ? set : nullptr;
    compressedSampler_.reset(compressed_, 1);
}

bool Animator::sampleCompressed(int32_t clip, float t, uint32_t* cursors, CompressedSampler* sampler) {
    if (!compressed_) return false;
    const Skeleton& sk = model_->skeleton;
    if (sampler) return sampler->sample(clip, t, sk.bindLocalSqt, local_, blend_);
    return sampleCompressedWithCursors(*compressed_, clip, t, sk.bindLocalSqt, local_, {cursors, cursors_.size()}, blend_);
}

void Animator::evaluateWith(int32_t clipIndex, float t, uint32_t* cursors, glm::mat4* palette, glm::vec4* rows,
                            SkinCorrection* corrections, CompressedSampler* sampler) {
    const Model& model = *model_;
    const Skeleton& sk = model.skeleton;
    const Clip* clip = nullptr;
    if (clipIndex >= 0 && static_cast<size_t>(clipIndex) < model.clips.size()) {
        clip = &model.clips[clipIndex];
    }
    const size_t n = sk.size();
    const int32_t ov = overrideNode_ >= 0 && static_cast<size_t>(overrideNode_) < n ? overrideNode_ : -1;
    const int32_t maskClip = clip ? clipIndex : -1;
    if (maskClip != maskClip_ || ov != maskOverride_) {
        // Which nodes take the sampled pose (a track or the override) and which keep the
        // file's exact to-parent matrix: rebuilt only when the clip or the override changes.
        const int32_t* trackOf = clip ? clip->trackOfNode.data() : nullptr;
        for (size_t i = 0; i < n; ++i) useLocal_[i] = trackOf && trackOf[i] >= 0 ? 1 : 0;
        if (ov >= 0) useLocal_[ov] = 1;
        maskClip_ = maskClip;
        maskOverride_ = ov;
    }
    const int32_t held = localHolds_;
    localHolds_ = -1;
    if (clip) {
        if (!sampleCompressed(clipIndex, t, cursors, sampler)) {
            const SamplingPlan* plan = planOf(clipIndex);
            if (plan && held == clipIndex) {
                // The still components are in local_ already (the same bits a full sample writes).
                sampleClipKeyed(*plan, t, local_.data(), cursors, blend_);
            } else {
                SamplingJob sampling;
                sampling.clip = clip;
                sampling.time = t;
                sampling.blend = blend_;
                sampling.bindLocal = sk.bindLocalSqt;
                sampling.cursors = {cursors, cursors_.size()};
                sampling.local = local_;
                sampling.plan = plan;
                sampling.run();  // sizes fixed at construction; tracks validated at import
            }
            if (plan && ov < 0) localHolds_ = clipIndex;  // the override writes over a component
        }
        if (ov >= 0) {
            const Transform& base = clip->trackOfNode[ov] >= 0 ? local_[ov] : sk.bindLocalSqt[ov];
            local_[ov] = base;
            local_[ov].rotation = base.rotation * overrideRotation_;
        }
    } else {
        // A still pose: the file's node transforms, or the skins' bind pose.
        const std::vector<Transform>& poseSqt = clipIndex == kFilePose ? sk.bindLocalSqt : sk.bindPoseLocalSqt();
        if (ov >= 0) {
            local_[ov] = poseSqt[ov];
            local_[ov].rotation = local_[ov].rotation * overrideRotation_;
        }
    }
    // Nodes without a sampled pose keep exact matrices: the file's to-parent transforms, or
    // in the bind pose the skins' bind-pose ones.
    if (clip) {
        localToModelSteady(clipIndex, useLocal_.data(), ov, compressed_ && compressed_->clip(clipIndex) ? compressed_ : nullptr);
    } else {
        localToModel(useLocal_.data(), clipIndex == kFilePose ? sk.bindLocal : sk.bindPoseLocal());
    }
    runPostStage();
    updatePalettes(palette, rows, corrections);
}

void Animator::worldRewritten() {
    worldSteady_ = false;
    std::fill(paletteFresh_.begin(), paletteFresh_.end(), uint8_t{0});
}

void Animator::runPostStage() {
    if (!post_) return;
    post_->run(world_);
    worldRewritten();
}

void Animator::localToModel(const uint8_t* useLocal, std::span<const glm::mat4> fixedLocal) {
    const Skeleton& sk = model_->skeleton;
    worldRewritten();
    const size_t n = sk.size();
    LocalToModelJob job;
    job.parent = sk.parent;
    job.local = local_;
    if (useLocal) {
        job.bindLocal = fixedLocal;
        job.useLocal = {useLocal, n};
    }
    job.model = world_;
    if (!order_.empty()) job.order = &order_;
    job.run();  // sizes fixed at construction, parents validated at import
}

const SamplingPlan* Animator::planOf(int32_t clip) const {
    if (clip < 0 || static_cast<size_t>(clip) >= plans_.size() || !plans_[clip].validFor(model_->clips[clip])) return nullptr;
    return &plans_[clip];
}

bool Animator::steadyKeyIs(int32_t clip, const uint8_t* useSqt, int32_t ov, const CompressedClipSet* from) const {
    return clip == steadyClip_ && ov == steadyOverride_ && useSqt == steadyFrom_ && isa::level() == steadyLevel_ &&
           from == steadySet_;
}

void Animator::localToModelSteady(int32_t clip, const uint8_t* useSqt, int32_t ov, const CompressedClipSet* from) {
    const Skeleton& sk = model_->skeleton;
    const SamplingPlan* plan = planOf(clip);
    if (!plan) {
        localToModel(useSqt, sk.bindLocal);
        return;
    }
    const isa::Level level = isa::level();
    if (!steadyKeyIs(clip, useSqt, ov, from)) {
        // Every node's local matrix as the job makes it (each node a root: the same kernel, so
        // the same bits as its own local matrices), then the file's where local_ is not used.
        LocalToModelJob locals;
        locals.parent = roots_;
        locals.local = local_;
        locals.model = steadyLocal_;
        locals.run();
        // Which nodes change: those with a keyed component in the plan (and the override).
        uint8_t* changes = steadyMask_.data();
        std::fill(steadyMask_.begin(), steadyMask_.end(), uint8_t{0});
        for (const auto* list : {&plan->translations, &plan->rotations, &plan->scales}) {
            for (const SamplingPlan::Keyed& k : *list) changes[k.node] = 1;
        }
        if (ov >= 0) changes[ov] = 1;
        for (size_t i = 0; i < sk.size(); ++i) {
            if (!useSqt[i]) {
                changes[i] = 0;
                steadyLocal_[i] = sk.bindLocal[i];
            }
        }
        // Live: a node that changes, or whose parent is live (parents come first).
        uint8_t* live = liveMask_.data();
        for (size_t i = 0; i < sk.size(); ++i) live[i] = changes[i] | (sk.parent[i] >= 0 ? live[sk.parent[i]] : uint8_t{0});
        liveOrder_.assignPartial(order_, live);
        changedOrder_.assignPartial(rootOrder_, changes);
        liveNone_ = std::find(liveMask_.begin(), liveMask_.end(), uint8_t{1}) == liveMask_.end();
        liveRuns_.clear();
        for (size_t k = 0; k < paletteOwners_.size(); ++k) {
            const std::vector<int32_t>& joints = model_->meshes[paletteOwners_[k]].skin.joints;
            for (size_t j = 0; j < joints.size(); ++j) {
                if (!live[joints[j]]) continue;
                if (liveRuns_.size() > 2 * liveRunStart_[k] && liveRuns_[liveRuns_.size() - 2] + liveRuns_.back() == j) {
                    ++liveRuns_.back();
                } else {
                    liveRuns_.push_back(static_cast<uint32_t>(j));
                    liveRuns_.push_back(1);
                }
            }
            liveRunStart_[k + 1] = static_cast<uint32_t>(liveRuns_.size() / 2);
        }
        worldSteady_ = false;
        steadyClip_ = clip;
        steadyLevel_ = level;
        steadyOverride_ = ov;
        steadyFrom_ = useSqt;
        steadySet_ = from;
    }
    if (worldSteady_ && (liveNone_ || !liveOrder_.empty())) {
        // Only the live nodes: the others hold what this key gives them.
        if (liveNone_) return;
        if (2 * changedOrder_.joints().size() > liveOrder_.joints().size()) {
            // Most live nodes change: one masked pass.
            LocalToModelJob job;
            job.parent = sk.parent;
            job.local = local_;
            job.bindLocal = steadyLocal_;
            job.useLocal = steadyMask_;
            job.model = world_;
            job.order = &liveOrder_;
            job.run();
            return;
        }
        // Few change (a still body under a moving root): their local matrices first, over their
        // fixed ones (the mask never reads those), then every live node as a product with a
        // matrix: the same kernels, so the same bits as one masked pass.
        if (!changedOrder_.empty()) {
            LocalToModelJob locals;
            locals.parent = roots_;
            locals.local = local_;
            locals.model = steadyLocal_;
            locals.order = &changedOrder_;
            locals.run();
        }
        LocalToModelJob job;
        job.parent = sk.parent;
        job.bindLocal = steadyLocal_;
        job.model = world_;
        job.order = &liveOrder_;
        job.run();
        return;
    }
    localToModel(steadyMask_.data(), steadyLocal_);
    worldSteady_ = true;
}

bool Animator::usesRigidSlot(const Mesh& mesh) {
    if (!mesh.skinned) return false;
    const uint32_t rigid = mesh.skin.rigidSlot();
    for (size_t v = 0; v < mesh.joints.size(); ++v) {
        const glm::vec4& w = mesh.weights[v];
        if (!(w.x + w.y + w.z + w.w > 0.0f)) return true;
        for (const uint16_t j : mesh.joints[v]) {
            if (j >= rigid) return true;
        }
    }
    return false;
}

namespace {

// c for the mesh node's world matrix `meshWorld`: recomputed only when the matrix changes
// (true then).
bool refreshCorrection(SkinCorrection& c, const glm::mat4& meshWorld) {
    if (std::memcmp(&c.world, &meshWorld, sizeof(glm::mat4)) == 0) return false;
    c.world = meshWorld;
    c.identity = isIdentity(meshWorld);
    c.modelSpace = !c.identity && isRigid(meshWorld);
    c.inverse = c.identity || c.modelSpace ? glm::mat4(1.0f) : safeAffineInverse(meshWorld);
    return true;
}

}  // namespace

void Animator::writePalette(size_t k, size_t first, const glm::mat4* correction, const glm::mat4& rigid, glm::mat4* palette,
                            glm::vec4* rows, bool sparse) const {
    const Mesh& mesh = model_->meshes[paletteOwners_[k]];
    const size_t nj = mesh.skin.joints.size();
    if (sparse && palette) {
        const std::span<const int32_t> joints(mesh.skin.joints);
        const std::span<const glm::mat4> inverseBind(mesh.skin.inverseBind);
        for (uint32_t r = liveRunStart_[k]; r < liveRunStart_[k + 1]; ++r) {
            const uint32_t j = liveRuns_[2 * r], count = liveRuns_[2 * r + 1];
            SkinningMatrixJob job;
            job.model = world_;
            job.joints = joints.subspan(j, count);
            job.range = &jointRanges_[k];
            job.inverseBind = inverseBind.subspan(j, count);
            job.correction = correction;
            job.palette = {palette + first + j, count};
            job.run();
        }
        palette[first + nj] = rigid;
        return;
    }
    SkinningMatrixJob job;
    job.model = world_;
    job.joints = mesh.skin.joints;
    job.inverseBind = mesh.skin.inverseBind;
    job.range = &jointRanges_[k];
    job.correction = correction;
    if (palette) {
        job.palette = {palette + first, nj};
    } else {
        job.rows = {rows + 3 * first, 3 * nj};
    }
    job.run();
    // The entry after the joints (the rigid slot): what unweighted vertices follow.
    if (palette) {
        palette[first + nj] = rigid;
    } else {
        storeAffineRows(rigid, rows + 3 * (first + nj));
    }
}

void Animator::updatePalettes(glm::mat4* palette, glm::vec4* rows, SkinCorrection* corrections) {
    const Model& model = *model_;
    const glm::mat4* world = world_.data();
    // Model space: the mesh node's rigid motion stays out of the palette (the consumers draw
    // with skinToModel, the identity) and the entry is one product. Mesh space: the inverse of
    // a scaled, sheared or singular mesh node's matrix on the left.
    // Into palette_: a slot whose entries it holds from world matrices that only the live
    // nodes changed since, under the same correction, takes its live entries only.
    const bool own = palette && palette == palette_.data();
    auto write = [&](size_t k, const glm::mat4* correction, const glm::mat4& rigid) {
        const uint8_t kind = correction ? 2 : 1;
        const bool sparse = own && paletteFresh_[k] == kind;
        writePalette(k, slotOffset_[k], correction, rigid, palette, rows, sparse);
        if (own) paletteFresh_[k] = kind;
    };
    for (size_t k = 0; k < paletteOwners_.size(); ++k) {
        if (grouped_[k]) continue;
        const glm::mat4& meshWorld = world[model.meshes[paletteOwners_[k]].node];
        SkinCorrection& c = corrections[k];
        if (refreshCorrection(c, meshWorld) && own) paletteFresh_[k] = 0;
        write(k, c.identity || c.modelSpace ? nullptr : &c.inverse, c.modelSpace ? meshWorld : identity_);
    }
    bool allShared = true;
    for (size_t g = 0; g + 1 < groupStart_.size(); ++g) {
        const uint32_t* members = groupMembers_.data() + groupStart_[g];
        const size_t count = groupStart_[g + 1] - groupStart_[g];
        // Shared while no node of the group enters the palette; an instance's rows (no
        // `palette`) stay shared: linear blend skinning is exact in model space.
        bool shared = true;
        for (size_t i = 0; i < count; ++i) {
            SkinCorrection& c = corrections[members[i]];
            if (i > 0 && !palette) break;
            if (refreshCorrection(c, world[model.meshes[paletteOwners_[members[i]]].node]) && own) paletteFresh_[members[i]] = 0;
            shared = shared && (c.identity || c.modelSpace);
        }
        if (!palette) shared = true;
        for (size_t i = 0; i < (shared ? 1 : count); ++i) {
            const uint32_t k = members[i];
            const SkinCorrection& c = corrections[k];
            const bool free = shared || c.identity || c.modelSpace;
            write(k, free ? nullptr : &c.inverse, c.identity ? identity_ : free ? c.world : identity_);
        }
        if (!palette) continue;
        allShared = allShared && shared;
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            const int32_t k = ownerOf_[m];
            if (k >= 0 && leaderOf_[k] == members[0]) paletteOffset_[m] = slotOffset_[shared ? members[0] : k];
        }
    }
    if (palette) paletteInUse_ = allShared ? sharedSize_ : palette_.size();
}

void Animator::evaluatePose(const std::vector<Transform>& local, const std::vector<uint8_t>* animated, int32_t steadyClip,
                            const CompressedClipSet* steadyFrom) {
    const Model& model = *model_;
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    if (local.size() != n) {
        evaluate(-1, 0.0f);
        return;
    }
    localHolds_ = -1;
    const uint8_t* anim = animated && animated->size() == n ? animated->data() : nullptr;
    const int32_t ov = overrideNode_ >= 0 && static_cast<size_t>(overrideNode_) < n ? overrideNode_ : -1;
    const uint8_t* mask = nullptr;
    if (anim) {
        if (ov >= 0 && !anim[ov]) {
            std::copy(anim, anim + n, poseMask_.begin());
            poseMask_[ov] = 1;
            mask = poseMask_.data();
        } else {
            mask = anim;
        }
    }
    if (mask && steadyClip >= 0 && worldSteady_ && steadyKeyIs(steadyClip, mask, ov, steadyFrom)) {
        // The next pass reads local_ on the nodes that change only; the others already hold
        // what the promise says `local` holds there.
        for (const int32_t j : changedOrder_.joints()) local_[j] = local[j];
    } else {
        std::copy(local.begin(), local.end(), local_.begin());
    }
    if (ov >= 0) local_[ov].rotation = local_[ov].rotation * overrideRotation_;
    if (mask && steadyClip >= 0) {
        localToModelSteady(steadyClip, mask, ov, steadyFrom);
    } else {
        localToModel(mask, model_->skeleton.bindLocal);
    }
    runPostStage();
    updatePalettes(palette_.data(), nullptr, corrections_.data());
}

}  // namespace rig
