// Allocation of large results: their buffers are kept for reuse when R frees them
// (result_pool.hpp), so a loop's results do not pay fresh pages every step.
#pragma once

#include <memory>

#define R_NO_REMAP
#include <Rinternals.h>

namespace gufunc {
namespace r {

// Like Rf_allocVector (an R error becomes a C++ exception); vectors of at least
// 4 MiB get a pooled buffer, others R's own allocator.
SEXP alloc_output(SEXPTYPE type, R_xlen_t n);

// For the values a lazy vector is computed into: a weight of their size (a raw
// vector R counts, never written) when they are a pooled result, which R's
// collector does not count itself, else R_NilValue. Kept in the lazy vector, it
// makes R count its values for as long as the vector lives, as it counts base R's
// vectors. A loop drops the versions it replaces (x[i] <- v, x <- f(x)), but each
// was current during a collection or two and aged into an older generation, which
// only R's larger collections free; R makes those when the memory it counts has
// grown. Uncounted, old versions piled up: 40 steps of writes to the planes of a
// 120 MB lazy array grew the process by 2.2 GB (base R: 183 MB), now by 346 MB.
SEXP collector_weight(SEXP values);

// `bytes` of memory at *data for the engine to hold (kept values, copies of values
// before they change in place: engine/buffer_readers.hpp), in a list that holds it
// and makes R's collector count it for as long as the list lives. In a freed large
// result's block where the pool keeps one that fits: what a step's results freed
// at a collection (in the pool, resident) then holds values that would take new
// memory (shallow_water's peak at scale 2: 259 MB against base R's 241, 243 so).
SEXP held_values(size_t bytes, char** data);

// held_values() kept until the handle is released (on the main thread).
std::shared_ptr<void> preserved_memory(size_t bytes, char** data);

}  // namespace r
}  // namespace gufunc
