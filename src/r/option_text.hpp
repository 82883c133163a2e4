// How an error message about an R option shows the value it was given.
#pragma once

#include <R.h>
#include <Rinternals.h>

#include <string>

namespace gufunc {
namespace r {

// One value as R prints it (a string in quotes), else its type and length:
// `1000`, `"fast"`, `a list of length 2`.
std::string option_value_text(SEXP value);

}  // namespace r
}  // namespace gufunc
