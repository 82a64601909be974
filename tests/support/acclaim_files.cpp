#include "support/acclaim_files.h"

#include <fstream>

namespace rig::testing {

void writeOneBoneAsfAmc(const std::string& dir) {
    std::ofstream(dir + "/07.asf") << ":version 1.10\n:name VICON\n:units\n  mass 1.0\n  length 1\n  angle deg\n"
                                      ":root\n   order TX TY TZ RX RY RZ\n   axis XYZ\n   position 0 0 0\n   orientation 0 0 0\n"
                                      ":bonedata\n  begin\n     id 1\n     name upper\n     direction 0 1 0\n     length 2\n"
                                      "     axis 0 0 0  XYZ\n    dof rz\n  end\n:hierarchy\n  begin\n    root upper\n  end\n";
    std::ofstream(dir + "/07_01.amc") << ":FULLY-SPECIFIED\n:DEGREES\n1\nroot 1 0 0 0 0 0\nupper 0\n2\nroot 1 0 0 0 0 0\nupper 90\n";
}

}  // namespace rig::testing
