// ASF/AMC import: Acclaim skeleton (.asf) and motion (.amc) files, as in the CMU motion
// capture database (seed 003). Written here: Assimp reads neither.
//
// Conventions (pinned by tests/asf_amc_test.cpp):
// - Euler orders name the axis applied FIRST first, about fixed (global) axes: "XYZ" is
//   Rz * Ry * Rx on column vectors (X applied first); likewise for XZY ... ZYX. A bone's
//   `axis ax ay az XYZ` gives its axis frame C this way; a `dof rx ry rz` line builds the
//   AMC rotation M the same way, in the order the dofs are listed (the first listed rotation
//   is applied first); the root's AMC rotation follows the rotation channels of `:root order`
//   and its `orientation` follows `:root axis`.
// - Nodes sit at joints, where a bone STARTS (like BVH): node "root" at the root position,
//   node <bone> at the end of its parent bone, and for every leaf bone of nonzero length an
//   extra end-site node "<bone>_end" at its end point, so that drawing parent->child lines
//   shows every bone. Node frames are the bones' axis frames: a node's bind world rotation is
//   its bone's C. Hence, with p the parent bone and o_p = direction_p * length_p * multiplier
//   (the parent's offset, in the global frame):
//     bindLocal(bone)  = T(C_p^-1 * o_p) * R(C_p^-1 * C)
//     animated rotation = C_p^-1 * C * M
//   which is the seed's "local rotation = C * M * C^-1" (column vectors) as a world-frame
//   change of the bone: world rotation = (parent's world change) * C M C^-1 * C.
// - Lengths: the `:units length` multiplier scales bone lengths AND translations (root
//   position, AMC root TX TY TZ, bone tx ty tz and l dofs), so that the root moves in the
//   units of the bones. The AMC root translation is added to `:root position` (zero in CMU
//   files), in the global frame. Bone tx/ty/tz are in the bone's axis frame; l stretches
//   the bone along its direction.
// - Angles: degrees unless `:units angle rad`; an AMC's own :DEGREES / :RADIANS line wins.
// - AMC frame k is at (k - first frame) / fps seconds: the first frame is at time 0 (CMU
//   files start at 1, so frame k is at (k - 1) / fps). Bones missing from a frame keep their
//   previous values (0 before their first appearance). Each animated node gets one track:
//   rotation keys as quaternions (sign kept continuous from key to key), translation keys
//   where translations move, all on one shared run of key times.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig {

enum class EulerOrder : uint8_t { XYZ, XZY, YXZ, YZX, ZXY, ZYX };

// "XYZ" ... "ZYX", any case; false for anything else.
bool parseEulerOrder(std::string_view text, EulerOrder& out);
// Rotation by angles.x about X, angles.y about Y and angles.z about Z (radians), the axis
// named first in `order` applied first: XYZ = Rz * Ry * Rx on column vectors.
glm::dquat eulerRotation(const glm::dvec3& angles, EulerOrder order);

// One AMC value of a bone, in the order the file lists them.
enum class AsfDof : uint8_t { RX, RY, RZ, TX, TY, TZ, L };

struct AsfBone {
    std::string name;            // "root" for the root
    int32_t parent = -1;         // index into AsfSkeleton::bones; -1 for the root
    int32_t node = -1;           // skeleton node at the bone's start joint
    int32_t endNode = -1;        // end-site node at its end (leaf bones of nonzero length)
    glm::dvec3 direction{0.0};   // global frame, as in the file
    double length = 0.0;         // file units, before the multiplier
    glm::dquat axis{1.0, 0.0, 0.0, 0.0};  // C: axis frame in the global frame (root: orientation)
    std::vector<AsfDof> dofs;    // AMC value order (root: the channels of :root order)
    int line = 0;                // where the bone is defined
};

struct AsfSkeleton {
    std::string path;
    double mass = 1.0;
    double lengthMultiplier = 1.0;
    bool degrees = true;             // :units angle
    glm::dvec3 rootPosition{0.0};    // file units, before the multiplier
    std::vector<AsfBone> bones;      // [0] is the root; parents before children (node order)
    Skeleton skeleton;               // the frame tree importAsf returns
};

// Limits against absurd inputs.
inline constexpr size_t kMaxAsfBytes = size_t(64) << 20;
inline constexpr size_t kMaxAmcBytes = size_t(1) << 30;
inline constexpr size_t kMaxAsfBones = 10000;
// Frames times values per frame (dofs plus keys) an AMC may produce: at most kMaxAmcValues,
// and at most the larger of kMinAmcBudget and kAmcValuesPerByte per byte of AMC text (frames
// that list no bones carry all values over: a small file must not claim gigabytes).
inline constexpr uint64_t kMaxAmcValues = uint64_t(1) << 26;
inline constexpr uint64_t kMinAmcBudget = uint64_t(1) << 20;
inline constexpr uint64_t kAmcValuesPerByte = 64;

// Parse ASF text; `path` names it in error messages ("path:line: section: what").
Result<AsfSkeleton> parseAsf(std::string_view text, const std::string& path);
// Parse AMC text for `asf` into a clip named after `path`'s stem.
Result<Clip> parseAmc(std::string_view text, const AsfSkeleton& asf, const std::string& path,
                      float framesPerSecond = 120.0f);

// The skeleton only: a Model with the skeleton, no meshes, no clips.
Result<Model> importAsf(const std::string& path);
// One clip driving `skeleton`, which must come from importAsf: the ASF is read again from
// skeleton.path (Model keeps no dof lists) and must still give the same skeleton.
Result<Clip> importAmc(const std::string& path, const Model& skeleton, float framesPerSecond = 120.0f);
// The skeleton with one clip per AMC file, in the order given.
Result<Model> importAsfAmc(const std::string& asfPath, const std::vector<std::string>& amcPaths,
                           float framesPerSecond = 120.0f);
// The CMU naming rule: "dir/01_01.amc" -> "dir/01.asf" (then "dir/01_01.asf"), if it exists;
// "" if none does.
std::string findAsfForAmc(const std::string& amcPath);

}  // namespace rig
