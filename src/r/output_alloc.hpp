// Allocation of large results: their buffers are kept for reuse when R frees them
// (result_pool.hpp), so a loop's results do not pay fresh pages every step.
#pragma once

#define R_NO_REMAP
#include <Rinternals.h>

namespace gufunc {
namespace r {

// Like Rf_allocVector (an R error becomes a C++ exception); vectors of at least
// 4 MiB get a pooled buffer, others R's own allocator.
SEXP alloc_output(SEXPTYPE type, R_xlen_t n);

// Makes the engine keep reused values (engine/reused_values.hpp) in R vectors,
// whose size R's garbage collector counts. Called once at load.
void install_kept_memory();

}  // namespace r
}  // namespace gufunc
