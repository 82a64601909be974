// One glTF 2.0 file as every reading of rigview's sees it during one import: its bytes, read
// from disk once (import/source_files: Assimp reads the same bytes from memory), a .glb split
// once into its JSON and BIN chunks, the JSON parsed once, and each buffer's bytes loaded once,
// on first use, by one loader: the .glb's BIN chunk, a base64 data: URI (one decoder), or a
// file beside the .gltf read through the same SourceFiles (inside the model's folder only).
// The range check (gltf/ranges), the node identities (gltf/nodes), materials, keys, morphs and
// markers all read this one document. Any bytes are safe (the libFuzzer targets
// tests/fuzz/gltf_*_fuzz.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rig {
class SourceFiles;
}

namespace rig::gltf {

// A binary glTF container (.glb) as its header and chunk headers describe it. A file is one by
// its magic ("glTF"), whatever it is called.
struct GlbLayout {
    bool isGlb = false;
    size_t headLength = 0;     // bytes of the 20-byte header (magic, version, length, JSON chunk head) present
    uint32_t version = 0;
    uint64_t claimedEnd = 0;   // the furthest byte the header, the JSON chunk or the BIN chunk claims
    std::optional<std::string_view> json;  // the JSON chunk, when its type is JSON and it is whole
    std::optional<std::string_view> bin;   // the BIN chunk (the buffer with no uri), when whole
};

class Document {
public:
    Document() = default;
    // `bytes` (kept by the caller, which outlives the document: the import's SourceFiles) as
    // glTF: a .glb container by its magic, else JSON text. `files` reads buffers that are files
    // beside the model (none are read without it).
    Document(std::string path, std::string_view bytes, SourceFiles* files = nullptr);
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;
    Document(Document&&) = default;
    Document& operator=(Document&&) = default;

    const std::string& path() const { return path_; }
    std::string_view bytes() const { return bytes_; }
    const GlbLayout& glb() const { return glb_; }
    // The JSON parsed to an object (else the document holds nothing to read).
    bool valid() const { return json_.is_object(); }
    // Whether the JSON text held bytes that are not UTF-8 (names written by tools that do not
    // check): each was parsed as a private-use code point (U+10FF00 + the byte), which
    // restoreBytes() turns back into the byte, so names keep the file's bytes.
    bool hadInvalidUtf8() const { return mappedBytes_; }
    const nlohmann::json& json() const { return json_; }

    // The bytes of buffers[b]: nullptr when there is no such buffer or it cannot be read (a
    // .glb's uri-less buffer 0 without a BIN chunk, a data: URI that is not base64, a file
    // outside the model's folder or missing).
    const std::string_view* buffer(size_t b) const;

private:
    std::string path_;
    std::string_view bytes_;
    SourceFiles* files_ = nullptr;
    GlbLayout glb_;
    nlohmann::json json_;
    mutable std::map<size_t, std::optional<std::string_view>> buffers_;
    mutable std::map<size_t, std::string> decoded_;  // data: URIs
    bool mappedBytes_ = false;
};

// Turn the code points Document maps invalid bytes to (U+10FF00 + byte) back into those bytes.
void restoreBytes(std::string& text);

// The bytes of a base64 text (standard or URL-safe alphabet; padding ends it). False on any
// other character.
bool decodeBase64(std::string_view text, std::string& out);

}  // namespace rig::gltf
