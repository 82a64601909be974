// Animator: one instance's animation state (local pose, model-space matrices, palettes and
// track cursors) for a shared Model. Buffers are sized once at construction; evaluate() is
// the per-tick job: sample -> local->model (one forward loop) -> palette. It allocates
// nothing and looks up no names.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "anim/runtime/clip.h"
#include "anim/runtime/compressed_clip_set.h"
#include "anim/runtime/isa.h"
#include "anim/runtime/local_to_model_job.h"
#include "anim/runtime/skinning_matrix_job.h"
#include "anim/runtime/model.h"

namespace rig {

class IkStage;

// What a palette was last computed from, per distinct skin: the mesh node's world matrix
// (mesh nodes rarely move, so the answers below are recomputed only when it changes), whether
// the palette is in model space (the matrix is a rigid motion), else the matrix's inverse.
struct SkinCorrection {
    glm::mat4 world{0.0f};
    glm::mat4 inverse{1.0f};
    bool identity = false;
    bool modelSpace = false;
};

// One character's state kept outside an Animator, for crowds: the Animator posing it is
// scratch shared by many characters, and only what lasts from tick to tick (track cursors,
// per-skin corrections) and what the tick produces stays per character. The output is rows,
// as a GL texture buffer takes them (SkinningMatrixJob::rows): every palette entry of
// Animator::palette() as the 3 rows of its affine matrix, then for each mesh m the 3 rows of
// skinToModel(m). Sizes: Animator::cursorCount(), skinCount(), instanceRows().
struct InstanceBuffers {
    std::span<uint32_t> cursors;
    std::span<SkinCorrection> skins;
    std::span<glm::vec4> rows;
};

// Clip indices that are poses rather than clips (Animator::evaluate).
inline constexpr int32_t kBindPose = -1;  // the pose the skins were bound in (inverse bind matrices)
inline constexpr int32_t kFilePose = -2;  // the file's default node transforms

// What an Animator is made for. Clips: playing the model's clips (a sampling plan per clip,
// cursors for the longest one: its construction costs in proportion to the clips). PosesOnly:
// posing the model from given local poses (evaluatePose) and nothing per clip, for a tool that
// makes one per clip of a model with thousands (compress's error measurement); evaluate() and
// evaluateInto() of a clip then give the bind pose.
enum class AnimatorUse { Clips, PosesOnly };

class Animator {
public:
    explicit Animator(const Model& model, AnimatorUse use = AnimatorUse::Clips);

    // Pose the model at clip time t (seconds, clip-local; no wrapping here). kFilePose gives
    // the file's default node transforms; kBindPose, or any other clip out of range, gives the
    // bind pose (Skeleton::bindPoseLocal: the skins' bind pose).
    void evaluate(int32_t clip, float t);
    // The same pose as evaluate(clip, t), with the cursors and skin corrections in `out`
    // instead of this Animator's (which keeps only the scratch: local pose and world
    // matrices), and the shared palettes and each mesh's skinToModel() written as out.rows
    // (a group of nodes sharing a skin stays shared in model space there, whatever its nodes'
    // matrices: exact for linear blend skinning, which instances draw with). Cursors
    // are the caller's: zero them when the character's clip changes. No morph weights (the
    // post-process and rotation override apply as in evaluate()). Buffers of the wrong size:
    // nothing is done. Allocates nothing.
    void evaluateInto(int32_t clip, float t, const InstanceBuffers& out);
    size_t cursorCount() const { return cursors_.size(); }
    size_t skinCount() const { return corrections_.size(); }
    // InstanceBuffers::rows: 3 per shared palette entry (sharedPaletteSize()) and per mesh.
    size_t instanceRows() const { return 3 * (sharedSize_ + model_->meshes.size()); }
    // Pose the model from a given local pose (one Transform per skeleton node, e.g. a
    // Controller's blend): local->model (one forward loop) -> palette, the rotation override
    // applied as in evaluate(). Nodes whose `animated` flag is 0 use the file's exact
    // to-parent matrix (as evaluate() does for nodes without a track); nullptr: every node
    // uses `local`. A `local` of the wrong size gives the bind pose. Allocates nothing.
    // `steadyClip`: the caller's promise that `local` is that clip's sample at some time, on
    // every node the clip holds still (no channel that changes: one key, keys all equal, or
    // no track, where `local` holds the bind pose), e.g. a Controller playing one clip with
    // nothing blended in; those nodes' transforms are then read and their local matrices
    // computed once per clip (the same bits), not every tick. -1: no promise. `steadyFrom`:
    // the compressed set the clip was sampled from (null: the plain clip), so the still
    // nodes' matrices follow a switch.
    void evaluatePose(const std::vector<Transform>& local, const std::vector<uint8_t>* animated = nullptr,
                      int32_t steadyClip = -1, const CompressedClipSet* steadyFrom = nullptr);

    // Morph weights only: the meshes' default weights, then `clip`'s morph tracks at time t
    // (clip < 0: defaults only), then the overrides. evaluate() does this itself.
    // Allocates nothing.
    void evaluateMorphs(int32_t clip, float t);
    // Morph weights from outside (a Controller's blend): `weights` holds morphWeights().size()
    // values in its layout; the overrides are applied on top. Allocates nothing.
    void setMorphWeights(const float* weights);
    // Hold morph target `target` of mesh `mesh` at `weight` whatever the clip says (the
    // viewer's sliders); a NaN weight releases it. Out-of-range indices are ignored.
    void setMorphOverride(size_t mesh, size_t target, float weight);
    void clearMorphOverrides();
    // All meshes' morph weights of the last evaluation, concatenated; mesh m's start at
    // morphOffset(m) (morphTargets.size() of them). Empty when no mesh has morph targets.
    const std::vector<float>& morphWeights() const { return morphWeights_; }
    uint32_t morphOffset(size_t mesh) const { return morphOffset_[mesh]; }
    const float* meshMorphWeights(size_t mesh) const { return morphWeights_.data() + morphOffset_[mesh]; }
    float morphOverride(size_t mesh, size_t target) const;

    // Play the clips `set` holds from their compressed form (null: every clip plain): evaluate()
    // samples them through this Animator's CompressedSampler, evaluateInto() through the
    // instance's cursors (sampleCompressedWithCursors: no per-instance cache). Everything after
    // sampling (local->model, post-process, palettes) and the morph weights are as for a plain
    // clip. `set` must be built for this model and outlive its use. Allocates (call at load).
    void setCompressedClips(const CompressedClipSet* set);
    const CompressedClipSet* compressedClips() const { return compressed_; }
    // Bytes this Animator holds to play compressed (its sampler's caches; 0 when plain).
    size_t compressedStateBytes() const { return compressedSampler_.byteSize(); }

    void setRotationBlend(RotationBlend blend) { blend_ = blend; }
    // An extra local rotation for one node, applied after sampling (on the node's own axes):
    // the viewer's range-of-motion test. node < 0 clears it.
    void setRotationOverride(int32_t node, const glm::quat& rotation) {
        overrideNode_ = node;
        overrideRotation_ = rotation;
    }
    RotationBlend rotationBlend() const { return blend_; }
    // A post-process on the model-space pose (inverse kinematics, anim/runtime/ik.h), run by
    // evaluate() and evaluatePose() after local->model and before the palettes; nullptr: none.
    // The stage must outlive its use here and be made for this model's skeleton.
    void setPostProcess(IkStage* stage) { post_ = stage; }
    IkStage* postProcess() const { return post_; }

    const Model& model() const { return *model_; }
    // Model-space (to-root) matrix of every skeleton node, file root's transform included.
    const std::vector<glm::mat4>& world() const { return world_; }
    const std::vector<Transform>& local() const { return local_; }
    // All skins' palettes, concatenated; mesh m's palette starts at paletteOffset(m). Meshes
    // that share a skin (same joints and inverse binds) share one palette: always when they
    // hang from the same node; from different nodes while every one of those nodes is
    // palette-free (the model-space case below, or the identity) and the meshes that join
    // another node's palette have no vertex on the rigid slot (the slot is per node). When a
    // node of such a group is not (scaled, sheared), each node of the group has its own
    // palette that tick, after the shared ones (paletteOffset() then moves). A palette
    // takes a vertex in mesh space to its skinned position in one of two spaces, chosen per
    // skin at every evaluation; skinToModel(m) says which:
    // - model space (skinToModel is the identity) while the mesh node's world matrix is a
    //   rigid motion (rotation and translation): entry = world[joint] * inverseBind, one
    //   product; the rigid slot (the last entry) is the mesh node's world matrix;
    // - mesh space otherwise (scale, shear or a singular mesh node; skinToModel is the mesh
    //   node's world matrix): entry = inverse(meshWorld) * world[joint] * inverseBind; the
    //   rigid slot is the identity.
    // Both give the same model-space vertices and normals (linear, stitched and dual
    // quaternion skinning: a rigid left factor commutes with each).
    const std::vector<glm::mat4>& palette() const { return palette_; }
    uint32_t paletteOffset(size_t mesh) const { return paletteOffset_[mesh]; }
    // The entries of palette() the last evaluation wrote and the meshes use: the shared
    // palettes (sharedPaletteSize()), or all when a group had a palette per node.
    size_t paletteInUse() const { return paletteInUse_; }
    // The palettes with every group shared: the first entries of palette(), and an instance's
    // palette rows (evaluateInto); mesh m's starts at sharedPaletteOffset(m) there.
    size_t sharedPaletteSize() const { return sharedSize_; }
    uint32_t sharedPaletteOffset(size_t mesh) const {
        const int32_t k = ownerOf_[mesh];
        return k >= 0 ? slotOffset_[leaderOf_[k]] : paletteOffset_[mesh];
    }
    // The matrix that takes mesh m's vertices as skinMesh() or the shader leaves them (its
    // palette's output, or the mesh's own vertices when it is not skinned) to model space:
    // what a renderer uses as the mesh's model matrix.
    const glm::mat4& skinToModel(size_t mesh) const {
        const int32_t k = ownerOf_[mesh];
        return k >= 0 && corrections_[k].modelSpace ? identity_ : world_[model_->meshes[mesh].node];
    }
    // Whether mesh m's vertices reach the rigid slot (an unweighted vertex, or a slot naming
    // it): such a mesh keeps its own node's palette.
    static bool usesRigidSlot(const Mesh& mesh);

private:
    // Each distinct skin's palette (see palette()), once per skin, into `palette` (or, when
    // null, as rows into `rows`) with the per-skin cache `corrections` (this Animator's own,
    // or a crowd character's).
    void updatePalettes(glm::mat4* palette, glm::vec4* rows, SkinCorrection* corrections);
    // Slot k's palette (its joints' entries and the rigid slot) at `first` with correction c
    // (null: none, model space or the identity), the rigid slot's entry `rigid`. sparse: only
    // the entries of live joints (liveRuns_) and the rigid slot; the others hold their values.
    void writePalette(size_t k, size_t first, const glm::mat4* correction, const glm::mat4& rigid, glm::mat4* palette,
                      glm::vec4* rows, bool sparse = false) const;
    // evaluate() with the given cursors and outputs; the caller resets cursors on a new clip.
    // `sampler`: this Animator's compressed sampler (evaluate), or null: the cursors sample a
    // compressed clip (evaluateInto).
    void evaluateWith(int32_t clip, float t, uint32_t* cursors, glm::mat4* palette, glm::vec4* rows,
                      SkinCorrection* corrections, CompressedSampler* sampler);
    // The compressed form of `clip` into local_, where compressed_ has one (through `sampler`,
    // else the cursors); false: the caller samples the plain clip.
    bool sampleCompressed(int32_t clip, float t, uint32_t* cursors, CompressedSampler* sampler);
    // world_ written other than by the live-only pass (a full local->model, the post stage):
    // the next steady tick starts over, and every palette slot is written whole.
    void worldRewritten();
    // The post stage (post_, an IkStage) on world_, where there is one.
    void runPostStage();
    // world_ from local_ (LocalToModelJob); useLocal: nullptr, or per node 0 where the
    // file's exact to-parent matrix is used instead of local_.
    void localToModel(const uint8_t* useLocal, std::span<const glm::mat4> fixedLocal);
    // local->model where `plan`'s clip is sampled in local_ and `useSqt` (per node) says which
    // nodes take local_: those the clip holds still take their local matrix, made from local_
    // when (clip, useSqt, override) last changed; the others as localToModel(useSqt, bindLocal).
    void localToModelSteady(int32_t clip, const uint8_t* useSqt, int32_t ov, const CompressedClipSet* from);
    // Whether the steady pass's masks (liveOrder_, changedOrder_, steadyLocal_, ...) were
    // made for these arguments of localToModelSteady and the current instruction set.
    bool steadyKeyIs(int32_t clip, const uint8_t* useSqt, int32_t ov, const CompressedClipSet* from) const;
    // The sampling plan of `clip` where it has a valid one (a model's clip; not PosesOnly).
    const SamplingPlan* planOf(int32_t clip) const;

    const Model* model_;
    IkStage* post_ = nullptr;
    RotationBlend blend_ = RotationBlend::Slerp;
    int32_t lastClip_ = INT32_MIN;
    int32_t overrideNode_ = -1;
    glm::quat overrideRotation_{1.0f, 0.0f, 0.0f, 0.0f};
    JointOrder order_;                   // the skeleton's levels, for local->model
    std::vector<SamplingPlan> plans_;    // per clip of the model (buildSamplingPlan); none for PosesOnly
    bool posesOnly_ = false;             // AnimatorUse::PosesOnly
    const CompressedClipSet* compressed_ = nullptr;  // clips played compressed (null: none)
    CompressedSampler compressedSampler_;
    std::vector<Transform> local_;
    std::vector<glm::mat4> world_;
    std::vector<glm::mat4> palette_;
    std::vector<uint32_t> paletteOffset_;
    // Slots: one per skin and node (the first mesh of each); slots with the same skin form a
    // group, led by its first slot, whose palette (at the leader's offset) the others share
    // while the group's nodes allow it.
    std::vector<size_t> paletteOwners_;  // per slot: its first mesh
    std::vector<int32_t> ownerOf_;       // per mesh: its slot, -1 if none
    std::vector<SkinCorrection> corrections_;  // per slot
    std::vector<JointRange> jointRanges_;      // per slot: its joints' bounds
    std::vector<uint32_t> slotOffset_;   // per slot: its own palette's first entry
    std::vector<uint32_t> leaderOf_;     // per slot: its group's first slot
    std::vector<uint32_t> groupMembers_; // the slots of each group with more than one, leader first
    std::vector<uint32_t> groupStart_;   // per such group: its first entry in groupMembers_ (and one past the last)
    std::vector<uint8_t> grouped_;       // per slot: 1 in a group of more than one slot
    size_t sharedSize_ = 0, paletteInUse_ = 0;
    glm::mat4 identity_{1.0f};
    std::vector<uint8_t> useLocal_;      // evaluate(): per node, 1 where local_ is used
    int32_t maskClip_ = -2, maskOverride_ = -2;  // what useLocal_ was built for
    // The clip whose still components (one-key and steady channels) local_ holds from its last
    // full sample by plan, with nothing written over them since: the next sample of that clip
    // (evaluate, evaluateInto) samples the keyed components only. -1: none.
    int32_t localHolds_ = -1;
    std::vector<uint8_t> poseMask_;      // evaluatePose(): `animated` plus the override
    // localToModelSteady(): per node 1 where local_ changes from tick to tick, and the fixed
    // matrices (the file's, or the still nodes' local matrices), for this key:
    std::vector<uint8_t> steadyMask_;
    std::vector<glm::mat4> steadyLocal_;
    int32_t steadyClip_ = INT32_MIN, steadyOverride_ = -2;
    const uint8_t* steadyFrom_ = nullptr;
    const CompressedClipSet* steadySet_ = nullptr;
    isa::Level steadyLevel_ = isa::Level::Baseline;
    // The nodes whose model matrix can change under this key: those that change and their
    // descendants (level order; empty: none). The others' world_ entries stay as the key's
    // first full local->model left them while worldSteady_ (cleared by any other writer of
    // world_: a plain localToModel, the post stage).
    JointOrder liveOrder_;
    std::vector<uint8_t> liveMask_;
    bool worldSteady_ = false, liveNone_ = false;
    // Palette entries that can change under the key: per slot, runs (first entry, count) of
    // its joints that are live, slot k's at liveRuns_[2 * liveRunStart_[k] ...]. And per slot,
    // what palette_ holds of it: 0 nothing known; 1 + (a correction was applied): its entries
    // as last written, from world matrices that no full local->model has changed since
    // (cleared by each writer of world_ but the live-only pass), so that only its live entries
    // need writing while its correction stays.
    std::vector<uint32_t> liveRuns_, liveRunStart_;
    std::vector<uint8_t> paletteFresh_;
    std::vector<int32_t> roots_;  // -1 per node: local->model of each node alone (its local matrix)
    JointOrder rootOrder_;        // roots_'s order (every node)
    // The nodes whose local matrix changes under the key (localToModelSteady's mask), in
    // rootOrder_: their local matrices are made into steadyLocal_ every tick.
    JointOrder changedOrder_;
    std::vector<uint32_t> cursors_;
    std::vector<float> morphWeights_, morphOverride_;  // override: NaN where none
    std::vector<uint32_t> morphOffset_;
    std::vector<uint32_t> morphCursors_;               // one per morph track of a clip
    int32_t lastMorphClip_ = -2;
};

// Every mesh's morph weights for `clip` at clip time t, concatenated in mesh order (the
// layout of Animator::morphWeights): the meshes' default weights, then the clip's morph
// tracks (clip < 0 or out of range: defaults only). `cursors`: one per morph track of the
// clip, any values (a good guess makes sequential sampling O(1)). No overrides; allocates
// nothing. Relies on Clip::morphTracks being sorted by mesh.
void sampleMorphWeights(const Model& model, int32_t clip, float t, uint32_t* cursors, float* out);
// The number of morph weights of the model: all meshes' targets.
size_t morphWeightCount(const Model& model);

// Inverse of an affine matrix; identity when it is singular or not finite.
glm::mat4 safeAffineInverse(const glm::mat4& m);

}  // namespace rig
