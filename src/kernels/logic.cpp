// The logic family: & | ! with R's three-valued logic, and ifelse()'s choice.
// Numbers count as logical the way as.logical() sees them: 0 is FALSE, NA and NaN
// are NA, others TRUE.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/r_summary.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

using rsem::kNaInt;

inline int as_logical(int x) { return rsem::int_as_logical(x); }
inline int as_logical(double x) { return rsem::double_as_logical(x); }

// FALSE wins over NA in &.
struct AndRule {
  static int combine(int a, int b) {
    return ((a == 0) | (b == 0)) ? 0 : ((a == kNaInt) | (b == kNaInt)) ? kNaInt : 1;
  }
};

// TRUE wins over NA in |.
struct OrRule {
  static int combine(int a, int b) {
    return ((a == 1) | (b == 1)) ? 1 : ((a == 0) & (b == 0)) ? 0 : kNaInt;
  }
};

template <class T, class Rule>
struct Binary {
  using In1 = T;
  using In2 = T;
  using Out = int;
  static int apply(T x, T y, unsigned&) { return Rule::combine(as_logical(x), as_logical(y)); }
};

template <class T>
struct Not {
  using In = T;
  using Out = int;
  static int apply(T x, unsigned&) {
    const int a = as_logical(x);
    return a == kNaInt ? kNaInt : (a == 0 ? 1 : 0);
  }
};

// ifelse(test, yes, no) for one element, yes and no of one type: yes's or no's value
// as it is, NA of the type where the test is NA. (Base R's result is logical when
// every test is NA; the R caller checks that first.)
template <class T>
struct Select {
  using In1 = int;
  using In2 = T;
  using In3 = T;
  using Out = T;
  static T apply(int test, T yes, T no, unsigned&) {
    return test == kNaInt ? na() : (test != 0 ? yes : no);
  }
  static T na();
};
template <>
inline double Select<double>::na() {
  return rsem::na_real();
}
template <>
inline int Select<int>::na() {
  return kNaInt;
}

}  // namespace

void register_logic_kernels(Table& table) {
  add_builtins(
      table, Family::Logic,
      {
          strided_init("&", "logical, logical -> logical", binary_loop<Binary<int, AndRule>>),
          strided_init("&", "integer, integer -> logical", binary_loop<Binary<int, AndRule>>),
          strided_init("&", "double, double -> logical", binary_loop<Binary<double, AndRule>>),
          strided_init("|", "logical, logical -> logical", binary_loop<Binary<int, OrRule>>),
          strided_init("|", "integer, integer -> logical", binary_loop<Binary<int, OrRule>>),
          strided_init("|", "double, double -> logical", binary_loop<Binary<double, OrRule>>),
      },
      kCheapToRecompute);
  add_builtins(table, Family::Not,
               {
                   strided_init("!", "logical -> logical", unary_loop<Not<int>>),
                   strided_init("!", "integer -> logical", unary_loop<Not<int>>),
                   strided_init("!", "double -> logical", unary_loop<Not<double>>),
               },
               kCheapToRecompute);
  add_builtins(
      table, Family::Select,
      {
          strided_init("ifelse", "logical, double, double -> double", ternary_loop<Select<double>>),
          strided_init("ifelse", "logical, integer, integer -> integer", ternary_loop<Select<int>>),
          strided_init("ifelse", "logical, logical, logical -> logical", ternary_loop<Select<int>>),
      },
      kCheapToRecompute);
}

}  // namespace gufunc
