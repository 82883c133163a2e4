// The long double loops of sum() and mean() of doubles. Exact order is base R's
// rsum / real_mean: one accumulator, values in index order (the second pass adds the
// deviations from the first pass's mean). Fast order cuts the indices into chunks of
// kFastChunk: a chunk's value at index i goes to double lane i % 16 (vector adds),
// the lanes are added in pairs in long double, and the chunks' sums in index order
// in long double. A chunk whose double lanes are not all finite (a NaN, an infinity,
// an overflow of the double range) is added in four long double lanes instead (lane
// i % 4), as R's long double accumulator would keep it. Where chunks start and
// which lane a value joins depend on its index only, so the result does not depend
// on how the values are cut into blocks or threads, and helper threads sum the
// whole chunks of their blocks (prepare_fast_chunks()) for the fold to add.
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

// Values per chunk of a fast-order sum (a multiple of the 16 lanes).
const intptr_t kFastChunk = 1024;

// One whole chunk of a fast-order sum: its sum and how many values it added.
struct FastChunk {
  long double sum;
  int64_t used;
};

// The chunks of kFastChunk that lie whole within indices [index, index + n) of the
// n contiguous doubles at v, summed into `out` (one per chunk, in order); returns
// how many.
size_t prepare_fast_chunks(const double* v, intptr_t n, intptr_t index, bool na_rm, FastChunk* out);

// sum_doubles() in fast order of n contiguous doubles whose whole chunks
// prepare_fast_chunks() summed into `chunks`: only the values of chunks cut by the
// ends are added here.
void fold_fast_prepared(const double* v, intptr_t n, intptr_t index, bool na_rm,
                        const FastChunk* chunks, ReduceState* s);

// The total of a fast-order sum: the closed chunks' and the open chunk's.
long double fast_total(const ReduceState& s);

// The same for the n products x[i] * y[i], each rounded to double as the builtin `*`
// rounds it: sum(x * y) without storing the products.
void sum_products(const char* x, intptr_t x_step, const char* y, intptr_t y_step, intptr_t n,
                  intptr_t index, bool na_rm, SumOrder order, ReduceState* s);

// out[i] = x[i] * y[i] for i < n, rounded as the builtin `*` rounds it (contiguous
// arrays): the products a helper stores for the fold.
void store_products(const double* x, const double* y, intptr_t n, double* out);

}  // namespace engine
}  // namespace gufunc
