// Running a batch's instructions on one block of iterations: where each value's
// elements are (inputs, constants, staged buffers, full-length temporaries, or this
// thread's block scratch registers) and how each instruction's kernel is called.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dispatch/parallel.hpp"
#include "engine/batch.hpp"
#include "engine/gufunc_step.hpp"

namespace gufunc {
namespace engine {

// This thread's block scratch of at least `bytes`, grown as needed and kept between
// calls: tasks are small, so allocating (and zeroing) registers per task would cost
// more than them.
char* thread_scratch(size_t bytes);

// Everything a worker needs to run instructions on a block of iterations. The batch
// runs over iterations [begin, ...); `out` receives the root's values.
class BlockRunner {
 public:
  BlockRunner(const Batch& b, intptr_t begin, char* out, std::vector<ScratchBuffer>* temps,
              size_t block);

  size_t block() const { return block_; }
  size_t register_bytes() const { return register_elements_ * sizeof(double); }
  // Scratch a thread needs for all registers and for the elements of block views
  // (inputs that are blocks of a matrix) gathered per block.
  size_t scratch_bytes() const {
    const size_t slots = static_cast<size_t>(b_.registers > 1 ? b_.registers : 1) + gathered_;
    return slots * register_bytes();
  }

  // Runs instructions [first, last) on iterations [pos, pos + n) with `scratch` as
  // this thread's registers, and value `redirected` (one in_registers(), of width 1,
  // that no gufunc instruction there reads or writes), if not -1, at `redirect_to`
  // instead. Returns 0, or -1 with ctx set and *failed the failing instruction.
  int run(size_t first, size_t last, intptr_t pos, intptr_t n, char* scratch, gufunc_context* ctx,
          size_t* failed, int redirected = -1, char* redirect_to = nullptr) const;

  // Whether value v is computed into this thread's block registers.
  bool in_registers(int v) const;

  // The error a failure of instruction i becomes.
  std::string failure(size_t i, const gufunc_context& ctx) const;

  // Which elements of each value are in its gather slot now, so that a view read
  // by several instructions of one block is gathered once.
  struct Gathered {
    intptr_t pos = -1, count = 0;
  };

  // Where value v's elements [pos, pos + count) are, and their step. The elements
  // of a block view that cross a column are gathered into its slot of `scratch`
  // (unless `gathered` says they are there already).
  char* pointer(int v, intptr_t pos, intptr_t count, char* scratch, intptr_t* step,
                std::vector<Gathered>* gathered = nullptr) const;

 private:
  // pointer(), or `redirect_to` for value `redirected` (see run()).
  char* operand(int v, intptr_t pos, intptr_t count, char* scratch, intptr_t* step,
                std::vector<Gathered>* gathered, int redirected, char* redirect_to) const;
  int run_gufunc(size_t i, intptr_t pos, intptr_t n, char* scratch, gufunc_context* ctx) const;
  void run_fused_at(const FusedRun& run, intptr_t pos, intptr_t n, char* scratch,
                    gufunc_context* ctx, std::vector<Gathered>* gathered, int redirected,
                    char* redirect_to) const;
  static void patch(const Region& r, char** args, const intptr_t* steps, intptr_t pos, intptr_t n,
                    size_t es);
  static int call_kernel(const Node& node, char** args, const intptr_t* steps, intptr_t n,
                         gufunc_context* ctx);

  const Batch& b_;
  intptr_t begin_;
  char* out_;
  std::vector<ScratchBuffer>& temps_;
  size_t block_;                                    // iterations per block
  size_t register_elements_;                        // elements a register holds: block * max_width
  std::vector<std::unique_ptr<GufuncStep>> steps_;  // per instruction (Gufunc only)
  std::vector<int> gather_slot_;          // per value: scratch slot of a block view, or -1
  size_t output_instruction_ = SIZE_MAX;  // the instruction computing the output, if any
  size_t gathered_ = 0;                   // block views
};

// Runs instructions [first, last) on iterations [pos, pos + n) in this thread's
// scratch and returns it; nullptr when a kernel failed (the failure and the
// warnings are recorded in `outcome`).
char* run_block(const BlockRunner& runner, size_t first, size_t last, intptr_t pos, intptr_t n,
                WorkerOutcome* outcome, int redirected = -1, char* redirect_to = nullptr);

}  // namespace engine
}  // namespace gufunc
