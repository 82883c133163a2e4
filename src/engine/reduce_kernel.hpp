// The last kernel of a reduction's batch: its blocks are computed on all threads and
// the reduction's input is folded into one ReduceState — in index order when the
// reduction needs it (a sum in one long double), else block by block and merged in
// order. Either way the result does not depend on the threads or the block size.
// A mean's second pass folds the values the first pass computed, kept in memory up
// to kMaxKeptBytes, instead of computing them again, unless they are cheap to
// compute (kernel sets flagged kCheapToRecompute, no file read).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/batch.hpp"
#include "engine/block_runner.hpp"
#include "engine/reduce_ops.hpp"
#include "engine/reduce_sums.hpp"
#include "engine/scratch_buffer.hpp"

namespace gufunc {
namespace engine {

// A reduction's rules and what it has accumulated.
struct Fold {
  Reducer reducer;
  ReduceState state;
};

class ReduceKernel {
 public:
  // Instructions [first, end of b.code) run on iterations [begin, end) in blocks of
  // runner.block(); `threads` tasks share them. With `may_keep`, a mean's first pass
  // keeps its values for the second (a kernel that runs both passes).
  ReduceKernel(const Batch& b, const BlockRunner& runner, size_t first, intptr_t begin,
               intptr_t end, int threads, Fold* fold, bool may_keep);

  // Runs blocks [from, to) and folds them; blocks are folded in order across calls.
  // In a second pass over kept values, folds those.
  void run_blocks(Runner* runner, size_t from, size_t to, WorkerOutcome* outcome);

  // Values kept for a second pass at most (beyond, the second pass computes them
  // again, so memory stays bounded by the blocks).
  static const size_t kMaxKeptBytes = size_t(256) << 20;

 private:
  intptr_t position(size_t k) const;
  intptr_t length(size_t k) const;
  // Folds the reduction's input on iterations [pos, pos + n), from this thread's
  // registers, into s.
  void fold_block(const char* registers, intptr_t pos, intptr_t n, ReduceState* s) const;
  // Stores the input values of block k (products: as double) where they are
  // folded from: the kept values, or slot `slot`.
  void store_values(const char* registers, size_t k, size_t slot);
  // Where block k's stored values are.
  char* stored_values(size_t k, size_t slot);

  // A block a helper computed ahead of the fold: its values, or its state when the
  // reduction merges blocks.
  struct Slot {
    std::vector<char> values;
    ReduceState state;
    // An exact sum's values prepared for the binade the total was expected to have.
    std::vector<PreparedChunk> chunks;
    // A fast-order sum's whole chunks of the block, summed (reduce_sums.hpp).
    std::vector<FastChunk> fast_chunks;
  };

  const Batch& b_;
  const BlockRunner& runner_;
  size_t first_, run_last_;     // instructions run per block
  const Instruction& reduce_;   // the Reduce instruction
  const Instruction* product_;  // a product the fold computes itself, or nullptr
  intptr_t begin_, end_;
  int threads_;  // tasks: 1 when helpers would only copy values
  Fold& fold_;
  size_t value_bytes_;  // bytes of one value stored in a slot
  std::vector<Slot> slots_;
  bool keep_ = false;  // the first pass keeps every value for the second
  // Helpers' blocks compute the fold's values straight into their slot (the last
  // instruction writes there), instead of into registers copied afterwards.
  bool redirect_ = false;
  bool prepare_ = false;       // helpers prepare an exact sum's values (ordered_sum.hpp)
  bool prepare_fast_ = false;  // helpers sum a fast-order sum's whole chunks
  std::atomic<uint64_t> expected_binade_{0};  // the total's binade_key() after a fold
  ScratchBuffer kept_;
};

}  // namespace engine
}  // namespace gufunc
