// A tiny Acclaim motion-capture pair written for tests: the smallest ASF/AMC files rigview reads.
#pragma once

#include <string>

namespace rig::testing {

// dir/07.asf: a root and one bone "upper" (2 long, straight up, one dof rz, lengths in file
// units, angles in degrees); dir/07_01.amc: two frames, the root at (1, 0, 0) in both, "upper"
// at 0 then at 90 degrees. Named as CMU's files are, so 07_01.amc finds 07.asf beside it.
void writeOneBoneAsfAmc(const std::string& dir);

}  // namespace rig::testing
