// The ALTREP classes of lazy vectors: one per R type on one shared set of methods.
// Every method body runs through guarded(); warnings of an evaluation are raised
// after it returned, when no C++ frame owns anything.
#include "r/lazy_altrep.hpp"

#include <algorithm>
#include <cstring>

#include "r/call_registry.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

R_altrep_class_t lazy_double_class, lazy_integer_class, lazy_logical_class;

// Elt and small subsets evaluate only the elements they read. Code that reads a
// whole vector piece by piece (R's subassignment reads its value element by
// element) would then cost one graph evaluation per piece: after this many partial
// evaluations the vector is computed whole instead, so such code costs base R's
// time plus one materialization.
const size_t kPartialReadBudget = 16;

// Whether the next partial evaluation of s should compute it whole instead.
bool over_read_budget(LazyState& s) { return ++s.partial_reads > kPartialReadBudget; }

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
      // Shares the values: R's complex assignment duplicates a shared lazy value
      // before calling `[<-`, which copies the values itself (a second copy).
      SEXP copy = PROTECT(new_lazy_input(values, R_NilValue));
      state_of(copy).copy_on_write = true;
      state_of(x).readers.reset();  // the copy reads them through R: never written
      state_of(copy).warned = state_of(x).warned;
      UNPROTECT(1);
      return copy;  // R gives it the attributes of x
    }
    LazyState copy = state_of(x);
    copy.partial_reads = 0;
    return wrap_lazy_state(std::move(copy), VECTOR_ELT(R_altrep_data2(x), kLeavesSlot));
  });
}

// A saved lazy value is its values (computed now), read back as a lazy value
// (lazy_unserialize): never plain data carrying the class. Reading needs gufunc.
// Without the class (R removed it, as as.vector() does) it is plain data to R, and
// R saves it as such (NULL: R's own format).
SEXP lazy_serialized_state(SEXP x) {
  if (!Rf_inherits(x, "gufunc_lazy")) return nullptr;
  // A lazy_file() value is saved as its file's path and layout, not its data.
  if (state_of(x).file) return guarded([&]() -> SEXP { return file_reference(x); });
  unsigned warnings = 0;
  SEXP values = guarded([&]() -> SEXP { return materialize_lazy(x, &warnings); });
  raise_warnings(warnings);
  return values;
}

SEXP lazy_unserialize(SEXP, SEXP state, SEXP attributes, int, int) {
  return guarded([&]() -> SEXP {
    if (TYPEOF(state) == VECSXP) return reopen_file_reference(state, attributes);
    return new_lazy_input(state, attributes);
  });
}

// The values of a duplicate that C code will write into, copied from the values it
// shares (see LazyState::copy_on_write) and its own from now on.
void own_values(SEXP x) {
  LazyState& s = state_of(x);
  SEXP copy = PROTECT(r_call([&] { return Rf_duplicate(values_of(x)); }));
  SET_ATTRIB(copy, R_NilValue);
  SET_OBJECT(copy, 0);
  SEXP leaves = PROTECT(alloc_vector(VECSXP, 1));
  SET_VECTOR_ELT(leaves, 0, copy);
  SET_VECTOR_ELT(R_altrep_data2(x), kLeavesSlot, leaves);
  set_values(x, copy);
  s.node.reset();  // a graph made from x from now on reads the copy
  s.copy_on_write = false;
  s.values_borrowed = false;
  s.readers = std::make_shared<engine::BufferReaders>();
  UNPROTECT(2);
}

// Deferred values computed because base R's code asked for their data pointer
// (lazy_fallbacks() in R).
double data_pointer_evaluations = 0;

// options(gufunc.verbose = TRUE): R's note_data_pointer() says that x, deferred,
// is computed whole for base R's code. Runs before any C++ object lives here, so
// a condition handler may jump out of it.
void note_data_pointer(SEXP x) {
  if (values_of(x) != R_NilValue || state_of(x).failed) return;  // the common case: cheap
  static SEXP option = Rf_install("gufunc.verbose");
  if (Rf_asLogical(Rf_GetOption1(option)) != TRUE) return;
  SEXP call = PROTECT(Rf_lang2(Rf_install("note_data_pointer"), x));
  eval_in_namespace(call);
  UNPROTECT(1);
}

void* lazy_dataptr(SEXP x, Rboolean writeable) {
  note_data_pointer(x);
  unsigned warnings = 0;
  SEXP values = guarded([&]() -> SEXP {
    // A writer that may change x in place (R checks that nothing else refers to x
    // first; a shared x is only read) gets values no graph and no other R vector
    // reads.
    if (writeable && REFCNT(x) <= 1 && values_of(x) != R_NilValue) {
      if (!values_private(x)) {
        own_values(x);
      } else {
        before_values_change(x, 0, state_of(x).length - 1);
      }
    } else if (writeable && state_of(x).copy_on_write) {
      own_values(x);
    }
    if (values_of(x) == R_NilValue && !state_of(x).failed) ++data_pointer_evaluations;
    return materialize_lazy(x, &warnings);
  });
  raise_warnings(warnings);  // values stay protected: x holds them
  // x is not mutable once its values are handed out, so R copies before writing.
  return DATAPTR(values);
}

const void* lazy_dataptr_or_null(SEXP x) {
  SEXP values = values_of(x);
  return values == R_NilValue ? nullptr : DATAPTR_OR_NULL(values);
}

// The 0-based position subscript indx[k] (1-based, as R's subscript code makes it)
// picks, or -1 for NA and positions beyond x (which give NA).
R_xlen_t position(SEXP indx, R_xlen_t k, R_xlen_t length) {
  R_xlen_t i = -1;
  if (TYPEOF(indx) == INTSXP) {
    const int p = INTEGER(indx)[k];
    if (p != NA_INTEGER) i = static_cast<R_xlen_t>(p) - 1;
  } else {
    const double d = REAL(indx)[k];
    if (R_FINITE(d)) i = static_cast<R_xlen_t>(d - 1);
  }
  return i >= 0 && i < length ? i : -1;
}

// The runs of consecutive positions indx picks, in order. False when computing
// them would cost more than computing x whole: a subscript that picks more than a
// quarter of x, or in more than max(1024, length / 256) runs. One run of valid
// positions, of any length, is always worth it.
bool few_runs(SEXP indx, R_xlen_t length, std::vector<engine::Run>* runs) {
  const R_xlen_t n = XLENGTH(indx);
  const size_t max_runs = std::max<size_t>(1024, static_cast<size_t>(length / 256));
  bool all_valid = true;
  for (R_xlen_t k = 0; k < n; ++k) {
    const R_xlen_t i = position(indx, k, length);
    if (i < 0) {
      all_valid = false;
    } else if (!runs->empty() && runs->back().end == i) {
      runs->back().end++;
    } else if (runs->size() == max_runs) {
      return false;
    } else {
      runs->push_back({i, i + 1});
    }
  }
  return (all_valid && runs->size() == 1) || n <= length / 4;
}

// Copies the values picked (`picked`, in subscript order, skipping invalid
// positions) to out, with NA where the subscript is NA or beyond x.
template <class T>
void spread(const T* picked, SEXP indx, R_xlen_t length, T na, T* out) {
  for (R_xlen_t k = 0, j = 0; k < XLENGTH(indx); ++k) {
    out[k] = position(indx, k, length) < 0 ? na : picked[j++];
  }
}

template <class T>
void gather(const T* from, R_xlen_t length, SEXP indx, T na, T* to) {
  for (R_xlen_t k = 0; k < XLENGTH(indx); ++k) {
    const R_xlen_t i = position(indx, k, length);
    to[k] = i < 0 ? na : from[i];
  }
}

// x[i] for base R's subsetting (and x[i, j] through `[.gufunc_lazy`): a deferred
// vector computes only the positions picked when they are few (few_runs);
// otherwise x is materialized (once) and the values are picked from it.
SEXP lazy_extract_subset(SEXP x, SEXP indx, SEXP) {
  if (TYPEOF(indx) != INTSXP && TYPEOF(indx) != REALSXP) return nullptr;
  // Borrowed ALTREP values (lazy(1:n)): R's subsetting reads them element by element.
  if (values_of(x) != R_NilValue && ALTREP(values_of(x))) return nullptr;
  unsigned warnings = 0;
  SEXP result = PROTECT(guarded([&]() -> SEXP {
    LazyState& s = state_of(x);
    const R_xlen_t n = XLENGTH(indx);
    SEXP out = PROTECT(alloc_vector(sexptype_of(s.dtype), n));
    std::vector<engine::Run> runs;
    const bool doubles = s.dtype == GUFUNC_DOUBLE;
    if (n == 0) {
      // nothing to read
    } else if (values_of(x) == R_NilValue && few_runs(indx, s.length, &runs) &&
               !over_read_budget(s)) {
      size_t count = 0;
      for (const engine::Run& r : runs) count += static_cast<size_t>(r.end - r.begin);
      if (doubles) {
        std::vector<double> picked(count);
        warnings = read_lazy_runs(x, runs, picked.data());
        spread(picked.data(), indx, s.length, NA_REAL, REAL(out));
      } else {
        std::vector<int> picked(count);
        warnings = read_lazy_runs(x, runs, picked.data());
        spread(picked.data(), indx, s.length, NA_INTEGER, INTEGER(out));
      }
    } else {
      SEXP values = materialize_lazy(x, &warnings);
      if (doubles) {
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

// Element i of a lazy vector whose values are not at hand yet.
template <class T>
__attribute__((noinline)) T computed_elt(SEXP x, R_xlen_t i) {
  SEXP values = values_of(x);
  T value{};
  unsigned warnings = 0;
  guard([&] {
    LazyState& s = state_of(x);
    if (values == R_NilValue && over_read_budget(s)) materialize_lazy(x, &warnings);
    warnings |= read_lazy_region(x, i, i + 1, &value);
  });
  raise_warnings(warnings);
  return value;
}

template <class T>
T lazy_elt(SEXP x, R_xlen_t i) {
  if (x == elt_cache.vector) return reinterpret_cast<const T*>(elt_cache.data)[i];
  const char* data =
      static_cast<const LazyState*>(R_ExternalPtrAddr(R_altrep_data1(x)))->values_data;
  if (data == nullptr) return computed_elt<T>(x, i);
  elt_cache = EltCache{x, data};
  return reinterpret_cast<const T*>(data)[i];
}

// R's own loops over a whole vector (sum, anyNA, rep, subassignment) read it region
// by region, 512 elements at a time, from the first: the vector is computed whole
// at the first region read. (Printing reads its few values through C_lazy_region.)
template <class T>
R_xlen_t lazy_get_region(SEXP x, R_xlen_t i, R_xlen_t n, T* buf) {
  R_xlen_t count = 0;
  unsigned warnings = 0;
  guard([&] {
    LazyState& s = state_of(x);
    count = i >= s.length ? 0 : std::min(n, s.length - i);
    if (values_of(x) == R_NilValue) materialize_lazy(x, &warnings);
    warnings |= read_lazy_region(x, i, i + count, buf);
  });
  raise_warnings(warnings);
  return count;
}

void set_common_methods(R_altrep_class_t cls) {
  R_set_altrep_Length_method(cls, lazy_length);
  R_set_altrep_Inspect_method(cls, lazy_inspect);
  R_set_altrep_Duplicate_method(cls, lazy_duplicate);
  R_set_altrep_Serialized_state_method(cls, lazy_serialized_state);
  R_set_altrep_UnserializeEX_method(cls, lazy_unserialize);
  R_set_altvec_Dataptr_method(cls, lazy_dataptr);
  R_set_altvec_Dataptr_or_null_method(cls, lazy_dataptr_or_null);
  R_set_altvec_Extract_subset_method(cls, lazy_extract_subset);
}

// .Call(C_lazy_data_pointer_evaluations, reset): the count, then zero if reset.
SEXP data_pointer_evaluations_entry(SEXP reset) {
  const double count = data_pointer_evaluations;
  if (Rf_asLogical(reset) == TRUE) data_pointer_evaluations = 0;
  return Rf_ScalarReal(count);
}

}  // namespace

EltCache elt_cache;

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

bool is_lazy_class_alone(SEXP cls) {
  return TYPEOF(cls) == STRSXP && XLENGTH(cls) == 1 &&
         std::strcmp(CHAR(STRING_ELT(cls, 0)), "gufunc_lazy") == 0;
}

bool only_the_lazy_class(SEXP x) { return is_lazy_class_alone(Rf_getAttrib(x, R_ClassSymbol)); }

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

GUFUNC_CALL_ENTRY(lazy_data_pointer_evaluations, gufunc::r::data_pointer_evaluations_entry, 1);
