// The ALTREP classes of lazy vectors: one per R type on one shared set of methods.
// Every method body runs through guarded(); warnings of an evaluation are raised
// after it returned, when no C++ frame owns anything.
#include "r/lazy_altrep.hpp"

#include <algorithm>

#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

R_altrep_class_t lazy_double_class, lazy_integer_class, lazy_logical_class;

// Elt evaluates one element per call. Code that reads a whole vector element by
// element would then cost one graph evaluation per element: after this many single
// reads the vector is materialized instead.
const size_t kSingleReadBudget = 4096;

// R's own loops over a vector (sum, anyNA, printing) read it region by region, 512
// elements at a time. A few regions are what printing needs; once the regions read
// add up to this many elements the caller reads everything, and computing the
// vector once is cheaper than evaluating the graph for every region.
double region_read_budget(R_xlen_t length) {
  return std::max(65536.0, static_cast<double>(length) / 8);
}

// Runs body (returning void) through guarded(); for methods that return no SEXP.
template <class F>
void guard(F body) {
  guarded([&]() -> SEXP {
    body();
    return R_NilValue;
  });
}

R_xlen_t lazy_length(SEXP x) {
  R_xlen_t n = 0;
  guard([&] { n = state_of(x).length; });
  return n;
}

Rboolean lazy_inspect(SEXP x, int, int, int, void (*)(SEXP, int, int, int)) {
  guard([&] { Rprintf(" gufunc_lazy %s\n", describe_lazy(x).c_str()); });
  return TRUE;
}

// A copy R may modify: the plain values once materialized, else a new lazy vector
// on the same (immutable) node. R copies the attributes onto it afterwards.
SEXP lazy_duplicate(SEXP x, Rboolean) {
  return guarded([&]() -> SEXP {
    SEXP values = values_of(x);
    if (values != R_NilValue) {
      SEXP copy = PROTECT(r_call([&] { return Rf_duplicate(values); }));
      SET_ATTRIB(copy, R_NilValue);
      SET_OBJECT(copy, 0);
      UNPROTECT(1);
      return copy;
    }
    LazyState copy = state_of(x);
    copy.single_reads = 0;
    copy.region_reads = 0;
    return wrap_lazy_state(std::move(copy), VECTOR_ELT(R_altrep_data2(x), kLeavesSlot));
  });
}

// NULL: R serializes the values as a plain vector, readable without gufunc.
SEXP lazy_serialized_state(SEXP) { return nullptr; }

void* lazy_dataptr(SEXP x, Rboolean) {
  unsigned warnings = 0;
  SEXP values = guarded([&]() -> SEXP { return materialize_lazy(x, &warnings); });
  raise_warnings(warnings);  // values stay protected: x holds them
  return DATAPTR(values);
}

const void* lazy_dataptr_or_null(SEXP x) {
  SEXP values = values_of(x);
  return values == R_NilValue ? nullptr : DATAPTR_RO(values);
}

// The 0-based first index when indx (1-based, as R's subscript code makes it)
// is a run of consecutive in-range positions; -1 otherwise.
R_xlen_t contiguous_start(SEXP indx, R_xlen_t length) {
  const R_xlen_t n = XLENGTH(indx);
  if (n == 0) return -1;
  if (TYPEOF(indx) == INTSXP) {
    const int* p = INTEGER(indx);
    const R_xlen_t first = static_cast<R_xlen_t>(p[0]) - 1;
    if (p[0] == NA_INTEGER || first < 0 || first + n > length) return -1;
    for (R_xlen_t k = 1; k < n; ++k) {
      if (p[k] != p[0] + k) return -1;
    }
    return first;
  }
  const double* d = REAL(indx);
  if (!R_FINITE(d[0]) || d[0] < 1) return -1;
  const R_xlen_t first = static_cast<R_xlen_t>(d[0] - 1);
  if (first + n > length) return -1;
  for (R_xlen_t k = 1; k < n; ++k) {
    if (!R_FINITE(d[k]) || static_cast<R_xlen_t>(d[k] - 1) != first + k) return -1;
  }
  return first;
}

template <class T>
void gather(const T* from, R_xlen_t length, SEXP indx, T na, T* to) {
  const R_xlen_t n = XLENGTH(indx);
  if (TYPEOF(indx) == INTSXP) {
    const int* p = INTEGER(indx);
    for (R_xlen_t k = 0; k < n; ++k) {
      to[k] = (p[k] != NA_INTEGER && p[k] > 0 && p[k] <= length) ? from[p[k] - 1] : na;
    }
    return;
  }
  const double* d = REAL(indx);
  for (R_xlen_t k = 0; k < n; ++k) {
    const R_xlen_t i = R_FINITE(d[k]) ? static_cast<R_xlen_t>(d[k] - 1) : -1;
    to[k] = (i >= 0 && i < length) ? from[i] : na;
  }
}

// x[i] for base R's subsetting: a contiguous run of a deferred vector evaluates
// only that run; any other index materializes x (once) and picks from the values.
SEXP lazy_extract_subset(SEXP x, SEXP indx, SEXP) {
  if (TYPEOF(indx) != INTSXP && TYPEOF(indx) != REALSXP) return nullptr;
  unsigned warnings = 0;
  SEXP result = PROTECT(guarded([&]() -> SEXP {
    const LazyState& s = state_of(x);
    const R_xlen_t n = XLENGTH(indx);
    SEXP out = PROTECT(alloc_vector(sexptype_of(s.dtype), n));
    const R_xlen_t first = values_of(x) == R_NilValue ? contiguous_start(indx, s.length) : -1;
    if (first >= 0) {
      read_lazy_region(x, first, first + n, data_of(out));
    } else if (n > 0) {
      SEXP values = materialize_lazy(x, &warnings);
      if (s.dtype == GUFUNC_DOUBLE) {
        gather(REAL(values), s.length, indx, NA_REAL, REAL(out));
      } else {
        gather(INTEGER(values), s.length, indx, NA_INTEGER, INTEGER(out));
      }
    }
    UNPROTECT(1);
    return out;
  }));
  raise_warnings(warnings);
  UNPROTECT(1);
  return result;
}

template <class T>
T lazy_elt(SEXP x, R_xlen_t i) {
  SEXP values = values_of(x);
  if (values != R_NilValue) return reinterpret_cast<const T*>(data_of(values))[i];
  T value{};
  unsigned warnings = 0;
  guard([&] {
    LazyState& s = state_of(x);
    if (++s.single_reads > kSingleReadBudget) {
      value = reinterpret_cast<const T*>(data_of(materialize_lazy(x, &warnings)))[i];
    } else {
      read_lazy_region(x, i, i + 1, &value);
    }
  });
  raise_warnings(warnings);
  return value;
}

template <class T>
R_xlen_t lazy_get_region(SEXP x, R_xlen_t i, R_xlen_t n, T* buf) {
  R_xlen_t count = 0;
  unsigned warnings = 0;
  guard([&] {
    LazyState& s = state_of(x);
    count = i >= s.length ? 0 : std::min(n, s.length - i);
    s.region_reads += static_cast<double>(count);
    if (values_of(x) == R_NilValue && s.region_reads > region_read_budget(s.length)) {
      materialize_lazy(x, &warnings);
    }
    read_lazy_region(x, i, i + count, buf);
  });
  raise_warnings(warnings);
  return count;
}

void set_common_methods(R_altrep_class_t cls) {
  R_set_altrep_Length_method(cls, lazy_length);
  R_set_altrep_Inspect_method(cls, lazy_inspect);
  R_set_altrep_Duplicate_method(cls, lazy_duplicate);
  R_set_altrep_Serialized_state_method(cls, lazy_serialized_state);
  R_set_altvec_Dataptr_method(cls, lazy_dataptr);
  R_set_altvec_Dataptr_or_null_method(cls, lazy_dataptr_or_null);
  R_set_altvec_Extract_subset_method(cls, lazy_extract_subset);
}

}  // namespace

void register_lazy_altrep(DllInfo* dll) {
  lazy_double_class = R_make_altreal_class("gufunc_lazy_double", "gufunc", dll);
  set_common_methods(lazy_double_class);
  R_set_altreal_Elt_method(lazy_double_class, lazy_elt<double>);
  R_set_altreal_Get_region_method(lazy_double_class, lazy_get_region<double>);

  lazy_integer_class = R_make_altinteger_class("gufunc_lazy_integer", "gufunc", dll);
  set_common_methods(lazy_integer_class);
  R_set_altinteger_Elt_method(lazy_integer_class, lazy_elt<int>);
  R_set_altinteger_Get_region_method(lazy_integer_class, lazy_get_region<int>);

  lazy_logical_class = R_make_altlogical_class("gufunc_lazy_logical", "gufunc", dll);
  set_common_methods(lazy_logical_class);
  R_set_altlogical_Elt_method(lazy_logical_class, lazy_elt<int>);
  R_set_altlogical_Get_region_method(lazy_logical_class, lazy_get_region<int>);
}

R_altrep_class_t lazy_class_for(gufunc_dtype t) {
  return t == GUFUNC_DOUBLE    ? lazy_double_class
         : t == GUFUNC_INTEGER ? lazy_integer_class
                               : lazy_logical_class;
}

bool is_lazy_vector(SEXP x) {
  return ALTREP(x) &&
         (R_altrep_inherits(x, lazy_double_class) || R_altrep_inherits(x, lazy_integer_class) ||
          R_altrep_inherits(x, lazy_logical_class));
}

// R's wrapper classes are not part of its API; they are recognized by their layout
// instead: data1 the wrapped vector (here a lazy one, of the same type and length),
// data2 the metadata, an integer vector of length 2 (sortedness, no NA).
SEXP lazy_inside(SEXP x) {
  for (int depth = 0; depth < 8 && ALTREP(x); ++depth) {
    if (is_lazy_vector(x)) return x;
    SEXP inner = R_altrep_data1(x);
    SEXP meta = R_altrep_data2(x);
    const bool wrapper = TYPEOF(inner) == TYPEOF(x) && ALTREP(inner) &&
                         XLENGTH(inner) == XLENGTH(x) && TYPEOF(meta) == INTSXP &&
                         XLENGTH(meta) == 2;
    if (!wrapper) return nullptr;
    x = inner;
  }
  return nullptr;
}

}  // namespace r
}  // namespace gufunc
