// x[i] and m[i, j] for one position of a lazy vector or matrix whose values are at
// hand, in one call into C. The `[` method's general path (views, stand-ins,
// condition handlers) costs microseconds of R code, which a loop reading a lazy
// vector element by element pays at every step (4.6 us against base R's 0.25 for
// v[i] on 1e6 doubles; m[i, j] 5 us; now 2.1-3.6 us, most of it R's dispatch to
// the method). One position in range, on a vector whose subset keeps no
// attribute, gives the element alone in base R, so it is read through the ALTREP
// Elt method and nothing else could differ.
#include "r/array_region.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"

namespace gufunc {
namespace r {

namespace {

// Whether x[i] keeps none of x's attributes, for one position (`single`) or for
// several: x has only its lazy class and perhaps dim and dimnames, which x[i]
// drops, except that a 1-d array keeps its dim for several positions and its
// dimnames as names (x[i] keeps names).
bool subset_drops_attributes(SEXP x, bool single) {
  R_xlen_t dims = 0;
  bool dimnames = false;
  for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
    const SEXP tag = TAG(a);
    if (tag == R_DimSymbol) {
      dims = XLENGTH(CAR(a));
    } else if (tag == R_DimNamesSymbol) {
      dimnames = true;
    } else if (tag != R_ClassSymbol || !is_lazy_class_alone(CAR(a))) {
      return false;
    }
  }
  return dims != 1 || (single && !dimnames);
}

// The 0-based position subscript i names in a vector of n elements, or -1 where i
// is not a single position from 1 to n without attributes (R truncates a double
// position towards zero).
R_xlen_t single_position(SEXP i, R_xlen_t n) {
  if (TYPEOF(i) != INTSXP && TYPEOF(i) != REALSXP) return -1;
  if (XLENGTH(i) != 1 || ATTRIB(i) != R_NilValue) return -1;
  if (TYPEOF(i) == INTSXP) {
    const int k = INTEGER_ELT(i, 0);
    return k != NA_INTEGER && k >= 1 && k <= n ? k - 1 : -1;
  }
  const double k = REAL_ELT(i, 0);
  // NaN fails both comparisons.
  return k >= 1 && k < static_cast<double>(n) + 1 ? static_cast<R_xlen_t>(k) - 1 : -1;
}

// Whether option gufunc.lazy_min_length asks for a lazy value even of one
// element (a view), as tests of views do; a bad value is its classed error.
bool one_element_stays_lazy() {
  SEXP flag = guarded([]() -> SEXP { return Rf_ScalarLogical(lazy_min_length() <= 1); });
  return LOGICAL(flag)[0] == TRUE;
}

// Element k of lazy vector x (values at hand: nothing to compute, nothing to warn
// about) as a plain vector of one value.
SEXP element_at(SEXP x, R_xlen_t k) {
  switch (TYPEOF(x)) {
    case REALSXP:
      return Rf_ScalarReal(REAL_ELT(x, k));
    case INTSXP:
      return Rf_ScalarInteger(INTEGER_ELT(x, k));
    case LGLSXP:
      return Rf_ScalarLogical(LOGICAL_ELT(x, k));
    default:
      return R_NilValue;
  }
}

// Whether x is a lazy vector with its values at hand whose subset keeps none of
// its attributes. (An element of a deferred value takes the general path: a view
// the next operation can fuse, such as gauss's pivot a[c - 1, c - 1] of a version
// not written yet, rather than part of the graph evaluated at once.)
bool element_at_hand(SEXP x) {
  return ALTREP(x) && is_lazy_vector(x) && lazy_is_materialized(x) &&
         subset_drops_attributes(x, true);
}

// .Call(C_lazy_element, x, i): x[i] where i is one position in range and the
// subset keeps no attribute of x; NULL for the `[` method's general path.
SEXP lazy_element_entry(SEXP x, SEXP i) {
  if (!element_at_hand(x)) return R_NilValue;
  const R_xlen_t k = single_position(i, XLENGTH(x));
  return k < 0 || one_element_stays_lazy() ? R_NilValue : element_at(x, k);
}

// .Call(C_lazy_matrix_element, x, frame): x[i, j] of a lazy matrix where the
// subscripts in the `...` of the `[` method's frame (neither missing) are one row
// and one column in range (drop = TRUE leaves the element alone, with no
// dimnames); NULL for the general path. The subscripts are forced here, as the
// general path's C code forces them (array_region.hpp), not by R code of the
// method, whose call R would then name in the error of a subscript that fails.
SEXP lazy_matrix_element_entry(SEXP x, SEXP frame) {
  if (!element_at_hand(x)) return R_NilValue;
  const SEXP dim = Rf_getAttrib(x, R_DimSymbol);
  if (TYPEOF(dim) != INTSXP || XLENGTH(dim) != 2) return R_NilValue;
  SEXP i = R_NilValue, j = R_NilValue;
  const SEXP read =
      guarded([&]() -> SEXP { return Rf_ScalarLogical(two_subscripts(frame, &i, &j)); });
  if (LOGICAL(read)[0] != TRUE) return R_NilValue;
  const R_xlen_t rows = INTEGER(dim)[0];
  const R_xlen_t row = single_position(i, rows);
  const R_xlen_t col = single_position(j, INTEGER(dim)[1]);
  if (row < 0 || col < 0 || one_element_stays_lazy()) return R_NilValue;
  return element_at(x, row + col * rows);
}

// .Call(C_lazy_subset_drops_attributes, x): whether x[i] of several positions
// keeps no attribute of lazy x, so that a view of the positions needs none.
SEXP lazy_subset_drops_attributes_entry(SEXP x) {
  return Rf_ScalarLogical(ALTREP(x) && is_lazy_vector(x) && subset_drops_attributes(x, false));
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_element, gufunc::r::lazy_element_entry, 2);
GUFUNC_CALL_ENTRY(lazy_matrix_element, gufunc::r::lazy_matrix_element_entry, 2);
GUFUNC_CALL_ENTRY(lazy_subset_drops_attributes, gufunc::r::lazy_subset_drops_attributes_entry, 1);
