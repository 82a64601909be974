// Model serialization: a whole rig::Model as one compact binary buffer, so an import done in a
// worker process (platform/import_worker) can be handed back to the process that asked for it;
// the worker writes it to its pipe as it is made (writeModel) and the parent decodes it as it
// arrives (receiveModel), neither holding a buffer of the whole. No GL, no Assimp.
//
// Layout: an 8-byte magic "RIGVMDL\0", a u32 format version, a u64 payload size, a u64
// checksum of the payload (payloadChecksum), then the payload: every field of the Model in declaration
// order (numbers in the host's byte order: writer and reader are the same binary; vectors as a
// u64 count followed by their elements). The reader trusts nothing: every count is checked
// against the bytes left before anything is allocated, the checksum must match and the version
// be one it reads (kOldestModelFormatVersion to kModelFormatVersion),
// and the decoded model must pass validateModel (indices in range, arrays of matching sizes),
// so the rest of rigview can use it as it uses a fresh import.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "anim/runtime/model.h"
#include "anim/runtime/result.h"

namespace rig {

inline constexpr uint32_t kModelFormatVersion = 7;  // 2: units, bind pose, name bindings; 3: clip markers;
                                                    // 4: each mesh's second influence set (joints2, weights2);
                                                    // 5: whole materials (every texture slot with its UV set,
                                                    // transform and sampler), meshes' uvs1 and tangents;
                                                    // 6: the checksum over 8-byte words;
                                                    // 7: the decoded textures (Model::images), the files read
// The oldest version deserializeModel reads (a version 3 mesh gets its second influence set
// from its truncated vertices, as import makes it).
inline constexpr uint32_t kOldestModelFormatVersion = 3;

// The model as bytes (header + payload), in the current format or, for tests of the reader, an
// older one it reads (what that format lacks is left out: formats 3 and 4 keep a material's
// base colour and its texture path only, and no uvs1 or tangents).
std::vector<uint8_t> serializeModel(const Model& model, uint32_t version = kModelFormatVersion);

// The model back from `bytes`; an error (never a crash) for anything that is not a buffer
// serializeModel wrote, whole and unchanged.
Result<Model> deserializeModel(std::span<const uint8_t> bytes);

// Where writeModel hands the bytes (a pipe): true when all `n` were taken.
using ModelByteSink = std::function<bool(const void* data, size_t n)>;
// Where receiveModel takes the bytes from as they arrive (a pipe): fills exactly `n` bytes at
// `to`, or returns false when they end (or stop coming) first.
using ModelByteSource = std::function<bool(void* to, size_t n)>;

// serializeModel's bytes (current format) handed to `sink` as they are made, without a buffer
// of the whole: a first pass over the model takes the payload's size and checksum for the
// header. False when the sink refused bytes.
bool writeModel(const Model& model, const ModelByteSink& sink);

// deserializeModel for bytes that arrive: `start` holds those the caller took already (the
// first of the header, say), the rest comes from `source` and is decoded straight into the
// model's arrays. The same checks as deserializeModel, in another order: every count is bounded
// by the payload's stated size and memory grows only as bytes come; the checksum over what came
// is compared once the payload is in, then validateModel.
Result<Model> receiveModel(std::span<const uint8_t> start, const ModelByteSource& source);

// Structural checks the runtime relies on: skeleton arrays of one size with parent[i] < i,
// mesh nodes, materials, triangle indices, skin joints and slots in range, per-vertex arrays as
// long as the positions, clip tracks and key runs inside their arrays. An error names the first
// problem found.
Result<bool> validateModel(const Model& model);

// FNV-1a, 64 bits.
uint64_t fnv1a64(const uint8_t* data, size_t size);

// The header's checksum of a payload in format `version`: FNV-1a-64 of its bytes up to format 5;
// from 6 FNV-1a's step over its 8-byte words (host order), then over its last bytes.
uint64_t payloadChecksum(uint32_t version, const uint8_t* data, size_t size);

}  // namespace rig
