// Base R's rules around a scalar math function, as operator structs for the
// strided loops: math1() for one argument (R 4.2 arithmetic.c) and math2() for
// two (round, signif, log(x, base), atan2). Shared by the R-free kernels and the
// bridge's kernels over R's own nmath functions (src/r/rmath_kernels.cpp).
#pragma once

#include "gufunc/context.h"
#include "kernels/r_semantics.hpp"
#include "kernels/r_summary.hpp"  // na_real()

namespace gufunc {

using MathFn1 = double (*)(double);
using MathFn2 = double (*)(double, double);

// math1(): a NaN result from a NaN input is that input (so NA stays NA); a new
// NaN raises "NaNs produced". Branch-free, so loops vectorize where F does.
template <MathFn1 F>
struct Math1 {
  using In = double;
  using Out = double;
  static double apply(double x, unsigned& w) {
    const double y = F(x);
    const bool y_nan = y != y, x_nan = x != x;
    w |= (y_nan & !x_nan) ? GUFUNC_WARN_NAN_PRODUCED : 0u;
    return x_nan ? x : y;
  }
};

// What math2() makes of a NaN operand: NA_real_ itself when either is NA, R's
// NaN otherwise.
inline double math2_nan(double a, double b) {
  return (rsem::is_na_real(a) || rsem::is_na_real(b)) ? rsem::na_real() : rsem::nan_value();
}

// math2(): NA or NaN operands as above; a NaN result raises "NaNs produced".
template <MathFn2 F>
struct Math2 {
  using In1 = double;
  using In2 = double;
  using Out = double;
  static double apply(double a, double b, unsigned& w) {
    if (a != a || b != b) return math2_nan(a, b);
    const double y = F(a, b);
    w |= y != y ? GUFUNC_WARN_NAN_PRODUCED : 0u;
    return y;
  }
};

}  // namespace gufunc
