#include "anim/runtime/isa.h"

#include <cstdlib>
#include <cstring>

namespace rig::isa {

namespace {

bool detectAvx2() {
#if RIG_HAVE_AVX2_PATH
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

bool detectAvx512() {
#if RIG_HAVE_AVX2_PATH
    __builtin_cpu_init();  // its answer counts the OS's saving of the registers (XCR0)
    return cpuHasAvx2() && __builtin_cpu_supports("avx512f");
#else
    return false;
#endif
}

Level best() { return cpuHasAvx512() ? Level::Avx512 : cpuHasAvx2() ? Level::Avx2 : Level::Baseline; }

Level clampToCpu(Level l) { return static_cast<int>(l) < levelsHere() ? l : best(); }

Level fromEnvironment() {
    const char* forced = std::getenv("RIGVIEW_ISA");
    if (forced && std::strcmp(forced, "sse2") == 0) return Level::Baseline;
    if (forced && std::strcmp(forced, "avx2") == 0) return clampToCpu(Level::Avx2);
    return best();
}

Level& chosen() {
    static Level value = fromEnvironment();
    return value;
}

}  // namespace

bool cpuHasAvx2() {
    static const bool has = detectAvx2();
    return has;
}

bool cpuHasAvx512() {
    static const bool has = detectAvx512();
    return has;
}

int levelsHere() { return cpuHasAvx512() ? 3 : cpuHasAvx2() ? 2 : 1; }

Level level() { return chosen(); }
bool avx2() { return chosen() != Level::Baseline; }
bool avx512() { return chosen() == Level::Avx512; }

void force(bool useAvx2) { chosen() = useAvx2 && cpuHasAvx2() ? Level::Avx2 : Level::Baseline; }
void force(Level l) { chosen() = clampToCpu(l); }

const char* name() {
#if RIG_HAVE_AVX2_PATH
    switch (chosen()) {
        case Level::Avx512: return "avx512";
        case Level::Avx2: return "avx2+fma";
        default: return "sse2";
    }
#else
    return "baseline";
#endif
}

}  // namespace rig::isa
