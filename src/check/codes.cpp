#include "check/codes.h"

#include <iterator>

namespace rig {

namespace {

constexpr Severity E = Severity::Error, W = Severity::Warning, I = Severity::Info;
using C = CheckCode;

constexpr CodeInfo kCodes[] = {
    // weights & skin
    {C::WeightsNotNormalized, "weights-not-normalized", W,
     "vertices whose file weights do not sum to 1 (off by more than 0.001); renormalized on import"},
    {C::TooManyInfluences, "too-many-influences", W,
     "vertices with more influences than skinning keeps (4, or 8 with --influences 8); value = the worst truncation error in model units (all influences vs the kept ones, over the bind pose and every clip)"},
    {C::UnweightedVertices, "unweighted-vertices", W, "vertices of a skinned mesh with no weight: they follow the mesh's node rigidly"},
    {C::InvalidWeights, "invalid-weights", E, "NaN, infinite or negative weights, or weights naming no vertex: dropped"},
    {C::BoneMissingFromHierarchy, "bone-missing-from-hierarchy", E, "bones naming no node of the hierarchy: their weights are dropped"},
    {C::OffsetMatrixComputed, "offset-matrix-computed", W, "singular or non-finite offset matrices, replaced by ones computed from the bind pose"},
    {C::BindPoseMismatch, "bind-pose-mismatch", W,
     "offset matrices that disagree with their joints' bind pose, so the mesh renders distorted in it (two skins binding a shared joint in different places); value = the worst displacement in model units"},
    {C::BindPoseMeshAway, "bind-pose-mismatch", I,
     "every weighted joint agrees on one transform other than the mesh node's: the mesh is whole, only placed away from its node (glTF and .X ignore that node, as rigview does); value = that displacement"},
    {C::TooManyJoints, "too-many-joints", E, "more than 65,535 joints in one skin (16-bit joint indices)"},
    {C::TooManyJointsForGpu, "too-many-joints-for-gpu", I,
     "more than 256 joints in one skin: drawn here (texture-buffer palette), too many for engines with a fixed 256-entry uniform palette"},
    {C::Needs32BitIndices, "needs-32-bit-indices", I, "a mesh with more than 65,535 vertices"},
    {C::JointInfluencesNothing, "joint-influences-nothing", I, "skin joints that carry no weight on any vertex of any mesh"},
    // hierarchy, bind pose, resources
    {C::DuplicateNodeNameAmbiguous, "duplicate-node-name", E,
     "a name shared by several nodes and used by a skin bone or a channel, where nothing in the file settles which node is meant"},
    {C::DuplicateNodeNameResolved, "duplicate-node-name", I,
     "the same, settled safely (glTF indices, or one clear winner of the binding rule): names the node chosen"},
    {C::DuplicateNodeNameUnused, "duplicate-node-name", W, "a name shared by several nodes that no bone or channel uses"},
    {C::DegenerateTransform, "degenerate-transform", E,
     "a rig node's bind transform with a (near) zero scale or a singular 3x3: what hangs below it collapses"},
    {C::NonUniformScale, "non-uniform-scale", W,
     "a rig node's bind transform, or a joint's scale keys in a clip, scaled unevenly (largest / smallest axis over 1.001); value = that ratio"},
    {C::NegativeScale, "negative-scale", W, "a rig node's bind transform, or a joint's scale keys in a clip, mirrored (negative determinant)"},
    {C::NonFiniteNodeTransform, "non-finite-node-transform", E, "NaN or infinite values in a node transform"},
    {C::NonFiniteOffsetMatrix, "non-finite-offset-matrix", E, "NaN or infinite values in an offset matrix"},
    {C::NonFiniteVertices, "non-finite-vertices", E, "NaN or infinite vertex positions or normals"},
    {C::MissingTexture, "missing-texture", W,
     "a texture (any slot: base colour, normal, occlusion...) of a used material that is neither embedded nor a file (as written, beside the model, or by its file name); not for IQM and MD5 files, which name materials the game resolves, not texture files"},
    {C::ExternalPathRefused, "external-path-refused", W,
     "files the model refers to (textures, buffers, material libraries) outside its folder: not read (--allow-external-paths reads them)"},
    {C::ExternalPathRefusedUnreadable, "external-path-refused", E, "the same, for a file the model cannot load without: the model is unreadable"},
    // animation
    {C::NonFiniteKeys, "non-finite-keys", E, "animation keys with a NaN or infinite time or value: dropped on import"},
    {C::ChannelMissingNode, "channel-missing-node", W, "animation channels naming no node: skipped"},
    {C::DuplicateChannel, "duplicate-channel", W, "a second channel for one node in one clip: the first is used"},
    {C::ClipWithoutChannels, "clip-without-channels", W, "clips that animate no node of the model"},
    {C::ClipZeroLength, "clip-zero-length", W, "clips whose keys all sit at one time"},
    {C::ClipNoTicksPerSecond, "clip-no-ticks-per-second", I, "clips that give no ticks per second: 25 assumed"},
    {C::KeysOutOfOrder, "keys-out-of-order", W, "channels whose keys are not in time order: sorted on import"},
    {C::DuplicateKeyTimes, "duplicate-key-times", W, "neighbouring keys of a channel at the same time: the curve jumps there"},
    {C::NonUnitRotationKeys, "non-unit-rotation-keys", W, "rotation keys whose length is off 1 by more than 0.00769 (the Khronos glTF validator's bound; glTF: the file's own values, quantized ones dequantized): normalized on import"},
    {C::QuaternionSignFlip, "quaternion-sign-flip", I,
     "neighbouring rotation keys with a negative dot product: a naive lerp goes the long way round (rigview takes the short way)"},
    {C::SuddenRotationJump, "sudden-rotation-jump", W,
     "a joint turning more than 45 degrees between two frames at the clip's sample rate, where the mesh shows it (a turn that leaves a symmetric part looking the same is none; nor is a turn across a gap in the keys between two of a clip's ranges); value = the largest turn in degrees"},
    {C::AnimationExplodes, "animation-explodes", W,
     "a clip that pulls the skeleton apart: at least 3 joints, and a quarter of those below another joint, move away from their parent joint by more than half their bind-pose distance (and 5% of the rig's size), as when an importer applies a joint's transform twice; value = the largest distance over the bind-pose distance"},
    {C::DegenerateScaleKeys, "degenerate-transform", W, "scale keys with a (near) zero axis (often a deliberate hide)"},
    {C::LoopSeam, "loop-seam", W,
     "a clip named as a loop (idle, walk, run, jog, loop, cycle) whose last pose does not lead back into its first, where the mesh shows it (a symmetric part turned onto itself is no seam); root motion is no seam, nor the end of a clip whose keys leave gaps between ranges; value = the worst joint's position jump"},
    {C::LoopSeamUnnamed, "loop-seam", I, "the same for a clip not named as a loop (the viewer loops every clip)"},
    {C::ClipStatic, "clip-static", W, "nothing moves over the whole clip"},
    {C::ClipStaticBindPose, "clip-static", I, "the same, where the one pose is the bind pose (a deliberate rest or T-pose clip)"},
    {C::RedundantKeys, "redundant-keys", I,
     "at least half of a clip's keys (and 32) are restored by their neighbours within 0.01 mm at every joint and vertex; `rigview compress` drops them; value = the redundant fraction"},
    // import and the check command
    {C::RepairedKeys, "repaired-keys", W, "Assimp's validation refused the file for keys past a clip's end: the clip was extended to its last key"},
    {C::RepairedChannels, "repaired-channels", W,
     "Assimp's validation refused the file for empty or missing animation channels: they (and clips left empty) were dropped"},
    {C::BlendNotSupported, "blend-not-supported", E, "a .blend file: Assimp reads no armature or animation from it (export FBX or glTF)"},
    {C::ImporterCrashed, "importer-crashed", E, "the import worker died of a signal or a sanitizer report"},
    {C::ImporterTimeout, "importer-timeout", E, "the import worker was killed at --import-timeout"},
    {C::NonFiniteOutput, "non-finite-output", W, "values of the JSON report that are NaN or infinite, written as null"},
};

constexpr bool rowsInEnumOrder() {
    for (size_t i = 0; i < std::size(kCodes); ++i) {
        if (static_cast<size_t>(kCodes[i].id) != i) return false;
    }
    return true;
}
static_assert(rowsInEnumOrder(), "kCodes: one row per CheckCode, in the enum's order");
static_assert(std::size(kCodes) == static_cast<size_t>(CheckCode::NonFiniteOutput) + 1);

}  // namespace

const char* severityName(Severity s) {
    switch (s) {
        case Severity::Info: return "info";
        case Severity::Warning: return "warning";
        case Severity::Error: return "error";
    }
    return "info";
}

std::span<const CodeInfo> codeTable() { return kCodes; }

const CodeInfo& codeInfo(CheckCode id) { return kCodes[static_cast<size_t>(id)]; }

const CodeInfo* findCode(const std::string& code, Severity severity) {
    for (const CodeInfo& c : kCodes) {
        if (c.severity == severity && code == c.code) return &c;
    }
    return nullptr;
}

Finding makeFinding(CheckCode id, std::string message, uint64_t count, std::string subject,
                    std::vector<int64_t> examples, std::vector<std::string> names) {
    const CodeInfo& c = codeInfo(id);
    return {c.code, c.severity, std::move(message), count, std::move(subject), std::move(examples), std::move(names)};
}

std::string codesMarkdown() {
    std::string out = "| code | severity | meaning |\n|---|---|---|\n";
    for (const CodeInfo& c : kCodes) {
        out += "| `";
        out += c.code;
        out += "` | ";
        out += severityName(c.severity);
        out += " | ";
        out += c.meaning;
        out += " |\n";
    }
    return out;
}

}  // namespace rig
