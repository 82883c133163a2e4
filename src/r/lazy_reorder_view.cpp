// t(), aperm() and rev() of a lazy vector as views (and runs read backwards, x[n:1]):
// the same elements in another order, read in place with a stride (engine/graph.hpp)
// rather than copied. Of a deferred element-wise expression the view is the same
// expression over the reordered operands (view_pushdown.hpp), so t(x) * 2 + y fuses
// into one kernel. What the views cannot pass (a reduction, a gufunc, a
// subassignment, a repetition or rolled view) is computed once, and its values viewed.
#include <functional>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/view_pushdown.hpp"

namespace gufunc {
namespace r {

namespace {

// Whether `view` reads plain columns of memory that a stride can reorder (not a
// repetition, a circular shift or a file of bytes).
bool reorderable(const engine::View& view) {
  return view.each == 1 && !view.bytes && !view.is_rolled() && !view.has_planes() &&
         !(view.is_block() && view.column_step == 0);
}

// A block that reads consecutive elements is written as a contiguous view.
void simplify(engine::View* view) {
  if (view->is_block() && !view->is_strided() &&
      (view->column_step == view->rows || view->length == view->rows)) {
    view->rows = view->column_step = 0;
  }
}

// `view`, an nr x nc matrix in column-major order, transposed: column j of the
// result is row j of the matrix. A block whose columns are the matrix's (or
// contiguous memory) has one: rows and columns swap their strides.
bool transposed(engine::View* view, intptr_t nr, intptr_t nc) {
  if (!reorderable(*view) || view->length != nr * nc) return false;
  if (nr == 1 || nc == 1) return true;  // the same order
  intptr_t down = 1, across = nr;
  if (view->is_block()) {
    if (view->rows != nr) return false;
    down = view->row_stride;
    across = view->column_step;
  }
  view->rows = nc;
  view->row_stride = across;
  view->column_step = down;
  simplify(view);
  return true;
}

// `view` read backwards: from its last element, every stride negated.
bool reversed(engine::View* view) { return view->length >= 2 && read_backwards(view, true, true); }

// The view of lazy vector x that `change` makes of every input of its graph.
SEXP reordered_view(SEXP x, const std::function<bool(engine::View*)>& change, SEXP min_length,
                    SEXP attributes) {
  return with_warnings([&](unsigned* warnings) -> SEXP {
    // Any lazy vector: what the view cannot pass is computed first.
    if (lazy_inside(x) != x || state_of(x).failed) return R_NilValue;
    return view_of(x, state_of(x).length, true, Rf_asReal(min_length), attributes, warnings,
                   [&](const engine::NodePtr& node) {
                     NodeMemo done;
                     auto other = [](const engine::NodePtr&, int) { return engine::NodePtr(); };
                     return pushed_down(node, change, other, &done, 0);
                   });
  });
}

// .Call(C_lazy_transpose_view, x, nr, nc, min_length, attributes): x as an nr x nc
// matrix, transposed, with `attributes`; NULL where R's own t() applies.
SEXP lazy_transpose_view_entry(SEXP x, SEXP nr, SEXP nc, SEXP min_length, SEXP attributes) {
  const intptr_t rows = static_cast<intptr_t>(Rf_asReal(nr));
  const intptr_t columns = static_cast<intptr_t>(Rf_asReal(nc));
  return reordered_view(
      x, [&](engine::View* view) { return transposed(view, rows, columns); }, min_length,
      attributes);
}

// .Call(C_lazy_reverse_view, x, min_length, attributes): rev(x), with `attributes`.
SEXP lazy_reverse_view_entry(SEXP x, SEXP min_length, SEXP attributes) {
  return reordered_view(x, reversed, min_length, attributes);
}

}  // namespace

namespace {

// One level of `view` (its rows, columns or planes: `count` of them, `*step`
// elements apart) read last to first: *step negated, and the view moved on to where
// its last one starts.
void count_down(engine::View* view, intptr_t count, intptr_t* step) {
  if (count < 2) return;
  const intptr_t bytes = (count - 1) * *step * static_cast<intptr_t>(dtype_size(view->dtype));
  if (view->data != nullptr) view->data += bytes;  // (no memory: generated)
  view->offset += bytes;                           // as blockability.hpp counts them
  *step = -*step;
}

}  // namespace

bool read_backwards(engine::View* view, bool rows_backward, bool columns_backward) {
  if (!reorderable(*view)) return false;
  if (view->length < 2 || !(rows_backward || columns_backward)) return true;
  if (!view->is_block()) {  // one column
    view->rows = view->length;
    view->column_step = view->length;
  }
  if (view->length % view->rows != 0) return false;
  if (rows_backward) count_down(view, view->rows, &view->row_stride);
  if (columns_backward) count_down(view, view->length / view->rows, &view->column_step);
  simplify(view);
  return true;
}

bool planes_backwards(engine::View* view, bool columns_backward, bool planes_backward) {
  if (!view->has_planes() || view->is_strided() || view->is_rolled() || view->each != 1 ||
      view->bytes || view->length % (view->rows * view->plane_columns) != 0) {
    return false;
  }
  const intptr_t planes = view->length / (view->rows * view->plane_columns);
  if (columns_backward) count_down(view, view->plane_columns, &view->column_step);
  if (planes_backward) count_down(view, planes, &view->plane_step);
  return true;
}

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_transpose_view, gufunc::r::lazy_transpose_view_entry, 5);
GUFUNC_CALL_ENTRY(lazy_reverse_view, gufunc::r::lazy_reverse_view_entry, 3);
