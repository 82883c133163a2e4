// R's reference counts of lazy operands. R writes a vector in place (x[i] <- v)
// only while its count says nothing else refers to it, and never lowers a count
// when the object that referred goes away: a list that ever held x, garbage or
// not, keeps x counted. gufunc's methods gather their operands in lists
// (list(e1, e2)); they empty those lists before they return, so that a lazy value
// used as an operand is counted as base R's operands are, and x[i] <- v after
// y <- x * 2 still writes x in place (src/r/lazy_assign.cpp).
#include "r/call_registry.hpp"

namespace gufunc {
namespace r {
namespace {

// .Call(C_lazy_references, x): R's count of references to x (REFCNT), this call's
// own among them.
SEXP references_of(SEXP x) { return Rf_ScalarInteger(REFCNT(x)); }

// .Call(C_release_operands, a, b): sets every element of lists a and b to NULL, in
// place (SET_VECTOR_ELT lowers the count of what an element held). For a method's
// own lists of operands, once nothing needs them.
SEXP release_operands(SEXP a, SEXP b) {
  for (SEXP list : {a, b}) {
    if (TYPEOF(list) != VECSXP) continue;
    for (R_xlen_t i = 0; i < XLENGTH(list); ++i) SET_VECTOR_ELT(list, i, R_NilValue);
  }
  return R_NilValue;
}

}  // namespace
}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_references, gufunc::r::references_of, 1);
GUFUNC_CALL_ENTRY(release_operands, gufunc::r::release_operands, 2);
