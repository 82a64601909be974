// A memory budget for the process, so that a file claiming billions of vertices (Assimp's
// OFF reader allocates 15 GB for invalid/OutOfMemory.off) fails cleanly with "out of
// memory" instead of pushing the machine into swap or the OOM killer.
#pragma once

#include <cstdint>

namespace rig {

// Apply the limit: RIGVIEW_MAX_MEMORY_MB if set (0 = none), else half the physical memory,
// at most 8 GiB. Not applied in sanitizer builds (their shadow memory counts against it).
// Returns the limit in MiB, 0 if none.
uint64_t applyMemoryLimit();

// The limit applied, in MiB (0 if none).
uint64_t memoryLimitMb();

}  // namespace rig
