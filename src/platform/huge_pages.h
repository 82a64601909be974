// Large buffers filled in one go (a model received from the import worker and decoded into its
// arrays) ask the kernel for transparent huge pages, where it offers them on request
// (/sys/kernel/mm/transparent_hugepage/enabled "madvise" or "always"): one page fault per 2 MiB
// instead of per 4 KiB. On a 1M-vertex model the faults of 4 KiB pages cost as much as the
// copying itself (docs/performance.md). Elsewhere, or for small buffers, nothing changes.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rig {

// Reserve room for `n` elements in an empty `v`, advised as huge pages when it is at least 4 MiB
// (the whole 2 MiB pages inside it; the rest is left as it is).
template <class T>
void reserveHugePages(std::vector<T>& v, size_t n) {
    v.reserve(n);
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    if (n * sizeof(T) < 2 * kHuge) return;
#ifdef MADV_HUGEPAGE
    const auto begin = (reinterpret_cast<uintptr_t>(v.data()) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<uintptr_t>(v.data()) + n * sizeof(T)) & ~(kHuge - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace rig
