#include "app/memory_limit.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define RIGVIEW_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIGVIEW_SANITIZED 1
#endif
#endif

namespace rig {

namespace {
uint64_t gLimitMb = 0;
}

uint64_t memoryLimitMb() { return gLimitMb; }

uint64_t applyMemoryLimit() {
#ifdef RIGVIEW_SANITIZED
    return 0;
#else
    uint64_t mb = 0;
    if (const char* env = std::getenv("RIGVIEW_MAX_MEMORY_MB")) {
        mb = std::strtoull(env, nullptr, 10);
    } else {
        const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        const uint64_t physMb = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) >> 20 : 0;
        mb = std::min<uint64_t>(physMb / 2, 8192);
    }
    if (mb == 0) return 0;
    rlimit lim{};
    lim.rlim_cur = lim.rlim_max = static_cast<rlim_t>(mb) << 20;
    if (setrlimit(RLIMIT_DATA, &lim) != 0) return 0;
    gLimitMb = mb;
    return mb;
#endif
}

}  // namespace rig
