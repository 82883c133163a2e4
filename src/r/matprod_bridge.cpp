// The plain-argument path of gufunc's %*%, crossprod() and tcrossprod() masks
// (R/matrix_products.R): whether base R's function surely succeeds on x and y, so
// the mask can call it without a condition handler (whose cost would dwarf a small
// product). Only shapes whose rules R has kept for many versions are claimed;
// anything else (vectors of different lengths, S4 or classed objects, complex, other
// types) takes the mask's slower path, where base R decides and errors name the
// user's call.
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"

namespace gufunc {
namespace r {

namespace {

bool plain_numeric(SEXP x) {
  const int type = TYPEOF(x);
  return (type == REALSXP || type == INTSXP || type == LGLSXP) && !OBJECT(x);
}

// dim(x) as (rows, columns) when x is a matrix.
bool matrix_dims(SEXP x, R_xlen_t* rows, R_xlen_t* columns) {
  SEXP d = Rf_getAttrib(x, R_DimSymbol);
  if (TYPEOF(d) != INTSXP || XLENGTH(d) != 2) return false;
  *rows = INTEGER(d)[0];
  *columns = INTEGER(d)[1];
  return true;
}

// op: 0 for %*%, 1 for crossprod(), 2 for tcrossprod(); y NULL: crossprod(x).
bool surely_conformable(SEXP x, SEXP y, int op) {
  if (!plain_numeric(x)) return false;
  R_xlen_t nrx, ncx, nry, ncy;
  const bool x_matrix = matrix_dims(x, &nrx, &ncx);
  if (Rf_isNull(y)) return op > 0;  // crossprod(x): x against itself
  if (!plain_numeric(y)) return false;
  const bool y_matrix = matrix_dims(y, &nry, &ncy);
  if (x_matrix && y_matrix) {
    return op == 0 ? ncx == nry : op == 1 ? nrx == nry : ncx == ncy;
  }
  if (!x_matrix && !y_matrix) return XLENGTH(x) == XLENGTH(y);  // the inner product
  if (op != 0) return false;
  if (x_matrix) return XLENGTH(y) == ncx || ncx == 1;  // y as a column, or a row
  if (y_matrix) return XLENGTH(x) == nry || nry == 1;  // x as a row, or a column
  return false;
}

// .Call(C_matprod_path, x, y, op): 0 when x or y has the class "gufunc_lazy" (the
// mask's lazy path), 1 when base R surely succeeds, 2 otherwise.
SEXP matprod_path_entry(SEXP x, SEXP y, SEXP op) {
  if (Rf_inherits(x, "gufunc_lazy") || Rf_inherits(y, "gufunc_lazy")) return Rf_ScalarInteger(0);
  return Rf_ScalarInteger(surely_conformable(x, y, Rf_asInteger(op)) ? 1 : 2);
}

// .Call(C_lazy_product_operand, x): the values of lazy vector x when they are at
// hand and carry x's dim and dimnames (all a product reads), else NULL (the caller
// uses materialize()). materialize() of lazy(m) gives R's wrapper around m, with
// x's attributes; base R's product asks a wrapper for writable data, which copies
// m: the values themselves spare that copy.
SEXP lazy_product_operand_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    if (lazy_inside(x) != x || !lazy_is_materialized(x)) return R_NilValue;
    SEXP values = values_of(x);
    for (SEXP attribute : {R_DimSymbol, R_DimNamesSymbol}) {
      if (!R_compute_identical(Rf_getAttrib(values, attribute), Rf_getAttrib(x, attribute), 16)) {
        return R_NilValue;
      }
    }
    mark_values_shared(x);
    return values;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(matprod_path, gufunc::r::matprod_path_entry, 3);
GUFUNC_CALL_ENTRY(lazy_product_operand, gufunc::r::lazy_product_operand_entry, 1);
