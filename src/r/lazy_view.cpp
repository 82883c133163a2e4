// Views: a subset of a lazy vector whose values are at hand (lazy(x), a
// materialized value, or another view) that picks one run of consecutive elements
// (x[a:b], x[-1], x[-n], x[-(1:k)], m[, j:k], a[, , i]) is a lazy input over the
// same memory, not a copy; expressions on it fuse with everything else.
#include <algorithm>
#include <cmath>
#include <vector>

#include "dispatch/apply.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

// A run of positions [first, first + length), 0-based.
struct Run {
  R_xlen_t first = 0, length = 0;
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

// The run `index` picks from a vector of `length` elements, if it picks one run
// of at least one element the way R's subscript rules would: positive whole
// numbers in order without gaps, or negative ones removing a run at either end.
// Anything else (NA, 0, beyond the end, mixed signs, fractions, logical or
// character subscripts) is left to R.
bool run_of(SEXP index, R_xlen_t length, Run* run) {
  if (TYPEOF(index) != INTSXP && TYPEOF(index) != REALSXP) return false;
  if (XLENGTH(index) == 0) return false;
  const double limit = static_cast<double>(length);
  double first = 0, previous = 0;
  bool negative = false;
  R_xlen_t count = 0;
  const bool ok = each_position(index, [&](double p) {
    if (!(std::fabs(p) >= 1 && std::fabs(p) <= limit) || p != std::trunc(p)) return false;
    if (count == 0) {
      first = p;
      negative = p < 0;
    } else if ((p < 0) != negative || p != previous + (negative ? -1 : 1)) {
      return false;
    }
    previous = p;
    ++count;
    return true;
  });
  if (!ok) return false;
  if (!negative) {
    run->first = static_cast<R_xlen_t>(first) - 1;
    run->length = count;
    return true;
  }
  // -a, -(a+1), ..., -b removes [a, b]: a run remains when it touches an end.
  const R_xlen_t a = static_cast<R_xlen_t>(-first), b = static_cast<R_xlen_t>(-previous);
  if (a == 1 && b < length) {
    run->first = b;
    run->length = length - b;
    return true;
  }
  if (b == length && a > 1) {
    run->first = 0;
    run->length = a - 1;
    return true;
  }
  return false;
}

// Whether x is a lazy vector (not R's wrapper around one) whose values are at hand:
// its own, or memory it views.
bool viewable(SEXP x) {
  if (lazy_inside(x) != x) return false;
  const LazyState& s = state_of(x);
  return !s.failed && (values_of(x) != R_NilValue || s.kind == engine::NodeKind::Input);
}

SEXP lazy_viewable_entry(SEXP x) {
  return guarded([&]() -> SEXP { return Rf_ScalarLogical(viewable(x)); });
}

// .Call(C_lazy_view, x, index, min_length, attributes): the elements of lazy
// vector x that `index` picks (R's subscript rules on a vector, its attributes
// ignored), as a lazy view with `attributes` (a named list or NULL), or NULL where
// R's own subsetting applies: x's values are not at hand, index picks no single
// run, or fewer than min_length elements (small results are plain values, as
// elsewhere).
SEXP lazy_view_entry(SEXP x, SEXP index, SEXP min_length, SEXP attributes) {
  return guarded([&]() -> SEXP {
    if (!viewable(x)) return R_NilValue;
    SEXP lazy = x;
    Run run;
    if (!run_of(index, state_of(lazy).length, &run)) return R_NilValue;
    if (static_cast<double>(run.length) < Rf_asReal(min_length)) return R_NilValue;
    const NodeUse use = lazy_node_use(lazy);
    if (use.node->kind != engine::NodeKind::Input) return R_NilValue;
    engine::View view = use.node->view;
    view.data += static_cast<size_t>(run.first) * dtype_size(view.dtype);
    view.offset += run.first;
    view.length = run.length;
    PROTECT(use.leaves);
    SEXP out = new_lazy_vector(engine::make_input(view), use.leaves, attributes);
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_view, gufunc::r::lazy_view_entry, 4);
GUFUNC_CALL_ENTRY(lazy_viewable, gufunc::r::lazy_viewable_entry, 1);
