// The prefiltered environment kept on disk: prefiltering an .hdr (render/environment) costs
// about 1.5 CPU-seconds under a software GL, paid by every `rigview render` and every viewer
// start. The result depends only on the image's texels and the prefilter's constants, so it is
// stored once per image in $XDG_CACHE_HOME/rigview/env/ (~/.cache/rigview/env/ without it),
// named by a hash of the texels, and read back by the next load. The cache is only an
// accelerator: a missing, unreadable, unwritable or malformed entry means the levels are
// computed again, never an error. RIGVIEW_NO_CACHE=1 turns it off. An install also ships the
// entry of its studio environment in its data folder (shippedEnvironmentCachePath).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rig {

struct PrefilteredLevels {
    int size = 0;                  // level 0's face size
    int maxLod = 0;                // levels 0..maxLod
    std::vector<float> dfg;        // the DFG table, kDfgLutSize^2 RG pairs
    std::vector<uint16_t> texels;  // half-float RGBA: level by level, face by face (+X -X +Y -Y +Z -Z), rows bottom first
};

// How many half floats the levels of a cube of `size` with levels 0..maxLod hold.
size_t prefilteredTexelCount(int size, int maxLod);

// The cache entry's path for an image of these half-float RGBA texels prefiltered by the
// prefilter `prefilterId` names (its shader sources and constants: a changed prefilter never
// reads an old entry); "" when the cache is off or has no folder.
std::string environmentCachePath(int width, int height, const std::vector<uint16_t>& rgbaHalf,
                                 const std::string& prefilterId);

// The entry's file name for those texels and that prefilter ("<hash>.bin").
std::string environmentCacheName(int width, int height, const std::vector<uint16_t>& rgbaHalf,
                                 const std::string& prefilterId);

// The entry an install ships for its studio environment: env/prefiltered/<name> in the data
// folder (util/data_folder.h), computed at build time (cmake/prefilter_studio.cmake), read
// like the user's cache when that has none and never written; "" when the cache is off or
// there is no data folder. It spares a first start, and a sandboxed thumbnailer with no cache
// folder, the prefilter.
std::string shippedEnvironmentCachePath(int width, int height, const std::vector<uint16_t>& rgbaHalf,
                                        const std::string& prefilterId);

// Read an entry: false unless it is a regular file of exactly the expected layout for `size`
// and `maxLod`.
bool readPrefilteredLevels(const std::string& path, int size, int maxLod, PrefilteredLevels& out);
// Write an entry (through a temporary file renamed into place, so readers never see half of
// one); false when it could not be written (the caller carries on without a cache).
bool writePrefilteredLevels(const std::string& path, const PrefilteredLevels& levels);

}  // namespace rig
