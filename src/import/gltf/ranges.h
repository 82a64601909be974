// A look at a glTF file's accessors and buffer views before Assimp reads it. Assimp 5.2.5 adds
// an accessor's byteOffset to its view's without checking the sum (an offset of 2^64 - 4 reads
// 4 bytes before the buffer), trusts declared lengths and reads any accessor into the element
// its use expects; rigview's own readers do the same arithmetic. Ranges that leave their view or
// buffer, and accessors their use does not allow, are refused at once, naming the accessor.
#pragma once

#include <string>

#include "anim/runtime/result.h"
#include "import/gltf/document.h"

namespace rig::gltf {

// The checks, on the document's JSON (a .gltf's text, or a .glb's JSON chunk):
// - a glTF 2.0 .glb holds the bytes its header's length, its JSON chunk and its BIN chunk
//   claim; a shorter one is refused as "<path>: truncated: 1.2 MB of 3.4 MB" (what it has of
//   what it claims), before Assimp, whose own message for it names no cause;
// - every bufferView lies inside its buffer's declared byteLength (and a .glb's uri-less
//   buffer inside its BIN chunk), with byteStride 4..252 when given;
// - every accessor with a bufferView lies inside it: byteOffset + stride * (count - 1) + the
//   element size <= the view's byteLength; sparse indices and values likewise;
// - offsets, lengths and counts are non-negative integers, indices name existing entries;
// - every accessor's type, componentType and normalized are what glTF 2.0 allows for each of
//   its uses (mesh attributes, indices, morph targets, inverse bind matrices, sampler inputs and
//   outputs), and what Assimp 5.2.5 reads right (it copies an element into a float vector of its
//   own size, leaving the rest of a smaller one uninitialised: normalized integer texture
//   coordinates and weights are refused too).
// A document without JSON passes (Assimp reports it). Nothing is computed that can wrap.
Result<bool> checkRanges(const Document& doc);

}  // namespace rig::gltf
