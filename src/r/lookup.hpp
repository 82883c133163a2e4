// Finding a function in a namespace's lookup table from R arguments.
#pragma once

#define R_NO_REMAP
#include <Rinternals.h>

#include "dispatch/table.hpp"

namespace gufunc {
namespace r {

// `name` and `ns` are character(1); throws gufunc_lookup_error when either is unknown.
Function& lookup_function(SEXP name, SEXP ns);

}  // namespace r
}  // namespace gufunc
