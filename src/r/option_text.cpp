// Option values in error messages (see option_text.hpp).
#include "r/option_text.hpp"

namespace gufunc {
namespace r {

std::string option_value_text(SEXP value) {
  if (TYPEOF(value) == STRSXP && XLENGTH(value) == 1 && STRING_ELT(value, 0) != NA_STRING) {
    return std::string("\"") + CHAR(STRING_ELT(value, 0)) + "\"";
  }
  if (Rf_isVectorAtomic(value) && XLENGTH(value) == 1 &&
      Rf_getAttrib(value, R_ClassSymbol) == R_NilValue) {
    return CHAR(Rf_asChar(value));
  }
  return std::string("a ") + Rf_type2char(TYPEOF(value)) + " of length " +
         std::to_string(static_cast<long long>(Rf_xlength(value)));
}

double option_number(SEXP value) {
  const bool number = (TYPEOF(value) == REALSXP || TYPEOF(value) == INTSXP) &&
                      XLENGTH(value) == 1 && Rf_getAttrib(value, R_ClassSymbol) == R_NilValue;
  return number ? Rf_asReal(value) : NA_REAL;
}

}  // namespace r
}  // namespace gufunc
