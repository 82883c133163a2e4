// Per-block accumulators of the fused reductions, following base R's summary.c:
// sums and means accumulate in long double, integer sums in 64 bits (NA and a warning
// outside the int range), min/max keep the first of equal values and let NA win
// over NaN, any/all follow R's three-valued logic. Blocks are combined in order.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

struct Partial {
  long double ld = 0;     // sum/mean (double and integer input), prod
  int64_t i64 = 0;        // sum of integer/logical
  int64_t count = 0;      // elements accumulated (mean)
  double dv[2] = {0, 0};  // min, max of doubles
  int iv[2] = {0, 0};     // min, max of integers
  bool updated[2] = {false, false};
  bool na = false;  // an NA was met (integer input, or double NA for min/max)
  bool any_true = false, any_false = false;
  bool started = false;  // prod: ld holds a product
};

// Accumulates n values of type `t` (step bytes apart) into p.
void accumulate(Reduction r, bool na_rm, gufunc_dtype t, const char* data, intptr_t n,
                intptr_t step, Partial* p);
// Accumulates the sum (or mean) of the n products x[i] * y[i], each rounded to
// double as the builtin `*` rounds it: sum(x * y) without storing the products.
void accumulate_products(bool na_rm, const char* x, intptr_t x_step, const char* y, intptr_t y_step,
                         intptr_t n, Partial* p);
// Folds block partial `b` (a later block) into `acc`.
void combine(Reduction r, bool na_rm, gufunc_dtype t, const Partial& b, Partial* acc);
// The value of reduction node `r` over inputs of type `in`, from all blocks' partial.
ReduceResult finish_reduction(const Node& r, gufunc_dtype in, const Partial& p);

}  // namespace engine
}  // namespace gufunc
