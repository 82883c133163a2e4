// Views: a subset of a lazy vector that picks one run of consecutive elements
// (x[a:b], x[-1], x[-n], x[-(1:k)], m[, j:k], a[, , i]) or runs of equal length at
// a regular distance (m[i:j, k:l], x[seq(a, b, by)], m[i, ]) is, for values at hand
// (lazy(x), a materialized value, a contiguous view), a lazy input over the same
// memory (a block view: engine/graph.hpp), not a copy; for a deferred element-wise
// expression, the same expression over the picked elements of its operands.
// Either way expressions on it fuse with everything else. Of a pending
// subassignment (lazy_assign.cpp) it views the version before, or the value
// written, when the pick misses or lies inside the writes; else the new version is
// computed, once, and viewed.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "dispatch/apply.hpp"
#include "engine/shared_views.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/view_pushdown.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

// What a subscript picks: `columns` runs of `rows` consecutive elements, the first
// at 0-based position `first`, each `step` elements after the previous one (one
// run: columns 1); rolled (a circular shift, x[c(n, 1:(n - 1))]), element k of a
// run is its element (k + row_roll) % rows, and run k is run (k + column_roll) %
// columns.
struct Pick {
  R_xlen_t first = 0, rows = 0, columns = 1, step = 0;
  R_xlen_t row_roll = 0, column_roll = 0;
  R_xlen_t length() const { return rows * columns; }
  bool rolled() const { return row_roll != 0 || column_roll != 0; }
};

// Calls f(value) for each element of the integer or double vector `index` while f
// returns true; false if f stopped. Reads ALTREP subscripts (R's a:b) in regions,
// without expanding them.
template <class F>
bool each_position(SEXP index, F f) {
  const R_xlen_t n = XLENGTH(index);
  const R_xlen_t chunk = 1024;
  if (TYPEOF(index) == INTSXP) {
    int buffer[1024];
    for (R_xlen_t i = 0; i < n; i += chunk) {
      const R_xlen_t got = INTEGER_GET_REGION(index, i, std::min(chunk, n - i), buffer);
      for (R_xlen_t k = 0; k < got; ++k) {
        if (buffer[k] == NA_INTEGER || !f(static_cast<double>(buffer[k]))) return false;
      }
    }
  } else {
    double buffer[1024];
    for (R_xlen_t i = 0; i < n; i += chunk) {
      const R_xlen_t got = REAL_GET_REGION(index, i, std::min(chunk, n - i), buffer);
      for (R_xlen_t k = 0; k < got; ++k) {
        if (!f(buffer[k])) return false;
      }
    }
  }
  return true;
}

// Positive positions (1-based) in runs of equal length at a regular distance:
// x[a:b], x[seq(a, b, by)], and what m[i:j, k:l] picks from a column-major matrix.
bool regular_positions(SEXP index, R_xlen_t length, Pick* pick) {
  const double limit = static_cast<double>(length);
  R_xlen_t count = 0, in_column = 0, column_start = 0, previous = 0;
  const bool ok = each_position(index, [&](double d) {
    if (!(d >= 1 && d <= limit) || d != std::trunc(d)) return false;
    const R_xlen_t p = static_cast<R_xlen_t>(d) - 1;
    if (count++ == 0) {
      pick->first = column_start = p;
      in_column = 1;
    } else if (p == previous + 1 && (pick->rows == 0 || in_column < pick->rows)) {
      ++in_column;
    } else if (pick->rows == 0) {  // the second run starts: its distance is the step
      pick->rows = in_column;
      if (p < column_start + pick->rows) return false;
      pick->step = p - column_start;
      pick->columns = 2;
      column_start = p;
      in_column = 1;
    } else if (in_column == pick->rows && p == column_start + pick->step) {
      ++pick->columns;
      column_start = p;
      in_column = 1;
    } else {
      return false;
    }
    previous = p;
    return true;
  });
  if (!ok) return false;
  if (pick->rows == 0) pick->rows = in_column;  // one run
  return in_column == pick->rows;
}

// Negative positions removing one run at either end of the vector: what remains.
bool remaining_run(SEXP index, R_xlen_t length, Pick* pick) {
  const double limit = static_cast<double>(length);
  double first = 0, previous = 0;
  R_xlen_t count = 0;
  const bool ok = each_position(index, [&](double p) {
    if (!(p <= -1 && p >= -limit) || p != std::trunc(p)) return false;
    if (count++ > 0 && p != previous - 1) return false;
    if (count == 1) first = p;
    previous = p;
    return true;
  });
  if (!ok) return false;
  // -a, -(a+1), ..., -b removes [a, b].
  const R_xlen_t a = static_cast<R_xlen_t>(-first), b = static_cast<R_xlen_t>(-previous);
  if (a == 1 && b < length) {
    pick->first = b;
    pick->rows = length - b;
    return true;
  }
  if (b == length && a > 1) {
    pick->first = 0;
    pick->rows = a - 1;
    return true;
  }
  return false;
}

// The k of an index c((k + 1):n, 1:k) (its first element `first`) of all n
// elements shifted circularly (0 < k < n), or 0.
R_xlen_t rotation_of(SEXP index, double first, R_xlen_t n) {
  if (XLENGTH(index) != n || !(first >= 2 && first <= static_cast<double>(n))) return 0;
  double expected = first;
  const bool ok = each_position(index, [&](double p) {
    if (p != expected) return false;
    expected = expected == static_cast<double>(n) ? 1 : expected + 1;
    return true;
  });
  return ok ? static_cast<R_xlen_t>(first) - 1 : 0;
}

// What `index` picks from a vector of `length` elements, if it picks regular runs
// of at least one element the way R's subscript rules would. Anything else (NA, 0,
// beyond the end, mixed signs, fractions, logical or character subscripts, an order
// other than increasing) is left to R.
bool pick_of(SEXP index, R_xlen_t length, Pick* pick) {
  if (TYPEOF(index) != INTSXP && TYPEOF(index) != REALSXP) return false;
  if (XLENGTH(index) == 0) return false;
  const double first = TYPEOF(index) == INTSXP ? INTEGER_ELT(index, 0) : REAL_ELT(index, 0);
  if (first < 0) return remaining_run(index, length, pick);
  if (regular_positions(index, length, pick)) return true;
  *pick = Pick();
  pick->row_roll = rotation_of(index, first, length);
  pick->rows = length;
  return pick->row_roll != 0;
}

// `view` moved on by `bytes`, in the buffer it views (offset: as blockability.hpp
// counts) and in memory, unless it is a source's view (engine/shared_views.hpp),
// whose memory is not known yet (null data).
void advance(engine::View* view, intptr_t bytes) {
  if (view->data != nullptr) view->data += bytes;
  view->offset += bytes;
}

// `view` narrowed to what `pick` picks of it, or false when that is not a view:
// of a block view (columns of R elements, S apart), each picked run must lie in one
// of its columns (the picked runs then start a whole number of columns apart) or
// be whole columns of it, one run.
bool narrowed(engine::View* view, const Pick& pick) {
  const intptr_t size = static_cast<intptr_t>(dtype_size(view->dtype));
  if (view->each > 1 || (view->is_block() && view->column_step == 0)) return false;  // rep()
  if (view->bytes) return false;  // a file of bytes: picked elements are read, widened
  if (view->is_rolled()) {
    // Only the whole of a circular shift is one.
    return !pick.rolled() && pick.first == 0 && pick.columns == 1 && pick.rows == view->length;
  }
  if (pick.rolled()) {
    if (view->is_strided()) return false;
    // The elements picked, as a block of pick.rows rows, then rolled.
    Pick whole = pick;
    whole.row_roll = whole.column_roll = 0;
    if (!narrowed(view, whole)) return false;
    if (!view->is_block()) {
      view->rows = view->column_step = pick.rows;
    } else if (view->rows != pick.rows) {
      return false;
    }
    view->row_roll = pick.row_roll;
    view->column_roll = pick.column_roll;
    return true;
  }
  if (!view->is_block()) {
    advance(view, static_cast<intptr_t>(pick.first) * size);
    view->length = pick.length();
    if (pick.columns > 1) {
      view->rows = pick.rows;
      view->column_step = pick.step;
    }
    return true;
  }
  const intptr_t R = view->rows, S = view->column_step, stride = view->row_stride;
  const intptr_t row = pick.first % R, column = pick.first / R;
  const intptr_t skipped = (row * stride + column * S) * size;
  if (row + pick.rows <= R && (pick.columns == 1 || pick.step % R == 0)) {
    if (pick.columns > 1) {
      view->rows = pick.rows;
      view->column_step = pick.step / R * S;
    } else if (view->is_strided()) {  // one run of a column read with a stride
      view->rows = pick.rows;
      view->column_step = pick.rows * stride;
    } else {  // one run: consecutive elements
      view->rows = view->column_step = 0;
    }
  } else if (row == 0 && pick.columns == 1 && pick.rows % R == 0) {
    // whole columns: the same rows and step
  } else {
    return false;
  }
  advance(view, skipped);
  view->length = pick.length();
  return true;
}

// Where the runs a pick picks lie against the positions a subassignment writes.
enum class Overlap { None, Inside, Partial };

// Run [a, b) of positions against region `r`; for Inside, *at is the value's
// element written at position a.
Overlap run_overlap(const engine::Region& r, intptr_t a, intptr_t b, intptr_t* at) {
  const intptr_t c = r.column_ending_after(a);
  if (c >= r.columns) return Overlap::None;
  const intptr_t p = r.first + c * r.step;
  if (p >= b) return Overlap::None;
  if (a < p || b > p + r.rows) return Overlap::Partial;
  *at = c * r.rows + (a - p);
  return Overlap::Inside;
}

// Whether `pick` misses region `r`, lies inside it (*in_value: what it picks of the
// written value, when that is again regular runs), or anything else (Partial).
Overlap pick_overlap(const engine::Region& r, const Pick& pick, Pick* in_value) {
  intptr_t first_at = 0, step_at = 0;
  int kinds = 0;  // bit 0: a run outside, bit 1: a run inside
  for (R_xlen_t k = 0; k < pick.columns; ++k) {
    const intptr_t a = pick.first + k * pick.step;
    intptr_t at = 0;
    const Overlap o = run_overlap(r, a, a + pick.rows, &at);
    if (o == Overlap::Partial) return Overlap::Partial;
    kinds |= o == Overlap::None ? 1 : 2;
    if (kinds == 3) return Overlap::Partial;
    if (o == Overlap::None) continue;
    if (k == 0) first_at = at;
    if (k == 1) step_at = at - first_at;
    if (k > 0 && at != first_at + k * step_at) return Overlap::Partial;
  }
  if (kinds == 1) return Overlap::None;
  in_value->first = first_at;
  in_value->rows = pick.rows;
  in_value->columns = pick.columns;
  in_value->step = step_at;
  in_value->row_roll = pick.row_roll;
  in_value->column_roll = pick.column_roll;
  if (pick.columns > 1 && step_at == pick.rows && !pick.rolled()) {
    in_value->rows = pick.rows * pick.columns;
    in_value->columns = 1;
    in_value->step = 0;
  }
  return Overlap::Inside;
}

// The elements `pick` picks of `node`'s values, as a graph (view_pushdown.hpp): an
// input view narrowed, an element-wise map over the picked elements of its
// arguments, so x[-1] of a deferred x * 2 is (view) * 2 and fuses; of a pending
// subassignment, the same pick of the version before it where the pick misses
// what it writes, or the matching pick of the value written (in memory) where the
// pick lies inside that. nullptr where that does not hold (reductions over the
// whole, gufuncs, a pick that meets a write in part).
engine::NodePtr picked_graph(const engine::NodePtr& node, const Pick& pick, NodeMemo* done,
                             int depth) {
  auto change = [&](engine::View* view) { return narrowed(view, pick); };
  auto other = [&](const engine::NodePtr& n, int d) -> engine::NodePtr {
    if (n->kind != engine::NodeKind::Assign) return nullptr;
    engine::NodePtr version = n;
    for (; version->kind == engine::NodeKind::Assign; version = version->children[0]) {
      Pick in_value;
      const Overlap o = pick_overlap(version->region, pick, &in_value);
      if (o == Overlap::Partial) return nullptr;
      if (o == Overlap::None) continue;
      const engine::NodePtr& value = version->children[1];
      // A value in memory only: a view into a deferred one would compute it again
      // for every step of a loop that reads it back (center <- grid[inner]), next
      // to computing it for the new version.
      if (value->kind != engine::NodeKind::Input || value->length == 1) return nullptr;
      // Another index space: nodes picked there are not those picked here.
      NodeMemo in_value_done;
      return picked_graph(value, in_value, &in_value_done, d + 1);
    }
    return picked_graph(version, pick, done, d + 1);
  };
  return pushed_down(node, change, other, done, depth);
}

}  // namespace

bool viewable(SEXP x) {
  if (lazy_inside(x) != x) return false;
  const LazyState& s = state_of(x);
  return !s.failed && (values_of(x) != R_NilValue || s.kind == engine::NodeKind::Input ||
                       s.kind == engine::NodeKind::Map || s.kind == engine::NodeKind::Assign);
}

SEXP with_warnings(const std::function<SEXP(unsigned*)>& make) {
  unsigned warnings = 0;
  SEXP out = PROTECT(guarded([&]() -> SEXP { return make(&warnings); }));
  raise_warnings(warnings);
  UNPROTECT(1);
  return out;
}

namespace {

SEXP lazy_viewable_entry(SEXP x) {
  return guarded([&]() -> SEXP { return Rf_ScalarLogical(viewable(x)); });
}

// Whether lazy vector x has no class but "gufunc_lazy".
bool only_the_lazy_class(SEXP x) {
  SEXP cls = Rf_getAttrib(x, R_ClassSymbol);
  return TYPEOF(cls) == STRSXP && XLENGTH(cls) == 1 &&
         std::strcmp(CHAR(STRING_ELT(cls, 0)), "gufunc_lazy") == 0;
}

}  // namespace

SEXP view_of(SEXP x, R_xlen_t length, bool compute, SEXP min_length, SEXP attributes,
             unsigned* warnings,
             const std::function<engine::NodePtr(const engine::NodePtr&)>& build) {
  // A view too small to stay lazy gives its values, computed now from the same
  // view (only what is picked), as a plain vector: R code would otherwise work out
  // the positions once more and read them an element at a time.
  const bool small = static_cast<double>(length) < Rf_asReal(min_length);
  // (Values at hand: R subsets them, ALTREP ones such as 1:n without expanding.)
  if (small && (values_of(x) != R_NilValue || !only_the_lazy_class(x))) return R_NilValue;
  NodeUse use = lazy_node_use(x);
  engine::NodePtr viewed = build(use.node);
  if (!viewed && values_of(x) == R_NilValue &&
      (compute || state_of(x).kind == engine::NodeKind::Assign)) {
    materialize_lazy(x, warnings);
    use = lazy_node_use(x);
    viewed = build(use.node);
  }
  if (!viewed) return R_NilValue;
  PROTECT(use.leaves);
  SEXP out = PROTECT(new_lazy_vector(std::move(viewed), use.leaves, attributes));
  state_of(out).warned = state_of(x).warned;  // the value's warnings, raised once
  if (small) {
    unsigned more = 0;
    out = PROTECT(computed_copy(out, &more));
    *warnings |= more;
    set_plain_attributes(out, attributes);
    UNPROTECT(1);
  }
  UNPROTECT(2);
  return out;
}

namespace {

// `viewed` (the graph `pick` makes of `node`'s) as the root of a view that knows
// its source (engine/shared_views.hpp): the deferred element-wise expression it
// views, so a batch reading several views of it computes it once. A view of such a
// view has the same source (its view narrowed again), so sources do not chain.
engine::NodePtr with_source(const engine::NodePtr& node, const Pick& pick,
                            const engine::NodePtr& viewed) {
  if (!viewed || viewed == node || viewed->kind != engine::NodeKind::Map ||
      node->kind != engine::NodeKind::Map) {
    return viewed;
  }
  engine::ViewSource source;
  if (node->source) {
    source = *node->source;
  } else {
    source.base = node;
    source.view.dtype = node->dtype;
    source.view.length = node->length;
  }
  if (!narrowed(&source.view, pick)) return viewed;
  auto out = std::make_shared<engine::Node>(*viewed);
  out->source = std::make_shared<const engine::ViewSource>(std::move(source));
  return out;
}

// The view of lazy vector x that `pick` picks (view_of).
SEXP picked_view(SEXP x, const Pick& pick, SEXP min_length, SEXP attributes, unsigned* warnings) {
  return view_of(x, pick.length(), false, min_length, attributes, warnings,
                 [&](const engine::NodePtr& node) {
                   NodeMemo done;
                   return with_source(node, pick, picked_graph(node, pick, &done, 0));
                 });
}

}  // namespace

bool subscript_run(SEXP index, R_xlen_t extent, R_xlen_t* first, R_xlen_t* count) {
  Pick pick;
  if (!pick_of(index, extent, &pick) || pick.rolled() || pick.columns != 1) return false;
  *first = pick.first;
  *count = pick.rows;
  return true;
}

SEXP block_view(SEXP x, R_xlen_t first, R_xlen_t rows, R_xlen_t columns, R_xlen_t step,
                SEXP min_length, SEXP attributes, unsigned* warnings) {
  Pick pick;
  pick.first = first;
  pick.rows = rows;
  pick.columns = columns;
  pick.step = columns > 1 ? step : 0;
  return picked_view(x, pick, min_length, attributes, warnings);
}

namespace {

// .Call(C_lazy_view, x, index, min_length, attributes): the elements of lazy
// vector x that `index` picks (R's subscript rules on a vector, its attributes
// ignored), as a view (view_of).
SEXP lazy_view_entry(SEXP x, SEXP index, SEXP min_length, SEXP attributes) {
  return with_warnings([&](unsigned* warnings) -> SEXP {
    if (!viewable(x)) return R_NilValue;
    Pick pick;
    if (!pick_of(index, state_of(x).length, &pick)) return R_NilValue;
    return picked_view(x, pick, min_length, attributes, warnings);
  });
}

// .Call(C_lazy_view_block, x, c(first, rows, columns, step, row_roll,
// column_roll), min_length, attributes): the view of the elements of lazy array x
// that R code worked out from its subscripts (R/lazy_array_views.R).
SEXP lazy_view_block_entry(SEXP x, SEXP where, SEXP min_length, SEXP attributes) {
  return with_warnings([&](unsigned* warnings) -> SEXP {
    if (!viewable(x) || TYPEOF(where) != REALSXP || XLENGTH(where) != 6) return R_NilValue;
    Pick pick;
    pick.first = static_cast<R_xlen_t>(REAL(where)[0]);
    pick.rows = static_cast<R_xlen_t>(REAL(where)[1]);
    pick.columns = static_cast<R_xlen_t>(REAL(where)[2]);
    pick.step = static_cast<R_xlen_t>(REAL(where)[3]);
    pick.row_roll = static_cast<R_xlen_t>(REAL(where)[4]);
    pick.column_roll = static_cast<R_xlen_t>(REAL(where)[5]);
    const R_xlen_t last = pick.first + (pick.columns - 1) * pick.step + pick.rows;
    if (pick.first < 0 || pick.rows < 1 || pick.columns < 1 || last > state_of(x).length ||
        (pick.columns > 1 && pick.step < pick.rows) || pick.row_roll < 0 ||
        pick.row_roll >= pick.rows || pick.column_roll < 0 || pick.column_roll >= pick.columns) {
      throw Error("gufunc_internal_error", "a block view outside its array");
    }
    return picked_view(x, pick, min_length, attributes, warnings);
  });
}

// .Call(C_subscript_pick, index, extent): c(first, rows, columns, step, roll) of
// the regular runs (first 0-based) that `index` picks from `extent` elements, or
// NULL; roll > 0: all of them, shifted circularly (c((roll + 1):n, 1:roll)).
SEXP subscript_pick_entry(SEXP index, SEXP extent) {
  return guarded([&]() -> SEXP {
    Pick pick;
    const R_xlen_t n = static_cast<R_xlen_t>(Rf_asReal(extent));
    if (!pick_of(index, n, &pick)) return R_NilValue;
    SEXP out = PROTECT(alloc_vector(REALSXP, 5));
    REAL(out)[0] = static_cast<double>(pick.first);
    REAL(out)[1] = static_cast<double>(pick.rows);
    REAL(out)[2] = static_cast<double>(pick.columns);
    REAL(out)[3] = static_cast<double>(pick.step);
    REAL(out)[4] = static_cast<double>(pick.row_roll);
    UNPROTECT(1);
    return out;
  });
}

// .Call(C_lazy_rep_view, values, times, each): rep(values, times = times) (each
// == 1) or rep(values, each = each) (times == 1) of plain vector `values` (of
// length >= 2), as a lazy view of its memory: outer(x, y, f) reads x and y this way,
// so f(x, y) fuses without the two n * m copies.
SEXP lazy_rep_view_entry(SEXP values, SEXP times, SEXP each) {
  return guarded([&]() -> SEXP {
    const double k = Rf_asReal(times), e = Rf_asReal(each);
    const double n = static_cast<double>(XLENGTH(values));
    if (n < 2 || !(k >= 1 && e >= 1) || (k > 1 && e > 1) || n * k * e > 4503599627370496.0) {
      throw Error("gufunc_internal_error", "a repetition view of another shape");
    }
    engine::View view = input_node(values, 1)->view;
    view.length = static_cast<intptr_t>(n * k * e);
    if (k > 1) {
      view.rows = static_cast<intptr_t>(n);
      view.column_step = 0;
    }
    view.each = static_cast<intptr_t>(e);
    SEXP leaves = PROTECT(alloc_vector(VECSXP, 1));
    SET_VECTOR_ELT(leaves, 0, values);
    SEXP out = new_lazy_vector(engine::make_input(view), leaves, R_NilValue);
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_view, gufunc::r::lazy_view_entry, 4);
GUFUNC_CALL_ENTRY(lazy_viewable, gufunc::r::lazy_viewable_entry, 1);
GUFUNC_CALL_ENTRY(lazy_view_block, gufunc::r::lazy_view_block_entry, 4);
GUFUNC_CALL_ENTRY(lazy_rep_view, gufunc::r::lazy_rep_view_entry, 3);
GUFUNC_CALL_ENTRY(subscript_pick, gufunc::r::subscript_pick_entry, 2);
