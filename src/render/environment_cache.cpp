#include "render/environment_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "render/dfg_lut.h"
#include "util/cache_folder.h"
#include "util/hash.h"
#include "util/data_folder.h"

namespace rig {

namespace {

// Changes whenever the prefilter's output would change (its constants, shaders or layout).
constexpr char kMagic[8] = {'R', 'I', 'G', 'E', 'N', 'V', '0', '1'};

size_t expectedBytes(int size, int maxLod) {
    return sizeof(kMagic) + 2 * sizeof(int32_t) + size_t(kDfgLutSize) * kDfgLutSize * 2 * sizeof(float) +
           prefilteredTexelCount(size, maxLod) * sizeof(uint16_t);
}

}  // namespace

size_t prefilteredTexelCount(int size, int maxLod) {
    size_t n = 0;
    for (int level = 0; level <= maxLod; ++level) {
        const size_t s = static_cast<size_t>(std::max(1, size >> level));
        n += 6 * s * s * 4;
    }
    return n;
}

std::string environmentCachePath(int width, int height, const std::vector<uint16_t>& rgbaHalf,
                                 const std::string& prefilterId) {
    const std::string dir = cacheFolder("env");
    if (dir.empty()) return {};
    return (std::filesystem::path(dir) / environmentCacheName(width, height, rgbaHalf, prefilterId)).string();
}

std::string shippedEnvironmentCachePath(int width, int height, const std::vector<uint16_t>& rgbaHalf,
                                        const std::string& prefilterId) {
    if (cacheTurnedOff()) return {};
    const std::string folder = dataFile("env/prefiltered");
    if (folder.empty()) return {};
    return (std::filesystem::path(folder) / environmentCacheName(width, height, rgbaHalf, prefilterId)).string();
}

std::string environmentCacheName(int width, int height, const std::vector<uint16_t>& rgbaHalf,
                                 const std::string& prefilterId) {
    uint64_t h = kFnvOffset;
    h = fnv1a(h, kMagic, sizeof(kMagic));
    h = fnv1a(h, prefilterId.data(), prefilterId.size());
    const int32_t dims[2] = {width, height};
    h = fnv1a(h, dims, sizeof(dims));
    h = fnv1a(h, rgbaHalf.data(), rgbaHalf.size() * sizeof(uint16_t));
    char name[40];
    std::snprintf(name, sizeof(name), "%016llx.bin", static_cast<unsigned long long>(h));
    return name;
}

bool readPrefilteredLevels(const std::string& path, int size, int maxLod, PrefilteredLevels& out) {
    if (path.empty()) return false;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        static_cast<size_t>(st.st_size) != expectedBytes(size, maxLod)) {
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    char magic[sizeof(kMagic)];
    int32_t dims[2];
    if (!in.read(magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) return false;
    if (!in.read(reinterpret_cast<char*>(dims), sizeof(dims)) || dims[0] != size || dims[1] != maxLod) return false;
    out.size = size;
    out.maxLod = maxLod;
    out.dfg.resize(size_t(kDfgLutSize) * kDfgLutSize * 2);
    out.texels.resize(prefilteredTexelCount(size, maxLod));
    if (!in.read(reinterpret_cast<char*>(out.dfg.data()), std::streamsize(out.dfg.size() * sizeof(float)))) return false;
    if (!in.read(reinterpret_cast<char*>(out.texels.data()), std::streamsize(out.texels.size() * sizeof(uint16_t)))) {
        return false;
    }
    for (float v : out.dfg) {
        if (!(v >= 0.0f && v <= 1.5f)) return false;  // a damaged entry: compute again
    }
    return true;
}

bool writePrefilteredLevels(const std::string& path, const PrefilteredLevels& levels) {
    if (path.empty()) return false;
    std::error_code ec;
    const std::filesystem::path target(path);
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) return false;
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        const int32_t dims[2] = {levels.size, levels.maxLod};
        out.write(kMagic, sizeof(kMagic));
        out.write(reinterpret_cast<const char*>(dims), sizeof(dims));
        out.write(reinterpret_cast<const char*>(levels.dfg.data()), std::streamsize(levels.dfg.size() * sizeof(float)));
        out.write(reinterpret_cast<const char*>(levels.texels.data()),
                  std::streamsize(levels.texels.size() * sizeof(uint16_t)));
        out.close();
        if (!out) {
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, target, ec);
    if (ec) std::filesystem::remove(tmp, ec);
    return !ec;
}

}  // namespace rig
