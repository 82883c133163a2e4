// The GUFUNC_WARN_* bits kernels and reductions report, in base R's words.
#pragma once

#define R_NO_REMAP
#include <Rinternals.h>

namespace gufunc {
namespace r {

// A character vector with the text of each bit set in `bits` (for R code to raise).
SEXP warning_texts(unsigned bits);

// Raises each warning once with Rf_warningcall. May longjmp (options(warn = 2)):
// call it only where no C++ frame owns resources, i.e. after guarded() returned.
void raise_warnings(unsigned bits);

}  // namespace r
}  // namespace gufunc
