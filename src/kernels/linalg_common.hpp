// Shared pieces of the linear-algebra kernels (linalg_*.cpp): reading a core
// matrix through byte strides, per-call scratch memory, and the guard that turns a
// C++ exception into a kernel error (kernels may also be called from C code).
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#include "gufunc/kernel_set.h"

namespace gufunc {
namespace linalg {

// Element (i, j) of a core matrix whose rows are `si` and columns `sj` bytes apart.
inline double at(const char* p, intptr_t i, intptr_t j, intptr_t si, intptr_t sj) {
  return *reinterpret_cast<const double*>(p + i * si + j * sj);
}
inline double& at(char* p, intptr_t i, intptr_t j, intptr_t si, intptr_t sj) {
  return *reinterpret_cast<double*>(p + i * si + j * sj);
}

// Copies a strided rows x cols core matrix into column-major `dst`.
inline void gather(const char* src, intptr_t rows, intptr_t cols, intptr_t si, intptr_t sj,
                   double* dst) {
  for (intptr_t j = 0; j < cols; ++j) {
    for (intptr_t i = 0; i < rows; ++i) dst[i + j * rows] = at(src, i, j, si, sj);
  }
}

// Copies column-major `src` into a strided rows x cols core matrix.
inline void scatter(const double* src, intptr_t rows, intptr_t cols, char* dst, intptr_t si,
                    intptr_t sj) {
  for (intptr_t j = 0; j < cols; ++j) {
    for (intptr_t i = 0; i < rows; ++i) at(dst, i, j, si, sj) = src[i + j * rows];
  }
}

// Scratch doubles for one kernel call: on the stack for small matrices (the common
// case: stacks of 2x2 to 8x8), on the heap beyond. One per call, never shared, so
// kernels on different threads do not interfere.
template <class T>
class Scratch {
 public:
  explicit Scratch(size_t n) : ptr_(inline_) {
    if (n > kInline) {
      heap_.resize(n);
      ptr_ = heap_.data();
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* get() { return ptr_; }

 private:
  static const size_t kInline = 256;
  T inline_[kInline];
  std::vector<T> heap_;
  T* ptr_;
};

// The context a strided kernel reports through.
inline gufunc_context* context_of(void* data) {
  return data == nullptr ? nullptr : static_cast<gufunc_loop_data*>(data)->ctx;
}

// Runs `body` (returning 0 or -1), turning an exception (out of memory) into -1.
template <class Body>
int guarded_kernel(gufunc_context* ctx, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return ctx ? gufunc_error(ctx, "out of memory for the kernel's workspace") : -1;
  } catch (const std::exception& e) {
    return ctx ? gufunc_error(ctx, "%s", e.what()) : -1;
  }
}

// A registration line for a strided-only kernel set.
inline gufunc_kernel_init linalg_init(const char* name, const char* signature,
                                      gufunc_strided_kernel_t fn) {
  return gufunc_kernel_init{name, signature, nullptr, nullptr, nullptr, nullptr, fn, nullptr};
}

}  // namespace linalg
}  // namespace gufunc
