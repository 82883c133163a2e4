// Sums and means over the rows or the columns of a value seen as an n x p
// column-major matrix: base R's colSums/colMeans (one result per column) and
// rowSums/rowMeans (one per row), with `dims` folded into n and p by the caller.
// The value is computed in chunks and never stored whole, so
// rowSums(f * dx) or rowSums(a, dims = 2) of a deferred expression is one pass.
// The arithmetic is base R's (R 4.2 src/main/array.c, do_colsum): each result
// accumulates in one long double in index order (a column top to bottom; a row
// column by column), so its bits are base R's whatever the threads and chunks.
#pragma once

#include <cstdint>

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

struct MarginReduction {
  bool rows = false;  // one result per row (rowSums), else per column (colSums)
  bool mean = false;  // divide by the count (rowMeans, colMeans)
  bool na_rm = false;
  intptr_t n = 0, p = 0;  // rows and columns; n * p is the value's length
  intptr_t results() const { return rows ? n : p; }
};

// Writes the r.results() doubles to `out`; returns the warning bits of computing
// `root` (double, integer or logical values). Throws gufunc_internal_error when
// n * p is not root's length.
unsigned reduce_margin(const NodePtr& root, const MarginReduction& r, double* out,
                       const EvalOptions& options);

}  // namespace engine
}  // namespace gufunc
