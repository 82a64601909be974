// The "schema" field of each JSON output rigview writes (check, diff, info, pose), one place for
// all: "rigview.<command>/<version>", the version bumped when a field changes meaning or goes
// away (new fields keep it). The JSON Schemas are docs/schemas/<command>.schema.json.
#pragma once

namespace rig {

inline constexpr const char* kCheckSchema = "rigview.check/1";
inline constexpr const char* kDiffSchema = "rigview.diff/1";
inline constexpr const char* kInfoSchema = "rigview.info/1";
inline constexpr const char* kPoseSchema = "rigview.pose/1";

}  // namespace rig
