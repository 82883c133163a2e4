#include "r/subscript_pick.hpp"

#include <algorithm>
#include <cmath>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

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

}  // namespace

bool pick_of(SEXP index, R_xlen_t length, Pick* pick) {
  if (TYPEOF(index) != INTSXP && TYPEOF(index) != REALSXP) return false;
  if (XLENGTH(index) == 0) return false;
  int from = 0, by = 0;
  if (compact_sequence(index, &from, &by) && by == 1 && from >= 1 &&
      static_cast<double>(from) + static_cast<double>(XLENGTH(index)) - 1 <=
          static_cast<double>(length)) {
    *pick = Pick();  // x[a:b]: one run, known without reading the subscript
    pick->first = from - 1;
    pick->rows = XLENGTH(index);
    return true;
  }
  const double first = TYPEOF(index) == INTSXP ? INTEGER_ELT(index, 0) : REAL_ELT(index, 0);
  if (first < 0) return remaining_run(index, length, pick);
  if (regular_positions(index, length, pick)) return true;
  *pick = Pick();
  pick->row_roll = rotation_of(index, first, length);
  pick->rows = length;
  return pick->row_roll != 0;
}

bool backward_pick_of(SEXP index, R_xlen_t length, Pick* pick) {
  if (TYPEOF(index) != INTSXP && TYPEOF(index) != REALSXP) return false;
  const R_xlen_t n = XLENGTH(index);
  if (n < 2) return false;
  int from = 0, step = 0;
  if (compact_sequence(index, &from, &step) && step == -1) {  // R's b:a, not expanded
    if (!(static_cast<double>(from) <= static_cast<double>(length) && from - n + 1 >= 1)) {
      return false;
    }
    *pick = Pick();
    pick->first = from - n;
    pick->rows = n;
    pick->rows_backward = true;
    return true;
  }
  const double limit = static_cast<double>(length);
  double previous = 0, by = 0;
  R_xlen_t count = 0;
  const bool ok = each_position(index, [&](double p) {
    if (!(p >= 1 && p <= limit) || p != std::trunc(p)) return false;
    if (count == 1) by = p - previous;
    if (count >= 1 && (p - previous != by || !(by < 0))) return false;
    previous = p;
    ++count;
    return true;
  });
  if (!ok) return false;
  *pick = Pick();
  pick->first = static_cast<R_xlen_t>(previous) - 1;  // the lowest position
  if (by == -1) {
    pick->rows = n;
    pick->rows_backward = true;
  } else {
    pick->rows = 1;
    pick->columns = n;
    pick->step = static_cast<R_xlen_t>(-by);
    pick->columns_backward = true;
  }
  return true;
}

namespace {

// .Call(C_subscript_pick, index, extent): c(first, rows, columns, step, roll,
// backward) of the regular runs (first 0-based) that `index` picks from `extent`
// elements, or NULL; roll > 0: all of them, shifted circularly (c((roll + 1):n,
// 1:roll)); backward 1 (the run's elements) or 2 (single elements, last to first):
// the same elements counting down (x[n:1]), the block's lowest one first.
SEXP subscript_pick_entry(SEXP index, SEXP extent) {
  return guarded([&]() -> SEXP {
    Pick pick;
    const R_xlen_t n = static_cast<R_xlen_t>(Rf_asReal(extent));
    if (!pick_of(index, n, &pick) && !backward_pick_of(index, n, &pick)) return R_NilValue;
    SEXP out = PROTECT(alloc_vector(REALSXP, 6));
    REAL(out)[0] = static_cast<double>(pick.first);
    REAL(out)[1] = static_cast<double>(pick.rows);
    REAL(out)[2] = static_cast<double>(pick.columns);
    REAL(out)[3] = static_cast<double>(pick.step);
    REAL(out)[4] = static_cast<double>(pick.row_roll);
    REAL(out)[5] = (pick.rows_backward ? 1 : 0) + (pick.columns_backward ? 2 : 0);
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(subscript_pick, gufunc::r::subscript_pick_entry, 2);
