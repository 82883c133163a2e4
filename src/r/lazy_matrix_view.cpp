// m[i, j] of a lazy matrix without dimnames, where i and j are missing or each pick
// one run of consecutive indices (m[2:(n + 1), 2:(n + 1)], m[, a], m[-1, ]): the
// block view straight from the subscripts. Stencil code takes dozens of these per
// step, and the general path (R/lazy_array_views.R: any number of dims, steps,
// circular shifts, dimnames) costs some tens of microseconds each in R code.
#include <cstring>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/view_pushdown.hpp"

namespace gufunc {
namespace r {

namespace {

// Whether subscript `s` of a dimension of `extent` picks one run of consecutive
// indices (TRUE, as the R method passes a missing one: all of them), and which.
bool dimension_run(SEXP s, R_xlen_t extent, R_xlen_t* first, R_xlen_t* count) {
  if (ATTRIB(s) != R_NilValue) return false;
  if (TYPEOF(s) == LGLSXP) {
    if (XLENGTH(s) != 1 || LOGICAL(s)[0] != TRUE || extent < 1) return false;
    *first = 0;
    *count = extent;
    return true;
  }
  if (TYPEOF(s) != INTSXP && TYPEOF(s) != REALSXP) return false;
  return subscript_run(s, extent, first, count);
}

// Whether x has no attribute but the class "gufunc_lazy" and a dim of two; its dim.
bool plain_lazy_matrix(SEXP x, SEXP* dim) {
  *dim = R_NilValue;
  for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
    if (TAG(a) == R_DimSymbol) {
      *dim = CAR(a);
    } else if (TAG(a) != R_ClassSymbol || TYPEOF(CAR(a)) != STRSXP || XLENGTH(CAR(a)) != 1 ||
               std::strcmp(CHAR(STRING_ELT(CAR(a), 0)), "gufunc_lazy") != 0) {
      return false;
    }
  }
  return TYPEOF(*dim) == INTSXP && XLENGTH(*dim) == 2;
}

// .Call(C_lazy_matrix_view, x, i, j, min_length): x[i, j] (drop = TRUE) as a view
// with base R's attributes (a dim when both runs are longer than one element, else
// none: x has no dimnames), or NULL for the general path.
SEXP lazy_matrix_view_entry(SEXP x, SEXP i, SEXP j, SEXP min_length) {
  return with_warnings([&](unsigned* warnings) -> SEXP {
    SEXP dim;
    if (!plain_lazy_matrix(x, &dim) || !viewable(x)) return R_NilValue;
    const R_xlen_t nrow = INTEGER(dim)[0], ncol = INTEGER(dim)[1];
    R_xlen_t i0 = 0, ni = 0, j0 = 0, nj = 0;
    if (!dimension_run(i, nrow, &i0, &ni) || !dimension_run(j, ncol, &j0, &nj)) {
      return R_NilValue;
    }
    SEXP attributes = R_NilValue;
    if (ni > 1 && nj > 1) {  // list(dim = c(ni, nj)), as lazy_gufunc_bridge.cpp makes it
      attributes = PROTECT(alloc_vector(VECSXP, 1));
      SEXP d = alloc_vector(INTSXP, 2);
      SET_VECTOR_ELT(attributes, 0, d);
      INTEGER(d)[0] = static_cast<int>(ni);
      INTEGER(d)[1] = static_cast<int>(nj);
      SEXP names = alloc_vector(STRSXP, 1);
      Rf_setAttrib(attributes, R_NamesSymbol, names);
      SET_STRING_ELT(names, 0, Rf_mkChar("dim"));
    } else {
      PROTECT(attributes);
    }
    // Whole columns are one run of elements; else nj runs of ni, a column apart.
    SEXP out = ni == nrow
                   ? block_view(x, j0 * nrow, nrow * nj, 1, 0, min_length, attributes, warnings)
                   : block_view(x, i0 + j0 * nrow, ni, nj, nrow, min_length, attributes, warnings);
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_matrix_view, gufunc::r::lazy_matrix_view_entry, 4);
