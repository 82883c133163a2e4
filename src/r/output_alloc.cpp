// Large-result allocation through R's custom allocator hook (see output_alloc.hpp).
#include "r/output_alloc.hpp"

#include <R_ext/Rallocators.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/option_text.hpp"
#include "r/r_arrays.hpp"
#include "r/result_pool.hpp"

namespace gufunc {
namespace r {

namespace {

const size_t kHugePage = size_t(2) << 20;
// Results from this size get pooled buffers. (Pooled from 256 KiB, with blocks
// of whole 64 KiB below 4 MiB, gauss ran in 0.37-0.45 s instead of 0.52-0.87 on a
// VM whose page faults cost microseconds, but four programs peaked 11-26 MB higher:
// R counts a pooled result only until its next collection, so more of them aged
// uncollected. inst/benchmarks/README.md, November 30, third session.)
const size_t kLargeResult = size_t(4) << 20;
// A block starts with its capacity; R's vector starts kHeader bytes in, so blocks
// stay aligned to huge pages.
const size_t kHeader = 64;
const double kMegabyte = 1048576.0;
const double kDefaultPoolMegabytes = 256;
const double kMaxPoolMegabytes = 1048576.0;  // 1 TiB: more is certainly a typo

// Fresh memory on ordinary pages, as base R's own results get. Transparent huge
// pages (madvise) were asked for until November 2026: on one development VM a 4 KiB
// fault cost 14 us and huge pages paid off, but on another (the same kernel on
// another host) a 4 KiB fault cost 0.45 us (80 MB: 35 ms) and a huge-page fault 0.11
// ms while the guest still had the memory (80 MB: 9 ms) but 4.7 ms where the host
// had to provide it again (80 MB: 190 ms), which is where a fresh huge page comes
// from after the machine has been idle. A process's first large result then cost
// 2-4 times base R's first a * b + c (71-202 ms against 47-63; ordinary pages:
// 32-59 ms), later ones the same either way (the pool). On ordinary pages a gufunc
// result costs what each of base R's temporaries costs, never more. Blocks stay
// aligned to 2 MiB, so pool sizes and alignment do not depend on the page size.
void* fresh_block(size_t capacity) {
#if defined(__linux__)
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, capacity) != 0) return nullptr;
  return p;
#else
  return std::malloc(capacity);
#endif
}

// The blocks R holds vectors in now, and their capacities.
std::map<const char*, size_t> live_blocks;

// The size of the block for a vector of `size` bytes in all (R's header with it).
size_t block_size(size_t size) { return (size + kHeader + kHugePage - 1) / kHugePage * kHugePage; }

// Called by R (main thread) with the bytes of the whole vector.
void* large_alloc(R_allocator_t*, size_t size) {
  if (size > SIZE_MAX - kHeader - kHugePage) return nullptr;
  const size_t wanted = block_size(size);
  size_t capacity = 0;
  void* block = result_pool().take(wanted, &capacity);
  if (block == nullptr) {
    block = fresh_block(wanted);
    if (block == nullptr) {  // the kept buffers may be what is missing
      result_pool().release();
      block = fresh_block(wanted);
    }
    capacity = wanted;
  }
  if (block == nullptr) return nullptr;  // R raises its "cannot allocate" error
  *static_cast<size_t*>(block) = capacity;
  live_blocks[static_cast<const char*>(block)] = capacity;
  return static_cast<char*>(block) + kHeader;
}

// Called by R's garbage collector (main thread).
void large_free(R_allocator_t*, void* p) {
  char* block = static_cast<char*>(p) - kHeader;
  live_blocks.erase(block);
  result_pool().give(block, *reinterpret_cast<size_t*>(block));
}

// R keeps a copy of the allocator in every vector made with it.
R_allocator_t large_result_allocator = {large_alloc, large_free, nullptr, nullptr};

// A raw vector of `bytes` that R's collector counts, or R_NilValue where there is
// no address space for it. It is never written, so it costs address space, not
// memory. (Giving back the pages malloc may have placed it on, which freed vectors
// had touched, lowered lattice Boltzmann's peak from 195 to 181 MB, but base R's
// next vectors on those pages then paid fresh pages: `v[-1]` on 1e6 doubles took
// 5-10 ms instead of 2.4.)
SEXP collector_weight_of(size_t bytes) {
  auto allocate = [](void* n) -> SEXP {
    return Rf_allocVector(RAWSXP, static_cast<R_xlen_t>(*static_cast<size_t*>(n)));
  };
  auto failed = [](SEXP, void*) -> SEXP { return R_NilValue; };
  return R_tryCatchError(allocate, &bytes, failed, nullptr);
}

// R does not count vectors of a custom allocator towards the heap size that
// drives its collector (memory.c: `if (!allocator) R_LargeVallocSize += size`):
// with every large result gufunc's, R hardly ever collected, and 60 steps of
// `y <- materialize(x + i)` on 1e7 doubles kept 4.6 GB (heat_equation every grid:
// 237 MB against base R's 163). A weight of the result's size, dropped at once, is
// counted until the next collection, as base R's result would be: the collector
// runs as often as for base R's results. Where there is no address space left it
// is skipped (after the pool's buffers are given back). The values of a lazy
// vector are counted again for as long as it lives (collector_weight).
void count_for_collector(size_t bytes) {
  if (collector_weight_of(bytes) != R_NilValue) return;
  result_pool().release();
  collector_weight_of(bytes);
}

// The capacity of the pooled block that holds `data`, or 0.
size_t pooled_capacity(const void* data) {
  const char* p = static_cast<const char*>(data);
  auto after = live_blocks.upper_bound(p);
  if (after == live_blocks.begin()) return 0;
  const auto block = std::prev(after);
  return p < block->first + block->second ? block->second : 0;
}

// Option gufunc.buffer_pool: megabytes of freed large results kept for reuse.
size_t pool_limit_setting() {
  SEXP opt = Rf_GetOption1(Rf_install("gufunc.buffer_pool"));
  if (Rf_isNull(opt)) return static_cast<size_t>(kDefaultPoolMegabytes * kMegabyte);
  const double mb = option_number(opt);
  if (ISNAN(mb) || mb < 0 || mb > kMaxPoolMegabytes) {
    throw Error("gufunc_argument_error",
                "option `gufunc.buffer_pool` must be a single number of megabytes, at least 0");
  }
  return static_cast<size_t>(std::floor(mb * kMegabyte));
}

// .Call(C_result_pool, release): applies the option, frees the kept buffers when
// `release` is TRUE, and returns c(buffers, megabytes, limit_megabytes).
SEXP result_pool_entry(SEXP release) {
  return guarded([&]() -> SEXP {
    ResultPool& pool = result_pool();
    pool.set_limit(pool_limit_setting());
    if (Rf_asLogical(release) == TRUE) pool.release();
    SEXP out = alloc_vector(REALSXP, 3);
    REAL(out)[0] = static_cast<double>(pool.buffers());
    REAL(out)[1] = static_cast<double>(pool.bytes()) / kMegabyte;
    REAL(out)[2] = static_cast<double>(pool.limit()) / kMegabyte;
    return out;
  });
}

}  // namespace

SEXP held_values(size_t bytes, char** data) {
  const R_xlen_t n = static_cast<R_xlen_t>((bytes + sizeof(double) - 1) / sizeof(double));
  SEXP out = PROTECT(alloc_vector(VECSXP, 2));
  // A block the pool keeps (kHeader: about R's header) where one fits; else R's own
  // allocator, not a fresh block, which the pool would keep resident once freed.
  const size_t size = static_cast<size_t>(n) * sizeof(double);
  const bool pooled = size >= kLargeResult && size < SIZE_MAX / 2 &&
                      result_pool().holds_block_for(block_size(size + kHeader));
  SET_VECTOR_ELT(out, 0, alloc_vector(REALSXP, n, pooled ? &large_result_allocator : nullptr));
  SEXP values = VECTOR_ELT(out, 0);
  SET_VECTOR_ELT(out, 1, collector_weight(values));  // NULL for R's own
  *data = reinterpret_cast<char*>(REAL(values));
  UNPROTECT(1);
  return out;
}

std::shared_ptr<void> preserved_memory(size_t bytes, char** data) {
  SEXP values = PROTECT(held_values(bytes, data));
  R_PreserveObject(values);
  UNPROTECT(1);
  return std::shared_ptr<void>(values, [](void* v) { R_ReleaseObject(static_cast<SEXP>(v)); });
}

SEXP collector_weight(SEXP values) {
  const size_t bytes = pooled_capacity(DATAPTR_OR_NULL(values));
  return bytes == 0 ? R_NilValue : collector_weight_of(bytes);
}

SEXP alloc_output(SEXPTYPE type, R_xlen_t n) {
  const size_t width = type == REALSXP ? sizeof(double) : sizeof(int);
  result_pool().note_request(static_cast<size_t>(n) * width);
  if (static_cast<size_t>(n) * width < kLargeResult) return alloc_vector(type, n, nullptr);
  result_pool().set_limit(pool_limit_setting());
  SEXP out = PROTECT(alloc_vector(type, n, &large_result_allocator));
  count_for_collector(static_cast<size_t>(n) * width);
  UNPROTECT(1);
  return out;
}

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(result_pool, gufunc::r::result_pool_entry, 1);
