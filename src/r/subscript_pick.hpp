// What a numeric subscript picks of a vector when it picks regular runs (x[a:b],
// x[-1], x[seq(a, b, by)], a circular shift), read without expanding R's compact
// sequences. Views (lazy_view.cpp), array subscripts (array_region.cpp) and
// subassignments (R/lazy_assign.R, through C_subscript_pick) share it.
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

namespace gufunc {
namespace r {

// What a subscript picks: `columns` runs of `rows` consecutive elements, the first
// at 0-based position `first`, each `step` elements after the previous one (one
// run: columns 1); rolled (a circular shift, x[c(n, 1:(n - 1))]), element k of a
// run is its element (k + row_roll) % rows, and run k is run (k + column_roll) %
// columns. With `planes` > 1 (the block of a three-dimensional array,
// a[i:j, k:l, m:n]; never rolled) those runs repeat `planes` times, each time
// `plane_step` elements after the previous. For views only (never rolled): the
// elements of a run may be `row_step` apart (m[seq(1, n, 2), j:k]; no planes), and
// read backwards (x[b:a], m[n:1, ], a[, , k:1]) the elements of each run come last to
// first (rows_backward; no planes), the runs do (columns_backward) or the planes
// (planes_backward).
struct Pick {
  R_xlen_t first = 0, rows = 0, columns = 1, step = 0;
  R_xlen_t row_roll = 0, column_roll = 0;
  R_xlen_t planes = 1, plane_step = 0;
  R_xlen_t row_step = 1;
  bool rows_backward = false, columns_backward = false, planes_backward = false;
  R_xlen_t length() const { return rows * columns * planes; }
  bool rolled() const { return row_roll != 0 || column_roll != 0; }
  bool backward() const { return rows_backward || columns_backward || planes_backward; }
};

// What `index` picks from a vector of `length` elements, if it picks regular runs
// of at least one element the way R's subscript rules would. Anything else (NA, 0,
// beyond the end, mixed signs, fractions, logical or character subscripts, an order
// other than increasing) is left to R.
bool pick_of(SEXP index, R_xlen_t length, Pick* pick);

// What `index` picks when it counts down at a regular distance (x[b:a],
// x[seq(b, a, by = -k)]; at least two positions, all in range): one run read
// backwards, or single elements k apart taken last to first: views read such
// picks, and subassignments write them counting up (R/lazy_assign.R). pick_of()
// sets no backward flag.
bool backward_pick_of(SEXP index, R_xlen_t length, Pick* pick);

}  // namespace r
}  // namespace gufunc
