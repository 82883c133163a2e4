// Views: a subset of a lazy vector that picks one run of consecutive elements
// (x[a:b], x[-1], x[-n], x[-(1:k)], m[, j:k], a[, , i], or backwards: x[b:a]) or
// runs of equal length at a regular distance (m[i:j, k:l], x[seq(a, b, by)],
// m[i, ], m[seq(1, n, 2), j:k]), or planes of such runs
// (a[i:j, k:l, m:n], of contiguous memory only) is, for values at hand
// (lazy(x), a materialized value, a contiguous view), a lazy input over the same
// memory (a block view: engine/graph.hpp), not a copy; for a deferred element-wise
// expression, the same expression over the picked elements of its operands.
// Either way expressions on it fuse with everything else. Of a pending
// subassignment (lazy_assign.cpp) it views the version before, or the value
// written, when the pick misses or lies inside the writes; else the new version is
// computed, once, and viewed.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "dispatch/apply.hpp"
#include "engine/graph.hpp"
#include "engine/mapped_file.hpp"
#include "engine/shared_views.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/output_alloc.hpp"
#include "r/r_arrays.hpp"
#include "r/subscript_pick.hpp"
#include "r/view_pushdown.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

// `view` moved on by `bytes`, in the buffer it views (offset: as blockability.hpp
// counts) and in memory, unless it is a source's view (engine/shared_views.hpp),
// whose memory is not known yet (null data).
void advance(engine::View* view, intptr_t bytes) {
  if (view->data != nullptr) view->data += bytes;
  view->offset += bytes;
}

// `view` (neither rolled nor in planes) narrowed to the runs of elements
// pick.row_step apart that `pick` picks (m[seq(1, n, 2), j:k]); of a block view,
// each run must lie in one of its columns, the runs a whole number of columns apart.
bool spaced(engine::View* view, const Pick& pick) {
  if (pick.planes > 1 || pick.rolled()) return false;
  const intptr_t size = static_cast<intptr_t>(dtype_size(view->dtype));
  intptr_t skipped = pick.first, stride = 1, step = pick.step;  // of contiguous memory
  if (view->is_block()) {
    const intptr_t R = view->rows, row = pick.first % R, column = pick.first / R;
    if (row + (pick.rows - 1) * pick.row_step >= R || (pick.columns > 1 && pick.step % R != 0)) {
      return false;
    }
    skipped = row * view->row_stride + column * view->column_step;
    stride = view->row_stride;
    step = pick.step / R * view->column_step;
  }
  advance(view, skipped * size);
  view->length = pick.length();
  view->rows = pick.rows;
  view->row_stride = stride * pick.row_step;
  view->column_step = pick.columns > 1 ? step : pick.rows * view->row_stride;
  return true;
}

// `view` narrowed to what `pick` picks of it, or false when that is not a view:
// of a block view (columns of R elements, S apart), each picked run must lie in one
// of its columns (the picked runs then start a whole number of columns apart) or
// be whole columns of it, one run.
bool narrowed(engine::View* view, const Pick& pick) {
  const intptr_t size = static_cast<intptr_t>(dtype_size(view->dtype));
  if (view->each > 1 || (view->is_block() && view->column_step == 0)) return false;  // rep()
  if (view->bytes) return false;  // a file of bytes: picked elements are read, widened
  if (view->has_planes()) {       // of a block in planes, only the whole
    return pick.planes == 1 && !pick.rolled() && pick.first == 0 && pick.columns == 1 &&
           pick.rows == view->length;
  }
  // A block in planes (never rolled) is made of contiguous memory only, and not of a
  // file, whose views are read in runs of at most two levels.
  if (pick.planes > 1 && (view->is_block() || view->file_fd >= 0)) return false;
  if (view->is_rolled()) {
    // Only the whole of a circular shift is one.
    return !pick.rolled() && pick.first == 0 && pick.columns == 1 && pick.rows == view->length;
  }
  if (pick.row_step != 1) return spaced(view, pick);
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
    if (pick.columns > 1 || pick.planes > 1) {
      view->rows = pick.rows;
      view->column_step = pick.step;
    }
    if (pick.planes > 1) {
      view->plane_columns = pick.columns;
      view->plane_step = pick.plane_step;
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

// `view` narrowed to `pick`, read backwards where the pick counts down (x[n:1]).
bool picked_from(engine::View* view, const Pick& pick) {
  if (!pick.backward()) return narrowed(view, pick);
  Pick forward = pick;
  forward.rows_backward = forward.columns_backward = forward.planes_backward = false;
  if (pick.rolled() || !narrowed(view, forward)) return false;
  if (pick.planes > 1) {
    return !pick.rows_backward &&
           planes_backwards(view, pick.columns_backward, pick.planes_backward);
  }
  if (pick.rows_backward && view->is_block() && view->rows < pick.rows) {
    // The picked run is whole columns of a block (a view of x[1:2, 1:2] as a
    // vector): read backwards, the columns go last to first too.
    return pick.columns == 1 && read_backwards(view, true, true);
  }
  return read_backwards(view, pick.rows_backward, pick.columns_backward);
}

// Where the runs a pick picks lie against the positions a subassignment writes.
enum class Overlap { None, Inside, Partial };

// Run [a, b) of positions against region `r`; for Inside, *at is the value's
// element written at position a.
Overlap plane_run_overlap(const engine::Region& r, intptr_t a, intptr_t b, intptr_t* at) {
  const intptr_t c = r.column_ending_after(a);
  if (c >= r.columns) return Overlap::None;
  const intptr_t p = r.first + c * r.step;
  if (p >= b) return Overlap::None;
  if (a < p || b > p + r.rows) return Overlap::Partial;
  *at = c * r.rows + (a - p);
  return Overlap::Inside;
}

// The same for a region of planes: the plane the run starts in (or before), and a
// run that starts past that plane's last column but reaches the next plane meets
// it in part.
Overlap run_overlap(const engine::Region& r, intptr_t a, intptr_t b, intptr_t* at) {
  if (r.planes == 1) return plane_run_overlap(r, a, b, at);
  const intptr_t k = a < r.first ? 0 : std::min((a - r.first) / r.plane_step, r.planes - 1);
  const Overlap o = plane_run_overlap(r.plane(k), a, b, at);
  if (o == Overlap::Inside) *at += k * r.rows * r.columns;
  if (o != Overlap::None) return o;
  if (k + 1 < r.planes && b > r.first + (k + 1) * r.plane_step) return Overlap::Partial;
  return Overlap::None;
}

// Whether `pick` misses region `r`, lies inside it (*in_value: what it picks of the
// written value, when that is again regular runs), or anything else (Partial).
Overlap pick_overlap(const engine::Region& r, const Pick& pick, Pick* in_value) {
  if (pick.planes > 1) return Overlap::Partial;  // worked out for two levels only
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
  auto change = [&](engine::View* view) { return picked_from(view, pick); };
  auto other = [&](const engine::NodePtr& n, int d) -> engine::NodePtr {
    // (A backward or spaced pick of a pending subassignment views the version,
    // computed.)
    if (n->kind != engine::NodeKind::Assign || pick.backward() || pick.row_step != 1) {
      return nullptr;
    }
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

}  // namespace

SEXP view_of(SEXP x, R_xlen_t length, bool compute, double min_length, SEXP attributes,
             unsigned* warnings,
             const std::function<engine::NodePtr(const engine::NodePtr&)>& build) {
  // A view too small to stay deferred gives its values, computed now from the same
  // view (only what is picked), as a plain vector (or a lazy value over them:
  // short_result()): R code would otherwise work out the positions once more and
  // read them an element at a time.
  const bool small = static_cast<double>(length) < min_length;
  // (Values at hand in an ALTREP vector such as 1:n: R subsets them without
  // expanding it. Values in plain memory are gathered here: R's own subset would
  // need them handed to it through materialize(), with a handler for its errors.)
  const SEXP values = values_of(x);
  if (small && ((values != R_NilValue && ALTREP(values)) || !only_the_lazy_class(x))) {
    return R_NilValue;
  }
  NodeUse use = lazy_node_use(x);
  engine::NodePtr viewed = build(use.node);
  if (!viewed && values_of(x) == R_NilValue &&
      (compute || state_of(x).kind == engine::NodeKind::Assign)) {
    materialize_lazy(x, warnings);
    use = lazy_node_use(x);
    viewed = build(use.node);
  }
  if (!viewed) return R_NilValue;
  if (small && viewed->kind == engine::NodeKind::Input) {
    // Values at hand (a column of lazy(m)): copied straight out of them, with no
    // lazy vector and no evaluation to set up (a loop of m[, j] makes many).
    engine::check_mapped_inputs(*viewed);  // a file changed since: an error, as evaluations
    SEXP out = PROTECT(alloc_output(sexptype_of(viewed->dtype), length));
    if (length > 0) engine::read_view(viewed->view, 0, length, static_cast<char*>(data_of(out)));
    set_plain_attributes(out, attributes);
    out = short_result(out);
    UNPROTECT(1);
    return out;
  }
  PROTECT(use.leaves);
  SEXP out = PROTECT(new_lazy_vector(std::move(viewed), use.leaves, attributes));
  state_of(out).warned = state_of(x).warned;  // the value's warnings, raised once
  if (small) {
    unsigned more = 0;
    out = PROTECT(computed_copy(out, &more));
    *warnings |= more;
    set_plain_attributes(out, attributes);
    out = short_result(out);
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
  if (!picked_from(&source.view, pick)) return viewed;
  auto out = std::make_shared<engine::Node>(*viewed);
  out->kept_holder = nullptr;  // a new node: its lazy value gives it one (kept_holders.hpp)
  out->source = std::make_shared<const engine::ViewSource>(std::move(source));
  return out;
}

}  // namespace

SEXP picked_view(SEXP x, const Pick& pick, double min_length, SEXP attributes, unsigned* warnings) {
  return view_of(x, pick.length(), false, min_length, attributes, warnings,
                 [&](const engine::NodePtr& node) {
                   NodeMemo done;
                   return with_source(node, pick, picked_graph(node, pick, &done, 0));
                 });
}

namespace {

// .Call(C_lazy_view, x, index, min_length, attributes): the elements of lazy
// vector x that `index` picks (R's subscript rules on a vector, its attributes
// ignored), as a view (view_of).
SEXP lazy_view_entry(SEXP x, SEXP index, SEXP min_length, SEXP attributes) {
  return with_warnings([&](unsigned* warnings) -> SEXP {
    if (!viewable(x)) return R_NilValue;
    Pick pick;
    const R_xlen_t n = state_of(x).length;
    if (!pick_of(index, n, &pick) && !backward_pick_of(index, n, &pick)) return R_NilValue;
    return picked_view(x, pick, Rf_asReal(min_length), attributes, warnings);
  });
}

// .Call(C_lazy_rep_view, x, times, each): rep_view() (view_pushdown.hpp); NULL for a
// lazy x that is not a plain view (R materializes it and asks again).
SEXP lazy_rep_view_entry(SEXP x, SEXP times, SEXP each) {
  return guarded([&]() -> SEXP { return rep_view(x, Rf_asReal(times), Rf_asReal(each)); });
}

}  // namespace

SEXP rep_view(SEXP x, double k, double e) {
  const double n = static_cast<double>(XLENGTH(x));
  if (n < 2 || !(k >= 1 && e >= 1) || (k > 1 && e > 1) || n * k * e > 4503599627370496.0) {
    throw Error("gufunc_internal_error", "a repetition view of another shape");
  }
  engine::View view;
  SEXP leaves;
  if (SEXP lazy = lazy_inside(x)) {
    const NodeUse use = lazy_node_use(lazy);
    const engine::Node& node = *use.node;
    if (node.kind != engine::NodeKind::Input || node.view.is_block() || node.view.each != 1 ||
        node.length != XLENGTH(x)) {
      return R_NilValue;
    }
    view = node.view;
    leaves = PROTECT(use.leaves);
  } else {
    view = input_node(x, 1)->view;
    leaves = PROTECT(alloc_vector(VECSXP, 1));
    SET_VECTOR_ELT(leaves, 0, x);
  }
  view.length = static_cast<intptr_t>(n * k * e);
  if (k > 1) {
    view.rows = static_cast<intptr_t>(n);
    view.column_step = 0;
  }
  view.each = static_cast<intptr_t>(e);
  SEXP out = new_lazy_vector(engine::make_input(view), leaves, R_NilValue);
  UNPROTECT(1);
  return out;
}

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_view, gufunc::r::lazy_view_entry, 4);
GUFUNC_CALL_ENTRY(lazy_viewable, gufunc::r::lazy_viewable_entry, 1);
GUFUNC_CALL_ENTRY(lazy_rep_view, gufunc::r::lazy_rep_view_entry, 3);
