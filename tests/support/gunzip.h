// Test data committed gzip-compressed (tests/data/blender/*.fbx.gz), unpacked for a test.
#pragma once

#include <string>

namespace rig::testing {

// Unpack `gz` into a temporary folder of this process (removed at exit); returns the path of
// the unpacked file (named as `gz` without ".gz"), or "" if `gz` cannot be read.
std::string gunzip(const std::string& gz);

}  // namespace rig::testing
