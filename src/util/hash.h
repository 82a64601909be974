// FNV-1a over bytes, 64 bits: the cache files' names and checksums (render/environment_cache,
// render/program_cache). Chained: the hash of a run of pieces is fnv1a over each in turn from
// kFnvOffset.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rig {

inline constexpr uint64_t kFnvOffset = 14695981039346656037ull;

inline uint64_t fnv1a(uint64_t h, const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

}  // namespace rig
