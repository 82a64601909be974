// Reading a glTF document's JSON and accessors as rigview's own passes do (internal to
// import/gltf): every value from a stranger's file, so a member of the wrong type reads as
// absent and an element outside its buffer as unreadable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "import/gltf/document.h"

namespace rig::gltf {

using nlohmann::json;

// The member `key` of the document's JSON when it is an array, else nullptr (also for a
// document without JSON).
const json* arrayMember(const Document& doc, const char* key);

// An unsigned member of a JSON object, or `fallback` when absent or of another type.
size_t unsignedOr(const json& o, const char* key, size_t fallback);

// The name Assimp gives glTF node n: its "name", or "nodes[n]" when it has none.
std::string nodeName(const json& nodes, size_t n);

// The first component of accessor `accessor`'s "min" or "max" (`key`), or 0.
float accessorBound(const json& doc, const json& accessor, const char* key);
// Accessor `accessor`'s count, or 0.
uint32_t accessorCount(const json& doc, const json& accessor);

// The bytes of element `index` (n components) of an accessor, or nullptr when it cannot be
// read; `componentType` receives the accessor's.
const char* elementBytes(const Document& doc, const json& accessor, size_t index, int n, size_t& componentType);
// Element `index` of a FLOAT accessor with `n` components; false if it cannot be read.
bool readFloats(const Document& doc, const json& accessor, size_t index, int n, float* out);
// Element `index` of a VEC4 rotation accessor: FLOAT, or normalized BYTE / SHORT / UNSIGNED_BYTE /
// UNSIGNED_SHORT (glTF's quantized rotations: c / 127 or c / 32767, at least -1; c / 255 or
// c / 65535), as (x, y, z, w).
bool readRotation(const Document& doc, const json& accessor, size_t index, float* out);
// A SCALAR accessor as floats (float, or normalized integer components as glTF defines them).
// False for sparse accessors, other types or data out of bounds.
bool readScalars(const Document& doc, size_t index, std::vector<float>& out);

// An accessor resolved once for reading all of its elements: where its bytes are, their layout,
// and its sparse substitution. Every offset and length was checked against the buffer actually
// loaded (the range check before it checks them against the declared lengths).
struct AccessorData {
    size_t count = 0;          // elements
    int components = 0;        // per element: 1 (SCALAR) to 16 (MAT4)
    size_t componentType = 0;  // 5120..5126
    size_t componentSize = 0;
    bool normalized = false;
    const char* base = nullptr;  // the first element; nullptr: no bufferView (all zeros)
    size_t stride = 0;
    // Sparse: `sparseCount` indices (of `sparseIndexType`) and their values, packed.
    size_t sparseCount = 0;
    size_t sparseIndexType = 0;
    const char* sparseIndices = nullptr;
    const char* sparseValues = nullptr;
};

// Resolve accessors[index]; false when it is missing, malformed or its bytes are not all in
// their (loaded) buffer.
bool resolveAccessor(const Document& doc, size_t index, AccessorData& out);

// Every element of `acc` as `n` floats (n <= acc.components; the rest of each element is
// skipped): FLOAT copied, normalized integers as glTF defines them, other integers converted.
// `out` holds acc.count * n floats.
void decodeFloats(const AccessorData& acc, int n, float* out);
// Every element's first `n` components as unsigned integers (indices, joints); `out` holds
// acc.count * n values. Components of FLOAT accessors are converted (negative: 0).
void decodeUints(const AccessorData& acc, int n, uint32_t* out);
// The same for elements [first, first + count) only (first + count <= acc.count): `out` holds
// count * n values.
void decodeFloats(const AccessorData& acc, int n, float* out, size_t first, size_t count);
void decodeUints(const AccessorData& acc, int n, uint32_t* out, size_t first, size_t count);

// Calls each(clip, channel, sampler) for every channel of every animation whose sampler exists
// (both JSON objects), then done(clip) after each animation, when the file has as many
// animations as the model has clips (Assimp's clips, in file order). Returns false otherwise.
template <class Each, class Done>
bool forEachChannel(const json& doc, Model& model, Each&& each, Done&& done) {
    const auto anims = doc.find("animations");
    if (anims == doc.end() || !anims->is_array() || anims->size() != model.clips.size()) return false;
    for (size_t a = 0; a < anims->size(); ++a) {
        const json& an = (*anims)[a];
        if (!an.is_object() || !an.contains("channels") || !an.contains("samplers")) continue;
        const json& channels = an["channels"];
        const json& samplers = an["samplers"];
        if (!channels.is_array() || !samplers.is_array()) continue;
        Clip& clip = model.clips[a];
        for (const json& ch : channels) {
            const size_t s = unsignedOr(ch, "sampler", SIZE_MAX);
            if (s < samplers.size() && samplers[s].is_object()) each(clip, ch, samplers[s]);
        }
        done(clip);
    }
    return true;
}

}  // namespace rig::gltf
