// x ^ y over arrays with the C library's exact values, for y = m / 2 with m a whole
// number, |y| <= kMaxMatchedPower, y not 0, 1 or 2: base R computes x ^ y as
// pow(x, y) (see matched_libm.hpp).
//
// x^y is formed in double-double arithmetic: x^|k| (k the whole part of y) by
// binary powering, times sqrt(x) for a half, and its reciprocal for y < 0. Each
// step takes the high parts' product exactly (fma) and rounds only the terms below
// it, about 2^-104 of the value; the square root's and the reciprocal's residuals
// are exact with fma too. After at most 2 log2(|y|) + 3 steps hi + lo is x^y to
// about 2^-100 relative, far inside the library's error. glibc's pow is within
// 0.54 ulp (its own bound; older versions round correctly), hence the margin. While
// x and |x|^|y| lie in [2^-900, 2^900] every term stays a normal double.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "kernels/matched_libm.hpp"
#include "kernels/matched_simd.hpp"

namespace gufunc {
namespace matched {

int matched_power_halves(double y) {
  if (!(std::fabs(y) <= kMaxMatchedPower)) return 0;  // NaN too
  const double m = 2 * y;
  if (m != std::floor(m) || m == 0 || m == 2 || m == 4) return 0;
  return static_cast<int>(m);
}

#ifdef GUFUNC_MATCHED_LIBM
namespace {

constexpr double kPowerMargin = 0.05;  // ulp: the library's 0.04 over 0.5, and ours
constexpr int kPowerRange = 900;       // |x|^|y| within 2^-900 .. 2^900

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

// a b: hi hi exactly, the cross terms rounded, lo lo dropped.
GUFUNC_AVX2_FMA inline DoubleDouble times(DoubleDouble a, DoubleDouble b) {
  const V p = _mm256_mul_pd(a.hi, b.hi);
  const V e = _mm256_fmsub_pd(a.hi, b.hi, p);
  return normalized(p, _mm256_fmadd_pd(a.hi, b.lo, _mm256_fmadd_pd(a.lo, b.hi, e)));
}

// sqrt(x) for x > 0: s = RN(sqrt(x)) and x - s^2 exactly (fma), so sqrt(x) =
// s + (x - s^2) / (2 s) up to 2^-107 relative.
GUFUNC_AVX2_FMA inline DoubleDouble square_root(V x) {
  const V s = _mm256_sqrt_pd(x);
  const V residual = _mm256_fnmadd_pd(s, s, x);
  return normalized(s, _mm256_div_pd(residual, _mm256_add_pd(s, s)));
}

// 1 / a: q = RN(1 / hi) and 1 - q hi exactly (fma), so 1 / a = q + q (1 - q hi -
// q lo) up to 2^-104 relative.
GUFUNC_AVX2_FMA inline DoubleDouble reciprocal(DoubleDouble a) {
  const V q = _mm256_div_pd(splat(1.0), a.hi);
  const V residual = _mm256_fnmadd_pd(q, a.hi, splat(1.0));
  return normalized(q, _mm256_mul_pd(q, _mm256_fnmadd_pd(q, a.lo, residual)));
}

struct PowerQuad {
  int halves;  // 2 y
  double min_arg, max_arg;

  GUFUNC_AVX2_FMA V operator()(V x, V& certain) const {
    const V magnitude = abs_of(x);
    V usable = _mm256_and_pd(_mm256_cmp_pd(magnitude, splat(min_arg), _CMP_GE_OQ),
                             _mm256_cmp_pd(magnitude, splat(max_arg), _CMP_LE_OQ));
    const int whole = std::abs(halves) / 2;
    DoubleDouble a{x, _mm256_setzero_pd()};
    if (whole > 0) {  // the same steps in every lane: no data-dependent branch
      for (int bit = 30 - __builtin_clz(static_cast<unsigned>(whole)); bit >= 0; --bit) {
        a = square(a);
        if (whole >> bit & 1) a = times(a, x);
      }
    }
    if (halves % 2 != 0) {  // a half: negative x gives NaN, which pow() returns
      usable = _mm256_and_pd(usable, _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GT_OQ));
      const DoubleDouble root = square_root(magnitude);
      a = whole > 0 ? times(a, root) : root;
    }
    if (halves < 0) a = reciprocal(a);
    certain = _mm256_and_pd(usable, rounding_certain(a.hi, a.lo, kPowerMargin));
    return a.hi;
  }
};

GUFUNC_AVX2_FMA void power_avx2(const double* x, double* y, intptr_t n, int halves, PowerFn fn,
                                unsigned& warn) {
  // x itself stays in the range too: a square root's residual is 2^-53 of x.
  const int range = std::min(2 * kPowerRange / std::abs(halves), kPowerRange);
  const double exponent = halves / 2.0;
  for_each_quad(
      x, y, n, [fn, exponent](double v, unsigned& w) { return fn(v, exponent, w); }, warn,
      PowerQuad{halves, std::ldexp(1.0, -range), std::ldexp(1.0, range)});
}

}  // namespace
#endif

void power_array(const double* x, double* y, intptr_t n, int halves, PowerFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (halves != 0 && fast_path_available()) return power_avx2(x, y, n, halves, fn, warn);
#endif
  const double exponent = halves / 2.0;
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], exponent, warn);
}

}  // namespace matched
}  // namespace gufunc
