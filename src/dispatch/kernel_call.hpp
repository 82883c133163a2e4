// One chosen kernel variant, prepared once per call and invoked once per run of
// loop iterations (with the run's length and per-argument loop steps).
#pragma once

#include <cstdint>
#include <vector>

#include "dispatch/apply.hpp"

namespace gufunc {

class KernelCall {
 public:
  static const int kMaxCoreDims = 32;  // per argument

  explicit KernelCall(const ApplyPlan& plan);

  // Calls the kernel on `n` loop iterations; returns 0, or -1 with ctx set.
  int run(char** args, intptr_t n, const intptr_t* loop_steps, gufunc_context* ctx) const;

  // Broadcast calls: byte stride of every argument along every loop dim (0 where
  // the argument has size 1 there), and the steps along the first loop dim.
  const std::vector<std::vector<intptr_t>>& loop_strides() const { return loop_strides_; }
  const intptr_t* inner_steps() const { return inner_steps_.data(); }
  // Loop iterations per parallel task.
  size_t grain() const { return grain_; }

 private:
  int run_nd(gufunc_nd_kernel_t fn, char** args, intptr_t n, const intptr_t* loop_steps,
             gufunc_context* ctx) const;

  const ApplyPlan& plan_;
  int nargs_;
  Variant variant_;
  std::vector<intptr_t> dim_sizes_;                  // NumPy's dimensions[1..]
  std::vector<intptr_t> core_steps_;                 // NumPy's steps[nargs..]
  std::vector<std::vector<intptr_t>> core_sizes_;    // per argument, present dims only
  std::vector<std::vector<intptr_t>> core_strides_;  // per argument, present dims only
  std::vector<std::vector<intptr_t>> loop_strides_;
  std::vector<intptr_t> inner_steps_;
  size_t grain_ = 1;
};

}  // namespace gufunc
