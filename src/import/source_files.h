// The files one import reads: the model file and what it names (glTF buffers, OBJ material
// libraries, MD5 animations beside the mesh...). Each is read from disk once and kept for the
// import, so every reader of it (the range check, Assimp, rigview's own glTF passes) sees the
// same bytes without opening it again. Only regular files are read, and besides the model only
// files inside the model's folder (util/paths.h; --allow-external-paths lifts that rule); a
// file outside is neither opened nor probed but recorded as refused (external-path-refused).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig {

class SourceFiles {
public:
    explicit SourceFiles(const std::string& model);
    SourceFiles(const SourceFiles&) = delete;
    SourceFiles& operator=(const SourceFiles&) = delete;

    // The bytes of `file` (the model, or a path as a reader names it: absolute, or relative to
    // the working folder), read on first use; nullptr when it is refused (recorded), missing or
    // unreadable (`error()` says why for the model itself). The bytes stay valid until the
    // SourceFiles is destroyed or the file is released.
    const std::string* read(const std::string& file);
    // Whether `file` may be read and exists (without reading it).
    bool exists(const std::string& file);
    // Drop a file's bytes once no reader needs them (read() then reads it again).
    void release(const std::string& file);

    const std::string& model() const { return model_; }
    const std::string& folder() const { return folder_; }
    // Files refused, as paths::refusedName gives them ("<file> (<why>)" for one inside that is
    // not read), each once.
    const std::vector<std::string>& refused() const { return refused_; }
    // Every file besides the model read so far, as first named, each once.
    const std::vector<std::string>& opened() const { return opened_; }
    // Why the last read of the model failed ("no such file", "not a regular file (a device)").
    const std::string& error() const { return error_; }

private:
    bool allowed(const std::string& file);
    std::string key(const std::string& file) const;

    std::string model_, folder_;
    std::map<std::string, std::string> bytes_;  // by key(): the files read
    std::vector<std::string> refused_;
    std::vector<std::string> opened_;
    std::string error_;
};

// Textures of any material slot (Material::forEachTexture) that are files (not embedded) and
// exist only outside the model's folder: not read by anyone (renderer, check), recorded as refused.
void confineTextures(Model& model);

// The error of an import that stopped at a refused file: the first of `files.refused()`, why,
// and how to allow it where it can be allowed (external-path-refused).
Error refusedFileError(const std::string& model, const SourceFiles& files);

}  // namespace rig
