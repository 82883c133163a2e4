// One gufunc instruction of a batch, run on a block of loop iterations through its
// dispatch-table kernel (KernelCall chooses the variant and lays out the steps).
// Operands computed block by block (and the output) are contiguous from the block's
// first iteration; operands read in place (inputs, constants, staged buffers) follow
// the call's loop strides, so broadcast loop dims work as in an eager call.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "dispatch/kernel_call.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

class GufuncStep {
 public:
  explicit GufuncStep(const Node& g);

  // Runs loop iterations [pos, pos + n). base[a] is, for a contiguous argument
  // (contiguous[a]), the address of iteration pos's core, else the argument's start.
  // Returns 0, or -1 with ctx set; ctx->failed_at is then the failing iteration of
  // the whole loop, or -1.
  int run(char* const* base, const bool* contiguous, intptr_t pos, intptr_t n,
          gufunc_context* ctx) const;

  // The error a failure in `ctx` becomes, as an eager call words it:
  // "kernel of `inner` failed for slice [, 3]: <kernel message>".
  std::string failure(const gufunc_context& ctx) const;

 private:
  const Node& g_;
  KernelCall call_;
  std::vector<intptr_t> core_bytes_;  // per argument (inputs, then the output)
  bool all_span_ = true;              // no operand broadcasts over the loop dims
};

// Counters the tests read through a hook (test_hooks_engine.cpp): how many gufunc
// loop iterations ran, and the largest full-length buffer (temporary or staged
// operand) an evaluation allocated, in bytes.
struct EngineCounters {
  std::atomic<long long> gufunc_iterations{0};
  std::atomic<long long> largest_buffer{0};
};
EngineCounters& engine_counters();
void note_buffer(size_t bytes);

}  // namespace engine
}  // namespace gufunc
