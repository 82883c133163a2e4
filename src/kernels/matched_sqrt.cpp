// sqrt over arrays, four at a time. The square root is IEEE's correctly rounded one
// in every library, the same bits as the scalar instruction; what this adds is the
// vector loop: GCC keeps a scalar sqrt with its errno check in the kernel loops
// (`#pragma GCC optimize("no-math-errno")` does not reach the builtin), so
// unary_loop<Math1<sqrt_>> never vectorized (sqrt was a fifth of n-body's forces).
// Lanes whose result is NaN (a NaN or negative input) go to the scalar function,
// for R's NaN rules and warning.
#include "kernels/matched_libm.hpp"
#include "kernels/matched_simd.hpp"

namespace gufunc {
namespace matched {

#ifdef GUFUNC_MATCHED_LIBM
namespace {

struct SqrtQuad {
  GUFUNC_AVX2_FMA V operator()(V x, V& certain) const {
    const V root = _mm256_sqrt_pd(x);
    certain = _mm256_cmp_pd(root, root, _CMP_ORD_Q);
    return root;
  }
};

GUFUNC_AVX2_FMA void sqrt_avx2(const double* x, double* y, intptr_t n, ScalarFn fn,
                               unsigned& warn) {
  for_each_quad(x, y, n, fn, warn, SqrtQuad{});
}

}  // namespace
#endif

void sqrt_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (fast_path_available()) return sqrt_avx2(x, y, n, fn, warn);
#endif
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], warn);
}

}  // namespace matched
}  // namespace gufunc
