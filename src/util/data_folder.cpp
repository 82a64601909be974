#include "util/data_folder.h"

#include <filesystem>
#include <system_error>
#include <vector>

namespace rig {

namespace {

namespace fs = std::filesystem;

struct Search {
    std::string folder;            // the one found, "" if none
    std::vector<fs::path> looked;  // the places tried
    std::string exe;               // the executable they were relative to
};

Search search() {
    Search s;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return s;
    s.exe = exe.string();
    const fs::path dir = exe.parent_path();
    s.looked = {(dir.parent_path() / "share" / "rigview").lexically_normal(), dir / "share" / "rigview"};
    for (const fs::path& p : s.looked) {
        if (fs::is_directory(p, ec)) {
            s.folder = p.string();
            break;
        }
    }
    return s;
}

Search& state() {
    static Search s = search();
    return s;
}

}  // namespace

const std::string& dataFolder() { return state().folder; }

std::string dataFile(const std::string& relative) {
    const std::string& folder = dataFolder();
    return folder.empty() ? std::string() : (fs::path(folder) / relative).string();
}

std::string missingDataFolderMessage() {
    const Search& s = state();
    std::string where;
    for (const fs::path& p : s.looked) where += (where.empty() ? "" : " or ") + p.string();
    if (where.empty()) where = "(the executable's path is unknown)";
    return "rigview's data folder was not found (no " + where + (s.exe.empty() ? "" : " beside " + s.exe) +
           "): install rigview with its data (the .deb, cmake --install or pip install)";
}

void setDataFolder(const std::string& folder) {
    Search& s = state();
    s.looked = {fs::path(folder)};
    s.exe.clear();
    std::error_code ec;
    s.folder = fs::is_directory(folder, ec) ? folder : std::string();
}

}  // namespace rig
