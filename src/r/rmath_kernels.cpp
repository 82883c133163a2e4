// Builtin kernels over R's own nmath functions, whose values base R's are:
// cospi/sinpi/tanpi, digamma/trigamma, gamma/lgamma (math1), round and signif
// (math2 over fround and fprec). These functions touch no R state (their domain
// errors only return NaN), so worker threads may call them, with one exception:
// R's gammafn and lgammafn raise R warnings from inside (about precision near
// negative integers, and range for the tiniest positive x), which a worker thread
// must not. Inputs where they may (a zone somewhat wider than R's conditions,
// measured on R 4.2: math_zone_entry()) are base R's on the main thread: the lazy
// path checks for them before it defers gamma() (R/lazy_methods.R), and the
// kernels refuse them with an error on any other path.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>
#include <cstring>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/math_rules.hpp"
#include "kernels/strided_loop.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"

#define R_NO_REMAP
#include <Rmath.h>

namespace gufunc {
namespace r {

namespace {

double cospi_(double x) { return cospi(x); }
double sinpi_(double x) { return sinpi(x); }
double tanpi_(double x) { return tanpi(x); }
double digamma_(double x) { return digamma(x); }
double trigamma_(double x) { return trigamma(x); }
double round_(double x, double digits) { return Rf_fround(x, digits); }
double signif_(double x, double digits) { return Rf_fprec(x, digits); }

// Whether x lies off an integer by less than `distance` (but not on it: R gives
// negative integers NaN or Inf without a warning of its own).
bool near_integer(double x, double distance) {
  const double d = std::fabs(x - std::nearbyint(x));
  return d > 0 && d < distance;
}

// Inputs where R's gammafn may warn: positive x below 1e-300 (R: out of range
// below 2.2e-308), and x below -9.5 within 1e-5 of an integer (R: precision, for
// x < -10 within sqrt(DBL_EPSILON) relative of a negative integer).
bool gamma_zone(double x) { return (x > 0 && x < 1e-300) || (x < -9.5 && near_integer(x, 1e-5)); }

// Where R's lgammafn may warn: x below -10 within 1e-3 of an integer (R: precision,
// when the distance times the result over x is below sqrt(DBL_EPSILON); the result
// is at least 5.9 in size unless x is within 1e-4 of an integer).
bool lgamma_zone(double x) { return x < -10 && near_integer(x, 1e-3); }

double gamma_(double x) { return Rf_gammafn(x); }
double lgamma_(double x) { return Rf_lgammafn(x); }

// Math1<F> where no input lies in R's warning zone `zone`; an error otherwise.
template <double (*F)(double), bool (*zone)(double)>
int zoned_math1_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void* data) {
  const intptr_t n = dimensions[0];
  const char* in = args[0];
  for (intptr_t i = 0; i < n; ++i) {
    const double x = load<double>(in + i * steps[0]);
    if (zone(x)) {
      gufunc_context* ctx = static_cast<gufunc_loop_data*>(data)->ctx;
      return gufunc_error_at(ctx, i,
                             "%.17g lies where R's own function warns: base R computes it "
                             "(gamma() and lgamma() of lazy values do)",
                             x);
    }
  }
  return unary_loop<Math1<F>>(args, dimensions, steps, data);
}

// .Call(C_math_zone, name, x): whether x (double, integer or logical) has an
// element in the warning zone of "gamma" or "lgamma".
SEXP math_zone_entry(SEXP name, SEXP x) {
  return guarded([&]() -> SEXP {
    const bool lgamma = std::strcmp(CHAR(STRING_ELT(name, 0)), "lgamma") == 0;
    auto in_zone = [&](double v) { return lgamma ? lgamma_zone(v) : gamma_zone(v); };
    const R_xlen_t n = XLENGTH(x);
    bool found = false;
    if (TYPEOF(x) == REALSXP) {
      const double* v = REAL_RO(x);
      for (R_xlen_t i = 0; i < n && !found; ++i) found = in_zone(v[i]);
    } else {
      const int* v = TYPEOF(x) == INTSXP ? INTEGER_RO(x) : LOGICAL_RO(x);
      for (R_xlen_t i = 0; i < n && !found; ++i) found = v[i] != NA_INTEGER && in_zone(v[i]);
    }
    return Rf_ScalarLogical(found);
  });
}

}  // namespace

void register_rmath_kernels(Table& table) {
  // R sets up gammafn's and lgammacor's constants on their first call (not safe
  // on several threads at once): the first calls are these, on the main thread.
  for (double x : {0.5, 20.5, -20.5}) {
    Rf_gammafn(x);
    Rf_lgammafn(x);
  }
  add_builtins(
      table, Family::Math,
      {
          strided_init("cospi", "double -> double", unary_loop<Math1<cospi_>>),
          strided_init("sinpi", "double -> double", unary_loop<Math1<sinpi_>>),
          strided_init("tanpi", "double -> double", unary_loop<Math1<tanpi_>>),
          strided_init("digamma", "double -> double", unary_loop<Math1<digamma_>>),
          strided_init("trigamma", "double -> double", unary_loop<Math1<trigamma_>>),
          strided_init("gamma", "double -> double", zoned_math1_loop<gamma_, gamma_zone>),
          strided_init("lgamma", "double -> double", zoned_math1_loop<lgamma_, lgamma_zone>),
      });
  add_builtins(table, Family::Math2,
               {
                   strided_init("round", "double, double -> double", binary_loop<Math2<round_>>),
                   strided_init("signif", "double, double -> double", binary_loop<Math2<signif_>>),
               });
}

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(math_zone, gufunc::r::math_zone_entry, 2);
