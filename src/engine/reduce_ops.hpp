// The rules of the fused reductions, following base R's summary.c (R 4.2): sums,
// means and products of doubles, and products of integers, accumulate in ONE long
// double in index order, as R's loops do, so the result has base R's bits whatever
// the blocks and threads; mean makes R's further passes (ReduceState::Pass). Integer
// sums are exact in 64 bits (a double outside the int range, as R 4.x), min/max keep
// the first of equal values and let NA win over NaN, any/all follow R's
// three-valued logic. Those last reductions do not depend on the order, so blocks may
// be reduced apart and merged in index order.
#pragma once

#include <cstdint>

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"
#include "engine/ordered_sum.hpp"

namespace gufunc {
namespace engine {

struct FastChunk;  // reduce_sums.hpp

// What one reduction has accumulated over the values met so far.
struct ReduceState {
  long double total = 0;      // sum and mean of doubles, prod; exact order: the accumulator
  InOrderHint in_order_hint;  // exact order: how add_in_order() fared on the last blocks
  // Fast order (reduce_sums.hpp): the open chunk's lanes; `total` holds the closed
  // chunks' sum.
  double fast_lanes[16] = {};
  long double lanes[4] = {0, 0, 0, 0};
  // Base R's mean of doubles (summary.c, real_mean) passes over the values again:
  // the deviations from total / count; or, when the total overflowed the double
  // range, the sum of x / count (`scaled`), then the deviations from it, each
  // divided by count.
  enum class Pass { Sum, Deviations, Scaled, ScaledDeviations };
  Pass pass = Pass::Sum;
  long double mean = 0;               // the mean the deviations are taken from
  long double scaled = 0;             // Pass::Scaled: the sum of x / count
  long double deviations = 0;         // the sum of the deviations (Pass::ScaledDeviations: / count)
  int64_t integer_total = 0;          // sum and mean of integers and logicals
  int64_t count = 0;                  // values accumulated: mean's divisor
  double double_extreme[2] = {0, 0};  // min, max
  int int_extreme[2] = {0, 0};
  bool has_extreme[2] = {false, false};
  bool saw_na = false;  // integer input: an NA (prod: or a NaN product)
  bool saw_true = false, saw_false = false;
};

// One reduction node's rules over values of one type.
class Reducer {
 public:
  Reducer(Reduction reduction, bool na_rm, gufunc_dtype input, SumOrder order);

  // True when values must be folded in index order into one state; false when a
  // block may be folded into a fresh state and merged in order (merge()).
  bool in_order() const { return in_order_; }

  // The state before any value (a product starts at 1).
  ReduceState start() const;

  // Folds n values (`step` bytes apart) at indices [index, index + n) into s.
  void fold(const char* data, intptr_t n, intptr_t step, intptr_t index, ReduceState* s) const;
  // Folds the n products x[i] * y[i], each rounded to double as the builtin `*`
  // rounds it: sum(x * y) without storing the products.
  void fold_products(const char* x, intptr_t x_step, const char* y, intptr_t y_step, intptr_t n,
                     intptr_t index, ReduceState* s) const;
  // True when a helper may prepare stored values for the fold (ordered_sum.hpp):
  // exact sums and means of doubles without na.rm, in their first pass.
  bool prepares(const ReduceState& s) const;
  // Folds n contiguous doubles, prepared by prepare_in_order(), into s: the state
  // fold() would leave.
  void fold_prepared(const double* v, intptr_t n, const PreparedChunk* chunks,
                     ReduceState* s) const;
  // True when a helper may sum whole chunks of its block for the fold
  // (prepare_fast_chunks(), reduce_sums.hpp): fast-order sums and means of doubles.
  bool prepares_fast() const;
  // prepare_fast_chunks() with this reduction's na.rm: returns the chunks summed.
  size_t prepare_fast(const double* v, intptr_t n, intptr_t index, FastChunk* out) const;
  // Folds n contiguous doubles at indices [index, index + n), whose whole chunks
  // prepare_fast() summed, into s: the state fold() would leave.
  void fold_fast_prepared(const double* v, intptr_t n, intptr_t index, const FastChunk* chunks,
                          ReduceState* s) const;
  // Folds the state of a later block into s (reductions not in_order()).
  void merge(const ReduceState& later, ReduceState* s) const;

  // True when the values may be folded twice (base R's mean of doubles).
  bool may_pass_twice() const;

  // After a pass over all values: true when another pass must fold them again
  // (base R's mean of doubles: see ReduceState::Pass); s is then ready for it.
  bool start_next_pass(ReduceState* s) const;

  // The value of reduction node r from the final state.
  ReduceResult finish(const Node& r, const ReduceState& s) const;

 private:
  Reduction reduction_;
  bool na_rm_;
  gufunc_dtype input_;
  SumOrder order_;
  bool in_order_;
};

}  // namespace engine
}  // namespace gufunc
