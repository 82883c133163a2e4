// Compiler options for the kernel loops; include FIRST in every kernel family file,
// so they also cover the inline helpers (and <cmath>) the loops call.
//
// R builds packages with -O2, where GCC vectorizes little; the kernel loops are the
// hot path, so they ask for the vectorizer. They also allow speculating a floating
// point operation (no-trapping-math: R never reads the FP exception flags, and no
// value changes) and let sqrt skip errno (no-math-errno: R detects domain errors
// from the NaN result). Without these, the NA/NaN selections in the loops stay
// branches and nothing vectorizes. Clang has these defaults already.
#pragma once

// Pragmas cover only what comes after them: catch a file that includes a header
// first (clang-format's include sorting once moved this include down, and the
// comparison loops silently lost vectorization: 5x slower).
#if defined(_GLIBCXX_CMATH) || defined(_GLIBCXX_ALGORITHM)
#error "include kernels/loop_options.hpp before any other header"
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math", \
                     "no-math-errno")
#endif

// Each loop is also compiled for AVX2 and chosen at load time by the CPU it runs on
// (GCC function multiversioning through ifunc: x86-64 Linux). AVX2 has no FMA, and
// every loop is one operation, so results are the same bits on either path.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define GUFUNC_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GUFUNC_SIMD_CLONES
#endif
