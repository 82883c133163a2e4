// .Call entries for lazy vectors as R values: lazy(x), materialization, new
// attributes, region reads and the test hooks.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/output_alloc.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

// The lazy vector behind x (see lazy_inside); R code checks before calling.
SEXP required_lazy(SEXP x) {
  SEXP lazy = lazy_inside(x);
  if (lazy == nullptr) throw Error("gufunc_type_error", "not a lazy value");
  return lazy;
}

// lazy(x): x is a double, integer or logical vector without a class (checked in R)
// or a lazy vector that lost its class;
// the result keeps its attributes and adds class "gufunc_lazy".
SEXP lazy_wrap_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    if (lazy == nullptr) return new_lazy_input(x, ATTRIB(x));
    NodeUse use = lazy_node_use(lazy);  // a lazy vector without the class: its node
    PROTECT(use.leaves);
    SEXP out = new_lazy_vector(std::move(use.node), use.leaves, ATTRIB(x));
    UNPROTECT(1);
    return out;
  });
}

// A short result computed at once, kept lazy from kKeepLazyLength elements on
// (short_result()).
SEXP lazy_short_result_entry(SEXP x) {
  return guarded([&]() -> SEXP { return short_result(x); });
}

// The class of a lazy vector without "gufunc_lazy" (R_NilValue when nothing is left).
SEXP class_without_lazy(SEXP cls) {
  std::vector<SEXP> kept;
  for (R_xlen_t i = 0; i < XLENGTH(cls); ++i) {
    if (std::strcmp(CHAR(STRING_ELT(cls, i)), "gufunc_lazy") != 0)
      kept.push_back(STRING_ELT(cls, i));
  }
  if (kept.empty()) return R_NilValue;
  SEXP out = alloc_vector(STRSXP, static_cast<R_xlen_t>(kept.size()));
  for (size_t i = 0; i < kept.size(); ++i) SET_STRING_ELT(out, static_cast<R_xlen_t>(i), kept[i]);
  return out;
}

// Whether the attribute pairlist a holds nothing but class "gufunc_lazy".
bool only_lazy_class(SEXP a) {
  return a == R_NilValue ||
         (CDR(a) == R_NilValue && TAG(a) == R_ClassSymbol && is_lazy_class_alone(CAR(a)));
}

// Sets the attributes of lazy vector x, but the class "gufunc_lazy", on `values`.
void copy_attributes_but_lazy_class(SEXP x, SEXP values) {
  r_call([&] {
    for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
      if (TAG(a) != R_ClassSymbol) {
        Rf_setAttrib(values, TAG(a), CAR(a));
      } else {
        SEXP cls = PROTECT(class_without_lazy(CAR(a)));
        if (cls != R_NilValue) Rf_classgets(values, cls);
        UNPROTECT(1);
      }
    }
    return R_NilValue;
  });
}

// list(values, warnings): the plain values of x with its attributes but the
// gufunc_lazy class. The values are x's cache itself (no copy; R copies on change).
SEXP lazy_materialize_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    unsigned warnings = 0;
    SEXP lazy = required_lazy(x);
    SEXP values = materialize_lazy(lazy, &warnings);
    mark_values_shared(lazy);
    int nprotect = 0;
    if (lazy != x) {
      // R's wrapper: its values are the lazy vector's, now computed; R drops the class.
      values = x;
    } else if (state_of(lazy).values_borrowed &&
               (!only_lazy_class(ATTRIB(x)) || ATTRIB(values) != R_NilValue)) {
      // The user's own vector (lazy(x), or a duplicate of it whose attributes R
      // changed): x's attributes go on R's wrapper around it, which shares its data.
      values = PROTECT(r_call([&] { return R_shallow_duplicate_attr(values); }));
      ++nprotect;
      SET_ATTRIB(values, R_NilValue);
      SET_OBJECT(values, 0);
      copy_attributes_but_lazy_class(x, values);
    } else if (!state_of(lazy).values_borrowed && ATTRIB(values) == R_NilValue) {
      // Set once: x is not mutable from now on, so its attributes stay these.
      copy_attributes_but_lazy_class(x, values);
    }
    SEXP out = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, values);
    SET_VECTOR_ELT(out, 1, warning_texts(warnings));
    UNPROTECT(1 + nprotect);
    return out;
  });
}

// .Call(C_plain_copy, x): a new ordinary (not ALTREP) vector with the values and
// attributes of the plain vector x, which R may then change in place: base R's
// subassignment on R's wrapper around shared values would copy them again, and
// base R reads ALTREP vectors an element at a time in places.
SEXP plain_copy_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    const R_xlen_t n = XLENGTH(x);
    SEXP out = PROTECT(alloc_output(TYPEOF(x), n));  // large: a kept buffer
    if (n > 0) {
      const void* from = nullptr;
      r_call([&] {
        from = DATAPTR_RO(x);  // another package's ALTREP vector may allocate
        return R_NilValue;
      });
      const size_t width = TYPEOF(x) == REALSXP ? sizeof(double) : sizeof(int);
      std::memcpy(DATAPTR(out), from, static_cast<size_t>(n) * width);
    }
    r_call([&] {
      DUPLICATE_ATTRIB(out, x);
      return R_NilValue;
    });
    UNPROTECT(1);
    return out;
  });
}

// .Call(C_lazy_changeable_copy, x): deferred lazy vector x computed straight into a
// new ordinary vector (one pass, one new vector; x stays deferred) with x's
// attributes but the class "gufunc_lazy", which R may change in place; when the
// computation warned, list(values, warning texts) for R to raise them. NULL when
// x's values are at hand (R copies them).
SEXP lazy_changeable_copy_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = required_lazy(x);  // x may be R's wrapper around it
    if (values_of(lazy) != R_NilValue) return R_NilValue;
    unsigned warnings = 0;
    SEXP out = PROTECT(computed_copy(lazy, &warnings));
    copy_attributes_but_lazy_class(x, out);
    if (warnings == 0) {
      UNPROTECT(1);
      return out;
    }
    SEXP both = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(both, 0, out);
    SET_VECTOR_ELT(both, 1, warning_texts(warnings));
    UNPROTECT(2);
    return both;
  });
}

// A new lazy vector of the same values as lazy vector x with `attributes` (a named
// list) and class "gufunc_lazy": what `dim<-` and friends give, still deferred. Short
// values at hand (fewer than gufunc.lazy_min_length) are copied at once, as base R
// copies them: a deferred copy would be computed for base R's code that reads it
// (matrix(v, k) takes as.vector(v)), a fallback. (Values in another ALTREP vector,
// lazy(1:n)'s, stay deferred: reading them might allocate.)
SEXP lazy_with_attributes_entry(SEXP x, SEXP attributes) {
  return guarded([&]() -> SEXP {
    SEXP lazy = required_lazy(x);
    SEXP values = values_of(lazy);
    if (values != R_NilValue && !ALTREP(values) &&
        static_cast<double>(XLENGTH(values)) < lazy_min_length()) {
      const R_xlen_t n = XLENGTH(values);
      SEXP out = PROTECT(alloc_output(TYPEOF(values), n));
      if (n > 0)
        std::memcpy(DATAPTR(out), DATAPTR_RO(values), n * dtype_size(state_of(lazy).dtype));
      set_plain_attributes(out, attributes);
      out = new_lazy_input(out, ATTRIB(out));
      UNPROTECT(1);
      return out;
    }
    NodeUse use = lazy_node_use(lazy);
    PROTECT(use.leaves);
    SEXP out = new_lazy_vector(std::move(use.node), use.leaves, attributes);
    UNPROTECT(1);
    return out;
  });
}

// Elements [begin, end) (0-based) as a plain vector without attributes.
SEXP lazy_region_entry(SEXP x, SEXP begin, SEXP end) {
  unsigned warnings = 0;
  SEXP out = PROTECT(guarded([&]() -> SEXP {
    SEXP lazy = required_lazy(x);
    const LazyState& s = state_of(lazy);
    const R_xlen_t b = std::max<R_xlen_t>(0, static_cast<R_xlen_t>(Rf_asReal(begin)));
    const R_xlen_t e = std::min<R_xlen_t>(s.length, static_cast<R_xlen_t>(Rf_asReal(end)));
    SEXP out = PROTECT(alloc_vector(sexptype_of(s.dtype), e > b ? e - b : 0));
    warnings = read_lazy_region(lazy, b, e, data_of(out));
    UNPROTECT(1);
    return out;
  }));
  raise_warnings(warnings);
  UNPROTECT(1);
  return out;
}

SEXP lazy_is_vector_entry(SEXP x) {
  return guarded([&]() -> SEXP { return Rf_ScalarLogical(lazy_inside(x) != nullptr); });
}

// Test hook: TRUE once the values of x are cached (and for plain vectors).
SEXP lazy_is_materialized_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    return Rf_ScalarLogical(lazy == nullptr || lazy_is_materialized(lazy));
  });
}

SEXP lazy_describe_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    return Rf_mkString(lazy == nullptr ? "plain" : describe_lazy(lazy).c_str());
  });
}

// Gufunc calls nested in x's graph (0 for plain and materialized values).
SEXP lazy_gufunc_depth_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    return Rf_ScalarInteger(lazy == nullptr ? 0 : lazy_node_use(lazy).node->gufunc_depth);
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_gufunc_depth, gufunc::r::lazy_gufunc_depth_entry, 1);
GUFUNC_CALL_ENTRY(lazy_wrap, gufunc::r::lazy_wrap_entry, 1);
GUFUNC_CALL_ENTRY(lazy_short_result, gufunc::r::lazy_short_result_entry, 1);
GUFUNC_CALL_ENTRY(lazy_materialize, gufunc::r::lazy_materialize_entry, 1);
GUFUNC_CALL_ENTRY(plain_copy, gufunc::r::plain_copy_entry, 1);
GUFUNC_CALL_ENTRY(lazy_changeable_copy, gufunc::r::lazy_changeable_copy_entry, 1);
GUFUNC_CALL_ENTRY(lazy_with_attributes, gufunc::r::lazy_with_attributes_entry, 2);
GUFUNC_CALL_ENTRY(lazy_region, gufunc::r::lazy_region_entry, 3);
GUFUNC_CALL_ENTRY(lazy_is_vector, gufunc::r::lazy_is_vector_entry, 1);
GUFUNC_CALL_ENTRY(lazy_is_materialized, gufunc::r::lazy_is_materialized_entry, 1);
GUFUNC_CALL_ENTRY(lazy_describe, gufunc::r::lazy_describe_entry, 1);
