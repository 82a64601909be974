#include "util/paths.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace rig::paths {

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

namespace fs = std::filesystem;

namespace {
std::atomic<bool> gAllowExternal{false};

fs::path resolved(const fs::path& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
    if (ec) r = fs::absolute(p, ec).lexically_normal();
    return r;
}
}  // namespace

void setAllowExternal(bool allow) { gAllowExternal = allow; }
bool allowExternal() { return gAllowExternal; }

std::string modelFolder(const std::string& modelPath) {
    fs::path dir = fs::path(modelPath).parent_path();
    if (dir.empty()) dir = ".";
    return resolved(dir).string();
}

bool isInside(const std::string& folder, const std::string& path) {
    const fs::path f = fs::path(folder).lexically_normal();
    const fs::path p = resolved(path);
    auto fi = f.begin(), pi = p.begin();
    for (; fi != f.end(); ++fi, ++pi) {
        if (fi->empty() && std::next(fi) == f.end()) break;  // trailing separator
        if (pi == p.end() || *fi != *pi) return false;
    }
    return notReadable(path).empty();
}

std::string notReadable(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) return {};
    if (!S_ISREG(st.st_mode)) return "not a regular file, never opened";
    if (st.st_nlink > 1) {
        return "a file with " + std::to_string(st.st_nlink) +
               " hard links counts as outside the folder: its other names may lie anywhere";
    }
    return {};
}

bool mayRead(const std::string& folder, const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return false;
    return allowExternal() || isInside(folder, path);
}

std::string refusedName(const std::string& path) {
    const std::string why = notReadable(path);
    return why.empty() ? path : path + " (" + why + ")";
}

std::string resolveResourceFile(const std::string& modelPath, const std::string& ref, std::vector<std::string>* refused) {
    if (ref.empty()) return {};
    std::string p = ref;
    std::replace(p.begin(), p.end(), '\\', '/');
    const fs::path dir = fs::path(modelPath).parent_path();
    const std::string folder = modelFolder(modelPath);
    std::error_code ec;
    // As written (relative: to the model's folder; with external paths allowed also to the
    // working folder, as before the rule), then by its file name beside the model.
    std::vector<fs::path> cands;
    if (fs::path(p).is_absolute() || allowExternal()) cands.push_back(fs::path(p));
    if (fs::path(p).is_relative()) cands.push_back(dir / p);
    cands.push_back(dir / fs::path(p).filename());
    for (const fs::path& cand : cands) {
        if (cand.filename().empty() || !fs::is_regular_file(cand, ec)) continue;
        if (allowExternal() || isInside(folder, cand.string())) return cand.string();
        if (refused) {
            const std::string r = refusedName(resolved(cand).string());
            if (std::find(refused->begin(), refused->end(), r) == refused->end()) refused->push_back(r);
        }
    }
    return {};
}

bool sameFile(const std::string& output, const std::string& input) {
    struct stat a{}, b{};
    if (::stat(output.c_str(), &a) == 0 && ::stat(input.c_str(), &b) == 0) {
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    }
    return resolved(output) == resolved(input);
}

size_t sameFileAmong(const std::string& output, const std::vector<std::string>& inputs) {
    struct stat out{};
    if (::stat(output.c_str(), &out) != 0) return inputs.size();
    // Threads take blocks of the list; the first match (lowest index) wins.
    std::atomic<size_t> next{0}, found{inputs.size()};
    constexpr size_t kBlock = 4096;
    const auto work = [&] {
        for (size_t start; (start = next.fetch_add(kBlock)) < inputs.size() && start < found.load();) {
            const size_t end = std::min(inputs.size(), start + kBlock);
            for (size_t i = start; i < end; ++i) {
                struct stat in{};
                if (::stat(inputs[i].c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
                    for (size_t seen = found.load(); i < seen && !found.compare_exchange_weak(seen, i);) {
                    }
                    break;
                }
            }
        }
    };
    // Stats wait on the file system (a network one most): up to 8 threads for long lists.
    const size_t threads = std::min<size_t>(8, (inputs.size() + kBlock - 1) / kBlock);
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    return found.load();
}

}  // namespace rig::paths
