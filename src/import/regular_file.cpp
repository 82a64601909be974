#include "import/regular_file.h"
#include "util/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace rig {

Result<bool> checkRegularFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return Error{path + ": no such file"};
        return Error{path + ": " + std::strerror(errno)};
    }
    if (S_ISREG(st.st_mode)) return true;
    if (S_ISDIR(st.st_mode)) return Error{path + ": is a directory, not a model file"};
    return Error{path + ": not a regular file (" + fileKindName(st.st_mode) + ")"};
}

}  // namespace rig
