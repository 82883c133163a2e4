// The comparison family: == != < <= > >= give logical; an NA or NaN operand
// gives NA. Logical operands compare as integers (promotion is free).
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>
#include <functional>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

inline bool is_missing(int x) { return x == rsem::kNaInt; }
inline bool is_missing(double x) { return std::isnan(x); }

template <class T, class Compare>
struct Relation {
  using In1 = T;
  using In2 = T;
  using Out = int;
  static int apply(T x, T y, unsigned&) {
    return (is_missing(x) | is_missing(y)) ? rsem::kNaInt : static_cast<int>(Compare()(x, y));
  }
};

template <class Compare>
void add_relation(Table& table, const char* name) {
  add_builtins(
      table, Family::Comparison,
      {strided_init(name, "integer, integer -> logical", binary_loop<Relation<int, Compare>>),
       strided_init(name, "double, double -> logical", binary_loop<Relation<double, Compare>>)},
      kCheapToRecompute);
}

}  // namespace

void register_comparison_kernels(Table& table) {
  add_relation<std::equal_to<>>(table, "==");
  add_relation<std::not_equal_to<>>(table, "!=");
  add_relation<std::less<>>(table, "<");
  add_relation<std::less_equal<>>(table, "<=");
  add_relation<std::greater<>>(table, ">");
  add_relation<std::greater_equal<>>(table, ">=");
}

}  // namespace gufunc
