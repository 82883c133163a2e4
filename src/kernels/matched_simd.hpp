// AVX2 + FMA helpers of the matched libm functions (matched_libm.hpp): error-free
// sums, the rounding-interval test, and the per-element fallback. Every function
// carries the target attribute, so only CPUs that have it run them.
#pragma once

#include <cstdint>  // first: defines __GLIBC__ on glibc
#include <cstring>

#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
#define GUFUNC_MATCHED_LIBM 1

// The proofs count every rounding: no product may be fused into a sum unless
// written as fma, so contraction is off.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <immintrin.h>

#include "kernels/matched_libm.hpp"

#define GUFUNC_AVX2_FMA __attribute__((target("avx2,fma")))

namespace gufunc {
namespace matched {

using V = __m256d;

GUFUNC_AVX2_FMA inline V splat(double x) { return _mm256_set1_pd(x); }
GUFUNC_AVX2_FMA inline V abs_of(V x) { return _mm256_andnot_pd(splat(-0.0), x); }

// hi + lo == a + b exactly, hi = fl(a + b), for any a, b (Knuth's TwoSum).
GUFUNC_AVX2_FMA inline void two_sum(V a, V b, V& hi, V& lo) {
  hi = _mm256_add_pd(a, b);
  const V bb = _mm256_sub_pd(hi, a);
  lo = _mm256_add_pd(_mm256_sub_pd(a, _mm256_sub_pd(hi, bb)), _mm256_sub_pd(b, bb));
}

// The same when |a| >= |b| (Dekker's Fast2Sum).
GUFUNC_AVX2_FMA inline void fast_two_sum(V a, V b, V& hi, V& lo) {
  hi = _mm256_add_pd(a, b);
  lo = _mm256_sub_pd(b, _mm256_sub_pd(hi, a));
}

// A table of 8 doubles held in two registers, read by a lane index in 0..7 with
// permutes: gathers cost several times more on the CPUs measured.
struct Table8 {
  V low, high;  // entries 0..3 and 4..7
};

GUFUNC_AVX2_FMA inline Table8 load_table8(const double* t) {
  return Table8{_mm256_loadu_pd(t), _mm256_loadu_pd(t + 4)};
}

struct Index8 {
  __m256i pair;  // for each lane, the two float slots of entry (j mod 4)
  V upper;       // j >= 4
};

// j: 64-bit lanes in 0..7.
GUFUNC_AVX2_FMA inline Index8 index8(__m256i j) {
  const __m256i first = _mm256_slli_epi64(_mm256_and_si256(j, _mm256_set1_epi64x(3)), 1);
  const __m256i second = _mm256_slli_epi64(_mm256_add_epi64(first, _mm256_set1_epi64x(1)), 32);
  const __m256i four = _mm256_set1_epi64x(4);
  return Index8{_mm256_or_si256(first, second),
                _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(j, four), four))};
}

// Rounding to an integer by adding 1.5 * 2^52: for |v| < 2^51 the sum is exact in
// its binade of unit spacing, so it is round(v) + 1.5 * 2^52, and its bits minus
// kRoundBits are round(v) as a 64-bit integer.
constexpr double kRoundMagic = 0x1.8p52;
constexpr long long kRoundBits = 0x4338000000000000LL;

struct Rounded {
  V value;       // round(v) as a double
  __m256i bits;  // round(v) + kRoundBits: the low bits are round(v)'s
};

// round(v * scale), ties to even.
GUFUNC_AVX2_FMA inline Rounded round_scaled(V v, double scale) {
  const V shifted = _mm256_fmadd_pd(v, splat(scale), splat(kRoundMagic));
  return Rounded{_mm256_sub_pd(shifted, splat(kRoundMagic)), _mm256_castpd_si256(shifted)};
}

GUFUNC_AVX2_FMA inline V lookup(const Table8& t, const Index8& i) {
  const V a = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(t.low), i.pair));
  const V b = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(t.high), i.pair));
  return _mm256_blendv_pd(a, b, i.upper);
}

// Lanes where the value hi + lo (hi normal, |lo| <= ulp(hi)/2, hi = fl(hi + lo))
// is further than margin * ulp(hi) from both rounding edges of hi, so that any
// result within 0.5 + margin ulp of the true value is hi. A power of two has a
// finer spacing below it; those lanes are never certain.
GUFUNC_AVX2_FMA inline V rounding_certain(V hi, V lo, double margin) {
  const __m256i bits = _mm256_castpd_si256(hi);
  const __m256i exponent = _mm256_and_si256(bits, _mm256_set1_epi64x(0x7FF0000000000000LL));
  const __m256i mantissa = _mm256_and_si256(bits, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFLL));
  // 2^exponent(hi) * 2^-52 is ulp(hi); one product gives the limit.
  const V limit = _mm256_mul_pd(_mm256_castsi256_pd(exponent), splat((0.5 - margin) * 0x1p-52));
  const V inside = _mm256_cmp_pd(abs_of(lo), limit, _CMP_LT_OQ);
  const V power_of_two = _mm256_castsi256_pd(_mm256_cmpeq_epi64(mantissa, _mm256_setzero_si256()));
  return _mm256_andnot_pd(power_of_two, inside);
}

// For each 4-bit lane mask: its set lanes in order, in the 16-bit slots of a word,
// and their count. Adding 4 q to every slot (4 q kEachLane) gives element indices.
constexpr uint64_t kEachLane = 0x0001000100010001ULL;
struct MaskLanes {
  uint64_t lanes[16];
  uint8_t count[16];
  constexpr MaskLanes() : lanes(), count() {
    for (unsigned mask = 0; mask < 16; ++mask) {
      for (unsigned lane = 0; lane < 4; ++lane) {
        if (!(mask >> lane & 1)) continue;
        lanes[mask] |= uint64_t(lane) << (16 * count[mask]);
        ++count[mask];
      }
    }
  }
};
constexpr MaskLanes kMaskLanes;

// Runs a 4-lane kernel `quad(x, certain) -> y` over x[0..n) and gives the other
// elements (uncertain lanes, the tail) to fn(x, warn). No pass branches on the data: a
// branch per quad or per lane mispredicts often on real data, and each miss
// discards the long computations in flight. The fast pass stores an uncertain
// lane's input in y and keeps each quad's lane mask; a second pass appends each
// quad's uncertain lanes to a list (one 4-slot store from kMaskLanes, advanced by
// their count); a third calls fn on the listed elements. y may alias x.
template <class Quad, class Fn = ScalarFn>
GUFUNC_AVX2_FMA inline void for_each_quad(const double* x, double* y, intptr_t n, Fn fn,
                                          unsigned& warn, Quad quad) {
  constexpr intptr_t kChunk = 1024;  // elements
  uint8_t uncertain[kChunk / 4];
  uint16_t pending[kChunk];  // a quad stores 4 slots from count <= 4 q
  const intptr_t quads_end = n - n % 4;
  for (intptr_t start = 0; start < quads_end; start += kChunk) {
    const intptr_t quads = ((start + kChunk < quads_end ? start + kChunk : quads_end) - start) / 4;
    for (intptr_t q = 0; q < quads; ++q) {
      const V xv = _mm256_loadu_pd(x + start + 4 * q);
      V certain;
      const V yv = quad(xv, certain);
      _mm256_storeu_pd(y + start + 4 * q, _mm256_blendv_pd(xv, yv, certain));
      uncertain[q] = static_cast<uint8_t>(~_mm256_movemask_pd(certain) & 0xF);
    }
    intptr_t count = 0;
    for (intptr_t q = 0; q < quads; ++q) {
      const unsigned mask = uncertain[q];
      const uint64_t indices = kMaskLanes.lanes[mask] + static_cast<uint64_t>(4 * q) * kEachLane;
      std::memcpy(pending + count, &indices, sizeof indices);
      count += kMaskLanes.count[mask];
    }
    for (intptr_t j = 0; j < count; ++j) {
      double& v = y[start + pending[j]];
      v = fn(v, warn);
    }
  }
  for (intptr_t i = quads_end; i < n; ++i) y[i] = fn(x[i], warn);
}

}  // namespace matched
}  // namespace gufunc

#endif
