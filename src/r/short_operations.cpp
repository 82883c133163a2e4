// Operators, math functions and summaries of short lazy values whose values are at
// hand (a short subset of a lazy matrix, a short result: short_result()), at about
// base R's cost. The Ops, Math and Summary methods' general paths cost tens of
// microseconds of R code, which a loop over the columns of a lazy matrix pays at
// every step; these entries hand the values to base R's own function in one call
// instead, where that can neither warn nor fail, so that nothing but the result
// could differ.
#include <cstring>
#include <initializer_list>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"

namespace gufunc {
namespace r {

namespace {

// The plain double values of operand x, when they are at hand without a copy and
// with no attribute but a dim for base R to follow: a lazy vector with its class
// (and a dim) and values computed, or a plain double vector or array. `values` is
// nullptr otherwise; `dim` is the dim or R_NilValue.
struct BareDoubles {
  SEXP values = nullptr;
  SEXP dim = R_NilValue;
};

BareDoubles bare_doubles(SEXP x) {
  BareDoubles out;
  if (TYPEOF(x) != REALSXP) return out;
  const bool lazy = ALTREP(x) && is_lazy_vector(x);
  bool lazy_class = false;
  for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
    if (TAG(a) == R_DimSymbol) {
      out.dim = CAR(a);
    } else if (lazy && TAG(a) == R_ClassSymbol && is_lazy_class_alone(CAR(a))) {
      lazy_class = true;
    } else {
      return out;
    }
  }
  if (!lazy) {
    // (R's wrapper around a lazy vector: the general path reads it as lazy.)
    if (!ALTREP(x) || lazy_inside(x) == nullptr) out.values = x;
  } else if (lazy_class) {
    SEXP values = values_of(x);
    if (values != R_NilValue && TYPEOF(values) == REALSXP) out.values = values;
  }
  return out;
}

// Whether two dims (INTSXP or R_NilValue) are the same.
bool same_dim(SEXP a, SEXP b) {
  return XLENGTH(a) == XLENGTH(b) &&
         std::memcmp(INTEGER(a), INTEGER(b), XLENGTH(a) * sizeof(int)) == 0;
}

// Whether `name` is one of `names`.
bool named_in(const char* name, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (std::strcmp(name, n) == 0) return true;
  }
  return false;
}

// Operators that base R applies to two double vectors of one length (or a single
// value against many) without a warning or an error. (%% and %/% warn about lost
// accuracy; the others only differ in their NaN payloads, which base R gives
// itself here.)
bool quiet_double_operator(const char* op) {
  return named_in(op, {"+", "-", "*", "/", "^", "==", "!=", "<", ">", "<=", ">=", "&", "|"});
}

// `call` (base R's primitive on evaluated arguments) evaluated in the base
// environment.
SEXP call_base(SEXP call) {
  return r_call([&] { return Rf_eval(call, R_BaseEnv); });
}

// .Call(C_short_ops, generic, e1, e2): e1 `generic` e2 for double operands of one
// length (with one dim, or the same dim) or a single value without a dim against
// many, the longer shorter than gufunc.lazy_min_length, each a lazy value at hand or
// a plain vector, with no other attribute: base R's result (the dim is the only
// attribute base R gives it then), kept lazy from kKeepLazyLength elements on
// (short_result()). NULL where the Ops method's general path decides.
SEXP short_ops_entry(SEXP generic, SEXP e1, SEXP e2) {
  return guarded([&]() -> SEXP {
    const char* op = CHAR(STRING_ELT(generic, 0));
    if (!quiet_double_operator(op)) return R_NilValue;
    const BareDoubles a = bare_doubles(e1);
    const BareDoubles b = a.values == nullptr ? BareDoubles() : bare_doubles(e2);
    if (b.values == nullptr) return R_NilValue;
    const R_xlen_t na = XLENGTH(a.values), nb = XLENGTH(b.values);
    SEXP dim = a.dim != R_NilValue ? a.dim : b.dim;
    if (na == nb) {
      if (a.dim != R_NilValue && b.dim != R_NilValue && !same_dim(a.dim, b.dim)) {
        return R_NilValue;  // base R's error
      }
    } else if ((na != 1 || a.dim != R_NilValue) && (nb != 1 || b.dim != R_NilValue)) {
      return R_NilValue;  // recycled with a warning, or an array of one element
    }
    if (static_cast<double>(na > nb ? na : nb) >= lazy_min_length()) return R_NilValue;
    SEXP call = PROTECT(Rf_lang3(Rf_install(op), a.values, b.values));
    SEXP out = PROTECT(call_base(call));
    if (dim != R_NilValue) Rf_setAttrib(out, R_DimSymbol, dim);
    out = short_result(out);
    UNPROTECT(2);
    return out;
  });
}

// Math functions that base R applies to doubles without a warning: none makes a
// NaN of a number (sqrt(), log(), the trigonometric functions of Inf do, and warn).
bool quiet_double_math(const char* fn) {
  return named_in(fn, {"abs", "sign", "floor", "ceiling", "trunc", "exp", "expm1", "sinh", "cosh",
                       "tanh", "atan", "asinh"});
}

// .Call(C_short_math, generic, x): generic(x) for a short double x at hand (lazy
// or plain) with no attribute but a dim, as base R gives it; NULL where the Math
// method's general path decides.
SEXP short_math_entry(SEXP generic, SEXP x) {
  return guarded([&]() -> SEXP {
    const char* fn = CHAR(STRING_ELT(generic, 0));
    if (!quiet_double_math(fn)) return R_NilValue;
    const BareDoubles a = bare_doubles(x);
    if (a.values == nullptr || static_cast<double>(XLENGTH(a.values)) >= lazy_min_length()) {
      return R_NilValue;
    }
    SEXP call = PROTECT(Rf_lang2(Rf_install(fn), a.values));
    SEXP out = PROTECT(call_base(call));
    if (a.dim != R_NilValue) Rf_setAttrib(out, R_DimSymbol, a.dim);
    out = short_result(out);
    UNPROTECT(2);
    return out;
  });
}

// .Call(C_short_summary, generic, x, na.rm): sum(), prod(), max(), min() or range()
// of one short lazy double value at hand (with no attribute but a dim), as base R gives it:
// with at least one element, and na.rm = FALSE for the extremes (they warn when
// na.rm leaves nothing). NULL where the Summary method's general path decides.
SEXP short_summary_entry(SEXP generic, SEXP x, SEXP na_rm) {
  return guarded([&]() -> SEXP {
    const char* fn = CHAR(STRING_ELT(generic, 0));
    const bool adds = named_in(fn, {"sum", "prod"});
    const bool extreme = named_in(fn, {"max", "min", "range"});
    if (!adds && !extreme) return R_NilValue;
    if (TYPEOF(na_rm) != LGLSXP || XLENGTH(na_rm) != 1 || LOGICAL(na_rm)[0] == NA_LOGICAL) {
      return R_NilValue;
    }
    if (extreme && LOGICAL(na_rm)[0]) return R_NilValue;
    if (!ALTREP(x) || !is_lazy_vector(x)) return R_NilValue;
    SEXP values = bare_doubles(x).values;  // (the summaries ignore a dim)
    if (values == nullptr || XLENGTH(values) == 0 ||
        static_cast<double>(XLENGTH(values)) >= lazy_min_length()) {
      return R_NilValue;
    }
    SEXP call = PROTECT(Rf_lang3(Rf_install(fn), values, na_rm));
    SET_TAG(CDDR(call), Rf_install("na.rm"));
    SEXP out = call_base(call);
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(short_ops, gufunc::r::short_ops_entry, 3);
GUFUNC_CALL_ENTRY(short_summary, gufunc::r::short_summary_entry, 3);
GUFUNC_CALL_ENTRY(short_math, gufunc::r::short_math_entry, 2);
