// Fused runs: consecutive element-wise instructions of one kernel whose kernel sets
// have row kernels (dispatch/row_kernel.hpp), computed together a row at a time
// instead of one instruction over the whole block after another. The values passed
// between them stay in rows of the first-level cache (or are written straight to
// where later instructions, the fold or the output read them), and the reads of the
// operands from memory overlap the computing: an expression over large arrays runs
// at the speed of reading them, as one hand-written loop over its elements would.
//
// A row kernel computes the bits of its set's strided kernel, and every element's
// value depends on the same position of the operands only, so rows give the same
// results as blocks of any size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dispatch/row_kernel.hpp"
#include "gufunc/kernel_set.h"

namespace gufunc {
namespace engine {

struct Batch;

// Instructions [first, last) of a batch, as steps over operand slots: first the
// values the run reads from elsewhere (`outside`), then those it computes that are
// read elsewhere too (`written`, to their places), then rows of its own for the
// values only the run reads (`rows`).
struct FusedRun {
  size_t first = 0, last = 0;
  std::vector<int> outside;
  std::vector<int> written;
  int rows = 0;
  struct Step {
    RowKernel kernel;
    int inputs;
    int in[GUFUNC_MAX_ARGS];  // slots
    int out;                  // slot
  };
  std::vector<Step> steps;
  int slots() const { return static_cast<int>(outside.size() + written.size()) + rows; }
};

// Slots a run may have (a row each: 32 KiB in all at most).
constexpr int kMaxFusedSlots = 16;

// The fused runs of `b` (build_batch() keeps them in b.fused): the longest runs (of
// two instructions or more) of Map instructions inside one kernel, of width 1, with
// double operands and result, whose kernel sets have row kernels. The product a
// trailing sum computes itself (b.fused_product) is left out: the caller does not
// run it.
std::vector<FusedRun> find_fused_runs(const Batch& b);

// Runs `run` over n elements. `places[k]` and `steps[k]` for each outside and
// written slot k: where its elements are and their step in bytes (sizeof(double),
// or 0 for an outside value of one element); written slots' are contiguous.
// Returns the warnings the row kernels raised.
unsigned run_fused(const FusedRun& run, char* const* places, const intptr_t* steps, intptr_t n);

}  // namespace engine
}  // namespace gufunc
