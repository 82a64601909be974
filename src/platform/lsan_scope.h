// LeakSanitizer scope: GL drivers (Mesa's, loaded with dlopen) keep allocations until the
// process ends and are unloaded before LeakSanitizer can name them. In sanitizer builds,
// allocations made while setting up or tearing down a GL context are not leak-checked;
// everything else still is. Does nothing in normal builds.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define RIGVIEW_LSAN 1
#endif

namespace rig {

struct LsanIgnoreScope {
#ifdef RIGVIEW_LSAN
    LsanIgnoreScope() { __lsan_disable(); }
    ~LsanIgnoreScope() { __lsan_enable(); }
#endif
    LsanIgnoreScope(const LsanIgnoreScope&) = delete;
    LsanIgnoreScope& operator=(const LsanIgnoreScope&) = delete;
#ifndef RIGVIEW_LSAN
    LsanIgnoreScope() = default;
#endif
};

}  // namespace rig
