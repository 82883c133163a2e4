// R's reference counts of lazy operands. R writes a vector in place (x[i] <- v)
// only while its count says nothing else refers to it, and never lowers a count
// when the object that referred goes away: a list that ever held x, garbage or
// not, keeps x counted. gufunc's methods gather their operands in lists
// (list(e1, e2)); they empty those lists before they return, so that a lazy value
// used as an operand is counted as base R's operands are, and x[i] <- v after
// y <- x * 2 still writes x in place (src/r/lazy_assign.cpp). An operand R counts
// one reference to (the method's promise) was made for the call alone: the result
// takes its graph (consume_temporaries).
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"

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

// .Call(C_consume_temporaries, value, operands): `value` was made from the lazy
// `operands`, which R counts no reference to but the method's own (a[i, j] - b):
// nothing can read them once the method returns. Their graphs go with `value`
// alone, so that the nodes reading a buffer that x[i, j] <- value then writes are
// the value's only: computed into memory of its own first, it leaves no reader
// that needs a copy (src/r/lazy_assign.cpp). A consumed value raises an internal
// error if it is ever read (it cannot be, as R counts references). A plain operand
// made for the call alone (outer(u, v) in a[i, j] - outer(u, v)) may take value's
// values into its memory (donated_memory.cpp).
SEXP consume_temporaries(SEXP value, SEXP operands) {
  return guarded([&]() -> SEXP {
    for (R_xlen_t i = 0; i < XLENGTH(operands); ++i) {
      SEXP x = VECTOR_ELT(operands, i);
      if (x == value) continue;
      if (lazy_inside(x) == x) {
        consume_lazy(x);
      } else if (lazy_inside(value) == value) {
        offer_memory(value, x);
      }
    }
    return R_NilValue;
  });
}

}  // namespace
}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(consume_temporaries, gufunc::r::consume_temporaries, 2);
GUFUNC_CALL_ENTRY(lazy_references, gufunc::r::references_of, 1);
GUFUNC_CALL_ENTRY(release_operands, gufunc::r::release_operands, 2);
