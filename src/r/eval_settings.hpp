// What every deferred evaluation started from R needs: the thread runner, the block
// size setting and an interrupt check. Read on the main thread for each evaluation,
// so options changed between calls take effect.
#pragma once

#include "engine/evaluate.hpp"
#include "engine/file_read_mode.hpp"
#include "r/guard.hpp"
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

// How blocks read consecutive elements of files (engine/file_read_mode.hpp):
// option gufunc.file_reads, "auto" (the default: the way measured faster),
// "mapped" or "pread". Throws gufunc_argument_error for other values.
engine::FileReads file_reads_setting();

// True when R wants to stop: the user pressed Ctrl-C, or a time limit set by
// setTimeLimit() passed. R's jump (its own interrupt or error, after R ran the
// calling handlers) is held, not run across C++ frames: the engine then stops, and
// stop_interrupted() hands the jump to guarded(), which resumes it after every C++
// frame is gone. So tryCatch(interrupt = ) sees R's interrupt, and try() or
// tryCatch(error = ) do not catch Ctrl-C.
bool interrupt_pending();

// Tests: the k-th interrupt check from now says stop, as if Ctrl-C came just before
// it (0: none). No R interrupt is then pending, so the engine stops with a
// gufunc_interrupt error.
void simulate_interrupt_at_check(int k);

// Called where the engine stopped (engine::Interrupted was caught): throws the jump
// interrupt_pending() held (RUnwind, resumed by guarded()); without one, a
// gufunc_interrupt error.
[[noreturn]] void stop_interrupted();

// Holds `token`, R's jump out of R code run between rounds (a progress report): the
// next interrupt check then says stop, and stop_interrupted() resumes the jump.
void hold_jump(SEXP token);

// The hooks between rounds of one evaluation or eager call started from R
// (dispatch/rounds.hpp): the interrupt check above and the progress report of
// progress_report.hpp. Forgets
// a jump held by an earlier evaluation that did not stop_interrupted(): its target
// is gone, so it must never be resumed.
RoundHooks round_hooks();

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
