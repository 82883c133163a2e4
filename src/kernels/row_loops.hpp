// Row kernels (dispatch/row_kernel.hpp) made from the operator structs of
// strided_loop.hpp: the same apply() on kFusedRow elements, so a fused run computes
// the same bits as the kernel set's strided loop.
#pragma once

// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cstring>

#include "dispatch/row_kernel.hpp"

// Each row is a few whole vector iterations: unrolled, they cost no loop overhead.
#if defined(__clang__)
#define GUFUNC_UNROLL_ROW _Pragma("unroll 16")
#elif defined(__GNUC__)
#define GUFUNC_UNROLL_ROW _Pragma("GCC unroll 16")
#else
#define GUFUNC_UNROLL_ROW
#endif

namespace gufunc {

// Op: as for binary_loop(), with double operands and result. `out` may be an
// operand: then the row is computed into a local array first.
template <class Op>
void binary_row_aliased(const double* a, const double* b, double* out, int n, unsigned* warn) {
  double r[kFusedRow];
  unsigned w = 0;
  for (int i = 0; i < n; ++i) r[i] = Op::apply(a[i], b[i], w);
  std::memcpy(out, r, static_cast<size_t>(n) * sizeof(double));
  *warn |= w;
}

template <class Op>
GUFUNC_SIMD_CLONES void binary_row(const double* const* in, double* out, int n, unsigned* warn) {
  const double* a = in[0];
  const double* b = in[1];
  if (out == a || out == b) return binary_row_aliased<Op>(a, b, out, n, warn);
  const double* __restrict x = a;
  const double* __restrict y = b;
  double* __restrict r = out;
  unsigned w = 0;
  if (n == kFusedRow) {
    GUFUNC_UNROLL_ROW
    for (int i = 0; i < kFusedRow; ++i) r[i] = Op::apply(x[i], y[i], w);
  } else {
    for (int i = 0; i < n; ++i) r[i] = Op::apply(x[i], y[i], w);
  }
  *warn |= w;
}

// Op: as for unary_loop(), with a double operand and result (`out` may be it: each
// element is read before it is written).
template <class Op>
GUFUNC_SIMD_CLONES void unary_row(const double* const* in, double* out, int n, unsigned* warn) {
  const double* a = in[0];
  unsigned w = 0;
  if (n == kFusedRow) {
    GUFUNC_UNROLL_ROW
    for (int i = 0; i < kFusedRow; ++i) out[i] = Op::apply(a[i], w);
  } else {
    for (int i = 0; i < n; ++i) out[i] = Op::apply(a[i], w);
  }
  *warn |= w;
}

}  // namespace gufunc
