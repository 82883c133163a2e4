// How options that take numbers are read, and how an error message about an R
// option shows the value it was given.
#pragma once

#include <R.h>
#include <Rinternals.h>

#include <string>

namespace gufunc {
namespace r {

// One value as R prints it (a string in quotes), else its type and length:
// `1000`, `"fast"`, `a list of length 2`.
std::string option_value_text(SEXP value);

// The value of an option that must be one number: a double or integer of length 1
// without a class, as a double; NA_REAL for anything else.
double option_number(SEXP value);

}  // namespace r
}  // namespace gufunc
