// exp over arrays with the C library's exact values (see matched_libm.hpp).
//
// x = (8 m + j) ln2/8 + r with |r| <= ln2/16, so exp(x) = 2^m 2^(j/8) e^r, where
// 2^(j/8) = Th + Tl (table) and e^r = 1 + r + r^2 q(r), q of degree 7 (truncation
// below 2^-66). r is kept as rh + rl to about 2^-80 and Th rh is formed exactly with
// fma, so exp(x)/2^m = Th + Th rh + [Th rh^2 q + Tl + Th rl (1 + rh)]; the bracket
// is below 2^-9 and its rounding below 2^-61 relative: 0.01 ulp. glibc's exp is
// within 0.511 ulp, hence the margin.
#include "kernels/matched_libm.hpp"
#include "kernels/matched_libm_tables.hpp"
#include "kernels/matched_simd.hpp"

namespace gufunc {
namespace matched {

#ifdef GUFUNC_MATCHED_LIBM
namespace {

constexpr double kExpMargin = 0.04;  // ulp: our error bound 0.01 + library excess 0.03
constexpr double kExpMaxArg = 700;   // results stay normal, 2^m stays a normal double

struct ExpQuad {
  Table8 hi_table, lo_table;

  GUFUNC_AVX2_FMA V operator()(V x_in, V& certain) const {
    const V in_range = _mm256_cmp_pd(abs_of(x_in), splat(kExpMaxArg), _CMP_LE_OQ);
    // Other lanes compute garbage but read only the 8-entry tables; they are redone.
    const V x = x_in;
    const Rounded k = round_scaled(x, kEightOverLn2);
    // r = x - k (hi + lo): k * hi is exact and cancels exactly; rl recovers what
    // the rounding of rh dropped.
    const V t = _mm256_fnmadd_pd(k.value, splat(kLn2Over8Hi), x);
    const V rh = _mm256_fnmadd_pd(k.value, splat(kLn2Over8Lo), t);
    const V rl = _mm256_fnmadd_pd(k.value, splat(kLn2Over8Lo), _mm256_sub_pd(t, rh));

    // q by Estrin's scheme: the chains of dependent operations stay short, which is
    // what limits this loop (measured), not the number of operations.
    const V r2 = _mm256_mul_pd(rh, rh);
    const V r4 = _mm256_mul_pd(r2, r2);
    const V q01 = _mm256_fmadd_pd(rh, splat(1.0 / 6), splat(0.5));
    const V q23 = _mm256_fmadd_pd(rh, splat(1.0 / 120), splat(1.0 / 24));
    const V q45 = _mm256_fmadd_pd(rh, splat(1.0 / 5040), splat(1.0 / 720));
    const V q67 = _mm256_fmadd_pd(rh, splat(1.0 / 362880), splat(1.0 / 40320));
    const V q03 = _mm256_fmadd_pd(r2, q23, q01);
    const V q47 = _mm256_fmadd_pd(r2, q67, q45);
    const V q = _mm256_fmadd_pd(r4, q47, q03);
    const V rh2q = _mm256_mul_pd(r2, q);

    const __m256i j = _mm256_and_si256(k.bits, _mm256_set1_epi64x(7));
    const Index8 index = index8(j);
    const V th = lookup(hi_table, index);
    const V tl = lookup(lo_table, index);
    V small = _mm256_fmadd_pd(_mm256_mul_pd(th, rl), _mm256_add_pd(splat(1), rh), tl);
    small = _mm256_fmadd_pd(th, rh2q, small);
    const V p = _mm256_mul_pd(th, rh);
    const V p_err = _mm256_fmsub_pd(th, rh, p);  // th rh = p + p_err exactly
    V u, u_err;
    fast_two_sum(th, p, u, u_err);  // th >= 1 > |p|
    const V v = _mm256_add_pd(u_err, _mm256_add_pd(p_err, small));
    V hi, lo;
    fast_two_sum(u, v, hi, lo);
    certain = _mm256_and_pd(in_range, rounding_certain(hi, lo, kExpMargin));
    // 2^m: k - j = 8 m, so m + 1023 in the exponent field is (k - j) << 49 plus the bias.
    const __m256i eight_m =
        _mm256_sub_epi64(_mm256_sub_epi64(k.bits, j), _mm256_set1_epi64x(kRoundBits));
    const __m256i scale =
        _mm256_add_epi64(_mm256_slli_epi64(eight_m, 49), _mm256_set1_epi64x(1023LL << 52));
    return _mm256_mul_pd(hi, _mm256_castsi256_pd(scale));
  }
};

GUFUNC_AVX2_FMA void exp_avx2(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
  for_each_quad(x, y, n, fn, warn, ExpQuad{load_table8(kExp2Hi), load_table8(kExp2Lo)});
}

}  // namespace
#endif

void exp_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (fast_path_available()) return exp_avx2(x, y, n, fn, warn);
#endif
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], warn);
}

bool fast_path_available() {
#ifdef GUFUNC_MATCHED_LIBM
  static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return available;
#else
  return false;
#endif
}

}  // namespace matched
}  // namespace gufunc
