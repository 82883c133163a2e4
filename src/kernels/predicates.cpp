// is.na(), is.nan(), is.finite() and is.infinite() on doubles, integers and
// logicals, as R 4.2's coerce.c and arithmetic.c decide them: an integer or
// logical NA is NA but never NaN, and never infinite.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/r_summary.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

template <class T, bool (*P)(T)>
struct Predicate {
  using In = T;
  using Out = int;
  static int apply(T x, unsigned&) { return P(x) ? 1 : 0; }
};

bool double_na(double x) { return x != x; }
bool double_nan(double x) { return x != x && !rsem::is_na_real(x); }
bool double_finite(double x) { return std::isfinite(x); }
bool double_infinite(double x) { return std::isinf(x); }
bool int_na(int x) { return x == rsem::kNaInt; }
bool int_not_na(int x) { return x != rsem::kNaInt; }
bool never(int) { return false; }

// One predicate on the three types; logicals are stored as int.
template <bool (*D)(double), bool (*I)(int)>
void add_predicate(Table& table, const char* name) {
  add_builtins(table, Family::Predicate,
               {strided_init(name, "double -> logical", unary_loop<Predicate<double, D>>),
                strided_init(name, "integer -> logical", unary_loop<Predicate<int, I>>),
                strided_init(name, "logical -> logical", unary_loop<Predicate<int, I>>)},
               kCheapToRecompute);
}

}  // namespace

void register_predicate_kernels(Table& table) {
  add_predicate<double_na, int_na>(table, "is.na");
  add_predicate<double_nan, never>(table, "is.nan");
  add_predicate<double_finite, int_not_na>(table, "is.finite");
  add_predicate<double_infinite, never>(table, "is.infinite");
}

}  // namespace gufunc
