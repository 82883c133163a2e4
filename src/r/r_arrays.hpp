// R vectors as the core sees them: dtype, dims, data, and promotion copies.
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include <string>
#include <vector>

#include "dispatch/apply.hpp"

namespace gufunc {
namespace r {

// The dtype of a double, integer or logical vector; throws gufunc_type_error otherwise.
gufunc_dtype dtype_of(SEXP x, int position);
SEXPTYPE sexptype_of(gufunc_dtype t);
// The R dims of x, or {length} when it has none.
std::vector<intptr_t> dims_of(SEXP x);
char* data_of(SEXP x);
// Rf_allocVector (Rf_allocVector3 with `allocator`) with R's longjmp on failure
// turned into a C++ exception.
SEXP alloc_vector(SEXPTYPE type, R_xlen_t n, R_allocator_t* allocator = nullptr);
// A character vector of `texts`, marked UTF-8.
SEXP utf8_strings(const std::vector<std::string>& texts);
// A named list of `values` (all protected by the caller or fresh; at most 16).
SEXP named_list(const std::vector<const char*>& names, const std::vector<SEXP>& values);
// x converted to dtype `to` (a new protected vector, or x itself when no copy is
// needed: logical is already stored as integer). Increments *nprotect when it allocates.
SEXP promote(SEXP x, gufunc_dtype from, gufunc_dtype to, int* nprotect);
// Whether x is R's compact integer sequence (1:n, seq_len(n)) whose values R has
// not expanded; then its first value and step (+1 or -1).
bool compact_sequence(SEXP x, int* first, int* step);

}  // namespace r
}  // namespace gufunc
