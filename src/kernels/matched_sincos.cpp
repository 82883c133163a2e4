// sin and cos over arrays with the C library's exact values (see matched_libm.hpp).
//
// x = k pi/2 + r, |r| <= pi/4, with pi/2 in three parts (33, 33 and 53 bits, so k
// times the first two is exact for |x| <= 2^17) and r kept as rh + rl. Then sin x
// or cos x is +-sin r or +-cos r by the quadrant k mod 4, and with |r| = c + d,
// c = i/8 from a table of sin c and cos c (hi + lo), |d| <= 1/16:
//   sin(c + d) = sin c + cos c d + [sin c (cos d - 1) + cos c (sin d - d)]
//   cos(c + d) = cos c - sin c d + [cos c (cos d - 1) - sin c (sin d - d)]
// i.e. A + B d + small with (A, B) = (sin c, cos c) or (cos c, -sin c). B d is
// formed exactly with fma, the sum split error-free into hi + lo; the bracket is
// below A d^2/2 + d^3/6 and its rounding below 2^-61 relative: 0.01 ulp. glibc's
// sin and cos are within about 0.55 ulp, hence the margin. Near a multiple of pi/2
// (|r| < 2^-15) and outside the range the element goes to the library.
#include "kernels/matched_libm.hpp"
#include "kernels/matched_libm_tables.hpp"
#include "kernels/matched_simd.hpp"

namespace gufunc {
namespace matched {

#ifdef GUFUNC_MATCHED_LIBM
namespace {

constexpr double kSinMargin = 0.08;  // ulp: our error bound 0.01 + library excess 0.07
constexpr double kMinArg = 0x1p-26;  // below, sin x = x and cos x = 1: the library's job
constexpr double kMaxArg = 0x1p17;   // |k| < 2^17: k times a 33-bit part is exact
// With |rh| >= 2^-15 > 2 |k p2|, a - rh below is exact (Sterbenz), and r's error
// (below 2^-100) is small relative to r.
constexpr double kMinReduced = 0x1p-15;

// quadrant_offset 0: sin; 1: cos (cos x = sin(x + pi/2)).
template <int quadrant_offset>
struct SinCosQuad {
  Table8 sin_hi, sin_lo, cos_hi, cos_lo;

  GUFUNC_AVX2_FMA static SinCosQuad make() {
    return SinCosQuad{load_table8(kSinHi), load_table8(kSinLo), load_table8(kCosHi),
                      load_table8(kCosLo)};
  }

  GUFUNC_AVX2_FMA V operator()(V x_in, V& certain) const {
    const V ax = abs_of(x_in);
    const V in_range = _mm256_and_pd(_mm256_cmp_pd(ax, splat(kMinArg), _CMP_GE_OQ),
                                     _mm256_cmp_pd(ax, splat(kMaxArg), _CMP_LE_OQ));
    // Other lanes compute garbage but read only the 8-entry tables; they are redone.
    const V x = x_in;
    const Rounded k = round_scaled(x, kTwoOverPi);
    // r = x - k (p1 + p2 + p3): the first step is exact (Sterbenz), k p2 is a double,
    // so the rounding error of rh is a double too and rl recovers it.
    const V a = _mm256_fnmadd_pd(k.value, splat(kHalfPi1), x);
    const V rh = _mm256_fnmadd_pd(k.value, splat(kHalfPi2), a);
    V rl = _mm256_fnmadd_pd(k.value, splat(kHalfPi2), _mm256_sub_pd(a, rh));
    rl = _mm256_fnmadd_pd(k.value, splat(kHalfPi3), rl);
    const V reduced_ok = _mm256_or_pd(_mm256_cmp_pd(k.value, _mm256_setzero_pd(), _CMP_EQ_OQ),
                                      _mm256_cmp_pd(abs_of(rh), splat(kMinReduced), _CMP_GE_OQ));

    // Quadrant k + offset: bit 0 picks cos r, bit 1 negates.
    const __m256i quadrant = _mm256_add_epi64(k.bits, _mm256_set1_epi64x(quadrant_offset));
    const __m256i one = _mm256_set1_epi64x(1);
    const V use_cos = _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(quadrant, one), one));
    const V negate = _mm256_castsi256_pd(_mm256_slli_epi64(quadrant, 62));  // bit 1 -> 63

    // Work on |r|: sin is odd (its sign joins `negate`), cos is even.
    const V sign_bit = splat(-0.0);
    const V r_sign = _mm256_and_pd(rh, sign_bit);
    const V arh = _mm256_xor_pd(rh, r_sign);
    const V arl = _mm256_xor_pd(rl, r_sign);
    const V sign =
        _mm256_and_pd(_mm256_xor_pd(negate, _mm256_andnot_pd(use_cos, r_sign)), sign_bit);

    const Rounded i = round_scaled(arh, 8);
    const V d = _mm256_fnmadd_pd(i.value, splat(0.125), arh);  // exact
    const Index8 index = index8(_mm256_and_si256(i.bits, _mm256_set1_epi64x(7)));
    const V sh = lookup(sin_hi, index);
    const V sl = lookup(sin_lo, index);
    const V ch = lookup(cos_hi, index);
    const V cl = lookup(cos_lo, index);
    const V ah = _mm256_blendv_pd(sh, ch, use_cos);
    const V al = _mm256_blendv_pd(sl, cl, use_cos);
    const V bh = _mm256_blendv_pd(ch, _mm256_xor_pd(sh, sign_bit), use_cos);
    const V bl = _mm256_blendv_pd(cl, _mm256_xor_pd(sl, sign_bit), use_cos);

    // sin d - d and cos d - 1 by Taylor (truncation below 2^-68 for |d| <= 1/16).
    // Estrin's scheme in d^2: short dependency chains are what this loop needs.
    const V d2 = _mm256_mul_pd(d, d);
    const V d4 = _mm256_mul_pd(d2, d2);
    const V d3 = _mm256_mul_pd(d2, d);
    const V s01 = _mm256_fmadd_pd(d2, splat(1.0 / 120), splat(-1.0 / 6));
    const V s23 = _mm256_fmadd_pd(d2, splat(1.0 / 362880), splat(-1.0 / 5040));
    const V s24 = _mm256_fmadd_pd(d4, splat(-1.0 / 39916800), s23);
    const V sin_d_minus_d = _mm256_mul_pd(d3, _mm256_fmadd_pd(d4, s24, s01));
    const V c01 = _mm256_fmadd_pd(d2, splat(1.0 / 24), splat(-0.5));
    const V c23 = _mm256_fmadd_pd(d2, splat(1.0 / 40320), splat(-1.0 / 720));
    const V c24 = _mm256_fmadd_pd(d4, splat(-1.0 / 3628800), c23);
    const V cos_d_minus_1 = _mm256_mul_pd(d2, _mm256_fmadd_pd(d4, c24, c01));

    // small = A (cos d - 1) + B (sin d - d) + Al + Bl d + (B - A d) rl, as a tree.
    const V tail = _mm256_fmadd_pd(_mm256_fnmadd_pd(ah, d, bh), arl, _mm256_fmadd_pd(bl, d, al));
    const V series = _mm256_fmadd_pd(bh, sin_d_minus_d, _mm256_mul_pd(ah, cos_d_minus_1));
    const V small = _mm256_add_pd(series, tail);

    const V p = _mm256_mul_pd(bh, d);
    const V p_err = _mm256_fmsub_pd(bh, d, p);  // B d = p + p_err exactly
    V u, u_err;
    two_sum(ah, p, u, u_err);
    const V v = _mm256_add_pd(u_err, _mm256_add_pd(p_err, small));
    V hi, lo;
    fast_two_sum(u, v, hi, lo);
    certain =
        _mm256_and_pd(_mm256_and_pd(in_range, reduced_ok), rounding_certain(hi, lo, kSinMargin));
    return _mm256_xor_pd(hi, sign);
  }
};

GUFUNC_AVX2_FMA void sin_avx2(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
  for_each_quad(x, y, n, fn, warn, SinCosQuad<0>::make());
}

GUFUNC_AVX2_FMA void cos_avx2(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
  for_each_quad(x, y, n, fn, warn, SinCosQuad<1>::make());
}

}  // namespace
#endif

void sin_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (fast_path_available()) return sin_avx2(x, y, n, fn, warn);
#endif
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], warn);
}

void cos_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn) {
#ifdef GUFUNC_MATCHED_LIBM
  if (fast_path_available()) return cos_avx2(x, y, n, fn, warn);
#endif
  for (intptr_t i = 0; i < n; ++i) y[i] = fn(x[i], warn);
}

}  // namespace matched
}  // namespace gufunc
