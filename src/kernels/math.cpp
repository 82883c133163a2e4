// The Math family: one-argument functions on doubles (abs also on integers),
// following base R's math1(): a NaN result from a NaN input is that input (so
// NA stays NA), a new NaN raises "NaNs produced". abs, log2 and log10 take
// other paths in R and follow those (AbsDouble, LogBase). log(x, base) and
// atan2 follow math2() (kernels/math_rules.hpp).
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
#include "kernels/math_rules.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/row_loops.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

using Fn = MathFn1;

struct DoubleMap {
  using In = double;
  using Out = double;
};

// abs() is plain fabs (R's do_abs), so a NaN loses its sign bit like any number.
struct AbsDouble : DoubleMap {
  static double apply(double x, unsigned&) { return std::fabs(x); }
};

// log2 and log10 run as log(x, base) through math2(); below 0 a new NaN warns.
template <Fn F>
struct LogBase : DoubleMap {
  static double apply(double x, unsigned& w) {
    const double y = F(x);
    w |= (x < 0) ? GUFUNC_WARN_NAN_PRODUCED : 0u;
    return x != x ? math2_nan(x, 0.0) : y;
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
double acosh_(double x) { return std::acosh(x); }
double asinh_(double x) { return std::asinh(x); }
double atanh_(double x) { return std::atanh(x); }
double atan2_(double y, double x) { return std::atan2(y, x); }

// R's logbase(): base 10 and 2 through log10 and log2, others as a quotient.
double log_base_(double x, double base) {
  if (base == 10) return rsem::log10_r(x);
  if (base == 2) return rsem::log2_r(x);
  return rsem::log_r(x) / rsem::log_r(base);
}

// A function of one double, with its row kernel (kernels/row_loops.hpp).
template <class Op>
void add_math(Table& table, const char* name) {
  add_builtin(table, Family::Math, strided_init(name, "double -> double", unary_loop<Op>), 0,
              unary_row<Op>);
}

// exp, sin, cos and sqrt: contiguous slices go through the matched array functions
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
void matched_row(const double* const* in, double* out, int n, unsigned* warn) {
  unsigned w = 0;
  if (out == in[0]) {  // (the array functions read and write apart)
    double r[kFusedRow];
    A(in[0], r, n, &Math1<F>::apply, w);
    std::memcpy(out, r, static_cast<size_t>(n) * sizeof(double));
  } else {
    A(in[0], out, n, &Math1<F>::apply, w);
  }
  *warn |= w;
}

template <Fn F, ArrayFn A>
void add_matched(Table& table, const char* name) {
  add_builtin(table, Family::Math, strided_init(name, "double -> double", matched_loop<F, A>), 0,
              matched_row<F, A>);
}

// A function of two doubles (Math2 family), with its row kernel.
template <MathFn2 F>
void add_math2(Table& table, const char* name) {
  add_builtin(table, Family::Math2,
              strided_init(name, "double, double -> double", binary_loop<Math2<F>>), 0,
              binary_row<Math2<F>>);
}

}  // namespace

void register_math_kernels(Table& table) {
  add_builtin(table, Family::Math, strided_init("abs", "integer -> integer", unary_loop<AbsInt>));
  add_math<AbsDouble>(table, "abs");
  add_matched<sqrt_, matched::sqrt_array>(table, "sqrt");
  add_matched<exp_, matched::exp_array>(table, "exp");
  add_math<Math1<expm1_>>(table, "expm1");
  add_math<Math1<rsem::log_r>>(table, "log");
  add_math<LogBase<rsem::log2_r>>(table, "log2");
  add_math<LogBase<rsem::log10_r>>(table, "log10");
  add_math<Math1<log1p_>>(table, "log1p");
  add_matched<sin_, matched::sin_array>(table, "sin");
  add_matched<cos_, matched::cos_array>(table, "cos");
  add_math<Math1<tan_>>(table, "tan");
  add_math<Math1<asin_>>(table, "asin");
  add_math<Math1<acos_>>(table, "acos");
  add_math<Math1<atan_>>(table, "atan");
  add_math<Math1<sinh_>>(table, "sinh");
  add_math<Math1<cosh_>>(table, "cosh");
  add_math<Math1<tanh_>>(table, "tanh");
  add_math<Math1<floor_>>(table, "floor");
  add_math<Math1<ceil_>>(table, "ceiling");
  add_math<Math1<trunc_>>(table, "trunc");
  add_math<Math1<rsem::sign_r>>(table, "sign");
  add_math<Math1<acosh_>>(table, "acosh");
  add_math<Math1<asinh_>>(table, "asinh");
  add_math<Math1<atanh_>>(table, "atanh");
  add_math2<log_base_>(table, "log");
  add_math2<atan2_>(table, "atan2");
}

}  // namespace gufunc
