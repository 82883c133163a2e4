// x ^ 3 over arrays with the C library's exact values: base R computes it as
// pow(x, 3) (see matched_libm.hpp).
//
// x^3 is formed without error as a sum of doubles: x x = p + e exactly (fma), p x =
// q + f exactly (fma), and e x, below 2^-104 |x^3|, is rounded once. So q + (f + e x)
// is x^3 to about 2^-50 ulp, and (hi, lo) = fast_two_sum(q, f + e x) knows the
// unrounded cube far inside the library's error. glibc's pow is within 0.54 ulp
// (its own bound; older versions round correctly), hence the margin. For |x| in
// [2^-300, 2^300] every term stays a normal double and x^3 cannot overflow.
#include "kernels/matched_libm.hpp"
#include "kernels/matched_simd.hpp"

namespace gufunc {
namespace matched {

#ifdef GUFUNC_MATCHED_LIBM
namespace {

constexpr double kCubeMargin = 0.05;  // ulp: the library's 0.04 over 0.5, and ours
constexpr double kCubeMinArg = 0x1p-300;
constexpr double kCubeMaxArg = 0x1p300;

struct CubeQuad {
  GUFUNC_AVX2_FMA V operator()(V x, V& certain) const {
    const V magnitude = abs_of(x);
    const V in_range = _mm256_and_pd(_mm256_cmp_pd(magnitude, splat(kCubeMinArg), _CMP_GE_OQ),
                                     _mm256_cmp_pd(magnitude, splat(kCubeMaxArg), _CMP_LE_OQ));
    const V p = _mm256_mul_pd(x, x);
    const V e = _mm256_fmsub_pd(x, x, p);  // x x = p + e
    const V q = _mm256_mul_pd(p, x);
    const V f = _mm256_fmsub_pd(p, x, q);  // p x = q + f
    const V rest = _mm256_add_pd(f, _mm256_mul_pd(e, x));
    V hi, lo;
    fast_two_sum(q, rest, hi, lo);  // |q| > |rest|: rest is about an ulp of q
    certain = _mm256_and_pd(in_range, rounding_certain(hi, lo, kCubeMargin));
    return hi;
  }
};

GUFUNC_AVX2_FMA void cube_avx2(const double* x, double* y, intptr_t n, ScalarFn fn,
                               unsigned& warn) {
  for_each_quad(x, y, n, fn, warn, CubeQuad{});
}

}  // namespace
#endif

void cube_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (fast_path_available()) return cube_avx2(x, y, n, fn, warn);
#endif
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], warn);
}

}  // namespace matched
}  // namespace gufunc
