// Evaluation of a deferred graph: the batch of instructions is cut into kernels by
// the blockability rule, and each kernel runs block by block on the runner's
// threads with intermediates in per-thread block scratch.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dispatch/parallel.hpp"
#include "dispatch/rounds.hpp"
#include "engine/graph.hpp"
#include "engine/plan_graph.hpp"
#include "engine/reused_values.hpp"

namespace gufunc {
namespace engine {

// How sums and means of doubles accumulate. Exact: as base R, in one long double in
// index order (base R's bits; mean makes base R's second pass). Fast: the value at
// index i goes to accumulator i % 4 and mean is one pass (the last bits may differ
// from base R). Either way the result does not depend on the threads or the blocks.
enum class SumOrder { Exact, Fast };

struct EvalOptions {
  Runner* runner = nullptr;
  SumOrder sum_order = SumOrder::Exact;
  size_t block_size = 0;  // elements per block; 0: from the cache size (block_size.hpp)
  // Called on the main thread between rounds of blocks (rounds.hpp): the interrupt
  // check (true to stop: evaluation then throws Interrupted, and the caller caches
  // nothing) and the progress report. Unset: neither.
  RoundHooks hooks;
  // The R call this evaluation serves (one id per EvalOptions made; copies share
  // it), and whether values a previous request computed are kept when read again
  // (reused_values.hpp).
  uint64_t request = new_request_id();
  bool keep_reused = true;
};

// Thrown when EvalOptions::hooks.interrupted said stop.
using gufunc::Interrupted;

// `options` for the evaluation of a part of a larger whole (a block of a product's
// rows): progress reports count from `done` to done + part of `total` (the whole's
// units: rows, say), so that one report runs over all parts instead of starting
// again at each.
inline EvalOptions options_for_part(const EvalOptions& options, double done, double part,
                                    double total) {
  EvalOptions each = options;
  if (options.hooks.progress && total > 0) {
    const auto report = options.hooks.progress;
    each.hooks.progress = [=](size_t d, size_t t) {
      const double fraction = t ? static_cast<double>(d) / static_cast<double>(t) : 1;
      report(static_cast<size_t>(done + fraction * part), static_cast<size_t>(total));
    };
  }
  return each;
}

// Evaluates elements [begin, end) of `root` (a Map, Gufunc, Assign, Scan, Input or Scalar
// node) into `out`, which holds end - begin values of root->dtype. A Scan computes
// elements [0, begin) too, to carry its values to `begin`. Returns the GUFUNC_WARN_* bits;
// throws gufunc_kernel_error when a kernel fails.
unsigned evaluate(const NodePtr& root, intptr_t begin, intptr_t end, char* out,
                  const EvalOptions& options);

// Elements [begin, end) of a value, one of the runs a subset picks.
struct Run {
  intptr_t begin, end;
};
// Evaluates the elements of `root` in each of `runs`, one run after another into
// `out` (as many values as the runs hold): x[i, j] computes only what it picks. The
// batch of an element-wise graph is built once for all runs.
unsigned evaluate_runs(const NodePtr& root, const std::vector<Run>& runs, char* out,
                       const EvalOptions& options);

// The value of a reduction node, in base R's type for it: sum of integer/logical is
// integer (a double when it leaves the int range, as R 4.x), mean and
// prod are double, min/max keep integer, any/all are logical.
// Range gives min in [0] and max in [1]; every other reduction one value in [0].
// An empty min/max (or all NA removed) is +-Inf of type double with
// GUFUNC_WARN_EMPTY_MIN / GUFUNC_WARN_EMPTY_MAX, as base R.
struct ReduceResult {
  gufunc_dtype dtype = GUFUNC_DOUBLE;
  int count = 1;              // 2 for Range
  double value[2] = {0, 0};   // double results
  int int_value[2] = {0, 0};  // integer or logical results (NA_INTEGER for NA)
  unsigned warnings = 0;
};
ReduceResult reduce(const NodePtr& reduce_node, const EvalOptions& options);

// What lazy_plan() shows: the kernels the batch is cut into and why.
struct PlanKernel {
  std::vector<std::string> instructions;  // e.g. "t2 = `*` [double, double -> double](x1, x1)"
  std::string split_reason;               // why this kernel ends where it does ("" for the last)
  std::vector<std::string> notes;         // gufunc blocks, and where fusion stops and why
};
struct Plan {
  std::vector<PlanKernel> kernels;
  std::vector<std::string> inputs;  // e.g. "double[10000000]", one per graph input
  size_t block_size = 0;
  int threads = 1;
  double bytes_read = 0, bytes_written = 0;  // by the fused evaluation
  double file_bytes_read = 0;                // of them, from files (lazy_file())
  double base_r_bytes = 0;                   // by base R, one temporary per operation
  PlanGraph graph;                           // the same evaluation as values and steps
};
Plan describe(const NodePtr& root, const EvalOptions& options);

}  // namespace engine
}  // namespace gufunc
