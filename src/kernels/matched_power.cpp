// x ^ k for a whole number k in [3, kMaxMatchedPower] over arrays with the C
// library's exact values: base R computes it as pow(x, k) (see matched_libm.hpp).
//
// x^k is formed by binary powering in double-double arithmetic: a square or a
// product by x takes the high part's product exactly (fma) and rounds only the
// terms below it, about 2^-104 of the value, so after at most 2 log2(k) steps
// hi + lo is x^k to about 2^-100 relative, far inside the library's error. glibc's
// pow is within 0.54 ulp (its own bound; older versions round correctly), hence the
// margin. While |x|^k lies in [2^-900, 2^900] every term stays a normal double.
#include <cmath>

#include "kernels/matched_libm.hpp"
#include "kernels/matched_simd.hpp"

namespace gufunc {
namespace matched {

#ifdef GUFUNC_MATCHED_LIBM
namespace {

constexpr double kPowerMargin = 0.05;  // ulp: the library's 0.04 over 0.5, and ours
constexpr int kPowerRange = 900;       // |x|^k within 2^-900 .. 2^900

// (hi, lo) with |lo| <= ulp(hi) / 2 and hi = fl(hi + lo).
struct DoubleDouble {
  V hi, lo;
};

GUFUNC_AVX2_FMA inline DoubleDouble normalized(V hi, V lo) {
  DoubleDouble r;
  fast_two_sum(hi, lo, r.hi, r.lo);
  return r;
}

// a^2: hi^2 exactly, 2 hi lo rounded, lo^2 (2^-106 of the value) dropped.
GUFUNC_AVX2_FMA inline DoubleDouble square(DoubleDouble a) {
  const V p = _mm256_mul_pd(a.hi, a.hi);
  const V e = _mm256_fmsub_pd(a.hi, a.hi, p);
  return normalized(p, _mm256_fmadd_pd(_mm256_add_pd(a.hi, a.hi), a.lo, e));
}

// a x: hi x exactly, lo x rounded.
GUFUNC_AVX2_FMA inline DoubleDouble times(DoubleDouble a, V x) {
  const V p = _mm256_mul_pd(a.hi, x);
  const V e = _mm256_fmsub_pd(a.hi, x, p);
  return normalized(p, _mm256_fmadd_pd(a.lo, x, e));
}

struct PowerQuad {
  int k;
  double min_arg, max_arg;

  GUFUNC_AVX2_FMA V operator()(V x, V& certain) const {
    const V magnitude = abs_of(x);
    const V in_range = _mm256_and_pd(_mm256_cmp_pd(magnitude, splat(min_arg), _CMP_GE_OQ),
                                     _mm256_cmp_pd(magnitude, splat(max_arg), _CMP_LE_OQ));
    int bit = 31 - __builtin_clz(static_cast<unsigned>(k));
    DoubleDouble a{x, _mm256_setzero_pd()};
    while (--bit >= 0) {  // the same steps in every lane: no data-dependent branch
      a = square(a);
      if (k >> bit & 1) a = times(a, x);
    }
    certain = _mm256_and_pd(in_range, rounding_certain(a.hi, a.lo, kPowerMargin));
    return a.hi;
  }
};

GUFUNC_AVX2_FMA void power_avx2(const double* x, double* y, intptr_t n, int k, ScalarFn fn,
                                unsigned& warn) {
  const int range = kPowerRange / k;
  for_each_quad(x, y, n, fn, warn, PowerQuad{k, std::ldexp(1.0, -range), std::ldexp(1.0, range)});
}

}  // namespace
#endif

void power_array(const double* x, double* y, intptr_t n, int k, ScalarFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (k >= 3 && k <= kMaxMatchedPower && fast_path_available()) {
    return power_avx2(x, y, n, k, fn, warn);
  }
#endif
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], warn);
}

}  // namespace matched
}  // namespace gufunc
