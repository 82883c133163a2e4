// Conversions between R vectors and the core's array view.
#include "r/r_arrays.hpp"

#include <climits>
#include <cmath>
#include <cstring>
#include <string>

#include "r/guard.hpp"
#include "types/checked_size.hpp"

namespace gufunc {
namespace r {

static_assert(kMaxArrayLength == R_XLEN_T_MAX, "the core's longest array is R's longest vector");

gufunc_dtype dtype_of(SEXP x, int position) {
  switch (TYPEOF(x)) {
    case LGLSXP:
      return GUFUNC_LOGICAL;
    case INTSXP:
      return GUFUNC_INTEGER;
    case REALSXP:
      return GUFUNC_DOUBLE;
    default:
      throw Error("gufunc_type_error", "argument " + std::to_string(position) + " is of type " +
                                           Rf_type2char(TYPEOF(x)) +
                                           "; gufunc takes double, integer or logical");
  }
}

SEXPTYPE sexptype_of(gufunc_dtype t) {
  return t == GUFUNC_DOUBLE ? REALSXP : t == GUFUNC_INTEGER ? INTSXP : LGLSXP;
}

std::vector<intptr_t> dims_of(SEXP x) {
  SEXP dim = Rf_getAttrib(x, R_DimSymbol);
  if (Rf_isNull(dim)) return {static_cast<intptr_t>(XLENGTH(x))};
  std::vector<intptr_t> out;
  for (R_xlen_t i = 0; i < XLENGTH(dim); ++i) out.push_back(INTEGER(dim)[i]);
  return out;
}

char* data_of(SEXP x) {
  return TYPEOF(x) == REALSXP ? reinterpret_cast<char*>(REAL(x))
                              : reinterpret_cast<char*>(INTEGER(x));
}

SEXP alloc_vector(SEXPTYPE type, R_xlen_t n, R_allocator_t* allocator) {
  struct Request {
    SEXPTYPE type;
    R_xlen_t n;
    R_allocator_t* allocator;
  } request = {type, n, allocator};
  return unwind_protect(
      [](void* p) -> SEXP {
        auto* q = static_cast<Request*>(p);
        return q->allocator ? Rf_allocVector3(q->type, q->n, q->allocator)
                            : Rf_allocVector(q->type, q->n);
      },
      &request);
}

SEXP utf8_strings(const std::vector<std::string>& texts) {
  SEXP out = PROTECT(alloc_vector(STRSXP, static_cast<R_xlen_t>(texts.size())));
  for (size_t i = 0; i < texts.size(); ++i) {
    SET_STRING_ELT(out, static_cast<R_xlen_t>(i), Rf_mkCharCE(texts[i].c_str(), CE_UTF8));
  }
  UNPROTECT(1);
  return out;
}

SEXP named_list(const std::vector<const char*>& names, const std::vector<SEXP>& values) {
  std::vector<const char*> terminated(names);
  terminated.push_back("");
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, terminated.data()));
  for (size_t i = 0; i < values.size(); ++i) {
    SET_VECTOR_ELT(out, static_cast<R_xlen_t>(i), values[i]);
  }
  UNPROTECT(1);
  return out;
}

SEXP promote(SEXP x, gufunc_dtype from, gufunc_dtype to, int* nprotect) {
  if (from == to || (from == GUFUNC_LOGICAL && to == GUFUNC_INTEGER)) return x;
  if (to != GUFUNC_DOUBLE) throw Error("gufunc_internal_error", "unsupported promotion");
  const R_xlen_t n = XLENGTH(x);
  SEXP out = PROTECT(alloc_vector(REALSXP, n));
  ++*nprotect;
  const int* src = INTEGER(x);
  double* dst = REAL(out);
  for (R_xlen_t i = 0; i < n; ++i) dst[i] = src[i] == NA_INTEGER ? NA_REAL : src[i];
  return out;
}

// Its ALTREP class is base R's "compact_intseq" (the class object's attributes name
// it), whose state holds the length, the first value and the step, as doubles.
bool compact_sequence(SEXP x, int* first, int* step) {
  if (!ALTREP(x) || TYPEOF(x) != INTSXP || DATAPTR_OR_NULL(x) != nullptr) return false;
  SEXP names = ATTRIB(TAG(x));
  if (TYPEOF(names) != LISTSXP || TYPEOF(CAR(names)) != SYMSXP || TYPEOF(CDR(names)) != LISTSXP ||
      TYPEOF(CADR(names)) != SYMSXP ||
      std::strcmp(CHAR(PRINTNAME(CAR(names))), "compact_intseq") != 0 ||
      std::strcmp(CHAR(PRINTNAME(CADR(names))), "base") != 0) {
    return false;
  }
  SEXP state = R_altrep_data1(x);
  if (TYPEOF(state) != REALSXP || XLENGTH(state) != 3) return false;
  const double n = REAL(state)[0], from = REAL(state)[1], by = REAL(state)[2];
  const double last = from + (n - 1) * by;
  if (n != static_cast<double>(XLENGTH(x)) || (by != 1 && by != -1) || std::fabs(from) > INT_MAX ||
      std::fabs(last) > INT_MAX) {
    return false;
  }
  *first = static_cast<int>(from);
  *step = static_cast<int>(by);
  return true;
}

}  // namespace r
}  // namespace gufunc
