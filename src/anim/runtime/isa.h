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
// The palette loop and local-to-model have a third form, for AVX-512 (RIG_TARGET_AVX512): a
// whole affine matrix in one register, a product in three multiply-adds (local-to-model makes
// its local matrices from poses as in the AVX2 form, then takes every product this way).
// isa::avx512() picks it where the CPU (and the OS) has AVX-512F, unless RIGVIEW_ISA=avx2 or
// sse2 says otherwise; the other kernels run their AVX2 form there.
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
#define RIG_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
#else
#define RIG_HAVE_AVX2_PATH 0
#define RIG_TARGET_AVX2
#define RIG_TARGET_AVX2_FMA
#define RIG_ALWAYS_INLINE inline
#endif

namespace rig::isa {

// The forms of the kernels, each needing the one before.
enum class Level { Baseline = 0, Avx2 = 1, Avx512 = 2 };

// The form the per-tick kernels run (decided once per process).
Level level();
// Whether they run their AVX2 + FMA form (level() Avx2 or Avx512).
bool avx2();
// Whether the palette loop and local-to-model run their AVX-512 form (level() Avx512).
bool avx512();
// The name of what level() chose: "avx512", "avx2+fma" or "sse2" (or "baseline" off x86-64).
const char* name();
// Whether the CPU could run the AVX2 + FMA form at all; the AVX-512 form.
bool cpuHasAvx2();
bool cpuHasAvx512();
// The forms this CPU can run, Baseline first.
int levelsHere();  // 1, 2 or 3: Level(0) .. Level(levelsHere() - 1)
// Tests and benchmarks: run the baseline form (false) or, where the CPU has it, the AVX2 form
// (true; not the AVX-512 one) from now on, in this process; or any level the CPU has (a
// higher one is taken down to what it has). Not while kernels run on other threads.
void force(bool useAvx2);
void force(Level l);

}  // namespace rig::isa
