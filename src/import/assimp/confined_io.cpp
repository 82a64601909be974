#include "import/assimp/confined_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

#include <assimp/MemoryIOWrapper.h>

#include "util/paths.h"

namespace rig::scene {

namespace {

// SilenceStdio's shared state: how many are alive, and the saved descriptors 1 and 2.
std::mutex& mutex() {
    static std::mutex m;
    return m;
}
int& depth() {
    static int d = 0;
    return d;
}
int* saved() {
    static int fds[2] = {-1, -1};
    return fds;
}

}  // namespace

SilenceStdio::SilenceStdio() {
    std::lock_guard<std::mutex> lock(mutex());
    if (depth()++ > 0) return;
    std::fflush(stdout);
    std::fflush(stderr);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null < 0) return;
    saved()[0] = ::dup(1);
    saved()[1] = ::dup(2);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::close(null);
}

SilenceStdio::~SilenceStdio() {
    std::lock_guard<std::mutex> lock(mutex());
    if (--depth() > 0) return;
    std::fflush(stdout);
    std::fflush(stderr);
    for (int i = 0; i < 2; ++i) {
        if (saved()[i] < 0) continue;
        ::dup2(saved()[i], i + 1);
        ::close(saved()[i]);
        saved()[i] = -1;
    }
}

bool ConfinedIOSystem::Exists(const char* file) const { return file && files_.exists(file); }

Assimp::IOStream* ConfinedIOSystem::Open(const char* file, const char* mode) {
    if (!file || (mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+')))) return nullptr;
    const std::string* bytes = files_.read(file);
    if (!bytes) return nullptr;
    return new Assimp::MemoryIOStream(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size(), /*own=*/false);
}

void confineTextures(Model& model) {
    auto confine = [&](const char*, const TextureRef& tex) {
        const std::string& ref = tex.path;
        if (ref.empty() || ref[0] == '*' || ref.rfind("data:", 0) == 0) return;
        for (const EmbeddedTexture& t : model.textures) {
            if (!t.name.empty() && t.name == ref) return;
        }
        std::vector<std::string> refused;
        if (!paths::resolveResourceFile(model.path, ref, &refused).empty()) return;
        for (const std::string& r : refused) {
            auto& list = model.stats.refusedPaths;
            if (std::find(list.begin(), list.end(), r) == list.end()) list.push_back(r);
        }
    };
    for (const Material& m : model.materials) m.forEachTexture(confine);
}

}  // namespace rig::scene
