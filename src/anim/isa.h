// The instruction set of the per-tick kernels, chosen at run time. Each hot loop (sampling,
// compressed sampling, local-to-model, skinning matrices) is written once as an inline body
// and compiled twice: for the build's baseline (SSE2 on x86-64) and, on x86-64 with GCC or
// Clang, for AVX2 with FMA (RIG_TARGET_AVX2). isa::avx2() picks the second where the CPU has
// both, unless the environment says RIGVIEW_ISA=sse2 (to compare, and to test the baseline on
// a machine that has AVX2). rigview_anim is built with -ffp-contract=off, so the compiler
// fuses no multiply-add by itself: both forms compute the same operations, and so the same
// bits, except where a kernel asks for a fused multiply-add (madd(): one rounding instead of
// two; the local-to-model and palette matrix products), which moves results by float rounding
// only (tested against the baseline within 1e-6 of a model's size).
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RIG_HAVE_AVX2_PATH 1
#define RIG_TARGET_AVX2 __attribute__((target("avx2,fma")))
#if defined(__clang__)
#define RIG_TARGET_AVX2_FMA RIG_TARGET_AVX2
#else
// As RIG_TARGET_AVX2, and the compiler may fuse a*b+c into one multiply-add in it.
#define RIG_TARGET_AVX2_FMA __attribute__((target("avx2,fma"), optimize("fp-contract=fast")))
#endif
#define RIG_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define RIG_HAVE_AVX2_PATH 0
#define RIG_TARGET_AVX2
#define RIG_TARGET_AVX2_FMA
#define RIG_ALWAYS_INLINE inline
#endif

namespace rig::isa {

// Whether the per-tick kernels run their AVX2 + FMA form (decided once per process).
bool avx2();
// The name of what avx2() chose: "avx2+fma" or "sse2" (or "baseline" off x86-64).
const char* name();
// Whether the CPU could run the AVX2 + FMA form at all.
bool cpuHasAvx2();
// Tests and benchmarks: run the baseline form (false) or, where the CPU has it, the AVX2 form
// (true) from now on, in this process. Not while kernels run on other threads.
void force(bool useAvx2);

}  // namespace rig::isa
