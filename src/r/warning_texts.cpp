// Warning texts (see warning_texts.hpp).
#include "r/warning_texts.hpp"

#include "gufunc/context.h"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

struct Known {
  unsigned bit;
  const char* text;
};

const Known kKnown[] = {
    {GUFUNC_WARN_INT_OVERFLOW, "NAs produced by integer overflow"},
    {GUFUNC_WARN_NAN_PRODUCED, "NaNs produced"},
    {GUFUNC_WARN_MOD_ACCURACY, "probable complete loss of accuracy in modulus"},
    {GUFUNC_WARN_EMPTY_MIN, "no non-missing arguments to min; returning Inf"},
    {GUFUNC_WARN_EMPTY_MAX, "no non-missing arguments to max; returning -Inf"},
    {GUFUNC_WARN_CUMSUM_OVERFLOW, "integer overflow in 'cumsum'; use 'cumsum(as.numeric(.))'"},
};

}  // namespace

SEXP warning_texts(unsigned bits) {
  R_xlen_t n = 0;
  for (const Known& k : kKnown) n += (bits & k.bit) ? 1 : 0;
  SEXP out = PROTECT(alloc_vector(STRSXP, n));
  R_xlen_t i = 0;
  for (const Known& k : kKnown) {
    if (bits & k.bit) SET_STRING_ELT(out, i++, Rf_mkChar(k.text));
  }
  UNPROTECT(1);
  return out;
}

void raise_warnings(unsigned bits) {
  for (const Known& k : kKnown) {
    if (bits & k.bit) Rf_warningcall(R_NilValue, "%s", k.text);
  }
}

}  // namespace r
}  // namespace gufunc
