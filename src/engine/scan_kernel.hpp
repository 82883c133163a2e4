// The last kernel of a scan's batch (cumsum(x * 2 + 1) and co.): blocks of the
// scan's input are computed on all threads by the fused element-wise producers, in
// block scratch, and one task carries the scan through them in index order (the
// ordered blocks of ordered_blocks.hpp), writing the values of the range wanted.
// The carry is the scan's state (scan_ops.hpp), so the values do not depend on the
// threads or the block size.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/batch.hpp"
#include "engine/block_runner.hpp"
#include "engine/scan_ops.hpp"

namespace gufunc {
namespace engine {

// Where a scan's values go: elements [out_begin, ...) of the scan into `out`; the
// elements before only advance the carry (`state`, the carry where the run starts).
struct ScanTarget {
  Scanner scanner;
  ScanState state;
  char* out;
  intptr_t out_begin;
};

class ScanKernel {
 public:
  // Instructions [first, end of b.code) run on elements [begin, end) in blocks of
  // runner.block(); `threads` tasks share them.
  ScanKernel(const Batch& b, const BlockRunner& runner, size_t first, intptr_t begin, intptr_t end,
             int threads, ScanTarget* target);

  // Runs blocks [from, to) and carries the scan through them; blocks are scanned in
  // order across calls.
  void run_blocks(Runner* runner, size_t from, size_t to, WorkerOutcome* outcome);

 private:
  intptr_t position(size_t k) const;
  intptr_t length(size_t k) const;
  // Carries the scan through the n input values at `in` (`step` bytes apart), the
  // values of elements [pos, pos + n).
  void scan(const char* in, intptr_t step, intptr_t pos, intptr_t n);

  const BlockRunner& runner_;
  size_t first_, last_;      // instructions run per block
  const Instruction& scan_;  // the Scan instruction
  intptr_t begin_, end_;
  int threads_;  // tasks: 1 when helpers would only copy values
  ScanTarget& target_;
  size_t value_bytes_;                    // bytes of one input value
  std::vector<std::vector<char>> slots_;  // blocks computed ahead of the carry
};

}  // namespace engine
}  // namespace gufunc
