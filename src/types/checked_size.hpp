// Sizes and strides in checked arithmetic. Dims come from the user (R allows
// array(0, c(2^31 - 1, 2^31 - 1, 2^31 - 1, 0))), so a product of them may exceed
// any integer type; a wrapped-around length would give a too-short buffer that the
// kernels then overrun. Every size and stride computation goes through here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "abi/error.hpp"

namespace gufunc {

// The longest array a result may be: R's R_XLEN_T_MAX (2^52), which src/r asserts.
constexpr intptr_t kMaxArrayLength = intptr_t(1) << 52;

[[noreturn]] inline void too_large(const std::string& what) {
  throw Error("gufunc_shape_error",
              what + " has more than 2^52 elements, the length of R's longest vector");
}

// In the functions below, `what()` gives the name of what is being sized, e.g.
// "output 1 (3,3,4) of ...": a callable, so that no text is built unless it fails.

// a * b for sizes (a, b >= 0); throws gufunc_shape_error "<what> has more than ..."
// when the product does not fit in 64 bits.
template <class What>
intptr_t checked_mul(intptr_t a, intptr_t b, const What& what) {
  intptr_t out;
  if (__builtin_mul_overflow(a, b, &out)) too_large(what());
  return out;
}

// The product of `dims`, exactly as mathematics has it: 0 when any dim is 0, however
// large the others; otherwise checked (throws naming `what` on overflow).
template <class What>
intptr_t checked_product(const std::vector<intptr_t>& dims, const What& what) {
  for (intptr_t d : dims) {
    if (d == 0) return 0;
  }
  intptr_t n = 1;
  for (intptr_t d : dims) n = checked_mul(n, d, what);
  return n;
}

// checked_product, which must also be at most kMaxArrayLength: the length of an
// array to allocate or loop over. Throws gufunc_shape_error naming `what`.
template <class What>
intptr_t checked_length(const std::vector<intptr_t>& dims, const What& what) {
  const intptr_t n = checked_product(dims, what);
  if (n > kMaxArrayLength) too_large(what());
  return n;
}

}  // namespace gufunc
