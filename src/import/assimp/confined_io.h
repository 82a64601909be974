// What an Assimp import may touch (internal to import/): stdout and stderr silenced while a file
// is read, every file Assimp opens confined to the model's folder, and textures outside it
// recorded as refused.
#pragma once

#include <string>
#include <vector>

#include <assimp/DefaultIOSystem.h>

#include "anim/runtime/model.h"

namespace rig::scene {

// Some of Assimp's parsers (OpenDDL, for one) print straight to stdout/stderr. While any
// file is being read, both descriptors point at /dev/null so that an error stays one line,
// ours. Counted, so that imports on several threads keep the redirect until the last ends.
class SilenceStdio {
public:
    SilenceStdio();
    ~SilenceStdio();
    SilenceStdio(const SilenceStdio&) = delete;
    SilenceStdio& operator=(const SilenceStdio&) = delete;
};

// Every file Assimp opens while importing a model goes through this: the model itself, and
// what it refers to (glTF buffers, OBJ material libraries, MD5 animations beside the mesh...)
// only from inside the model's folder (util/paths.h), unless --allow-external-paths. A path
// outside is neither opened nor probed; it is recorded (external-path-refused). Never writes.
class ConfinedIOSystem : public Assimp::DefaultIOSystem {
public:
    explicit ConfinedIOSystem(const std::string& model);

    bool Exists(const char* file) const override { return allowed(file, "rb") && DefaultIOSystem::Exists(file); }
    Assimp::IOStream* Open(const char* file, const char* mode = "rb") override {
        return allowed(file, mode) ? DefaultIOSystem::Open(file, mode) : nullptr;
    }
    const std::vector<std::string>& refused() const { return refused_; }

private:
    bool allowed(const char* file, const char* mode) const;

    std::string model_, folder_;
    mutable std::vector<std::string> refused_;
};

// Textures of any material slot (Material::forEachTexture) that are files (not embedded) and
// exist only outside the model's folder: not read by anyone (renderer, check), recorded as refused.
void confineTextures(Model& model);

}  // namespace rig::scene
