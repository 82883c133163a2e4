// Base R's summaries of one double vector (R 4.2, src/main/summary.c and cum.c),
// R-free so worker threads and the lazy engine share them: sums and products in
// long double with one accumulator (the order decides the last bits), the two-pass
// mean, and min/max where any NA trumps every NaN.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gufunc/context.h"

namespace gufunc {
namespace rsem {

// R's NA_real_: the NaN whose low word is 1954.
inline double na_real() {
  const uint64_t bits = 0x7FF00000000007A2ULL;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// A double as R's coerceVector() makes it from an integer or logical: NA (INT_MIN)
// becomes NA_real_.
inline double int_to_double(int v) { return v == INT32_MIN ? na_real() : static_cast<double>(v); }

// `n` integers or logicals, `step` bytes apart from `src`, as doubles into `dst`.
inline void ints_to_doubles(const char* src, intptr_t step, intptr_t n, double* dst) {
  for (intptr_t i = 0; i < n; ++i) {
    int x;
    std::memcpy(&x, src + i * step, sizeof x);
    dst[i] = int_to_double(x);
  }
}

// R's ISNA().
inline bool is_na_real(double x) {
  if (!std::isnan(x)) return false;
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return static_cast<uint32_t>(bits) == 1954;
}

// Which NaN comes out of R's long double loops is decided by the x87 unit, not by
// C: two quiet NaNs give the one with the larger significand (so NA, payload 1954,
// beats R's NaN), and in cumsum/cumprod, which add the element from memory, a
// stored NA (a signalling NaN) leaves an accumulated NaN as it is. The rules are
// spelled out here so the result does not depend on the instructions the
// compiler picks.
inline uint64_t nan_significand(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits & ((uint64_t(1) << 52) - 1);
}
constexpr uint64_t kQuietBit = uint64_t(1) << 51;

// cumsum/cumprod: the accumulator after meeting element x, both NaN. Of two
// quiet NaNs with equal significands the x87 unit returns the positive one.
inline long double cumulative_nan(long double acc, double x) {
  const uint64_t mx = nan_significand(x);
  if ((mx & kQuietBit) == 0) return acc;  // signalling: the accumulated NaN stays
  const uint64_t macc = nan_significand(static_cast<double>(acc));
  if (mx != macc) return mx > macc ? x : acc;
  return std::signbit(x) ? acc : x;
}

// sum/prod/mean: R's loops load each element before adding, so of all NaNs met
// the largest significand wins; a NaN result becomes NA when the slice has an NA.
template <class Slice>
inline double nan_result(double result, const Slice& x, bool na_rm) {
  if (!std::isnan(result) || na_rm || is_na_real(result)) return result;
  for (intptr_t i = 0; i < x.n; ++i) {
    if (is_na_real(x[i])) return x[i] + 0.0;  // quieted, as arithmetic returns it
  }
  return result;
}

// One step of R's rmin (IsMin) or rmax: a NaN is skipped under na.rm, otherwise it
// sticks and an NA replaces it; among numbers the first extreme stays.
template <bool IsMin>
inline void minmax_step(double x, bool na_rm, double& s, bool& updated) {
  if (std::isnan(x)) {
    if (!na_rm) {
      if (!is_na_real(s)) s = x;
      updated = true;
    }
  } else if (!updated || (IsMin ? x < s : x > s)) {
    s = x;
    updated = true;
  }
}

// A long double total as R stores it: outside the double range it is +-Inf.
inline double ld_to_double(long double s) {
  if (s > DBL_MAX) return HUGE_VAL;
  if (s < -DBL_MAX) return -HUGE_VAL;
  return static_cast<double>(s);
}

// n doubles, `stride` bytes apart.
struct DoubleSlice {
  const char* data;
  intptr_t n;
  intptr_t stride;
  double operator[](intptr_t i) const {
    double v;
    std::memcpy(&v, data + i * stride, sizeof v);
    return v;
  }
};

// sum(x, na.rm): R's rsum.
inline double sum_r(const DoubleSlice& x, bool na_rm) {
  long double s = 0;
  for (intptr_t i = 0; i < x.n; ++i) {
    const double v = x[i];
    if (!na_rm || !std::isnan(v)) s += v;
  }
  return nan_result(ld_to_double(s), x, na_rm);
}

// prod(x, na.rm): R's rprod.
inline double prod_r(const DoubleSlice& x, bool na_rm) {
  long double s = 1;
  for (intptr_t i = 0; i < x.n; ++i) {
    const double v = x[i];
    if (!na_rm || !std::isnan(v)) s *= v;
  }
  return nan_result(ld_to_double(s), x, na_rm);
}

// mean(x, na.rm): mean.default drops the NAs, then R's real_mean: the long double
// sum over n, or where the sum is beyond the double range the sum of x / n; then
// the mean residual added where the mean is finite (divided by n in the first case,
// summed from (x - mean) / n in the second); the result cast to double as R does.
inline double mean_r(const DoubleSlice& x, bool na_rm) {
  auto keep = [na_rm](double v) { return !na_rm || !std::isnan(v); };
  long double s = 0;
  intptr_t n = 0;
  for (intptr_t i = 0; i < x.n; ++i) {
    const double v = x[i];
    if (!keep(v)) continue;
    s += v;
    ++n;
  }
  if (n == 0) {
    // R divides 0 by 0 at run time, a NaN with the sign bit set on x86; folded at
    // compile time (no-trapping-math) it would be a positive one.
    volatile long double zero = 0;
    return static_cast<double>(zero / zero);
  }
  const bool finite_sum = std::isfinite(static_cast<double>(s));
  if (finite_sum) {
    s /= n;
  } else {
    s = 0;
    for (intptr_t i = 0; i < x.n; ++i) {
      if (keep(x[i])) s += x[i] / static_cast<double>(n);  // a double division, as R's
    }
  }
  if (std::isfinite(static_cast<double>(s))) {
    long double t = 0;
    for (intptr_t i = 0; i < x.n; ++i) {
      if (!keep(x[i])) continue;
      t += finite_sum ? x[i] - s : (x[i] - s) / n;
    }
    s += finite_sum ? t / n : t;
  }
  return nan_result(static_cast<double>(s), x, na_rm);
}

// min(x, na.rm) / max(x, na.rm): no values left gives Inf / -Inf and R's warning.
template <bool IsMin>
inline double minmax_r(const DoubleSlice& x, bool na_rm, unsigned& warn) {
  double s = 0;
  bool updated = false;
  for (intptr_t i = 0; i < x.n; ++i) minmax_step<IsMin>(x[i], na_rm, s, updated);
  if (updated) return s;
  warn |= IsMin ? GUFUNC_WARN_EMPTY_MIN : GUFUNC_WARN_EMPTY_MAX;
  return IsMin ? HUGE_VAL : -HUGE_VAL;
}

}  // namespace rsem
}  // namespace gufunc
