// Large-result allocation through R's custom allocator hook (see output_alloc.hpp).
#include "r/output_alloc.hpp"

#include <R_ext/Rallocators.h>

#include <cstdlib>

#include "r/guard.hpp"
#include "r/r_arrays.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gufunc {
namespace r {

namespace {

const size_t kHugePage = size_t(2) << 20;
const size_t kLargeResult = size_t(4) << 20;

void* huge_page_alloc(R_allocator_t*, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, size) != 0) return nullptr;
  madvise(p, size, MADV_HUGEPAGE);  // advice only: a refusal leaves ordinary pages
  return p;
#else
  return std::malloc(size);
#endif
}

void huge_page_free(R_allocator_t*, void* p) { std::free(p); }

// R keeps a pointer to the allocator in every vector made with it: static storage.
R_allocator_t huge_page_allocator = {huge_page_alloc, huge_page_free, nullptr, nullptr};

}  // namespace

SEXP alloc_output(SEXPTYPE type, R_xlen_t n) {
  const size_t width = type == REALSXP ? sizeof(double) : sizeof(int);
  const bool large = static_cast<size_t>(n) * width >= kLargeResult;
  return alloc_vector(type, n, large ? &huge_page_allocator : nullptr);
}

}  // namespace r
}  // namespace gufunc
