#include "anim/isa.h"

#include <cstdlib>
#include <cstring>

namespace rig::isa {

namespace {

bool detectCpu() {
#if RIG_HAVE_AVX2_PATH
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

bool fromEnvironment() {
    const char* forced = std::getenv("RIGVIEW_ISA");
    return !(forced && std::strcmp(forced, "sse2") == 0) && cpuHasAvx2();
}

bool& chosen() {
    static bool value = fromEnvironment();
    return value;
}

}  // namespace

bool cpuHasAvx2() {
    static const bool has = detectCpu();
    return has;
}

bool avx2() { return chosen(); }

void force(bool useAvx2) { chosen() = useAvx2 && cpuHasAvx2(); }

const char* name() {
#if RIG_HAVE_AVX2_PATH
    return avx2() ? "avx2+fma" : "sse2";
#else
    return "baseline";
#endif
}

}  // namespace rig::isa
