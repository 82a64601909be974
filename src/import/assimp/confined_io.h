// What an Assimp import may touch (internal to import/): stdout and stderr silenced while a file
// is read, every file Assimp opens read once through the import's SourceFiles (confined to the
// model's folder), and textures outside it recorded as refused.
#pragma once

#include <string>
#include <vector>

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>

#include "anim/runtime/model.h"
#include "import/source_files.h"

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

// Every file Assimp opens while importing a model comes from the import's SourceFiles: read from
// disk once (the model, and what it refers to: glTF buffers, OBJ material libraries, MD5
// animations beside the mesh...) and handed to Assimp from memory; only from inside the model's
// folder, unless --allow-external-paths. A path outside is neither opened nor probed; it is
// recorded (external-path-refused). Never writes.
//
// With `releaseModelWhenRead` (for a reader that copies the whole model file before parsing it
// and reads no byte of it again: Assimp's FBX reader), the model's bytes are let go as soon as a
// stream of it has been read to its end while no other stream of it is open, so the file is not
// held twice while Assimp parses it; that stream then reads nothing more, and the import must
// not read the model's bytes from `files` after Assimp.
class ConfinedIOSystem : public Assimp::IOSystem {
public:
    explicit ConfinedIOSystem(SourceFiles& files, bool releaseModelWhenRead = false)
        : files_(files), releaseModel_(releaseModelWhenRead) {}

    bool Exists(const char* file) const override;
    char getOsSeparator() const override { return '/'; }
    Assimp::IOStream* Open(const char* file, const char* mode = "rb") override;
    void Close(Assimp::IOStream* stream) override { delete stream; }

private:
    friend class SourceStream;
    SourceFiles& files_;
    const bool releaseModel_;
    int modelStreams_ = 0;  // streams of the model's bytes open now
};

}  // namespace rig::scene
