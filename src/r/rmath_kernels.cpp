// Builtin kernels over R's own nmath functions, whose values base R's are:
// cospi/sinpi/tanpi, digamma/trigamma (math1), round and signif (math2 over fround
// and fprec). (gamma and lgamma are not among them: R's gammafn and lgammafn warn
// from inside, about precision and range, which a worker thread must not do.)
// These functions touch no R state and raise no R condition (their domain
// errors only return NaN), so worker threads may call them.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/math_rules.hpp"
#include "kernels/strided_loop.hpp"

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

}  // namespace

void register_rmath_kernels(Table& table) {
  add_builtins(table, Family::Math,
               {
                   strided_init("cospi", "double -> double", unary_loop<Math1<cospi_>>),
                   strided_init("sinpi", "double -> double", unary_loop<Math1<sinpi_>>),
                   strided_init("tanpi", "double -> double", unary_loop<Math1<tanpi_>>),
                   strided_init("digamma", "double -> double", unary_loop<Math1<digamma_>>),
                   strided_init("trigamma", "double -> double", unary_loop<Math1<trigamma_>>),
               });
  add_builtins(table, Family::Math2,
               {
                   strided_init("round", "double, double -> double", binary_loop<Math2<round_>>),
                   strided_init("signif", "double, double -> double", binary_loop<Math2<signif_>>),
               });
}

}  // namespace r
}  // namespace gufunc
