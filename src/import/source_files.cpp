#include "import/source_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "util/input_file.h"
#include "util/paths.h"

namespace rig {

namespace {

// No bound of its own: a file too large for the import's memory budget fails to be read
// (app/memory_limit) with "out of memory".
constexpr size_t kNoSizeLimit = size_t(1) << 46;

}  // namespace

SourceFiles::SourceFiles(const std::string& model) : model_(model), folder_(paths::modelFolder(model)) {}

std::string SourceFiles::key(const std::string& file) const {
    if (file == model_ || paths::sameFile(file, model_)) return "\n model";
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(file, ec);
    return (ec ? std::filesystem::path(file) : p).lexically_normal().string();
}

bool SourceFiles::allowed(const std::string& file) {
    if (file == model_ || paths::sameFile(file, model_)) return true;
    // Judged as written and with '\\' read as '/' (a Windows path): outside either way is out.
    std::string slashed = file;
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    if (paths::mayRead(folder_, file) && paths::mayRead(folder_, slashed)) return true;
    // A relative name is taken by the OS relative to the working folder. Several importers
    // (LWS, Ogre) try that first and then the model's folder: when the name exists there,
    // that retry succeeds and nothing needs to be reported.
    std::error_code ec;
    const std::filesystem::path beside = std::filesystem::path(folder_) / slashed;
    const bool retried = std::filesystem::path(slashed).is_relative() && paths::isInside(folder_, beside.string()) &&
                         std::filesystem::exists(beside, ec);
    const std::string named = paths::refusedName(file);
    if (!retried && std::find(refused_.begin(), refused_.end(), named) == refused_.end()) refused_.push_back(named);
    return false;
}

const std::string* SourceFiles::read(const std::string& file) {
    const std::string k = key(file);
    if (auto it = bytes_.find(k); it != bytes_.end()) return &it->second;
    if (!allowed(file)) return nullptr;
    std::string bytes, why;
    const InputFileStatus status = readInputFile(k == "\n model" ? model_ : file, kNoSizeLimit, bytes, why);
    if (status != InputFileStatus::Read) {
        if (k == "\n model") error_ = status == InputFileStatus::Missing ? "no such file" : why;
        return nullptr;
    }
    if (k != "\n model" && std::find(opened_.begin(), opened_.end(), k) == opened_.end()) opened_.push_back(k);
    return &bytes_.emplace(k, std::move(bytes)).first->second;
}

bool SourceFiles::exists(const std::string& file) {
    if (bytes_.count(key(file))) return true;
    std::error_code ec;
    return allowed(file) && std::filesystem::is_regular_file(file, ec);
}

void SourceFiles::release(const std::string& file) { bytes_.erase(key(file)); }

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

Error refusedFileError(const std::string& model, const SourceFiles& files) {
    // paths::refusedName: "<file> (<why>)" when the file is inside but not read.
    const std::string& first = files.refused().front();
    const bool why = !first.empty() && first.back() == ')';
    const bool never = first.find(" (not a regular file") != std::string::npos;
    return Error{model + ": refused to read " + first + (why ? "" : ": outside the model's folder") +
                     (never ? "" : " (--allow-external-paths allows it)"),
                 "external-path-refused"};
}

}  // namespace rig
