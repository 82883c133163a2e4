// One strided loop template per arity serves every element-wise operator: an
// operator is a tiny struct with its argument types and a static apply(), and
// the loop handles layouts (contiguous, one operand recycled from a single
// element, general strides) and hands the warnings to the context once.
#pragma once

#include "kernels/loop_options.hpp"

#include <cstdint>

#include "gufunc/kernel_set.h"

namespace gufunc {

// Warnings go to the caller's context as bits; several workers may share one
// context, so the bits are OR-ed in atomically.
inline void report_warnings(void* data, unsigned warn) {
  if (warn == 0 || data == nullptr) return;
  gufunc_context* ctx = static_cast<gufunc_loop_data*>(data)->ctx;
  if (ctx != nullptr) __atomic_fetch_or(&ctx->warnings, warn, __ATOMIC_RELAXED);
}

// The loops are vectorized under the options of loop_options.hpp.

template <class T>
inline T load(const char* p) {
  return *reinterpret_cast<const T*>(p);
}

// Op: `using In1, In2, Out;` and `static Out apply(In1, In2, unsigned& warn)`.
template <class Op>
GUFUNC_SIMD_CLONES int binary_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void* data) {
  using A = typename Op::In1;
  using B = typename Op::In2;
  using R = typename Op::Out;
  const intptr_t n = dimensions[0];
  if (n <= 0) return 0;
  const intptr_t sa = steps[0], sb = steps[1], sr = steps[2];
  unsigned warn = 0;
  const bool out_flat = sr == static_cast<intptr_t>(sizeof(R));
  const bool a_flat = sa == static_cast<intptr_t>(sizeof(A));
  const bool b_flat = sb == static_cast<intptr_t>(sizeof(B));
  R* out = reinterpret_cast<R*>(args[2]);
  if (out_flat && a_flat && b_flat) {
    const A* a = reinterpret_cast<const A*>(args[0]);
    const B* b = reinterpret_cast<const B*>(args[1]);
    for (intptr_t i = 0; i < n; ++i) out[i] = Op::apply(a[i], b[i], warn);
  } else if (out_flat && sa == 0 && b_flat) {
    const A a = load<A>(args[0]);
    const B* b = reinterpret_cast<const B*>(args[1]);
    for (intptr_t i = 0; i < n; ++i) out[i] = Op::apply(a, b[i], warn);
  } else if (out_flat && a_flat && sb == 0) {
    const A* a = reinterpret_cast<const A*>(args[0]);
    const B b = load<B>(args[1]);
    for (intptr_t i = 0; i < n; ++i) out[i] = Op::apply(a[i], b, warn);
  } else {
    const char* pa = args[0];
    const char* pb = args[1];
    char* pr = args[2];
    for (intptr_t i = 0; i < n; ++i, pa += sa, pb += sb, pr += sr) {
      *reinterpret_cast<R*>(pr) = Op::apply(load<A>(pa), load<B>(pb), warn);
    }
  }
  report_warnings(data, warn);
  return 0;
}

// Op: `using In, Out;` and `static Out apply(In, unsigned& warn)`.
template <class Op>
GUFUNC_SIMD_CLONES int unary_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void* data) {
  using A = typename Op::In;
  using R = typename Op::Out;
  const intptr_t n = dimensions[0];
  if (n <= 0) return 0;
  const intptr_t sa = steps[0], sr = steps[1];
  unsigned warn = 0;
  if (sa == static_cast<intptr_t>(sizeof(A)) && sr == static_cast<intptr_t>(sizeof(R))) {
    const A* a = reinterpret_cast<const A*>(args[0]);
    R* out = reinterpret_cast<R*>(args[1]);
    for (intptr_t i = 0; i < n; ++i) out[i] = Op::apply(a[i], warn);
  } else {
    const char* pa = args[0];
    char* pr = args[1];
    for (intptr_t i = 0; i < n; ++i, pa += sa, pr += sr) {
      *reinterpret_cast<R*>(pr) = Op::apply(load<A>(pa), warn);
    }
  }
  report_warnings(data, warn);
  return 0;
}

// Op: `using In1, In2, In3, Out;` and `static Out apply(In1, In2, In3, unsigned&)`.
// Operands of one element (step 0) are read like the others: the general loop.
template <class Op>
GUFUNC_SIMD_CLONES int ternary_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void* data) {
  using A = typename Op::In1;
  using B = typename Op::In2;
  using C = typename Op::In3;
  using R = typename Op::Out;
  const intptr_t n = dimensions[0];
  if (n <= 0) return 0;
  const intptr_t sa = steps[0], sb = steps[1], sc = steps[2], sr = steps[3];
  unsigned warn = 0;
  if (sa == static_cast<intptr_t>(sizeof(A)) && sb == static_cast<intptr_t>(sizeof(B)) &&
      sc == static_cast<intptr_t>(sizeof(C)) && sr == static_cast<intptr_t>(sizeof(R))) {
    const A* a = reinterpret_cast<const A*>(args[0]);
    const B* b = reinterpret_cast<const B*>(args[1]);
    const C* c = reinterpret_cast<const C*>(args[2]);
    R* out = reinterpret_cast<R*>(args[3]);
    for (intptr_t i = 0; i < n; ++i) out[i] = Op::apply(a[i], b[i], c[i], warn);
  } else {
    const char* pa = args[0];
    const char* pb = args[1];
    const char* pc = args[2];
    char* pr = args[3];
    for (intptr_t i = 0; i < n; ++i, pa += sa, pb += sb, pc += sc, pr += sr) {
      *reinterpret_cast<R*>(pr) = Op::apply(load<A>(pa), load<B>(pb), load<C>(pc), warn);
    }
  }
  report_warnings(data, warn);
  return 0;
}

// A registration line for a strided-only kernel set.
inline gufunc_kernel_init strided_init(const char* name, const char* signature,
                                       gufunc_strided_kernel_t fn) {
  return gufunc_kernel_init{name, signature, nullptr, nullptr, nullptr, nullptr, fn, nullptr};
}

}  // namespace gufunc
