// The long double loops of sum() and mean() of doubles. Exact order is base R's
// rsum / real_mean: one accumulator, values in index order (the second pass adds the
// deviations from the first pass's mean). Fast order adds the value at index i into
// lane i % 4, so four additions overlap; a value's lane depends on its index only,
// so the result does not depend on how the values are cut into blocks.
#pragma once

#include <cstdint>

#include "engine/reduce_ops.hpp"

namespace gufunc {
namespace engine {

// A double in the x87 unit before it is added or multiplied, as R's loops have it:
// loading quiets a stored NA (a signalling NaN), and of two quiet NaNs the larger
// significand (NA's) wins. Added straight from memory, a signalling NA would leave
// an accumulated NaN instead, so the load is forced.
inline long double loaded(double x) {
  long double v = x;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __asm__("" : "+t"(v));
#endif
  return v;
}

// Folds the n doubles at `data` (`step` bytes apart), at indices [index, index + n),
// into s's sum (or mean's pass); under na_rm NaN values are skipped.
void sum_doubles(const char* data, intptr_t n, intptr_t step, intptr_t index, bool na_rm,
                 SumOrder order, ReduceState* s);

// The same for the n products x[i] * y[i], each rounded to double as the builtin `*`
// rounds it: sum(x * y) without storing the products.
void sum_products(const char* x, intptr_t x_step, const char* y, intptr_t y_step, intptr_t n,
                  intptr_t index, bool na_rm, SumOrder order, ReduceState* s);

// out[i] = x[i] * y[i] for i < n, rounded as the builtin `*` rounds it (contiguous
// arrays): the products a helper stores for the fold.
void store_products(const double* x, const double* y, intptr_t n, double* out);

}  // namespace engine
}  // namespace gufunc
