// The arithmetic family: + - * / ^ %% %/% and unary - and +, with base R's
// types (integer + integer is integer, / and ^ always double) and rules.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/matched_libm.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/r_summary.hpp"  // na_real()
#include "kernels/row_loops.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

using namespace rsem;

template <class T>
struct SameTypes {
  using In1 = T;
  using In2 = T;
  using Out = T;
};

struct PlusInt : SameTypes<int> {
  static int apply(int x, int y, unsigned& w) { return int_plus(x, y, w); }
};
struct MinusInt : SameTypes<int> {
  static int apply(int x, int y, unsigned& w) { return int_minus(x, y, w); }
};
struct TimesInt : SameTypes<int> {
  static int apply(int x, int y, unsigned& w) { return int_times(x, y, w); }
};
struct ModInt : SameTypes<int> {
  static int apply(int x, int y, unsigned&) { return int_mod(x, y); }
};
struct FloorDivInt : SameTypes<int> {
  static int apply(int x, int y, unsigned&) { return int_floor_div(x, y); }
};

// Integer / and ^ give double, but an NA operand gives NA_real_ itself (R's
// integer_binary), not the quieted NaN that double arithmetic on NA makes of it.
struct IntegerToDouble {
  using In1 = int;
  using In2 = int;
  using Out = double;
};
struct DivideInt : IntegerToDouble {
  static double apply(int x, int y, unsigned&) {
    const double q = static_cast<double>(x) / static_cast<double>(y);
    return ((x == kNaInt) | (y == kNaInt)) ? na_real() : q;
  }
};
struct PowInt : IntegerToDouble {
  static double apply(int x, int y, unsigned& w) {
    if (x == 1 || y == 0) return 1.;  // 1L^NA and NA^0L are 1
    if (x == kNaInt || y == kNaInt) return na_real();
    return pow_r(x, y, w);
  }
};

struct PlusDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned&) { return plus_r(x, y); }
};
struct MinusDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned&) { return x - y; }
};
struct TimesDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned&) { return times_r(x, y); }
};
struct DivideDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned&) { return x / y; }
};
struct PowDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned& w) { return pow_r(x, y, w); }
};
struct ModDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned& w) { return fmod_r(x, y, w); }
};
struct FloorDivDouble : SameTypes<double> {
  static double apply(double x, double y, unsigned&) { return floor_div_r(x, y); }
};

template <class T>
struct Unary {
  using In = T;
  using Out = T;
};

struct NegateInt : Unary<int> {
  static int apply(int x, unsigned&) { return x == kNaInt ? kNaInt : -x; }
};
struct NegateDouble : Unary<double> {
  static double apply(double x, unsigned&) { return -x; }
};
// Unary + returns its argument; logical input arrives here promoted to integer.
template <class T>
struct Identity : Unary<T> {
  static T apply(T x, unsigned&) { return x; }
};

// x ^ 2 is R's x * x (pow_r's first case). An exponent of 2 for every element is
// the common case (u^2 in stencils); its own loop keeps the test out of the loop, so
// the products vectorize. Other small whole or half exponents (r^3 in n-body
// forces, the k^4 and k^5 of polynomials, x^-1, x^0.5) go through the matched powers
// (matched_libm.hpp).
GUFUNC_SIMD_CLONES int pow_double_loop(char** args, const intptr_t* dimensions,
                                       const intptr_t* steps, void* data) {
  const intptr_t n = dimensions[0];
  const intptr_t width = sizeof(double);
  const bool flat = steps[0] == width && steps[2] == width;
  if (n <= 0 || !flat || steps[1] != 0) {
    return binary_loop<PowDouble>(args, dimensions, steps, data);
  }
  const double y = load<double>(args[1]);  // one exponent for every element
  const double* x = reinterpret_cast<const double*>(args[0]);
  double* out = reinterpret_cast<double*>(args[2]);
  if (y == 2.0) {
    for (intptr_t i = 0; i < n; ++i) out[i] = x[i] * x[i];
    return 0;
  }
  const int halves = matched::matched_power_halves(y);
  if (halves != 0) {
    // r^3, k^5, x^-1, x^0.5: the C library's pow(x, y) bits, several times faster
    unsigned warn = 0;
    matched::power_array(x, out, n, halves, &pow_r, warn);
    report_warnings(data, warn);
    return 0;
  }
  return binary_loop<PowDouble>(args, dimensions, steps, data);
}

// The reciprocal of `y` when y is a power of two whose reciprocal is a normal
// double (2^k, |k| <= 1022): then x * (1 / y) and x / y are the same rounding of the
// same real number x * 2^-k, for every x (NaN payloads, infinities, signed zeros and
// subnormal results alike). 0 otherwise.
double exact_reciprocal(double y) {
  int exponent = 0;
  if (!std::isfinite(y) || std::frexp(y, &exponent) != (y < 0 ? -0.5 : 0.5)) return 0;
  const int k = exponent - 1;  // y = +-2^k
  return k >= -1022 && k <= 1022 ? 1 / y : 0;
}

// x / 2 (halving sums in stencils): by a power of two, a product by its reciprocal,
// the same bits (exact_reciprocal) at a fraction of a division's cost.
GUFUNC_SIMD_CLONES int divide_double_loop(char** args, const intptr_t* dimensions,
                                          const intptr_t* steps, void* data) {
  const intptr_t n = dimensions[0];
  const intptr_t width = sizeof(double);
  const bool flat = steps[0] == width && steps[2] == width;
  const double r = n > 0 && flat && steps[1] == 0 ? exact_reciprocal(load<double>(args[1])) : 0;
  if (r != 0) {
    const double* x = reinterpret_cast<const double*>(args[0]);
    double* out = reinterpret_cast<double*>(args[2]);
    for (intptr_t i = 0; i < n; ++i) out[i] = x[i] * r;
    return 0;
  }
  return binary_loop<DivideDouble>(args, dimensions, steps, data);
}

}  // namespace

void register_arithmetic_kernels(Table& table) {
  const char* ii_i = "integer, integer -> integer";
  const char* dd_d = "double, double -> double";
  // Integer arithmetic warns on overflow (NA); double +, -, * and / never warn
  // (the order of a function's sets is the order they are tried in).
  add_builtins(table, Family::Arithmetic,
               {
                   strided_init("+", ii_i, binary_loop<PlusInt>),
                   strided_init("+", "integer -> integer", unary_loop<Identity<int>>),
                   strided_init("-", ii_i, binary_loop<MinusInt>),
                   strided_init("-", "integer -> integer", unary_loop<NegateInt>),
                   strided_init("*", ii_i, binary_loop<TimesInt>),
                   strided_init("/", "integer, integer -> double", binary_loop<DivideInt>),
               },
               kCheapToRecompute);
  const Family a = Family::Arithmetic;
  add_builtin(table, a, strided_init("+", dd_d, binary_loop<PlusDouble>),
              kNeverFails | kCheapToRecompute, binary_row<PlusDouble>);
  add_builtin(table, a, strided_init("+", "double -> double", unary_loop<Identity<double>>),
              kNeverFails | kCheapToRecompute, unary_row<Identity<double>>);
  add_builtin(table, a, strided_init("-", dd_d, binary_loop<MinusDouble>),
              kNeverFails | kCheapToRecompute, binary_row<MinusDouble>);
  add_builtin(table, a, strided_init("-", "double -> double", unary_loop<NegateDouble>),
              kNeverFails | kCheapToRecompute, unary_row<NegateDouble>);
  add_builtin(table, a, strided_init("/", dd_d, divide_double_loop),
              kNeverFails | kCheapToRecompute, binary_row<DivideDouble>);
  // Its products are plain IEEE ones: sum(x * y) may compute them itself.
  add_builtin(table, a, strided_init("*", dd_d, binary_loop<TimesDouble>),
              kFoldsIntoSum | kNeverFails | kCheapToRecompute, binary_row<TimesDouble>);
  add_builtins(table, Family::Arithmetic,
               {
                   strided_init("^", "integer, integer -> double", binary_loop<PowInt>),
                   strided_init("^", dd_d, pow_double_loop),
                   strided_init("%%", ii_i, binary_loop<ModInt>),
                   strided_init("%%", dd_d, binary_loop<ModDouble>),
                   strided_init("%/%", ii_i, binary_loop<FloorDivInt>),
                   strided_init("%/%", dd_d, binary_loop<FloorDivDouble>),
               });
  // R's as.double() of integers and logicals: they arrive cast, NA as NA_real_'s
  // own bits, which a copy keeps (x + 0 would set its NaN's quiet bit).
  add_builtin(table, Family::Math,
              strided_init("as.double", "double -> double", unary_loop<Identity<double>>),
              kNeverFails | kCheapToRecompute, unary_row<Identity<double>>);
}

}  // namespace gufunc
