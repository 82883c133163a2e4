// What the subscripts of x[...] pick of an array, read from the calling S3 method's
// `...` in C (array_region.cpp): `[.gufunc_lazy` makes a view of it
// (array_view.cpp) and `[<-.gufunc_lazy` a deferred write (R/lazy_assign.R).
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include <vector>

namespace gufunc {
namespace r {

// What one dimension's subscript picks: `n` indices, the first `first` (0-based),
// `by` apart (negative: counting down, m[n:1, ]); rolled: all of them, shifted
// circularly by `roll`.
struct Run {
  double first = 0, n = 0, by = 1, roll = 0;
};

// The runs of every dimension, the drop argument, and the block of elements they
// pick in storage order: pick = c(first, rows, columns, step, planes, plane_step),
// `columns` runs of `rows` consecutive elements, `step` apart, those repeated
// `planes` times, `plane_step` apart (a circular shift of the first two
// dimensions: the block it rolls, in one plane). Where dimensions count down, the
// block is read backwards: each run last to first (rows_backward, the first
// dimension's, without planes), the runs (columns_backward) or the planes
// (planes_backward), each a later dimension's; equally spaced indices of the first
// dimension with one later dimension picking several (m[seq(1, n, 2), j:k]) are
// runs of elements `row_step` apart. Views read such regions; a subassignment
// writes a backward one counting up, its value reordered (R/lazy_assign.R), and
// spaced rows as runs of one element.
struct ArrayRegion {
  std::vector<Run> runs;
  int drop = TRUE;
  double pick[6] = {0, 0, 0, 0, 1, 0};
  double row_step = 1;
  bool rows_backward = false, columns_backward = false, planes_backward = false;
};

enum class ArraySubscripts {
  kOther,      // other names, another count, other types: R's rules are to read them
  kIrregular,  // numbers, but not one run per dimension forming one block
  kBlock,      // *region filled in
};

// Reads the subscripts of x[...] (and perhaps drop =) from the `...` of the S3
// method whose environment is `frame`, x an array: forced in order, as R's `[`
// evaluates them. A subscript is a run when it is missing or a number vector
// without attributes picking one run of its dimension (pick_of()).
ArraySubscripts read_array_subscripts(SEXP x, SEXP frame, ArrayRegion* region);

// The two subscripts of x[i, j] from the same `...`, forced in order; false (none
// forced) where `...` holds anything but two untagged subscripts. The caller has
// made sure that neither is missing (R's missing(..1), which follows a missing
// argument passed on). R's errors of forcing them may jump (run it in guarded()).
bool two_subscripts(SEXP frame, SEXP* i, SEXP* j);

}  // namespace r
}  // namespace gufunc
