#include "support/gunzip.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include <unistd.h>
#include <zlib.h>

namespace rig::testing {

namespace {

std::filesystem::path tempDir() {
    return std::filesystem::temp_directory_path() / ("rigview_ref_" + std::to_string(::getpid()));
}

struct TempCleanup {
    ~TempCleanup() {
        std::error_code ec;
        std::filesystem::remove_all(tempDir(), ec);
    }
} cleanup;

}  // namespace

std::string gunzip(const std::string& gz) {
    const std::filesystem::path dir = tempDir();
    std::filesystem::create_directories(dir);
    const std::string out = (dir / std::filesystem::path(gz).stem()).string();
    gzFile in = gzopen(gz.c_str(), "rb");
    if (!in) return "";
    std::ofstream o(out, std::ios::binary);
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(in, buf, sizeof buf)) > 0) o.write(buf, n);
    gzclose(in);
    return out;
}

}  // namespace rig::testing
