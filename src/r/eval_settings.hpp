// What every deferred evaluation started from R needs: the thread runner, the block
// size setting and an interrupt check. Read on the main thread for each evaluation,
// so options changed between calls take effect.
#pragma once

#include "engine/evaluate.hpp"
#include "r/rcpp_parallel_runner.hpp"

namespace gufunc {
namespace r {

// Elements per block: option gufunc.block_size, else env GUFUNC_BLOCK_SIZE, else 0
// (the engine sizes blocks from the cache). Throws gufunc_argument_error when the
// setting is not a positive whole number.
size_t block_size_setting();

// How sums and means of doubles accumulate: option gufunc.sum_order, "exact" (the
// default: base R's bits) or "fast". Throws gufunc_argument_error for other values.
engine::SumOrder sum_order_setting();

// True when the user pressed Ctrl-C. R_CheckUserInterrupt runs inside
// R_ToplevelExec, so the interrupt's longjmp stops there instead of crossing C++.
bool interrupt_pending();

// Runner and options for one evaluation; options.runner points into this object.
struct EvalSettings {
  EvalSettings();
  EvalSettings(const EvalSettings&) = delete;
  EvalSettings& operator=(const EvalSettings&) = delete;

  RcppParallelRunner runner;
  engine::EvalOptions options;
};

}  // namespace r
}  // namespace gufunc
