// The extreme family: one step of base R's pmax()/pmin() (do_pmin in summary.c).
// Base R starts from the first argument and folds each further argument into the
// running result, element by element; pmax(a, b, c) is therefore the step applied
// twice, step(step(a, b), c), which is how the R side chains these kernels. The
// step keeps the running value unless the new one is larger (smaller) and neither
// is NA; without na.rm an NA or NaN of the new argument always replaces it (so the
// last missing value wins), with na.rm a missing running value is replaced by the
// new one. The types are R's: logical arguments count as integers.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

inline bool missing(double x) { return x != x; }
inline bool missing(int x) { return x == rsem::kNaInt; }

// Op::beyond(a, b): a lies beyond b in the direction of the extreme.
struct Larger {
  template <class T>
  static bool beyond(T a, T b) {
    return a > b;
  }
};
struct Smaller {
  template <class T>
  static bool beyond(T a, T b) {
    return a < b;
  }
};

template <class T, class Direction, bool NaRm>
struct ExtremeStep {
  using In1 = T;
  using In2 = T;
  using Out = T;
  static T apply(T running, T next, unsigned&) {
    const bool replace =
        NaRm ? (missing(running) || (!missing(next) && Direction::beyond(next, running)))
             : (missing(next) || (!missing(running) && Direction::beyond(next, running)));
    return replace ? next : running;
  }
};

template <class Direction, bool NaRm>
void add_step(Table& table, const char* name) {
  add_builtins(table, Family::Extreme,
               {
                   strided_init(name, "double, double -> double",
                                binary_loop<ExtremeStep<double, Direction, NaRm>>),
                   strided_init(name, "integer, integer -> integer",
                                binary_loop<ExtremeStep<int, Direction, NaRm>>),
               },
               kCheapToRecompute);
}

}  // namespace

void register_extreme_kernels(Table& table) {
  add_step<Larger, false>(table, "pmax");
  add_step<Larger, true>(table, "pmax_na_rm");
  add_step<Smaller, false>(table, "pmin");
  add_step<Smaller, true>(table, "pmin_na_rm");
}

}  // namespace gufunc
