// The Math family: one-argument functions on doubles (abs also on integers),
// following base R's math1(): a NaN result from a NaN input is that input (so
// NA stays NA), a new NaN raises "NaNs produced". abs, log2 and log10 take
// other paths in R and follow those (AbsDouble, LogBase).
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/matched_libm.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/r_summary.hpp"  // na_real()
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

using Fn = double (*)(double);

struct DoubleMap {
  using In = double;
  using Out = double;
};

template <Fn F>
struct Math1 : DoubleMap {
  // Branch-free, so loops over it vectorize where F does (sqrt, fabs).
  static double apply(double x, unsigned& w) {
    const double y = F(x);
    const bool y_nan = y != y, x_nan = x != x;
    w |= (y_nan & !x_nan) ? GUFUNC_WARN_NAN_PRODUCED : 0u;
    return x_nan ? x : y;  // a NaN input's own NaN (so NA stays NA)
  }
};

// abs() is plain fabs (R's do_abs), so a NaN loses its sign bit like any number.
struct AbsDouble : DoubleMap {
  static double apply(double x, unsigned&) { return std::fabs(x); }
};

// What R's math2() makes of a NaN operand: NA_real_ itself for an NA (R's ISNA
// reads only the low word), R's NaN for any other, whatever the sign or quiet bit.
inline double math2_nan(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return static_cast<uint32_t>(bits) == 1954u ? rsem::na_real() : rsem::nan_value();
}

// log2 and log10 run as log(x, base) through math2(); below 0 a new NaN warns.
template <Fn F>
struct LogBase : DoubleMap {
  static double apply(double x, unsigned& w) {
    const double y = F(x);
    w |= (x < 0) ? GUFUNC_WARN_NAN_PRODUCED : 0u;
    return x != x ? math2_nan(x) : y;
  }
};

struct AbsInt {
  using In = int;
  using Out = int;
  static int apply(int x, unsigned&) { return x == rsem::kNaInt ? x : std::abs(x); }
};

// The C functions R calls for each name (R's own wrappers where it has them).
double sqrt_(double x) { return std::sqrt(x); }
double exp_(double x) { return std::exp(x); }
double expm1_(double x) { return std::expm1(x); }
double log1p_(double x) { return std::log1p(x); }
double sin_(double x) { return std::sin(x); }
double cos_(double x) { return std::cos(x); }
double tan_(double x) { return std::tan(x); }
double asin_(double x) { return std::asin(x); }
double acos_(double x) { return std::acos(x); }
double atan_(double x) { return std::atan(x); }
double sinh_(double x) { return std::sinh(x); }
double cosh_(double x) { return std::cosh(x); }
double tanh_(double x) { return std::tanh(x); }
double floor_(double x) { return std::floor(x); }
double ceil_(double x) { return std::ceil(x); }
double trunc_(double x) { return std::trunc(x); }

template <Fn F>
gufunc_kernel_init double_kernel(const char* name) {
  return strided_init(name, "double -> double", unary_loop<Math1<F>>);
}

// exp, sin and cos: contiguous slices go through the matched array functions
// (the C library's values, several times faster); their fallback is Math1 itself.
using ArrayFn = void (*)(const double*, double*, intptr_t, matched::ScalarFn, unsigned&);

template <Fn F, ArrayFn A>
int matched_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void* data) {
  const intptr_t n = dimensions[0];
  const intptr_t flat = static_cast<intptr_t>(sizeof(double));
  if (steps[0] != flat || steps[1] != flat) {
    return unary_loop<Math1<F>>(args, dimensions, steps, data);
  }
  if (n <= 0) return 0;
  unsigned warn = 0;
  A(reinterpret_cast<const double*>(args[0]), reinterpret_cast<double*>(args[1]), n,
    &Math1<F>::apply, warn);
  report_warnings(data, warn);
  return 0;
}

template <Fn F, ArrayFn A>
gufunc_kernel_init matched_kernel(const char* name) {
  return strided_init(name, "double -> double", matched_loop<F, A>);
}

}  // namespace

void register_math_kernels(Table& table) {
  const gufunc_kernel_init inits[] = {
      strided_init("abs", "integer -> integer", unary_loop<AbsInt>),
      strided_init("abs", "double -> double", unary_loop<AbsDouble>),
      double_kernel<sqrt_>("sqrt"),
      matched_kernel<exp_, matched::exp_array>("exp"),
      double_kernel<expm1_>("expm1"),
      double_kernel<rsem::log_r>("log"),
      strided_init("log2", "double -> double", unary_loop<LogBase<rsem::log2_r>>),
      strided_init("log10", "double -> double", unary_loop<LogBase<rsem::log10_r>>),
      double_kernel<log1p_>("log1p"),
      matched_kernel<sin_, matched::sin_array>("sin"),
      matched_kernel<cos_, matched::cos_array>("cos"),
      double_kernel<tan_>("tan"),
      double_kernel<asin_>("asin"),
      double_kernel<acos_>("acos"),
      double_kernel<atan_>("atan"),
      double_kernel<sinh_>("sinh"),
      double_kernel<cosh_>("cosh"),
      double_kernel<tanh_>("tanh"),
      double_kernel<floor_>("floor"),
      double_kernel<ceil_>("ceiling"),
      double_kernel<trunc_>("trunc"),
      double_kernel<rsem::sign_r>("sign"),
  };
  for (const gufunc_kernel_init& init : inits) table.add_kernel(init);
}

}  // namespace gufunc
