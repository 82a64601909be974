#include "import/assimp/confined_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

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

ConfinedIOSystem::ConfinedIOSystem(const std::string& model) : model_(model), folder_(paths::modelFolder(model)) {}

bool ConfinedIOSystem::allowed(const char* file, const char* mode) const {
    if (!file) return false;
    const std::string f = file;
    const bool write = mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+'));
    // Judged as written and with '\\' read as '/' (a Windows path): outside either way is out.
    std::string slashed = f;
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    if (!write && (f == model_ || paths::sameFile(f, model_) ||
                   (paths::mayRead(folder_, f) && paths::mayRead(folder_, slashed)))) {
        return true;
    }
    // A relative name is taken by the OS relative to the working folder. Several importers
    // (LWS, Ogre) try that first and then the model's folder: when the name exists there,
    // that retry succeeds and nothing needs to be reported.
    std::error_code ec;
    const std::filesystem::path beside = std::filesystem::path(folder_) / slashed;
    const bool retried = std::filesystem::path(slashed).is_relative() && paths::isInside(folder_, beside.string()) &&
                         std::filesystem::exists(beside, ec);
    const std::string named = paths::refusedName(f);
    if (!retried && std::find(refused_.begin(), refused_.end(), named) == refused_.end()) refused_.push_back(named);
    return false;
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
