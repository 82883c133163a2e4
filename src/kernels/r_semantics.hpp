// Base R's scalar arithmetic rules, written R-free so worker threads can use them:
// the NA encodings, integer overflow to NA, `%%` and `%/%` on doubles, `^` and log.
// Each rule follows R 4.2's src/main/arithmetic.c; operand order is kept as R
// keeps it, because with two NaN operands the hardware returns the first one's
// payload and identical() tells NA from NaN.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gufunc/context.h"

namespace gufunc {
namespace rsem {

constexpr int kNaInt = INT_MIN;  // NA_integer_ and logical NA (double NA only passes through)
constexpr double kInf = std::numeric_limits<double>::infinity();

inline double nan_value() { return std::numeric_limits<double>::quiet_NaN(); }

// Integer +, - and *: NA in, NA out; a result outside [-INT_MAX, INT_MAX] is NA
// and raises R's "NAs produced by integer overflow". Written with 32-bit lanes
// and no branches so the loops vectorise on plain SSE2.
inline int int_checked(int x, int y, int z, bool overflow, unsigned& warn) {
  const bool na = (x == kNaInt) | (y == kNaInt);
  overflow = overflow | (z == kNaInt);
  warn |= (overflow & !na) ? GUFUNC_WARN_INT_OVERFLOW : 0u;
  return (na | overflow) ? kNaInt : z;
}
inline int int_plus(int x, int y, unsigned& warn) {
  const int z = static_cast<int>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y));
  return int_checked(x, y, z, ((x ^ z) & (y ^ z)) < 0, warn);  // sign flipped: wrapped
}
inline int int_minus(int x, int y, unsigned& warn) {
  const int z = static_cast<int>(static_cast<uint32_t>(x) - static_cast<uint32_t>(y));
  return int_checked(x, y, z, ((x ^ y) & (x ^ z)) < 0, warn);
}
inline int int_times(int x, int y, unsigned& warn) {
  // The double product is exact up to 2^53 and past INT_MAX when it is not.
  const double p = static_cast<double>(x) * static_cast<double>(y);
  const bool overflow = (p > INT_MAX) | (p < -INT_MAX);
  return int_checked(x, y, overflow ? kNaInt : static_cast<int>(p), overflow, warn);
}

// With two NaN operands, x86-64 returns the first one (quieted), and whether NA or
// NaN comes out of R depends on which operand its compiled loop put first. The
// compiler may swap the operands of + and *, so the order is pinned here: the
// first operand's NaN wins (R's order for equal lengths and a recycled scalar
// on the right; R/elementwise.R fixes up the other layouts).
// Both results are computed and one is selected, so the loop has no branch.
inline double plus_r(double x, double y) {
  const double sum = x + y, first_nan = x + x;
  return x != x ? first_nan : sum;
}
inline double times_r(double x, double y) {
  const double product = x * y, first_nan = x * x;
  return x != x ? first_nan : product;
}

// Beyond this quotient a double has no fractional bits left; R compares in long
// double, so the threshold is 1 / LDBL_EPSILON where long double is wider.
constexpr long double kPrecisionLimit = 1.0L / LDBL_EPSILON;
inline bool beyond_precision(double q) { return std::fabs(q) > kPrecisionLimit; }

// x1 %% x2 for doubles. The remainder is taken in long double like R does; with
// x87 long doubles that also decides which NaN payload survives (NaN %% NA is NA).
inline double fmod_r(double x1, double x2, unsigned& warn) {
  if (x2 == 0.0) return nan_value();
  if (beyond_precision(x2) && std::isfinite(x1) && std::fabs(x1) <= std::fabs(x2)) {
    // |x2| is huge: the quotient is 0 or -1 and computing it would lose x1.
    if (std::fabs(x1) == std::fabs(x2)) return 0;
    const bool signs_differ = (x1 < 0 && x2 > 0) || (x2 < 0 && x1 > 0);
    return signs_differ ? x1 + x2 : x1;
  }
  const double q = x1 / x2;
  if (std::isfinite(q) && beyond_precision(q)) warn |= GUFUNC_WARN_MOD_ACCURACY;
  const long double tmp =
      static_cast<long double>(x1) - std::floor(q) * static_cast<long double>(x2);
  return static_cast<double>(tmp - floorl(tmp / x2) * x2);
}

// x1 %/% x2 for doubles, consistent with fmod_r.
inline double floor_div_r(double x1, double x2) {
  const double q = x1 / x2;
  if (x2 == 0.0 || beyond_precision(q) || !std::isfinite(q)) return q;
  if (std::fabs(q) < 1) {
    // Also catches a quotient that underflowed to 0 while the signs differ.
    if (q < 0) return -1;
    return ((x1 < 0 && x2 > 0) || (x1 > 0 && x2 < 0)) ? -1 : 0;
  }
  const long double tmp =
      static_cast<long double>(x1) - std::floor(q) * static_cast<long double>(x2);
  return static_cast<double>(std::floor(q) + floorl(tmp / x2));
}

// Integer %% and %/%: NA for NA operands and for a zero divisor.
inline int int_mod(int x1, int x2) {
  if (x1 == kNaInt || x2 == kNaInt || x2 == 0) return kNaInt;
  if (x1 >= 0 && x2 > 0) return x1 % x2;
  unsigned ignored = 0;  // |x1 / x2| < 2^31: no accuracy loss possible
  return static_cast<int>(fmod_r(x1, x2, ignored));
}

inline int int_floor_div(int x1, int x2) {
  if (x1 == kNaInt || x2 == kNaInt || x2 == 0) return kNaInt;
  return static_cast<int>(std::floor(static_cast<double>(x1) / static_cast<double>(x2)));
}

// x ^ y with R's special cases: 1^y and x^0 are 1 even for NA, 0^y by the sign of
// y, infinities by limit, NaN for a negative base with a non-integer exponent.
inline double pow_r(double x, double y, unsigned& warn) {
  if (y == 2.0) return x * x;
  if (x == 1. || y == 0.) return 1.;
  if (x == 0.) {
    if (y > 0.) return 0.;
    if (y < 0.) return kInf;
    return y;  // NA or NaN
  }
  if (std::isfinite(x) && std::isfinite(y)) return std::pow(x, y);
  // R computes x + y here and its build returns the exponent's NaN when both are.
  if (std::isnan(y)) return y + y;
  if (std::isnan(x)) return x + x;
  if (!std::isfinite(x)) {
    if (x > 0) return (y < 0.) ? 0. : kInf;
    if (std::isfinite(y) && y == std::floor(y)) {  // (-Inf) ^ whole number
      if (y < 0.) return 0.;
      return fmod_r(y, 2., warn) != 0 ? x : -x;
    }
  }
  if (!std::isfinite(y) && x >= 0) {
    if (y > 0) return (x >= 1) ? kInf : 0.;
    return (x < 1) ? kInf : 0.;
  }
  return nan_value();  // (-Inf)^(+-Inf or fraction), (negative)^(+-Inf)
}

// R's log: -Inf at 0 and NaN below, whatever the C library does there.
inline double log_r(double x) { return x > 0 ? std::log(x) : x == 0 ? -kInf : nan_value(); }
inline double log2_r(double x) { return x > 0 ? std::log2(x) : x == 0 ? -kInf : nan_value(); }
inline double log10_r(double x) { return x > 0 ? std::log10(x) : x == 0 ? -kInf : nan_value(); }

// R's sign(): NaN stays itself.
inline double sign_r(double x) {
  if (std::isnan(x)) return x;
  return x > 0 ? 1. : (x == 0 ? 0. : -1.);
}

// A number as a logical: 0 is FALSE, NA/NaN is NA, anything else TRUE.
inline int int_as_logical(int x) { return x == kNaInt ? kNaInt : (x != 0 ? 1 : 0); }
inline int double_as_logical(double x) { return std::isnan(x) ? kNaInt : (x != 0 ? 1 : 0); }

}  // namespace rsem
}  // namespace gufunc
