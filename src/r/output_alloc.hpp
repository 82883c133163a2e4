// Allocation of large results. Fresh memory costs a page fault per 4 KiB page on
// first touch, which for a 1e7-double result costs more than computing it; large
// results are therefore placed on transparent huge pages where the OS offers them,
// and their buffers are kept for reuse when R frees them (result_pool.hpp).
#pragma once

#define R_NO_REMAP
#include <Rinternals.h>

namespace gufunc {
namespace r {

// Like Rf_allocVector (an R error becomes a C++ exception); vectors of at least
// 4 MiB get a kept buffer or memory advised for huge pages (Linux), others R's
// own allocator.
SEXP alloc_output(SEXPTYPE type, R_xlen_t n);

}  // namespace r
}  // namespace gufunc
