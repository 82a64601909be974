// The codes of rig findings, declared once: a table of {code, severity, meaning} that the
// checks fill every finding's code and severity from (a code cannot be emitted without being
// in it), that `rigview check --list-codes` prints and that README.md carries (a test compares
// them). A code may have a row per severity it comes with (e.g. loop-seam: a warning for a clip
// named as a loop, an info for any other clip).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "check/finding.h"

namespace rig {

// One row of the table each: the checks name a row, never a code string.
enum class CheckCode : uint8_t {
    // weights & skin (one per skinned mesh)
    WeightsNotNormalized,
    TooManyInfluences,
    UnweightedVertices,
    InvalidWeights,
    BoneMissingFromHierarchy,
    OffsetMatrixComputed,
    BindPoseMismatch,
    BindPoseMeshAway,
    TooManyJoints,
    TooManyJointsForGpu,
    Needs32BitIndices,
    JointInfluencesNothing,
    // hierarchy, bind pose, resources (one per model)
    DuplicateNodeNameAmbiguous,
    DuplicateNodeNameResolved,
    DuplicateNodeNameUnused,
    DegenerateTransform,
    NonUniformScale,
    NegativeScale,
    NonFiniteNodeTransform,
    NonFiniteOffsetMatrix,
    NonFiniteVertices,
    MissingTexture,
    ExternalPathRefused,
    ExternalPathRefusedUnreadable,
    // animation (one per model, or per clip)
    NonFiniteKeys,
    ChannelMissingNode,
    DuplicateChannel,
    ClipWithoutChannels,
    ClipZeroLength,
    ClipNoTicksPerSecond,
    KeysOutOfOrder,
    DuplicateKeyTimes,
    NonUnitRotationKeys,
    QuaternionSignFlip,
    SuddenRotationJump,
    AnimationExplodes,
    DegenerateScaleKeys,
    LoopSeam,
    LoopSeamUnnamed,
    ClipStatic,
    ClipStaticBindPose,
    RedundantKeys,
    // import and the check command (one per file)
    RepairedKeys,
    RepairedChannels,
    BlendNotSupported,
    ImporterCrashed,
    ImporterTimeout,
    NonFiniteOutput,
};

struct CodeInfo {
    CheckCode id;
    const char* code;      // stable, kebab-case
    Severity severity;
    const char* meaning;   // one line, no '|'
};

// Every row, in the order of the enum (and of the README's table).
std::span<const CodeInfo> codeTable();
const CodeInfo& codeInfo(CheckCode id);
// The row of `code` at `severity`, or null.
const CodeInfo* findCode(const std::string& code, Severity severity);

// A finding with its code and severity from the table.
Finding makeFinding(CheckCode id, std::string message, uint64_t count, std::string subject,
                    std::vector<int64_t> examples = {}, std::vector<std::string> names = {});

// The table as Markdown: a header row, then "| `code` | severity | meaning |" per row.
std::string codesMarkdown();

}  // namespace rig
